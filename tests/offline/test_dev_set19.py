"""Findings said as changes on round 19's development set: 400 files at random (seed 1919),
in no blind round, read by this reviewer's own author to find idioms before the next blind
round (bench/blind_rounds.py keeps them out of it). Not a blind figure: what it found wrong is
fixed here, with the honest case kept. The Cloud SDK's own `yaml` wrapper read as PyYAML's
unsafe load, `0o755` read as world-writable, best-effort `fs` calls and explained empty
catches read as swallowed failures, and a division by the length of the list being looped
over read as a division by zero."""

from __future__ import annotations

import pytest

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic


def _lines(code: str, language: str, topic: Topic, ruff: bool = False) -> set[int]:
    analysis = analyze(code, language, use_ruff=ruff)
    if ruff and not analysis.used_ruff:
        pytest.skip("ruff is not installed here")
    return {f.line for f in analysis.findings if f.topic == topic}


OWN_YAML = '''from googlecloudsdk.core import yaml


def read(text):
    return yaml.load(text)
'''


def test_a_package_s_own_yaml_wrapper_is_not_pyyaml() -> None:
    assert _lines(OWN_YAML, "python", Topic.UNSAFE_DESERIALIZE) == set()
    pyyaml = OWN_YAML.replace("from googlecloudsdk.core import yaml", "import yaml")
    assert _lines(pyyaml, "python", Topic.UNSAFE_DESERIALIZE) == {5}


MODES = '''import os


def publish(path):
    os.chmod(path, 0o755)
    os.chmod(path + ".log", 0o777)
'''


def test_an_executable_mode_is_not_world_writable() -> None:
    assert _lines(MODES, "python", Topic.WORLD_WRITABLE, ruff=True) == {6}


CATCHES = '''function finish (entry, fd) {
  if (entry.mtime) {
    try {
      fs.utimesSync(String(entry.absolute), entry.atime, entry.mtime)
    }
    catch { }
  }
  fs.close(fd, () => { })
  try {
    // optional: iterator support is loaded if present
    require('./iterator.js')(List)
  } catch (er) {}
  try {
    entry.write()
  }
  catch { }
}
'''


def test_best_effort_and_explained_empty_catches_swallow_nothing() -> None:
    assert _lines(CATCHES, "javascript", Topic.SWALLOWED_ERROR) == {16}


RATIOS = '''def progress(indexes):
    done = 0
    for index in indexes:
        done += 1
        print(done / len(indexes))
    for i, index in enumerate(indexes):
        print(i / len(indexes))
    return done / len(indexes)
'''


def test_a_division_by_the_length_of_the_list_looped_over_is_safe_in_the_loop() -> None:
    assert _lines(RATIOS, "python", Topic.DIV_EMPTY) == {8}
