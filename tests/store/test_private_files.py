"""The database holds webhook tokens in plain text: it and its folder are owner-only from the
moment they are made, whatever the umask (issue 25 found 0755 and 0644 under umask 022)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tribunalbot.store.db import check_path


@pytest.fixture
def open_umask() -> Iterator[None]:
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_a_new_database_and_its_folder_are_owner_only(open_umask: None,
                                                      tmp_path: Path) -> None:
    path = check_path(tmp_path / "data" / "tribunal.db")
    assert path.exists() and path.stat().st_size == 0  # SQLite reads it as an empty database
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_an_existing_database_keeps_its_mode(open_umask: None, tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    path.touch(mode=0o640)
    check_path(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # the operator's choice stands
