"""The `tribunalbot` command's first lines (the console script and `python -m tribunalbot`).

For `tribunalbot bot` the stop signals are caught here, before pydantic, discord.py and the
store are imported or opened (together most of a second, more on a loaded machine): a
SIGTERM at any moment of the bot's life ends it cleanly, with exit status 0. Every other
command keeps Python's own handling (Ctrl-C is "interrupted", exit 130)."""

from __future__ import annotations

import sys

from tribunalbot.stopping import STOP, exit_now

_TAKES_VALUE = ("--config",)  # the options before the command that take a value


def command_of(argv: list[str]) -> str | None:
    """The command `argv` runs (its first word that is not an option or an option's value)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _TAKES_VALUE:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def main() -> int:
    bot = command_of(sys.argv[1:]) == "bot"
    if bot:
        STOP.install()
    from tribunalbot.terminal.cli import main as run

    code = run()
    if bot:  # its handlers stay to the very end
        exit_now(code)
    return code
