"""Each kind of finding is said only where it is true of the code: the wrong kinds found on
third-party code (issue 15), each pinned on a small piece of code written for the test, next
to the same construct where the finding is right."""

from __future__ import annotations

import pytest

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.imports import LOCAL, RELATIVE, STDLIB, THIRD_PARTY


def topics(code: str, language: str = "python", line: int | None = None) -> set[str]:
    return {f.topic for f in analyze(code, language).findings if line is None or f.line == line}


RETRYING = """\
import time

def fetch(client, url):
    while True:
        try:
            return client.get(url)
        except OSError:
            time.sleep(1)
"""
COUNTED = """\
def fetch(client, url):
    tries = 0
    while True:
        try:
            return client.get(url)
        except OSError:
            tries += 1
            if tries > 3:
                raise
"""
GENERATOR = """\
def flow(inner):
    request = next(inner)
    while True:
        response = yield request
        try:
            request = inner.send(response)
        except StopIteration:
            break
"""


@pytest.mark.parametrize(("code", "expected"), [
    (RETRYING, True), (COUNTED, False), (GENERATOR, False),
])
def test_a_retry_loop_without_a_ceiling_is_one_and_a_generator_is_not(code: str,
                                                                      expected: bool) -> None:
    assert ("unbounded_retry" in topics(code)) is expected


RERAISED = """\
def save(path, data):
    handle = open(path, "w")
    try:
        handle.write(data)
    except:
        handle.close()
        raise
    return handle
"""
SWALLOWED = """\
def save(path, data):
    try:
        write(path, data)
    except:
        return None
"""


def test_a_bare_except_that_re_raises_does_not_carry_on() -> None:
    assert "bare_except" not in topics(RERAISED)
    assert "bare_except" in topics(SWALLOWED, line=4)


def test_a_broad_handler_that_passes_the_exception_on_is_not_blind() -> None:
    passed_on = ("def run(job, future):\n    try:\n        future.set_result(job())\n"
                 "    except Exception as exc:\n        future.set_exception(exc)\n")
    printed = ("def run(job):\n    try:\n        job()\n    except Exception as exc:\n"
               "        print('skipping', exc)\n")
    assert "broad_except" not in topics(passed_on)
    assert "broad_except" in topics(printed, line=4)


def test_an_index_is_unchecked_only_when_nothing_guards_it() -> None:
    guarded = ("def first(rows):\n    found = rows.fetchall()\n"
               "    if found and found[0] == 1:\n        return found[0]\n")
    unguarded = "def first(cur):\n    rows = cur.fetchall()\n    return rows[0]\n"
    always = "def head(text):\n    return text.split(',')[0]\n"
    assert "index_empty" not in topics(guarded)
    assert "index_empty" not in topics(always)
    assert "index_empty" in topics(unguarded, line=3)


def test_a_todo_is_no_unchecked_ownership_action() -> None:
    note = "def header(a1):\n    # TODO: implement auth-int\n    return a1\n"
    missing = ("app.delete('/doc/:id', (req, res) => {\n  // TODO: check the caller owns it\n"
               "  fs.unlink(path.join(DIR, req.params.id), () => {})\n})\n")
    assert "missing_auth" not in topics(note)
    assert "todo" in topics(note, line=2)
    assert "missing_auth" in topics(missing, "javascript", line=2)


def test_tmp_as_a_root_to_try_is_no_guessable_file() -> None:
    roots = "def candidates():\n    return ['/tmp', '/var/tmp', '/usr/tmp']\n"
    fixed = "def report():\n    with open('/tmp/report.csv', 'w') as out:\n        out.write('')\n"
    docstring = '"""Returns names like /tmp/tmpab12cd."""\n'
    assert "temp_file" not in topics(roots) | topics(docstring)
    assert "temp_file" in topics(fixed, line=2)


