"""The page's replay: the game round by round, each post's private notes in a closed fold
beside it (only for a game that is over), the planted claims where they were made, the votes
as they moved, and the human votes placed among the rounds' results.

Played on a recording of a capable model (`games.RECORDED`, one round: the corpus's games
all end in round 1) and on an offline game of three rounds.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.engine.scripts import CODE
from tests.export.games import (
    HOSTILE,
    HOSTILE_NOTES,
    RECORDED,
    example_code,
    hostile_game,
    offline_game,
    recorded_game,
)
from tests.export.pagecheck import folds, parse, text_of, unfolded, words_of
from tests.referee.corpus import setup_of
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameResult
from tribunalbot.page import build_page
from tribunalbot.page.backstage import backstage_of, own_words
from tribunalbot.page.cast import Cast
from tribunalbot.page.notes import POST_FOLD
from tribunalbot.page.replay import examined

ARTICLE = re.compile(r'<article class="msg s\d+" id="(post-[^"]+)">(.*?)</article>', re.S)


@pytest.fixture(scope="module")
def recorded() -> GameResult:
    return asyncio.run(recorded_game())


@pytest.fixture(scope="module")
def recorded_html(recorded: GameResult) -> str:
    return build_page(recorded.events, setup_of(RECORDED).code).html


@pytest.fixture(scope="module")
def rounds() -> GameResult:
    """Three rounds: a tie in round 1, then ties in rounds 2 and 3 each broken by the earlier
    rounds' votes, an honest seat out each time; the Troublemaker (seat 5, which also plants
    in the debate) is never caught."""
    return asyncio.run(offline_game(seed=37))


@pytest.fixture(scope="module")
def rounds_html(rounds: GameResult) -> str:
    return build_page(rounds.events, example_code()).html


def posts(html: str) -> dict[str, str]:
    """Each post of the replay by its id: its HTML."""
    return dict(ARTICLE.findall(html))


def key_of(record: ev.Statement | ev.Accusation) -> str:
    if isinstance(record, ev.Statement):
        return f"post-review-{record.seat}"
    return f"post-debate-{record.round}-{record.seat}"


def spoken(game: GameResult) -> list[ev.Statement | ev.Accusation]:
    return [e for e in game.events if isinstance(e, ev.Statement | ev.Accusation)]


def section(html: str, anchor: str) -> str:
    start = html.index(f'<section id="{anchor}"')
    return html[start:html.index("</section>", start)]


def test_the_replay_goes_round_by_round(rounds: GameResult, rounds_html: str) -> None:
    ids = [a["id"] for t, a in parse(rounds_html).tags if t == "section" and "id" in a]
    ids = ids[ids.index("convened"):]
    assert ids == [
        "convened", "reviews", "debate-1", "vote-1", "debate-2", "vote-2", "debate-3", "vote-3",
        "human-vote", "the-end"]
    heads = re.findall(r'<p class="round-head">(.*?)</p>', rounds_html)
    started = rounds.events[0]
    assert isinstance(started, ev.GameStarted)
    names = {p.seat: p.name for p in started.players}
    results = {e.round: e.seat for e in rounds.events if isinstance(e, ev.Elimination)}
    assert list(results.values()).count(None) >= 1 and len(results) == 3  # a tie among them
    expected = []
    for rnd in (1, 2, 3):
        out = sorted(s for r, s in results.items() if r < rnd and s is not None)
        gone = f" out {' '.join(names[s] for s in out)}" if out else ""
        expected.append(words_of(f"Round {rnd} of up to 3 {8 - len(out)} reviewers in play"
                                 f"{gone}"))
    assert [text_of(h) for h in heads] == expected
    for phase in [e for e in rounds.events if isinstance(e, ev.PhaseStarted)
                  and e.phase == "debate"]:
        told = text_of(section(rounds_html, f"debate-{phase.round}"))
        assert ("Cross examination" in told) == bool(phase.examines)
        rows = re.findall(r"<li><strong>([^<]*)</strong> examines ([^<]*)</li>",
                          section(rounds_html, f"debate-{phase.round}"))
        assert [(juror, set(seats.replace(" and ", ", ").split(", "))) for juror, seats in rows
                ] == [(names[juror], {names[s] for s in seats}) for juror, seats in phase.examines]
    nav = re.findall(r'<li><a href="#([^"]+)">', rounds_html.split("<nav", 1)[1])
    assert [n for n in nav if n.startswith(("debate", "vote"))] == ids[2:8]
    for post in spoken(rounds):  # every post sits in its round's section
        where = "reviews" if isinstance(post, ev.Statement) else f"debate-{post.round}"
        assert f'id="{key_of(post)}"' in section(rounds_html, where)


@pytest.mark.parametrize("which", ["recorded", "rounds"])
def test_every_post_has_its_notes_in_a_closed_fold_beside_it(
        which: str, request: pytest.FixtureRequest) -> None:
    game: GameResult = request.getfixturevalue(which)
    html: str = request.getfixturevalue(f"{which}_html")
    by_id = posts(html)
    assert len(by_id) == len(spoken(game)) >= 16
    for post in spoken(game):
        (fold,) = folds(by_id[key_of(post)])  # one each, so that having one is no tell
        assert fold.startswith('<details class="private"><summary>' + POST_FOLD)
        assert words_of(own_words(post.notes)) in text_of(fold)
    assert len(folds(html)) == 1 + len(spoken(game)) + sum(  # the reveal, posts, vote rounds
        isinstance(e, ev.AIVotes) for e in game.events)


@pytest.mark.parametrize("which", ["recorded", "rounds"])
def test_nothing_private_is_outside_a_fold(which: str, request: pytest.FixtureRequest) -> None:
    game: GameResult = request.getfixturevalue(which)
    html: str = request.getfixturevalue(f"{which}_html")
    shown = text_of(unfolded(html))
    private = [own_words(p.notes) for p in spoken(game)]
    private += [x.why_wrong for p in spoken(game) for x in p.planted]
    assert len(private) > len(spoken(game))
    assert [n for n in private if words_of(n) in shown] == []
    troublemaker = game.events[0].players[game.revealed.troublemaker - 1]  # type: ignore
    assert words_of(f"The Troublemaker was {troublemaker.name}") not in shown
    assert words_of(f"The Troublemaker, {troublemaker.name}, voted") not in shown
    assert not re.search(r"<details[^>]* open", html)


def test_each_planted_claim_stands_where_it_was_made(rounds: GameResult,
                                                    rounds_html: str) -> None:
    planted = [p for p in spoken(rounds) if p.planted]
    assert {type(p) for p in planted} == {ev.Statement, ev.Accusation}
    by_id = posts(rounds_html)
    for post in spoken(rounds):
        fold = text_of(folds(by_id[key_of(post)])[0])
        assert ("Planted here" in fold) == bool(post.planted)
        assert ("The Troublemaker s notes" in fold) == (post.seat == rounds.revealed.troublemaker)
        assert all(words_of(x.claim) in fold for x in post.planted)
    # the reveal's ledger links each claim to the fold it was planted in
    reveal = folds(rounds_html)[0]
    links = re.findall(r'href="#(notes-[^"]+)">planted in', reveal)
    assert links == [key_of(p).replace("post-", "notes-") for p in planted]
    assert all(f'id="{link}"' in rounds_html for link in links)


def test_the_garbled_review_is_kept_as_written_in_its_fold(recorded: GameResult,
                                                           recorded_html: str) -> None:
    (garbled,) = [s for s in spoken(recorded) if isinstance(s, ev.Statement) and s.ungarbled]
    fold = text_of(folds(posts(recorded_html)[key_of(garbled)])[0])
    assert "before the cosmic ray garbled it" in fold and words_of(garbled.ungarbled) in fold
    assert words_of(garbled.ungarbled) not in text_of(unfolded(recorded_html))


def test_the_votes_move_round_by_round(rounds: GameResult, rounds_html: str) -> None:
    story = {told.round: told for told in rounds.revealed.vote_story}
    for rnd, told in story.items():
        votes = section(rounds_html, f"vote-{rnd}")
        changed = [v for v in told.votes if v.changed_from is not None]
        assert votes.count("changed its mind") == len(changed)
        bars = re.findall(r'<span class="n">(\d+) votes?</span>', votes)
        assert sorted(map(int, bars), reverse=True) == sorted(told.tally.values(), reverse=True)
        assert "The Troublemaker" in text_of(folds(votes)[0])  # its own vote, in the fold
    assert any(v.changed_from for told in story.values() for v in told.votes)


def test_the_human_votes_are_placed_among_the_results(recorded_html: str) -> None:
    humans = text_of(section(recorded_html, "human-vote"))
    assert ("Ada named Security Guardian last changed at 00 00 00 UTC before round 1 s result "
            "Bo named Error Philosopher last changed at 01 00 00 UTC after the AI jury s last "
            "result") in humans
    assert "earlier changes are not kept" in humans


def test_an_unfinished_or_stopped_game_has_no_private_side(rounds: GameResult) -> None:
    """The gate comes before any private field is read: no reveal, or a stop, is nothing."""
    events = list(rounds.events)
    reveal_at = next(i for i, e in enumerate(events) if isinstance(e, ev.Revealed))
    assert backstage_of(events).shown and backstage_of(events).posts
    for log in (events[:reveal_at], [*events[:reveal_at], ev.GameAborted(reason="x")],
                [*events, ev.GameAborted(reason="x")],
                [e.public_view() for e in events if e.public]):
        assert backstage_of(log) == backstage_of([])
        assert not backstage_of(log).shown
    stopped = build_page([*events, ev.GameAborted(reason="stopped")], example_code()).html
    assert 'class="private"' not in stopped and "no private notes" in stopped
    notes = [own_words(p.notes) for p in spoken(rounds) if len(p.notes) > 30]
    assert notes and [n for n in notes if words_of(n) in text_of(stopped)] == []


def test_private_text_is_escaped_and_mentions_defused() -> None:
    html = build_page(asyncio.run(hostile_game()).events, CODE).html
    page = parse(html)
    assert page.all("script") == [] and HOSTILE_NOTES not in html
    inside = " ".join(folds(html)[1:])
    assert "private &lt;script&gt;window.pwned = 1&lt;/script&gt;" in inside
    assert not re.search(r"@(everyone|here)|(<|&lt;)@\d", inside)
    assert HOSTILE not in unfolded(html).replace("&lt;", "<")  # the notes only in folds


def test_the_round_head_names_the_cross_examination() -> None:
    players = {s: ev.PlayerInfo(seat=s, persona="architect", name=f"<i>P{s}</i>")
               for s in (1, 2, 3)}
    cast = Cast(players, {})
    phase = ev.PhaseStarted(phase="debate", round=1, examines=((1, (2, 3)), (2, (1,))))
    head = examined(phase, cast)
    assert re.findall(r"<li>(.*?)</li>", head) == [
        "<strong>&lt;i&gt;P1&lt;/i&gt;</strong> examines &lt;i&gt;P2&lt;/i&gt; and "
        "&lt;i&gt;P3&lt;/i&gt;", "<strong>&lt;i&gt;P2&lt;/i&gt;</strong> examines "
        "&lt;i&gt;P1&lt;/i&gt;"]
    assert examined(ev.PhaseStarted(phase="debate", round=1), cast) == ""  # an open round
