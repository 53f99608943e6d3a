"""The referee held to games a capable model played (tests/recordings/, issue 23): replayed
through the real engine, each must end with no false honest mistake, no sound reply refused, no
verdict item drawn from the Troublemaker's review or its plant, no fragment, and the game's
strongest finding kept. The corpus: two games recorded before this judge was written (filecmp,
bandit) and six more played through the model relay on code nobody here wrote (gzip's znew,
npm's dist-tag.js, Python's netrc.py in German, a real tomli change, bash's realpath.c, Python's
sched.py), every disguise among them, then more; the `*-split-*` games were played by three
players who saw only their own calls (bench/relay_seats.py), so the jury was blind."""

from __future__ import annotations

import re
from functools import cache

import pytest

from tests.referee.corpus import GAMES, Replayed, plant_spans, replay, spans
from tribunalbot.engine import claims
from tribunalbot.engine import events as ev
from tribunalbot.engine.rules import is_planted

# Findings a careful reader of each game named its strongest (the helpers who played the model,
# reading the code; see the session note): some words of it must stand in the verdict.
STRONGEST = {
    "bandit-diff-seed5": "O(n²)",  # the `node in keys` scan at :93-96
    "znew-seed6": "Corrupt input under -P",  # line 100: a failed decompress deletes the .Z
    "netrc-german-seed9": "readline()",  # lines 90/100/127: reported line numbers drift
    "realpath-seed16": "is never checked",  # line 23: a failed write still returns success
    # named by the blind panel (batch 4, judged before any tuning on those games)
    "getopt-seed9": "--=foo",  # line 172: `--=foo` silently becomes `--alpha`
    "bzgrep-seed2": "ranks 1 above 0",  # line 131: one silent file buries every success
    "idna-diff-seed13": ":243-245",  # the bare ValueError that escapes since the change
    "fnmatch-seed12": "Path traversal",  # the Troublemaker's own real finding: `*` crosses `/`
    # the one correctness bug of quopri.py: three seats' players checked it by running it
    "quopri-seed43": "Line 98 slices",  # a soft break cuts an `=XX` escape in half
    # a blind reader's pick of ten (reproduced: a module named `a[b].py` loses other
    # modules' caches to the unescaped pattern at line 101)
    "py3clean-split-seed11": "glob.escape()",
    # the blind reader's picks, reproduced: `npm rebuild -w a` rebuilt every workspace;
    # `c_rehash d1 d2` with one certificate in both left d2 with no links, exit 0
    "rebuild-split-seed7": "`workspaces: this.workspaceNames` commented out",
    "c_rehash-split-seed23": "Leaky registry",
    # reproduced: `<<: [*a, *b]` now loads b's value for a shared key, a's for one-letter keys
    "yaml-merge-diff-split-seed14": "the identity of the key's string",
    # lines 63/67/68 ignore the helper's own argument and read the caller's leaked variables
    "ucf-split-seed31": "Line 63 ignores the function's own argument",
}


@cache
def played(name: str) -> Replayed:
    return replay(name)


def test_the_corpus_has_every_disguise_a_diff_and_two_other_languages() -> None:
    games = [played(name) for name in GAMES]
    assert len(games) >= 8
    assert {g.revealed.strategy for g in games} == {
        "deep_thinker", "blockchain", "rewrite_it", "its_perfect", "let_ai_do_it"}
    assert sum(g.setup.language == "diff" for g in games) >= 2
    assert len({g.setup.language for g in games} - {"python", "diff", "text"}) >= 2
    assert any(g.setup.settings.language == "German" for g in games)
    # a jury that cross-examines (DESIGN §2.2), and a tribunal that reaches its third round
    assert any(g.setup.settings.cross_examined for g in games)
    assert any(e.round == 3 for g in games for e in g.result.events
               if isinstance(e, ev.Elimination))


def test_a_point_the_jury_voted_an_honest_seat_out_for_is_not_in_the_verdict() -> None:
    """py3clean: seat 3 advised moving line 31's `sys.path.insert` into `main()`, which
    breaks the module-level imports at lines 32-34; three accusations quoted it and the
    jury voted seat 3 out in round 2. The verdict listed it first."""
    game = played("py3clean-split-seed11")
    out = {e.round: e.seat for e in game.result.events if isinstance(e, ev.Elimination)}
    assert out[2] == 3 and game.revealed.troublemaker != 3
    assert not [item for item in game.revealed.verdict if "Move both into `main()`" in item]
    assert any("`sys.path.insert`" in s for s in game.statements[3].text.split("\n"))


@pytest.mark.parametrize("name", GAMES)
def test_every_recorded_game_replays_to_the_reveal(name: str) -> None:
    game = played(name)
    assert not game.llm.missing  # every call found its recorded reply
    assert not game.revealed.stand_ins  # and every reply was usable


# The honest mistakes a reader confirmed in the corpus, by game and seat: in the owner game
# seat 1's review was one written for another file (a reply misrouted between two games played
# at once), as a model that mixed up its inputs or made the code up would write it.
REAL_MISTAKES = {"owner-split-seed69": {1: 5}}


