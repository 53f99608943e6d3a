"""The Troublemaker's planted claims: one subtly wrong sentence per review, by strategy.

A planted claim is anchored on a real line whose finding makes the advice sound relevant (a
model call next to input validation, a message bus next to shared state), and is then wrong for
it. Phrasing is composed from the shared phrasebook, which honest decoys also draw on, so no
phrase marks the Troublemaker. The public sentence never names the role or the strategy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.phrasebook import (
    ADVICE,
    ADVOCATE_LEADS,
    DISMISS_LEADS,
    DISMISS_TAILS,
    EXCUSES,
    HEAVY,
    stacks_for,
)
from tribunalbot.llm.replies import PlantedClaim


@dataclass(frozen=True)
class Plan:
    family: str  # key of HEAVY, or "dismiss"
    advice: tuple[str, ...]  # slots: {heavy} {subject} {case}
    fits: frozenset[str]  # topics where the advice sounds relevant
    kind: str
    why: str  # slots: {line} {problem} {fix} {heavy}


_STRUCTURE = frozenset({"long_function", "mixed_layers", "global_state", "hardwired_client",
                        "complexity", "deep_nesting", "too_many_args", "untested_branch",
                        "hidden_side_effect"})
_STATE = frozenset({"global_state", "unbounded_growth", "swallowed_error", "bare_except",
                    "broad_except", "ignored_error", "n_plus_one", "io_call_in_loop",
                    "unbounded_retry", "mixed_layers", "delete_without_where", "missing_auth",
                    "data_exposure", "resource_leak", "sql_injection", "destructive_command"})
_JUDGMENT = frozenset({"untrusted_input", "sql_injection", "eval", "xss", "path_traversal",
                       "missing_auth", "shell_injection", "bare_except", "broad_except",
                       "swallowed_error", "unbounded_retry", "complexity", "deep_nesting",
                       "crash", "destructive_command", "unwrap_panic"})
_IMPORTS = frozenset({"third_party", "deprecated_dep", "unused_import", "import_style"})

PLANS: dict[str, Plan] = {
    "its_perfect": Plan("dismiss", DISMISS_TAILS, frozenset(), "dismissed a real issue",
                        "Line {line} really {problem}; it must be fixed ({fix})."),
    "deep_thinker": Plan(
        "abstraction", ADVICE["abstraction"], _STRUCTURE, "over-engineering",
        "Line {line} needs a direct fix ({fix}); {heavy} adds indirection the code does not "
        "need and leaves the defect in place."),
    "blockchain": Plan(
        "infrastructure", ADVICE["infrastructure"], _STATE, "irrelevant heavy technology",
        "Line {line} {problem}; {heavy} does not address that and brings operational weight "
        "the code does not need. The direct fix: {fix}."),
    "rewrite_it": Plan(
        "rewrite", ADVICE["rewrite"], _STRUCTURE | _STATE | _IMPORTS, "needless rewrite",
        "Line {line} is a local defect ({fix}); {heavy} throws away working code and delays "
        "the small fix."),
    "let_ai_do_it": Plan(
        "model", ADVICE["model"], _JUDGMENT, "runtime model judgment",
        "Line {line} needs a deterministic fix ({fix}); {heavy} is slow, non-deterministic "
        "and can itself be talked into approving bad input."),
}
_CASES = {"security_guardian": "request", "error_philosopher": "failure"}


def _pool(plan: Plan, persona: str, analysis: Analysis, others: set[str]) -> list[Finding]:
    ranked = analysis.ranked()
    if plan.family == "dismiss":
        # A dismissal contradicts what another player will say: a serious finding they own.
        serious = [f for f in ranked if f.severity >= 3]
        return ([f for f in serious if f.domain in others and f.domain != persona]
                or serious or ranked)
    fitting = [f for f in ranked if f.topic in plan.fits]
    own = [f for f in fitting if f.domain == persona]
    return own or fitting or [f for f in ranked if f.topic not in _IMPORTS] or ranked


def pick_anchor(strategy: str, persona: str, analysis: Analysis, others: set[str],
                rng: random.Random) -> Finding | None:
    """The real finding a planted claim hangs on, where its advice sounds relevant."""
    pool = _pool(PLANS.get(strategy, PLANS["its_perfect"]), persona, analysis, others)
    return rng.choice(pool[:3]) if pool else None


def _excuse(anchor: Finding, rng: random.Random) -> str:
    return rng.choice(EXCUSES.get(anchor.domain) or EXCUSES["security_guardian"])


def _heavy(family: str, language: str, rng: random.Random) -> str:
    return rng.choice(HEAVY[family]).format(stack=rng.choice(stacks_for(language)))


def plant(strategy: str, persona: str, subject: str, analysis: Analysis, others: set[str],
          rng: random.Random) -> tuple[str, PlantedClaim]:
    """The public sentence and its ledger entry."""
    plan = PLANS.get(strategy, PLANS["its_perfect"])
    anchor = pick_anchor(strategy, persona, analysis, others, rng)
    if anchor is None and plan.family == "dismiss":
        plan = PLANS["deep_thinker"]  # nothing real to dismiss: over-build instead
    line = anchor.line if anchor else analysis.first_line
    heavy = _heavy(plan.family, analysis.language, rng) if plan.family in HEAVY else ""
    slots = {"heavy": heavy, "subject": subject,
             "case": _CASES.get(anchor.domain if anchor else "", "case")}
    if plan.family == "dismiss" and anchor is not None:
        advice = rng.choice(plan.advice).format(problem=anchor.problem,
                                                excuse=_excuse(anchor, rng))
        sentence = rng.choice(DISMISS_LEADS).format(line=line) + advice
    else:
        sentence = (rng.choice(ADVOCATE_LEADS).format(line=line)
                    + rng.choice(plan.advice).format(**slots))
        sentence = sentence.replace(":  ", ": ").replace(",  ", ", ")
    if anchor is not None:
        why = plan.why.format(line=line, problem=anchor.problem, heavy=heavy or "that",
                              fix=anchor.info.fix[0].lower() + anchor.info.fix[1:])
    else:
        why = (f"Line {line} has nothing that needs changing; {heavy} adds weight the code "
               "does not need.")
    return sentence, PlantedClaim(claim=sentence, why_wrong=why, kind=plan.kind)
