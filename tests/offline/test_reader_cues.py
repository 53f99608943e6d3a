"""The jury reads options by the writer's own words: phrasebook marks in each option what names
it and what tells its weight, and the reader's patterns are built from those marks (plus other
authors' words), so a new option needs no second edit in the reader."""

from __future__ import annotations

import re

import pytest

from tribunalbot.llm.offline import phrasebook
from tribunalbot.llm.offline.phrasebook import (
    DEFAULT_STACKS,
    MARKED_OPTIONS,
    OPTIONS,
    STACKS,
    option_cues,
)
from tribunalbot.llm.offline.suspects import SUSPECTS, option_level, option_suspect

_BY_FAMILY = {s.family: s for s in SUSPECTS}
_STACKS = sorted({*DEFAULT_STACKS, *(s for names in STACKS.values() for s in names)})


def _said(family: str) -> list[tuple[int, str, str]]:
    """(level, the option as a review says it, the words it marks as its name) per option
    and stack."""
    found = []
    for level, options in MARKED_OPTIONS[family].items():
        for marked in options:
            name = re.findall(r"\*([^*]+)\*", marked)[0]
            plain = marked.replace("*", "").replace("+", "")
            for stack in _STACKS if "{stack}" in plain else [""]:
                found.append((level, plain.format(stack=stack), name))
    return found


@pytest.mark.parametrize("family", list(OPTIONS))
def test_the_juror_quotes_the_words_the_writer_marked_as_the_options_name(family: str) -> None:
    suspect = _BY_FAMILY[family]
    for level, text, name in _said(family):
        match = suspect.pattern.search(text)
        assert match and match.group(0) == name, (text, name)
        assert option_level(suspect, text) == level, text


def test_every_option_is_marked_and_said_unmarked() -> None:
    for family, levels in MARKED_OPTIONS.items():
        for level, options in levels.items():
            assert all(re.search(r"\*[^*]+\*", o) for o in options), (family, level)
            assert all(not re.search(r"[*+]", o) for o in OPTIONS[family][level])


def test_a_new_option_is_read_at_its_weight_with_no_edit_in_the_reader(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cues follow the table: an option added at level 2 is named and weighed by its own
    marked words."""
    added = {**MARKED_OPTIONS["infrastructure"],
             2: (*MARKED_OPTIONS["infrastructure"][2], "a *job scheduler* for the batch")}
    monkeypatch.setitem(phrasebook.MARKED_OPTIONS, "infrastructure", added)
    assert "job scheduler" in option_cues("infrastructure").names[2]
    suspect = option_suspect("infrastructure", 1.0, "")
    text = "I would move that work onto a job scheduler for the batch."
    assert suspect.pattern.search(text).group(0) == "job scheduler"  # type: ignore[union-attr]
    assert option_level(suspect, text) == 2


def test_a_name_is_read_only_as_whole_words() -> None:
    """A writer's option inside a longer word is not that option: an unbounded queue is no
    bounded queue, `default_factory=list` is no factory, a well-known service no service of
    its own. (The hand-kept patterns before these were built read all three as advice.)"""
    for family, text in (("infrastructure", "an unbounded queue grows forever"),
                         ("abstraction", "field(default_factory=list) keeps a fresh list"),
                         ("infrastructure", "it calls a well-known service")):
        assert not _BY_FAMILY[family].pattern.search(text), text
    plural = _BY_FAMILY["abstraction"].pattern.search("two adapters")
    assert plural and plural.group(0) == "adapters"
