"""Plain pattern heuristics with line numbers, for every language.

They cover what ruff does not see (JS/TS, Go, anything else) and the obvious things ruff misses
in Python (string-built SQL reaching `execute`, N+1 queries, quadratic loops). Rules are data:
one row per smell, scoped by language and by whether the line must sit inside a loop.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from tribunalbot.llm.offline.findings import Finding
from tribunalbot.llm.offline.structure import Structure, scan

_ANY = frozenset[str]()
MAX_LINE = 400  # characters of a line the patterns look at
_PY = frozenset({"python"})
_JS = frozenset({"javascript", "typescript"})
_GO = frozenset({"go"})
_SH = frozenset({"shell"})
_SQLL = frozenset({"sql"})
_RS = frozenset({"rust"})
_SQL = r"(?:SELECT|INSERT|UPDATE|DELETE)\b"


@dataclass(frozen=True)
class Rule:
    topic: str
    pattern: re.Pattern[str]
    languages: frozenset[str] = _ANY  # empty: every language
    in_loop: bool = False
    unless: re.Pattern[str] | None = None  # suppress when found on this or the next 4 lines
    detail: int = 0  # regex group naming the identifier involved (0: none)


def _r(topic: str, pattern: str, languages: frozenset[str] = _ANY, in_loop: bool = False,
       unless: str | None = None, flags: int = 0, detail: int = 0) -> Rule:
    return Rule(topic, re.compile(pattern, flags), languages, in_loop,
                re.compile(unless) if unless else None, detail)


RULES: tuple[Rule, ...] = (
    # security
    _r("sql_injection", r"\b(execute|executemany|query|Query|Exec|raw)\(\s*f[\"']"),
    _r("sql_injection", rf"=\s*f[\"']{_SQL}", flags=re.I),
    _r("sql_injection", rf"\"{_SQL}[^\"]*\"\s*(%|\+)|'{_SQL}[^']*'\s*(%|\+)", flags=re.I),
    _r("sql_injection", rf"Sprintf\(\s*\"{_SQL}", _GO, flags=re.I),
    _r("sql_injection", rf"\"{_SQL}[^\"]*\"\.format\(|'{_SQL}[^']*'\.format\(", _PY,
       flags=re.I),
    _r("sql_injection", rf"`{_SQL}[^`]*\$\{{", _JS, flags=re.I),
    _r("secret", r"(?i)\b\w*(api_?key|secret|token|passw(or)?d|passwd)\w*\s*[:=]\s*"
       r"[\"'`][^\"'`\s]{6,}[\"'`]"),
    _r("eval", r"\beval\(|\bnew Function\(|^\s*exec\("),
    _r("shell_injection", r"\bos\.system\(|shell\s*=\s*True|\bexecSync\(|"
       r"exec\.Command\(\"(ba)?sh\""),
    _r("unsafe_deserialize", r"\bpickle\.loads?\(|\byaml\.load\((?![^)]*Loader)"),
    _r("xss", r"<\w+>[\"'`]\s*\+\s*(req|request)\.|innerHTML\s*="),
    _r("missing_auth", r"(?i)\b(TODO|FIXME)\b.*\b(auth|owner|owns|permission|access)"),
    _r("weak_hash", r"createHash\(\s*[\"'](md5|sha1)|\bmd5\.New\(|hashlib\.(md5|sha1)\("),
    _r("weak_random", r"\bMath\.random\(", _JS),
    _r("debug_exposure", r"debug\s*=\s*True|[\"']0\.0\.0\.0[\"']"),
    _r("data_exposure", r"(?i)\bSELECT \*"),
    _r("untrusted_input", r"\breq\.(body|params|query)\.\w+|\brequest\.(args|form|json|values)"
       r"\b|\bsys\.argv\["),
    _r("temp_file", r"[\"'`]/tmp\b"),
    # performance
    _r("n_plus_one", r"\.(execute|query|Query|QueryRow|Exec|fetchone)\(|\brequests\.\w+\(|"
       r"\bhttp\.Get\(|\bfetch\(", in_loop=True),
    _r("quadratic", r"^\s*for\b", in_loop=True),
    _r("concat_in_loop", r"\b(\w+)\s*=\s*\1\s*\+|\b\w+\s*\+=\s*[\"'f`]", in_loop=True),
    _r("copy_in_loop", r"\b(\w+)\s*=\s*append\(\1,\s*\w+\)", _GO, in_loop=True),
    _r("blocking_io", r"\b\w+Sync\(", _JS),
    _r("await_in_loop", r"\bawait\b", _JS | _PY, in_loop=True),
    _r("unbounded_growth", r"\bself\.\w+\.append\("),
    _r("blocking_sleep", r"\btime\.(sleep|Sleep)\("),
    # error handling
    _r("bare_except", r"^\s*except\s*:", _PY),
    _r("broad_except", r"^\s*except\s+(Exception|BaseException)\b", _PY),
    _r("swallowed_error", r"catch\s*(\(\s*\w*\s*\))?\s*\{\s*\}|\(\s*\w*\s*\)\s*=>\s*\{\s*\}\s*\)"),
    _r("no_timeout", r"\brequests\.(get|post|put|patch|delete)\(", _PY, unless=r"timeout"),
    _r("no_timeout", r"\bhttp\.(Get|Post)\(", _GO),
    _r("ignored_error", r",\s*_\s*:?=\s*[\w.]+\(|^\s*_\s*=\s*[\w.]+\(", _GO),
    _r("ignored_error", r"^\s*[\w.]+\.(Exec|Scan|Close|Write|Flush|Encode)\(", _GO),
    _r("crash", r"\bpanic\(|\bprocess\.exit\(|\blog\.Fatal"),
    _r("print_errors", r"(?i)\b(print|fmt\.Println|console\.(log|error))\(.*\b(fail|error|err|"
       r"skip)"),
    _r("debug_logging", r"\bconsole\.log\(", _JS),
    _r("resource_leak", r"^\s*\w+\s*=\s*open\(", _PY),
    _r("resource_leak", r"\bhttp\.Get\(", _GO, unless=r"Body\.Close"),
    _r("unbounded_retry", r"^\s*while\s+True\s*:|^\s*for\s*\{\s*$"),
    # tests
    _r("assert_in_code", r"^\s*assert\b", _PY),
    _r("div_empty", r"/\s*len\(|/\s*\w+\.length\b|/\s*len\(\w+\)"),
    _r("index_empty", r"\)\[0\]|\.values\[0\]|\[0\]\s*$"),
    _r("mutable_default", r"^\s*def\s.*=\s*(\[\]|\{\})\s*[,)]", _PY),
    _r("vacuous_assert", r"^\s*assert\s+(True|1|not False)\b|^\s*assert\s.+==.+\bor\b.+==", _PY),
    _r("skipped_test", r"@(pytest\.mark\.skip|unittest\.skip)\b|\b(it|describe|test)\.skip\(|"
       r"\bt\.Skip\("),
    _r("naive_datetime", r"\bdate\.today\(|\bdatetime\.now\(\)|\bmoment\(\)|\btime\.Now\(\)"),
    # readability
    _r("vague_name", r"^\s*(def|func|function)\s+(proc|do|doit|handle|process|tmp|data|f|g)\b",
       detail=2),
    _r("vague_name", r"^\s*(const\s+|let\s+|var\s+)?([a-df-hl-mo-z])\s*:?=[^=]", detail=2),
    _r("todo", r"\b(TODO|FIXME|XXX|HACK)\b"),
    _r("none_compare", r"[=!]=\s*None\b", _PY),
    _r("loose_equality", r"[^=!<>]==[^=]|^\s*var\s", _JS),
    # shell, SQL and Rust: the mistakes that lose data or hand over a machine
    _r("destructive_command", r"\brm\s+-\w*[rR]\w*\s+[^#\n]*\$\{?\w", _SH),
    _r("pipe_to_shell", r"\b(curl|wget)\b[^|#]*\|\s*(sudo\s+)?(ba|z)?sh\b", _SH),
    _r("eval", r"^\s*eval\s|[;&|]\s*eval\s", _SH),
    _r("world_writable", r"\bchmod\s+(-R\s+)?0?777\b", _SH),
    _r("unquoted_var", r"^\s*(rm|cp|mv|cd|cat|chmod|chown)\s[^\"'#\n]*\$\{?\w", _SH),
    _r("delete_without_where", r"^\s*(DELETE\s+FROM|UPDATE)\s+\w+(\s+SET\s+[^;]*)?\s*;",
       _SQLL, flags=re.I),
    _r("grant_public", r"\bGRANT\s+ALL\b|\bGRANT\b.*\bTO\s+PUBLIC\b", _SQLL, flags=re.I),
    _r("unwrap_panic", r"\.unwrap\(\)|\.expect\(", _RS),
    _r("unsafe_block", r"\bunsafe\s*\{", _RS),
    _r("shell_injection", r"Command::new\(\s*\"(ba)?sh\"", _RS),
    _r("shell_injection", r"\bchild_process\.exec\(|\bexec\(\s*`[^`]*\$\{", _JS),
    _r("xss", r"\bdocument\.write\(|dangerouslySetInnerHTML", _JS),
    _r("weak_typing", r":\s*any\b|\bas\s+any\b", frozenset({"typescript"})),
    _r("tls_off", r"InsecureSkipVerify:\s*true|rejectUnauthorized:\s*false|verify\s*=\s*False"),
    # architecture and simplicity
    _r("needless_abstraction", r"\bclass\s+\w*(Factory|Interface|Abstract|Strategy)\w*|"
       r"\bclass\s+\w+\(ABC\)|^type\s+\w+Interface\s+interface"),
    _r("global_state", r"^(\w+)\s*=\s*[\w.]*(Flask|connect|Redis|Client|Session)\(|"
       r"^(const|let|var)\s+\w+\s*=\s*[\w.]*(createConnection|Router|connect|Pool)\("),
    _r("hardwired_client", r"\bself\.\w+\s*=\s*\w+\.(Redis|Client|connect|Session)\("),
    _r("hidden_side_effect", r"\bsys\.argv\[|\bos\.environ\[|subprocess\.\w+\(.*rm -rf"),
)

# Packages whose maintainers deprecated them or that have a maintained successor.
DEPRECATED: frozenset[str] = frozenset({
    "moment", "request", "io/ioutil", "github.com/pkg/errors", "imp", "distutils", "asyncore",
    "optparse", "nose", "left-pad",
})
_NODE_BUILTINS = frozenset({"fs", "path", "http", "https", "crypto", "os", "url", "util",
                            "child_process", "events", "stream", "zlib", "net", "assert"})
_PY_IMPORT = re.compile(r"^\s*(?:import|from)\s+([\w.]+)")
_JS_IMPORT = re.compile(r"require\(\s*[\"']([^\"']+)[\"']\s*\)|^\s*import\s.*from\s+[\"']([^\"']+)")
_GO_IMPORT = re.compile(r"^\s*(?:import\s+)?(?:\w+\s+)?\"([\w./-]+)\"\s*$")


# Kinds of work a single function should not mix (the architect's "responsibilities").
LAYERS: dict[str, re.Pattern[str]] = {
    "persistence": re.compile(r"\.(execute|query|Query|QueryRow|Exec|cursor)\(|\bSELECT\b"),
    "network": re.compile(r"\brequests\.\w+\(|\bhttp\.(Get|Post)\(|\bfetch\(|\.Redis\("),
    "presentation": re.compile(r"\bjsonify\(|\bres\.(json|send|status)\(|\bjson\.dumps\(|"
                               r"\bcsv\.writer\(|\bprint\("),
    "filesystem": re.compile(r"\bopen\(|\bfs\.\w+|\bioutil\.|\bos\.(system|remove)\b"),
}


def heuristic_findings(code: str, language: str) -> list[Finding]:
    lines = code.splitlines()
    structure = scan(code, language)
    found = _rule_findings(lines, language, structure)
    found += _import_findings(lines, language)
    found += _structural_findings(structure)
    found += _layer_findings(lines, structure)
    found += _taint_findings(lines)
    found += _io_in_loop_findings(lines, structure)
    found += _test_findings(lines, structure)
    if language == "shell" and lines and not any(_ERREXIT.search(x) for x in lines[:15]):
        first = next((n for n, x in enumerate(lines, 1) if x.strip() and
                      not x.startswith("#")), 1)
        found.append(Finding(first, "no_errexit"))
    return found


_ERREXIT = re.compile(r"^\s*set\s+-\w*e")


_PATCH = re.compile(r"\bpatch(?:\.object)?\(\s*[\"'][\w.]*?(\w+)[\"']")
_ASSERTS = re.compile(r"\bassert|\.assert\w*\(|\braises\(|\bexpect\(|\bt\.(Error|Fatal)")


def _test_findings(lines: list[str], structure: Structure) -> list[Finding]:
    """Tests that cannot fail: no assertion at all, or the unit under test mocked away."""
    found: list[Finding] = []
    for func in structure.functions:
        if not func.name.lower().startswith("test"):
            continue
        body = lines[func.start : func.end]
        if not any(_ASSERTS.search(x) for x in body):
            found.append(Finding(func.start, "test_without_assert", func.name))
        for offset, text in enumerate(body):
            patched = _PATCH.search(text)
            calls = "\n".join(body[offset + 1 : offset + 4])
            if patched and re.search(rf"\b{patched.group(1)}\(", calls):
                found.append(Finding(func.start + 1 + offset, "mocks_the_unit",
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
    return [Finding(n, "io_call_in_loop") for n, text in enumerate(lines, start=1)
            if structure.in_loop(n) and call.search(text) and not _PY_DEF_LINE.match(text)]


_PY_DEF_LINE = re.compile(r"^\s*(async\s+)?(def|func|function)\b")
_SOURCE = re.compile(r"\b(\w+)\s*:?=\s*(?:await\s+)?(?:req\.(?:params|query|body)|request\."
                     r"(?:args|form|files|json|values|get_json)|r\.(?:URL|FormValue)|sys\.argv)")
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
                found.append(Finding(line, "path_traversal"))
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
            found.append(Finding(func.start, "mixed_layers", " and ".join(kinds[:2])))
    return found


def _rule_findings(lines: list[str], language: str, structure: Structure) -> list[Finding]:
    found: list[Finding] = []
    for index, full in enumerate(lines):
        line = index + 1
        # Minified or generated lines can be huge; patterns with \w* would backtrack for ages.
        text = full[:MAX_LINE]
        for rule in RULES:
            if rule.languages and language not in rule.languages:
                continue
            if rule.in_loop and not structure.in_loop(line):
                continue
            match = rule.pattern.search(text)
            if not match:
                continue
            window = "\n".join(lines[index : index + 5])
            if rule.unless and rule.unless.search(window):
                continue
            # Only a named identifier goes into prose; the rest of the matched code does not.
            name = match.group(rule.detail) if rule.detail else ""
            found.append(Finding(line, rule.topic, name or ""))
    return found


def _imported(text: str, language: str) -> str | None:
    if language == "python":
        m = _PY_IMPORT.match(text)
        return m.group(1) if m else None
    if language in ("javascript", "typescript"):
        js = _JS_IMPORT.search(text)
        return (js.group(1) or js.group(2)) if js else None
    if language == "go":
        go = _GO_IMPORT.match(text)
        return go.group(1) if go else None
    return None


def _third_party(name: str, language: str) -> bool:
    if language == "python":
        return name.split(".")[0] not in sys.stdlib_module_names
    if language == "go":
        return "." in name.split("/")[0]
    return not name.startswith((".", "/", "node:")) and name not in _NODE_BUILTINS


def _import_findings(lines: list[str], language: str) -> list[Finding]:
    found: list[Finding] = []
    for line, text in enumerate(lines, start=1):
        name = _imported(text, language)
        if name is None:
            continue
        if name in DEPRECATED or name.split(".")[0] in DEPRECATED:
            found.append(Finding(line, "deprecated_dep", name))
        elif _third_party(name, language):
            found.append(Finding(line, "third_party", name))
    return found


def _structural_findings(structure: Structure) -> list[Finding]:
    found: list[Finding] = []
    deep_limit = 3  # block levels inside the function body before nesting hurts reading
    for func in structure.functions:
        length = func.end - func.start + 1
        if length > 20:
            found.append(Finding(func.start, "long_function", func.name))
        if func.max_depth >= deep_limit:
            found.append(Finding(func.deepest_line, "deep_nesting", func.name))
        if func.params >= 6:
            found.append(Finding(func.start, "too_many_args", func.name))
    branchy = sorted(structure.functions, key=lambda f: (-f.branches, f.start))
    found += [Finding(f.start, "untested_branch", f.name) for f in branchy[:2] if f.branches >= 2]
    return found
