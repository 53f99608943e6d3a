"""What blind rounds 91 and 92's readers judged wrong or weak (bench/blind/round91, round92),
fixed after the rounds: `long` called undefined under `if is_py2:`, two `isinstance` calls
merged where one names `long` (the merged call looks it up on Python 3 and raises), and
`eval` of text tried as code under a `try` that takes the plain case on `SyntaxError` or
`NameError` (a literal parser's `ValueError` would escape it). The same findings elsewhere
are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

FLAGGED = '''from boto.compat import is_py2

CRC_MASK = 0xffffffff
if is_py2:
    CRC_MASK = long(CRC_MASK)


def crc(data):
    return zlib_crc(data) & CRC_MASK
'''


def test_a_python2_name_under_an_is_py2_flag_is_no_error():
    assert said_lines(FLAGGED, Topic.UNDEFINED_NAME) == {9}


MERGED = '''def encode(value):
    if isinstance(value, int) or isinstance(value, long):
        return str(value)
    if isinstance(value, float) or isinstance(value, complex):
        return repr(value)
    return value
'''


def test_isinstance_calls_naming_long_are_not_merged():
    assert said_lines(MERGED, Topic.SIMPLIFY) == {4}


TITLES = '''def titles(info, _):
    result = []
    for d in info:
        try:
            title = eval(d["title"])
        except (NameError, SyntaxError):
            title = _(d["title"])
        result.append(title)
    return result


def run(request):
    return eval(request.args["expr"])
'''


def test_text_tried_as_code_with_a_fallback_is_not_called_injection():
    assert said_lines(TITLES, Topic.EVAL) == {13}
