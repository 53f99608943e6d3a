"""What blind round 20's readers judged wrong (bench/blind/round20): every change it said on
60 files. `jwt.decode(..., verify=False)` read as TLS turned off, an interactive edit loop
read as an unbounded retry, `0.0.0.0` inside a docker container read as exposing the host,
Maketext's eval of the code it compiled read as eval of data (its Perl subs were not even
found: `elsif` blocks were taken for functions), close errors let go after an error already
raised read as swallowed, and an in-memory `queryable.query` read as a database query."""

from __future__ import annotations

from tests.offline.test_blind_round15 import RETRY_FOREVER
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic


def _lines(code: str, language: str, topic: Topic) -> set[int]:
    return {f.line for f in analyze(code, language, use_ruff=False).findings
            if f.topic == topic}


TOKENS = '''import jwt
import requests


def claims(token, url):
    data = jwt.decode(token, verify=False)
    return requests.get(url, verify=False, timeout=5), data
'''


def test_a_token_read_without_its_signature_is_not_tls_off() -> None:
    assert _lines(TOKENS, "python", Topic.TLS_OFF) == {7}


EDITS = '''def run(edit, text, apply):
    while True:
        try:
            text = edit.OnlineEdit(text)
        except edit.NoSaveException:
            raise RuntimeError("aborted")
        try:
            return apply(text)
        except ValueError:
            pass
''' + RETRY_FOREVER


def test_a_loop_the_user_ends_by_editing_is_no_retry() -> None:
    assert _lines(EDITS, "python", Topic.UNBOUNDED_RETRY) == {14}


CONTAINERS = '''def args(host_ip, port):
    return ["docker", "run", "-p", "{}:{}".format(host_ip, port), "image",
            "--hostname", "0.0.0.0"]
'''


def test_the_any_address_inside_a_container_exposes_nothing() -> None:
    assert _lines(CONTAINERS, "python", Topic.DEBUG_EXPOSURE) == set()
    served = 'def serve(app):\n    app.run(host="0.0.0.0")\n'
    assert _lines(served, "python", Topic.DEBUG_EXPOSURE) == {2}


MAKETEXT = '''package Maketext;

sub _compile {
    my ($handle, $string) = @_;
    my @code;
    if ($string =~ m/^\\w+$/) {
        push @code, $string;
    }
    elsif ($string eq ']') {
        push @code, ']';
    }
    my $sub = eval(join '', 'sub {', @code, '}');
    return $sub;
}

sub run {
    my ($handle, $text) = @_;
    return eval($text);
}
'''


def test_perl_subs_are_functions_and_elsif_is_not() -> None:
    structure = analyze(MAKETEXT, "perl", use_ruff=False).structure
    assert structure is not None
    assert [f.name for f in structure.functions] == ["_compile", "run"]


def test_eval_of_the_code_a_compiler_built_is_its_purpose() -> None:
    assert _lines(MAKETEXT, "perl", Topic.EVAL) == {18}


CLOSES = '''class Writer {
  onRead (er) {
    if (er) {
      // ignoring the error from close(2) is a bad practice, but at
      // this point we already have an error, don't need another one
      if (this.threw) {
        try {
          this.close()
        } catch { }
      }
    }
  }
  close (cb = () => { }) {
    fs.close(this.fd, cb)
  }
}
'''


def test_a_close_error_let_go_after_an_error_is_not_swallowed() -> None:
    assert _lines(CLOSES, "javascript", Topic.SWALLOWED_ERROR) == set()


QUERIES = '''function view (queryable, fields, db) {
  for (const field of fields) {
    const s = queryable.query(field, { unwrap: true })
    const row = db.query(field, [1])
  }
}
'''


def test_a_lookup_in_memory_is_no_query_per_item() -> None:
    assert _lines(QUERIES, "javascript", Topic.N_PLUS_ONE) == {4}
