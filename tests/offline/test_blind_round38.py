"""What blind round 38's readers judged wrong (bench/blind/round38), fixed after the round
and so measured by no blind round yet: a division by the length of a script's own data, at
its top level (a benchmark's fixed test split), called a division by an empty length. A
function dividing by what its caller hands it still is one."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

SCRIPT = '''import numpy as np

y_test = np.load("labels.npy")
for model in (1, 2):
    y_pred = np.zeros(len(y_test))
    err = 100.0 * np.sum(y_pred != y_test) / len(y_test)
    print(model, err)


def rate(results):
    ok = [k for k, v in results.items() if v]
    return len(ok) / len(results)
'''


def test_a_scripts_own_data_is_no_empty_divisor():
    assert said_lines(SCRIPT, Topic.DIV_EMPTY) == {12}


WINDOWS_PYTHON2 = '''import _winreg


def keys(root):
    return [_winreg.EnumKey(root, i) for i in xrange(8)]
'''


def test_a_file_that_imports_winreg_runs_on_python_2():
    # Round 40's readers: `xrange` after `import _winreg` is Python 2's own.
    assert said_lines(WINDOWS_PYTHON2, Topic.UNDEFINED_NAME) == set()
