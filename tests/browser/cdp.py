"""Headless Chromium driven over the DevTools protocol, with aiohttp's websocket client.

Just enough of the protocol for the page test: navigate, evaluate an expression in the page,
set the viewport's width, emulate the dark scheme, take a screenshot of the page or of one
element, and list every request the page made.
Runtime.evaluate runs outside the page's Content-Security-Policy, so the shipped page needs no
test hook of its own.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import math
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
         "--no-first-run", "--no-default-browser-check", "--disable-extensions",
         "--disable-background-networking", "--disable-component-update", "--mute-audio",
         "--disable-breakpad", "--disable-crash-reporter")
CALL_TIMEOUT = 30.0
MAX_SHOT_HEIGHT = 16000  # Chromium refuses larger captures
REAPER = Path(__file__).with_name("reaper.py")  # nothing of the browser outlives it


def _browser_processes(profile: Path | None = None) -> set[int]:
    """Every process (running or a zombie) whose name says it is Chromium's; with `profile`,
    not those that name another profile: a browser someone else runs on this machine at the
    same time (another test run) is not this one's. A zombie names none, so it always counts."""
    found = set()
    ours = f"--user-data-dir={profile}".encode() if profile is not None else None
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            name = stat.read_text().split("(", 1)[1].rsplit(")", 1)[0]
            if "chrom" not in name.lower():
                continue
            argv = stat.with_name("cmdline").read_bytes().split(b"\0")
            other = [a for a in argv if a.startswith(b"--user-data-dir=") and a != ours]
            if ours is None or not other:
                found.add(int(stat.parent.name))
    return found


def find_chromium() -> str | None:
    """$TRIBUNAL_CHROMIUM, else Debian's `chromium` (or `chromium-browser` elsewhere)."""
    wanted = os.environ.get("TRIBUNAL_CHROMIUM")
    if wanted:
        return shutil.which(wanted) or (wanted if Path(wanted).exists() else None)
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Chromium:
    port_tries = 300  # a tenth of a second each: Chromium gets 30 s to open its DevTools port

    def __init__(self, binary: str, profile: Path, width: int = 1000) -> None:
        self.binary, self.profile, self.width = binary, profile, width
        self.requests: list[str] = []  # every URL the page asked for, its own included
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._events: dict[str, asyncio.Event] = {}
        self._proc: asyncio.subprocess.Process | None = None
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None
        self._before: set[int] = set()

    async def __aenter__(self) -> Chromium:
        self.profile.mkdir(parents=True, exist_ok=True)
        log = (self.profile / "chromium.log").open("wb")
        self._before = _browser_processes()
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, str(REAPER), self.binary, *FLAGS, f"--user-data-dir={self.profile}",
            f"--window-size={self.width},900", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=log, stdin=asyncio.subprocess.DEVNULL,
            start_new_session=True)  # its helpers share one process group, ended together
        log.close()
        try:
            await self._connect()
        except BaseException:
            # `async with` runs no __aexit__ when __aenter__ fails: without this, a browser
            # that never opened its DevTools port outlived the test run, reaper and all.
            await self.__aexit__(None, None, None)
            raise
        return self

    async def _connect(self) -> None:
        port = await self._port()
        self._session = aiohttp.ClientSession()
        async with self._session.get(f"http://127.0.0.1:{port}/json/list") as reply:
            targets = await reply.json()
        page = next(t for t in targets if t["type"] == "page")
        self._ws = await self._session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        self._reader = asyncio.create_task(self._read())
        for domain in ("Page", "Runtime", "Network"):
            await self.send(f"{domain}.enable")

    async def __aexit__(self, *exc: object) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._ws is not None:
            await self._ws.close()
        if self._session is not None:
            await self._session.close()
        if self._proc is not None:
            await self._stop(self._proc)

    def leftovers(self) -> set[int]:
        """Browser processes this one started that still exist (running or zombies)."""
        return _browser_processes(self.profile) - self._before

    @staticmethod
    async def _stop(proc: asyncio.subprocess.Process) -> None:
        """The reaper (and so the browser and its helpers), then its process group."""
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    async def _port(self) -> int:
        """Chromium writes its DevTools port into the profile once it listens."""
        marker = self.profile / "DevToolsActivePort"
        for _ in range(self.port_tries):
            if marker.exists() and marker.read_text().strip():
                return int(marker.read_text().split()[0])
            if self._proc is not None and self._proc.returncode is not None:
                break
            await asyncio.sleep(0.1)
        log = (self.profile / "chromium.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"chromium did not open its DevTools port; its log ends:\n{log}")

    async def _read(self) -> None:
        assert self._ws is not None
        async for message in self._ws:
            data = message.json()
            if "id" in data and data["id"] in self._waiting:
                self._waiting.pop(data["id"]).set_result(data)
            elif data.get("method") == "Network.requestWillBeSent":
                self.requests.append(data["params"]["request"]["url"])
            elif "method" in data:
                self._events.setdefault(data["method"], asyncio.Event()).set()

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        assert self._ws is not None
        call_id = next(self._ids)
        self._waiting[call_id] = asyncio.get_running_loop().create_future()
        await self._ws.send_json({"id": call_id, "method": method, "params": params})
        reply = await asyncio.wait_for(self._waiting[call_id], CALL_TIMEOUT)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply["result"]
        return result

    async def open(self, url: str) -> None:
        """Load a page (a file: URL) and wait for its load event."""
        self.requests.clear()
        loaded = self._events.setdefault("Page.loadEventFired", asyncio.Event())
        loaded.clear()
        await self.send("Page.navigate", url=url)
        await asyncio.wait_for(loaded.wait(), CALL_TIMEOUT)

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        reply = await self.send("Runtime.evaluate", expression=expression,
                                returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"page script failed: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    async def colour_scheme(self, scheme: str) -> None:
        await self.send("Emulation.setEmulatedMedia",
                        features=[{"name": "prefers-color-scheme", "value": scheme}])

    async def resize(self, width: int, height: int = 900) -> None:
        """A viewport of `width` CSS pixels (a desktop window, a phone held upright)."""
        self.width = width
        await self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                        deviceScaleFactor=1, mobile=False)

    async def screenshot(self, to: Path, element_id: str | None = None,
                         max_height: int = MAX_SHOT_HEIGHT,
                         height: int | None = None) -> tuple[int, int]:
        """The page from its top (or one element), at most `max_height` CSS pixels of it (or
        `height` from where it starts), as a PNG at `to`; returns its CSS-pixel size. The
        viewport is left as it was."""
        if element_id is None:
            metrics = await self.send("Page.getLayoutMetrics")
            box = {"y": 0, "height": math.ceil(metrics["cssContentSize"]["height"])}
        else:
            box = await self.evaluate(
                f"(() => {{ const r = document.getElementById({element_id!r})"
                ".getBoundingClientRect(); return {y: r.top + scrollY, height: r.height};"
                " })()")
        # The page's full width: the element's own box would crop its margins.
        tall = height if height is not None else min(math.ceil(box["height"]), max_height)
        clip = {**box, "x": 0, "width": self.width, "scale": 1,
                "height": min(tall, MAX_SHOT_HEIGHT)}
        shot = await self.send("Page.captureScreenshot", format="png", clip=clip,
                               captureBeyondViewport=True)
        await asyncio.to_thread(_save, to, base64.b64decode(shot["data"]))
        return self.width, clip["height"]


def _save(to: Path, data: bytes) -> None:
    to.parent.mkdir(parents=True, exist_ok=True)
    to.write_bytes(data)
