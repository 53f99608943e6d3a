"""What reviewers see of a change: per file its path, language and hunks with the new line
numbers, removed lines marked and unnumbered, the files left out; one shared prefix for all."""

from __future__ import annotations

from pathlib import Path

from tribunalbot.config import GameSettings
from tribunalbot.diffs import parse_diff
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.engine.prompts import show_change
from tribunalbot.engine.verdict import verdict
from tribunalbot.inputs.submission import check_code
from tribunalbot.llm.offline import OfflineLLM

from .scripts import RecordingTable, scripted

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "session_store.diff"
DIFF = """\
diff --git a/app/db.py b/app/db.py
--- a/app/db.py
+++ b/app/db.py
@@ -8,4 +8,5 @@ def find(db, name):
     conn = db.connect()
-    rows = conn.execute("SELECT * FROM u WHERE n = ?", (name,))
+    query = f"SELECT * FROM u WHERE n = '{name}'"
+    rows = conn.execute(query)
     return rows

diff --git a/web/page.js b/web/page.js
new file mode 100644
--- /dev/null
+++ b/web/page.js
@@ -0,0 +1,2 @@
+const el = document.getElementById("out");
+el.innerHTML = location.hash;
"""


def change_setup(code: str = DIFF, seed: int = 3) -> GameSetup:
    sub = check_code(code.encode(), "pr.diff", 40_000)
    return GameSetup("gc", sub.code, sub.language, seed,
                     GameSettings(max_rounds=1, event_chance=0.0, vote_window_seconds=0))


def test_the_change_is_shown_with_new_numbers_and_removed_lines_marked() -> None:
    text = show_change(parse_diff(DIFF))
    assert text.startswith("THE CHANGE UNDER REVIEW: 2 files, 4 line(s) added, 1 removed.")
    assert "Review the change" in text and "never cite it as current code" in text
    assert "e.g. app/db.py:9" in text
    assert "FILE app/db.py (python, modified: +2 -1)" in text
    assert "FILE web/page.js (javascript, new file: +2 -0)" in text
    lines = text.splitlines()
    assert " 8 |     conn = db.connect()" in lines
    assert "   -     rows = conn.execute(\"SELECT * FROM u WHERE n = ?\", (name,))" in lines
    assert " 9 +     query = f\"SELECT * FROM u WHERE n = '{name}'\"" in lines
    assert "10 +     rows = conn.execute(query)" in lines
    assert "11 |     return rows" in lines


def test_files_left_out_are_named_to_the_reviewers() -> None:
    change = parse_diff(DIFF)
    text = show_change(change.__class__(change.files[:1], omitted=("web/page.js",)))
    assert "Left out of this review, too large for one game (do not guess at them): " \
           "web/page.js." in text


async def test_every_player_shares_one_prefix_holding_the_change() -> None:
    setup = change_setup()
    assert setup.change is not None and setup.language == "diff"
    llm = scripted()
    await run_game(setup, llm, RecordingTable())
    speak = [p for p in llm.calls if p.task.kind == "speak"]
    assert len(speak) >= 8 and len({p.shared for p in speak}) == 1  # cacheable, as for code
    shared = speak[0].shared
    assert shared.index("THE CHANGE UNDER REVIEW") < shared.index("THE PANEL")
    assert "CODE UNDER REVIEW (" not in shared  # not the diff's text numbered as code
    assert all("citing path:line" in p.personal for p in speak)
    assert all(p.task.hints.change == setup.change for p in llm.calls)
    later = [p for p in llm.calls if p.task.kind in ("debate", "vote")]
    assert later and all(p.shared.startswith(shared) for p in later)  # prefixes extend


def test_plain_code_is_shown_as_before() -> None:
    setup = GameSetup("gp", "x = 1\n", "python", 1)
    assert setup.change is None


def test_the_verdict_reads_path_line_citations() -> None:
    statements = {
        1: ev.Statement(seat=1, text="`app/db.py:9` builds SQL from input (CWE-89). "
                        "I would leave `web/page.js:1` alone."),
        2: ev.Statement(seat=2, text="At `web/page.js:2` the page writes the hash into "
                        "innerHTML."),
        3: ev.Statement(seat=3, text="Outside my beat, `app/db.py:9` is injectable."),
    }
    found = verdict(statements, [])
    assert found[0].startswith("`app/db.py:9` builds SQL")
    assert any(v.startswith("At `web/page.js:2`") for v in found)
    assert not any("web/page.js:1" in v for v in found)  # a dismissal is no finding
    assert len([v for v in found if "app/db.py:9" in v]) == 1  # one line, one entry


async def test_an_offline_game_on_a_real_diff_cites_the_new_code_to_the_end() -> None:
    setup = change_setup(EXAMPLE.read_text(), seed=5)
    assert setup.change is not None
    result = await run_game(setup, OfflineLLM(), RecordingTable())
    shown = {f"{f.path}:{n}" for f in setup.change.files for n in f.new_lines()}
    cited = [c for c in shown if any(c in v for v in result.revealed.verdict)]
    assert cited and all("`" in v for v in result.revealed.verdict)
    for entry in result.revealed.ledger:
        assert any(c in entry.claim for c in shown), entry.claim
    started = next(e for e in result.events if isinstance(e, ev.GameStarted))
    assert started.language == "diff"
