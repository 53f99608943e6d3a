"""The labelled set: findings of the offline analysis on code nobody here wrote, each judged
true or false by reading the code, and how to score the analysis against them.

Nothing of those files is kept here: `findings.json` says where each file is found on this
machine (the running interpreter's standard library, an installed package, a path of a
Debian package), its sha256, and per finding its line, a hash of the line's stripped text,
its topic, the verdict and why. The files are read and analysed at run time, as a game would
read them (`check_code`, the language from the name). A file that is missing or whose hash
differs (a newer package) is reported and left out.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sysconfig
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tribunalbot.inputs.submission import check_code
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.findings import Analysis, Finding

DATA = Path(__file__).with_name("findings.json")
MAX_CODE_BYTES = 40_000  # the default game.max_code_bytes: what a game would accept


@dataclass(frozen=True)
class Label:
    line: int
    topic: str
    text: str  # hash of the line's stripped text
    true: bool
    why: str


@dataclass(frozen=True)
class LabelledFile:
    root: str  # "stdlib", "package" (the path starts with the import name) or "system"
    path: str
    sha256: str
    labels: tuple[Label, ...]

    @property
    def name(self) -> str:
        return f"{self.root}:{self.path}"

    def location(self) -> Path | None:
        if self.root == "stdlib":
            return Path(sysconfig.get_paths()["stdlib"]) / self.path
        if self.root == "package":
            spec = importlib.util.find_spec(self.path.split("/")[0])
            places = list(spec.submodule_search_locations or []) if spec else []
            return Path(places[0]).parent / self.path if places else None
        return Path(self.path)


def line_hash(text: str) -> str:
    return hashlib.sha256(text.strip().encode()).hexdigest()[:12]


def load(path: Path = DATA) -> list[LabelledFile]:
    raw = json.loads(path.read_text())
    return [LabelledFile(f["root"], f["path"], f["sha256"], tuple(
        Label(x["line"], x["topic"], x["text"], x["true"], x["why"]) for x in f["findings"]))
        for f in raw["files"]]


@dataclass
class FileResult:
    file: LabelledFile
    status: str  # "ok", "missing" or "changed"
    produced: list[tuple[Finding, Label | None]] = field(default_factory=list)
    retired: list[Label] = field(default_factory=list)  # labelled, no longer produced
    analysis: Analysis | None = None


def judge_file(item: LabelledFile) -> FileResult:
    where = item.location()
    if where is None or not where.is_file():
        return FileResult(item, "missing")
    data = where.read_bytes()
    if hashlib.sha256(data).hexdigest() != item.sha256:
        return FileResult(item, "changed")
    submitted = check_code(data, where.name, MAX_CODE_BYTES)
    analysis = analyze(submitted.code, submitted.language)
    labels = {(x.line, x.topic): x for x in item.labels}
    lines = submitted.code.splitlines()
    produced: list[tuple[Finding, Label | None]] = []
    for finding in analysis.findings:
        label = labels.pop((finding.line, finding.topic), None)
        text = lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""
        produced.append((finding, label if label and label.text == line_hash(text) else None))
    return FileResult(item, "ok", produced, sorted(labels.values(), key=lambda x: x.line),
                      analysis)


@dataclass
class Score:
    files: list[FileResult]

    @property
    def resolved(self) -> list[FileResult]:
        return [r for r in self.files if r.status == "ok"]

    @property
    def produced(self) -> list[tuple[Finding, Label | None]]:
        return [p for r in self.resolved for p in r.produced]

    @property
    def unlabelled(self) -> list[tuple[FileResult, Finding]]:
        return [(r, f) for r in self.resolved for f, label in r.produced if label is None]

    @property
    def true_count(self) -> int:
        return sum(1 for _f, label in self.produced if label and label.true)

    @property
    def precision(self) -> float:
        """True findings over every finding produced; an unjudged one counts as not true."""
        return self.true_count / len(self.produced) if self.produced else 0.0

    def false_by_topic(self) -> Counter[str]:
        return Counter(f.topic for f, label in self.produced if label and not label.true)

    def true_given_up(self) -> list[tuple[LabelledFile, Label]]:
        """Findings judged true that the analysis no longer makes (recall given up)."""
        return [(r.file, x) for r in self.resolved for x in r.retired if x.true]


def score(files: list[LabelledFile] | None = None) -> Score:
    """Every file judged; ruff's runs are subprocesses, so a few threads overlap them."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return Score(list(pool.map(judge_file, load() if files is None else files)))
