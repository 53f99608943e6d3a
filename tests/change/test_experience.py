"""Experience from a change: embedded by its post-change hunks, found by a similar later
change, and remembered with its file paths."""

from __future__ import annotations

from pathlib import Path

from tests.engine.scripts import RecordingTable
from tribunalbot.config import GameSettings
from tribunalbot.engine.experience import distill
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.store import open_store
from tribunalbot.store.embedding import embed

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def a_change(removed: str, added: str, path: str = "svc/orders.py") -> str:
    return (f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
            "@@ -1,3 +1,3 @@\n def total(db, order_id):\n"
            f"-    {removed}\n+    {added}\n     return rows\n")


ADDED = 'rows = db.execute(f"SELECT price FROM items WHERE order_id = {order_id}")'


def test_removed_lines_and_diff_markup_do_not_count() -> None:
    one = a_change("rows = legacy_cache.fetch_everything_for(order_id)", ADDED)
    two = a_change("return sum(heavy_pipeline.run(order_id))", ADDED)
    assert embed(one, "diff") == embed(two, "diff")
    new_side = "svc/orders.py\ndef total(db, order_id):\n    " + ADDED + "\n    return rows\n"
    assert embed(one, "diff") == embed(new_side, "python")  # what the change leaves behind
    assert embed(one, "diff") != embed(one, "python")  # plain code stays plain text


async def test_a_similar_later_change_finds_the_earlier_game(tmp_path: Path) -> None:
    setup = GameSetup("gx", (EXAMPLES / "session_store.diff").read_text(), "diff", 4,
                      GameSettings(max_rounds=1, event_chance=0.0, vote_window_seconds=0))
    llm = OfflineLLM()
    result = await run_game(setup, llm, RecordingTable())
    record = await distill(llm, setup, result.events)
    assert record.files == ["app/sessions.py", "app/settings.py", "tests/test_sessions.py"]
    assert record.language == "diff" and "change to app/sessions.py" in record.code_pattern
    later = a_change("return json.loads(row[0])",
                     "return pickle.loads(base64.b64decode(row[0]))", "app/sessions.py")
    async with open_store(tmp_path / "t.db") as store:
        await store.save_experience("", record, code=setup.code)
        other = record.model_copy(update={"code_pattern": "go worker pool", "files": []})
        await store.save_experience("", other, code=(EXAMPLES / "worker_pool.go").read_text())
        found = await store.similar_experiences("", later, 2, language="diff")
        assert [r.files for r in found] == [record.files, []]  # nearest first, paths kept
