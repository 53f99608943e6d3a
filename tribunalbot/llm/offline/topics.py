"""What each kind of finding means, as data: owner persona, severity and how to say it.

A finding's `topic` is the join key between the analysers (ruff codes and heuristics both map to
topics) and the writers (reviews, accusations, planted claims all phrase topics). `problem` is a
verb phrase that follows "line N"; `fix` is an imperative sentence; `ref` is what a paranoid
reviewer would cite.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    domain: str  # persona key that owns this kind of finding
    severity: int  # 1 (cosmetic) .. 5 (exploitable or data-losing)
    problem: str
    fix: str
    ref: str = ""


# Lines of code (not comments, docstrings or blank lines) that make a function long. A blind
# round's readers found a straight run of 20-25 steps no clearer split; from 30 they agreed it
# does several jobs. Here, where the finding says it, so the number said is the one used.
LONG_FUNCTION = 30

_SEC = "security_guardian"
_PERF = "performance_guru"
_TEST = "test_skeptic"
_DX = "dx_advocate"
_ERR = "error_philosopher"
_DEP = "dependency_watcher"
_SIMPLE = "simplicity_zealot"
_ARCH = "architect"

TOPICS: dict[str, Topic] = {
    # security
    "sql_injection": Topic(_SEC, 5, "builds SQL by string formatting, so caller input becomes "
                           "query text", "Bind the values as query parameters instead", "CWE-89"),
    "secret": Topic(_SEC, 5, "hard-codes a credential in source, where every clone and log "
                    "can read it", "Load it from the environment or a secret store and rotate "
                    "it", "CWE-798"),
    "shell_injection": Topic(_SEC, 5, "hands a concatenated string to a shell", "Pass an "
                             "argument list without a shell", "CWE-78"),
    "eval": Topic(_SEC, 5, "evaluates a string as code, so whoever controls that string "
                  "controls the program", "Parse it as data (JSON or a literal parser) instead "
                  "of executing it", "CWE-95"),
    "grant_public": Topic(_SEC, 5, "grants broad privileges: ALL of them, or writes to PUBLIC "
                          "(every role in the database)", "Grant only the needed privileges "
                          "to a named role", "CWE-732"),
    "unsafe_block": Topic(_SEC, 4, "dereferences memory in an unsafe block the compiler cannot "
                          "check", "Use a safe API, or document and test the invariant that "
                          "makes it sound", "CWE-119"),
    "world_writable": Topic(_SEC, 4, "makes a file writable by every user", "Grant the "
                            "narrowest mode that works", "CWE-732"),
    "tls_off": Topic(_SEC, 5, "turns off certificate verification", "Keep verification on "
                     "and trust the right CA instead", "CWE-295"),
    "unsafe_deserialize": Topic(_SEC, 4, "deserializes with a loader that can build arbitrary "
                                "objects", "Use a safe loader or a plain data format",
                                "CWE-502"),
    "path_traversal": Topic(_SEC, 5, "joins a user-supplied name into a filesystem path",
                            "Resolve the path and reject anything outside the base directory",
                            "CWE-22"),
    "xss": Topic(_SEC, 4, "writes request text into HTML without escaping", "Escape it or "
                 "render through a template", "CWE-79"),
    "missing_auth": Topic(_SEC, 4, "acts on a resource without checking who owns it", "Check "
                          "the caller's ownership before acting", "CWE-862"),
    "weak_hash": Topic(_SEC, 3, "relies on a broken hash function", "Use SHA-256 or a keyed "
                       "HMAC", "CWE-327"),
    "weak_random": Topic(_SEC, 2, "uses a predictable random generator", "Use the secrets "
                         "module where the value matters", "CWE-338"),
    "debug_exposure": Topic(_SEC, 4, "turns debug mode on or listens on every network "
                            "interface", "Keep debug off and bind to localhost outside "
                            "development", "CWE-489"),
    "temp_file": Topic(_SEC, 3, "works on a guessable temporary path", "Use a private "
                       "temporary directory", "CWE-377"),
    "data_exposure": Topic(_SEC, 3, "fetches every column with SELECT *, more than a caller "
                           "may need or be allowed to see", "Select an explicit list of "
                           "columns", "CWE-200"),
    "untrusted_input": Topic(_SEC, 3, "takes untrusted input and uses it without validation",
                             "Validate type, length and format where it enters", "CWE-20"),
    # performance
    "n_plus_one": Topic(_PERF, 4, "runs one query per item inside the loop, an N+1 pattern",
                        "Fetch everything in one batched query"),
    "quadratic": Topic(_PERF, 3, "scans a whole collection for each item of the outer loop, "
                       "O(n×m) work", "Index the inner collection in a dict once"),
    "concat_in_loop": Topic(_PERF, 3, "grows a string or buffer by concatenation inside a "
                            "loop", "Collect the parts and join them once"),
    "blocking_io": Topic(_PERF, 3, "does synchronous I/O on the request path",
                         "Use the asynchronous call so the server keeps serving"),
    "await_in_loop": Topic(_PERF, 2, "awaits each item in turn inside the loop",
                           "Start the calls together and gather them"),
    "copy_in_loop": Topic(_PERF, 2, "copies a buffer element by element",
                          "Copy it in one call or reuse the original slice"),
    "io_call_in_loop": Topic(_PERF, 4, "calls a function that does network or database I/O "
                             "once per item", "Batch the work into one call, or run the calls "
                             "concurrently with a bound"),
    "blocking_sleep": Topic(_PERF, 2, "sleeps with time.sleep, blocking its whole thread "
                            "(in async code, the event loop)", "Cap the total wait, or "
                            "schedule the retry instead of holding the worker"),
    "perf_misc": Topic(_PERF, 2, "does avoidable work in a loop", "Hoist it out of the loop"),
    "unbounded_growth": Topic(_PERF, 3, "appends to a list that is never trimmed",
                              "Bound it or keep counters instead"),
    # error handling
    "bare_except": Topic(_ERR, 4, "catches everything with a bare except and carries on",
                         "Catch the specific exception and let the rest raise"),
    "swallowed_error": Topic(_ERR, 4, "swallows the failure silently", "Log it with context "
                             "and propagate or return an explicit error"),
    "broad_except": Topic(_ERR, 3, "catches every exception in one blind handler",
                          "Catch what you can recover from and let the rest surface"),
    "no_timeout": Topic(_ERR, 4, "makes a network call with no timeout", "Set an explicit "
                        "timeout and decide what happens when it fires"),
    "ignored_error": Topic(_ERR, 4, "discards the returned error", "Check it and return it "
                           "wrapped with context"),
    "wrapped_error": Topic(_ERR, 2, "wraps an error with %v, so callers cannot match it with "
                           "errors.Is or errors.As", "Wrap it with %w"),
    "crash": Topic(_ERR, 3, "exits or panics instead of returning an error", "Return an "
                   "error the caller can act on"),
    "print_errors": Topic(_ERR, 2, "reports a failure with a print instead of a log or an "
                          "error", "Use the logger and surface the failure to the caller"),
    "resource_leak": Topic(_ERR, 3, "opens a resource without closing it on failure",
                           "Use a context manager (or defer the close)"),
    "unbounded_retry": Topic(_ERR, 4, "retries in a loop with no ceiling on one path",
                             "Bound every retry path and give up with a clear error"),
    "error_flow": Topic(_ERR, 2, "raises inside its own try block, muddying the failure "
                        "path", "Separate the failure from the happy path"),
    "debug_logging": Topic(_ERR, 1, "logs through bare console output instead of a "
                           "structured logger", "Use the application logger with context"),
    "errors_misc": Topic(_ERR, 2, "has a construct the linter flags as error-prone",
                         "Read the warning and fix the construct"),
    "syntax_error": Topic(_ERR, 4, "does not parse as Python 3, so the file cannot run as it "
                          "is", "Fix the syntax (or port the code) first"),
    "warn_stacklevel": Topic(_ERR, 1, "warns without a stacklevel, so the warning points here "
                             "instead of at the caller", "Pass stacklevel=2"),
    "undefined_name": Topic(_ERR, 4, "uses a name that is never defined, so it raises when it "
                            "runs", "Define or import the name, and cover the path with a "
                            "test"),
    "destructive_command": Topic(_ERR, 5, "deletes recursively under a path built from a "
                                 "variable, so an empty value wipes the wrong tree",
                                 "Quote the variable, fail on empty (${1:?}) and refuse /"),
    "delete_without_where": Topic(_ERR, 5, "changes every row of the table, with no WHERE "
                                  "clause", "Add the WHERE clause and run it in a transaction"),
    "unwrap_panic": Topic(_ERR, 3, "unwraps a result, so any error becomes a panic",
                          "Propagate it with ? or handle the error case"),
    "no_errexit": Topic(_ERR, 2, "runs a script that carries on after a failed command",
                        "Start with set -euo pipefail"),
    "unset_variable": Topic(_ERR, 3, "expands a variable the script never sets, so it is "
                            "always empty there", "Set it where it is meant to come from, or "
                            "fix the name", "CWE-457"),
    "unchecked_cd": Topic(_ERR, 3, "changes directory without checking that it worked, so "
                          "the commands after it run in the wrong place", "Write cd ... || "
                          "exit"),
    "temp_no_cleanup": Topic(_ERR, 2, "makes a temporary file with mktemp but sets no trap, "
                             "so a failed or interrupted run leaves it behind",
                             "Remove it in a trap on EXIT", "CWE-459"),
    "read_without_r": Topic(_ERR, 2, "reads input with read but without -r, so backslashes in "
                            "it are eaten", "Use read -r"),
    "print_output": Topic(_ERR, 1, "writes to stdout with print, which a caller or log "
                          "pipeline cannot filter", "Use the logger, or return the value"),
    # tests
    "assert_in_code": Topic(_TEST, 3, "uses assert for a runtime check, which -O strips",
                            "Raise a real exception and test that path"),
    "div_empty": Topic(_TEST, 3, "divides by a length that can be zero", "Handle the empty "
                       "case and add a test for it"),
    "index_empty": Topic(_TEST, 2, "takes the first element without checking there is one",
                         "Cover the empty result with a test"),
    "mutable_default": Topic(_TEST, 3, "shares a mutable default argument between calls",
                             "Default to None and build a fresh value"),
    "untested_branch": Topic(_TEST, 2, "has three or more branches, and no test here "
                             "exercises them", "Add a unit test per branch, failure path "
                             "first"),
    "naive_datetime": Topic(_TEST, 2, "depends on the local clock and time zone",
                            "Inject the clock so a test can pin it"),
    "mocks_the_unit": Topic(_TEST, 4, "patches out the very function the test calls, so the "
                            "test can never fail", "Mock the collaborator, not the unit under "
                            "test"),
    "vacuous_assert": Topic(_TEST, 3, "asserts something that holds whatever the code does",
                            "Assert on the exact value the code computed"),
    "test_without_assert": Topic(_TEST, 3, "has a test with no assertion, so it passes "
                                 "whatever happens", "Assert on the observable outcome"),
    "skipped_test": Topic(_TEST, 2, "skips a test instead of fixing it", "Fix the flakiness "
                          "or delete the test, and say which"),
    "test_style": Topic(_TEST, 2, "writes a check weaker or harder to read than it could be "
                        "(a unittest-style assert, a catch-all expected exception)",
                        "Use plain asserts and the narrowest expected exception"),
    # readability
    "vague_name": Topic(_DX, 2, "uses a name that says nothing about intent",
                        "Rename it after what it means"),
    "naming": Topic(_DX, 2, "breaks the naming conventions readers rely on",
                    "Follow the language's naming style"),
    "missing_docstring": Topic(_DX, 1, "exposes a public function with no docstring",
                               "Document what it returns and when it fails"),
    "module_docstring": Topic(_DX, 1, "opens a module with no docstring saying what it is for",
                              "Add a one-line module docstring"),
    "class_docstring": Topic(_DX, 1, "declares a public class with no docstring",
                             "Document what the class represents"),
    "weak_typing": Topic(_DX, 2, "escapes the type checker with any", "Give it a real type"),
    "unquoted_var": Topic(_DX, 2, "expands a variable unquoted, so spaces split it",
                          "Quote the expansion"),
    "backticks": Topic(_DX, 1, "substitutes a command with backticks, which nest and quote "
                       "badly", "Use $(...) instead"),
    "old_arithmetic": Topic(_DX, 1, "does arithmetic the old way (expr, a process per sum, "
                            "or $[...]), where POSIX $((...)) does it in the shell",
                            "Use $((...))"),
    "echo_options": Topic(_DX, 2, "passes -e to echo in a #!/bin/sh script, where dash's echo "
                          "prints the -e itself", "Use printf, which means the same in every "
                          "shell"),
    "sql_no_comment": Topic(_DX, 1, "creates a function with no COMMENT ON, unlike the ones "
                            "this file describes, so the catalog says nothing of it",
                            "Add a COMMENT ON FUNCTION saying what it computes"),
    "magic_number": Topic(_DX, 1, "compares against an unexplained literal",
                          "Give the value a named constant"),
    "todo": Topic(_DX, 2, "leaves a TODO that the next developer inherits",
                  "Resolve it or turn it into a tracked issue"),
    "none_compare": Topic(_DX, 1, "compares to None, True or False with ==", "Use `is`, or "
                          "test the value itself"),
    "loose_equality": Topic(_DX, 2, "uses loose equality or var scoping",
                            "Use strict equality and const/let"),
    "unused": Topic(_DX, 1, "keeps a variable it never uses", "Delete it, or name it _ where "
                    "something must bind it"),
    # dependencies
    "third_party": Topic(_DEP, 2, "pulls in a third-party package", "Pin it and check "
                         "whether the standard library already covers the use"),
    "deprecated_dep": Topic(_DEP, 3, "depends on a deprecated or unmaintained package",
                            "Move to the maintained replacement"),
    "pipe_to_shell": Topic(_DEP, 5, "pipes a downloaded script straight into a shell, "
                           "unpinned and unverified", "Download a pinned version, verify its "
                           "checksum, then run it"),
    "which_command": Topic(_DEP, 1, "looks a command up with which, an external program "
                           "that is not in POSIX and behaves differently between systems",
                           "Use command -v"),
    "deprecated_kept": Topic(_DEP, 2, "still creates what its own comment calls obsolete, so "
                             "new code can go on depending on it", "Drop it in the next "
                             "version, and point users at the replacement"),
    "unused_import": Topic(_DEP, 2, "imports something it never uses", "Drop the import"),
    "import_style": Topic(_DEP, 1, "imports * from a module, which hides where names come "
                          "from", "Import the names it uses explicitly"),
    # simplicity
    "complexity": Topic(_SIMPLE, 3, "packs too many branches into one function",
                        "Split it and return early"),
    "deep_nesting": Topic(_SIMPLE, 3, "nests its logic several blocks deep",
                          "Flatten it with guard clauses or a helper"),
    "needless_abstraction": Topic(_SIMPLE, 3, "adds a layer that has exactly one "
                                  "implementation", "Delete the layer and call the concrete "
                                  "code"),
    "simplify": Topic(_SIMPLE, 1, "says in a roundabout way what a simpler construct says",
                      "Use the simpler form"),
    # architecture
    "long_function": Topic(_ARCH, 3, f"starts a long function ({LONG_FUNCTION} lines of code "
                           "or more), too much to take in at once",
                           "Split it into steps that each do one job"),
    "global_state": Topic(_ARCH, 3, "keeps shared module-level state that every caller is "
                          "coupled to", "Inject it where it is used"),
    "mixed_layers": Topic(_ARCH, 3, "starts a function that mixes {detail} in one place",
                          "Give each concern its own function behind a narrow interface"),
    "hardwired_client": Topic(_ARCH, 3, "hard-wires a concrete client inside a constructor",
                              "Inject the client so callers and tests can choose it"),
    "hidden_side_effect": Topic(_ARCH, 3, "reaches for process-wide state (the command line, "
                                "the environment, a shell) that its callers cannot see",
                                "Make the effect explicit at the boundary"),
}


# The simpler form each ruff rule of the "simplify" topic means, said after the topic's fix: a
# blind round's readers marked "use the simpler form" weak for never naming the form.
RULE_FIXES: dict[str, str] = {
    "SIM101": "merge the `isinstance` calls into one with a tuple of types",
    "SIM102": "merge the nested `if` statements into one condition joined by `and`",
    "SIM103": "return the condition itself instead of True or False from an if",
    "SIM114": "join the branches that do the same thing with `or`",
    "SIM117": "merge the nested `with` statements into one",
    "SIM118": "iterate over the dict itself instead of its `.keys()`",
    "SIM201": "write `!=` instead of `not ... ==`",
    "SIM202": "write `==` instead of `not ... !=`",
    "SIM401": "use `dict.get(key, default)` in place of the if/else",
    "SIM910": "drop the `None` default, since `.get(key)` already returns None",
    "E713": "write `x not in y` instead of `not x in y`",
    "E714": "write `x is not y` instead of `not x is y`",
    "B009": "read the attribute directly instead of through `getattr` with a fixed name",
    "B010": "set the attribute directly instead of through `setattr` with a fixed name",
    "PERF401": "build the list with a comprehension",
    "PERF402": "copy the list with `list(...)`",
    "PERF403": "build the dict with a comprehension",
    "TRY203": "drop the handler that only raises again",
}
