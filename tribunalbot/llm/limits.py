"""Per-provider limits: concurrent requests, requests per minute, and prime-then-fan-out.

The limiter is small and hand-written (rather than aiolimiter) so that its clock and sleep can
be injected like the retry loop's, and tests never wait for real.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from tribunalbot.llm.base import Prompt

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

_WINDOW = 60.0


class RateLimiter:
    """At most `per_minute` request starts in any sliding 60-second window."""

    def __init__(self, per_minute: int, *, clock: Clock, sleep: Sleep) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._sleep = sleep
        self._starts: deque[float] = deque()
        self._lock = asyncio.Lock()  # FIFO: waiters are served in arrival order

    async def acquire(self) -> None:
        async with self._lock:
            while True:
                now = self._clock()
                while self._starts and self._starts[0] <= now - _WINDOW:
                    self._starts.popleft()
                if len(self._starts) < self.per_minute:
                    self._starts.append(now)
                    return
                await self._sleep(self._starts[0] + _WINDOW - now)


class PrimeGate:
    """Lets the first call of each game phase run alone so it can fill the prompt cache.

    Later calls of the same phase wait until the first one has finished (successfully or not)
    and then fan out. A phase is identified by the game, the task kind and round, and a digest
    of the shared prefix, which is what the provider's cache is keyed on anyway.
    """

    def __init__(self, max_phases: int = 256) -> None:
        self._phases: OrderedDict[tuple[str, str, int, str], asyncio.Event] = OrderedDict()
        self._max = max_phases

    @staticmethod
    def phase_key(prompt: Prompt) -> tuple[str, str, int, str] | None:
        task = prompt.task
        if not task.game_id:
            return None  # nothing groups this call with others
        digest = hashlib.sha256(prompt.shared.encode()).hexdigest()[:16]
        return (task.game_id, task.kind, task.round, digest)

    @asynccontextmanager
    async def enter(self, prompt: Prompt) -> AsyncIterator[None]:
        key = self.phase_key(prompt)
        event = self._phases.get(key) if key is not None else None
        if key is None:
            yield
            return
        if event is not None:
            await event.wait()
            yield
            return
        event = asyncio.Event()
        self._phases[key] = event
        while len(self._phases) > self._max:
            self._phases.popitem(last=False)  # old games: their waiters already hold the event
        try:
            yield
        finally:
            event.set()
