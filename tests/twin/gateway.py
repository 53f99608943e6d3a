"""The Gateway: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME with replay, and
dispatch of events with increasing sequence numbers. Frames are plain JSON text: discord.py
only decompresses binary frames (facts §9.3).

Sharding as Discord does it (api:events/gateway.mdx, Sharding): IDENTIFY may carry
`shard: [id, count]`; a session sees only the guilds of its shard, (guild_id >> 22) % count,
in READY, GUILD_CREATE and every later guild event; events without a guild (DMs) go to shard
0. A shard outside 0..count-1 is closed with 4010, too few shards for the bot's guilds with
4011."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads
from .model import shard_of
from .world import World

HELLO, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HEARTBEAT_ACK = (
    10, 1, 2, 6, 7, 9, 11)
DISPATCH = 0
HEARTBEAT_INTERVAL_MS = 41250
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
MESSAGE_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"})
AUTH_FAILED = 4004
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
CLIENT_CLOSED = 1000
# Discord asks for a shard per 2,500 guilds; a test lowers it to see 4011.
GUILDS_PER_SHARD = 2500


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)  # (id, count)
    sequence: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    socket: web.WebSocketResponse | None = None
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)

    def receives(self, guild_id: int | None) -> bool:
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))

    def stamp(self, event: str, data: dict[str, Any]) -> dict[str, Any]:
        """Give the event the session's next sequence number and keep it for RESUME."""
        self.sequence += 1
        frame = {"op": DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.history.append(frame)
        return frame


@dataclass
class GatewayLog:
    """What the test may assert on: connections, opcodes received, events sent."""

    connections: int = 0
    identifies: int = 0
    refused_shards: list[tuple[int, object]] = field(default_factory=list)  # (code, shard)
    resumes: int = 0
    received_ops: list[int] = field(default_factory=list)
    sent_events: list[str] = field(default_factory=list)
    heartbeats_asked: int = 0  # op 1 sent to a client whose own heartbeat was overdue


class GatewayHub:
    def __init__(self, world: World) -> None:
        self.world = world
        self.url = ""
        self.sessions: dict[str, Session] = {}
        self.log = GatewayLog()
        self.guilds_per_shard = GUILDS_PER_SHARD
        self._sockets: set[web.WebSocketResponse] = set()
        self._dropped: set[web.WebSocketResponse] = set()
        self._last_beat: dict[web.WebSocketResponse, float] = {}  # on the loop's clock

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        guild_id = _guild_of(event, data)
        for session in self.sessions.values():
            if not session.receives(guild_id):
                continue
            shaped = _for_intents(event, data, session.intents, self.world.app.id)
            if shaped is not None:
                session.outbox.put_nowait(session.stamp(event, shaped))
                self.log.sent_events.append(event)

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every socket with a resumable code, as when Discord's edge restarts."""
        for socket in list(self._sockets):
            self._dropped.add(socket)
            await socket.close(code=code, message=b"twin dropped the connection")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await socket.prepare(request)
        self._sockets.add(socket)
        self.log.connections += 1
        session: Session | None = None
        writer: asyncio.Task[None] | None = None
        self._last_beat[socket] = asyncio.get_running_loop().time()
        asker = asyncio.create_task(self._ask_overdue_heartbeats(socket))
        try:
            await socket.send_json({"op": HELLO, "d": {"heartbeat_interval":
                                                        HEARTBEAT_INTERVAL_MS},
                                    "s": None, "t": None})
            async for frame in socket:
                if frame.type != WSMsgType.TEXT:
                    break
                opened = await self._on_frame(socket, json.loads(frame.data), session)
                if opened is not None:
                    session = opened
                    writer = asyncio.create_task(self._drain(session, socket))
        finally:
            self._sockets.discard(socket)
            self._last_beat.pop(socket, None)
            asker.cancel()
            if writer is not None:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await writer
            if session is not None and session.socket is socket:
                session.socket = None
            if session is not None and socket.close_code == CLIENT_CLOSED \
                    and socket not in self._dropped:
                # The client logged out (bot.close()): its session cannot be resumed.
                self.sessions.pop(session.id, None)
        return socket

    async def _on_frame(self, socket: web.WebSocketResponse, frame: dict[str, Any],
                        session: Session | None) -> Session | None:
        op = frame.get("op")
        self.log.received_ops.append(int(op or -1))
        if op == HEARTBEAT:
            self._last_beat[socket] = asyncio.get_running_loop().time()
            await socket.send_json({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY and session is None:
            return await self._identify(socket, frame["d"])
        elif op == RESUME and session is None:
            return await self._resume(socket, frame["d"])
        return None

    async def _ask_overdue_heartbeats(self, socket: web.WebSocketResponse) -> None:
        """Discord may ask a client for a heartbeat at once (op 1, api:events/gateway.mdx).
        The twin asks when one is overdue on the loop's clock. discord.py beats from a thread
        on real time but times out a silent socket on the loop's clock (60 s): on the virtual
        clock a quiet minute passes in milliseconds, and without the ask it would reconnect."""
        interval = HEARTBEAT_INTERVAL_MS / 1000
        loop = asyncio.get_running_loop()
        while not socket.closed:
            await asyncio.sleep(interval)
            if loop.time() - self._last_beat.get(socket, 0.0) >= interval and not socket.closed:
                self.log.heartbeats_asked += 1
                with contextlib.suppress(ConnectionError):
                    await socket.send_json({"op": HEARTBEAT, "d": None, "s": None, "t": None})

    async def _identify(self, socket: web.WebSocketResponse,
                        data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.world.app.bot_token:
            await socket.close(code=AUTH_FAILED, message=b"Authentication failed.")
            return None
        guilds = [g for g in self.world.guilds.values() if self.world.app.id in g.members]
        shard = await self._shard(socket, data.get("shard"), len(guilds))
        if shard is None:
            return None
        self.log.identifies += 1
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), shard,
                          socket=socket)
        self.sessions[session.id] = session
        guilds = [g for g in guilds if session.receives(g.id)]
        ready = {
            "v": 10, "user": payloads.user(self.world.bot_user), "session_id": session.id,
            "resume_gateway_url": self.url, "session_type": "normal", "private_channels": [],
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "application": {"id": str(self.world.app.id), "flags": 0},
        }
        if "shard" in data:
            ready["shard"] = list(shard)
        session.outbox.put_nowait(session.stamp("READY", ready))
        for guild in guilds:
            session.outbox.put_nowait(
                session.stamp("GUILD_CREATE", payloads.guild_create(self.world, guild)))
        return session

    async def _shard(self, socket: web.WebSocketResponse, given: object,
                     guilds: int) -> tuple[int, int] | None:
        """The session's (id, count), or None after closing the socket as Discord does."""
        shard = (0, 1) if given is None else given
        valid = (isinstance(shard, list | tuple) and len(shard) == 2
                 and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
                 and shard[1] >= 1 and 0 <= shard[0] < shard[1])
        if not valid:
            self.log.refused_shards.append((INVALID_SHARD, given))
            await socket.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        shard_id, count = int(shard[0]), int(shard[1])  # type: ignore[index]
        if guilds > count * self.guilds_per_shard:
            self.log.refused_shards.append((SHARDING_REQUIRED, given))
            await socket.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return None
        return shard_id, count

    def recommended_shards(self) -> int:
        """What GET /gateway/bot answers: enough shards for the bot's guilds."""
        guilds = sum(1 for g in self.world.guilds.values() if self.world.app.id in g.members)
        return max(1, -(-guilds // self.guilds_per_shard))

    async def _resume(self, socket: web.WebSocketResponse,
                      data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.world.app.bot_token:
            await socket.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        self.log.resumes += 1
        session.socket = socket
        # Everything the client missed, in order, then RESUMED (api:events/gateway.mdx).
        seen = int(data.get("seq") or 0)
        fresh: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        for frame in session.history:
            if frame["s"] > seen:
                fresh.put_nowait(frame)
        session.outbox = fresh
        fresh.put_nowait(session.stamp("RESUMED", {}))
        return session

    async def _drain(self, session: Session, socket: web.WebSocketResponse) -> None:
        session.socket = socket
        outbox = session.outbox
        while not socket.closed:
            frame = await outbox.get()
            if socket.closed:
                break
            await socket.send_str(json.dumps(frame))


GUILD_EVENTS_KEYED_BY_ID = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (its shard receives it); None for DMs and the like."""
    raw = data.get("id") if event in GUILD_EVENTS_KEYED_BY_ID else data.get("guild_id")
    return int(raw) if raw is not None else None


def _for_intents(event: str, data: dict[str, Any], intents: int,
                 app_id: int) -> dict[str, Any] | None:
    """Message events need GUILD_MESSAGES; without MESSAGE_CONTENT, others' content is blank
    (api:events/gateway.mdx:485-499)."""
    if event not in MESSAGE_EVENTS:
        return data
    if not intents & INTENT_GUILD_MESSAGES:
        return None
    author = data.get("author", {}).get("id")
    if intents & INTENT_MESSAGE_CONTENT or author == str(app_id) or event == "MESSAGE_DELETE":
        return data
    return {**data, "content": "", "embeds": [], "attachments": [], "components": []}
