"""What blind round 18's readers judged wrong (bench/blind/round18): asyncore's catch-all that
follows a handler re-raising what must go up and hands the rest to `handle_error()`, and an
empty `.catch` that only keeps a promise from an unhandled rejection while an 'error'
listener above forwards the stream's errors."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic


def _lines(code: str, language: str, topic: Topic) -> set[int]:
    return {f.line for f in analyze(code, language, use_ruff=False).findings
            if f.topic == topic}


HANDLERS = '''_reraised = (KeyboardInterrupt, SystemExit)


def read(obj):
    try:
        obj.handle_read_event()
    except _reraised:
        raise
    except:
        obj.handle_error()


def poll(obj):
    try:
        obj.poll()
    except:
        obj.reset()
'''


def test_a_catch_all_after_a_re_raise_that_hands_on_the_rest_drops_nothing() -> None:
    assert _lines(HANDLERS, "python", Topic.BARE_EXCEPT) == {16}


STREAMS = '''function cached (stream, cache) {
  const middle = new Minipass()
  stream.on('error', err => middle.emit('error', err))
  const cstream = cache.put.stream()
  cstream.on('error', err => stream.emit('error', err))
  cstream.promise().catch(() => {}).then(() => middle.end())
  return middle
}

function quiet (job) {
  job.promise().catch(() => {}).then(() => job.done())
}
'''


def test_an_empty_catch_whose_errors_a_listener_forwards_swallows_nothing() -> None:
    assert _lines(STREAMS, "javascript", Topic.SWALLOWED_ERROR) == {11}
