"""Split a relay game's model calls between players who cannot see each other's seats.

When one assistant plays every seat of a relay game (../shared/tools/model-relay), it has read
the Troublemaker's private brief before it writes the honest seats' accusations and votes, so
the jury it plays is never blind, and every such game ended in round 1. This tool deals the
calls out instead:

- `saboteur` sees only the calls that carry the private brief ("PRIVATE, for you alone");
- `honest-a` and `honest-b` each see the honest calls of half the seats, drawn at random per
  game, so neither knows which seat the other player holds, nor which seat is the saboteur's;
  calls of no seat (the distill, after the reveal) go to `honest-a`.

Requests are shown under an opaque id, not the relay's running number, whose gaps would tell
which seats are elsewhere. Each player writes its replies in a scratch folder of its own: two
games played at once once swapped a review through a shared /tmp/reply.txt.

usage:
  python bench/relay_seats.py QUEUE deal                 # once, before the game starts
  python bench/relay_seats.py QUEUE show PLAYER [--max N]
  python bench/relay_seats.py QUEUE answer PLAYER ID < reply.txt
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path

PRIVATE_MARK = "PRIVATE, for you alone"
PLAYERS = ("saboteur", "honest-a", "honest-b")
_SEAT = re.compile(r"YOU ARE seat (\d+)")
# The code under review is long and the same in every call: written once, then left out.
_CODE_HEAD = re.compile(r"(CODE UNDER REVIEW|THE CHANGE UNDER REVIEW)")


def _deal_path(queue: Path) -> Path:
    # Beside the queue, so a player listing the queue does not see it.
    return queue.parent / (queue.name + ".deal.json")


def deal(queue: Path) -> None:
    queue.mkdir(parents=True, exist_ok=True)
    seats = list(range(1, 9))
    random.SystemRandom().shuffle(seats)
    salt = random.SystemRandom().getrandbits(64)
    _deal_path(queue).write_text(json.dumps({"a": sorted(seats[:4]), "salt": salt}))
    print("dealt")


def _messages_text(request: dict) -> list[tuple[str, str]]:
    out = []
    for message in request.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            content = "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
        out.append((str(message.get("role")), str(content)))
    return out


def player_of(request: dict, seats_a: list[int]) -> str:
    text = "\n".join(content for _, content in _messages_text(request))
    if PRIVATE_MARK in text:
        return "saboteur"
    seat = _SEAT.search(text)
    if seat is None or int(seat.group(1)) in seats_a:
        return "honest-a"
    return "honest-b"


def _opaque(salt: int, name: str) -> str:
    return hashlib.sha256(f"{salt}:{name}".encode()).hexdigest()[:8]


def _waiting(queue: Path, player: str) -> list[tuple[str, Path, dict]]:
    dealt = json.loads(_deal_path(queue).read_text())
    out = []
    for path in sorted(queue.glob("*.req.json")):
        key = path.name[:4]
        if (queue / f"{key}.resp.txt").exists():
            continue
        request = json.loads(path.read_text())
        if player_of(request, dealt["a"]) == player:
            out.append((_opaque(dealt["salt"], path.name), path, request))
    return out


def _shown(queue: Path, content: str) -> str:
    head = _CODE_HEAD.search(content)
    tail = content.find("THE PANEL:", head.start()) if head else -1
    if head is None or tail < 0:
        return content
    body = content[head.start():tail]
    code = queue.parent / (queue.name + ".code.txt")
    if not code.exists():
        code.write_text(body)
    lines = body.count("\n")
    left_out = f"[the code under review, {lines} lines: read {code}]"
    return f"{content[:head.start()]}{left_out}\n\n{content[tail:]}"


def show(queue: Path, player: str, limit: int) -> None:
    for ident, _, request in _waiting(queue, player)[:limit]:
        print(f"=================== REQUEST {ident} ===================")
        for role, content in _messages_text(request):
            print(f"--- [{role}] ---\n{_shown(queue, content)}")
        schema = request.get("response_format")
        if schema:
            body = schema.get("json_schema", schema).get("schema", schema)
            print("--- reply must be JSON:", json.dumps(body)[:3000])
        limit = request.get("max_tokens") or request.get("max_completion_tokens")
        print(f"--- max tokens: {limit}")


def answer(queue: Path, player: str, ident: str, text: str) -> None:
    for candidate, path, _ in _waiting(queue, player):
        if candidate == ident:
            key = path.name[:4]
            tmp = queue / f"{key}.resp.tmp"
            tmp.write_text(text)
            tmp.replace(queue / f"{key}.resp.txt")
            print(f"answered {ident}: {len(text)} chars")
            return
    sys.exit(f"no request {ident} is waiting for {player}")


def main(argv: list[str]) -> None:
    queue, command = Path(argv[0]), argv[1]
    if command == "deal":
        deal(queue)
        return
    player = argv[2]
    if player not in PLAYERS:
        sys.exit(f"player must be one of {', '.join(PLAYERS)}")
    if command == "show":
        limit = int(argv[argv.index("--max") + 1]) if "--max" in argv else 99
        show(queue, player, limit)
    elif command == "answer":
        answer(queue, player, argv[3], sys.stdin.read())


if __name__ == "__main__":
    main(sys.argv[1:])
