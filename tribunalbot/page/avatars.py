"""Persona avatars as data: URIs, so the page never makes a request.

The PNG shipped in `tribunalbot/avatars/` is used when the package has it. An SVG of the
persona's initials on its colour stands in for any persona whose PNG is missing or is not a
PNG (a damaged install, an unknown persona key in old stored data). The check is made each
time a page is built, not at import, so the page follows whatever the installed package holds.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from importlib import import_module, resources
from typing import Literal, TypeGuard

from tribunalbot.engine.personas import PERSONA_BY_KEY, persona_name

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
UNKNOWN_COLOUR = 0x99AAB5


@dataclass(frozen=True)
class Avatar:
    uri: str
    kind: Literal["png", "svg"]


def avatar(key: str) -> Avatar:
    """The avatar of the persona `key`: its shipped PNG, else the SVG placeholder."""
    persona = PERSONA_BY_KEY.get(key)
    png = shipped_png(key, persona.avatar if persona else f"{key}.png")
    if png is not None:
        return Avatar("data:image/png;base64," + base64.b64encode(png).decode(), "png")
    colour = persona.colour if persona else UNKNOWN_COLOUR
    svg = placeholder_svg(persona_name(key), colour)
    return Avatar("data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode(), "svg")


def shipped_png(key: str, file_name: str) -> bytes | None:
    """The package's PNG for a persona, or None. Asks the avatars package's own reader first
    (it knows its layout), then reads the file; anything but real PNG bytes counts as none."""
    data = _from_reader(key, file_name)
    if _is_png(data):
        return data
    try:
        data = resources.files("tribunalbot").joinpath("avatars", file_name).read_bytes()
    except (OSError, ValueError):  # no such file, or no avatars directory at all
        return None
    return data if _is_png(data) else None


def _is_png(data: bytes | None) -> TypeGuard[bytes]:
    return isinstance(data, bytes) and data.startswith(PNG_MAGIC)


def _from_reader(key: str, file_name: str) -> bytes | None:
    try:
        module = import_module("tribunalbot.avatars")
    except ImportError:
        return None
    # Looked up by name: the package is optional here, and either spelling may be offered.
    for name, argument in (("avatar_image", file_name), ("avatar_png", key)):
        reader = getattr(module, name, None)
        if callable(reader):
            try:
                data = reader(argument)
            except (OSError, ValueError, KeyError):
                continue
            if isinstance(data, bytes):
                return data
    return None


def initials(name: str) -> str:
    """'Security Guardian' -> 'SG', 'Architect' -> 'A'."""
    letters = [word[0] for word in name.split() if word[:1].isalnum()]
    return "".join(letters[:2]).upper() or "?"


def placeholder_svg(name: str, colour: int) -> str:
    """A 64 px disc in the persona's colour with its initials, in black or white, whichever
    reads better on that colour; a grey ring keeps dark discs visible on a dark page."""
    red, green, blue = (colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF
    ink = "#111111" if (0.299 * red + 0.587 * green + 0.114 * blue) > 150 else "#ffffff"
    letters = "".join(c for c in initials(name) if c.isalnum())  # nothing that needs escaping
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">'
        f'<circle cx="32" cy="32" r="31" fill="#{colour:06x}" stroke="#8e9297" '
        'stroke-width="2"/>'
        f'<text x="32" y="32" dy="0.35em" text-anchor="middle" fill="{ink}" '
        'font-family="sans-serif" font-size="26" font-weight="700">'
        f"{letters}</text></svg>"
    )
