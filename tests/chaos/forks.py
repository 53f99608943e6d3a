"""The test's side of the zygote (tests/chaos/zygote.py): bot lives forked from one
interpreter that imported the bot once, each seen through the part of asyncio's `Process`
that the lives use (pid, returncode, send_signal, kill, wait)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the bot's processes run from here


class Forked:
    """A life forked by the zygote. Not a child of this process: its signals go through a
    pidfd (never to a recycled pid), its exit status comes from the zygote, which reaps it."""

    def __init__(self, pid: int, exited: asyncio.Future[int]) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._exited = exited
        self._pidfd: int | None = None
        with contextlib.suppress(ProcessLookupError):  # gone already: nothing to signal
            self._pidfd = os.pidfd_open(pid)
        exited.add_done_callback(self._ended)

    def _ended(self, exited: asyncio.Future[int]) -> None:
        if not exited.cancelled() and exited.exception() is None:
            self.returncode = exited.result()
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None

    def send_signal(self, sig: int) -> None:
        if self.returncode is None and self._pidfd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)


class Forker:
    """The zygote process and its reports: `fork` a life, learn when each one exits."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process, self.log = process, log
        self._forked: asyncio.Queue[Forked | None] = asyncio.Queue()  # None: it ended
        self._exits: dict[int, asyncio.Future[int]] = {}
        self._ordering = asyncio.Lock()  # one order at a time: answers match their orders
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, log: Path, env: dict[str, str] | None = None) -> Forker:
        """The zygote, with `env` (this process's by default; each life's own comes with
        its fork) and its own errors in `log`."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"} if env is None else env
        with log.open("wb") as sink:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.chaos.zygote", cwd=ROOT, env=env,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=sink)
        return cls(process, log)

    async def fork(self, env: dict[str, str], log: Path) -> Forked:
        assert self.process.stdin is not None
        order = json.dumps({"env": env, "log": str(log)})
        async with self._ordering:
            self.process.stdin.write(order.encode() + b"\n")
            await self.process.stdin.drain()
            forked = await self._forked.get()
        if forked is None:
            said = self.log.read_text(errors="replace").splitlines()[-12:]
            raise ProcessLookupError(f"the zygote ended (code {self.process.returncode}); "
                                     "its log ends:\n" + "\n".join(said))
        return forked

    async def _read(self) -> None:
        assert self.process.stdout is not None
        loop = asyncio.get_running_loop()
        async for line in self.process.stdout:
            what, pid, *code = line.decode().split()
            exited = self._exits.setdefault(int(pid), loop.create_future())
            if what == "forked":
                self._forked.put_nowait(Forked(int(pid), exited))
            elif not exited.done():
                exited.set_result(int(code[0]))
        for exited in self._exits.values():  # the zygote is gone: so are its lives
            if not exited.done():
                exited.set_exception(ProcessLookupError("the zygote ended before this life"))
        self._forked.put_nowait(None)

    async def close(self) -> None:
        """Its lives SIGKILLed and reaped (the zygote does it at the end of its input)."""
        if self.process.stdin is not None and not self.process.stdin.is_closing():
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            self.kill_now()
            await self.process.wait()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader

    def kill_now(self) -> None:
        """The last resort, from synchronous teardown; its lives see their parent gone and
        leave (tests/orphans.py)."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
