"""How often the offline analysis is right about code nobody here wrote.

Runs the analysis, as a game would, on the files of the labelled set
(tests/offline/labelled/findings.json: files of the standard library, installed packages and
Debian packages, every finding judged true or false by reading the code) and prints:

    metric finding_precision X         true findings / all findings produced on those files
    metric labelled_findings N         findings produced (and so judged) on them
    metric labelled_files_resolved K   files found with the hash they were judged at
    metric true_findings_given_up M    findings judged true that the analysis no longer makes

then the false findings by topic, and any file left out (missing, or another version).
A finding produced but never judged counts as not true, and is listed with a line to paste
into the labelled set once someone has read the code and judged it:

    python bench/findings.py [--unlabelled] [--false]

`finding_precision()` is importable (`from bench.findings import finding_precision`) for
other benches, with the project root on sys.path.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.offline.labelled.labels import Score, line_hash, score  # noqa: E402


@cache
def labelled_score() -> Score:
    """The labelled set scored once per process (ruff runs once per Python file)."""
    return score()


def finding_precision() -> float:
    return labelled_score().precision


def report(result: Score, unlabelled: bool = False, false: bool = False) -> list[str]:
    lines = [
        f"metric finding_precision {result.precision:.3f}",
        f"metric labelled_findings {len(result.produced)}",
        f"metric labelled_files_resolved {len(result.resolved)}",
        f"metric true_findings_given_up {len(result.true_given_up())}",
        f"# {len(result.files)} files in the set; {result.true_count} findings judged true",
    ]
    wrong = result.false_by_topic()
    if wrong:
        lines.append("# false findings by topic:")
        lines += [f"#   {topic:20s} {count}" for topic, count in wrong.most_common()]
    lines += [f"# left out: {r.file.name} ({r.status})" for r in result.files if r.status != "ok"]
    missing = result.unlabelled
    if missing:
        lines.append(f"# {len(missing)} findings not judged yet (counted as not true)")
    if unlabelled:
        for item, finding in missing:
            text = item.analysis.lines[finding.line - 1] if item.analysis else ""
            stub = {"line": finding.line, "topic": finding.topic, "text": line_hash(text),
                    "true": None, "why": ""}
            lines.append(f"# {item.file.name}:{finding.line}: {text.strip()[:90]}")
            lines.append(json.dumps(stub))
    if false:
        for item in result.resolved:
            lines += [f"# false {item.file.name}:{f.line} {f.topic}: {label.why}"
                      for f, label in item.produced if label and not label.true]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unlabelled", action="store_true",
                        help="print each finding not judged yet, with a stub to fill in")
    parser.add_argument("--false", action="store_true", help="list every false finding")
    args = parser.parse_args()
    print("\n".join(report(labelled_score(), args.unlabelled, args.false)))


if __name__ == "__main__":
    main()
