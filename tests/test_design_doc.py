"""The design the code cites is in the repository: every "DESIGN §N" in the code and tests is a
numbered heading of docs/design.md, so a reader of a clone can follow each citation."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "design.md"
# "DESIGN §2.8", "DESIGN §5.3, §8", "(DESIGN §2.6 and §2.7)": the numbers after the word.
_CITED = re.compile(r"DESIGN\s+((?:§\d+(?:\.\d+)?(?:\s*(?:,|and|or)\s*)?)+)")
_NUMBER = re.compile(r"§(\d+(?:\.\d+)?)")
_HEADING = re.compile(r"^#{2,4}\s+(\d+(?:\.\d+)?)\s", re.M)


def cited_sections() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for folder in ("tribunalbot", "tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for m in _CITED.finditer(path.read_text(encoding="utf-8")):
                for number in _NUMBER.findall(m.group(1)):
                    found.setdefault(number, []).append(str(path.relative_to(ROOT)))
    return found


def test_every_cited_section_is_a_heading_of_the_design() -> None:
    cited = cited_sections()
    assert len(cited) >= 8  # the check sees the citations
    headings = set(_HEADING.findall(DOC.read_text(encoding="utf-8")))
    assert {n: files[:2] for n, files in cited.items() if n not in headings} == {}


def test_the_readme_links_the_design() -> None:
    assert "(docs/design.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
