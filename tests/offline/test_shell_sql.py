"""The shell and SQL detectors: each fires on the mistake and stays silent on the careful
form of the same line."""

from __future__ import annotations

import pytest

from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topics import record

SH = "#!/bin/sh\n"
BASH = "#!/bin/bash\n"


def found(code: str, language: str = "shell") -> list[tuple[int, str, str]]:
    return [(f.line, f.topic, f.detail) for f in analyze(code, language).findings]


def topics(code: str, language: str = "shell") -> set[str]:
    return {topic for _line, topic, _detail in found(code, language)}


@pytest.mark.parametrize(("bad", "good"), [
    ("n=$(expr $n + 1)\n", "n=$((n + 1))\n"),
    ("n=$[n + 1]\n", 'rest=$(expr "X$arg" : "X-\\(.*\\)")\n'),
])
def test_expr_arithmetic_is_flagged_and_expr_matching_is_not(bad: str, good: str) -> None:
    assert "old_arithmetic" in topics(SH + bad)
    assert "old_arithmetic" not in topics(SH + good)


def test_a_variable_the_script_never_sets_is_named_at_its_first_use() -> None:
    code = SH + 'opt=$1\necho "bad option $prevarg"\necho "$opt"\n'
    assert (3, "unset_variable", "prevarg") in found(code)


@pytest.mark.parametrize("setting", [
    "prevarg=$1\n", "for prevarg in a b; do :; done\n", "read -r prevarg\n",
    ": ${prevarg=none}\n", "local prevarg\n",
])
def test_a_variable_set_any_way_is_not_unset(setting: str) -> None:
    assert "unset_variable" not in topics(SH + setting + 'echo "$prevarg"\n')


@pytest.mark.parametrize("use", [
    'echo "${prevarg-none}"\n',  # a default handles the unset case on purpose
    'echo "${prevarg:?missing}"\n',
    "echo '$prevarg'\n",  # single quotes expand nothing
    'echo "$HOME"\n',  # upper case: the environment's
])
def test_deliberate_or_environment_expansions_are_not_unset(use: str) -> None:
    assert "unset_variable" not in topics(SH + use)


def test_a_script_that_sources_another_may_get_any_variable_from_it() -> None:
    assert "unset_variable" not in topics(SH + ". ./config.sh\necho \"$prevarg\"\n")


def test_mktemp_without_a_trap_leaves_the_file_behind() -> None:
    bare = SH + 'tmp=$(mktemp)\nsort "$1" > "$tmp"\nmv "$tmp" "$1"\n'
    assert "temp_no_cleanup" in topics(bare)
    trapped = SH + "tmp=$(mktemp)\ntrap 'rm -f \"$tmp\"' EXIT\nsort \"$1\" > \"$tmp\"\n"
    assert "temp_no_cleanup" not in topics(trapped)


def test_a_pid_named_temp_file_is_guessable_unless_noclobber_guards_it() -> None:
    assert "temp_file" in topics(SH + 'tmp=${TMPDIR}work$$\ncp "$1" "$tmp"\n')
    assert "temp_file" not in topics(SH + 'set -C\ntmp=${TMPDIR}work$$\ncat "$1" > "$tmp"\n')
    assert "temp_file" not in topics(SH + "pid=$$\n")


@pytest.mark.parametrize(("code", "flagged"), [
    ('cd "$dir"\nrm -f ./*.o\n', True),
    ('cd "$dir" || exit 1\nrm -f ./*.o\n', False),
    ('cd "$dir" && make\n', False),
    ('if cd "$dir"; then make; fi\n', False),
    ("cd /\n", False),
    ("set -e\ncd \"$dir\"\nmake\n", False),
])
def test_cd_is_flagged_only_when_its_failure_goes_unseen(code: str, flagged: bool) -> None:
    assert ("unchecked_cd" in topics(SH + code)) is flagged


def test_errexit_on_the_shebang_line_counts_as_set_e() -> None:
    found_topics = topics("#!/bin/bash -e\ncd \"$dir\"\nrm -f ./*.o\n")
    assert "unchecked_cd" not in found_topics and "no_errexit" not in found_topics
    assert "no_errexit" in topics("#!/bin/bash -x\ncd \"$dir\"\nrm -f ./*.o\n")


@pytest.mark.parametrize(("code", "flagged"), [
    ("while read line; do echo \"$line\"; done < list\n", True),
    ("while read -r line; do echo \"$line\"; done < list\n", False),
    ("while IFS= read -r path; do ls \"$path\"; done\n", False),
    ("read\n", False),  # waiting for Enter keeps nothing
    ("read rev parent\n", False),  # hashes have no backslashes to lose
])
def test_read_without_r_where_a_backslash_can_be_lost(code: str, flagged: bool) -> None:
    assert ("read_without_r" in topics(SH + code)) is flagged


