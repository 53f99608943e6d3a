"""Findings are grounded in the code: right topic, right line, for every language."""

from __future__ import annotations

import subprocess

import pytest

from tribunalbot.llm.offline import ruffscan
from tribunalbot.llm.offline.analysis import analyze

from .conftest import analysis_of, line_of, source


def topics_at(name: str, line: int) -> set[str]:
    return {f.topic for f in analysis_of(name).findings if f.line == line}


def test_sql_injection_in_the_python_example_is_found_on_its_line() -> None:
    line = line_of("user_lookup.py", 'f"SELECT')
    assert "sql_injection" in topics_at("user_lookup.py", line)
    assert "sql_injection" in topics_at("user_lookup.py", line_of("user_lookup.py", '" + user_id'))
    assert all(f.domain == "security_guardian" for f in analysis_of("user_lookup.py").findings
               if f.topic == "sql_injection")


def test_ruff_diagnostics_are_used_for_python() -> None:
    result = analysis_of("user_lookup.py")
    assert result.used_ruff
    sources = {f.source for f in result.findings}
    assert "ruff:S608" in sources and "ruff:E722" in sources
    assert "bare_except" in topics_at("user_lookup.py", line_of("user_lookup.py", "except:"))


def test_heuristics_catch_what_ruff_misses_in_python() -> None:
    assert "n_plus_one" in topics_at("user_lookup.py",
                                     line_of("user_lookup.py", "items = conn.execute("))
    assert "quadratic" in topics_at("cache_manager.py",
                                    line_of("cache_manager.py", "for other in"))
    assert "sql_injection" in topics_at("report_export.py",
                                        line_of("report_export.py", 'sql = "SELECT'))


@pytest.mark.parametrize(("name", "needle", "topic"), [
    ("upload_handler.js", '"INSERT INTO uploads', "sql_injection"),
    ("upload_handler.js", "eval(", "eval"),
    ("upload_handler.js", "catch (e) {}", "swallowed_error"),
    ("upload_handler.js", "S3_SECRET", "secret"),
    ("upload_handler.js", "writeFileSync", "blocking_io"),
    ("upload_handler.js", 'require("moment")', "deprecated_dep"),
    ("upload_handler.js", "res.sendFile(path.join(UPLOAD_DIR, file))", "path_traversal"),
    ("worker_pool.go", "Sprintf(\"UPDATE", "sql_injection"),
    ("worker_pool.go", "ioutil.ReadAll", "ignored_error"),
    ("worker_pool.go", "panic(", "crash"),
    ("worker_pool.go", "const apiToken", "secret"),
    ("worker_pool.go", "out = append(out, b)", "copy_in_loop"),
])
def test_fallback_heuristics_for_other_languages(name: str, needle: str, topic: str) -> None:
    result = analysis_of(name)
    assert not result.used_ruff
    assert topic in topics_at(name, line_of(name, needle))


@pytest.mark.parametrize(("needle", "topic"), [
    ('mock.patch("billing.invoice.compute_total"', "mocks_the_unit"),
    ("assert True", "vacuous_assert"),
    ("def test_empty_invoice", "test_without_assert"),
    ("@pytest.mark.skip", "skipped_test"),
])
def test_tests_that_cannot_fail_are_found(needle: str, topic: str) -> None:
    assert topic in topics_at("invoice_tests.py", line_of("invoice_tests.py", needle))


def test_asserts_in_a_test_file_are_not_a_smell() -> None:
    assert not [f for f in analysis_of("invoice_tests.py").findings
                if f.topic == "assert_in_code"]
    assert [f for f in analysis_of("payment_retry.py").findings if f.topic == "assert_in_code"]


def test_language_is_detected_when_not_given() -> None:
    assert analysis_of("worker_pool.go").language == "go"
    assert analysis_of("upload_handler.js").language == "javascript"
    assert analysis_of("payment_retry.py").language == "python"


def test_deep_nesting_and_long_functions_have_line_numbers() -> None:
    go = analysis_of("worker_pool.go")
    assert any(f.topic == "deep_nesting" and f.line > line_of("worker_pool.go", "func resize")
               for f in go.findings)
    assert any(f.topic == "long_function" and f.line == 33
               for f in analysis_of("thumbnail_paths.diff").findings)


def test_without_ruff_python_falls_back_to_heuristics(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ruffscan, "ruff_command", lambda: None)
    result = analyze(source("user_lookup.py"), "python")
    assert not result.used_ruff
    assert all(f.source == "heuristic" for f in result.findings)
    line = line_of("user_lookup.py", 'f"SELECT')
    assert any(f.topic == "sql_injection" and f.line == line for f in result.findings)
    assert any(f.topic == "bare_except" for f in result.findings)


def test_a_hanging_ruff_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    def hang(*args: object, **kwargs: object) -> None:
        raise subprocess.TimeoutExpired("ruff", ruffscan.RUFF_TIMEOUT_SECONDS)

    monkeypatch.setattr(subprocess, "run", hang)
    result = analyze(source("payment_retry.py"), "python")
    assert not result.used_ruff
    assert any(f.topic == "secret" for f in result.findings)


def test_ruff_codes_map_to_persona_domains() -> None:
    assert ruffscan.topic_for("S608") == "sql_injection"
    assert ruffscan.topic_for("SIM102") == "simplify"  # a family whose every rule fits
    assert ruffscan.topic_for("SIM108") is None  # ... but one: an if/else as a ternary
    assert ruffscan.topic_for("PERF401") == "simplify"  # "use a comprehension" is no slow loop
    assert ruffscan.topic_for("BLE001") == "broad_except"
    assert ruffscan.topic_for("C901") == "complexity"
    assert ruffscan.topic_for("ANN001") is None  # noise is dropped
    # A family is not one topic: an unknown S rule is no "untrusted input", an unused
    # argument is what a callback's signature asks for, `global` is not a likely bug.
    assert ruffscan.topic_for("S999") is None
    assert ruffscan.topic_for("ARG001") is None
    assert ruffscan.topic_for("PLW2901") is None


def test_huge_minified_lines_are_analysed_quickly() -> None:
    import time

    code = "var token_" + "a" * 40_000 + " = 1;\n" + "x" * 40_000 + "\n"
    for language in ("javascript", "python", "go"):
        started = time.perf_counter()
        result = analyze(code, language)
        assert time.perf_counter() - started < 2.0, language
        assert result.line_count == 2


def test_string_built_sql_is_found_without_ruff_in_every_python_form() -> None:
    code = (
        "def find(cur, name):\n"
        "    cur.execute(\"SELECT * FROM users WHERE name = '{}'\".format(name))\n"
        "    q = \"DELETE FROM t WHERE id = %s\" % name\n"
        "    cur.execute(q)\n"
        "    cur.execute(\"SELECT * FROM t WHERE id = ?\", (name,))\n"
        "    cur.execute(f\"UPDATE t SET a = {name}\")\n"
        "    cur.execute(\"SELECT a FROM t WHERE b = '\" + name + \"'\")\n"
    )
    lines = {f.line for f in analyze(code, "python", use_ruff=False).findings
             if f.topic == "sql_injection"}
    assert lines == {2, 3, 6, 7}  # the parameterized query on line 5 is fine
