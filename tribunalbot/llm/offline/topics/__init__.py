"""Every topic's record, in one registry: the one home of what a kind of finding means, how it
is found and vetted, what advice it earns and every wording the game gives it.

The records sit in one module per field of review (security, performance, ...), each keyed by
`Topic`; REGISTRY joins them in the enum's order. What used to be tables keyed by bare
strings (the ruff codes' topics, the pattern rules, the checks, what each topic earns, its
labels, names and reasons) are read from here or derived here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tribunalbot.llm.offline.rules import LineRule
from tribunalbot.llm.offline.topic import Topic, TopicRecord
from tribunalbot.llm.offline.topics import (
    architecture,
    dependencies,
    errors,
    exposure,
    failures,
    performance,
    readability,
    security,
    simplicity,
    testing,
)

_PARTS = (security, exposure, performance, errors, failures, testing, readability,
          dependencies, simplicity, architecture)

REGISTRY: Mapping[Topic, TopicRecord] = MappingProxyType(
    {topic: part.RECORDS[topic] for part in _PARTS for topic in part.RECORDS})


_BY_VALUE: dict[str, TopicRecord] = {topic.value: facts for topic, facts in REGISTRY.items()}


def record(topic: str) -> TopicRecord:
    """The record of `topic` (a Topic, or its value: the two are equal keys)."""
    return _BY_VALUE[topic]


# Every pattern rule with the topic it proposes, in the registry's order (a topic's own rules
# in the order its record lists them: the first one matching a line names the detail).
LINE_RULES: tuple[tuple[Topic, LineRule], ...] = tuple(
    (topic, rule) for topic, facts in REGISTRY.items() for rule in facts.rules)
