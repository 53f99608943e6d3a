"""The Troublemaker's planted claims: one subtly wrong sentence per review, by strategy.

Each strategy is a row of templates. A planted claim is anchored on a real line with a real
finding, which is what makes it plausible: it talks about a genuine spot in the code and then
gives advice that is wrong for it. The public sentence never names the role or the strategy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tribunalbot.engine.replies import PlantedClaim
from tribunalbot.llm.offline.findings import Analysis, Finding


@dataclass(frozen=True)
class Plan:
    templates: tuple[str, ...]  # slots: {line} {problem} {subject} {stack} {excuse}
    kind: str
    why: str  # slots: {line} {problem} {fix}


PLANS: dict[str, Plan] = {
    "its_perfect": Plan(
        ("I would leave line {line} alone: it {problem}, but {excuse}.",
         "Line {line} {problem}, and that is acceptable here because {excuse}.",
         "Line {line} looks alarming at first, yet it is fine in context: {excuse}."),
        "dismissed a real issue",
        "Line {line} really {problem}; it must be fixed ({fix}).",
    ),
    "deep_thinker": Plan(
        ("Rather than patching line {line} directly, put {subject} behind a small plugin "
         "interface with a registry, so each deployment can swap in its own implementation.",
         "Line {line} shows that {subject} should become configurable: a strategy interface "
         "plus a config-driven factory would future-proof it before the next requirement."),
        "over-engineering",
        "Line {line} needs a direct fix ({fix}); a plugin layer adds indirection the code "
        "does not need and leaves the defect in place.",
    ),
    "blockchain": Plan(
        ("For line {line}, publish every change to {subject} as an event on a message bus "
         "and keep an append-only ledger of them, so this class of problem is auditable.",
         "Line {line} is really a consistency problem: move {subject} into its own "
         "microservice behind Kafka, so every write is ordered and replayable."),
        "irrelevant heavy technology",
        "Line {line} {problem}; a message bus or ledger does not address that, and brings "
        "operational weight the code does not need. The fix: {fix}.",
    ),
    "rewrite_it": Plan(
        ("Line {line} shows this module has outgrown its design; patching it is wasted "
         "effort, and redoing it from scratch on {stack} would settle {subject} properly.",
         "Instead of fixing line {line} in place, port this file to {stack}; the framework "
         "handles {subject} for you, so the whole class of bug disappears."),
        "needless rewrite",
        "Line {line} is a local defect ({fix}); starting over on another stack throws away "
        "working code and delays the one-line fix.",
    ),
    "let_ai_do_it": Plan(
        ("At line {line}, hand {subject} to a small LLM call that judges each case at "
         "runtime; a model adapts to inputs that fixed rules miss.",
         "Instead of hard-coding the check near line {line}, ask a language model at runtime "
         "whether each request looks safe, and act on its answer."),
        "runtime model judgment",
        "Line {line} needs a deterministic fix ({fix}); a model call at runtime is slow, "
        "non-deterministic and can itself be talked into approving bad input.",
    ),
}

# Why a dismissed finding "does not matter", per owning domain: plausible, and wrong.
EXCUSES: dict[str, str] = {
    "sql_injection": "the value only comes from our own internal search form, and a LIKE "
                     "pattern cannot be bound as a parameter anyway",
    "secret": "the key is a restricted one and the repository is private",
    "security_guardian": "the input only ever comes from our own front end",
    "performance_guru": "the collections stay small in practice, so the cost never shows up",
    "error_philosopher": "failing quietly there is the intended behaviour; the caller "
                         "simply tries again later",
    "test_skeptic": "that path is too simple to need a dedicated test",
    "dx_advocate": "the short names are idiomatic here and any reader will follow them",
    "dependency_watcher": "that package is ubiquitous and stable, so pinning it only adds "
                          "churn",
    "simplicity_zealot": "that structure is a deliberate extension point and costs nothing",
    "architect": "shared state is the conventional way to wire this and keeps it simple",
}

STACKS: dict[str, str] = {
    "python": "FastAPI with an async ORM",
    "javascript": "NestJS with TypeORM",
    "typescript": "NestJS with TypeORM",
    "go": "Rust with tokio",
}


def pick_anchor(strategy: str, persona: str, analysis: Analysis, others: set[str],
                rng: random.Random) -> Finding | None:
    """The real finding a planted claim hangs on.

    A dismissal targets a serious finding that another player's persona owns, so that it
    contradicts what someone else will say; the other strategies anchor on the persona's own
    domain, where the advice sounds most natural.
    """
    ranked = analysis.ranked()
    if strategy == "its_perfect":
        pool = [f for f in ranked if f.domain in others and f.domain != persona]
    else:
        pool = [f for f in ranked if f.domain == persona]
    pool = pool or ranked
    if not pool:
        return None
    return rng.choice(pool[:3])


def plant(strategy: str, persona: str, subject: str, analysis: Analysis, others: set[str],
          rng: random.Random) -> tuple[str, PlantedClaim]:
    """The public sentence and its ledger entry."""
    plan = PLANS.get(strategy, PLANS["its_perfect"])
    anchor = pick_anchor(strategy, persona, analysis, others, rng)
    line = anchor.line if anchor else 1
    problem = anchor.problem if anchor else "has a weak spot"
    fix = anchor.info.fix.lower() if anchor else "fix the defect directly"
    excuse = EXCUSES.get(anchor.topic if anchor else "", "")
    if not excuse:
        excuse = EXCUSES.get(anchor.domain if anchor else "", EXCUSES["security_guardian"])
    sentence = rng.choice(plan.templates).format(
        line=line, problem=problem, subject=subject, excuse=excuse,
        stack=STACKS.get(analysis.language, "a modern framework"))
    why = plan.why.format(line=line, problem=problem, fix=fix)
    return sentence, PlantedClaim(claim=sentence, why_wrong=why, kind=plan.kind)
