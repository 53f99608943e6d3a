"""The votes achievements are folded from, read the same on SQLite and PostgreSQL: what each
stored game says about each final vote, one member's or a guild's, and what a revealed game
newly gave its voters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.store.store_helpers import make_setup
from tribunalbot.config import LeaderboardSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.achievements import (
    BEAT_THE_JURY,
    EARLY_AND_RIGHT,
    EVERY_DISGUISE,
    FIRST_CATCH,
    FIVE_IN_A_ROW,
    StoredVote,
)
from tribunalbot.engine.leaderboard import Season
from tribunalbot.engine.personas import STRATEGIES
from tribunalbot.store import Store
from tribunalbot.store.games import iso
from tribunalbot.store.privacy import PrivacyRepo

DAY = datetime(2026, 12, 10, tzinfo=UTC)
RULES = LeaderboardSettings()  # two voters for a game to count, monthly seasons


def ballot(user: str, *, right: bool = True, early: bool = False,
           late: bool = False) -> ev.Score:
    """A final vote as the reveal scored it: for seat 1 (the Troublemaker) or seat 2."""
    return ev.Score(user_id=user, user_name=user.upper(), seat=1 if right else 2,
                    correct=right, points=0 if late else int(right) + int(early and right),
                    jury_missed_bonus=False, early_bonus=early and right and not late,
                    after_stop=late)


async def reveal(store: Store, game_id: str, scores: list[ev.Score], *, guild: str = "g",
                 finished: datetime = DAY, strategy: str = "deep_thinker",
                 caught_round: int | None = 1) -> None:
    await store.create_game(make_setup(game_id), guild)
    await store.game_sink(game_id)(0, ev.Revealed(
        troublemaker=1, persona="architect", strategy=strategy, strategy_name=strategy,
        caught_round=caught_round, ledger=(), event_details={}, scores=tuple(scores),
        verdict=(), struck=()))
    await store.db.execute("UPDATE games SET finished_at = ? WHERE id = ?",
                           (iso(finished), game_id))


async def test_each_vote_comes_with_what_its_game_says(store: Store) -> None:
    await reveal(store, "missed", [ballot("ann", early=True), ballot("bob", right=False)],
                 caught_round=None, strategy="blockchain")
    await reveal(store, "stopped", [ballot("ann", late=True), ballot("bob", late=True,
                                                                     right=False)],
                 finished=DAY + timedelta(hours=1))
    await reveal(store, "alone", [ballot("ann")], finished=DAY - timedelta(days=1))
    await reveal(store, "elsewhere", [ballot("ann"), ballot("bob")], guild="h")
    await store.create_game(make_setup("unfinished"), "g")

    assert await store.votes.judged_votes("g", "ann") == [
        StoredVote("alone", "ann", "ANN", DAY - timedelta(days=1), "deep_thinker", voters=1,
                   named_troublemaker=True, early=False, ai_caught=True, after_stop=False),
        StoredVote("missed", "ann", "ANN", DAY, "blockchain", voters=2,
                   named_troublemaker=True, early=True, ai_caught=False, after_stop=False),
        StoredVote("stopped", "ann", "ANN", DAY + timedelta(hours=1), "deep_thinker",
                   voters=2, named_troublemaker=True, early=False, ai_caught=True,
                   after_stop=True),
    ]
    guild = await store.votes.judged_votes("g")
    assert [(v.game_id, v.user_id) for v in guild] == [
        ("alone", "ann"), ("missed", "ann"), ("missed", "bob"), ("stopped", "ann"),
        ("stopped", "bob")]
    assert await store.votes.judged_votes("g", "nobody") == []


async def test_a_reveal_names_what_its_game_newly_gave_each_voter(store: Store) -> None:
    await reveal(store, "first", [ballot("ann"), ballot("bob", right=False)])
    await reveal(store, "second", [ballot("ann", early=True), ballot("bob")],
                 finished=DAY + timedelta(days=1), caught_round=None)
    await reveal(store, "january", [ballot("ann"), ballot("cy", late=True)],
                 finished=datetime(2027, 1, 2, tzinfo=UTC))
    await reveal(store, "other guild", [ballot("bob"), ballot("dee")], guild="h",
                 finished=DAY - timedelta(days=1))

    assert [(u.user_id, u.first) for u in await store.votes.unlocked_by("first", RULES)] == [
        ("ann", (FIRST_CATCH,))]
    second = await store.votes.unlocked_by("second", RULES)
    assert [(u.user_id, u.first) for u in second] == [
        ("ann", (BEAT_THE_JURY, EARLY_AND_RIGHT)),
        ("bob", (FIRST_CATCH, BEAT_THE_JURY))]  # bob's catch in the other guild is not here
    (january,) = await store.votes.unlocked_by("january", RULES)  # cy voted after the stop
    assert (january.user_id, january.first, january.again) == ("ann", (), (FIRST_CATCH,))
    assert january.season == Season(2027, 1)
    assert await store.votes.unlocked_by("no such game", RULES) == []


async def test_five_in_a_row_every_disguise_and_forget_me(store: Store) -> None:
    for n, strategy in enumerate(s.key for s in STRATEGIES):
        await reveal(store, f"g{n}", [ballot("ann"), ballot("bob")], strategy=strategy,
                     finished=DAY + timedelta(days=n))
    (ann, bob) = await store.votes.unlocked_by("g4", RULES)
    assert ann.first == bob.first == (FIVE_IN_A_ROW, EVERY_DISGUISE)
    await PrivacyRepo(store.db).forget_user("bob")  # achievements go with the votes
    assert [u.user_id for u in await store.votes.unlocked_by("g4", RULES)] == ["ann"]
    assert await store.votes.judged_votes("g", "bob") == []
