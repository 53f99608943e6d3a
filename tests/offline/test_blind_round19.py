"""What blind round 19's readers judged wrong (bench/blind/round19): a delete tried once,
under `if flag is None:`, to learn whether permissions allow it, read as an I/O call per
item; `markAsUncloneable || (() => {})`, a no-op stand-in for a function older Node lacks,
read as a swallowed failure; and SIM103's form, which returned a match object where the if
returned True or False."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import REGISTRY


def _lines(code: str, language: str, topic: Topic) -> set[int]:
    return {f.line for f in analyze(code, language, use_ruff=False).findings
            if f.topic == topic}


PROBES = '''import requests


def _delete(url):
    return requests.delete(url, timeout=5)


def clean(urls):
    denied = None
    later = []
    for url in urls:
        if denied is None:
            denied = _delete(url) is None
        else:
            later.append(url)
    for url in urls:
        _delete(url)
    return later
'''


def test_a_call_made_on_the_first_pass_only_is_no_call_per_item() -> None:
    assert _lines(PROBES, "python", Topic.IO_CALL_IN_LOOP) == {17}


STAND_INS = '''const util = {}
util.markAsUncloneable = markAsUncloneable || (() => {})
util.onClose = options.onClose ?? (() => {})
stream.on('end', () => {})
'''


def test_a_no_op_stand_in_for_a_missing_function_swallows_nothing() -> None:
    assert _lines(STAND_INS, "javascript", Topic.SWALLOWED_ERROR) <= {4}
    assert 2 not in _lines(STAND_INS, "javascript", Topic.SWALLOWED_ERROR)


def test_returning_the_condition_keeps_it_a_bool() -> None:
    assert "bool(" in dict(REGISTRY[Topic.SIMPLIFY].forms)["SIM103"]
