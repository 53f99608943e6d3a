"""Pattern rules, the shape of them: a regular expression over one line, scoped by language,
by whether the line must sit inside a loop, and by what it reads (code, or comments). Each
topic's own rules are in its record (topics/); a rule only proposes a finding, and the
topic's check decides whether it is true of the code around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EVERY_LANGUAGE = frozenset[str]()
PYTHON = frozenset({"python"})
JS_TS = frozenset({"javascript", "typescript"})
TYPESCRIPT = frozenset({"typescript"})
GO = frozenset({"go"})
SHELL = frozenset({"shell"})
SQL = frozenset({"sql"})
RUST = frozenset({"rust"})
# The start of a statement, in the shape SQL gives it: a verb alone also opens English ("Update
# request issued for: {}", "Select %s:" in the Cloud SDK's messages, round 20's development set).
SQL_STATEMENT = (r"(?:SELECT\s[^\"'`]*?\bFROM\b|INSERT\s+INTO\b|UPDATE\s+\S+\s+SET\b|"
                 r"DELETE\s+FROM\b)")
CODE = "code"  # the line without comments and docstrings
COMMENT = "comment"  # the line's comments alone


@dataclass(frozen=True)
class LineRule:
    pattern: re.Pattern[str]
    languages: frozenset[str] = EVERY_LANGUAGE  # empty: every language
    in_loop: bool = False
    unless: re.Pattern[str] | None = None  # suppress when found on this or the next 4 lines
    detail: int = 0  # regex group naming the identifier involved (0: none)
    reads: str = CODE


def rule(pattern: str, languages: frozenset[str] = EVERY_LANGUAGE, in_loop: bool = False,
         unless: str | None = None, flags: int = 0, detail: int = 0,
         reads: str = CODE) -> LineRule:
    return LineRule(re.compile(pattern, flags), languages, in_loop,
                    re.compile(unless) if unless else None, detail, reads)


# The `read` builtin as a command (not a word in a message); vetshell.py vets its options.
SHELL_READ = r"(?:^|[;&|(!]|\b(?:while|until|if|do|then))\s*(?:IFS=\S*\s+)?read(?=\s|$)"

# Packages whose maintainers deprecated them or that have a maintained successor.
DEPRECATED: frozenset[str] = frozenset({
    "moment", "request", "io/ioutil", "github.com/pkg/errors", "imp", "distutils", "asyncore",
    "optparse", "nose", "left-pad",
})

# Packages whose use the language's own library covers today: Python backports and shims,
# JavaScript helpers Node and the language now do themselves, Go modules folded into std.
STDLIB_COVERS: frozenset[str] = frozenset({
    "six", "mock", "simplejson", "pytz", "toml", "tomli", "enum34", "pathlib2", "futures",
    "contextlib2", "importlib_metadata", "importlib_resources", "backports", "funcsigs",
    "ipaddress", "subprocess32", "configparser", "dataclasses", "typing", "scandir",
    "node-fetch", "uuid", "mkdirp", "rimraf", "object-assign", "es6-promise", "q", "bluebird",
    "util.promisify", "array-includes", "array.prototype.flat", "string.prototype.padstart",
    "golang.org/x/net/context", "golang.org/x/exp/slices", "golang.org/x/exp/maps",
})

# A call that goes over the network: the requests library's verbs (not `.append` on a list
# named `requests`, blind round 16's batch of API requests), Go's http.Get, fetch.
HTTP_CALL = r"\brequests\.(?:get|post|put|patch|delete|head|request)\(|\bhttp\.Get\(|\bfetch\("

# Kinds of work a single function should not mix (the architect's "responsibilities").
LAYERS: dict[str, re.Pattern[str]] = {
    "persistence": re.compile(r"\.(execute|query|Query|QueryRow|Exec|cursor)\(|\bSELECT\b"),
    "network": re.compile(rf"{HTTP_CALL}|\bhttp\.Post\(|\.Redis\("),
    "presentation": re.compile(r"\bjsonify\(|\bres\.(json|send|status)\(|\bjson\.dumps\(|"
                               r"\bcsv\.writer\(|\bprint\("),
    "filesystem": re.compile(r"\bopen\(|\bfs\.\w+|\bioutil\.|\bos\.(system|remove)\b"),
}


_TEST_FRAMEWORKS = {
    "python": re.compile(r"^\s*(import (pytest|unittest)\b|from (pytest|unittest)\b)", re.M),
    "go": re.compile(r"^func Test\w+\(\s*\w+\s+\*testing\.T\)", re.M),
    "javascript": re.compile(r"^\s*(describe|it|test)\(", re.M),
    "typescript": re.compile(r"^\s*(describe|it|test)\(", re.M),
}


def uses_a_test_framework(code: list[str] | tuple[str, ...], language: str) -> bool:
    """The file uses a test framework: a function named test_* is a test only there (imghdr's
    `test_jpeg` is a detector, not a test), and so is a test's style (vetasserts)."""
    pattern = _TEST_FRAMEWORKS.get(language)
    return bool(pattern and pattern.search("\n".join(code)))
