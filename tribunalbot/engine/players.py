"""One player's turn in each phase: prompt, call, validate, retry, keep the secret.

A model that misbehaves costs neither the game nor the seat its turn (DESIGN §2.7, §5.1): a
reply that is empty, unparseable, off-schema or leaking after the allowed attempts is replaced
by the offline reviewer's turn, in the seat's persona, on the same code, so every seat reviews,
accuses and votes whatever its model did, and no public trace marks a failing seat. The record
notes it privately (`stand_in`) and the reveal counts it. A Troublemaker whose model outed it
plays that turn as its honest cover: the offline reviewer plants nothing for it. Only a
provider that is down raises: every `ProviderError` other than `InvalidReply` goes up to the
caller, which pauses the game.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cache
from typing import Literal

from pydantic import BaseModel

from tribunalbot.engine import events as ev
from tribunalbot.engine import prompts
from tribunalbot.engine.budget import (
    MAX_PLANTED_PER_REPLY,
    VOTE_REASON_WORDS,
    accusation_words,
    fit_claim,
    fit_words,
    json_reply_tokens,
    reply_tokens,
    with_note,
)
from tribunalbot.engine.focus import judge_focus
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.engine.seating import Seating
from tribunalbot.engine.secrecy import LOST_TEXT, leaks, neutralize_mentions, redact
from tribunalbot.languages import is_english
from tribunalbot.llm.base import LLM, LLMError, Model, Prompt
from tribunalbot.llm.errors import InvalidReply
from tribunalbot.llm.offline.provider import OfflineLLM
from tribunalbot.llm.replies import (
    DebateReply,
    ParsedReview,
    VoteReply,
    debate_schema,
    parse_review,
    vote_schema,
)

log = logging.getLogger(__name__)


@cache
def offline_reviewer() -> LLM:
    """The stand-in for a seat whose model failed a turn: one per process, so the analysis
    of a game's code is made once for all its failing turns."""
    return OfflineLLM()


LOST_NOTE = "(redacted: unusable replies)"


def _clean(text: str) -> str:
    return neutralize_mentions(text.strip())


def _planted(seating: Seating, seat: int, phase: str, rnd: int,
             claims: list[tuple[str, str, str]]) -> tuple[ev.LedgerEntry, ...]:
    """Only the Troublemaker's planted claims are kept; anyone else's are noise."""
    if not seating.is_troublemaker(seat):
        return ()
    return tuple(ev.LedgerEntry(phase=phase, round=rnd, claim=fit_claim(c),
                                why_wrong=fit_claim(w), kind=k)
                 for c, w, k in claims[:MAX_PLANTED_PER_REPLY])


async def speak(llm: LLM, seating: Seating, shared: str, seat: int) -> ev.Statement:
    """A review, validated for format, secrecy and persona keywords, at most N attempts, then
    the offline reviewer's; published within the word budget."""
    words = seating.settings.word_budget
    rejected: list[str] = []
    parsed, leaked = await _review(llm, seating, shared, seat, words, rejected)
    stand_in: StandIn = ""
    if parsed is None:  # every attempt was empty, broke the format or leaked
        stand_in = _stand_in_kind(seating, seat, leaked)
        parsed = await _stand_in_review(seating, shared, seat, words, stand_in == "cover")
        stand_in = _noted_stand_in(seating, seat, "speak", 0, stand_in, parsed is not None)
    if parsed is None:  # the stand-in failed too: publish nothing
        return ev.Statement(seat=seat, text=LOST_TEXT, notes=LOST_NOTE, rejected=tuple(rejected))
    text, cut = fit_words(_clean(parsed.public), words)
    claims = [(p.claim, p.why_wrong, p.kind) for p in parsed.planted if stand_in != "cover"]
    return ev.Statement(seat=seat, text=text,
                        notes=with_note(_with_stand_in(parsed.notes, stand_in), cut),
                        planted=_planted(seating, seat, "speak", 0, claims), stand_in=stand_in,
                        rejected=tuple(rejected))


