"""Phrases shared by the Troublemaker's planted claims and the honest reviewers' decoys.

Planted advice and honest asides draw on the same nouns ("a plugin registry", "a message bus",
"a language model", "leave line N alone"): honest reviewers reject the heavy option or dismiss
a genuinely minor finding, the Troublemaker recommends the heavy option or dismisses a serious
one. So a keyword search finds both; only reading the code against the claim tells them apart.
"""

from __future__ import annotations

# Heavy options, by the family of over-reach they belong to. Slot: {subject}.
HEAVY: dict[str, tuple[str, ...]] = {
    "abstraction": ("a plugin interface with a registry", "a configurable factory",
                    "an extension point with a registry of handlers",
                    "a pluggable layer chosen from configuration"),
    "infrastructure": ("a message bus", "an append-only ledger", "its own service behind a queue",
                       "an event stream that can be replayed", "an immutable audit ledger"),
    "rewrite": ("a rewrite from scratch", "a port to {stack}", "a fresh start on {stack}",
                "a wholesale replacement"),
    "model": ("a language model at runtime", "an AI classifier", "a small LLM call",
              "a model that judges each case"),
}

# Frameworks a rewrite would move to, per language; several so no one name is a tell.
STACKS: dict[str, tuple[str, ...]] = {
    "python": ("FastAPI with an async ORM", "Django", "Litestar with SQLAlchemy"),
    "javascript": ("NestJS with TypeORM", "Fastify", "a TypeScript service"),
    "typescript": ("NestJS with TypeORM", "Fastify with Prisma"),
    "go": ("Rust with tokio", "a gRPC service"),
    "rust": ("an actor framework", "async Rust on tokio"),
    "shell": ("a Python script", "Ansible"),
    "sql": ("an ORM migration", "a stored-procedure layer"),
}
DEFAULT_STACKS = ("a modern framework", "another stack")

# "Leave it alone" openings: honest reviewers use them for minor findings, the Troublemaker
# for serious ones. Slot: {line}.
DISMISS_LEADS: tuple[str, ...] = (
    "I would leave line {line} alone", "Line {line} can stay as it is",
    "I would not spend time on line {line}", "Line {line} is acceptable as written",
    "No change is needed at line {line}", "Line {line} looks worse than it is",
)

# What to do with the heavy option; plants recommend it, decoys frame it as a temptation
# they turn down. Slots: {subject} {heavy} {case}. No negation words: the frame supplies them.
ADVICE: dict[str, tuple[str, ...]] = {
    "abstraction": (" put {subject} behind {heavy}, so each deployment can swap in its own.",
                    " turn {subject} into {heavy}, so the next variant is a config change.",
                    " wrap {subject} in {heavy} now; it pays off when the second case arrives."),
    "infrastructure": (" send every change to {subject} through {heavy}, so it is ordered and "
                       "auditable.", " move {subject} onto {heavy}, so each step can be "
                       "replayed later."),
    "rewrite": (" give this module {heavy}; patching it is wasted effort.",
                " plan {heavy}, which settles {subject} for good.",
                " start {heavy}, so the framework handles {subject}."),
    "model": (" let {heavy} decide each {case}, since it adapts to inputs fixed rules miss.",
              " hand {subject} to {heavy} and act on its answer for each {case}."),
}
# Frames that turn a piece of ADVICE down. Slot: {advice} (no final period).
# Short on purpose: a decoy must be as long as a plant, or length would tell them apart.
REJECT_FRAMES: tuple[str, ...] = (
    "it is tempting to{advice}; no.",
    "some would{advice}; not here.",
    "nobody should{advice}.",
    "I would not{advice}.",
)

# "Leave it alone" endings, shared by honest dismissals of minor findings and planted
# dismissals of serious ones. Slots: {problem} {excuse}.
DISMISS_TAILS: tuple[str, ...] = (
    ": it {problem}, but {excuse}.", "; yes, it {problem}, yet {excuse}.",
    " even though it {problem}, because {excuse}.",
)

# Why a finding "does not matter", per owning domain. Fair for a minor finding, wrong for a
# serious one: the same words serve the honest decoy and the planted dismissal.
EXCUSES: dict[str, tuple[str, ...]] = {
    "security_guardian": ("the input only ever comes from our own front end",
                          "only trusted staff can reach that path",
                          "the value is checked upstream before it gets here"),
    "performance_guru": ("the collections stay small in practice",
                         "the cost never shows up next to the network time"),
    "error_philosopher": ("the caller simply tries again later",
                          "that failure is rare and loud enough already"),
    "test_skeptic": ("that path is too simple to need a dedicated test",
                     "the integration suite already exercises it"),
    "dx_advocate": ("the short form is idiomatic here", "any reader will follow it"),
    "dependency_watcher": ("that package is ubiquitous and stable",
                           "pinning it would only add churn"),
    "simplicity_zealot": ("that structure mirrors the business rules",
                          "the extra statement keeps the flow explicit"),
    "architect": ("that wiring is the conventional one here",
                  "the coupling keeps the call path short"),
}

# Openings that recommend the heavy option (planted), anchored on a real line. Slot: {line}.
ADVOCATE_LEADS: tuple[str, ...] = (
    "Rather than patching line {line} directly,", "Looking past the quick fix at line {line},",
    "Line {line} is a sign of what is coming, so", "Before the next change lands near line {line},",
    "For line {line}, the durable answer is this:",
)


def stacks_for(language: str) -> tuple[str, ...]:
    return STACKS.get(language, DEFAULT_STACKS)