def test_a_relative_deadline_does_not_depend_on_the_clock_or_time_zone() -> None:
    go = ("package main\n\nfunc read(c net.Conn) {\n"
          "\tc.SetDeadline(time.Now().Add(5 * time.Second))\n}\n")
    python = "import datetime\n\ndef stamp():\n    return datetime.datetime.now()\n"
    assert "naive_datetime" not in topics(go, "go")
    assert "naive_datetime" in topics(python, line=4)


def test_imports_say_where_they_come_from() -> None:
    code = ("from __future__ import annotations\nimport os\nimport httpx\n"
            "from . import models\nfrom ._utils import quote\nimport pytz\n")
    found = {i.name: i.kind for i in analyze(code, "python").imports}
    assert found == {"__future__": STDLIB, "os": STDLIB, "httpx": THIRD_PARTY,
                     ".": RELATIVE, "._utils": RELATIVE, "pytz": THIRD_PARTY}
    # Only pytz is worth a note: zoneinfo covers it; nothing built in replaces httpx.
    assert {f.line for f in analyze(code, "python").findings
            if f.topic == "third_party"} == {6}


def test_a_package_s_own_absolute_imports_are_not_dependencies() -> None:
    code = "from tenacity._utils import override\nfrom tenacity import RetryCallState\n"
    assert {i.kind for i in analyze(code, "python").imports} == {LOCAL}
    assert "third_party" not in topics(code)


def test_a_shell_script_has_no_imports_to_pin() -> None:
    script = "#!/bin/sh\nset -e\n. ./lib.sh\necho hello\n"
    analysis = analyze(script, "")
    assert analysis.language == "shell"
    assert [i.kind for i in analysis.imports] == [LOCAL]
    assert not analysis.third_party_imports
    assert "third_party" not in topics(script, "shell")


def test_a_shebang_names_the_language_whatever_was_guessed() -> None:
    assert analyze("#!/bin/sh\nx=`date`\n", "typescript").language == "shell"
    assert "backticks" in topics("#!/bin/sh\nset -e\nx=`date \"+%s\"`\n", "typescript")
    # A plain `date` neither nests nor quotes: style, not worth a reviewer's words.
    assert "backticks" not in topics("#!/bin/sh\nset -e\nx=`date`\n", "shell")


def test_comments_and_docstrings_are_not_code() -> None:
    code = ('"""Runs SELECT * FROM users and eval() on /tmp/x."""\n'
            "# print(eval(open('/tmp/x').read()))\n")
    assert not topics(code) & {"data_exposure", "eval", "temp_file", "print_output"}


def test_nesting_is_counted_in_blocks_whatever_the_indentation() -> None:
    shallow = ("def f(items):\n    for item in items:\n        if item:\n"
               "            total = (item +\n                     1)\n")
    deep = ("def f(rows):\n    for row in rows:\n        if row:\n            try:\n"
            "                for cell in row:\n                    print(cell)\n"
            "            except ValueError:\n                pass\n")
    assert "deep_nesting" not in topics(shallow)
    assert "deep_nesting" in topics(deep, line=6)


def test_a_loop_over_a_fixed_range_or_the_item_s_own_parts_is_not_quadratic() -> None:
    fixed = ("def f(dirs):\n    for d in dirs:\n        for attempt in range(100):\n"
             "            d()\n")
    parts = ("def f(rows):\n    for row in rows:\n        for cell in row:\n"
             "            print(cell)\n")
    join = ("def f(sales, products):\n    for s in sales:\n        for p in products:\n"
            "            if p.sku == s.sku:\n                s.name = p.name\n")
    assert "quadratic" not in topics(fixed) | topics(parts)
    assert "quadratic" in topics(join, line=3)


