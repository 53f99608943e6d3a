"""Every kind of finding is complete wherever the game speaks of it: what it means, who owns
it, how serious it is, how it is found, its fix in eight wordings (one per seat), a label and
other names for the jury. A topic without a label was once shown to players as its key ("n
plus one"). All of it is one record per topic (topics/), keyed by the Topic enum: no table
keyed by a bare string is left to fall out of step."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.llm.offline import fit, reasons, ruffscan
from tribunalbot.llm.offline.arguments import say
from tribunalbot.llm.offline.phrasebook import DEFAULT_STACKS, OPTIONS, STACKS
from tribunalbot.llm.offline.suspects import SUSPECTS, option_level
from tribunalbot.llm.offline.topic import SEAT_WORDINGS, Topic
from tribunalbot.llm.offline.topics import LINE_RULES, REGISTRY, record

OFFLINE = Path(fit.__file__).parent


def test_every_topic_has_one_record_in_the_enums_order() -> None:
    assert list(REGISTRY) == list(Topic)
    assert all(record(topic.value) is REGISTRY[topic] for topic in Topic)


@pytest.mark.parametrize("topic", list(Topic))
def test_every_topic_has_every_fact(topic: Topic) -> None:
    facts = REGISTRY[topic]
    assert facts.domain in PERSONA_BY_KEY
    assert 1 <= facts.severity <= 5
    assert facts.problem and facts.fix[:1].isupper()
    assert len(facts.wordings) == SEAT_WORDINGS == len(set(facts.wordings))
    assert facts.label and "_" not in facts.label
    assert facts.names.startswith("[") and facts.names.endswith("]")
    assert not facts.ref or re.fullmatch(r"CWE-\d+", facts.ref)
    assert facts.ruff or facts.rules or facts.detectors, "nothing finds it"
    assert bool(facts.reason) == bool(facts.earns), "a reason exactly where it earns an option"
    assert all(family in fit.OFFERED and 1 <= level <= fit.HEAVIEST
               for family, level in facts.earns)
    if facts.needs:  # turning down its own fix is wrong: the fix is one it earns
        family, level = facts.needs
        assert level <= dict(facts.earns)[family]
    assert not facts.juror_fix or facts.juror_fix.startswith("[")


def test_each_code_detector_named_in_a_record_proposes_that_topic() -> None:
    """`detectors` names the modules that find a topic by the code's structure, and those
    modules propose no topic whose record leaves them out."""
    proposed: dict[str, set[Topic]] = {}
    for name in {d for facts in REGISTRY.values() for d in facts.detectors}:
        source = (OFFLINE / f"{name}.py").read_text()
        proposed[name] = {Topic[m] for m in re.findall(r"\bTopic\.(\w+)", source)}
    for topic, facts in REGISTRY.items():
        for name in facts.detectors:
            assert topic in proposed[name], (topic, name)
    for name, topics in proposed.items():
        assert {t for t in topics if name in REGISTRY[t].detectors} == topics, name


def test_ruff_codes_each_mean_one_topic_and_its_forms_are_its_own() -> None:
    listed = [code for facts in REGISTRY.values() for code in facts.ruff]
    assert len(listed) == len(set(listed))
    assert not set(listed) & ruffscan.SILENCED
    for topic, facts in REGISTRY.items():
        for code in facts.ruff:
            assert ruffscan.topic_for(code) == topic
        for code, form in facts.forms:
            assert ruffscan.topic_for(code) == topic and form
            assert facts.form(code) == form


def test_every_pattern_rule_is_listed_under_its_topic() -> None:
    assert len(LINE_RULES) == sum(len(facts.rules) for facts in REGISTRY.values())
    assert {topic for topic, _ in LINE_RULES} == {t for t, f in REGISTRY.items() if f.rules}


def test_the_tables_derived_from_the_records_agree_with_them() -> None:
    for family, table in fit.EARNS.items():
        for topic, level in table.items():
            assert (family, level) in REGISTRY[topic].earns
    assert sum(len(facts.earns) for facts in REGISTRY.values()) == sum(
        len(table) for table in fit.EARNS.values())
    assert {t: f.needs for t, f in REGISTRY.items() if f.needs} == fit.NEEDS
    # The refuters are the plant's: reasons a reader can settle from the lines, each one of a
    # topic that earns an option.
    assert all(REGISTRY[topic].earns for topic in reasons.REFUTERS)


# String constants that equal a topic's value without being one: an import's kind, and the
# name of the eval builtin or command that the eval checks look for.
_NOT_TOPICS = {("imports.py", "third_party"), ("pyfacts.py", "eval"),
               ("vetshell.py", "eval"), ("vetapi.py", "eval")}  # the last: ast.parse's mode


def test_no_topic_is_named_by_a_bare_string() -> None:
    """Outside the enum, code names a topic as Topic.X: a misspelt key fails on import instead
    of silently missing a table."""
    values = {topic.value for topic in Topic}
    stray = []
    for path in sorted([*OFFLINE.glob("*.py"), *OFFLINE.glob("topics/*.py")]):
        if path.name == "topic.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in values:
                name = str(path.relative_to(OFFLINE))
                if (name, node.value) not in _NOT_TOPICS:
                    stray.append((name, node.lineno, node.value))
    assert not stray


def test_no_name_or_fix_reads_as_a_judgment_call() -> None:
    """A finding's words never trip the reader's patterns for heavy advice or a wave-off, so
    an honest seat stating a finding is never read as recommending an option."""
    rng = random.Random(7)
    for topic, facts in REGISTRY.items():
        named = [facts.label, *(say(facts.names, rng) for _ in range(6))]
        assert not any(re.search(r"[\[\]{}|]", n) for n in named), (topic, named)
        for text in [*named, *facts.wordings]:
            hits = [s.family for s in SUSPECTS if s.pattern.search(text)]
            assert not hits or topic in _NAMED_FOR_WHAT_THEY_ARE, (topic, text, hits)


# A topic whose own fix is the option it earns (fit.EARNS): mixing layers earns a narrow
# interface, so saying so is the sound recommendation, at its line, that the reader allows.
_NAMED_FOR_WHAT_THEY_ARE = {Topic.MIXED_LAYERS}


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
