"""The virtual clock (tests/virtual_clock.py): idle waits take no real time, and the loop never
moves its clock past a timer while work it would have waited for is still on its way."""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
import time

from aiohttp import web

from tests.loopback import serve
from tests.virtual_clock import VirtualClockLoop, loop_epoch

WORK = 0.3  # seconds of real work; the timer each test watches is ten times that
TIMER = 3.0


def spin(seconds: float) -> None:
    """Real CPU work (no sleep): a thread that is busy, not waiting."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        pass


async def test_an_idle_minute_takes_no_real_time(virtual_clock: VirtualClockLoop) -> None:
    started, wall, real = virtual_clock.time(), loop_epoch(), time.monotonic()
    await asyncio.sleep(60)
    assert virtual_clock.time() - started >= 60
    assert loop_epoch() - wall >= 60  # wall time on the loop's clock moves with it
    assert time.monotonic() - real < 1.0
    assert virtual_clock.skipped >= 59 and virtual_clock.jumps >= 1


async def test_without_the_fixture_the_loop_keeps_real_time() -> None:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualClockLoop) and not loop.skip_idle
    real = time.monotonic()
    await asyncio.sleep(0.05)
    assert time.monotonic() - real >= 0.05 and loop.skipped == 0


async def test_an_executor_job_holds_the_clock(virtual_clock: VirtualClockLoop) -> None:
    timer = asyncio.ensure_future(asyncio.sleep(TIMER))
    await asyncio.to_thread(time.sleep, WORK)  # a sleeping thread: only the job count tells
    assert not timer.done(), "the clock leapt over a timer while a thread job ran"
    await timer


async def test_a_busy_thread_of_its_own_holds_the_clock(
        virtual_clock: VirtualClockLoop) -> None:
    """Like aiosqlite's worker: a thread outside the executor, answering through
    call_soon_threadsafe."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def work() -> None:
        spin(WORK)
        loop.call_soon_threadsafe(answer.set_result, "done")

    timer = asyncio.ensure_future(asyncio.sleep(TIMER))
    threading.Thread(target=work, daemon=True).start()
    assert await answer == "done"
    assert not timer.done(), "the clock leapt over a timer while a thread worked"
    await timer


async def test_a_subprocess_holds_the_clock(virtual_clock: VirtualClockLoop) -> None:
    timer = asyncio.ensure_future(asyncio.sleep(TIMER))
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", f"import time; time.sleep({WORK})")
    assert await child.wait() == 0
    assert not timer.done(), "the clock leapt over a timer while a subprocess ran"
    await timer


async def test_a_socket_to_another_thread_holds_the_clock(
        virtual_clock: VirtualClockLoop) -> None:
    """A peer that is not served by this loop (another process, here a thread) answers in
    its own time: the loop waits for it in real time."""
    loop = asyncio.get_running_loop()
    ours, theirs = _tcp_pair()

    def answer_late() -> None:
        time.sleep(WORK)
        theirs.sendall(b"late")

    timer = asyncio.ensure_future(asyncio.sleep(TIMER))
    threading.Thread(target=answer_late, daemon=True).start()
    try:
        assert await loop.sock_recv(ours, 4) == b"late"
        assert not timer.done(), "the clock leapt over a timer while a peer was answering"
    finally:
        ours.close()
        theirs.close()
    await timer


async def test_a_loopback_server_of_this_loop_does_not_hold_the_clock(
        virtual_clock: VirtualClockLoop) -> None:
    """The twin and the fake LLM server are served by the test's own loop: a handler that
    waits 30 s on the loop's clock answers at once in real time."""
    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(30)
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/slow", slow)
    runner, url = await serve(app)
    real, started = time.monotonic(), virtual_clock.time()
    try:
        reader, writer = await asyncio.open_connection(*_host_port(url))
        writer.write(b"GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        reply = await reader.read()
        writer.close()
    finally:
        await runner.cleanup()
    assert reply.startswith(b"HTTP/1.1 200") and reply.endswith(b"ok")
    assert virtual_clock.time() - started >= 30
    assert time.monotonic() - real < 2.0


def _tcp_pair() -> tuple[socket.socket, socket.socket]:
    listener = socket.create_server(("127.0.0.1", 0))
    ours = socket.create_connection(listener.getsockname())
    theirs, _ = listener.accept()
    listener.close()
    ours.setblocking(False)
    return ours, theirs


def _host_port(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)
