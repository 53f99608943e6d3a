"""What blind round 45's readers judged wrong or weak (bench/blind/round45), fixed after the
round: a test that makes a mock fail and checks the code absorbs it, `getattr` the file says
it needs, a compatibility module that imports `six`, `shell=True` handed on to the module's
own helper, and `debug=True` handed to a renderer. Each beside a case still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

TESTS = '''import unittest
from unittest import mock


class LexiconTest(unittest.TestCase):
    def test_cleanup_with_login_failure_ignored(self):
        with mock.patch("lexicon.Client") as client:
            client.side_effect = RuntimeError
            self.auth.cleanup([self.achall])

    def test_cleanup(self):
        with mock.patch("lexicon.Client"):
            self.auth.cleanup([self.achall])
'''


def test_a_test_that_injects_a_failure_checks_it_is_absorbed():
    assert said_lines(TESTS, Topic.TEST_WITHOUT_ASSERT) == {11}


SCHEMAS = '''def request_schema(wrapper, schema):
    # we need to use setattr/getattr here else we see attr-defined errors
    if not schema:
        return wrapper
    schema.check()
    getattr(wrapper, "schemas").append(schema)
    return wrapper
'''


def test_a_getattr_the_file_explains_is_kept():
    assert said_lines(SCHEMAS, Topic.SIMPLIFY, source="ruff:B009") == set()
    plain = SCHEMAS.replace("    # we need to use setattr/getattr here else we see attr-defined "
                            "errors\n", "")
    assert said_lines(plain, Topic.SIMPLIFY, source="ruff:B009") == {5}


COMPAT = '''import os
from collections import OrderedDict
from botocore.vendored import six


def ensure_bytes(s):
    return s.encode() if isinstance(s, str) else s
'''


def test_a_module_that_imports_six_keeps_names_for_others():
    assert said_lines(COMPAT, Topic.UNUSED_IMPORT) == set()
    assert said_lines(COMPAT.replace("from botocore.vendored import six\n", ""),
                      Topic.UNUSED_IMPORT) == {1, 2}


STRATEGIES = '''import subprocess


def _strategy_command(*command, shell=False):
    return subprocess.check_output(list(command), text=True, shell=shell)


def _strategy_shell(*command):
    """Run a user-specified command string in a shell."""
    return _strategy_command(*command, shell=True)


def run(name):
    return subprocess.check_output("ls " + name, shell=True)
'''


def test_shell_true_handed_to_the_modules_own_helper_builds_no_command():
    assert said_lines(STRATEGIES, Topic.SHELL_INJECTION) == {14}


SELF_TEST = '''def to_str(node, debug=False):
    return node.render(pretty=debug)


def serve(app):
    app.run(debug=True)


if __name__ == "__main__":
    print(to_str(page(), debug=True))
'''


def test_debug_handed_to_a_renderer_exposes_nothing():
    assert said_lines(SELF_TEST, Topic.DEBUG_EXPOSURE) == {6}
