"""A blind round: findings and games on files nobody here tuned on, written out for readers.

Issue 24 asks for two figures only a reader who did not write the detectors can give:
precision of the offline analysis (a finding is right when it is true and worth saying, its
fix sound for this code) and what a careful player can do (is the plant shown wrong by the
cited lines; who is the Troublemaker, from the code and the table's words). This script
writes what those readers read, and keeps what they must not see apart:

    python bench/blind.py OUT [--round 1]        write a round's pages for its readers
    python bench/blind.py --score DIR            the figures from their verdicts

    OUT/findings/<n>.md   the file with line numbers, then every finding as a seat states
                          it (line, problem, fix): each to be judged right, weak or wrong
    OUT/games/<n>.md      the file with line numbers, then round 1 of one offline game as
                          the thread shows it: the eight first reviews and the accusations
                          (no votes, no elimination, nothing of the reveal)
    OUT/key.json          per game the Troublemaker's seat, disguise and planted claims

The readers' verdicts go in DIR (bench/blind/round1 holds the first round's):
findings-*.json (page, n, line, topic, verdict: right, weak or wrong; from round 11 also
said_as: change or minor, the weight the finding is said at), panel-*.json (page, guess,
written before the key was read) and panel-*-after.json (page, checkable, honest_lookalike),
with the round's key.json. Precision counts only "right" as right.

A round's files are in none of the bench's inputs, the labelled set, the recorded games or
`examples/`; each round gets new ones, so that no round is judged on what the one before
tuned. Files are found on this machine (the standard library, the venv's packages, Debian's
files) and named by where in `bench/blind_rounds.py` (from round 15, in each round's
`bench/blind/roundN/files.txt`), not kept here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.blind_rounds import ROUNDS  # noqa: E402
from bench.fair.games import Game, boil_down  # noqa: E402
from bench.fair.inputs import Input, load  # noqa: E402
from tribunalbot.engine.game import GameSetup, run_game  # noqa: E402
from tribunalbot.engine.table import SilentTable  # noqa: E402
from tribunalbot.llm.offline import OfflineLLM  # noqa: E402
from tribunalbot.llm.offline.analysis import analyze  # noqa: E402


def numbered(code: str) -> str:
    return "\n".join(f"{n:4} | {line}" for n, line in enumerate(code.splitlines(), 1))


def findings_page(item: Input) -> str:
    # Read as the game reads it: with the name a member attaching the file would give.
    analysis = analyze(item.code, item.language, file_name=item.file_name)
    lines = [f"# {item.name} ({item.language})", "", "```", numbered(item.code), "```", "",
             "## Findings", ""]
    said = [f for f in analysis.findings if analysis.says(f)]  # what a review may say of it
    for n, finding in enumerate(sorted(said, key=lambda f: f.line), 1):
        how = f": {finding.how}" if finding.how else ""
        weight = "" if finding.worth_saying else "Said as minor, for when that code is next " \
            "touched: "
        lines.append(f"{n}. line {finding.line}: this code {finding.problem}. "
                     f"{weight}Fix: {finding.info.fix}{how}. [{finding.topic}]")
    return "\n".join(lines) + "\n"


def game_page(item: Input, game: Game) -> str:
    lines = [f"# {item.name} ({item.language})", "", "```", numbered(item.code), "```", "",
             "## Round 1: the reviews", ""]
    lines += [f"### Seat {seat}\n\n{game.reviews[seat]}\n" for seat in game.seats]
    lines += ["## Round 1: the accusations", ""]
    lines += [f"- Seat {a.seat} accuses Seat {a.target}: {a.text}"
              for a in game.accusations if a.round == 1]
    return "\n".join(lines) + "\n"


async def play(item: Input, seed: int) -> Game:
    setup = GameSetup(game_id=f"blind-{seed}", code=item.code, language=item.language,
                      seed=seed, file_name=item.file_name)
    result = await run_game(setup, OfflineLLM(), SilentTable())
    return boil_down(item.name, seed, result.events, result.revealed)


def write_round(out: Path, number: int) -> None:
    (out / "findings").mkdir(parents=True, exist_ok=True)
    (out / "games").mkdir(parents=True, exist_ok=True)
    key: dict[str, object] = {}
    for index, source in enumerate(ROUNDS[number], 1):
        item = load(source)
        if isinstance(item, str):
            print(item)
            continue
        name = f"{index:02d}"
        (out / "findings" / f"{name}.md").write_text(findings_page(item))
        seed = 1000 * number + index
        game = asyncio.run(play(item, seed))
        (out / "games" / f"{name}.md").write_text(game_page(item, game))
        key[name] = {"file": f"{source.root}:{source.path}", "seed": seed,
                     "troublemaker": game.troublemaker, "disguise": game.strategy,
                     "caught_round": game.caught_round, "planted": list(game.planted)}
    (out / "key.json").write_text(json.dumps(key, indent=1) + "\n")


def _rows(folder: Path, pattern: str) -> list[dict[str, object]]:
    return [row for path in sorted(folder.glob(pattern)) for row in json.loads(path.read_text())]


def score(folder: Path) -> list[str]:
    """The figures of a judged round, one `metric` line each, and the verdicts by topic."""
    verdicts = _rows(folder, "findings-*.json")
    count = Counter(str(v["verdict"]) for v in verdicts)
    by_topic: dict[str, Counter[str]] = {}
    for v in verdicts:
        by_topic.setdefault(str(v["topic"]).strip("[]"), Counter())[str(v["verdict"])] += 1
    key = json.loads((folder / "key.json").read_text())
    guesses = [g for g in _rows(folder, "panel-*.json") if "guess" in g]
    after = _rows(folder, "panel-*-after.json")
    caught = sum(g["guess"] == key[str(g["page"])]["troublemaker"] for g in guesses)
    def share(part: int, whole: int) -> str:
        return f"{part / max(1, whole):.3f}"

    lines = [f"metric blind_findings {len(verdicts)}",
             f"metric blind_precision {share(count['right'], len(verdicts))}",
             f"metric blind_true_share {share(count['right'] + count['weak'], len(verdicts))}",
             f"metric blind_wrong_share {share(count['wrong'], len(verdicts))}",
             f"metric panel_games {len(guesses)}",
             f"metric panel_caught {share(caught, len(guesses))}",
             "metric panel_checkable "
             f"{share(sum(bool(a['checkable']) for a in after), len(after))}",
             "metric panel_honest_lookalike "
             f"{share(sum(bool(a['honest_lookalike']) for a in after), len(after))}"]
    # From round 11 a finding is said as a change or as minor (Finding.worth_saying), and its
    # readers judged it at that weight: precision per weight.
    for weight in ("change", "minor"):
        said = Counter(str(v["verdict"]) for v in verdicts if v.get("said_as") == weight)
        if said:
            total = sum(said.values())
            lines += [f"metric blind_{weight}_findings {total}",
                      f"metric blind_{weight}_precision {share(said['right'], total)}",
                      f"metric blind_{weight}_wrong_share {share(said['wrong'], total)}"]
    lines += _unseen(folder, verdicts, key)
    for topic, tally in sorted(by_topic.items(), key=lambda t: -sum(t[1].values())):
        lines.append(f"# {topic:22} " + " ".join(f"{k} {tally[k]}" for k in
                                                 ("right", "weak", "wrong") if tally[k]))
    return lines


def _unseen(folder: Path, verdicts: list[dict[str, object]],
            key: dict[str, dict[str, object]]) -> list[str]:
    """Precision without the packages a round's `seen-before.txt` names: packages found
    afterwards to be installed on this machine, whose files earlier rounds (21-30) drew on,
    so that the detectors may have been tuned on their idioms."""
    listed = folder / "seen-before.txt"
    if not listed.exists():
        return []
    seen = {x.strip() for x in listed.read_text().splitlines() if x.strip()
            and not x.startswith("#")}
    kept = [v for v in verdicts
            if str(key[str(v["page"])]["file"]).split("/")[4] not in seen]
    right = sum(v["verdict"] == "right" for v in kept)
    return [f"metric blind_findings_unseen {len(kept)}",
            f"metric blind_precision_unseen {right / max(1, len(kept)):.3f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--round", type=int, default=max(ROUNDS), choices=sorted(ROUNDS))
    parser.add_argument("--score", type=Path, help="a folder of a judged round's verdicts")
    args = parser.parse_args()
    if args.score:
        print("\n".join(score(args.score)))
    elif args.out:
        write_round(args.out, args.round)
    else:
        parser.error("give OUT, or --score DIR")


if __name__ == "__main__":
    main()
