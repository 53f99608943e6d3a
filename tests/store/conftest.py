from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tribunalbot.store import Store, open_store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(tmp_path / "tribunal.db") as opened:
        yield opened
