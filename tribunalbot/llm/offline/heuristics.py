"""Plain pattern heuristics with line numbers, for every language.

They cover what ruff does not see (JS/TS, Go, anything else) and the obvious things ruff misses
in Python (string-built SQL reaching `execute`, N+1 queries, quadratic loops). The rules are
data (each topic's record, topics/) and read the code without its comments and docstrings;
what they propose is then vetted against the code around it (the topic's check).
"""

from __future__ import annotations

import re

from tribunalbot.llm.offline.findings import Finding
from tribunalbot.llm.offline.imports import THIRD_PARTY, Import
from tribunalbot.llm.offline.rules import (
    COMMENT,
    DEPRECATED,
    LAYERS,
    STDLIB_COVERS,
    uses_a_test_framework,
)
from tribunalbot.llm.offline.shellsql import exits_on_error, shell_sql_findings
from tribunalbot.llm.offline.source import Views
from tribunalbot.llm.offline.structure import Function, Structure
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import LINE_RULES
from tribunalbot.llm.offline.topics.architecture import LONG_FUNCTION

MAX_LINE = 400  # characters of a line the patterns look at
MANY_BRANCHES = 3


def heuristic_findings(lines: list[str], seen: Views, language: str, structure: Structure,
                       imports: list[Import]) -> list[Finding]:
    code = list(seen.code)
    found = _rule_findings(seen, language, structure)
    found += _import_findings(imports)
    found += _structural_findings(structure)
    found += _layer_findings(code, structure)
    found += _taint_findings(code)
    found += _io_in_loop_findings(code, structure)
    found += shell_sql_findings(lines, seen, language)
    if uses_a_test_framework(code, language):
        found += _test_findings(code, structure)
    if language == "shell" and _BASH.match(lines[0] if lines else "") and not exits_on_error(
            lines, code) and not _tracks_statuses(code):
        first = next((n for n, x in enumerate(code, 1) if x.strip()), 1)
        found.append(Finding(first, Topic.NO_ERREXIT))
    return found


# The fix is `set -euo pipefail`: pipefail is bash's (dash, a Debian /bin/sh, has none).
_BASH = re.compile(r"#!\s*(/usr)?/bin/(env\s+)?bash\b")


def _tracks_statuses(code: list[str]) -> bool:
    """A script that reads `$?`, keeps its own error flag or sources another script (whose
    variables `set -u` would trip on) handles its failures its own way; errexit would fight
    it."""
    return any(re.search(r"\$\?|\berror=|^\s*(\.|source)\s+\S", x) for x in code)
_PATCH = re.compile(r"\bpatch(?:\.object)?\(\s*[\"'][\w.]*?(\w+)[\"']")
_ASSERTS = re.compile(r"\bassert|\.assert\w*\(|\braises\(|\bexpect\(|\bt\.(Error|Fatal)|"
                      r"\braise AssertionError\b|\b(pytest|self)\.fail\(")
# unittest's hook that gathers a module's tests: named like one, it is no test (round 29).
_SUITE_HOOKS = frozenset({"test_suite", "testsuite", "test_suites"})
# A test named for not failing (`test_reset_shouldnt_raise_on_closed_stdout`, round 25), or
# for running the whole path (keras' `test_end_to_end`, round 46: it fails if `fit` raises)
# asserts that by passing: an exception fails it.
_NO_RAISE_TEST = re.compile(r"(?i)(not|nt|no|without)_?(raise|fail|crash|error)|smoke|"
                            r"end_?to_?end|e2e")
# A test that makes a mock fail (`mock_client.side_effect = self.LOGIN_ERROR`) and then calls
# the code checks that the code absorbs the failure: it fails if the error gets through
# (certbot's lexicon tests, blind round 45).
_INJECTS_FAILURE = re.compile(r"\bside_effect\s*=")
# A test that hands its work to a helper of its class or one named for checking may assert
# there (SciPy's template tests call `self.pythranfunc`, which each subclass defines with
# its asserts: blind round 22).
_DELEGATES = re.compile(r"\bself\.\w+\(|\b_?(check|verify|validate|compare|ensure|expect|"
                        r"run_?test)\w*\(|"
                        # or hands itself to a helper, which can fail it (music21's
                        # `testCopyAll(self, globals())`, blind round 37)
                        r"\b\w+\(\s*self\s*[,)]", re.I)


