"""The game loop: DEAL → SPEAK → (DEBATE → AI VOTE)×≤N → HUMAN VOTE → REVEAL.

The loop is driven by the event log: every step first asks the folded state whether it is
already done, so resuming from any prefix of a log repeats no model call that produced a record.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from tribunalbot.config import GameSettings
from tribunalbot.cpu import off_loop
from tribunalbot.diffs import Change, change_of
from tribunalbot.engine import claims, players, rules
from tribunalbot.engine import events as ev
from tribunalbot.engine.balance import Lean
from tribunalbot.engine.personas import EVENT_BY_KEY, PERSONA_BY_KEY, STRATEGY_BY_KEY
from tribunalbot.engine.prompts import Briefing
from tribunalbot.engine.seating import Seating
from tribunalbot.engine.secrecy import neutralize_model
from tribunalbot.engine.state import GameState
from tribunalbot.engine.story import vote_story
from tribunalbot.engine.table import Table
from tribunalbot.engine.verdict import convicted_quotes, verdict
from tribunalbot.filenames import safe_file_name
from tribunalbot.llm.base import LLM


@dataclass(frozen=True)
class GameSetup:
    game_id: str
    code: str
    language: str
    seed: int
    settings: GameSettings = field(default_factory=GameSettings)
    context_shared: str = ""  # neutral experience context: goes into everyone's shared prefix
    context_jurors: str = ""  # hints for honest players only
    # How the deal leans (engine/balance.py), for a new game; a resumed one deals from the
    # lean its `Dealt` recorded, whatever this says.
    lean: Lean | None = None
    # The base name of the file the code came from ("" for none): every reviewer is told it.
    file_name: str = ""

    def __post_init__(self) -> None:
        # The prompt's last gate: whoever built the setup (a store, a bench), no unsafe name.
        object.__setattr__(self, "file_name", safe_file_name(self.file_name))

    @cached_property
    def change(self) -> Change | None:
        """The change under review, when the code is a diff: derived from the stored code,
        so a resumed game (and every caller that builds a setup) reviews the same change."""
        return change_of(self.code, self.language)


@dataclass(frozen=True)
class GameResult:
    events: list[ev.Record]
    revealed: ev.Revealed


async def run_game(setup: GameSetup, llm: LLM, table: Table, *,
                   sinks: Sequence[ev.EventSink] = (), prior: Sequence[ev.Record] = (),
                   clock: ev.Clock = ev.utc_now) -> GameResult:
    """Play (or resume, given the `prior` log) a whole game and return its complete log."""
    game = _Game(setup, llm, table, list(sinks), clock, list(prior))
    await game.play()
    assert game.state.revealed is not None
    return GameResult(game.log, game.state.revealed)


async def abort_game(reason: str, logged: int,
                     sinks: Sequence[ev.EventSink]) -> tuple[int, ev.GameAborted]:
    """Close a game that cannot go on (it failed, was ended, or lost its thread): its
    `GameAborted` is written after the `logged` records its log holds, through `sinks`, as
    the game loop writes every record. Whoever stops a game, the engine writes its log.
    Returns the record's place in the log and the record as written."""
    # The reason may quote a member's name: the loop's net holds here too, nothing pings.
    record = neutralize_model(ev.GameAborted(reason=reason))
    await _write(sinks, logged, record)
    return logged, record


def _listed(examines: dict[int, tuple[int, ...]] | None
            ) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """A round's cross-examinations as the public record lists them: empty when everyone
    examines everyone (nothing to say), else each juror and its seats, in seat order."""
    if not examines or all(len(seats) == len(examines) - 1 for seats in examines.values()):
        return ()
    return tuple(sorted(examines.items()))


async def _write(sinks: Sequence[ev.EventSink], seq: int, record: ev.Record) -> None:
    """Give a record its place `seq` in the game's log: every sink, in the caller's order."""
    for sink in sinks:
        await sink(seq, record)


