"""Debate and vote: valid targets, exact quotes, evidence-driven, fallible but fair."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from tribunalbot.engine.personas import STRATEGIES
from tribunalbot.llm.base import OfflineHints, Prompt, SeatRole, Task
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.evidence import (
    NEAR_FIT_WEIGHT,
    Contradiction,
    contradictions,
    quote_around,
    sentences,
)
from tribunalbot.llm.replies import DebateReply, VoteReply

from .conftest import EXAMPLE_NAMES, analysis_of, source
from .selfplay import Outcome, play


@pytest.fixture(scope="module")
def games() -> list[Outcome]:
    """A dozen full games, played once for the module (each test function has its own loop)."""

    async def all_games() -> list[Outcome]:
        llm = OfflineLLM()
        return [await play(llm, source(EXAMPLE_NAMES[s % len(EXAMPLE_NAMES)]), s)
                for s in range(12)]

    return asyncio.run(all_games())


def test_debate_targets_are_candidates_and_quotes_are_exact(games: list[Outcome]) -> None:
    for game in games:
        for seat, reply in game.debates:
            assert reply.target != seat and reply.target in game.statements
            assert reply.quote and reply.quote in game.statements[reply.target]
            assert len(reply.quote) <= 160
            assert reply.quote in reply.argument
            assert re.search(r"should|ought to|had to|needed to|honest|fair|sound|advice|"
                             r"the code (needs|asks for|wants)|instead|I would|rather|"
                             r"(better|wiser|safer|best|fairer) to|the fix|my fix|why not",
                             reply.argument, re.I), reply.argument
            assert re.search(r"\bline \d+", reply.argument, re.I), reply.argument


def test_votes_are_valid(games: list[Outcome]) -> None:
    for game in games:
        for seat, vote in game.votes:
            assert vote.target != seat and vote.target in game.statements and vote.reason


async def test_a_game_replays_exactly() -> None:
    code = source("report_export.py")
    first = await play(OfflineLLM(), code, 7)
    second = await play(OfflineLLM(), code, 7)
    assert [(s, d.target, d.argument) for s, d in first.debates] == \
        [(s, d.target, d.argument) for s, d in second.debates]
    assert [(s, v.target) for s, v in first.votes] == [(s, v.target) for s, v in second.votes]


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
async def test_the_plant_is_the_strongest_evidence_on_the_table(name: str) -> None:
    """Honest reviews give the jury nothing to hold but now and then an overstated call (a
    near fit, never heavier); every planted claim gives it more."""
    llm = OfflineLLM()
    for strategy in STRATEGIES:
        game = await play(llm, source(name), 3, strategy=strategy.key, rounds=1)
        result = analysis_of(name)
        found = {s: contradictions(t, result) for s, t in game.statements.items()}
        weights = {s: sum(c.weight for c in cs if not _overstated(c)) for s, cs in found.items()}
        honest = [w for s, w in weights.items() if s != game.troublemaker]
        assert max(honest) < 1.0, (strategy.key, weights)
        assert all(c.weight == NEAR_FIT_WEIGHT for s, cs in found.items()
                   if s != game.troublemaker for c in cs if _overstated(c))
        assert weights[game.troublemaker] >= 2.0, (strategy.key, game.statements)


def _overstated(c: Contradiction) -> bool:
    return "more than line" in c.reason


def _debate_task(seat: int, troublemaker: bool, accusations: tuple[tuple[int, int, int, str],
                 ...], game: str) -> Prompt:
    statements = {1: "Line 3 nests conditions. Flatten it.", 2: "Line 5 is risky. Fix it.",
                  3: "Line 9 swallows errors. Raise them.", 4: "Line 2 reads well. Keep it."}
    return Prompt("s", "p", Task(
        kind="debate", game_id=game, seat=seat, round=2,
        role=SeatRole(troublemaker=troublemaker,
                      strategy="rewrite_it" if troublemaker else None),
        hints=OfflineHints(
            code=source("user_lookup.py"), statements=statements, accusations=accusations,
            candidates=tuple(s for s in statements if s != seat),
            personas={1: "architect", 2: "security_guardian", 3: "error_philosopher",
                      4: "dx_advocate"})))


async def test_an_accused_player_sometimes_counter_accuses_whatever_its_role() -> None:
    """Hitting back at one's accuser is a human reflex, not the Troublemaker's mark: both
    roles do it, neither always (the rates are compared over many games in test_debate)."""
    llm = OfflineLLM()
    accused = ((1, 3, 4, "Line 2 does not exist in that form."),)
    for troublemaker in (True, False):
        targets = [(await llm.generate_json(_debate_task(4, troublemaker, accused, f"g{i}"),
                                            DebateReply)).target for i in range(40)]
        assert 3 <= targets.count(3) <= 36, (troublemaker, targets)
        assert 4 not in targets


async def test_honest_players_spread_their_suspicion_when_evidence_is_thin() -> None:
    llm = OfflineLLM()
    targets = {(await llm.generate_json(_debate_task(1, False, (), f"g{i}"),
                                        DebateReply)).target for i in range(30)}
    assert len(targets) >= 2 and 1 not in targets


async def test_ai_jury_catches_the_troublemaker_about_half_the_time() -> None:
    """Balance: a fun game is not a solved one. Measured over 60 seeds across the examples."""
    llm = OfflineLLM()
    caught = 0
    for seed in range(60):
        game = await play(llm, source(EXAMPLE_NAMES[seed % len(EXAMPLE_NAMES)]), seed)
        caught += game.caught_round is not None
    assert 0.25 <= caught / 60 <= 0.75, caught


async def test_vote_with_a_single_candidate_picks_it() -> None:
    llm = OfflineLLM()
    prompt = Prompt("s", "p", Task(kind="vote", game_id="x", seat=1, hints=OfflineHints(
        code="x = 1\n", statements={1: "Fine.", 2: "Line 1 is odd."}, candidates=(2,))))
    assert (await llm.generate_json(prompt, VoteReply)).target == 2


def test_quotes_never_split_abbreviations() -> None:
    text = "I read this at 2 a.m. and it hurt. Line 4 is wrong."
    spans = [text[a:b] for a, b in sentences(text)]
    assert spans == ["I read this at 2 a.m. and it hurt.", "Line 4 is wrong."]
    quote = quote_around(text, 0, len(text), 0)
    assert quote == "I read this at 2 a.m. and it hurt. Line 4 is wrong"


def test_seeded_generators_are_independent_of_global_random() -> None:
    from tribunalbot.llm.offline.provider import seeded

    task = Task(kind="vote", game_id="g", seat=2, round=1)
    random.seed(1)
    a = seeded(task).random()
    random.seed(2)
    assert seeded(task).random() == a
    assert seeded(Task(kind="vote", game_id="g", seat=3, round=1)).random() != a
