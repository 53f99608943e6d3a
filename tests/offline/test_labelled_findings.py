"""The analysis is right about code nobody here wrote: precision on the labelled set.

The set (tests/offline/labelled/findings.json) holds findings on files of the standard
library, installed packages and Debian packages, each judged by reading the code. Every
finding the analysis makes on those files must have been judged: a new one fails this test
until someone reads the code and labels it (`python bench/findings.py --unlabelled`).
"""

from __future__ import annotations

from functools import cache

from tests.offline.labelled.labels import Score, load, score

PRECISION = 0.9
MIN_FINDINGS = 150


@cache
def result() -> Score:
    return score()


def test_most_labelled_files_are_found_as_they_were_judged() -> None:
    scored = result()
    left_out = [f"{r.file.name} ({r.status})" for r in scored.files if r.status != "ok"]
    assert len(scored.resolved) >= 0.75 * len(scored.files), left_out
    languages = {r.analysis.language for r in scored.resolved if r.analysis}
    assert len(languages) >= 4, languages
    assert len(scored.produced) >= MIN_FINDINGS


def test_every_finding_on_the_labelled_files_has_been_judged() -> None:
    missing = [f"{item.file.name}:{f.line} {f.topic}" for item, f in result().unlabelled]
    assert not missing, ("judge these by reading the code, then add them to "
                         f"tests/offline/labelled/findings.json: {missing}")


def test_findings_on_third_party_code_are_mostly_right() -> None:
    scored = result()
    assert scored.precision >= PRECISION, scored.false_by_topic().most_common()


def test_labels_are_data_about_the_files_not_their_text() -> None:
    for item in load():
        assert len(item.sha256) == 64
        for label in item.labels:
            assert len(label.text) == 12 and label.why and len(label.why) < 120
