"""A thread or channel as readable text: who said what, embeds, buttons, attachments."""

from __future__ import annotations

from typing import Any

from .model import Message
from .payloads import message_author
from .world import World


def speaker(world: World, message: Message) -> str:
    author = message_author(world, message)
    name = str(author.get("global_name") or author["username"])
    if message.webhook_id is not None and message.webhook_id in world.webhooks:
        return f"{name} [webhook]"
    return f"{name} [bot]" if author.get("bot") else name


def render_message(world: World, message: Message) -> list[str]:
    lines = [f"{speaker(world, message)}: {message.content}".rstrip()]
    for embed in message.embeds:
        lines += _render_embed(embed)
    for row in message.components:
        buttons = [_render_component(c) for c in row.get("components", [])]
        if buttons:
            lines.append("  buttons: " + " ".join(buttons))
    for attachment in message.attachments:
        lines.append(f"  attachment: {attachment.filename} ({len(attachment.data)} bytes)")
    return lines


def _render_embed(embed: dict[str, Any]) -> list[str]:
    head = " — ".join(str(embed[k]) for k in ("title", "description") if embed.get(k))
    lines = [f"  embed: {head}"]
    lines += [f"    {f.get('name')}: {f.get('value')}" for f in embed.get("fields") or []]
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(f"    footer: {footer}")
    return lines


def _render_component(component: dict[str, Any]) -> str:
    label = component.get("label") or component.get("placeholder") or "?"
    target = component.get("custom_id") or component.get("url") or ""
    disabled = " (disabled)" if component.get("disabled") else ""
    return f"[{label}]({target}){disabled}"


def render_channel(world: World, channel_id: int) -> str:
    lines: list[str] = []
    for message in world.messages_in(channel_id):
        lines += render_message(world, message)
    return "\n".join(lines)