def _refused(seating: Seating, seat: int, phase: str, rnd: int, reason: str,
             rejected: list[str]) -> None:
    """Note a refused reply: in the operator's log (the seat, never its role) and in the
    turn's record, so the reveal counts it in the usage line."""
    log.info("game %s: seat %d's %s (round %d) reply %d refused: %s", seating.game_id, seat,
             phase, rnd, len(rejected) + 1, reason)
    rejected.append(reason)


async def _review(llm: LLM, seating: Seating, shared: str, seat: int, words: int,
                  rejected: list[str]) -> tuple[ParsedReview | None, bool]:
    """The last well-formed, non-leaking review; the first one on the persona's topic. And
    whether any attempt leaked the role."""
    persona = seating.personas[seat]
    note = ""
    last = None
    leaked = False
    task_text = prompts.speak_task(words, change=seating.change is not None)
    writes = seating.settings.language
    for attempt in range(1, seating.settings.persona_attempts + 1):
        personal = seating.personal(seat, "speak", task_text, note)
        task = seating.task("speak", seat, 0, attempt, words=words)
        try:
            completion = await llm.generate(Prompt(shared, personal, task,
                                                   max_tokens=reply_tokens(words, writes)))
        except InvalidReply as exc:  # empty or cut off: the model answered badly, so ask again
            _refused(seating, seat, "speak", 0, f"unusable: {exc}", rejected)
            note = prompts.reinforcement("format", persona)
            continue
        parsed = parse_review(completion.text)
        outing = leaks(parsed.public)
        leaked = leaked or bool(outing)
        if not parsed.well_formed or outing:
            why = "secrecy: " + ", ".join(outing[:3]) if outing else "format: the markers"
            _refused(seating, seat, "speak", 0, why, rejected)
            note = prompts.reinforcement("secrecy" if outing else "format", persona)
            continue
        last = parsed
        # Under Ultra Focus everyone reviews one aspect, and in another language the review
        # is not written in the persona's (English) vocabulary: neither is then a measure of
        # staying on topic.
        focus = judge_focus(parsed.public, persona)
        if (seating.dealt.focus or not is_english(writes) or focus.on_field
                or attempt == seating.settings.persona_attempts):  # the last one stands
            break
        strayed = PERSONA_BY_KEY[focus.strayed_to]
        _refused(seating, seat, "speak", 0, f"focus: about {strayed.focus}", rejected)
        note = prompts.reinforcement("focus", persona, strayed=strayed)
    return last, leaked


# ---- the stand-in: the offline reviewer plays a turn the seat's model could not -------------

StandIn = Literal["", "offline", "cover"]  # "": the seat's model; "cover": honest, no plant


def _stand_in_kind(seating: Seating, seat: int, leaked: bool) -> StandIn:
    """A Troublemaker whose model outed it plays its cover honestly: a plant written for it
    would be the offline reviewer's, not the model's, and its model showed it cannot keep
    the secret on this turn. Any other failed turn is played in the seat's own role."""
    return "cover" if leaked and seating.is_troublemaker(seat) else "offline"


async def _stand_in_review(seating: Seating, shared: str, seat: int, words: int,
                           cover: bool) -> ParsedReview | None:
    task_text = prompts.speak_task(words, change=seating.change is not None)
    personal = seating.personal(seat, "speak", task_text, "", cover=cover)
    task = seating.stand_in_task("speak", seat, 0, cover, words=words)
    try:
        completion = await offline_reviewer().generate(Prompt(
            shared, personal, task, max_tokens=reply_tokens(words, seating.settings.language)))
    except LLMError:
        return None
    parsed = parse_review(completion.text)
    return parsed if parsed.well_formed and not leaks(parsed.public) else None


def _noted_stand_in(seating: Seating, seat: int, phase: str, rnd: int, stand_in: StandIn,
                    played: bool) -> StandIn:
    """Log a failed turn (privately: the operator's log names the seat, never its role) and
    return the stand-in that played it ("" when the stand-in could not either)."""
    log.info("game %s: seat %d's %s (round %d) %s", seating.game_id, seat, phase, rnd,
             "was played by the offline reviewer" if played else "was lost: the offline "
             "reviewer could not play it either")
    return stand_in if played else ""


