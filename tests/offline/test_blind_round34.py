"""What blind round 34's readers judged wrong (bench/blind/round34), fixed after the round and
so measured by no blind round yet: a name a module reads at many lines and never binds, given
by whatever runs it (pysnmp execs each MIB module with `mibBuilder` in its namespace), called
undefined at every line (a name read at a line or two is still one nothing defines); a
`getattr` where the attribute may be missing; `assert True` outside a test; a path method in an
`async def` called blocking I/O; and, from rounds 21-34's verdicts, two rows of a dispatch
table (or two placeholder branches) joined with `or`, and a dict comprehension for a loop that
copies an `.items()`."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.pynames import SUPPLIED_USES
from tribunalbot.llm.offline.topic import Topic

MIB = "".join(f'entry{n} = mibBuilder.import_symbols("SNMPv2-SMI", "Entry{n}")\n'
              for n in range(SUPPLIED_USES)) + '''

def check(value):
    if value < 0:
        raise error.SmiError("negative")
    return value
'''


def test_a_name_the_runner_supplies_is_not_undefined():
    assert said_lines(MIB, Topic.UNDEFINED_NAME) == {SUPPLIED_USES + 5}  # `error`, read once


PROBES = '''import socket

OPTIONS = {}

if hasattr(socket, "TCP_USER_TIMEOUT"):
    OPTIONS["timeout"] = getattr(socket, "TCP_USER_TIMEOUT")

DEFAULT_IDLE = 60

try:
    OPTIONS["keepalive"] = getattr(socket, "TCP_KEEPIDLE")
except AttributeError:
    pass


def family(sock):
    return getattr(sock, "family")
'''


def test_a_getattr_where_the_attribute_may_be_missing_is_left():
    assert said_lines(PROBES, Topic.SIMPLIFY, source="B009") == {17}


PLACEHOLDER = '''def read_header(data):
    assert True
    assert len(data) == 32
    return data[:4]


def test_header():
    assert True
'''


def test_a_vacuous_assert_is_said_in_a_test_only():
    assert said_lines(PLACEHOLDER, Topic.VACUOUS_ASSERT) == {8}


ASYNC_PATHS = '''from pathlib import Path

from aiohttp import web


async def start(config):
    home = Path(config).expanduser()
    return web.Application(), home
'''


def test_a_path_method_in_async_code_is_no_blocking_io():
    assert said_lines(ASYNC_PATHS, Topic.BLOCKING_IO) == set()


COPIES = '''def variables(config):
    found = {}
    for key, value in config.items():
        found[key] = value
    return found


def inverse(mapping):
    found = {}
    for key, value in mapping.items():
        found[value] = key
    return found
'''


def test_a_loop_that_copies_pairs_wants_no_comprehension():
    assert said_lines(COPIES, Topic.SIMPLIFY, source="PERF403") == {11}


TABLE = '''def stop_bits(value):
    if value == 1:
        code = 0
    elif value == 15:
        code = 1
    elif value == 2:
        code = 1
    elif value == 3:
        code = 2
    elif value == 4:
        code = 3
    else:
        code = 4
    return code


def packet(kind, handle):
    if kind == "ack":
        handle()
    elif kind == "nack":
        pass
    elif kind == "ping":
        pass
    return kind


def sign(x):
    if x > 0:
        return 1
    elif x == 0:
        return 1
    return -1
'''


def test_rows_of_a_dispatch_table_and_placeholders_are_not_joined():
    assert said_lines(TABLE, Topic.SIMPLIFY, source="SIM114") == {28}