def test_a_long_function_is_long_in_code_not_in_docstring() -> None:
    documented = "def f():\n    \"\"\"" + "Doc.\n" * 40 + "    \"\"\"\n    return 1\n"
    long_code = "def f(x):\n" + "".join(f"    x = x + {n}\n" for n in range(30)) + "    return x\n"
    assert "long_function" not in topics(documented)
    assert "long_function" in topics(long_code, line=1)
    # A straight run of 25 steps: a blind round's readers found no clearer split.
    assert "long_function" not in topics(long_code.replace("    x = x + 2", "    # x + 2"))
    assert "long_function" not in topics("def f(x):\n" + "".join(
        f"    x = x + {n}\n" for n in range(25)) + "    return x\n")


def test_a_file_returned_or_closed_in_finally_is_not_leaked() -> None:
    returned = "def make(p):\n    f = open(p)\n    return Wrapper(f)\n"
    closed = "def read(p):\n    f = open(p)\n    try:\n        return f.read()\n" \
             "    finally:\n        f.close()\n"
    leaked = "def read(p):\n    f = open(p)\n    data = f.read()\n    return data\n"
    assert "resource_leak" not in topics(returned) | topics(closed)
    assert "resource_leak" in topics(leaked, line=2)


def test_an_assert_on_internal_state_is_an_invariant() -> None:
    invariant = "class T:\n    def step(self):\n        assert self._state == 1\n"
    check = "def pay(amount):\n    assert amount > 0, 'amount must be positive'\n"
    assert "assert_in_code" not in topics(invariant)
    assert "assert_in_code" in topics(check, line=2)


def test_a_script_s_main_part_may_print_and_read_its_arguments() -> None:
    script = ("import sys\n\ndef main():\n    print(sys.argv[1])\n\n"
              "if __name__ == '__main__':\n    main()\n")
    library = "import os\n\ndef helper(path):\n    print(os.environ['HOME'])\n"
    assert not topics(script) & {"print_output", "hidden_side_effect", "untrusted_input"}
    assert {"print_output", "hidden_side_effect"} <= topics(library, line=4)


def test_a_suppression_comment_is_the_author_s_word() -> None:
    code = "def f(x):\n    assert x > 0, 'positive'  # noqa: S101\n"
    assert "assert_in_code" not in topics(code)


def test_a_view_over_a_function_is_no_data_exposure() -> None:
    view = "CREATE VIEW stats AS\n  SELECT * FROM stats_function(true);\n"
    query = "SELECT * FROM users WHERE email LIKE '%@example.com';\n"
    assert "data_exposure" not in topics(view, "sql")
    assert "data_exposure" in topics(query, "sql", line=1)


def test_a_script_that_tracks_exit_statuses_needs_no_errexit() -> None:
    careful = "#!/bin/bash\ncmd1\nr=$?\ncmd2 || exit 1\n"
    careless = "#!/bin/bash\ncd /srv/app\nrm -f cache.db\n"
    assert "no_errexit" not in topics(careful, "shell")
    assert "no_errexit" in topics(careless, "shell")
    # Its own error flag, or a library it sources, which `set -u` would trip on.
    assert "no_errexit" not in topics("#!/bin/bash\nerror=0\ncmd || error=1\n", "shell")
    assert "no_errexit" not in topics("#!/bin/bash\n. git-sh-setup\ncmd\n", "shell")


def test_set_euo_pipefail_is_never_the_fix_for_a_posix_sh_script() -> None:
    # dash, Debian's /bin/sh, has no pipefail: the fix would stop the script on line 1.
    assert "no_errexit" not in topics("#!/bin/sh\ncd /srv/app\nrm -f cache.db\n", "shell")


def test_a_catch_all_its_author_explains_is_a_choice() -> None:
    code = ("def show(x):\n    try:\n        return repr(x)\n"
            "    except Exception:\n        # any object's __repr__ may fail: show its type\n"
            "        return '<%s>' % type(x).__name__\n")
    assert "broad_except" not in topics(code, "python")
    assert "broad_except" in topics(code.replace("        # any object's __repr__ may fail: "
                                                 "show its type\n", ""), "python")