@pytest.mark.parametrize("name", GAMES)
def test_no_honest_reviewer_is_charged_with_a_mistake_it_did_not_make(name: str) -> None:
    """Every honest mistake the old judge charged on these games was checked by reading the
    code: none was a mistake (names cited with their range, call examples, proposed code,
    negations, prose, a quote masked to x's, an example input at its line)."""
    revealed = played(name).revealed
    charged: dict[int, int] = {}
    for error in revealed.honest_errors:
        charged[error.seat] = charged.get(error.seat, 0) + 1
    assert charged == REAL_MISTAKES.get(name, {})
    assert {c.target for c in revealed.fair_catches} <= set(REAL_MISTAKES.get(name, {}))


def test_a_review_of_other_code_is_charged_and_kept_out_of_the_verdict() -> None:
    """Seat 1 of the owner game reviews Python's tabnanny (`errprint`, `NannyNag`, `-q`) in a
    game on npm's owner.js: each of its claims quoting names this code has nowhere is an honest
    mistake, and none of them is a finding worth acting on."""
    revealed = played("owner-split-seed69").revealed
    problems = " ".join(e.problem for e in revealed.honest_errors)
    for name in ("errprint", "NannyNag", "filename_only"):
        assert f"`{name}" in problems and "nowhere in the code" in problems
    verdict = " ".join(revealed.verdict)
    assert not re.search(r"errprint|NannyNag|filename_only|get_lineno", verdict)
    # and a citation past the end is charged as before
    assert "line 310 does not exist" in problems


def test_one_example_that_names_nothing_in_the_code_is_no_mistake() -> None:
    """zforce's seat 5 gives an input as an example at its line ("`FOO.GZ` (line 50 is
    case-sensitive...)"): one such quote in a review is an example, not other code."""
    assert played("zforce-seed21").revealed.honest_errors == ()


@pytest.mark.parametrize("name", GAMES)
def test_no_sound_reply_is_refused(name: str) -> None:
    assert played(name).revealed.rejected_replies == 0


@pytest.mark.parametrize("name", GAMES)
def test_the_verdict_takes_nothing_from_the_plant(name: str) -> None:
    """The plant is struck whole: no item shares eight words with the Troublemaker's points
    that hold a planted claim (their lead-ins with them). Where its notes do not name the plant
    word for word, nothing of its review is taken at all."""
    game = played(name)
    planted = [e.claim for e in game.revealed.ledger]
    theirs = plant_spans(game)
    for item in game.revealed.verdict:
        assert not is_planted(item, planted), item
        assert not spans(item) & theirs, item


@pytest.mark.parametrize("name", GAMES)
def test_the_verdict_holds_whole_findings_without_praise(name: str) -> None:
    verdict = played(name).revealed.verdict
    assert 3 <= len(verdict) <= 10
    for item in verdict:
        assert len(item.split()) >= 8, item  # no heading, no fragment
        assert not re.match(r"(?i)(?:but|and|also|ebenso|zudem|so|then)\b", item), item
        assert not re.match(r"(?i)(?:credit where|one thing done right|positiv)", item), item
        assert not item.endswith("?"), item


@pytest.mark.parametrize("name", sorted(STRONGEST))
def test_the_strongest_finding_is_kept(name: str) -> None:
    verdict = played(name).revealed.verdict
    assert any(STRONGEST[name] in item for item in verdict), verdict


# ---- the judge still catches what is demonstrably wrong, in the recorded text ---------------

def _errors(game: Replayed, seat: int, text: str) -> list[str]:
    code = claims.Code(game.setup.code, game.setup.change)
    statements = {seat: ev.Statement(seat=seat, text=text)}
    return [e.problem for e in claims.honest_errors(code, statements, (), 0, ())]


def test_a_recorded_quote_moved_ten_lines_is_an_honest_mistake() -> None:
    game = played("filecmp-seed1")
    text = game.statements[1].findings  # the Error Philosopher's review
    assert "(line 137)" in text and not _errors(game, 1, text)
    # the same sentence quoting the code of line 137 whole, and then citing it ten lines off
    quoted = text.replace("`phase0` (line 137)", "`os.listdir(self.left)` (line 137)")
    assert not _errors(game, 1, quoted)
    moved = quoted.replace("(line 137)", "(line 147)")
    assert any("`os.listdir(self.left)` is not on line 147 (it is at line 137)" in p
               for p in _errors(game, 1, moved))


def test_a_recorded_citation_past_the_end_is_an_honest_mistake() -> None:
    game = played("realpath-seed16")
    seat = next(s for s, st in game.statements.items() if "Line 23" in st.findings)
    text = game.statements[seat].findings.replace("Line 23", "Line 93")
    assert "line 93 does not exist (the code has 43 lines)" in _errors(game, seat, text)


def test_a_recorded_quote_cited_in_the_wrong_file_of_a_diff_is_an_honest_mistake() -> None:
    game = played("bandit-diff-seed5")
    text = ("bandit/plugins/injection_sql.py:104: `if isinstance(value_node, ast.Constant):` "
            "never checks that `.value` is a `str`.")
    right = text.replace("injection_sql.py:104", "general_hardcoded_password.py:102")
    assert not _errors(game, 1, right)
    assert any("is not on bandit/plugins/injection_sql.py:104" in p and
               "general_hardcoded_password.py" in p for p in _errors(game, 1, text))
