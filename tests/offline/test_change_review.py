"""The offline reviewer on a change: it reads the post-change text of each file, cites
`path:line` of the new code, says what the change wrote first, never a removed line."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from tribunalbot.diffs import Change, parse_diff
from tribunalbot.engine.personas import STRATEGIES
from tribunalbot.llm.base import OfflineHints, Prompt, SeatRole, Task
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.changes import analyze_change
from tribunalbot.llm.offline.evidence import contradictions
from tribunalbot.llm.offline.review import domain_order, select_findings
from tribunalbot.llm.offline.voice import voice_for
from tribunalbot.llm.replies import parse_review

from .conftest import DIFF_NAMES, SEATS, source
from .selfplay import play

CITED = re.compile(r"`([\w./-]+):(\d+)`")
BARE_LINE = re.compile(r"\blines? \d+", re.I)


@cache
def change_of(name: str) -> Change:
    return parse_diff(source(name))


def cited(text: str) -> list[tuple[str, int]]:
    return [(path, int(n)) for path, n in CITED.findall(text)]


def speak(name: str, seat: int, role: SeatRole | None = None) -> Prompt:
    return Prompt("shared", "personal", Task(
        kind="speak", game_id="g", seat=seat, persona=SEATS[seat],
        role=role or SeatRole(),
        hints=OfflineHints(code=source(name), language="diff", change=change_of(name),
                           personas=SEATS)))


def test_there_are_two_multi_file_example_changes() -> None:
    assert len(DIFF_NAMES) >= 2
    assert all(len(change_of(name).files) >= 2 for name in DIFF_NAMES)


@pytest.mark.parametrize("name", DIFF_NAMES)
def test_findings_sit_on_new_lines_and_changed_lines_rank_first(name: str) -> None:
    change = change_of(name)
    analysis = analyze_change(change)
    assert analysis.findings
    for finding in analysis.findings:
        found = analysis.places.locate(finding.line)
        assert found is not None
        span, line = found
        file = next(f for f in change.files if f.path == span.path)
        assert line in file.new_lines()  # a line of the new code, never a removed one
        assert finding.changed == (line in file.changed_lines())
    ranked = [f.changed for f in analysis.ranked()]
    assert ranked == sorted(ranked, reverse=True)  # every changed line before any other


@pytest.mark.parametrize("name", DIFF_NAMES)
async def test_every_review_cites_path_line_of_the_new_code(llm: OfflineLLM,
                                                             name: str) -> None:
    change = change_of(name)
    shown = {(f.path, n) for f in change.files for n in f.new_lines()}
    for seat in SEATS:
        text = (await llm.generate(speak(name, seat))).text
        reply = parse_review(text)
        assert reply.well_formed
        places = cited(reply.public)
        # Its findings said (a small change has few) and its call: each a line of new code.
        assert len(places) >= 2, reply.public
        assert set(places) <= shown, reply.public
        assert not BARE_LINE.search(reply.public), reply.public  # no number of no file
        assert not re.search(r"\d{7}", text)  # the analysis's own numbers stay inside


async def test_a_troublemakers_planted_claim_cites_the_new_code(llm: OfflineLLM) -> None:
    name = DIFF_NAMES[0]
    shown = {(f.path, n) for f in change_of(name).files for n in f.new_lines()}
    for seat, strategy in zip(SEATS, STRATEGIES, strict=False):
        reply = parse_review((await llm.generate(
            speak(name, seat, SeatRole(troublemaker=True, strategy=strategy.key)))).text)
        (claim,) = reply.planted
        assert claim.claim in reply.public  # the ledger quotes what was said
        assert set(cited(claim.claim)) <= shown and set(cited(claim.why_wrong)) <= shown


DIFF_REMOVING_A_BUG = """\
diff --git a/app/find.py b/app/find.py
--- a/app/find.py
+++ b/app/find.py
@@ -1,4 +1,4 @@
 def find(db, name):
-    rows = db.execute(f"SELECT * FROM users WHERE name = '{name}'")
+    rows = db.execute("SELECT * FROM users WHERE name = ?", (name,))
     return rows.fetchall()

diff --git a/app/calc.py b/app/calc.py
--- a/app/calc.py
+++ b/app/calc.py
@@ -10,3 +10,4 @@ def total(items):
     for item in items:
         result += item.price