def _nested(structure: Structure, func: Function) -> bool:
    """`func` is defined inside another function: a test runner collects none of those."""
    return any(other.start < func.start and func.end <= other.end and other is not func
               for other in structure.functions)


def _decorators(lines: list[str], start: int) -> list[str]:
    """The decorator lines just above the `def` at `start` (1-based)."""
    above = start - 2
    found = []
    while above >= 0 and lines[above].lstrip().startswith("@"):
        found.append(lines[above])
        above -= 1
    return found


def _is_fixture(lines: list[str], start: int) -> bool:
    return any("fixture" in x for x in _decorators(lines, start))


# A decorator named for checking wraps the test in its asserts (dpkt's `@TryExceptException(
# ValueError)` and `@WriterTestWrap()`, which read back what the test returns: round 50).
_CHECKING_DECORATOR = re.compile(r"(?i)^\s*@[\w.]*(test|wrap|raise|exception|check|assert|"
                                 r"expect|verify)")


def _decorated_to_check(lines: list[str], start: int) -> bool:
    return any(_CHECKING_DECORATOR.search(x) and "mark." not in x
               for x in _decorators(lines, start))


def _test_findings(lines: list[str], structure: Structure) -> list[Finding]:
    """Tests that cannot fail: no assertion at all, or the unit under test mocked away."""
    found: list[Finding] = []
    for func in structure.functions:
        if not func.name.lower().startswith("test"):
            continue
        body = lines[func.start : func.end]
        if _is_fixture(lines, func.start) or _nested(structure, func) or \
                _decorated_to_check(lines, func.start):
            continue  # a fixture (round 36); a closure a benchmark times (round 37)
        if func.name.lower() not in _SUITE_HOOKS and not _NO_RAISE_TEST.search(func.name) and \
                not any(_ASSERTS.search(x) or _DELEGATES.search(x) or _INJECTS_FAILURE.search(x)
                        for x in body):
            found.append(Finding(func.start, Topic.TEST_WITHOUT_ASSERT, func.name))
        for offset, text in enumerate(body):
            patched = _PATCH.search(text)
            calls = "\n".join(body[offset + 1 : offset + 4])
            if patched and re.search(rf"\b{patched.group(1)}\(", calls):
                found.append(Finding(func.start + 1 + offset, Topic.MOCKS_THE_UNIT,
                                     patched.group(1)))
    return found


def _io_in_loop_findings(lines: list[str], structure: Structure) -> list[Finding]:
    """A loop calling a local function that does I/O: the N+1 one level down."""
    io_kinds = (LAYERS["network"], LAYERS["persistence"])
    doing_io = {f.name for f in structure.functions
                if any(p.search(x) for x in lines[f.start - 1 : f.end] for p in io_kinds)}
    if not doing_io:
        return []
    call = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, sorted(doing_io))) + r")\(")
    return [Finding(n, Topic.IO_CALL_IN_LOOP) for n, text in enumerate(lines, start=1)
            if structure.in_loop(n) and call.search(text) and not _PY_DEF_LINE.match(text)
            and not _first_pass_only(lines, n)]


_ONCE_GUARD = re.compile(r"^(\s*)if\s+(\w+)\s+is\s+None\s*:")


def _first_pass_only(lines: list[str], line: int) -> bool:
    """Under `if flag is None:` whose block sets `flag`: the call runs on one pass of the
    loop, as a probe, not once per item (blind round 19: a delete tried once to learn whether
    permissions allow it)."""
    indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    for n in range(line - 1, 0, -1):
        text = lines[n - 1]
        if not text.strip() or len(text) - len(text.lstrip()) >= indent:
            continue
        guard = _ONCE_GUARD.match(text)
        if guard is None:
            return False
        sets_flag = re.compile(rf"\s*{guard.group(2)}\s*=[^=]")
        for text in lines[n:]:
            if text.strip() and len(text) - len(text.lstrip()) <= len(guard.group(1)):
                return False  # the guarded block ended without setting the flag
            if sets_flag.match(text):
                return True
        return False
    return False


