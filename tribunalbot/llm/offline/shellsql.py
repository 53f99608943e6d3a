"""Findings in shell scripts and SQL files that need more than one line to see: a variable
the script never sets, a temporary file no trap removes, a `cd` whose failure goes unseen,
a definition the file itself calls obsolete, a function left out of the catalog's comments.

Each reads the whole file's code view (source.views), so quoted text, here-documents and
comments are not mistaken for code; the line-by-line smells are rules (in the topics'
records), vetted in vetshell.py when the line alone cannot tell.
"""

from __future__ import annotations

import re

from tribunalbot.llm.offline.findings import Finding
from tribunalbot.llm.offline.source import Views
from tribunalbot.llm.offline.topic import Topic

ERREXIT = re.compile(r"^\s*set\s+(-\w*e|-o\s+errexit)")
_SHEBANG_ERREXIT = re.compile(r"#!\s*\S+(?:\s+\S+)*?\s+-\w*e\b")  # `#!/bin/sh -e`


def exits_on_error(lines: list[str], code: list[str]) -> bool:
    """The script stops at the first failing command: `set -e`, or `-e` on its #! line."""
    return bool(lines and _SHEBANG_ERREXIT.match(lines[0])) or any(
        ERREXIT.search(x) for x in code)


def shell_sql_findings(lines: list[str], seen: Views, language: str) -> list[Finding]:
    code = list(seen.code)
    if language == "shell":
        checked = exits_on_error(lines, code)
        return _unset_variables(code) + _temp_without_trap(code) + (
            [] if checked else _unchecked_cd(code))
    if language == "sql":
        return _kept_obsolete(code, list(seen.comments)) + _uncommented_functions(code)
    return []


# Where a name gets a value: an assignment, a declaration, a loop or read variable, a
# default expansion, arithmetic.
_ASSIGNS = (
    re.compile(r"(?:^|[\s;&|(`])(\w+)(?:\[[^\]]*\])?\+?="),
    re.compile(r"\b(?:local|export|readonly|declare|typeset)\s+((?:-\w+\s+)*[\w\s=]*)"),
    re.compile(r"\b(?:for|select)\s+(\w+)"),
    re.compile(r"\bgetopts\s+\S+\s+(\w+)"),
    re.compile(r"\$\{(\w+):?="),
    re.compile(r"\(\(([^)]*)\)\)|\blet\s+(.*)"),
    re.compile(r"\bread\s+((?:-\w+\s+)*[\w\s]*)"),
)
# Read plainly: $name, or ${name} with no operator (`${x-default}` and `${x:?}` mean to
# handle an unset name).
_USE = re.compile(r"\$(?:\{([a-z][a-z0-9_]*|_[a-z0-9_]+)\}|([a-z][a-z0-9_]*|_[a-z0-9_]+)\b)")
# A script that reads in another file, builds a name to assign at run time or evals a command's
# output (`eval $(git for-each-ref --shell ...)`, blind round 16) may set any variable:
# nothing can be said of what it leaves unset.
_OPEN_ENDED = re.compile(r"^\s*(\.|source)\s+\S|\beval\b[^#\n]*\$\{?\w+\}?=|"
                         r"\beval\s+[\"']?(\$\(|`)|\bprintf\s+-v\b|"
                         r"\b(mapfile|readarray|declare\s+-n|typeset\s+-n)\b")
# Lower-case variables the environment conventionally sets.
_ENVIRONMENT = frozenset({"http_proxy", "https_proxy", "ftp_proxy", "no_proxy", "all_proxy"})


def _assigned(code: list[str]) -> set[str]:
    names: set[str] = set()
    for text in code:
        for pattern in _ASSIGNS:
            for match in pattern.finditer(text):
                found = next((g for g in match.groups() if g), "")
                names.update(re.findall(r"[A-Za-z_]\w*", found))
    return names


def _unset_variables(code: list[str]) -> list[Finding]:
    """A lower-case variable (the script's own, by convention) that is expanded but never
    given a value anywhere in the script, read plainly (not `${x-default}` or `${x:?}`)."""
    if any(_OPEN_ENDED.search(x) for x in code):
        return []
    assigned = _assigned(code) | _ENVIRONMENT
    first: dict[str, int] = {}
    for line, text in enumerate(code, start=1):
        outside = re.sub(r"'[^']*'", "", text)  # single quotes expand nothing
        for match in _USE.finditer(outside):
            first.setdefault(match.group(1) or match.group(2), line)
    return [Finding(line, Topic.UNSET_VARIABLE, name) for name, line in first.items()
            if name not in assigned]


_MKTEMP = re.compile(r"(\$\(|`)\s*mktemp\b(?![^)`]*\s-\w*u)")


def _temp_without_trap(code: list[str]) -> list[Finding]:
    """mktemp makes a real file; with no trap anywhere, an error or a Ctrl-C leaves it."""
    if any(re.search(r"(^|[;&|]\s*)\s*trap\s", x) for x in code):
        return []
    return [Finding(n, Topic.TEMP_NO_CLEANUP) for n, x in enumerate(code, 1) if _MKTEMP.search(x)]


