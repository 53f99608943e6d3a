"""`python -m tests.chaos.botstart`: the chaos bot (`tests.chaos.botproc`), its stop signals
caught first thing, before discord.py and the twin's modules are imported, as
`tribunalbot bot` catches them (`tribunalbot.terminal.launch`)."""

from __future__ import annotations

import sys

from tribunalbot.stopping import STOP, exit_now

CAUGHT = "botstart: the stop signals are caught"  # in the log: the test's moment zero


def main() -> None:
    STOP.install()
    print(CAUGHT, file=sys.stderr, flush=True)
    from tests.chaos.botproc import main as run

    exit_now(run())


if __name__ == "__main__":
    main()
