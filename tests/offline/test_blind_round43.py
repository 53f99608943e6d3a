"""What blind round 43's readers judged wrong (bench/blind/round43), fixed after the round:
pydal's `field == None` that builds a query, its dialect's SQL built from `%i` numbers and
values it renders itself, a compatibility shim's imports, a Series' `.keys()`, IPython's
`get_ipython`, a `setattr` the file says it needs, and a division by a converter's alphabet.
Each case beside one the same check still says."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

QUERY_BUILT = '''def pending(db, field):
    query = field == None
    rows = db(db.task.worker == None).select()
    if field == None:
        return rows
    return query
'''


def test_a_none_comparison_that_builds_a_query_is_left_alone():
    assert said_lines(QUERY_BUILT, Topic.NONE_COMPARE) == {4}


SINGLETONS_MEANT = "# pylint: disable=singleton-comparison\n" + QUERY_BUILT


def test_a_file_that_allows_singleton_comparisons_means_them():
    assert said_lines(SINGLETONS_MEANT, Topic.NONE_COMPARE) == set()


DIALECT = '''class Dialect:
    def select_limit(self, fields, table, lmin, lmax):
        return "SELECT %s FROM %s WHERE ROWNO=%i" % (fields, table, lmax)

    def truncate(self, table):
        tablename = self.adapter.expand(table._raw_rname, "string")
        return "DELETE FROM sqlite_sequence WHERE name=%s" % tablename

    def by_name(self, cur, name):
        return cur.execute("SELECT * FROM t WHERE name = '%s'" % name)
'''


def test_sql_built_from_numbers_and_rendered_values_is_no_injection():
    assert said_lines(DIALECT, Topic.SQL_INJECTION) == {10}


SHIM = '''import os
import sys

PY2 = False

import builtins as builtin
import configparser
import queue as Queue


def home():
    return "~"
'''


def test_a_python2_shim_imports_for_other_modules():
    assert said_lines(SHIM, Topic.UNUSED_IMPORT) == set()
    assert said_lines(SHIM.replace("PY2 = False", "LIMIT = 2").replace(
        "import queue as Queue", "import queue"), Topic.UNUSED_IMPORT) == {1, 2, 6}


FRAMES = '''import pandas as pd


def schema(df: pd.DataFrame):
    names = []
    for name in df.dtypes.keys():
        names.append(name)
    return names
'''


def test_keys_in_a_module_of_data_frames_may_be_no_dicts():
    assert said_lines(FRAMES, Topic.SIMPLIFY, source="ruff:SIM118") == set()
    assert said_lines(FRAMES.replace("import pandas as pd", "import json as pd"),
                      Topic.SIMPLIFY, source="ruff:SIM118") == {6}


MAGIC = '''def load_magic(run):
    ip = get_ipython()
    ip.register_magic_function(run)
'''


def test_ipython_supplies_get_ipython():
    assert said_lines(MAGIC, Topic.UNDEFINED_NAME) == set()
    assert said_lines(MAGIC.replace("get_ipython", "get_ipyton"), Topic.UNDEFINED_NAME) == {2}


SETATTRS = '''class Cli:
    def __init__(self, formatter):
        self.formatter = formatter
        # self.formatter.cli = self: the type checker refuses it, hence dynamic assignment
        setattr(self.formatter, "cli", self)

    def run(self, query):
        setattr(self.formatter, "query", query)
'''


def test_a_setattr_the_file_explains_is_kept():
    assert said_lines(SETATTRS, Topic.SIMPLIFY, source="ruff:B010") == set()
    plain = SETATTRS.replace("        # self.formatter.cli = self: the type checker refuses it, "
                             "hence dynamic assignment\n", "")
    assert said_lines(plain, Topic.SIMPLIFY, source="ruff:B010") == {4}


CONVERTER = '''class BaseConverter:
    def convert(self, x, todigits):
        res = ""
        while x > 0:
            digit = x % len(todigits)
            res = todigits[digit] + res
            x = int(x / len(todigits))
        return res


class Stats:
    def __init__(self):
        self.seen = []

    def ratio(self, hits):
        return hits / len(self.seen)
'''


def test_a_division_after_the_empty_case_already_failed_is_not_where_it_breaks():
    assert said_lines(CONVERTER, Topic.DIV_EMPTY) == {16}
