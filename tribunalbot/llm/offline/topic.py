"""What a kind of finding is: its key (`Topic`) and the shape of everything known about it
(`TopicRecord`). The records themselves, one per topic, are in `topics/`.

A finding's topic is the join key between the analysers (ruff codes, pattern rules and the
structural detectors all name topics) and the writers (reviews, accusations and planted
claims all phrase them), so it is an enum: a misspelt topic fails where it is written, not
as a silent miss in some table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tribunalbot.llm.offline.rules import LineRule
    from tribunalbot.llm.offline.vetcontext import Check


class Topic(StrEnum):
    """Every kind of finding, by the persona that owns it (the order the registry keeps)."""

    # security
    SQL_INJECTION = "sql_injection"
    SECRET = "secret"
    SHELL_INJECTION = "shell_injection"
    EVAL = "eval"
    GRANT_PUBLIC = "grant_public"
    UNSAFE_BLOCK = "unsafe_block"
    WORLD_WRITABLE = "world_writable"
    TLS_OFF = "tls_off"
    UNSAFE_DESERIALIZE = "unsafe_deserialize"
    PATH_TRAVERSAL = "path_traversal"
    XSS = "xss"
    MISSING_AUTH = "missing_auth"
    WEAK_HASH = "weak_hash"
    WEAK_RANDOM = "weak_random"
    DEBUG_EXPOSURE = "debug_exposure"
    TEMP_FILE = "temp_file"
    DATA_EXPOSURE = "data_exposure"
    UNTRUSTED_INPUT = "untrusted_input"
    # performance
    N_PLUS_ONE = "n_plus_one"
    QUADRATIC = "quadratic"
    CONCAT_IN_LOOP = "concat_in_loop"
    BLOCKING_IO = "blocking_io"
    AWAIT_IN_LOOP = "await_in_loop"
    COPY_IN_LOOP = "copy_in_loop"
    IO_CALL_IN_LOOP = "io_call_in_loop"
    BLOCKING_SLEEP = "blocking_sleep"
    PERF_MISC = "perf_misc"
    UNBOUNDED_GROWTH = "unbounded_growth"
    # error handling
    BARE_EXCEPT = "bare_except"
    SWALLOWED_ERROR = "swallowed_error"
    BROAD_EXCEPT = "broad_except"
    NO_TIMEOUT = "no_timeout"
    IGNORED_ERROR = "ignored_error"
    WRAPPED_ERROR = "wrapped_error"
    CRASH = "crash"
    PRINT_ERRORS = "print_errors"
    RESOURCE_LEAK = "resource_leak"
    UNBOUNDED_RETRY = "unbounded_retry"
    ERROR_FLOW = "error_flow"
    DEBUG_LOGGING = "debug_logging"
    ERRORS_MISC = "errors_misc"
    SYNTAX_ERROR = "syntax_error"
    WARN_STACKLEVEL = "warn_stacklevel"
    UNDEFINED_NAME = "undefined_name"
    DESTRUCTIVE_COMMAND = "destructive_command"
    DELETE_WITHOUT_WHERE = "delete_without_where"
    UNWRAP_PANIC = "unwrap_panic"
    NO_ERREXIT = "no_errexit"
    UNSET_VARIABLE = "unset_variable"
    UNCHECKED_CD = "unchecked_cd"
    TEMP_NO_CLEANUP = "temp_no_cleanup"
    READ_WITHOUT_R = "read_without_r"
    PRINT_OUTPUT = "print_output"
    # tests
    ASSERT_IN_CODE = "assert_in_code"
    DIV_EMPTY = "div_empty"
    INDEX_EMPTY = "index_empty"
    MUTABLE_DEFAULT = "mutable_default"
    UNTESTED_BRANCH = "untested_branch"
    NAIVE_DATETIME = "naive_datetime"
    MOCKS_THE_UNIT = "mocks_the_unit"
    VACUOUS_ASSERT = "vacuous_assert"
    TEST_WITHOUT_ASSERT = "test_without_assert"
    SKIPPED_TEST = "skipped_test"
    TEST_STYLE = "test_style"
    # readability
    VAGUE_NAME = "vague_name"
    NAMING = "naming"
    MISSING_DOCSTRING = "missing_docstring"
    MODULE_DOCSTRING = "module_docstring"
    CLASS_DOCSTRING = "class_docstring"
    WEAK_TYPING = "weak_typing"
    UNQUOTED_VAR = "unquoted_var"
    BACKTICKS = "backticks"
    OLD_ARITHMETIC = "old_arithmetic"
    ECHO_OPTIONS = "echo_options"
    SQL_NO_COMMENT = "sql_no_comment"
    MAGIC_NUMBER = "magic_number"
    TODO = "todo"
    NONE_COMPARE = "none_compare"
    LOOSE_EQUALITY = "loose_equality"
    UNUSED = "unused"
    # dependencies
    THIRD_PARTY = "third_party"
    DEPRECATED_DEP = "deprecated_dep"
    PIPE_TO_SHELL = "pipe_to_shell"
    WHICH_COMMAND = "which_command"
    DEPRECATED_KEPT = "deprecated_kept"
    UNUSED_IMPORT = "unused_import"
    IMPORT_STYLE = "import_style"
    # simplicity
    COMPLEXITY = "complexity"
    DEEP_NESTING = "deep_nesting"
    NEEDLESS_ABSTRACTION = "needless_abstraction"
    SIMPLIFY = "simplify"
    # architecture
    LONG_FUNCTION = "long_function"
    GLOBAL_STATE = "global_state"
    MIXED_LAYERS = "mixed_layers"
    HARDWIRED_CLIENT = "hardwired_client"
    HIDDEN_SIDE_EFFECT = "hidden_side_effect"


SEAT_WORDINGS = 8  # seats 1 to 8 each give a topic's fix in their own words


@dataclass(frozen=True)
class TopicRecord:
    """One topic, whole: what it means, how it is found and vetted, what it earns, and every
    wording the game uses for it."""

    domain: str  # the persona key that owns this kind of finding
    severity: int  # 1 (cosmetic) .. 5 (exploitable or data-losing)
    problem: str  # a verb phrase that follows "line N" ({detail}: the construct involved)
    fix: str  # an imperative sentence: the canonical wording of the fix
    more_fixes: tuple[str, ...]  # SEAT_WORDINGS - 1 more wordings, so seats never agree
    label: str  # what a juror calls it: a plain noun phrase
    names: str  # a `[a|b|c]` choice of noun phrases that all mean the label
    ref: str = ""  # what a paranoid reviewer cites (a CWE)
    # How it is found: ruff codes (or code prefixes) that mean it, the pattern rules that
    # propose it line by line, and the modules that find it by the code's structure.
    ruff: tuple[str, ...] = ()
    rules: tuple[LineRule, ...] = ()
    detectors: tuple[str, ...] = ()
    # The simpler form a ruff code of this topic means, said after the fix: "use the simpler
    # form" alone was marked weak by a blind round's readers for never naming the form.
    forms: tuple[tuple[str, str], ...] = ()
    # Whether a proposed finding is true of the code around it; None: kept as proposed.
    check: Check | None = None
    # The heaviest level of each option family that is a fix for it, as a senior reviewer
    # would sign (fit.py); the option that is its own fix, which turning down is wrong; and
    # why it earns an option, as a cited recommendation says it ("..., since that line
    # <reason>"): the same words for every seat.
    earns: tuple[tuple[str, int], ...] = ()
    needs: tuple[str, int] | None = None
    reason: str = ""
    juror_fix: str = ""  # the fix as a `[a|b]` choice of a juror's own imperatives, if any
    # Worth a review's words on mature code though below a defect's severity: a fact a senior
    # signs on any file (an import nothing uses, `which` for `command -v`). See
    # `findings.Finding.worth_saying`.
    stated: bool = False
    # Said as a minor note though not worth a change: a fact whose better form names itself
    # (`$((i + 1))` for `expr`, `is None`, ruff's simpler form). Fourteen blind rounds judged
    # the other notes (a docstring missing, a function's length, a TODO) worth saying 1 time
    # in 5, and notes of intent (is this number magic?) wrong on each round's new idioms; a
    # reviewer that cannot tell when they matter says nothing. See `Analysis.says`.
    noted: bool = False
    # A fact a tool proves from the text alone (a name never defined, a line that does not
    # parse, an import nothing uses, `which` for `command -v`, a function's length or
    # branches): said on any code, and on maintained code the only findings that earn an
    # option (`fit.earned`). A defect that is not proven is a guess about intent or about what
    # reaches a line at run time (an error swallowed, input reaching a shell): blind rounds
    # 11-20's readers judged 79 of them on maintained code, none right, each round on idioms
    # the last round's fixes had not seen. See `Analysis.says`.
    proven: bool = False

    @property
    def wordings(self) -> tuple[str, ...]:
        """Every wording of the fix, the canonical one first."""
        return (self.fix, *self.more_fixes)

    def fix_for_seat(self, seat: int) -> str:
        """The seat's own wording of the fix: seats 1 to 8 each say it differently (the
        Ghost Reviewer, a ninth, shares the first seat's)."""
        words = self.wordings
        return words[(seat - 1) % len(words)]

    def form(self, ruff_code: str) -> str:
        """The simpler form the ruff rule `ruff_code` means, or ""."""
        return dict(self.forms).get(ruff_code, "")
