"""What blind rounds 74 and 75's readers judged weak or wrong (bench/blind/round74, round75),
fixed after the rounds: an unused-import finding where a local hides the module the code
reads (`html.escape` with a parameter `html=True`: the clash is the bug), `.keys()` dropped
from a loop that adds or deletes keys as it goes, two branches joined whose shared body speaks
of the first test only (a copied branch left unedited), and `.extend` urged for a copy into an
empty list. The same findings elsewhere are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline import pynames, weakspots
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.pyfacts import facts
from tribunalbot.llm.offline.topic import Topic

HIDDEN = '''import html
import json


def render(text, html=True):
    if html:
        return html.escape(text)
    return text
'''


def test_a_module_hidden_by_a_local_of_its_name_is_not_unused():
    assert said_lines(HIDDEN, Topic.UNUSED_IMPORT) == {2}


RENAMES = '''def rename(kw):
    for key in kw.keys():
        if key.endswith("_"):
            kw[key[:-1]] = kw[key]
            del kw[key]
    return kw


def scale(kw):
    for key in kw.keys():
        kw[key] = kw[key] * 2
    return kw
'''


def test_keys_are_kept_where_the_loop_adds_or_deletes_keys():
    assert said_lines(RENAMES, Topic.SIMPLIFY) == {10}


COPIED = '''def check(ix, iy, n):
    if ix > n:
        raise ValueError(f"ix={ix} too large")
    elif iy > n:
        raise ValueError(f"ix={ix} too large")


def size(x):
    if x == 1:
        return "small"
    elif x == 2:
        return "small"
    return "large"
'''


def test_a_copied_branch_that_speaks_of_the_first_test_is_not_joined():
    assert said_lines(COPIED, Topic.SIMPLIFY) == {9}


def test_a_copy_into_an_empty_list_is_called_list():
    code = "def copy(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n    return out\n"
    found = [f for f in analyze(code, "python").findings if f.source == "ruff:PERF402"]
    assert found and "`list(...)`" in found[0].how


# Round 74's panel: seven honest jurors told each other that line 71 "is an ever-growing list",
# of a list `__init__` fills once from a fixed set, a guess the analysis keeps to itself on
# maintained code. A juror states only what a review may say.
KEPT = '''# Copyright 2024 Example Ltd.
# Licensed under the MIT License.


class Cascade:
    def __init__(self, codes):
        self.catch = []
        for code in codes:
            self.catch.append(code)
'''


def test_a_juror_never_states_a_guess_the_analysis_keeps_to_itself():
    analysis = analyze(KEPT, "python")
    guessed = [f for f in analysis.findings if f.topic == Topic.UNBOUNDED_GROWTH]
    assert guessed and all(analysis.doubts(f) for f in guessed)
    assert weakspots.top_at(analysis, 9) is None
    spot = weakspots.fallback("Line 5 is fine as it stands.", analysis)
    assert spot.finding is None or spot.finding.topic != Topic.UNBOUNDED_GROWTH


# Round 77: a package's `__init__` that imports from its submodule `themes` has `themes` too.
THEMES = '''from .themes import theme_dark, theme_light


def default():
    return themes.theme_human()


def other():
    return themse.theme_dark()
'''


def test_a_submodule_a_relative_import_loads_is_defined():
    assert said_lines(THEMES, Topic.UNDEFINED_NAME) == {9}


# Round 78: names a star import brought, deleted after it (QtPy's QtCore).
STARRED = '''try:
    from PyQt5.QtCore import *
    from PyQt5.QtCore import pyqtSignal as Signal

    del pyqtSignal
except ImportError:
    pass
'''


def test_a_module_that_star_imports_has_no_provably_undefined_name():
    assert said_lines(STARRED, Topic.UNDEFINED_NAME) == set()
    assert said_lines(THEMES.replace("from .themes", "from .skins"), Topic.UNDEFINED_NAME) == {5, 9}


# Round 78: QtPy's compatibility modules star-import the binding in a branch (`if PYQT5:`) and
# import more names in the others, for their users to take from here. A star import counts
# wherever at module level it stands.
def test_a_star_import_in_a_branch_counts():
    branch = facts("if PYQT5:\n    from PyQt5.QtWidgets import *\nelse:\n    import os\n")
    plain = facts("import os\nfrom PyQt5.QtWidgets import QWidget\n")
    assert branch is not None and pynames.star_imports(branch)
    assert plain is not None and not pynames.star_imports(plain)
