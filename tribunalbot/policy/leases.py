"""This process's claim on the games it runs, when several processes share one database
(DESIGN §8). No Discord here: the runner asks, this module answers.

A process is named by host, PID namespace, pid and the kernel's start time of that pid, so a
later process that happens to get the same pid is not mistaken for it. A lease held by a
process of this host and namespace that no longer runs is taken at once (a restart after a
crash resumes its games without waiting); a lease held elsewhere is taken once it expires.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from tribunalbot.engine.events import Clock, utc_now
from tribunalbot.store.leases import LeaseRepo


def _start_ticks(pid: int) -> str | None:
    """Field 22 of /proc/<pid>/stat: when the process started, in ticks since boot."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # the fields after the command name


def _pid_namespace() -> str:
    with contextlib.suppress(OSError):
        return os.readlink("/proc/self/ns/pid")
    return "?"


@dataclass(frozen=True)
class Owner:
    host: str
    namespace: str
    pid: int
    started: str

    @classmethod
    def this_process(cls) -> Owner:
        pid = os.getpid()
        return cls(socket.gethostname(), _pid_namespace(), pid, _start_ticks(pid) or "?")

    @classmethod
    def parse(cls, text: str) -> Owner | None:
        parts = text.split("|")
        if len(parts) != 4 or not parts[2].isdigit():
            return None
        return cls(parts[0], parts[1], int(parts[2]), parts[3])

    def __str__(self) -> str:
        return f"{self.host}|{self.namespace}|{self.pid}|{self.started}"

    def is_dead(self) -> bool:
        """True only when certain: a process of this host and PID namespace whose pid no
        longer runs the process that took the lease. Anything else may still be alive."""
        here = Owner.this_process()
        if (self.host, self.namespace) != (here.host, here.namespace) or self.started == "?":
            return False
        return _start_ticks(self.pid) != self.started


class LeaseKeeper:
    """Takes, renews and drops this process's leases; `seconds` is how long a lease lasts
    without renewal, so how long a crashed process's games wait elsewhere at most."""

    def __init__(self, leases: LeaseRepo, owner: Owner, seconds: float,
                 clock: Clock = utc_now) -> None:
        self.leases, self.owner, self.seconds, self.clock = leases, owner, seconds, clock
        self.name = str(owner)

    def _until(self) -> datetime:
        return self.clock() + timedelta(seconds=self.seconds)

    async def take(self, game_id: str) -> bool:
        """Run `game_id` here? True when the lease is now ours."""
        now = self.clock()
        if await self.leases.acquire(game_id, self.name, self._until(), now):
            return True
        held = await self.leases.holder(game_id)
        holder = Owner.parse(held.owner) if held is not None else None
        if holder is None or not holder.is_dead():
            return False
        return await self.leases.acquire(game_id, self.name, self._until(), now,
                                         dead_owner=str(holder))

    async def renew(self, game_ids: Collection[str]) -> set[str]:
        """Renew our leases; the ids of those lost to another process."""
        kept = await self.leases.renew(self.name, game_ids, self._until())
        return set(game_ids) - kept

    async def drop(self, game_id: str) -> None:
        await self.leases.release(game_id, self.name)

    async def drop_all(self) -> None:
        await self.leases.release_all(self.name)
