"""One player's turn in each phase: prompt, call, validate, retry, keep the secret.

A model that misbehaves costs a seat its turn, never the game (DESIGN §5.1): a reply that is
empty, unparseable, off-schema or leaking after the allowed attempts becomes lost words (a
review or an accusation) or an abstention (a vote). Only a provider that is down raises: every
`ProviderError` other than `InvalidReply` goes up to the caller, which pauses the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from tribunalbot.config import GameSettings
from tribunalbot.diffs import Change
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
from tribunalbot.engine.personas import STRATEGY_BY_KEY, Persona
from tribunalbot.engine.rules import keyword_hits, rng_for
from tribunalbot.engine.secrecy import LOST_TEXT, leaks, neutralize_mentions, redact
from tribunalbot.languages import is_english
from tribunalbot.llm.base import LLM, Model, Prompt, Task
from tribunalbot.llm.errors import InvalidReply
from tribunalbot.llm.replies import (
    DebateReply,
    ParsedReview,
    VoteReply,
    debate_schema,
    parse_review,
    vote_schema,
)


@dataclass
class Seating:
    """Everything about the players a turn needs; built once per game from the deal."""

    game_id: str
    settings: GameSettings
    personas: dict[int, Persona]
    dealt: ev.Dealt
    code: str
    language: str
    context_jurors: str = ""
    briefing: prompts.Briefing = field(default_factory=lambda: prompts.Briefing("", "", ""))
    change: Change | None = None  # the change under review, when the code is a diff

    @cached_property
    def nonce(self) -> str:
        stream = rng_for(self.dealt.seed, "llm-nonce")
        return stream.getrandbits(64).to_bytes(8, "big").hex()

    def is_troublemaker(self, seat: int) -> bool:
        return seat == self.dealt.troublemaker

    def task(self, kind: str, seat: int, rnd: int, attempt: int, **extra: object) -> Task:
        tm = self.is_troublemaker(seat)
        seats = self.dealt.event_seats
        ally = None
        if self.dealt.event == "great_minds" and seat in seats:
            ally = next(s for s in seats if s != seat)
        return Task(
            kind=kind,  # type: ignore[arg-type]
            game_id=self.game_id, nonce=self.nonce, seat=seat,
            persona=self.personas[seat].key, round=rnd,
            attempt=attempt, troublemaker=tm, strategy=self.dealt.strategy if tm else None,
            code=self.code, language=self.language, change=self.change,
            focus=self.dealt.focus,
            hostile_author=self.dealt.event == "robot_rebellion" and seat in seats,
            ally_seat=ally, future_commit=self.dealt.future_commit,
            names={s: p.name for s, p in self.personas.items()},
            personas={s: p.key for s, p in self.personas.items()},
            **extra,  # type: ignore[arg-type]
        )

    def personal(self, seat: int, phase: str, task_text: str, retry_note: str) -> str:
        """The per-player suffix: persona card, hidden nudges, role brief, task."""
        persona = self.personas[seat]
        parts = [prompts.persona_card(persona, seat)]
        if self.dealt.event == "robot_rebellion" and seat in self.dealt.event_seats:
            parts.append("Assume the author of this code is hostile: hunt for attack vectors "
                         "and hidden backdoors.")
        if self.dealt.event == "great_minds" and seat in self.dealt.event_seats:
            ally = next(s for s in self.dealt.event_seats if s != seat)
            parts.append(f"You find seat {ally} ({self.personas[ally].name}) convincing: "
                         "support their points where you can.")
        if self.is_troublemaker(seat):
            strategy = STRATEGY_BY_KEY[self.dealt.strategy]
            boldness = self.dealt.lean.boldness if self.dealt.lean else 0
            parts.append(prompts.troublemaker_brief(strategy, boldness) if phase == "speak"
                         else prompts.TROUBLEMAKER_DEBATE)
        elif self.context_jurors:
            parts.append(f"JUROR HINTS FROM EARLIER GAMES:\n{self.context_jurors}")
        parts.append(task_text)
        if retry_note:
            parts.append(retry_note)
        return "\n\n".join(parts)


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
    """A review, validated for format, secrecy and persona keywords, at most N attempts,
    published within the word budget."""
    words = seating.settings.word_budget
    parsed = await _review(llm, seating, shared, seat, words)
    if parsed is None:  # every attempt was empty, broke the format or leaked: publish nothing
        return ev.Statement(seat=seat, text=LOST_TEXT, notes=LOST_NOTE)
    text, cut = fit_words(_clean(parsed.public), words)
    claims = [(p.claim, p.why_wrong, p.kind) for p in parsed.planted]
    return ev.Statement(seat=seat, text=text, notes=with_note(parsed.notes, cut),
                        planted=_planted(seating, seat, "speak", 0, claims))


async def _review(llm: LLM, seating: Seating, shared: str, seat: int,
                  words: int) -> ParsedReview | None:
    """The last well-formed, non-leaking review; the first one on the persona's topic."""
    persona = seating.personas[seat]
    note = ""
    last = None
    task_text = prompts.speak_task(words, change=seating.change is not None)
    writes = seating.settings.language
    for attempt in range(1, seating.settings.persona_attempts + 1):
        personal = seating.personal(seat, "speak", task_text, note)
        task = seating.task("speak", seat, 0, attempt, words=words)
        try:
            completion = await llm.generate(Prompt(shared, personal, task,
                                                   max_tokens=reply_tokens(words, writes)))
        except InvalidReply:  # empty or cut off: the model answered badly, so ask again
            note = prompts.reinforcement("format", persona)
            continue
        parsed = parse_review(completion.text)
        if not parsed.well_formed or leaks(parsed.public):
            note = prompts.reinforcement("format", persona)
            continue
        last = parsed
        # Under Ultra Focus everyone reviews one aspect, and in another language the review
        # is not written in the persona's (English) vocabulary: neither is then a measure of
        # staying on topic.
        if (seating.dealt.focus or not is_english(writes)
                or keyword_hits(parsed.public, persona) >= 2):
            break
        note = prompts.reinforcement("keywords", persona)
    return last