_STAND_IN_NOTES = {
    "offline": "[Played by the offline reviewer: every reply of the model was unusable.]",
    "cover": "[Played by the offline reviewer as an honest cover, no plant: every reply of "
             "the model outed its role.]",
}


def _with_stand_in(notes: str, stand_in: StandIn) -> str:
    return f"{_STAND_IN_NOTES[stand_in]}\n{notes}".strip() if stand_in else notes


# A seat outside the candidates is asked again once, then the seat gives up its turn: a model
# that keeps naming the wrong seat will not learn it on the third try either.
TARGET_ATTEMPTS = 2


async def _json_with_retries(llm: LLM, seating: Seating, seat: int, kind: str, rnd: int,
                             shared: str, task_text: str, schema: type[Model],
                             seen: dict[str, object],
                             rejected: list[str]) -> tuple[Model | None, bool]:
    """A structured reply whose target is a valid candidate and whose text does not leak;
    None when every allowed attempt failed (the model answered badly each time). And whether
    any attempt leaked the role."""
    note = ""
    persona = seating.personas[seat]
    candidates: tuple[int, ...] = seen["candidates"]  # type: ignore[assignment]
    wrong_targets = 0
    leaked = False
    for attempt in range(1, seating.settings.persona_attempts + 1):
        personal = seating.personal(seat, kind, task_text, note)
        task = seating.task(kind, seat, rnd, attempt, **seen)
        tokens = json_reply_tokens(seating.settings.language)
        try:
            reply = await llm.generate_json(Prompt(shared, personal, task, max_tokens=tokens),
                                            schema)
        except InvalidReply as exc:  # the model answered, badly: ask again, say what was wrong
            _refused(seating, seat, kind, rnd, f"schema: {exc}", rejected)
            note = prompts.reinforcement("schema", persona, str(exc))
            continue
        target = getattr(reply, "target", None)
        if target not in candidates:
            wrong_targets += 1
            problem = f"target {target} is not one of the candidates {list(candidates)}"
            _refused(seating, seat, kind, rnd, f"schema: {problem}", rejected)
            if wrong_targets >= TARGET_ATTEMPTS:
                return None, leaked
            note = prompts.reinforcement("schema", persona, problem)
            continue
        outing = _outs(reply)
        if not outing:
            return reply, leaked
        leaked = True
        _refused(seating, seat, kind, rnd, "secrecy: " + ", ".join(outing[:3]), rejected)
        note = prompts.reinforcement("secrecy_json", persona)
    return None, leaked


def _outs(reply: BaseModel) -> list[str]:
    public = " ".join(str(getattr(reply, name, "")) for name in ("quote", "argument", "reason"))
    return leaks(public)


async def _structured_turn(llm: LLM, seating: Seating, seat: int, kind: str, rnd: int,
                           shared: str, task_text: str, schema: type[Model],
                           seen: dict[str, object],
                           rejected: list[str]) -> tuple[Model | None, StandIn]:
    """The seat's structured reply, or after its failed attempts the offline reviewer's; and
    which stand-in played it. None: neither gave a usable reply."""
    reply, leaked = await _json_with_retries(llm, seating, seat, kind, rnd, shared, task_text,
                                             schema, seen, rejected)
    if reply is not None:
        return reply, ""
    stand_in = _stand_in_kind(seating, seat, leaked)
    cover = stand_in == "cover"
    personal = seating.personal(seat, kind, task_text, "", cover=cover)
    task = seating.stand_in_task(kind, seat, rnd, cover, **seen)
    prompt = Prompt(shared, personal, task, max_tokens=json_reply_tokens(
        seating.settings.language))
    try:
        reply = await offline_reviewer().generate_json(prompt, schema)
    except LLMError:
        reply = None
    candidates: tuple[int, ...] = seen["candidates"]  # type: ignore[assignment]
    if reply is not None and (getattr(reply, "target", None) not in candidates
                              or bool(_outs(reply))):
        reply = None
    return reply, _noted_stand_in(seating, seat, kind, rnd, stand_in, reply is not None)