-    return eval(request.args["expr"])
+    value = eval(request.args["expr"])
+    return value
"""


async def test_a_removed_line_is_never_reviewed_as_current_code(llm: OfflineLLM) -> None:
    change = parse_diff(DIFF_REMOVING_A_BUG)
    analysis = analyze_change(change)
    topics = {(analysis.places.label(f.line), f.topic) for f in analysis.findings}
    assert not any(t == "sql_injection" for _, t in topics)  # it was removed
    assert ("`app/calc.py:12`", "eval") in topics  # the new line of the new file
    prompt = Prompt("s", "p", Task(kind="speak", game_id="g", seat=2, persona=SEATS[2],
                                   hints=OfflineHints(code=DIFF_REMOVING_A_BUG, language="diff",
                                                      change=change, personas=SEATS)))
    text = (await llm.generate(prompt)).text
    assert "app/find.py:2`" not in text or "SQL" not in text
    assert "app/calc.py:12" in text


@pytest.mark.parametrize("name", DIFF_NAMES)
async def test_the_plant_is_the_strongest_evidence_on_a_change(name: str) -> None:
    llm = OfflineLLM()
    analysis = analyze_change(change_of(name))
    for strategy in STRATEGIES:
        game = await play(llm, source(name), 3, strategy=strategy.key, rounds=1)
        weights = {s: sum(c.weight for c in contradictions(analysis.places.uncite(t), analysis))
                   for s, t in game.statements.items()}
        honest = [w for s, w in weights.items() if s != game.troublemaker]
        assert max(honest) < 1.0, (strategy.key, weights)
        assert weights[game.troublemaker] >= 2.0, (strategy.key, game.statements)


@pytest.mark.parametrize("name", DIFF_NAMES)
async def test_debates_quote_exactly_and_cite_the_new_code(name: str) -> None:
    shown = {(f.path, n) for f in change_of(name).files for n in f.new_lines()}
    for seed in range(3):
        game = await play(OfflineLLM(), source(name), seed)
        for _seat, reply in game.debates:
            assert reply.quote and reply.quote in game.statements[reply.target]
            assert reply.quote in reply.argument
            assert cited(reply.argument) and set(cited(reply.argument)) <= shown
        for _seat, vote in game.votes:
            assert not re.search(r"\d{7}", vote.reason)


async def test_a_bare_line_number_is_read_as_the_one_file_that_has_it() -> None:
    analysis = analyze_change(parse_diff(DIFF_REMOVING_A_BUG))
    places = analysis.places
    # app/calc.py shows lines 10-13; app/find.py shows 1-4: line 12 is calc.py's alone.
    assert places.cite(places.uncite("Line 12 calls eval.")) == "`app/calc.py:12` calls eval."
    assert places.cite(places.uncite("line 2 is fine")) == "`app/find.py:2` is fine"
    assert places.uncite("line 7 is fine") == "line 7 is fine"  # no file shows a line 7
    assert places.cite(places.uncite("See `app/find.py:3`.")) == "See `app/find.py:3`."
    assert not analysis.has_line(places.spans[0].offset + 9)  # not shown by the change


@pytest.mark.parametrize("persona", sorted(set(SEATS.values())))
def test_every_persona_picks_what_the_change_wrote_before_its_context(persona: str) -> None:
    analysis = analyze_change(change_of("session_store.diff"))
    written = [f for f in analysis.findings if f.changed]
    assert len(written) >= 3 and any(not f.changed for f in analysis.findings)
    task = Task(kind="speak", persona=persona)
    picks = select_findings(analysis, domain_order(task, voice_for(persona), analysis), 3,
                            random.Random(1))
    assert len(picks) == 3 and all(f.changed for f in picks), picks


def _added(path: str, body: str) -> str:
    lines = body.splitlines()
    hunk = "".join(f"+{line}\n" for line in lines)
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n"
            f"+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n{hunk}")


def test_a_packages_init_in_a_change_keeps_its_imports_for_importers() -> None:
    body = "import json\nfrom .models import User\n\n\ndef load(text):\n    return text\n"
    front = analyze_change(parse_diff(_added("shop/__init__.py", body)))
    module = analyze_change(parse_diff(_added("shop/views.py", body)))
    assert not any(f.topic.value == "unused_import" for f in front.findings)
    assert any(f.topic.value == "unused_import" for f in module.findings)
