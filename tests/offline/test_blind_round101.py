"""What blind round 101's readers judged wrong (bench/blind/round101), fixed after the round:
shell injection said of a hook's own command (`subprocess.call(self.cmd, shell=True)`),
which the user writes in their configuration and which a shell runs on purpose (pipes, `&&`);
an argument list would break it. A command built from a request is still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

HOOKS = '''import subprocess


class Hook:
    def __init__(self, name, cmd):
        self.name = name
        self.cmd = cmd

    def run(self):
        return subprocess.call(self.cmd, shell=True)


def grep(request):
    return subprocess.call("grep " + request.args["q"] + " log.txt", shell=True)
'''


def test_a_hooks_own_configured_command_may_run_in_a_shell():
    assert said_lines(HOOKS, Topic.SHELL_INJECTION) == {14}
