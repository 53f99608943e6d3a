"""The pattern rules, as data: one row per smell, scoped by language, by whether the line must
sit inside a loop, and by what it reads (code, or comments).

A rule only proposes a finding; vet.py decides whether it is true of the code around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ANY = frozenset[str]()
_PY = frozenset({"python"})
_JS = frozenset({"javascript", "typescript"})
_GO = frozenset({"go"})
_SH = frozenset({"shell"})
_SQLL = frozenset({"sql"})
_RS = frozenset({"rust"})
_SQL = r"(?:SELECT|INSERT|UPDATE|DELETE)\b"
CODE = "code"  # the line without comments and docstrings
COMMENT = "comment"  # the line's comments alone


@dataclass(frozen=True)
class Rule:
    topic: str
    pattern: re.Pattern[str]
    languages: frozenset[str] = _ANY  # empty: every language
    in_loop: bool = False
    unless: re.Pattern[str] | None = None  # suppress when found on this or the next 4 lines
    detail: int = 0  # regex group naming the identifier involved (0: none)
    reads: str = CODE


def _r(topic: str, pattern: str, languages: frozenset[str] = _ANY, in_loop: bool = False,
       unless: str | None = None, flags: int = 0, detail: int = 0, reads: str = CODE) -> Rule:
    return Rule(topic, re.compile(pattern, flags), languages, in_loop,
                re.compile(unless) if unless else None, detail, reads)


# The `read` builtin as a command (not a word in a message); shellsql.py vets its options.
SHELL_READ = r"(?:^|[;&|(!]|\b(?:while|until|if|do|then))\s*(?:IFS=\S*\s+)?read(?=\s|$)"

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
       r"[\"'`]([^\"'`\s]{6,})[\"'`]"),
    _r("eval", r"\beval\(|\bnew Function\(|^\s*exec\("),
    _r("shell_injection", r"\bos\.(system|popen)\(|shell\s*=\s*True|\bexecSync\(|"
       r"exec\.Command\(\"(ba)?sh\""),
    _r("unsafe_deserialize", r"\bpickle\.loads?\(|\byaml\.load\((?![^)]*Loader)"),
    _r("xss", r"<\w+>[\"'`]\s*\+\s*(req|request)\.|innerHTML\s*="),
    # A note that the ownership check is missing, right above the action it should guard.
    _r("missing_auth", r"(?i)\b(TODO|FIXME)\b.*\b(check|verify|ensure)\w*\b.*\b(own|owner|owns|"
       r"permission|authori[sz]\w*)\b", reads=COMMENT),
    _r("weak_hash", r"createHash\(\s*[\"'](md5|sha1)|\bmd5\.New\(|hashlib\.(md5|sha1)\("),
    _r("weak_random", r"\bMath\.random\(", _JS),
    _r("debug_exposure", r"\(.*\bdebug\s*=\s*True\b|^\s*DEBUG\s*=\s*True\b|[\"']0\.0\.0\.0[\"']"),
    _r("data_exposure", r"(?i)\bSELECT \*"),
    _r("untrusted_input", r"\breq\.(body|params|query)\.\w+|\brequest\.(args|form|json|values)"
       r"\b"),
    _r("temp_file", r"[\"'`]/tmp/[\w.{$-]"),
    # performance
    _r("n_plus_one", r"\.(execute|query|Query|QueryRow|Exec|fetchone)\(|\brequests\.\w+\(|"
       r"\bhttp\.Get\(|\bfetch\(", in_loop=True),
    _r("quadratic", r"^\s*for\b", in_loop=True),
    _r("concat_in_loop", r"\b(\w+)\s*=\s*\1\s*\+|\b\w+\s*\+=\s*[\"'f`]", in_loop=True),
    _r("copy_in_loop", r"\b(\w+)\s*=\s*append\(\1,\s*\w+\)", _GO, in_loop=True),
    _r("blocking_io", r"\b\w+Sync\(", _JS),
    _r("await_in_loop", r"\bawait\b", _JS | _PY, in_loop=True),
    _r("unbounded_growth", r"\bself\.(\w+)\.append\("),
    _r("blocking_sleep", r"\btime\.sleep\(", _PY),
    # error handling
    _r("bare_except", r"^\s*except\s*:", _PY),
    _r("broad_except", r"^\s*except\s+\(?\s*(Exception|BaseException)\b", _PY),
    _r("swallowed_error", r"catch\s*(\(\s*\w*\s*\))?\s*\{\s*\}|\(\s*\w*\s*\)\s*=>\s*\{\s*\}\s*\)"),
    _r("no_timeout", r"\brequests\.(get|post|put|patch|delete)\(", _PY, unless=r"timeout"),
    _r("no_timeout", r"\bhttp\.(Get|Post)\(", _GO),
    _r("ignored_error", r",\s*_\s*:?=\s*[\w.]+\(|^\s*_\s*=\s*[\w.]+\(", _GO),
    _r("ignored_error", r"^\s*[\w.]+\.(Exec|Scan|Close|Write|Flush|Encode)\(", _GO),
    _r("crash", r"\bpanic\(|\bprocess\.exit\(|\blog\.Fatal"),
    _r("wrapped_error", r"\bfmt\.Errorf\(\s*\"[^\"]*%v[^\"]*\"[^)]*\berr\w*\s*\)", _GO),
    _r("print_errors", r"(?i)\b(print|fmt\.Println|console\.(log|error))\(.*\b(fail|error|err|"
       r"skip)"),
    _r("debug_logging", r"\bconsole\.log\(", _JS),
    _r("resource_leak", r"^\s*\w+\s*=\s*open\(", _PY),
    _r("resource_leak", r"\bhttp\.Get\(", _GO, unless=r"Body\.Close"),
    _r("unbounded_retry", r"^\s*while\s+(True|1)\s*:|^\s*for\s*\{\s*$|^\s*while\s*\(\s*(true|1)"
       r"\s*\)"),
    # tests
    _r("assert_in_code", r"^\s*assert\b", _PY),
    _r("div_empty", r"/\s*len\(|/\s*\w+\.length\b"),
    _r("index_empty", r"\[0\]"),
    _r("mutable_default", r"^\s*def\s.*=\s*(\[\]|\{\})\s*[,)]", _PY),
    _r("vacuous_assert", r"^\s*assert\s+(True|1|not False)\b|^\s*assert\s.+==.+\bor\b.+==", _PY),
    _r("skipped_test", r"@(pytest\.mark\.skip|unittest\.skip)\b|\b(it|describe|test)\.skip\(|"
       r"\bt\.Skip\("),
    # A naive local time is Python's pitfall (and moment()'s); Go's time.Now() is not naive.
    _r("naive_datetime", r"\bdate\.today\(|\bdatetime\.now\(\)", _PY),
    _r("naive_datetime", r"\bmoment\(\)", _JS),
    # readability
    _r("vague_name", r"^\s*(def|func|function)\s+(proc|do|doit|tmp|f|g|foo|stuff)\b", detail=2),
    _r("vague_name", r"^\s*(const\s+|let\s+|var\s+)?([a-df-hl-mo-z])\s*:?=[^=]", detail=2),
    _r("todo", r"\b(TODO|FIXME|XXX|HACK)\b", reads=COMMENT),
    _r("none_compare", r"[=!]=\s*None\b", _PY),
    _r("loose_equality", r"[^=!<>]==[^=]|^\s*var\s", _JS),
    # shell, SQL and Rust: the mistakes that lose data or hand over a machine
    _r("destructive_command", r"\brm\s+-\w*[rR]\w*\s+[^#\n]*\$\{?\w", _SH),
    _r("pipe_to_shell", r"\b(curl|wget)\b[^|#]*\|\s*(sudo\s+)?(ba|z)?sh\b", _SH),
    _r("eval", r"^\s*eval\s|[;&|]\s*eval\s", _SH),
    _r("world_writable", r"\bchmod\s+(-R\s+)?0?777\b", _SH),
    _r("unquoted_var", r"^\s*(rm|cp|mv|cd|cat|chmod|chown)\s[^\"'#\n]*\$\{?\w", _SH),
    # In a test, an empty or spaced value breaks the expression (`[ = x ]`, `[ -n ]` is true).
    _r("unquoted_var", r"(?:\[|\btest)\s+(?:!\s+)?(?:-n\s+\$\{?(?:\w+|[1-9])\}?\s|"
       r"\$\{?(?:[A-Za-z_]\w*|[1-9])\}?\s+!?==?\s)", _SH),
    _r("backticks", r"(?<!\\)`[^`]+(?<!\\)`", _SH),
    _r("old_arithmetic", r"\bexpr\s+[\w$\"{}]+\s+[-+*/%]\s|\$\[[^\]]+\]", _SH),
    _r("read_without_r", SHELL_READ, _SH),
    _r("which_command", r"(?:^|[;&|(!`]|\$\(|\bif\s|\bthen\s)\s*which\s+-?\w", _SH),
    _r("echo_options", r"(?:^|[;&|(]|\bthen|\bdo|\belse)\s*echo\s+-[nE]*e[nE]*\s", _SH),
    # A name made from the process id ($$), which anyone can guess, under a temp directory.
    _r("temp_file", r"=\S*(\bTMPDIR\b|/tmp/)\S*\$\$|\b\w*(tmp|temp)\w*=\S*\$\$", _SH),
    _r("vague_name", r"^\s*for\s+([a-z])\b", _SH, detail=1),
    _r("delete_without_where", r"^\s*(DELETE\s+FROM|UPDATE)\s+\w+(\s+SET\s+[^;]*)?\s*;",
       _SQLL, flags=re.I),
    _r("grant_public", r"\bGRANT\s+ALL\b|\bGRANT\b.*\b(INSERT|UPDATE|DELETE|TRUNCATE)\b.*"
       r"\bTO\s+PUBLIC\b", _SQLL, flags=re.I),
    _r("unwrap_panic", r"\.unwrap\(\)|\.expect\(", _RS),
    _r("unsafe_block", r"\bunsafe\s*\{", _RS),
    _r("shell_injection", r"Command::new\(\s*\"(ba)?sh\"", _RS),
    _r("shell_injection", r"\bchild_process\.exec\(|\bexec\(\s*`[^`]*\$\{", _JS),
    _r("xss", r"\bdocument\.write\(|dangerouslySetInnerHTML", _JS),
    _r("weak_typing", r":\s*any\b|\bas\s+any\b", frozenset({"typescript"})),
    _r("tls_off", r"InsecureSkipVerify:\s*true|rejectUnauthorized:\s*false|verify\s*=\s*False"),
    # architecture and simplicity
    _r("needless_abstraction", r"\bclass\s+(\w*(Factory|Interface|Abstract|Strategy)\w*)|"
       r"\bclass\s+(\w+)\(ABC\)|^type\s+(\w+Interface)\s+interface"),
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

# Kinds of work a single function should not mix (the architect's "responsibilities").
LAYERS: dict[str, re.Pattern[str]] = {
    "persistence": re.compile(r"\.(execute|query|Query|QueryRow|Exec|cursor)\(|\bSELECT\b"),
    "network": re.compile(r"\brequests\.\w+\(|\bhttp\.(Get|Post)\(|\bfetch\(|\.Redis\("),
    "presentation": re.compile(r"\bjsonify\(|\bres\.(json|send|status)\(|\bjson\.dumps\(|"
                               r"\bcsv\.writer\(|\bprint\("),
    "filesystem": re.compile(r"\bopen\(|\bfs\.\w+|\bioutil\.|\bos\.(system|remove)\b"),
}