def test_which_is_flagged_and_command_v_is_not() -> None:
    assert "which_command" in topics(SH + 'GCC="$(which gcc)"\n')
    assert "which_command" in topics(SH + "if which gdb >/dev/null; then gdb; fi\n")
    assert "which_command" not in topics(SH + 'GCC="$(command -v gcc)"\n')
    assert "which_command" not in topics(SH + 'echo "which one?"\n')


def test_echo_e_is_a_portability_trap_in_sh_but_not_in_bash() -> None:
    assert "echo_options" in topics(SH + 'echo -e "a\\tb"\n')
    assert "echo_options" not in topics(BASH + 'echo -e "a\\tb"\n')
    assert "echo_options" not in topics(SH + "printf 'a\\tb\\n'\n")


@pytest.mark.parametrize(("code", "flagged"), [
    ('name=$1\nif [ $name = root ]; then exit; fi\n', True),
    ('if [ -n $scheme ]; then open; fi\n', True),
    ('name=$1\nif [ "$name" = root ]; then exit; fi\n', False),
    ('found=no\nfound=yes\n[ $found = yes ] && exit\n', False),  # a flag: never empty
    ('for v in $VERSIONS; do [ $v = 8.2 ] && continue; done\n', False),
])
def test_an_unquoted_test_is_flagged_when_its_value_can_be_empty(code: str,
                                                                flagged: bool) -> None:
    assert ("unquoted_var" in topics(SH + code)) is flagged


def test_a_loop_variable_named_i_is_vague_for_a_file_read_far_down_the_loop() -> None:
    body = "".join(f'  echo "{n}: $i"\n' for n in range(12))
    assert (2, "vague_name", "i") in found(SH + "for i do\n" + body + "done\n")
    counter = SH + "for i in 1 2 3; do\n" + body + "done\n"
    assert "vague_name" not in topics(counter)
    short = SH + 'for i do\n  gzip "$i"\ndone\n' + "echo later\n" * 12 + "sed -i s/a/b/ x\n"
    assert "vague_name" not in topics(short)


DESCRIBED = """\
CREATE FUNCTION box_eq(box, box) RETURNS bool AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
COMMENT ON FUNCTION box_eq(box, box) IS 'same as';
CREATE FUNCTION box_size(box) RETURNS float8 AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
CREATE FUNCTION box_size(box, int4) RETURNS float8 AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
CREATE FUNCTION box_in(cstring) RETURNS box AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
CREATE FUNCTION g_box_union(internal, internal)
RETURNS box AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
"""


def test_a_function_left_out_of_the_files_comments_is_named_once() -> None:
    named = [x for x in found(DESCRIBED, "sql") if x[1] == "sql_no_comment"]
    assert named == [(3, "sql_no_comment", "box_size")]


def test_a_file_that_comments_nothing_is_not_held_to_it() -> None:
    code = "\n".join(x for x in DESCRIBED.splitlines() if "COMMENT" not in x)
    assert "sql_no_comment" not in topics(code, "sql")


def test_definitions_under_an_obsolete_comment_are_flagged_until_the_next_comment() -> None:
    code = ("-- these are obsolete:\nCREATE OPERATOR @ (PROCEDURE = f);\n\n"
            "CREATE OPERATOR ~ (PROCEDURE = g);\n\n-- current\n"
            "CREATE OPERATOR @> (PROCEDURE = f);\n")
    assert [x[0] for x in found(code, "sql") if x[1] == "deprecated_kept"] == [2, 4]
    assert "deprecated_kept" not in topics("-- not deprecated\nCREATE VIEW v AS SELECT 1;\n",
                                           "sql")


def test_a_comment_on_one_definition_covers_that_one_only() -> None:
    # Found on a blind set: "-- Deprecated function" above each of two functions, then a
    # dozen current ones with single blank lines between them, all of which were flagged.
    code = ("-- Deprecated function\nCREATE FUNCTION old_limit(float4)\nRETURNS float4\n"
            "AS 'lib' LANGUAGE C;\n\nCREATE FUNCTION score(text)\nRETURNS float4\n"
            "AS 'lib' LANGUAGE C;\n\nCREATE OPERATOR %% (PROCEDURE = score);\n")
    assert [x[0] for x in found(code, "sql") if x[1] == "deprecated_kept"] == [2]


NEW_TOPICS = ("old_arithmetic", "unset_variable", "unchecked_cd", "temp_no_cleanup",
              "read_without_r", "which_command", "echo_options", "deprecated_kept",
              "sql_no_comment")


@pytest.mark.parametrize("topic", NEW_TOPICS)
def test_each_new_topic_is_said_labelled_and_earns_only_a_real_fix(topic: str) -> None:
    """Said and labelled; an option earned only where it is the fix (a one-line fix earns
    none), and never a model."""
    assert record(topic).problem and record(topic).fix
    assert record(topic).label
    assert topic not in fit.EARNS["model"]
    assert [f for f in fit.FAMILIES if topic in fit.EARNS[f]] in ([], ["rewrite"])
