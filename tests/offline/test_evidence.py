"""The reader: which claims contradict the analysis, and what each is judged against."""

from __future__ import annotations

from tribunalbot.llm.offline.evidence import contradictions

from .conftest import analysis_of, line_of


def test_a_contradiction_names_its_family_and_the_finding_it_is_judged_by() -> None:
    result = analysis_of("user_lookup.py")
    line = line_of("user_lookup.py", 'f"SELECT')
    serious = max(result.at(line), key=lambda f: f.severity)
    found = contradictions(f"I would leave line {line} alone: it is harmless.", result)
    dismissals = [c for c in found if c.family == "dismissal"]
    assert dismissals and dismissals[0].finding is not None
    assert dismissals[0].finding.severity == serious.severity >= 3
    ghost = contradictions(f"Line {result.line_count + 40} leaks the password.", result)
    assert [c.family for c in ghost] == ["bad_line"] and ghost[0].finding is None


def test_quoted_code_is_the_codes_words_not_the_reviewers() -> None:
    result = analysis_of("user_lookup.py")
    line = result.ranked()[0].line
    said = f"Line {line} (`registry = PluginFactory()`) needs a fix."
    assert not [c for c in contradictions(said, result) if c.family == "abstraction"]
    told = f"Line {line} needs a plugin registry."
    assert [c.family for c in contradictions(told, result)] == ["abstraction"]
