"""A loopback OpenAI-compatible server over TLS, as real providers are reached: hypercorn
offers HTTP/2 by ALPN (or, with `http2=False`, only HTTP/1.1), with a certificate from a
throwaway authority (trustme) that the client is told to trust through $SSL_CERT_FILE.

It answers every chat completion with `reply` after `latency` seconds and notes each
request's HTTP version and client port (one port per connection)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from pathlib import Path
from typing import Any

import trustme
from hypercorn.asyncio import serve
from hypercorn.config import Config

Scope = dict[str, Any]


class TlsModelServer:
    def __init__(self, workdir: Path, *, http2: bool, latency: float = 0.0,
                 reply: str = "fine") -> None:
        self.workdir, self.http2, self.latency, self.reply = workdir, http2, latency, reply
        self.versions: list[str] = []
        self.client_ports: set[int] = set()
        self.url = ""
        self.ca_file = workdir / "ca.pem"
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sock: socket.socket | None = None

    async def start(self) -> None:
        authority = trustme.CA()
        issued = authority.issue_cert("127.0.0.1")
        authority.cert_pem.write_to_path(str(self.ca_file))
        key, chain = self.workdir / "key.pem", self.workdir / "chain.pem"
        issued.private_key_pem.write_to_path(str(key))
        issued.cert_chain_pems[0].write_to_path(str(chain))
        for pem in issued.cert_chain_pems[1:]:
            pem.write_to_path(str(chain), append=True)
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))  # loopback only, a free port
        self._sock.set_inheritable(True)
        config = Config()
        config.bind = [f"fd://{self._sock.fileno()}"]
        config.certfile, config.keyfile = str(chain), str(key)
        config.alpn_protocols = ["h2", "http/1.1"] if self.http2 else ["http/1.1"]
        config.backlog = 4096
        config.accesslog = config.errorlog = None
        self._task = asyncio.create_task(
            serve(self._app, config, shutdown_trigger=self._stop.wait))  # type: ignore[arg-type]
        self.url = f"https://127.0.0.1:{self._sock.getsockname()[1]}"
        await asyncio.sleep(0)  # let it start listening (the socket is bound already)

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task
        if self._sock is not None:
            with contextlib.suppress(OSError):  # hypercorn may have closed the descriptor
                self._sock.close()

    async def _app(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.versions.append(str(scope["http_version"]))
        self.client_ports.add(int(scope["client"][1]))
        if self.latency:
            await asyncio.sleep(self.latency)
        model = json.loads(body or b"{}").get("model", "m")
        answer = json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": self.reply}}],
            "usage": {"prompt_tokens": 20, "completion_tokens": 2, "total_tokens": 22}},
        ).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": answer})
