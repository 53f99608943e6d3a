"""What a review says of some code: the lines of a topic's findings the analysis says (the
blind-round tests each ask this of a small snippet)."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic


def said_lines(code: str, topic: Topic, language: str = "python", source: str = "",
               file_name: str = "") -> set[int]:
    """Lines of `topic` findings a review says; `source`: only a ruff code ending so;
    `file_name`: the file's name, as a member attaching it gives it."""
    analysis = analyze(code, language, file_name=file_name)
    return {f.line for f in analysis.findings if f.topic == topic and analysis.says(f)
            and f.source.endswith(source)}
