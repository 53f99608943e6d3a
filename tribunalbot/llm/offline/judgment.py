"""The one judgment call in every review, as data and as a sentence, the same for every seat.

A `Judgment` is what the sentence claims (recommend an option of some family and weight at a
line, turn one down, or call a finding minor); `say` words it from the shared phrasebook.
Honest seats choose judgments that are right for the code and the Troublemaker chooses wrong
ones (honest.py, sabotage.py), but the shapes are drawn from one distribution (`draw_shape`)
and worded by one function, so shape and wording never tell the roles apart. A cited
recommendation says why, "since that line <reason>", a reason that earns what it recommends:
the line's own for an honest seat, one its code plainly lacks for the Troublemaker (reasons.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.fit import FAMILIES
from tribunalbot.llm.offline.phrasebook import (
    BENEFITS,
    DISMISS_LEADS,
    DISMISS_TAILS,
    EXCUSES,
    MOVES,
    OPTIONS,
    RECOMMEND_LEADS,
    RECOMMEND_UNCITED,
    REFUSALS,
    REFUSALS_CLEAN,
    REFUSE_LEADS,
    REFUSE_UNCITED,
    lowered,
    stacks_for,
)
from tribunalbot.llm.offline.reasons import problem_of, reason_of
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import record

RECOMMEND, REFUSE, DISMISS = "recommend", "refuse", "dismiss"
# The family of a recommendation that names a finding's own direct fix rather than an option:
# an honest seat's recommendation on code where no line has earned an option, so that there,
# as everywhere, both roles recommend (the Troublemaker's is the option nothing earned).
DIRECT_FIX = "direct_fix"
REFUSE_SHARE = 0.3  # of option judgments, for every seat alike
# Every seat's judgment is about one of these, equally often (the Troublemaker's by its
# disguise, dealt uniformly): "dismissal" plus one per family of options.
SUBJECTS = ("dismissal", *FAMILIES)


@dataclass(frozen=True)
class Judgment:
    kind: str  # RECOMMEND, REFUSE or DISMISS
    family: str  # a family of fit.FAMILIES, or "dismissal"
    level: int  # the option's weight (0 for a dismissal)
    finding: Finding | None  # what the sentence cites; None: it cites no line
    # The topic whose problem the sentence claims of the line, when not the finding's own (the
    # Troublemaker's): a DIRECT_FIX recommends its fix; an option gives it as the reason.
    advice: Topic | None = None
    # The line cited where no finding is (code with nothing to find): a refusal's line, or the
    # line a plant's reason is plainly false of.
    at: int = 0

    @property
    def line(self) -> int:
        return self.finding.line if self.finding else self.at


def option_shapes(analysis: Analysis) -> frozenset[str]:
    """The option shapes both roles can make on this code, so a shape one role alone could
    make never marks it: a recommendation where some line has earned an option (an honest
    seat's) and others have not (a plant's); a refusal where some line's own fix is an option
    (a plant turns it down) and others have not earned one (an honest seat turns it down)."""
    shapes = set()
    if fit.realizable(analysis):
        shapes.add(RECOMMEND)
    if any(fit.needing(family, analysis) for family in fit.OFFERED):
        shapes.add(REFUSE)
    return frozenset(shapes)


def can_dismiss(analysis: Analysis) -> bool:
    """Both roles can call a finding minor here: an honest seat a minor one, the
    Troublemaker a serious one."""
    return any(fit.minor_only(analysis, f) for f in analysis.findings) and any(
        f.severity >= fit.GRAVE and not analysis.doubts(f) for f in analysis.findings)


def draw_shape(rng: random.Random, shapes: frozenset[str] = frozenset({RECOMMEND, REFUSE})
               ) -> tuple[str, int]:
    """Recommend or refuse, and how heavy an option: the same draw for every seat, among
    the shapes both roles can make here."""
    refuse = rng.random() < REFUSE_SHARE
    level = rng.choice((1, 2))
    if REFUSE in shapes and (refuse or RECOMMEND not in shapes):
        return REFUSE, level
    return RECOMMEND, level


def option_text(family: str, level: int, language: str, rng: random.Random) -> str:
    option = rng.choice(OPTIONS[family][level])
    return option.format(stack=rng.choice(stacks_for(language)))


def direct_fix(topic: Topic, seat: int = 1) -> str:
    """A topic's fix, in the seat's wording, as the rest of a sentence ("At line 9, I would
    bind the values ...")."""
    return lowered(record(topic).fix_for_seat(seat).rstrip("."))


def say(judgment: Judgment, analysis: Analysis, rng: random.Random,
        seat: int = 1) -> tuple[str, str]:
    """(the sentence, the option it names; "" for a dismissal or a direct fix)."""
    line = judgment.line
    if judgment.kind == DISMISS and judgment.finding is not None:
        excuse = rng.choice(EXCUSES)
        return (rng.choice(DISMISS_LEADS).format(line=line)
                + rng.choice(DISMISS_TAILS).format(excuse=excuse)), ""
    if judgment.family == DIRECT_FIX and judgment.finding is not None:
        # The reason is the problem the fix answers: the line's own (an honest seat's), or the
        # one the Troublemaker pins on a line that does not have it; in the same words either
        # way (a name from the code after an honest seat's alone told them apart).
        topic = judgment.advice or judgment.finding.topic
        return (f"{rng.choice(RECOMMEND_LEADS).format(line=line)} {direct_fix(topic, seat)}, "
                f"since that line {problem_of(topic)}."), ""
    option = option_text(judgment.family, judgment.level, analysis.language, rng)
    move = rng.choice(MOVES[judgment.family]).format(option=option)
    if judgment.kind == REFUSE:
        leads = REFUSE_LEADS if line else REFUSE_UNCITED
        tail = rng.choice(REFUSALS if judgment.finding else REFUSALS_CLEAN)
    elif reason := _reason(judgment):
        # Why, in the direct fix's form: a reason a reader can check at the line (reasons.py).
        return f"{rng.choice(RECOMMEND_LEADS).format(line=line)} {move}, since that line " \
               f"{reason}.", option
    else:
        leads = RECOMMEND_LEADS if line else RECOMMEND_UNCITED
        tail = rng.choice(BENEFITS[judgment.family])
    return f"{rng.choice(leads).format(line=line)} {move}{tail}.", option


def _reason(judgment: Judgment) -> str:
    """The reason a cited option recommendation gives: that of the topic it claims of
    the line (a plant's), else the cited finding's own, when that topic earns the family; ""
    when neither does (the recommendation then only says what the option is good for)."""
    if judgment.kind != RECOMMEND:
        return ""
    topic = judgment.advice or (judgment.finding.topic if judgment.finding else None)
    if topic is None:
        return ""
    return reason_of(topic) if fit.EARNS.get(judgment.family, {}).get(topic) else ""
