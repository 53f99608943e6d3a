"""The verdict on shapes of text capable models wrote (each seen in a recorded game)."""

from __future__ import annotations

from tribunalbot.engine import events as ev
from tribunalbot.engine.verdict import verdict


def _verdict(*reviews: str, troublemaker: int | None = None,
             planted: tuple[str, ...] = ()) -> tuple[str, ...]:
    statements = {n: ev.Statement(seat=n, text=t) for n, t in enumerate(reviews, 1)}
    return verdict(statements, list(planted), troublemaker=troublemaker)


def test_a_changes_line_cited_without_its_path_is_the_last_file_cited() -> None:
    review = ("1. idna/core.py:153-157 fix the scan: the loop now stops at the first joiner.\n\n"
              "2. :246-247 still calls `valid_contexto` once per code point, quadratic on long "
              "labels; bound it.")
    found = _verdict(review)
    assert any(v.startswith(":246-247 still calls") for v in found), found


def test_a_one_line_introduction_before_a_numbered_list_is_no_finding() -> None:
    review = ("The next developer will spend an hour on lines 41-81.\n\n"
              "1. Line 69 quietly turns `grep` into `egrep` when `-e` is given; drop it.\n"
              "2. Line 131 ranks 1 above 0, so one silent file buries every success; fix it.")
    found = _verdict(review)
    assert len(found) == 2 and not any("spend an hour" in v for v in found)


def test_praise_clearances_and_no_action_points_stay_out() -> None:
    review = ("1. Credit: the comment on line 37 explains the null check well.\n\n"
              "2. `list` (lines 113-134) is where I'd look for leaks, and there is no real one.\n\n"
              "3. Lines 3-4 repeat one line of setup; leave it.\n\n"
              "4. Line 9 costs one dict lookup per call. Acceptable.\n\n"
              "5. Line 12 builds SQL from request input (CWE-89); bind it as a parameter.")
    assert _verdict(review) == ("Line 12 builds SQL from request input (CWE-89); bind it as a "
                                "parameter.",)


def test_the_troublemakers_real_findings_stand_only_when_its_plant_is_named_word_for_word(
        ) -> None:
    honest = "1. Line 40 swallows every error; log it and re-raise."
    saboteur = ("1. Line 12 builds SQL from request input (CWE-89); bind it as a parameter.\n\n"
                "2. Line 30 should move behind a plugin registry so new stores slot in later.")
    named = "Line 30 should move behind a plugin registry so new stores slot in later."
    found = _verdict(honest, saboteur, troublemaker=2, planted=(named,))
    assert any(v.startswith("Line 12 builds SQL") for v in found)
    assert not any("registry" in v for v in found)  # the plant, struck whole
    paraphrased = _verdict(honest, saboteur, troublemaker=2,
                           planted=("a registry would help at line 30",))
    assert paraphrased == ("Line 40 swallows every error; log it and re-raise.",)


def test_the_embed_shows_findings_by_whole_sentences_and_counts_the_rest() -> None:
    from tests.referee.corpus import replay
    from tribunalbot.discordbot.render import FIELD_VALUE, verdict_text

    revealed = replay("bandit-diff-seed5").revealed
    shown = verdict_text(revealed)
    assert len(shown) <= FIELD_VALUE
    lines = shown.splitlines()
    assert lines[-1].startswith("… and ") and lines[-1].endswith("more (in the transcript)")
    for line, item in zip(lines[:-1], revealed.verdict, strict=False):
        text = line.removeprefix("• ")
        if text.endswith(" …"):  # its first whole sentences, the rest in the transcript
            assert item.startswith(text.removesuffix(" …")) and text[-3] in ".!?:;)`"
        elif text.endswith("…"):  # a first sentence longer than an embed line, clipped
            assert item.startswith(text.removesuffix("…"))
        else:
            assert text == item
    assert verdict_text(revealed, full=True).count("• ") == len(revealed.verdict)