# `cd` to a directory: not `cd` alone, `cd -` or `cd /`, which do not fail in practice.
_CD = re.compile(r"(?:^|[;(]|\bthen|\bdo|\belse)\s*cd\s+(?![-/>]\s|[-/]?\s*$|[<>|;&])\S")


def _unchecked_cd(code: list[str]) -> list[Finding]:
    """`cd dir` on its own, in a script that carries on after failures: the next commands
    run wherever the script already was."""
    found: list[Finding] = []
    for line, text in enumerate(code, start=1):
        match = _CD.search(text)
        if not match or re.match(r"\s*(if|while|until|!)\b", text):
            continue
        rest = text[match.end():]
        after = code[line] if line < len(code) else ""
        if re.search(r"\|\||&&|\\\s*$", rest) or re.match(r"\s*(\|\||&&)", after):
            continue
        if _just_made(code, line, text[match.end() - 1:].split()[0]):
            continue
        found.append(Finding(line, Topic.UNCHECKED_CD))
    return found


def _just_made(code: list[str], line: int, target: str) -> bool:
    """`mkdir -p dir` above `cd dir`, with nothing removing it between: the script made that
    directory itself, so the cd cannot fail where the mkdir did not (blind round 15's
    readers judged the check noise there)."""
    target = re.escape(target.strip("\"'").rstrip(";"))
    made = re.compile(rf"\bmkdir\s+(?:-\w+\s+)*[\"']?{target}[\"']?(\s|;|$)")
    removed = re.compile(rf"\brm(dir)?\s.*[\s\"']{target}[\"'/]?(\s|;|$)")
    above = code[: line - 1]
    made_at = [n for n, x in enumerate(above) if made.search(x)]
    return bool(made_at) and not any(removed.search(x) for x in above[made_at[-1]:])


_OBSOLETE = re.compile(r"(?i)(?<!not )\b(obsolete|deprecated)\b")
# A comment that speaks of more than one definition ("deprecated functions", "the following
# are obsolete") heads a section; any other covers the one statement after it.
_SECTION = re.compile(r"(?i)\b(\w+s|following|below|these|section)\b\s*:?\s*$|"
                      r"\b(following|below|these|all)\b")
_CREATE = re.compile(r"(?i)^\s*CREATE\s+(OR\s+REPLACE\s+)?(\w+(\s+CLASS)?)\b")


def _kept_obsolete(code: list[str], comments: list[str]) -> list[Finding]:
    """Definitions a comment calls obsolete or deprecated: a comment covers the statement
    after it, or, when it heads a section, the statements after it until another comment
    or a gap of two blank lines."""
    found: list[Finding] = []
    active = section = False
    blanks = 0
    for line, (text, said) in enumerate(zip(code, comments, strict=False), start=1):
        if said.strip() and not text.strip():
            active = bool(_OBSOLETE.search(said))
            section = active and bool(_SECTION.search(_OBSOLETE.sub("", said)))
            blanks = 0
            continue
        blanks = blanks + 1 if not text.strip() else 0
        if blanks >= 2:
            active = False
        if active and _CREATE.match(text):
            found.append(Finding(line, Topic.DEPRECATED_KEPT))
        if active and not section and text.rstrip().endswith(";"):
            active = False
    return found


_FUNCTION = re.compile(r"(?i)^\s*CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:\w+\.)?(\w+)\s*"
                       r"\(([^)]*)\)?")
_COMMENTED = re.compile(r"(?i)\bCOMMENT\s+ON\s+FUNCTION\s+(?:\w+\.)?(\w+)")
# Support functions (a type's input and output, an index method's callbacks, a trigger)
# are called by the server, not by users: nobody looks them up.
_SUPPORT = re.compile(r"(?i)\b(internal|cstring|trigger|event_trigger|language_handler|"
                      r"index_am_handler|fdw_handler)\b")


def _uncommented_functions(code: list[str]) -> list[Finding]:
    """In a file that describes its functions with COMMENT ON, a user-facing function it
    leaves without one (once per name: overloads share their description)."""
    described = {m.group(1).lower() for x in code for m in _COMMENTED.finditer(x)}
    if not described:
        return []
    found: list[Finding] = []
    for line, text in enumerate(code, start=1):
        match = _FUNCTION.match(text)
        if not match or match.group(1).lower() in described:
            continue
        statement = _statement(code, line)
        if _SUPPORT.search(match.group(2) or "") or re.search(
                r"(?i)\bRETURNS\s+(SETOF\s+)?(internal|cstring|trigger|event_trigger)\b",
                statement):
            continue
        described.add(match.group(1).lower())
        found.append(Finding(line, Topic.SQL_NO_COMMENT, match.group(1)))
    return found


def _statement(code: list[str], line: int) -> str:
    """The SQL statement that starts at `line`, up to its semicolon (at most 30 lines)."""
    parts: list[str] = []
    for text in code[line - 1 : line + 29]:
        parts.append(text)
        if ";" in text:
            break
    return "\n".join(parts)
