"""The fairness bench's own parts (bench/fair/): each finds what it is meant to find.

Synthetic tables with a known tell, or none, check the surface reader; small texts check the
masking and the six-word-span counter; one real engine game checks what a game is boiled
down to.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench.fair import behaviour as bh
from bench.fair.games import Accused, Game, Voted, play_input, schedule
from bench.fair.inputs import Input
from bench.fair.surface import review_text, rows, tells, top1
from bench.fair.text import NAME, QUOTE, mask, quoted_share, sharing_share, spans

from .conftest import source

NAMES = ("Architect", "Security Guardian", "DX Advocate")
FILLER = ("line", "split", "function", "docstring", "test", "branch", "cache", "loop",
          "name", "constant", "error", "retry", "module", "public", "return", "value")


def _table(tell: str | None, games: int = 48, deals_per_word: int = 0) -> list[Game]:
    """Games of eight seats writing random filler; the Troublemaker's row alone carries
    `tell` when one is given. With `deals_per_word`, it carries a word of its deal instead,
    shared by the games of that many seeds (on every file each is played on)."""
    rng = random.Random(7)
    out = []
    for n in range(games):
        seed, source_file = n % 8, f"file{n // 8}"
        tm = random.Random(seed).randint(1, 8)
        # letters, not digits: a digit would be masked
        word = f"deal{chr(97 + seed // deals_per_word)}" if deals_per_word else tell
        reviews = {}
        for seat in range(1, 9):
            words = rng.choices(FILLER, k=30)
            if word and seat == tm:
                words.insert(rng.randrange(len(words)), word)
            reviews[seat] = " ".join(words)
        out.append(Game(source_file, seed, tm, "rewrite_it", None, NAMES, reviews))
    return out


def test_the_surface_reader_finds_a_constant_word_on_the_troublemakers_row() -> None:
    assert top1(rows(_table("ledger"), review_text, with_behaviour=False)) >= 0.95


def test_the_reader_says_which_word_it_leans_on() -> None:
    name, weight, tm_share, honest_share = tells(rows(_table("ledger"), review_text, False),
                                                 1)[0]
    assert name == "ledger" and weight > 0
    assert tm_share == pytest.approx(1.0) and honest_share == pytest.approx(0.0)


def test_without_a_tell_the_surface_reader_is_near_chance() -> None:
    assert top1(rows(_table(None), review_text, with_behaviour=False)) <= 0.35


def test_what_only_the_same_deal_shares_on_other_files_teaches_nothing() -> None:
    """A seed is played on several files: were a seed's games on other files in the training
    set, a trait of that deal alone (its persona, its event) would name the Troublemaker in
    every held-out game of the seed. The held-out blocks are by seed too, so it does not."""
    one_deal = _table(None, games=96, deals_per_word=1)
    assert top1(rows(one_deal, review_text, with_behaviour=False)) <= 0.35
    # the control: a word the Troublemakers of different deals share is a tell, and found
    four_deals = _table(None, games=96, deals_per_word=4)
    assert top1(rows(four_deals, review_text, with_behaviour=False)) >= 0.8


def test_masking_removes_names_numbers_and_quotations() -> None:
    text = 'DX Advocate says line 42 is fine: "Architect was wrong" about `parse_id`.'
    masked = mask(text, NAMES)
    assert "Advocate" not in masked and "Architect" not in masked and "parse_id" not in masked
    assert "42" not in masked and "line 0" in masked
    assert masked.count(QUOTE) == 2 and masked.startswith(NAME)


def test_a_shared_six_word_span_is_counted_even_with_other_names_and_lines() -> None:
    texts = ["Architect ranks minor points above line 12, which is wrong.",
             "I think DX Advocate ranks minor points above line 80 here.",
             "Nothing in common with the other two texts at all."]
    assert sharing_share(texts, NAMES) == 2 / 3


def test_a_span_shared_only_inside_quotations_is_not_counted() -> None:
    texts = ['Look at "the cache is never invalidated on write" first.',
             'Architect wrote "the cache is never invalidated on write", I disagree.']
    assert sharing_share(texts, NAMES) == 0.0
    assert not spans('a b c "d e f" g h i', NAMES)  # no run crosses a quotation


def test_the_words_hidden_from_the_readers_in_quotations_are_counted() -> None:
    assert quoted_share('a b "c d" e `f`') == 0.5
    assert quoted_share("no quotation here") == 0.0


def _accused(rnd: int, seat: int, target: int, text: str = "") -> Accused:
    return Accused(rnd, seat, target, text)


def test_strong_means_the_argument_answers_the_line_the_quote_cites() -> None:
    strong = _accused(1, 1, 2, '"Line 12 can stay as it is" but line 12 holds a secret.')
    weak = _accused(1, 1, 2, '"Line 12 can stay as it is" yet line 30 goes unmentioned.')
    assert bh.is_strong(strong) and not bh.is_strong(weak)


def test_votes_for_an_accuser_and_counter_accusations_are_told_apart() -> None:
    game = Game("f", 0, 2, "rewrite_it", None, NAMES, {s: "x" for s in (1, 2, 3)},
                accusations=[_accused(1, 1, 2), _accused(1, 2, 3), _accused(1, 3, 2),
                             _accused(2, 2, 1), _accused(2, 3, 1)])
    assert bh.votes_own_accuser(game, Voted(1, 2, 1, "")) is True
    assert bh.votes_own_accuser(game, Voted(1, 2, 3, "")) is True
    assert bh.votes_own_accuser(game, Voted(1, 3, 1, "")) is False  # 3's accuser was 2
    assert bh.votes_own_accuser(game, Voted(1, 1, 2, "")) is None  # nobody accused 1
    assert bh.counter_accuses(game, game.accusations[3]) is True  # 2 was accused by 1
    assert bh.counter_accuses(game, game.accusations[4]) is False  # 3's accuser was 2
    assert bh.counter_accuses(game, game.accusations[0]) is None  # round 1 is blind


def _strong_games(tm_strong: int, honest_strong: int, count: int = 40) -> list[Game]:
    """`count` games where seat 2 (the Troublemaker) and seat 1 each accuse once; the first
    `tm_strong` / `honest_strong` of them strongly."""
    strong, weak = '"Line 12 is fine" but line 12 holds a secret.', '"Line 12 is fine" yet line 3.'
    return [Game("f", i, 2, "rewrite_it", None, NAMES, {1: "x", 2: "x"}, accusations=[
        _accused(1, 2, 1, strong if i < tm_strong else weak),
        _accused(1, 1, 2, strong if i < honest_strong else weak)]) for i in range(count)]


def test_the_roles_difference_is_told_from_noise_in_standard_errors() -> None:
    alike = bh.parity_z(_strong_games(20, 21))["strong_accusation_share"]
    apart = bh.parity_z(_strong_games(8, 32))["strong_accusation_share"]
    assert abs(alike) < 1 and apart < -4, (alike, apart)


def _eliminated(seed: int, name: str, seq: tuple[int | None, ...]) -> Game:
    return Game(name, seed, 1, "rewrite_it", None, NAMES, {1: "x"}, eliminations=seq)


def test_a_jury_that_repeats_itself_on_every_file_is_told_from_one_that_reads_them() -> None:
    same = [_eliminated(s, f"f{i}", (3, 5)) for s in range(3) for i in range(4)]
    varied = [_eliminated(s, f"f{i}", (i + 1,)) for s in range(3) for i in range(4)]
    assert bh.jury_same_across_inputs(same) == 1.0
    assert bh.jury_same_across_inputs(varied) == 0.25


def test_the_schedule_plays_each_seed_on_several_inputs_and_reaches_the_count() -> None:
    seeds = schedule(inputs=7, games=40, inputs_per_seed=5)
    assert sum(len(mine) for mine in seeds) >= 40
    on = {s: sum(s in mine for mine in seeds) for mine in seeds for s in mine}
    assert set(on.values()) == {5}


def test_a_real_game_is_boiled_down_to_its_public_transcript() -> None:
    (game,) = play_input(Input("user_lookup.py", source("user_lookup.py"), "python"), [3])
    assert len(game.reviews) >= 8 and game.troublemaker in game.reviews
    assert game.accusations and all(a.target in game.reviews for a in game.accusations)
    assert game.votes and game.planted
    assert 1 <= len(game.eliminations) <= 3
    if game.caught_round is not None:
        assert game.eliminations[-1] == game.troublemaker
    shown = [*game.reviews.values(), *(a.text for a in game.accusations)]
    assert not any("PLANTED" in text or "[NOTES]" in text for text in shown)


def test_the_bench_prints_every_metric_and_a_game_to_judge() -> None:
    bench = Path(__file__).resolve().parents[2] / "bench" / "fairness.py"
    run = subprocess.run([sys.executable, str(bench), "--games", "12", "--inputs", "4",
                          "--per-seed", "2", "--jobs", "1", "--no-findings", "--show"],
                         capture_output=True, text=True, timeout=120, check=True)
    printed = {line.split()[1] for line in run.stdout.splitlines()
               if line.startswith("metric ")}
    assert printed >= {"surface_top1_review", "surface_top1_all", "ai_jury_catch",
                       "jury_same_across_inputs", "shared_span_share",
                       "votes_own_accuser_tm", "counter_accusation_honest"}
    assert "# the Troublemaker was seat" in run.stdout and "## seat 1" in run.stdout
    assert "# wall time" in run.stdout