class _Game:
    def __init__(self, setup: GameSetup, llm: LLM, table: Table, sinks: list[ev.EventSink],
                 clock: ev.Clock, prior: list[ev.Record]) -> None:
        self.setup, self.llm, self.table, self.sinks, self.clock = setup, llm, table, sinks, clock
        self.settings = setup.settings
        self.log = prior
        self.state = GameState.from_events(prior)
        self.seating: Seating | None = None

    async def play(self) -> None:
        if self.state.revealed is not None or self.state.aborted is not None:
            return
        await self._deal()
        self.seating = self._seat()
        await self._speak()
        await self._open_ballot()
        while not self.state.tribunal_over(self.settings.max_rounds):
            rnd = len(self.state.eliminations) + 1
            await self._debate(rnd)
            await self._vote(rnd)
        await self._close_ballot()
        await self._reveal()

    async def _emit(self, record: ev.Record) -> None:
        # One net for every field of every record, whatever made it: nothing logged pings.
        record = neutralize_model(record)
        seq = len(self.log)
        self.log.append(record)
        self.state.apply(record)
        await _write(self.sinks, seq, record)
        if record.public:
            await self.table.show(record.public_view())

    async def _phase(self, phase: str, rnd: int = 0,
                     examines: dict[int, tuple[int, ...]] | None = None) -> None:
        if (phase, rnd) not in self.state.phases:
            await self._emit(ev.PhaseStarted(phase=phase, round=rnd,
                                              examines=_listed(examines)))

    # ---- deal ----------------------------------------------------------------------------

    async def _deal(self) -> None:
        """The deal is a pure function of the seed and the lean, so a half-written deal is
        simply redone; once the `Dealt` is in the log, its recorded lean is the one used."""
        lean = self.state.dealt.lean if self.state.dealt is not None else self.setup.lean
        panel, dealt = rules.deal(self.setup.seed, self.settings.event_chance, lean)
        infos = tuple(ev.PlayerInfo(seat=i, persona=p.key, name=p.name)
                      for i, p in enumerate(panel, 1))
        if self.state.started is None:
            await self._emit(ev.GameStarted(
                game_id=self.setup.game_id, language=self.setup.language,
                code_lines=len(self.setup.code.splitlines()), players=infos,
                max_rounds=self.settings.max_rounds,
                cross_examined=self.settings.cross_examined))
        if self.state.dealt is None:
            await self._emit(dealt)
        if dealt.event is not None and self.state.event is None:
            event = EVENT_BY_KEY[dealt.event]
            # What every reviewer is told (the aspect, the commit) the humans see too.
            told = dealt.focus or dealt.future_commit
            announcement = f"{event.announcement} “{told}”" if told else event.announcement
            await self._emit(ev.EventTriggered(event=event.key, name=event.name,
                                               announcement=announcement))

    def _seat(self) -> Seating:
        assert self.state.dealt is not None
        dealt = self.state.dealt
        personas = {p.seat: PERSONA_BY_KEY[p.persona] for p in self.state.players}
        roster = "\n".join(f"seat {s}: {p.name} ({p.focus})" for s, p in personas.items())
        event = self.state.event.announcement if self.state.event else ""
        change = self.setup.change
        briefing = Briefing(self.setup.code, self.setup.language, roster,
                            self.setup.context_shared, event, dealt.focus, dealt.future_commit,
                            change, self.settings.language, self.setup.file_name)
        return Seating(self.setup.game_id, self.settings, personas, dealt,
                               self.setup.code, self.setup.language,
                               self.setup.context_jurors, briefing, change)

    # ---- phases --------------------------------------------------------------------------

    async def _speak(self) -> None:
        assert self.seating is not None
        seating = self.seating
        await self._phase("speak")
        shared = seating.briefing.shared_head()
        todo = [p.seat for p in self.state.players if p.seat not in self.state.statements]

        async def one(seat: int) -> ev.Record:
            statement = await players.speak(self.llm, seating, shared, seat)
            if seating.dealt.event == "cosmic_ray" and seat in seating.dealt.event_seats:
                garbled = rules.garble(statement.text, rules.rng_for(self.setup.seed, "ray"))
                # The noise is for the table to judge; the verdict reads what was said.
                statement = statement.model_copy(
                    update={"text": garbled, "ungarbled": statement.text})
            return statement

        await self._in_seat_order(todo, one)

    async def _debate(self, rnd: int) -> None:
        assert self.seating is not None
        active = self.state.active_seats()
        examines = self._examinations(rnd, active)
        await self._phase("debate", rnd, examines)
        shared = self._tribunal_prefix(rnd, include_current=False)
        done = self.state.accusations_in(rnd)
        seen = self._seen(active, before_round=rnd)

        async def one(seat: int) -> ev.Record:
            assert self.seating is not None
            return await players.accuse(self.llm, self.seating, shared, seat, rnd,
                                        players.seen_by(examines[seat], *seen), active)

        await self._in_seat_order([s for s in active if s not in done], one)

    async def _vote(self, rnd: int) -> None:
        assert self.seating is not None
        seating = self.seating
        await self._phase("vote", rnd)
        if rnd not in self.state.votes:
            shared = self._tribunal_prefix(rnd, include_current=True)
            active = self.state.active_seats()
            examines = self._examinations(rnd, active)
            seen = self._seen(active)
            ballots = await _gather([
                players.vote(self.llm, seating, shared, s, rnd,
                             players.seen_by(examines[s], *seen), active)
                for s in active])
            await self._emit(ev.AIVotes(
                round=rnd, votes=tuple(v for v, _, _, _ in ballots if v),
                notes={s: b[1] for s, b in zip(active, ballots, strict=True) if b[1]},
                stand_ins={s: b[2] for s, b in zip(active, ballots, strict=True) if b[2]},
                rejected={s: b[3] for s, b in zip(active, ballots, strict=True) if b[3]}))
        counts, out = rules.tally(self.state.votes[rnd].votes)
        broken = None
        if out is None and self._cross_examined():
            earlier = [e.tally for r, e in sorted(self.state.eliminations.items()) if r < rnd]
            broken = rules.remembered(counts, earlier)
        await self._emit(ev.Elimination(round=rnd, seat=out or broken, tally=counts,
                                        at=self.clock(), tie_broken=broken is not None))

    def _cross_examined(self) -> int:
        """The rule the game was started with (an older log's: 0, the open tribunal)."""
        assert self.state.started is not None
        return self.state.started.cross_examined

    def _examinations(self, rnd: int, active: list[int]) -> dict[int, tuple[int, ...]]:
        """Whom each juror examines this round: pure, so a resumed round deals the same."""
        return rules.cross_examinations(self.setup.seed, rnd, active, self._cross_examined())

    def _seen(self, active: list[int], before_round: int | None = None
              ) -> tuple[dict[int, str], tuple[tuple[int, int, int, str], ...]]:
        """What players know. Accusations of a round are made blind and at once, so a seat
        resumed mid-round must not see the ones already made: `before_round` hides them,
        and a resumed game asks exactly what an uninterrupted one would."""
        statements = {s: r.text for s, r in sorted(self.state.statements.items())}
        accusations = tuple((a.round, a.seat, a.target, a.text) for a in self.state.accusations
                            if before_round is None or a.round < before_round)
        return statements, accusations

    def _tribunal_prefix(self, rnd: int, *, include_current: bool) -> str:
        """Shared context for a debate or vote. Each phase's prefix extends the previous
        phase's, so prefix caches carry over; who is still in play is in each task's
        candidate list, never at the end of this text."""
        assert self.seating is not None
        names = {s: p.name for s, p in self.seating.personas.items()}
        parts = [self.seating.briefing.shared_head(), "THE REVIEWS:"]
        parts += [f"[seat {s}, {names[s]}]\n{r.text}"
                  for s, r in sorted(self.state.statements.items())]
        for past in range(1, rnd + (1 if include_current else 0)):
            parts.append(f"DEBATE, ROUND {past}:")
            parts += [f"seat {a.seat} ({names[a.seat]}) accuses seat {a.target} "
                      f"({names[a.target]}): \"{a.quote}\" {a.text}"
                      for a in self.state.accusations if a.round == past]
            elim = self.state.eliminations.get(past)
            if elim is not None:
                gone = f"seat {elim.seat} ({names[elim.seat]})" if elim.seat else "nobody (tie)"
                parts.append(f"VOTE, ROUND {past}: eliminated {gone}.")
        return "\n\n".join(parts)

    async def _in_seat_order(self, seats: list[int],
                             make: Callable[[int], Coroutine[Any, Any, ev.Record]]) -> None:
        """Run every seat's call at once; emit each result as soon as it and all seats before
        it are ready, so the phase costs its slowest call, not the sum."""
        tasks = [asyncio.ensure_future(make(seat)) for seat in seats]
        shown = 0
        try:
            while shown < len(tasks):
                # Wake on any completion, so one failed call stops the phase at once. Only
                # the calls still running are waited on: a later seat already done would
                # end every wait at once, and the phase would spin on the loop until the
                # seat before it answered (seconds, with calls queued for a provider slot).
                if not tasks[shown].done():
                    await asyncio.wait([t for t in tasks[shown:] if not t.done()],
                                       return_when=asyncio.FIRST_COMPLETED)
                for task in tasks[shown:]:
                    if task.done() and task.exception() is not None:
                        await task
                while shown < len(tasks) and tasks[shown].done():
                    await self._emit(tasks[shown].result())
                    shown += 1
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # ---- humans and the reveal -----------------------------------------------------------

    def _ballot(self) -> ev.Ballot:
        return ev.Ballot(game_id=self.setup.game_id, choices=self.state.players)

    async def _open_ballot(self) -> None:
        if self.state.ballot is None:
            await self.table.open_ballot(self._ballot())
            await self._emit(ev.BallotOpened(ballot=self._ballot(), at=self.clock()))
        elif self.state.ballot_closed is None:
            await self.table.open_ballot(self._ballot())  # a fresh table after a resume

    async def _close_ballot(self) -> None:
        if self.state.ballot_closed is not None:
            return
        await self._phase("human_vote")
        deadline = self.clock() + timedelta(seconds=self.settings.vote_window_seconds)
        votes = await self.table.close_ballot(self._ballot(), deadline)
        await self._emit(ev.BallotClosed(votes=tuple(votes), at=self.clock()))

    async def _reveal(self) -> None:
        assert self.state.dealt is not None and self.state.ballot_closed is not None
        dealt, state = self.state.dealt, self.state
        tm = dealt.troublemaker
        caught = state.caught_round()
        strategy = STRATEGY_BY_KEY[dealt.strategy]
        ledger = tuple(state.ledger())
        planted = [e.claim for e in ledger]
        # Reading every public claim against the code is CPU work: off the event loop.
        failed, found = await off_loop(_judged, self.setup, state, planted, tm)
        errors = tuple(e for e in failed if e.seat != tm)  # the Troublemaker's are not honest
        await self._phase("reveal")
        await self._emit(ev.Revealed(
            troublemaker=tm, persona=state.players[tm - 1].persona, strategy=strategy.key,
            strategy_name=strategy.name, caught_round=caught, ledger=ledger,
            event_details=self._event_details(),
            scores=rules.score(state.ballot_closed.votes if state.ballot_closed else (), tm,
                               caught, rules.early_cutoff(state.eliminations),
                               erred={e.seat for e in errors}, stop=self._early_stop()),
            verdict=found,
            struck=tuple(planted), honest_errors=errors,
            fair_catches=claims.fair_catches(errors, state.accusations),
            vote_story=vote_story(state), stand_ins=state.stand_in_turns(),
            rejected_replies=state.rejected_replies()))

    def _early_stop(self) -> datetime | None:
        """When the tribunal stopped early on the Troublemaker's elimination (rules)."""
        state = self.state
        assert state.dealt is not None and state.started is not None
        return rules.early_stop(state.eliminations, state.dealt.troublemaker,
                                state.started.max_rounds, len(state.players))

    def _event_details(self) -> dict[str, str]:
        dealt = self.state.dealt
        if dealt is None or dealt.event is None:
            return {}
        details = {"event": EVENT_BY_KEY[dealt.event].name}
        if dealt.event_seats:
            details["seats"] = ", ".join(str(s) for s in dealt.event_seats)
        if dealt.focus:
            details["focus"] = dealt.focus
        if dealt.future_commit:
            details["future_commit"] = dealt.future_commit
        return details


async def _gather(coros: list[Coroutine[Any, Any, players.VoteTurn]]
                  ) -> list[players.VoteTurn]:
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    finally:
        for task in tasks:
            task.cancel()


def _judged(setup: GameSetup, state: GameState, planted: list[str], tm: int
            ) -> tuple[tuple[ev.HonestError, ...], tuple[str, ...]]:
    """Every failed public claim, and the verdict: nothing worth acting on cites code that
    is not there, repeats a planted claim, or is what the jury voted an honest seat out for."""
    failed = claims.failed_claims(claims.Code(setup.code, setup.change), state.statements,
                                  state.accusations, planted)
    convicted = convicted_quotes(state.accusations, state.eliminations, tm)
    found = verdict(state.statements, [*planted, *(e.claim for e in failed)], troublemaker=tm,
                    convicted=convicted)
    return failed, found