def _in_play(seat: int, candidates: tuple[int, ...],
             in_play: Sequence[int]) -> tuple[int, ...]:
    """The seats a structured reply may name: every seat still in play, the same for every
    player of the phase, whichever seats each one examines. Providers cache a prompt only
    with an identical response schema (OpenAI puts it before the system message), so a
    per-seat enum would cost the shared prefix its cache on every debate and vote call; a
    seat outside the candidates (oneself included) is caught like any wrong target."""
    return tuple(sorted({*in_play, *candidates, seat}))


def _examining_some(seat: int, candidates: tuple[int, ...], in_play: Sequence[int]) -> bool:
    return bool(in_play) and set(candidates) != set(in_play) - {seat}


def seen_by(examined: tuple[int, ...], statements: dict[int, str],
            accusations: tuple[tuple[int, int, int, str], ...]) -> dict[str, object]:
    """What a player knows when it debates or votes, for the Task: the seats it examines
    this round (rules.cross_examinations) are the ones it may name."""
    return {"candidates": examined, "statements": statements, "accusations": accusations}


async def accuse(llm: LLM, seating: Seating, shared: str, seat: int, rnd: int,
                 seen: dict[str, object], in_play: Sequence[int] = ()) -> ev.Accusation:
    candidates: tuple[int, ...] = seen["candidates"]  # type: ignore[assignment]
    statements: dict[int, str] = seen["statements"]  # type: ignore[assignment]
    names = [(s, seating.personas[s].name) for s in candidates]
    words = accusation_words(seating.settings.word_budget)
    task_text = prompts.debate_task(names, words, _examining_some(seat, candidates, in_play),
                                    answering=rnd > 1)
    reply: DebateReply | None
    rejected: list[str] = []
    reply, stand_in = await _structured_turn(
        llm, seating, seat, "debate", rnd, shared, task_text,
        debate_schema(_in_play(seat, candidates, in_play)), seen, rejected)
    if reply is None:
        return ev.Accusation(round=rnd, seat=seat, target=candidates[0], quote="",
                             text=LOST_TEXT, notes=LOST_NOTE, rejected=tuple(rejected))
    quote = _clean(reply.quote)
    if not quote or _squash(quote) not in _squash(statements.get(reply.target, "")):
        quote = ""  # a misquote is not shown as a quote
    text, cut = fit_words(_clean(redact(reply.argument)), words)
    claims = [(p.claim, p.why_wrong, p.kind) for p in reply.planted if stand_in != "cover"]
    return ev.Accusation(round=rnd, seat=seat, target=reply.target, quote=quote, text=text,
                         notes=with_note(_with_stand_in(reply.private_notes, stand_in), cut),
                         planted=_planted(seating, seat, "debate", rnd, claims),
                         stand_in=stand_in, rejected=tuple(rejected))


# The vote (None: abstained), a private note, who cast it, and why earlier replies were refused.
VoteTurn = tuple[ev.AIVote | None, str, StandIn, tuple[str, ...]]


async def vote(llm: LLM, seating: Seating, shared: str, seat: int, rnd: int,
               seen: dict[str, object], in_play: Sequence[int] = ()) -> VoteTurn:
    """The seat's vote (None: it abstains), a private note about what was done to it, and
    the stand-in that cast it ("" for the seat's own model)."""
    candidates: tuple[int, ...] = seen["candidates"]  # type: ignore[assignment]
    names = [(s, seating.personas[s].name) for s in candidates]
    reply: VoteReply | None
    rejected: list[str] = []
    task_text = prompts.vote_task(names, VOTE_REASON_WORDS,
                                  _examining_some(seat, candidates, in_play))
    reply, stand_in = await _structured_turn(
        llm, seating, seat, "vote", rnd, shared, task_text,
        vote_schema(_in_play(seat, candidates, in_play)), seen, rejected)
    if reply is None:
        return (None, "abstained: unusable replies, the offline reviewer's too", "",
                tuple(rejected))
    lucky = seating.dealt.event == "lucky_wheel" and seat in seating.dealt.event_seats
    reason, cut = fit_words(_clean(redact(reply.reason)), VOTE_REASON_WORDS)
    return (ev.AIVote(seat=seat, target=reply.target, reason=reason, weight=2 if lucky else 1),
            _with_stand_in(cut, stand_in), stand_in, tuple(rejected))


def _squash(text: str) -> str:
    return " ".join(text.lower().split())
