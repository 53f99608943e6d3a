"""What blind round 16's readers judged wrong (bench/blind/round16): every change it said on 40
mature files. A list named `requests` filled for one batched call read as a request per item,
`which` inside a message read as the command, variables an `eval $(git ... --shell)` sets
read as never set, eval of `git rev-parse --sq` output read as running the caller's words,
`rm -rf ${base}` read as wiping / when empty (it removes nothing), and the docs' own search
index written into the page read as request text."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic


def _lines(code: str, language: str, topic: Topic) -> set[int]:
    return {f.line for f in analyze(code, language, use_ruff=False).findings
            if f.topic == topic}


BATCH = '''import requests as http


def delete_all(client, refs):
    requests = []
    for ref in refs:
        requests.append((client.maps, "Delete", ref))
    return client.MakeRequests(requests)


def fetch_all(urls):
    pages = []
    for url in urls:
        pages.append(http.get(url, timeout=5))
    return pages


def probe_all(urls):
    out = []
    for url in urls:
        out.append(requests.get(url, timeout=5))
    return out
'''


def test_a_list_named_requests_is_no_request_per_item() -> None:
    assert _lines(BATCH, "python", Topic.N_PLUS_ONE) == {21}


SCRIPT = '''#!/bin/sh
describe() {
	echo "      from  $oldrev (which is now obsolete)"
	path=$(which git)
	echo "$path"
}
tagged() {
	eval $(git for-each-ref --shell --format='
	tagobject=%(*objectname)' $refname
	)
	echo "   tagging  $tagobject"
	echo "   missing  $never_set"
}
'''


def test_which_inside_a_message_is_a_word_not_the_command() -> None:
    assert _lines(SCRIPT, "shell", Topic.WHICH_COMMAND) == {4}


def test_a_script_that_evals_a_command_s_output_may_set_anything() -> None:
    assert _lines(SCRIPT, "shell", Topic.UNSET_VARIABLE) == set()
    plain = SCRIPT.replace("eval $(git", "out=$(git")
    assert 12 in _lines(plain, "shell", Topic.UNSET_VARIABLE)


EVALS = '''#!/bin/sh
prefix=$(git rev-parse --show-prefix)
eval "set $(git rev-parse --sq --prefix "$prefix" -- "$@")"
eval "run $@"
'''


def test_eval_of_output_git_quotes_for_the_shell_is_its_idiom() -> None:
    assert _lines(EVALS, "shell", Topic.EVAL) == {4}


REMOVES = '''#!/bin/sh
base=$(mktemp -d /tmp/perf-daemon.XXX)
rm -rf ${base}
rm -rf "$base"
rm -rf ${base}/
rm -rf $base/cache
rm -rf ${base}*
'''


def test_rm_of_a_whole_empty_variable_removes_nothing() -> None:
    """`rm -rf` left with no argument does nothing; a path built on the variable is `/` or
    the working directory's everything."""
    assert _lines(REMOVES, "shell", Topic.DESTRUCTIVE_COMMAND) == {5, 6, 7}


PAGE = '''const params = new URLSearchParams(window.location.search);
const query = params.get("q");
const words = query.toLowerCase();
const show = (item) => {
  const [docName, title, descr] = item;
  link.innerHTML = title;
  note.innerHTML = " (" + descr + ")";
  head.innerHTML = "Results for " + words;
  tail.innerHTML = location.hash;
};
'''


def test_only_request_text_written_into_html_is_cross_site_scripting() -> None:
    assert _lines(PAGE, "javascript", Topic.XSS) == {8, 9}


COMMAND = '''class Delete(base.DeleteCommand):
    """Delete a tunnel."""

    def Run(self, args):
        holder = base_classes.ComputeApiHolder(self.ReleaseTrack())
        client = holder.client
        return client.MakeRequests(args.names)

    def Describe(self, args):
        return args.names[0]
'''


def test_a_plant_never_says_a_function_that_takes_a_client_builds_none() -> None:
    """Round 16's panel could not refute "hard-wires its client" at a `Run` header whose next
    lines take one; a function that takes none is still refutable."""
    from tribunalbot.llm.offline.reasons import refutation

    analysis = analyze(COMMAND, "python", use_ruff=False)
    assert refutation(Topic.HARDWIRED_CLIENT, analysis, 4) == ""
    assert refutation(Topic.HARDWIRED_CLIENT, analysis, 9)


NESTS = '''function place(state) {
  for (const peer of state.peers) {
    if (peer.ok) {
      if (peer.dev) {
        return peer;
      }
    }
  }
  return null;
}

function name(state) {
  return state.name;
}
'''


def test_a_misplaced_fix_of_shape_lands_only_where_the_code_refutes_it() -> None:
    """"Nests its logic several blocks deep" of a header whose function nests three is no
    plant a reader can show wrong; of a one-line function it is."""
    from tribunalbot.llm.offline.sabotage import _shows

    analysis = analyze(NESTS, "javascript", use_ruff=False)
    assert _shows(Topic.DEEP_NESTING, analysis, 1)
    assert not _shows(Topic.DEEP_NESTING, analysis, 12)
