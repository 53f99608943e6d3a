"""Every kind of finding is complete wherever the game speaks of it: what it means, who owns
it, how serious it is, its fix in eight wordings (one per seat), a label and other names for
the jury. A topic without a label was once shown to players as its key ("n plus one")."""

from __future__ import annotations

import random
import re

from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.llm.offline.arguments import say
from tribunalbot.llm.offline.debate_phrases import LABELS
from tribunalbot.llm.offline.evidence import SUSPECTS, option_level
from tribunalbot.llm.offline.fixwords import fix_wordings
from tribunalbot.llm.offline.phrasebook import DEFAULT_STACKS, OPTIONS, STACKS
from tribunalbot.llm.offline.rephrase import ALIASES
from tribunalbot.llm.offline.topicnames import NAMES
from tribunalbot.llm.offline.topics import TOPICS


def test_every_topic_has_every_fact() -> None:
    assert set(NAMES) == set(TOPICS) == set(LABELS) == set(ALIASES)
    for key, topic in TOPICS.items():
        assert topic.domain in PERSONA_BY_KEY, key
        assert 1 <= topic.severity <= 5, key
        assert topic.problem and topic.fix[:1].isupper(), key
        words = fix_wordings(key)
        assert len(words) == 8 and len(set(words)) == 8, key
        label, names = NAMES[key]
        assert "_" not in label and names.startswith("[") and label, key


def test_no_name_or_fix_reads_as_a_judgment_call() -> None:
    """A finding's words never trip the reader's patterns for heavy advice or a wave-off, so
    an honest seat stating a finding is never read as recommending an option."""
    rng = random.Random(7)
    for key in TOPICS:
        label, names = NAMES[key]
        named = [label, *(say(names, rng) for _ in range(6))]
        assert not any(re.search(r"[\[\]{}|]", n) for n in named), (key, named)
        for text in [*named, *fix_wordings(key)]:
            hits = [s.family for s in SUSPECTS if s.pattern.search(text)]
            assert not hits or key in _NAMED_FOR_WHAT_THEY_ARE, (key, text, hits)


# A topic whose own fix is the option it earns (fit.EARNS): mixing layers earns a narrow
# interface, so saying so is the sound recommendation, at its line, that the reader allows.
_NAMED_FOR_WHAT_THEY_ARE = {"mixed_layers"}


def test_the_reader_reads_every_option_the_writer_can_name_at_its_weight() -> None:
    """The jury's patterns follow the writer's table: every option a review can name is read
    as its family at its level, with every stack a rewrite may name; a new option the reader
    does not know would be a plant nobody could catch, or an honest call read as one."""
    family_of = {s.family: s for s in SUSPECTS}
    stacks = {*DEFAULT_STACKS, *(s for names in STACKS.values() for s in names)}
    for family, levels in OPTIONS.items():
        for level, options in levels.items():
            for option in options:
                for stack in sorted(stacks) if "{stack}" in option else [""]:
                    text = option.format(stack=stack)
                    assert family_of[family].pattern.search(text), (family, text)
                    assert option_level(family_of[family], text) == level, (family, text)