def test_md5_as_a_checksum_is_not_a_weak_hash() -> None:
    checksum = "import hashlib\n\ndef changed(data, theirs):\n" \
               "    return hashlib.md5(data).hexdigest() != theirs\n"
    password = "import hashlib\n\ndef store(password):\n" \
               "    return hashlib.md5(password.encode()).hexdigest()\n"
    assert "weak_hash" not in topics(checksum, "python")
    assert "weak_hash" in topics(password, "python")


def test_only_a_package_the_standard_library_covers_is_worth_a_dependency_note() -> None:
    assert "third_party" in topics("import six\n\nprint(six.PY3)\n", "python")
    # A package's own modules, or one nothing built in replaces, are what the code is.
    assert "third_party" not in topics("import execnet.gateway\n\nprint(execnet)\n",
                                       "python")


def test_eval_in_shell_is_flagged_for_outside_input_only() -> None:
    own = "#!/bin/sh\nset -e\nargs=$(quote \"$@\")\neval \"set -- $args\"\n"
    outside = "#!/bin/sh\nset -e\neval \"$HOOK\"\n"
    assert "eval" not in topics(own, "shell")
    assert "eval" in topics(outside, "shell", line=3)


def test_go_errors_wrapped_with_v_lose_their_chain() -> None:
    code = ("package main\n\nfunc load() error {\n\tif err := read(); err != nil {\n"
            "\t\treturn fmt.Errorf(\"load: %v\", err)\n\t}\n\treturn nil\n}\n")
    assert "wrapped_error" in topics(code, "go", line=5)
    assert "wrapped_error" not in topics(code.replace("%v", "%w"), "go")


# Round 2 of the blind set (bench/blind/round2): idioms its readers found flagged wrongly.

def test_a_function_the_module_docstring_describes_needs_no_docstring_of_its_own() -> None:
    body = "".join(f"    v = v * {n} + 1\n" for n in range(10))
    code = f'"""Tools.\n\nmix(a, b) blends two values."""\n\ndef mix(v, b):\n{body}    return v\n'
    assert "missing_docstring" not in topics(code, "python")
    assert "missing_docstring" in topics(code.replace("mix(a, b) blends", "It blends"),
                                         "python")


def test_eval_of_the_users_own_command_is_how_a_script_runs_it() -> None:
    assert "eval" not in topics("#!/bin/sh\neval ${PAGER-more} \\\"\\$@\\\"\n", "shell")
    assert "eval" in topics("#!/bin/sh\neval \"echo $1\"\n", "shell")


def test_eval_of_a_name_a_pattern_cut_out_is_a_lookup() -> None:
    code = ("import re\n\ndef lookup(text, space):\n"
            "    m = re.match(r'(\\w+(\\.\\w+)*)', text)\n    expr = m.group(1)\n"
            "    return eval(expr, space)\n")
    assert "eval" not in topics(code, "python")
    assert "eval" in topics(code.replace("m.group(1)", "text.strip()"), "python")


def test_one_letters_of_a_notation_are_not_vague() -> None:
    body = "".join(f"    r = r + {n}\n" for n in range(12))
    code = f"def to_grey(r, g, b):\n    r = r * 0.3\n{body}    return r + g * 0.6 + b * 0.1\n"
    assert "vague_name" not in topics(code, "python")


def test_one_case_of_a_switch_over_small_numbers_is_no_magic_number() -> None:
    code = ("def width(n):\n    if n == 2:\n        return 'short'\n    elif n == 3:\n"
            "        return 'odd'\n    elif n == 4:\n        return 'long'\n    return ''\n")
    assert "magic_number" not in topics(code, "python")


def test_a_pickle_store_by_design_is_not_told_to_stop_pickling() -> None:
    code = ('"""A dict on disk, its values pickled."""\nimport pickle\n\n'
            "def get(db, key):\n    return pickle.loads(db[key])\n")
    assert "unsafe_deserialize" not in topics(code, "python")
    assert "unsafe_deserialize" in topics(code.replace("its values pickled", "fast"), "python")
