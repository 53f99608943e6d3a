"""What blind round 21's readers judged wrong or weak (bench/blind/round21): imports a
module keeps for others (requests.compat's re-exports, a name IPython's process.py takes from
_process_cli) or names only a `# type:` comment uses, called unused; `== True` on a SymPy
boolean, where `is True` would always fail; "catch the specific exception" for a bare except
that must return NotImplemented on any failure; a comprehension for a list seeded with an
item; "use the simpler form" with no form named; and a plant that turned down "a capped work
list" for a class that gathers imports, a fix no review had said was needed."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tests.offline.test_maintained_code import ONE_LOOP
from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import record

TYPE_COMMENTS = '''import os
from typing import Optional
from .abc import Reader


def reader(package):
    # type: (object) -> Optional[str]
    return None
'''


def test_a_name_only_a_type_comment_uses_is_used_and_a_relative_import_may_be_passed_on():
    assert said_lines(TYPE_COMMENTS, Topic.UNUSED_IMPORT) == {1}


COMPAT = '''"""Kept for backwards compatibility until the next major version."""

import json
from json import JSONDecodeError

is_py3 = True


def version():
    return 3 if is_py3 else 2
'''


def test_a_compatibility_module_passes_its_imports_on():
    assert said_lines(COMPAT, Topic.UNUSED_IMPORT) == set()
    assert said_lines(COMPAT.replace("Kept for backwards compatibility", "Helpers"),
                 Topic.UNUSED_IMPORT) == {3, 4}


def test_a_dotted_name_is_given_as_the_line_writes_it():
    analysis = analyze("from typing import Optional\n\nprint(1)\n", "python")
    unused = [f for f in analysis.findings if f.topic == Topic.UNUSED_IMPORT]
    assert [f.problem for f in unused] == [f"{record(Topic.UNUSED_IMPORT).problem} (`Optional`)"]


EQUALITY = '''def check(cond, value):
    if cond == True:
        return 1
    if value == None:
        return 2
    return 3
'''


def test_equal_to_true_is_left_alone_and_equal_to_none_is_noted():
    assert said_lines(EQUALITY, Topic.NONE_COMPARE) == {4}


FORMS = '''def image(path):
    if "ImageId" != path[-1]:
        return None
    return path


def contexts(module_context, names, more):
    found = [module_context]
    for name in names:
        found.append(name.context)
    return found
''' + ONE_LOOP


def test_a_simpler_form_is_said_only_when_named_and_where_it_fits():
    assert said_lines(FORMS, Topic.SIMPLIFY) == {17}


def test_a_bare_except_is_told_to_catch_exception_not_to_guess_the_exception():
    info = record(Topic.BARE_EXCEPT)
    assert all("Exception" in wording for wording in info.wordings)
    assert "specific" not in info.fix


COUNTS = '''# Copyright 2021 Example Ltd.
# Licensed under the MIT License.
COUNT = 0


def remember(key):
    global COUNT
    COUNT += 1
    return COUNT
'''


def test_a_guessed_finding_on_maintained_code_is_no_needed_fix():
    maintained = analyze(COUNTS, "python")
    plain = analyze(COUNTS.split("\n", 2)[2], "python")
    shared = [f for f in plain.findings if f.topic == Topic.GLOBAL_STATE]
    assert shared and fit.needing("abstraction", plain)
    assert maintained.maintained and not fit.needing("abstraction", maintained)
    assert all(fit.serious_at(maintained, f.line + 2) is None for f in shared)


def test_a_package_front_and_an_import_for_its_effect_are_not_unused():
    front = ('"""The package\'s names."""\n'
             'from pkg.core import Client\nfrom pkg.errors import Error\n')
    assert said_lines(front, Topic.UNUSED_IMPORT) == set()
    script = front + "\nprint(1)\n"
    assert said_lines(script, Topic.UNUSED_IMPORT) == {2, 3}
    assert said_lines("import clr\nimport os\n\nprint(2)\n", Topic.UNUSED_IMPORT) == {2}
