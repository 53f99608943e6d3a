"""What blind round 41's readers judged wrong (bench/blind/round41), fixed after the round and
so measured by no blind round yet: a query built as text that splices in only the program's
own constants (guillotina's `parent_id = '{TRASHED_ID}'`), called an injection. A query that
splices in a caller's value still is one."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

QUERIES = '''from const import TRASHED_ID


def trashed(con):
    return con.execute(f"SELECT zoid FROM objects WHERE parent_id = '{TRASHED_ID}'")


def by_name(con, name):
    return con.execute(f"SELECT zoid FROM objects WHERE name = '{name}'")
'''


def test_a_query_that_splices_in_constants_only_is_no_injection():
    assert said_lines(QUERIES, Topic.SQL_INJECTION) == {9}
