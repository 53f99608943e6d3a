"""What blind round 44's readers judged wrong (bench/blind/round44), fixed after the round: an
import read in the comment line under a bare `# type:`, `.keys()` of SQLAlchemy's column
collection, and request arguments that a line only tests, or that `urlencode` escapes on
their way to a redirect. Each beside a case the same check still says."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

TYPED = '''from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import msal_extensions
    import json


def load_persistent_cache(options):
    # type:
    # (Options) -> msal_extensions.PersistedTokenCache
    return options.cache
'''


def test_an_import_read_under_a_bare_type_comment_is_used():
    assert said_lines(TYPED, Topic.UNUSED_IMPORT) == {5}


COLUMNS = '''import sqlalchemy


class Model:
    def as_dict(self):
        out = {}
        for key in self.__mapper__.c.keys():
            out[key] = getattr(self, key)
        return out
'''


def test_keys_of_a_column_collection_are_not_a_dicts():
    assert said_lines(COLUMNS, Topic.SIMPLIFY, source="ruff:SIM118") == set()
    assert said_lines(COLUMNS.replace("self.__mapper__.c.keys()", "self.fields.keys()"),
                      Topic.SIMPLIFY, source="ruff:SIM118") == {7}


REDIRECT = '''from urllib.parse import urlencode


def redirect_locale(target_locale, path=None):
    target = f"/{target_locale}/{path}"
    if request.args:
        target += f"?{urlencode(request.args)}"
    return redirect(target, code=308)


def download():
    name = request.args.get("file")
    return send_file(name)
'''


def test_request_arguments_only_tested_or_escaped_are_not_taken_raw():
    assert said_lines(REDIRECT, Topic.UNTRUSTED_INPUT) == {12}
