"""How the reveal's honest mistakes and vote story render, at the edges: a long game within
Discord's limits, a reveal stored before they existed, the narrow terminal table, the page."""

from __future__ import annotations

import io

from tests.export.pagecheck import parse
from tribunalbot.discordbot.render import FIELD_VALUE, Roster, reveal_embed, transcript_markdown
from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONAS
from tribunalbot.page.build import build_page
from tribunalbot.terminal.screen import TerminalTable

WIDTH = 92  # a terminal where the names of ten rounds do not fit, and seat numbers do

PLAYERS = tuple(ev.PlayerInfo(seat=i, persona=p.key, name=p.name)
                for i, p in enumerate(PERSONAS, 1))
STARTED = ev.GameStarted(game_id="g", language="python", code_lines=40, players=PLAYERS,
                         max_rounds=10)
ROSTER = Roster.of(STARTED)


def _round(rnd: int) -> ev.VoteRoundStory:
    """Every seat votes for the next one; from round 2 that is a change of mind."""
    votes = tuple(ev.StoryVote(seat=s, target=(s + rnd - 1) % 8 + 1,
                               changed_from=(s + rnd - 2) % 8 + 1 if rnd > 1 else None)
                  for s in range(1, 9))
    return ev.VoteRoundStory(round=rnd, votes=votes, tally={s: 1 for s in range(1, 9)})


def _big_reveal() -> ev.Revealed:
    errors = tuple(ev.HonestError(seat=s % 8 + 1, phase="speak", round=0,
                                  claim=f"Line {90 + s} is wrong " + "and long " * 30,
                                  problem=f"line {90 + s} does not exist (the code has 40 lines)")
                   for s in range(30))
    ledger = tuple(ev.LedgerEntry(phase="speak", round=0, claim="planted " * 40,
                                  why_wrong="wrong " * 40, kind="dismissal") for _ in range(8))
    return ev.Revealed(
        troublemaker=3, persona=PLAYERS[2].persona, strategy="s", strategy_name="S",
        caught_round=None, ledger=ledger, event_details={}, verdict=("Line 1 " * 60,) * 10,
        struck=(), honest_errors=errors,
        scores=tuple(ev.Score(user_id=str(n), user_name=f"user{n}", seat=1, correct=False,
                              points=0, jury_missed_bonus=False, early_bonus=False,
                              fair_catch=True) for n in range(40)),
        fair_catches=tuple(ev.FairCatch(round=1, seat=s, target=1) for s in range(2, 9)),
        vote_story=tuple(_round(r) for r in range(1, 11)))


def test_a_long_game_reveal_stays_within_discords_limits() -> None:
    roster = Roster(ROSTER.names, ROSTER.personas, usage="u " * 600)
    embed = reveal_embed(_big_reveal(), roster)
    assert len(embed) <= 6000
    assert all(len(f.value or "") <= FIELD_VALUE for f in embed.fields)
    fields = {f.name: f.value or "" for f in embed.fields}
    assert "… and" in fields["Honest mistakes (not planted)"]  # the list says it goes on
    assert "Voters by seat number." in fields["The vote story"]  # names did not fit
    # the transcript file has no such limit: every error and round is there in full
    text = transcript_markdown([STARTED, _big_reveal()], roster)
    assert text.count("does not exist") == 30 and "**Round 10**" in text


def test_a_reveal_stored_before_the_check_shows_no_claim_about_it() -> None:
    old = _big_reveal().model_copy(update={"honest_errors": None, "vote_story": (),
                                           "fair_catches": ()})
    names = [f.name for f in reveal_embed(old, ROSTER).fields]
    assert "Honest mistakes (not planted)" not in names and "The vote story" not in names
    out = io.StringIO()
    table = TerminalTable(out, colour=False)
    table._show_game_started(STARTED)
    table._show_revealed(old)
    assert "Honest mistakes" not in out.getvalue() and "vote story" not in out.getvalue()


def test_the_terminal_table_falls_back_to_seat_numbers_when_names_do_not_fit() -> None:
    out = io.StringIO()
    table = TerminalTable(out, colour=False, width=WIDTH)
    table._show_game_started(STARTED)
    table._show_revealed(_big_reveal())
    rows = out.getvalue().splitlines()
    story = rows[rows.index("  The vote story:") + 1:
                 rows.index("  Verdict: findings worth acting on") - 1]
    assert all(len(row) <= WIDTH for row in rows)
    assert story[2].split()[:4] == ["#2", "Security", "Guardian", "#3"]  # seat 2: 3, then 4
    assert story[2].split()[4:6] == ["#4", "*"] and "seat N" in story[-1]


def test_the_page_shows_the_honest_mistakes_and_the_vote_story() -> None:
    reveal = _big_reveal()
    html = build_page([STARTED, ev.PhaseStarted(phase="reveal"), reveal]).html
    page = parse(html)
    assert {"honest", "vote-story"} <= {a.get("id") for a in page.all("h3")}
    words = page.words()
    assert "line 119 does not exist" in words and "a fair catch wrong player" in words
    assert html.count("<em>(changed)</em>") == 9 * 8  # rounds 2-10, every voter
