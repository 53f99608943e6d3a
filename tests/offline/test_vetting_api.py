"""What blind round 4's readers found wrong or not worth saying on code nobody here had read
(bench/blind/round4), each pinned on a small piece of code written for the test, next to the
same construct where the finding stands."""

from __future__ import annotations

from tribunalbot.diffs import parse_diff
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.changes import analyze_change
from tribunalbot.llm.offline.findings import MAX_PER_TOPIC


def found(code: str, language: str = "python") -> list[tuple[int, str]]:
    return [(f.line, f.topic) for f in analyze(code, language).findings]


def test_a_public_name_is_its_callers_to_keep_a_private_one_may_be_renamed() -> None:
    code = "class async_chat:\n    pass\n\n\nclass _simple_producer:\n    pass\n"
    assert [t for _, t in found(code) if t == "naming"] == ["naming"]
    assert (5, "naming") in found(code)


def test_a_change_may_be_asked_to_rename_what_it_adds() -> None:
    diff = ("diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,1 +1,3 @@\n x = 1\n"
            "+class async_chat:\n+    pass\n")
    assert "naming" in {f.topic for f in analyze_change(parse_diff(diff)).findings}


def test_a_nested_functions_mutable_default_is_a_cell_on_purpose() -> None:
    nested = ("def scan(lines):\n    for lnum in lines:\n"
              "        def reader(lnum=[lnum]):\n            lnum[0] += 1\n"
              "        reader()\n")
    shared = "def add(item, seen=[]):\n    seen.append(item)\n    return seen\n"
    assert "mutable_default" not in {t for _, t in found(nested)}
    assert (1, "mutable_default") in found(shared)


def test_a_sentinel_default_and_a_loop_closure_called_at_once_say_nothing() -> None:
    code = ("def unbool(element, true=object(), false=object()):\n    return element\n\n\n"
            "def run(files):\n    for name in files:\n        def read():\n"
            "            return name\n        read()\n")
    assert {t for _, t in found(code)} & {"mutable_default", "errors_misc"} == set()


def test_a_number_its_comment_or_the_error_below_explains_is_no_magic_number() -> None:
    code = ("def check(level, size):\n    if not (1 <= level <= 9):\n"
            "        raise ValueError('compresslevel must be between 1 and 9')\n"
            "    if size > 16384:  # 2^14, the protocol's smallest frame\n        return 1\n"
            "    if size > 65535:\n        return 2\n    return 0\n")
    assert [n for n, t in found(code) if t == "magic_number"] == [6]


def test_a_file_kept_on_the_object_is_no_leak() -> None:
    code = ("from builtins import open as _builtin_open\n\n\nclass Reader:\n"
            "    def __init__(self, name):\n        self._fp = _builtin_open(name)\n\n"
            "    def close(self):\n        self._fp.close()\n")
    assert "resource_leak" not in {t for _, t in found(code)}


def test_a_minor_point_is_said_a_few_times_a_serious_one_at_every_line() -> None:
    uses = "".join(f"which tool{n} >/dev/null && echo {n}\n" for n in range(8))
    script = "#!/bin/sh\n" + uses
    minor = [f for f in analyze(script, "shell").findings if f.severity <= 2]
    counts = {t: sum(1 for f in minor if f.topic == t) for t in {f.topic for f in minor}}
    assert counts and max(counts.values()) <= MAX_PER_TOPIC, counts
    injections = "def find(cur, ids):\n" + "".join(
        f"    cur.execute('SELECT * FROM t WHERE id = %s' % ids[{n}])\n" for n in range(5))
    serious = [f for f in analyze(injections, "python").findings
               if f.topic == "sql_injection"]
    assert len(serious) == 5


def test_too_long_is_not_said_again_of_a_function_too_complex() -> None:
    branches = "".join(f"    if x == {n}:\n        y += {n}\n" for n in range(20))
    code = f"def f(x):\n    y = 0\n{branches}    return y\n"
    topics = [t for n, t in found(code) if n == 1]
    assert "complexity" in topics and "long_function" not in topics


def test_six_parameters_or_two_statements_on_a_line_say_nothing() -> None:
    code = "def f(a, b, c, d, e, g):\n    x = a; y = b\n    return x + y + c + d + e + g\n"
    # Under any name: nothing is said of the parameter list or of line 2's two statements.
    assert {t for _, t in found(code)} <= {"module_docstring", "vague_name"}, found(code)
    assert not [n for n, _ in found(code) if n == 2], found(code)


def test_round_five_idioms_say_nothing() -> None:
    """bench/blind/round5: a length-checked first key, a context manager's swap, a private
    name imported for another module to take."""
    guarded = ("def pick(delims):\n    if len(delims) == 1:\n"
               "        return list(delims.keys())[0]\n    return None\n")
    swap = ("import sys\n\n\nclass Argv0:\n    def __init__(self, value):\n"
            "        self.value = value\n\n    def __enter__(self):\n"
            "        self.saved = sys.argv[0]\n        sys.argv[0] = self.value\n\n"
            "    def __exit__(self, *args):\n        sys.argv[0] = self.saved\n")
    reexport = "from _lzma import _encode_filter_properties, _decode_filter_properties\n"
    assert "index_empty" not in {t for _, t in found(guarded)}
    assert "hidden_side_effect" not in {t for _, t in found(swap)}
    assert "unused_import" not in {t for _, t in found(reexport)}
    assert "unused_import" in {t for _, t in found("import os\n\nprint(1)\n")}


def test_a_simplification_names_its_simpler_form_and_taste_says_nothing() -> None:
    """bench/blind: "use the simpler form" was weak for never naming the form; a try/except/
    pass is as plain as `contextlib.suppress`."""
    nested = "def f(a, b):\n    if a:\n        if b:\n            return 1\n    return 0\n"
    simplify = [f for f in analyze(nested, "python").findings if f.topic == "simplify"]
    assert simplify and "`and`" in simplify[0].how
    quiet = "def f(path):\n    try:\n        remove(path)\n    except OSError:\n        pass\n"
    assert "simplify" not in {t for _, t in found(quiet)}


def test_round_six_idioms_say_nothing() -> None:
    """bench/blind/round6: names a module takes from its C accelerator are its API; a module
    that sets `__doc__` has its docstring."""
    reexport = "from _imp import acquire_lock, release_lock\n"
    documented = 'import os\n__doc__ = """Hashing: md5, sha1 and the rest."""\nx = os.sep\n'
    assert "unused_import" not in {t for _, t in found(reexport)}
    assert "module_docstring" not in {t for _, t in found(documented)}
    assert "module_docstring" in {t for _, t in found("import os\n\n\nx = os.sep\n")}
