"""What blind round 54's readers judged wrong (bench/blind/round54), fixed after the round:
names a module lists in strings for its framework to bind (backtrader's `packages`), a list a
`while` loop fills page by page, and a loop in a function Numba compiles. Each beside a case
still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

PACKAGES = '''class Hurst(object):
    packages = (("numpy", "asarray"),)

    def next(self):
        return asarray(self.data)

    def last(self):
        return sqrt(self.data)
'''


def test_a_name_the_module_lists_in_a_string_is_bound_at_run_time():
    assert said_lines(PACKAGES, Topic.UNDEFINED_NAME) == {8}


PAGES = '''def transactions(client, address):
    txs = []
    page = 1
    while True:
        batch = client.get(address, page)
        for tx in batch:
            txs.append(tx.id)
        if not batch:
            return txs
        page += 1


def ids(batch):
    out = []
    for tx in batch:
        out.append(tx.id)
    return out
'''


def test_a_list_a_while_loop_fills_page_by_page_is_no_comprehension():
    assert said_lines(PAGES, Topic.SIMPLIFY, source="PERF401") == {16}


JITTED = '''from numba import njit, literal_unroll


@njit
def combine(funcs, x):
    out = []
    for f in literal_unroll(funcs):
        out.append(f(x))
    return out


def plain(funcs, x):
    out = []
    for f in funcs:
        out.append(f(x))
    return out
'''


def test_a_loop_numba_compiles_is_left_a_loop():
    assert said_lines(JITTED, Topic.SIMPLIFY, source="PERF401") == {15}


FIELD_TYPE = '''def convert(value, kind="datetime"):
    if isinstance(value, datetime):
        return value.isoformat()
    return value
'''


def test_a_bare_string_that_spells_the_name_binds_nothing():
    # Round 43's readers judged this NameError right; the pair rule must not hide it.
    assert said_lines(FIELD_TYPE, Topic.UNDEFINED_NAME) == {2}
