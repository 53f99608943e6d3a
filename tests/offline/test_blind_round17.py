"""What blind round 17's readers judged wrong (bench/blind/round17): `expr` in a script whose
own comment says it avoids `$((...))` for an old /bin/sh, "copy the list" for a loop that
adds to a list holding items, a shell command a private helper is only ever handed as a
literal, `os.system` where a comment says why not subprocess, and `rm -rf $pattern/` that
only echoes, or that an `if` on its source guards; and the simpler form SIM905 never named."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import REGISTRY


def _findings(code: str, language: str, topic: Topic, ruff: bool = False) -> set[int]:
    return {f.line for f in analyze(code, language, use_ruff=ruff).findings
            if f.topic == topic}


COUNTS = '''#!/bin/sh
# For portability to Solaris 9 /bin/sh this script avoids $((...)).
n=0
for f in *; do
  n=`expr $n + 1`
done
echo "$n"
'''


def test_expr_is_not_noted_where_the_script_says_it_avoids_dollar_arithmetic() -> None:
    analysis = analyze(COUNTS, "shell", use_ruff=False)
    found = [f for f in analysis.findings if f.topic == Topic.OLD_ARITHMETIC]
    assert found and not any(analysis.says(f) for f in found)
    plain = analyze(COUNTS.replace("avoids $((...))", "keeps to POSIX"), "shell",
                    use_ruff=False)
    assert any(plain.says(f) for f in plain.findings if f.topic == Topic.OLD_ARITHMETIC)


def test_the_form_for_a_loop_of_appends_fits_a_list_that_holds_items() -> None:
    forms = dict(REGISTRY[Topic.SIMPLIFY].forms)
    assert ".extend(" in forms["PERF402"] and "copy" not in forms["PERF402"]


SHELLS = '''import os
from subprocess import PIPE, Popen


def _find_version(cmd):
    out = Popen(cmd, shell=True, stdout=PIPE).stdout
    return out.read()


def versions():
    commands = ['gcc -dumpversion', 'ld -v']
    return [_find_version(cmd) for cmd in commands]


def _read_output(command):
    # Not subprocess: it cannot be imported while the interpreter bootstraps.
    return os.system(command + " >/dev/null")


def clean(command):
    return os.system(command)
'''


def test_a_command_the_file_only_ever_hands_as_a_literal_is_its_own() -> None:
    assert _findings(SHELLS, "python", Topic.SHELL_INJECTION) == {21}


def test_a_helper_handed_a_caller_s_text_still_shells_out_input() -> None:
    handed = SHELLS.replace("return [_find_version(cmd) for cmd in commands]",
                            "return [_find_version(cmd) for cmd in os.environ['CMDS']]")
    assert 6 in _findings(handed, "python", Topic.SHELL_INJECTION)


CLEANS = '''#!/bin/sh
target="$1"
if [ "$target" ]; then
    pattern=$(echo "$target" | sed -e "s:%v:*:g")
    echo rm -rf $pattern/
    rm -rf $pattern/
fi
other=$(echo "$2" | sed -e "s:x:y:")
rm -rf $other/
'''


def test_an_echoed_or_guarded_delete_is_no_wipe() -> None:
    assert _findings(CLEANS, "shell", Topic.DESTRUCTIVE_COMMAND) == {9}
