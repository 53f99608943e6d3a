"""The collector's settings for a bot process: what start-up built is frozen out of later
collections, young collections come less often, and a second call changes nothing."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from tribunalbot.bot import GC_THRESHOLDS, tune_garbage_collector


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector put back as it was (frozen objects thawed, the thresholds restored)."""
    thresholds = gc.get_threshold()
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_start_up_objects_are_frozen_and_young_collections_rarer(collector: None) -> None:
    assert gc.get_freeze_count() == 0
    tune_garbage_collector()
    assert gc.get_freeze_count() > 1000  # every module, class and function imported so far
    assert gc.get_threshold() == GC_THRESHOLDS
    assert GC_THRESHOLDS[0] > 700  # CPython's default young generation


def test_a_second_call_freezes_nothing_more(collector: None) -> None:
    tune_garbage_collector()
    frozen = gc.get_freeze_count()
    made_since = [[n] for n in range(1000)]  # objects the collector tracks
    tune_garbage_collector()
    assert gc.get_freeze_count() == frozen
    assert len(made_since) == 1000