# A seat outside the candidates is asked again once, then the seat gives up its turn: a model
# that keeps naming the wrong seat will not learn it on the third try either.
TARGET_ATTEMPTS = 2


async def _json_with_retries(llm: LLM, seating: Seating, seat: int, kind: str, rnd: int,
                             shared: str, task_text: str, schema: type[Model],
                             seen: dict[str, object]) -> Model | None:
    """A structured reply whose target is a valid candidate and whose text does not leak;
    None when every allowed attempt failed (the model answered badly each time)."""
    note = ""
    persona = seating.personas[seat]
    candidates: tuple[int, ...] = seen["candidates"]  # type: ignore[assignment]
    wrong_targets = 0
    for attempt in range(1, seating.settings.persona_attempts + 1):
        personal = seating.personal(seat, kind, task_text, note)
        task = seating.task(kind, seat, rnd, attempt, **seen)
        tokens = json_reply_tokens(seating.settings.language)
        try:
            reply = await llm.generate_json(Prompt(shared, personal, task, max_tokens=tokens),
                                            schema)
        except InvalidReply as exc:  # the model answered, badly: ask again, say what was wrong
            note = prompts.reinforcement("schema", persona, str(exc))
            continue
        target = getattr(reply, "target", None)
        if target not in candidates:
            wrong_targets += 1
            if wrong_targets >= TARGET_ATTEMPTS:
                return None
            note = prompts.reinforcement(
                "schema", persona, f"target {target} is not one of the candidates "
                f"{list(candidates)}")
            continue
        public = " ".join(str(getattr(reply, name, "")) for name in ("quote", "argument",
                                                                       "reason"))
        if not leaks(public):
            return reply
        note = prompts.reinforcement("format", persona, "the public text mentions hidden roles")
    return None


def _in_play(seat: int, candidates: tuple[int, ...]) -> tuple[int, ...]:
    """The seats a structured reply may name: every seat still in play, the same for every
    player of the phase. Providers cache a prompt only with an identical response schema
    (OpenAI puts it before the system message), so a per-seat enum would cost the shared
    prefix its cache on every debate and vote call; naming oneself is caught like any other
    seat outside the candidates."""
    return tuple(sorted({*candidates, seat}))


def seen_by(seat: int, active: list[int], statements: dict[int, str],
            accusations: tuple[tuple[int, int, int, str], ...]) -> dict[str, object]:
    """What a player knows when it debates or votes, for the Task."""
    candidates = tuple(s for s in active if s != seat)
    return {"candidates": candidates, "statements": statements, "accusations": accusations}


async def accuse(llm: LLM, seating: Seating, shared: str, seat: int, rnd: int,
                 seen: dict[str, object]) -> ev.Accusation:
    candidates: tuple[int, ...] = seen["candidates"]  # type: ignore[assignment]
    statements: dict[int, str] = seen["statements"]  # type: ignore[assignment]
    names = [(s, seating.personas[s].name) for s in candidates]
    words = accusation_words(seating.settings.word_budget)
    task_text = prompts.debate_task(names, words)
    reply: DebateReply | None = await _json_with_retries(
        llm, seating, seat, "debate", rnd, shared, task_text,
        debate_schema(_in_play(seat, candidates)), seen)
    if reply is None:
        return ev.Accusation(round=rnd, seat=seat, target=candidates[0], quote="",
                             text=LOST_TEXT, notes=LOST_NOTE)
    quote = _clean(reply.quote)
    if not quote or _squash(quote) not in _squash(statements.get(reply.target, "")):
        quote = ""  # a misquote is not shown as a quote
    text, cut = fit_words(_clean(redact(reply.argument)), words)
    claims = [(p.claim, p.why_wrong, p.kind) for p in reply.planted]
    return ev.Accusation(round=rnd, seat=seat, target=reply.target, quote=quote, text=text,
                         notes=with_note(reply.private_notes, cut),
                         planted=_planted(seating, seat, "debate", rnd, claims))


async def vote(llm: LLM, seating: Seating, shared: str, seat: int, rnd: int,
               seen: dict[str, object]) -> tuple[ev.AIVote | None, str]:
    """The seat's vote (None: it abstains) and a private note about what was done to it."""
    candidates: tuple[int, ...] = seen["candidates"]  # type: ignore[assignment]
    names = [(s, seating.personas[s].name) for s in candidates]
    reply: VoteReply | None = await _json_with_retries(
        llm, seating, seat, "vote", rnd, shared, prompts.vote_task(names, VOTE_REASON_WORDS),
        vote_schema(_in_play(seat, candidates)), seen)
    if reply is None:
        return None, "abstained: unusable replies"
    lucky = seating.dealt.event == "lucky_wheel" and seat in seating.dealt.event_seats
    reason, cut = fit_words(_clean(redact(reply.reason)), VOTE_REASON_WORDS)
    return ev.AIVote(seat=seat, target=reply.target, reason=reason,
                     weight=2 if lucky else 1), cut


def _squash(text: str) -> str:
    return " ".join(text.lower().split())
