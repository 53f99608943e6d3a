"""What blind round 15's readers judged wrong or not worth saying (bench/blind/round15), and
what its panelists saw honest seats argue from findings that were false: a loop that takes a
lock back after cancellation read as an unbounded retry, a gettext plural rule compiled with
`new Function` read as eval of data, `cd` into a directory the script just made, `read`
without -r on machine output, a /tmp prefix a cleanup compares against read as a temp file,
and a first element guarded by `?.` or by a length test on the same line."""

from __future__ import annotations

import pytest

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import REGISTRY


def _lines(code: str, language: str, topic: Topic) -> set[int]:
    return {f.line for f in analyze(code, language, use_ruff=False).findings
            if f.topic == topic}


# A retry loop with no bound: the one each test's idiom is told apart from.
RETRY_FOREVER = '''

def fetch(connect):
    while True:
        try:
            return connect()
        except OSError:
            pass
'''

RETRIES = '''import asyncio


async def take_back(lock):
    cancelled = False
    while True:
        try:
            await lock.acquire()
            break
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
''' + RETRY_FOREVER


def test_a_loop_that_takes_a_lock_back_after_cancellation_is_no_retry() -> None:
    assert _lines(RETRIES, "python", Topic.UNBOUNDED_RETRY) == {17}


FUNCTIONS = '''const Docs = {
  addTranslations: (catalog) => {
    Docs.PLURAL = new Function(
      "n",
      `return (${catalog.plural_expr})`
    );
  },
  run: (userCode) => {
    return new Function("x", userCode);
  },
};
'''


def test_a_plural_rule_compiled_by_design_is_not_eval_of_data() -> None:
    assert _lines(FUNCTIONS, "javascript", Topic.EVAL) == {9}


CDS = '''#!/bin/sh
mkdir -p /tmp/source
cd /tmp/source
tar xf pkg.tar.gz
cd ./pkg
cd /tmp/source
mkdir -p build
rm -rf build
cd build
'''


def test_cd_into_a_directory_the_script_just_made_is_not_flagged() -> None:
    # Line 3 and 6 enter a directory made above; 5 one the tarball may not hold; 9 one made
    # and then removed.
    assert _lines(CDS, "shell", Topic.UNCHECKED_CD) == {5, 9}


HARMS = '''#!/bin/sh
cd "$1"
make -j4
cd "$2"
rm -rf build/*
cd /var/cache/pkg
rm -f /tmp/pkg.lock
'''


def test_an_unchecked_cd_is_said_where_what_follows_does_harm_there() -> None:
    """Before a build the failed cd fails the build too (round 15's readers: noise); before
    `rm -rf build/*` it deletes in the wrong directory. An absolute path is not moved."""
    analysis = analyze(HARMS, "shell", use_ruff=False)
    cds = [f for f in analysis.findings if f.topic == Topic.UNCHECKED_CD]
    assert {f.line for f in cds} == {2, 4, 6}
    assert {f.line for f in cds if analysis.says(f)} == {4}


READS = '''#!/bin/sh
gpg --with-colons --list-keys | while read keyline; do
  echo "$keyline"
done
'''


def test_read_without_r_is_kept_but_not_said() -> None:
    """Readers judged it weak 4 times in 5: the input is mostly machine output with no
    backslash in it. The analysis keeps it for the calls; no review says it."""
    analysis = analyze(READS, "shell", use_ruff=False)
    found = [f for f in analysis.findings if f.topic == Topic.READ_WITHOUT_R]
    assert found and not any(analysis.says(f) for f in found)


TEMPS = '''#!/bin/sh
temp_dir=$(mktemp -d /tmp/perf-test.XXXXXXXXXX)
cleanup() {
  sane=$(echo "${temp_dir}" | cut -b 1-15)
  if [ "${sane}" = "/tmp/perf-test" ] ; then
    rm -rf "${temp_dir}"
  fi
}
echo hello > "/tmp/report.txt"
'''


def test_a_tmp_prefix_compared_against_is_no_temp_file() -> None:
    assert _lines(TEMPS, "shell", Topic.TEMP_FILE) == {9}


FIRSTS = '''const focusSearch = () => {
  document.querySelectorAll("input[name=q]")[0]?.focus();
};
const bodyOf = () => {
  const divBody = document.querySelectorAll("div.body");
  const body = divBody.length ? divBody[0] : document.querySelector("body");
  return body;
};
const firstLink = () => {
  document.querySelectorAll("a.next")[0].focus();
};
'''


def test_a_first_element_guarded_on_its_own_line_is_checked() -> None:
    assert _lines(FIRSTS, "javascript", Topic.INDEX_EMPTY) == {10}


def test_the_fix_for_a_comparison_to_false_keeps_its_meaning() -> None:
    """"Or test the value itself" turned `!= False` into a truth test that also rejects an
    empty list: every wording of the fix is an identity check."""
    record = REGISTRY[Topic.NONE_COMPARE]
    assert all("`is" in w and "itself" not in w for w in record.wordings)


MERGES = '''def pick(items, kind):
    for item in items:
        if item.kind == kind:
            # the flag is checked apart from the kind: a disabled item is skipped quietly
            if item.enabled:
                return item
    return None


def first(items, kind):
    """The first item, unless the kind asks for none."""
    if not "default" in kind:
        return None
    return items[0]
'''


def test_nested_ifs_are_not_merged_in_a_note_and_a_named_form_is() -> None:
    """Readers judged "merge the nested ifs" worth a note 1 time in 12 over rounds 1-15 (the
    nesting carries a comment, or mirrors a branch beside it); `x not in` 8 in 11."""
    analysis = analyze(MERGES, "python")
    if not analysis.used_ruff:
        pytest.skip("ruff is not installed here")
    said = {f.source for f in analysis.findings if analysis.says(f)}
    found = {f.source for f in analysis.findings}
    assert {"ruff:SIM102", "ruff:E713"} <= found, found
    assert "ruff:E713" in said and "ruff:SIM102" not in said, said
