"""What blind round 86's readers judged weak or wrong (bench/blind/round86), fixed after the
round: an unused import said of a package's `__init__.py` (now that a lone file's name
reaches the analysis), a Python 2 name probed under a bare `except`, `pickle.loads` in a
cache backend that pickles the same value back, and two rows of a table of one-line
branches joined with `or`. The same findings elsewhere are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.diffs import parse_diff
from tribunalbot.llm.offline.changes import analyze_change
from tribunalbot.llm.offline.topic import Topic

FRONT = '''import hmac
import os
from .util import sha1


def digest(key, data):
    return sha1(key + data)
'''


def test_a_package_front_named_so_keeps_its_imports():
    assert said_lines(FRONT, Topic.UNUSED_IMPORT) == {1, 2}
    assert said_lines(FRONT, Topic.UNUSED_IMPORT, file_name="__init__.py") == set()
    assert said_lines(FRONT, Topic.UNUSED_IMPORT, file_name="_compat.py") == set()
    assert said_lines(FRONT, Topic.UNUSED_IMPORT, file_name="session.py") == {1, 2}


def test_a_change_reads_its_files_names_the_same_way():
    body = "".join(f"+{x}\n" for x in FRONT.splitlines())
    diff = ("diff --git a/pkg/{0} b/pkg/{0}\nnew file mode 100644\n--- /dev/null\n"
            "+++ b/pkg/{0}\n@@ -0,0 +1,7 @@\n" + body)
    for name, said in (("__init__.py", set()), ("core.py", {"hmac", "os"})):
        analysis = analyze_change(parse_diff(diff.format(name)), use_ruff=True)
        found = {f.detail for f in analysis.findings if f.topic == Topic.UNUSED_IMPORT
                 and analysis.says(f)}
        assert found == said, name


PROBE = '''try:
    NNNN = unicode("N")
except:
    NNNN = "N"


def upper(x):
    return unicode(x).upper()
'''


def test_a_python2_name_probed_under_a_bare_except_is_no_error():
    assert said_lines(PROBE, Topic.UNDEFINED_NAME) == {8}


STORE = '''import pickle


class Backend:
    def __init__(self, cache, name):
        self.cache, self.name = cache, name
        self.hash = {}

    def open(self, item):
        try:
            self.hash = pickle.loads(str(item.data))
        except (IOError, pickle.PickleError):
            self.hash = {}

    def close(self, item):
        item.data = pickle.dumps(self.hash)
        item.put()


def read(item):
    return pickle.loads(str(item.data))
'''


def test_a_store_that_pickles_back_what_it_unpickles_keeps_pickle():
    assert said_lines(STORE, Topic.UNSAFE_DESERIALIZE) == {21}


TABLE = '''def step(word, r):
    if word.endswith("ization"):   r("ize")
    elif word.endswith("ation"):   r("ate")
    elif word.endswith("ator"):    r("ate")


def suffix(word, r):
    if word.endswith("alism"):
        r("al")
    elif word.endswith("alist"):
        r("al")
    return word
'''


def test_one_line_rows_of_a_table_are_not_joined():
    assert said_lines(TABLE, Topic.SIMPLIFY) == {8}
