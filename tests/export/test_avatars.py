"""Avatars on the page: the shipped PNGs when the package has them, else SVG initials."""

from __future__ import annotations

import asyncio
import base64
from importlib import resources

import pytest

from tests.export.games import offline_game
from tribunalbot.engine.personas import GHOST, PERSONAS
from tribunalbot.page import avatars, build_page
from tribunalbot.page.avatars import PNG_MAGIC, avatar, initials, placeholder_svg

KEYS = [p.key for p in (*PERSONAS, GHOST)]


def decoded(uri: str) -> bytes:
    return base64.b64decode(uri.split(",", 1)[1])


@pytest.mark.parametrize("key", KEYS)
def test_each_persona_uses_its_shipped_png(key: str) -> None:
    shipped = resources.files("tribunalbot").joinpath("avatars", f"{key}.png").read_bytes()
    found = avatar(key)
    assert found.kind == "png" and found.uri.startswith("data:image/png;base64,")
    assert decoded(found.uri) == shipped


def test_without_pngs_every_persona_gets_its_initials_on_its_colour(monkeypatch) -> None:
    monkeypatch.setattr(avatars, "shipped_png", lambda key, file_name: None)
    for persona in (*PERSONAS, GHOST):
        found = avatar(persona.key)
        svg = decoded(found.uri).decode()
        assert found.kind == "svg" and found.uri.startswith("data:image/svg+xml;base64,")
        assert f'fill="#{persona.colour:06x}"' in svg and f">{initials(persona.name)}<" in svg
    page = build_page(asyncio.run(offline_game(seed=2, event_chance=0.0)).events)
    assert page.avatar_kinds == {"svg"}


def test_a_reader_that_returns_no_png_falls_back_to_the_file(monkeypatch) -> None:
    import tribunalbot.avatars as shipped

    monkeypatch.setattr(shipped, "avatar_image", lambda name: b"GIF89a not a png")
    assert avatar("architect").kind == "png"  # the file itself is still a PNG
    assert decoded(avatar("architect").uri).startswith(PNG_MAGIC)


def test_an_unknown_persona_key_from_old_data_gets_a_placeholder() -> None:
    found = avatar("retired_persona")
    assert found.kind == "svg" and b">R<" in decoded(found.uri)


def test_initials_and_ink_contrast() -> None:
    assert [initials(n) for n in ("Architect", "Security Guardian", "DX Advocate", "")] == [
        "A", "SG", "DA", "?"]
    assert 'fill="#111111"' in placeholder_svg("Performance Guru", 0xFEE75C)  # dark on yellow
    assert 'fill="#ffffff"' in placeholder_svg("Ghost Reviewer", 0x2C2F33)  # light on dark
