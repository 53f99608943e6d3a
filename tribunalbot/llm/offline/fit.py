"""Is a piece of advice right for this code? One answer for the writer and the reader.

Advice comes in families (a new abstraction, new infrastructure, a rewrite, handing work to a
model) and in weights: level 1 is a local step (a small interface, a bounded queue, rewriting
the block), level 2 a bigger one (an adapter chosen by the caller, a background worker,
rewriting the whole function), level 3 the heavy option nothing in a single file needs (a
plugin registry, a message bus, a port to another framework, a model deciding at runtime).

What the analysis found at a line earns a family up to a level: shared state earns an
injected interface, a long function earns rewriting it. Recommending an option the line has
earned is sound; recommending more than it earned is the over-reach a careful reader can
check against the code; turning down what it earned rejects the needed fix. A reviewer (the
writer) picks its line and option from this table, and the jury (the reader) judges any text
by the same table, so shape alone never decides.
"""

from __future__ import annotations

from tribunalbot.llm.offline.findings import Analysis, Finding

FAMILIES = ("abstraction", "infrastructure", "rewrite", "model")
HEAVIEST = 3
SERIOUS = 3  # a finding of this severity or more must be fixed, never waved away
MINOR = 2  # a finding of this severity or less may fairly be called minor

# Topic -> the heaviest level of each family the finding makes right. Generous on purpose:
# an honest reviewer must be able to recommend something on most code, as often as the
# Troublemaker recommends something wrong, or recommending at all would mark a role.
EARNS: dict[str, dict[str, int]] = {
    "abstraction": {"global_state": 2, "hardwired_client": 2, "mixed_layers": 2,
                    "deprecated_dep": 2, "hidden_side_effect": 1, "too_many_args": 1,
                    "third_party": 1, "unsafe_block": 1, "no_timeout": 1,
                    "print_output": 1, "debug_logging": 1, "print_errors": 1,
                    "data_exposure": 1},
    "infrastructure": {"io_call_in_loop": 2, "n_plus_one": 2, "blocking_io": 2,
                       "blocking_sleep": 2, "unbounded_retry": 1, "unbounded_growth": 1,
                       "await_in_loop": 1, "perf_misc": 1},
    "rewrite": {"long_function": 2, "complexity": 2, "syntax_error": 2, "deep_nesting": 1,
                "simplify": 1, "backticks": 1, "concat_in_loop": 1, "quadratic": 1,
                "copy_in_loop": 1, "error_flow": 1, "test_style": 1, "unquoted_var": 1,
                "no_errexit": 1, "magic_number": 1, "none_compare": 1, "crowded_line": 1,
                "loose_equality": 1, "unwrap_panic": 1, "assert_in_code": 1,
                "mutable_default": 1, "old_arithmetic": 1, "unset_variable": 1,
                "unchecked_cd": 1, "temp_no_cleanup": 1, "read_without_r": 1,
                "which_command": 1, "echo_options": 1, "deprecated_kept": 1},
    "model": {"missing_docstring": 1, "module_docstring": 1, "class_docstring": 1,
              "vague_name": 1, "naming": 1, "todo": 1, "untested_branch": 2,
              "test_without_assert": 2, "vacuous_assert": 2, "skipped_test": 2,
              "div_empty": 2, "index_empty": 2, "sql_no_comment": 1},
}


def earned(family: str, analysis: Analysis, line: int) -> int:
    """The heaviest level of `family` the findings at `line` make right (0: none)."""
    table = EARNS.get(family, {})
    return max((table.get(f.topic, 0) for f in analysis.at(line)), default=0)


def fits(family: str, level: int, analysis: Analysis, line: int) -> bool:
    """Recommending this option at this line is right for the code."""
    return 0 < level <= earned(family, analysis, line)


def earning(family: str, level: int, analysis: Analysis) -> list[Finding]:
    """The findings where recommending `family` at `level` is right."""
    table = EARNS.get(family, {})
    return [f for f in analysis.findings if table.get(f.topic, 0) >= level]


def unearned(family: str, level: int, analysis: Analysis) -> list[Finding]:
    """The findings where recommending `family` at `level` is wrong: the line earns less."""
    return [f for f in analysis.findings if earned(family, analysis, f.line) < level]


def realizable(analysis: Analysis) -> list[str]:
    """The families some line of this code has earned: the only ones an honest reviewer can
    recommend here, so the only ones any seat's judgment call should be about (a family
    only the Troublemaker ever names would name it)."""
    return [family for family in FAMILIES if earning(family, 1, analysis)]


def serious_at(analysis: Analysis, line: int) -> Finding | None:
    """The most serious finding at `line` when it must be fixed, else None."""
    found = [f for f in analysis.at(line) if f.severity >= SERIOUS]
    return max(found, key=lambda f: (f.severity, -abs(f.line - line))) if found else None


def minor_only(analysis: Analysis, finding: Finding) -> bool:
    """Calling this finding minor is fair: it is, and nothing serious sits next to it."""
    return finding.severity <= MINOR and serious_at(analysis, finding.line) is None
