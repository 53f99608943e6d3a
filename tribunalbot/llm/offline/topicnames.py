"""What a juror calls each kind of finding: a label and other names, for every topic."""

from __future__ import annotations

# topic -> (label, names): the label a plain noun phrase; the names a `[a|b|c]` choice of
# three to five noun phrases that all mean the label (the label may be one of them).
NAMES: dict[str, tuple[str, str]] = {
    "sql_injection": (
        "SQL built from input",
        "[SQL built from input|injectable query|query assembled from strings|string-built SQL]",
    ),
    "secret": (
        "hard-coded secret",
        "[hard-coded secret|credential in source|embedded password|secret committed to code]",
    ),
    "shell_injection": (
        "string-built shell command",
        (
            "[string-built shell command|shell injection|"
            "concatenated shell command|injectable shell call]"
        ),
    ),
    "eval": (
        "eval of a string",
        "[eval of a string|string run as code|dynamic eval|code built from a string]",
    ),
    "grant_public": (
        "overbroad grant",
        "[overbroad grant|grant to PUBLIC|blanket privilege grant|grant of all privileges]",
    ),
    "unsafe_block": (
        "unchecked unsafe block",
        "[unchecked unsafe block|unsafe dereference|raw pointer dereference|unsafe memory access]",
    ),
    "world_writable": (
        "world-writable file",
        "[world-writable file|file anyone can write|overly open file mode|permissive file mode]",
    ),
    "tls_off": (
        "disabled TLS check",
        (
            "[disabled TLS check|skipped certificate check|"
            "unverified TLS connection|certificate check turned off]"
        ),
    ),
    "unsafe_deserialize": (
        "unsafe deserialization",
        "[unsafe deserialization|unsafe loader|arbitrary-object loader|dangerous deserializer]",
    ),
    "path_traversal": (
        "path traversal",
        "[path traversal|user-built file path|unchecked path join|path escape]",
    ),
    "xss": (
        "unescaped HTML output",
        "[unescaped HTML output|cross-site scripting hole|raw request text in HTML|XSS hole]",
    ),
    "missing_auth": (
        "missing ownership check",
        (
            "[missing ownership check|unchecked ownership|"
            "missing authorization check|access without an owner check]"
        ),
    ),
    "weak_hash": ("weak hash", "[weak hash|broken hash function|outdated digest|insecure hash]"),
    "weak_random": (
        "predictable random value",
        (
            "[predictable random value|weak random generator|"
            "insecure randomness|guessable random number]"
        ),
    ),
    "debug_exposure": (
        "exposed debug mode",
        "[exposed debug mode|debug setting left on|wide-open listener|exposed debug server]",
    ),
    "temp_file": (
        "guessable temp path",
        "[guessable temp path|predictable temporary file|insecure temp file|shared temp path]",
    ),
    "data_exposure": (
        "all-columns query",
        (
            "[all-columns query|overfetching query|"
            "query that selects every column|wildcard column list]"
        ),
    ),
    "untrusted_input": (
        "unvalidated input",
        "[unvalidated input|unchecked input|untrusted input|raw user input]",
    ),
    "n_plus_one": (
        "query per item",
        (
            "[query per item|per-item query|query run inside the loop|"
            "unbatched query|one-query-per-row loop]"
        ),
    ),
    "quadratic": (
        "quadratic loop",
        "[quadratic loop|nested linear scan|repeated inner scan|scan per outer item]",
    ),
    "concat_in_loop": (
        "concatenation in a loop",
        (
            "[concatenation in a loop|looped concatenation|"
            "string grown piece by piece|growing buffer]"
        ),
    ),
    "blocking_io": ("blocking call", "[blocking call|loop-stalling call|blocking I/O]"),
    "await_in_loop": (
        "sequential await in a loop",
        "[sequential await in a loop|await per item|serial await|one-at-a-time await]",
    ),
    "copy_in_loop": (
        "element-by-element copy",
        "[element-by-element copy|manual copy loop|hand-rolled copy|looped buffer copy]",
    ),
    "io_call_in_loop": (
        "I/O call per item",
        "[I/O call per item|looped I/O call|per-item network call|unbatched I/O call]",
    ),
    "blocking_sleep": (
        "blocking sleep",
        "[blocking sleep|thread-blocking sleep|sleep that stalls the loop|synchronous sleep]",
    ),
    "perf_misc": (
        "slow path",
        "[slow path|avoidable work in a loop|wasted loop work|loop doing extra work]",
    ),
    "unbounded_growth": (
        "ever-growing list",
        "[ever-growing list|unbounded list|list never trimmed|unchecked growth]",
    ),
    "bare_except": (
        "bare except",
        "[bare except|catch-everything clause|untyped except|except with no type]",
    ),
    "swallowed_error": (
        "swallowed error",
        "[swallowed error|silenced failure|silent failure|hidden error]",
    ),
    "broad_except": ("catch-all except", "[catch-all except|overbroad except|blanket handler]"),
    "no_timeout": (
        "missing timeout",
        "[missing timeout|call with no timeout|unbounded network wait|timeout-less request]",
    ),
    "ignored_error": (
        "ignored error",
        "[ignored error|unchecked error|swallowed failure|dropped error|discarded error]",
    ),
    "wrapped_error": (
        "lost error cause",
        "[lost error cause|thinly wrapped error|error stripped of cause]",
    ),
    "crash": ("crash path", "[crash path|panic instead of an error|abrupt exit|hard exit]"),
    "print_errors": (
        "error reported by print",
        (
            "[error reported by print|printed failure|"
            "print in place of logging|failure sent to stdout]"
        ),
    ),
    "resource_leak": (
        "resource leak",
        "[resource leak|unclosed resource|leaked handle|handle left open]",
    ),
    "unbounded_retry": (
        "unbounded retry",
        "[unbounded retry|endless retry loop|retry with no ceiling|uncapped retry]",
    ),
    "error_flow": (
        "tangled error flow",
        "[tangled error flow|raise inside its own try|muddled failure path|self-caught raise]",
    ),
    "debug_logging": (
        "console logging",
        "[console logging|bare console output|unstructured log line|console print for logs]",
    ),
    "errors_misc": (
        "error-handling gap",
        "[error-handling gap|error-prone construct|flagged construct|risky construct]",
    ),
    "syntax_error": (
        "syntax error",
        "[syntax error|unparsable code|Python 2 syntax|code that does not parse]",
    ),
    "warn_stacklevel": (
        "warning without a stacklevel",
        "[warning without a stacklevel|stacklevel-less warning|warning that blames itself]",
    ),
    "undefined_name": (
        "undefined name",
        "[undefined name|name never defined|unbound name|missing definition]",
    ),
    "destructive_command": (
        "unguarded recursive delete",
        (
            "[unguarded recursive delete|variable-path recursive delete|"
            "unchecked tree removal|dangerous recursive removal]"
        ),
    ),
    "delete_without_where": (
        "DELETE without WHERE",
        (
            "[DELETE without WHERE|unfiltered table change|"
            "statement touching every row|missing WHERE clause]"
        ),
    ),
    "unwrap_panic": (
        "panicking unwrap",
        "[panicking unwrap|bare unwrap|unwrap that can panic|unhandled result]",
    ),
    "no_errexit": (
        "script that ignores failures",
        (
            "[script that ignores failures|missing errexit|"
            "failure-blind script|script that runs past errors]"
        ),
    ),
    "unset_variable": (
        "never-set variable",
        "[never-set variable|variable nothing assigns|always-empty variable]",
    ),
    "unchecked_cd": (
        "unchecked cd",
        (
            "[unchecked cd|unverified directory change|"
            "cd without a check|directory change nobody checks]"
        ),
    ),
    "temp_no_cleanup": (
        "temp file left behind",
        "[temp file left behind|uncleaned temp file|temp file with no trap|leaked temporary file]",
    ),
    "read_without_r": (
        "read without -r",
        "[read without -r|backslash-eating read|read missing -r|read that mangles backslashes]",
    ),
    "print_output": ("stray print", "[stray print|print left in|bare print call|print to stdout]"),
    "assert_in_code": (
        "assert-based check",
        (
            "[assert doing real checks|assert as guard|assert-based check|"
            "fragile assert|guard that -O strips]"
        ),
    ),
    "div_empty": (
        "unguarded division",
        (
            "[unguarded division|possible division by zero|"
            "division by an empty length|zero-length division]"
        ),
    ),
    "index_empty": (
        "unchecked first element",
        (
            "[unchecked first element|unguarded first index|"
            "first item taken blindly|empty-result index]"
        ),
    ),
    "mutable_default": (
        "mutable default",
        (
            "[mutable default|shared default argument|"
            "mutable default argument|default list shared between calls]"
        ),
    ),
    "untested_branch": (
        "untested branch",
        (
            "[untested branch|branch nobody tests|unexercised path|"
            "branch lacking tests|path no test reaches]"
        ),
    ),
    "naive_datetime": (
        "local clock dependency",
        (
            "[local clock dependency|hidden clock read|"
            "wall-clock dependency|time-zone-dependent code]"
        ),
    ),
    "mocks_the_unit": (
        "mocked unit under test",
        "[mocked unit under test|self-mocking test|test that mocks its target|patched-out target]",
    ),
    "vacuous_assert": (
        "vacuous assertion",
        "[vacuous assertion|assert that always holds|empty assertion|toothless assert]",
    ),
    "test_without_assert": (
        "test without an assertion",
        (
            "[test without an assertion|assertion-free test|"
            "test that checks nothing|test that cannot fail]"
        ),
    ),
    "skipped_test": (
        "skipped test",
        "[skipped test|disabled test|test switched off|test left skipped]",
    ),
    "test_style": (
        "test-style problem",
        (
            "[test-style problem|weak test check|hard-to-read check|"
            "unittest-style assert|catch-all expected exception]"
        ),
    ),
    "vague_name": (
        "vague name",
        "[vague name|name that says nothing|meaningless name|opaque name]",
    ),
    "naming": (
        "naming problem",
        "[naming problem|misleading name|poorly chosen name|name off-style|unidiomatic name]",
    ),
    "missing_docstring": (
        "missing docstring",
        (
            "[missing docstring|undocumented function|docstring gap|"
            "function left undocumented|function with no docstring]"
        ),
    ),
    "module_docstring": (
        "missing module docstring",
        (
            "[missing module docstring|undocumented module|module without a docstring|"
            "docstring-less module|module lacking a docstring]"
        ),
    ),
    "class_docstring": (
        "missing class docstring",
        (
            "[missing class docstring|undocumented class|class without a docstring|"
            "class left undocumented|docstring-less class]"
        ),
    ),
    "weak_typing": (
        "type-checker escape",
        "[type-checker escape|loose any type|untyped value|any-typed value]",
    ),
    "unquoted_var": (
        "unquoted variable",
        "[unquoted variable|unquoted expansion|word-splitting expansion|bare variable expansion]",
    ),
    "backticks": (
        "backtick substitution",
        (
            "[backtick substitution|backtick command|legacy backtick call|"
            "old-style substitution|command in backquotes]"
        ),
    ),
    "old_arithmetic": ("expr arithmetic", "[expr arithmetic|forked sum|old-style arithmetic]"),
    "echo_options": (
        "echo -e in sh",
        "[echo -e in sh|non-portable echo|echo with flags|echo option in sh]",
    ),
    "sql_no_comment": (
        "undocumented SQL function",
        (
            "[undocumented SQL function|function with no COMMENT ON|"
            "uncommented function|function nobody described]"
        ),
    ),
    "magic_number": (
        "magic number",
        "[magic number|unexplained literal|bare constant|unnamed number]",
    ),
    "todo": ("open TODO", "[open TODO|unresolved TODO|TODO left behind|stray TODO]"),
    "none_compare": (
        "comparison to None",
        "[comparison to None|equality test on None|None check written with ==]",
    ),
    "loose_equality": (
        "loose equality",
        "[loose equality|non-strict comparison|var-scoped declaration|type-coercing comparison]",
    ),
    "unused": ("dead code", "[dead code|unused variable|variable nothing reads|leftover binding]"),
    "third_party": (
        "third-party import",
        "[third-party import|outside dependency|external package|foreign import]",
    ),
    "deprecated_dep": (
        "deprecated dependency",
        "[deprecated dependency|unmaintained package|abandoned dependency|outdated package]",
    ),
    "pipe_to_shell": (
        "download piped to a shell",
        (
            "[download piped to a shell|curl-to-shell install|"
            "unverified remote script|unpinned piped install]"
        ),
    ),
    "which_command": (
        "which lookup",
        "[which lookup|non-portable which|command found with which|which call]",
    ),
    "deprecated_kept": (
        "obsolete definition kept",
        (
            "[obsolete definition kept|deprecated definition still shipped|"
            "leftover obsolete definition]"
        ),
    ),
    "unused_import": (
        "unused import",
        "[unused import|idle import|dead import|import nothing uses]",
    ),
    "import_style": (
        "star import",
        "[star import|wildcard import|import of everything|blanket import]",
    ),
    "complexity": (
        "branch-heavy function",
        (
            "[branch-heavy function|branchy function|tangle of branches|"
            "function with too many branches|knot of conditions]"
        ),
    ),
    "deep_nesting": (
        "deeply nested block",
        "[deeply nested block|nest of branches|buried block|tower of ifs|over-nested block]",
    ),
    "needless_abstraction": (
        "single-use abstraction",
        (
            "[single-use abstraction|needless layer|"
            "layer with one implementation|premature abstraction]"
        ),
    ),
    "simplify": (
        "needless detour",
        (
            "[needless detour|roundabout construct|long way round|"
            "convoluted construct|overworked expression]"
        ),
    ),
    "long_function": (
        "long function",
        (
            "[long function|sprawling function|oversized function|"
            "function that sprawls|bloated function]"
        ),
    ),
    "global_state": (
        "shared global",
        "[global state|module-level state|shared global|process-wide variable]",
    ),
    "mixed_layers": (
        "function mixing concerns",
        (
            "[function mixing concerns|tangle of layers|"
            "mixed-concern function|function doing several jobs]"
        ),
    ),
    "hardwired_client": (
        "hard-wired client",
        (
            "[hard-wired client|client built in the constructor|"
            "baked-in dependency|uninjectable client]"
        ),
    ),
    "hidden_side_effect": (
        "hidden side effect",
        (
            "[hidden side effect|surprise mutation|quiet side effect|"
            "sneaky mutation|effect callers cannot see]"
        ),
    ),
}
