"""What blind round 13's readers judged wrong (bench/blind/round13): an unquoted variable
inside bash's `[[ ]]`, where nothing is split or globbed, in four bash completion scripts."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

SCRIPT = '''#!/bin/bash
_complete() {
    local cur=$2
    if [[ $cur == -D* ]]; then
        echo define
    fi
    [[ -n $cur ]] && cp $cur /tmp/seen
    if [ $cur = --help ]; then
        echo help
    fi
}
'''


def test_a_variable_in_double_brackets_is_not_split_and_one_outside_still_is() -> None:
    lines = {f.line for f in analyze(SCRIPT, "shell").findings if f.topic == Topic.UNQUOTED_VAR}
    assert 4 not in lines  # [[ $cur == -D* ]]: bash's own test
    assert {7, 8} <= lines  # cp $cur beside it; [ $cur = --help ], the old test
