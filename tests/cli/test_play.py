"""`tribunalbot play` end to end with the offline provider: real ruff, real SQLite."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tribunalbot.terminal.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.is_file())


def play(tmp_path: Path, *args: str) -> int:
    return main(["play", *args, "--db", str(tmp_path / "t.db")])


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_there_are_at_least_six_examples_in_two_languages() -> None:
    assert len(EXAMPLES) >= 6
    assert {p.suffix for p in EXAMPLES} & {".js", ".ts", ".go"}
    assert ".py" in {p.suffix for p in EXAMPLES}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_every_example_plays_to_the_reveal(example: Path, tmp_path: Path, capsys) -> None:
    transcript = tmp_path / "game.jsonl"
    code = play(tmp_path, str(example), "--provider", "offline", "--vote", "none",
                "--transcript", str(transcript), "--seed", "11")
    out = capsys.readouterr().out
    assert code == 0
    records = read_jsonl(transcript)
    assert records[-1]["kind"] == "revealed"
    kinds = {r["kind"] for r in records}
    assert {"game_started", "statement", "accusation", "ai_votes", "elimination"} <= kinds
    assert "dealt" not in kinds  # private records never reach a transcript
    assert stat.S_IMODE(transcript.stat().st_mode) == 0o600  # owner-only whatever the umask
    assert all("notes" not in r and "planted" not in r for r in records if r["kind"] in
               ("statement", "accusation"))
    assert "The Troublemaker was" in out and "Replay this game with --seed 11" in out


def test_the_security_guardian_raises_the_sql_injection(tmp_path: Path, capsys) -> None:
    example = ROOT / "examples" / "user_lookup.py"
    transcript = tmp_path / "game.jsonl"
    for seed in ("1", "2", "3"):
        assert play(tmp_path, str(example), "--vote", "none", "--seed", seed,
                    "--transcript", str(transcript)) == 0
        records = read_jsonl(transcript)
        seat = next(p["seat"] for p in records[0]["players"]
                    if p["persona"] == "security_guardian")
        review = next(r["text"] for r in records if r["kind"] == "statement"
                      and r["seat"] == seat)
        assert "SQL" in review and ("injection" in review.lower() or "CWE-89" in review)
    capsys.readouterr()


def test_the_same_seed_replays_the_same_game(tmp_path: Path, capsys) -> None:
    example = str(ROOT / "examples" / "user_lookup.py")
    logs = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        assert main(["play", example, "--seed", "99", "--vote", "none", "--no-db",
                     "--transcript", str(path)]) == 0
        logs.append([{k: v for k, v in r.items() if k not in ("at", "game_id", "ballot")}
                     for r in read_jsonl(path)])
    assert logs[0] == logs[1]
    capsys.readouterr()


def test_a_seat_vote_is_scored(tmp_path: Path, capsys) -> None:
    transcript = tmp_path / "game.jsonl"
    assert play(tmp_path, str(EXAMPLES[0]), "--vote", "2", "--seed", "4",
                "--transcript", str(transcript)) == 0
    reveal = read_jsonl(transcript)[-1]
    (score,) = reveal["scores"]
    assert score["seat"] == 2 and score["correct"] == (reveal["troublemaker"] == 2)
    capsys.readouterr()


@pytest.mark.parametrize(("content", "message"), [
    (None, "does not exist"),
    (b"", "is empty"),
    (b"   \n\n", "is empty"),
    (b"x = 1\n" * 10_000, "the limit is 40,000 bytes"),
    (b"\x7fELF\x00\x01\x02", "looks like a binary file"),
    (b"caf\xe9 = 1\n", "is not UTF-8 text"),
])
def test_bad_input_fails_in_one_line_before_any_call(tmp_path: Path, capsys, content,
                                                      message: str) -> None:
    path = tmp_path / "code.py"
    if content is not None:
        path.write_bytes(content)
    assert play(tmp_path, str(path), "--vote", "none") == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no game was started
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--vote", "12"], "--vote must be a seat number"),
    (["--vote", "maybe"], "--vote must be a seat number"),
    (["--rounds", "0"], "--rounds must be between 1 and 10"),
    (["--provider", "nowhere"], "--provider 'nowhere' is not configured"),
])
def test_bad_options_are_explained(tmp_path: Path, capsys, args, message) -> None:
    assert play(tmp_path, str(EXAMPLES[0]), *args) == 2
    assert message in capsys.readouterr().err


def test_stdin_and_the_console_script(tmp_path: Path) -> None:
    code = (ROOT / "examples" / "user_lookup.py").read_bytes()
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "tribunalbot", "play", "-", "--vote", "none", "--seed", "3",
         "--db", str(tmp_path / "s.db"), "--rounds", "1"],
        input=code, capture_output=True, cwd=tmp_path, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode()
    assert "Tribunal is in session" in out and "\x1b[" not in out
    assert "up to 1 round." in out


def test_ask_without_a_terminal_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tribunalbot", "play", str(EXAMPLES[0]), "--vote", "ask",
         "--no-db"], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
        check=False)
    assert done.returncode == 2 and "--vote ask needs an interactive terminal" in done.stderr


def test_games_are_stored_and_listed(tmp_path: Path, capsys) -> None:
    for seed in ("1", "2"):
        assert play(tmp_path, str(EXAMPLES[0]), "--vote", "1", "--seed", seed) == 0
    capsys.readouterr()
    assert main(["history", "--db", str(tmp_path / "t.db")]) == 0
    listing = capsys.readouterr().out
    assert len([line for line in listing.splitlines() if "finished" in line]) == 2
    assert main(["stats", "--db", str(tmp_path / "t.db")]) == 0
    assert capsys.readouterr().out.strip()


def test_offline_games_report_and_store_their_calls(tmp_path: Path, capsys) -> None:
    import asyncio

    from tribunalbot.store import connect_store

    assert play(tmp_path, str(EXAMPLES[0]), "--vote", "none", "--seed", "8") == 0
    out = capsys.readouterr().out
    assert "Usage: " in out and " calls to the offline reviewer, nothing billed" in out

    async def totals() -> tuple[int, int]:
        store = await connect_store(tmp_path / "t.db")
        try:
            (game,) = await store.votes.recent_games(None, 5)
            usage = await store.ops.usage(game.game_id)
            return usage.calls, usage.input_tokens
        finally:
            await store.close()

    calls, tokens = asyncio.run(totals())
    assert calls >= 20 and tokens > 1000


def test_unusable_paths_are_named(tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["play", str(EXAMPLES[0]), "--vote", "none",
                 "--db", str(blocker / "sub" / "t.db")]) == 1
    assert "cannot create the database folder" in capsys.readouterr().err
    assert main(["play", str(EXAMPLES[0]), "--vote", "none", "--no-db",
                 "--transcript", str(blocker / "t.jsonl")]) == 1
    assert "cannot write the transcript" in capsys.readouterr().err


def test_each_seat_records_its_provider_and_model(tmp_path: Path, capsys) -> None:
    import asyncio

    from tribunalbot.store import connect_store

    assert play(tmp_path, str(EXAMPLES[0]), "--vote", "none", "--seed", "2") == 0
    capsys.readouterr()

    async def routes() -> set[tuple[str, str]]:
        store = await connect_store(tmp_path / "t.db")
        try:
            rows = await store.db.fetchall("SELECT provider, model FROM players")
            return {(r[0], r[1]) for r in rows}
        finally:
            await store.close()

    assert asyncio.run(routes()) == {("offline", "offline")}


def test_a_game_cut_short_by_the_provider_is_resumed_later(tmp_path: Path, capsys) -> None:
    config = tmp_path / "down.toml"
    config.write_text('default_provider = "down"\n[providers.down]\nkind = "openai"\n'
                      'base_url = "http://127.0.0.1:9/v1"\nmodel = "m"\ntimeout_seconds = 0.5\n'
                      "call_deadline_seconds = 1.0\n")
    db = str(tmp_path / "t.db")
    code = main(["--config", str(config), "play", str(EXAMPLES[0]), "--vote", "none",
                 "--db", db, "--seed", "6"])
    captured = capsys.readouterr()
    assert code == 1 and "the model provider failed" in captured.err
    game_id = captured.out.split("tribunalbot resume ")[1].split()[0]
    transcript = tmp_path / "resumed.jsonl"
    assert main(["--config", str(config), "resume", game_id, "--provider", "offline",
                 "--vote", "none", "--db", db, "--transcript", str(transcript)]) == 0
    out = capsys.readouterr().out
    assert "Tribunal is in session" in out and "The Troublemaker was" in out
    records = read_jsonl(transcript)
    assert records[0]["kind"] == "game_started" and records[-1]["kind"] == "revealed"
    assert [r["kind"] for r in records].count("game_started") == 1
    assert main(["history", "--db", db]) == 0
    assert "finished" in capsys.readouterr().out
    assert main(["resume", game_id, "--db", db]) == 1
    assert "already finished" in capsys.readouterr().err
    assert main(["resume", "000000000000", "--db", db]) == 1
    assert "no game 000000000000" in capsys.readouterr().err


def test_a_reader_that_goes_away_ends_the_game_quietly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tribunalbot", "play", str(EXAMPLES[0]), "--vote", "none",
         "--no-db"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err
