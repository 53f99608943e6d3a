"""What blind round 27's readers judged wrong (bench/blind/round27): `import scipy` under a
bare except that sets `has_scipy`, read as unused; `e` of `except Error as e:` read inside
its handler by a lambda, read as undefined; and a best-effort `self.flush()` before a write,
read as a swallowed failure."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

PROBE = '''def constraint(graph):
    try:
        import scipy as sp

        has_scipy = True
    except:
        has_scipy = False
    return has_scipy and graph
'''


def test_an_import_under_a_catch_all_that_sets_a_flag_is_a_probe():
    assert said_lines(PROBE, Topic.UNUSED_IMPORT) == set()


HANDLER = '''def open_tab(browser, cli, log):
    try:
        browser.open_new_tab()
    except OSError as e:
        cli.run_in_terminal(lambda: log.error("failed: %s", e))
'''


def test_the_name_of_a_handler_is_defined_inside_it():
    assert said_lines(HANDLER, Topic.UNDEFINED_NAME) == set()


FLUSHES = '''class Stream:
    def write(self, data):
        try:
            self.flush()
        except Exception:
            pass
        return self.buffer.write(data)

    def read(self):
        try:
            return self.buffer.read()
        except Exception:
            pass
'''


def test_a_best_effort_flush_is_no_swallowed_failure():
    assert said_lines(FLUSHES, Topic.SWALLOWED_ERROR) == {12}