_PY_DEF_LINE = re.compile(r"^\s*(async\s+)?(def|func|function)\b")
_SOURCE = re.compile(r"\b(\w+)\s*:?=\s*(?:await\s+)?(?:req\.(?:params|query|body)|request\."
                     r"(?:args|form|files|json|values|get_json)|r\.(?:URL|FormValue))")
_PATH_SINK = re.compile(r"\b(path\.join|os\.path\.join|filepath\.Join|sendFile|open|"
                        r"readFile\w*|writeFile\w*|unlink)\(([^)]*)")


def _taint_findings(lines: list[str]) -> list[Finding]:
    """Request input that reaches a filesystem path, directly or through one variable."""
    tainted: set[str] = set()
    found: list[Finding] = []
    for line, text in enumerate(lines, start=1):
        sink = _PATH_SINK.search(text)
        if sink:
            args = sink.group(2)
            if re.search(r"\breq\.(params|query|body)|\brequest\.", args) or any(
                    re.search(rf"\b{re.escape(name)}\b", args) for name in tainted):
                found.append(Finding(line, Topic.PATH_TRAVERSAL))
        source = _SOURCE.search(text)
        if source:
            tainted.add(source.group(1))
    return found


def _layer_findings(lines: list[str], structure: Structure) -> list[Finding]:
    found: list[Finding] = []
    for func in structure.functions:
        body = lines[func.start - 1 : func.end]
        kinds = [k for k, p in LAYERS.items() if any(p.search(x) for x in body)]
        if len(kinds) >= 2:
            found.append(Finding(func.start, Topic.MIXED_LAYERS, " and ".join(kinds[:2])))
    return found


def _rule_findings(seen: Views, language: str, structure: Structure) -> list[Finding]:
    found: list[Finding] = []
    for index, code in enumerate(seen.code):
        line = index + 1
        for topic, rule in LINE_RULES:
            if rule.languages and language not in rule.languages:
                continue
            if rule.in_loop and not structure.in_loop(line):
                continue
            # Minified or generated lines can be huge; patterns with \w* would backtrack.
            text = (seen.comments[index] if rule.reads == COMMENT else code)[:MAX_LINE]
            match = rule.pattern.search(text)
            if not match:
                continue
            window = "\n".join(seen.code[index : index + 5])
            if rule.unless and rule.unless.search(window):
                continue
            # Only a named identifier goes into prose; the rest of the matched code does not.
            name = match.group(rule.detail) if rule.detail else ""
            found.append(Finding(line, topic, name or ""))
    return found


def _import_findings(imports: list[Import]) -> list[Finding]:
    found: list[Finding] = []
    for item in imports:
        name = item.name
        if name in DEPRECATED or name.split(".")[0] in DEPRECATED:
            found.append(Finding(item.line, Topic.DEPRECATED_DEP, name))
        elif item.kind == THIRD_PARTY and _stdlib_covers(name):
            found.append(Finding(item.line, Topic.THIRD_PARTY, name))
    return found


def _stdlib_covers(name: str) -> bool:
    """A package whose use the language's own library covers: only then is "check whether
    the standard library already covers the use" advice; a package's own modules, or one
    nothing built in replaces, are what the code is made of."""
    return name in STDLIB_COVERS or name.split(".")[0] in STDLIB_COVERS or \
        name.split("/")[0] in STDLIB_COVERS


def _structural_findings(structure: Structure) -> list[Finding]:
    found: list[Finding] = []
    for func in structure.functions:
        if func.code_lines >= LONG_FUNCTION:
            found.append(Finding(func.start, Topic.LONG_FUNCTION, func.name))
        if func.deep:
            found.append(Finding(func.deepest_line, Topic.DEEP_NESTING, func.name))
    branchy = sorted(structure.functions, key=lambda f: (-f.branches, f.start))
    found += [Finding(f.start, Topic.UNTESTED_BRANCH, f.name) for f in branchy[:2]
              if f.branches >= MANY_BRANCHES]
    return found
