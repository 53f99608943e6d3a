"""Every persona's name reads on a light terminal and on a dark one: the terminal's colours
have a WCAG contrast ratio of at least 3:1 against white and against black, stay apart from
each other, and Discord keeps its own colours (`terminal/palette.py` says why two)."""

from __future__ import annotations

import itertools
import math

import pytest

from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.terminal.palette import (
    TERMINAL_COLOURS,
    UNKNOWN_TERMINAL_COLOUR,
    terminal_colour,
)

WHITE, BLACK = 0xFFFFFF, 0x000000


def luminance(rgb: int) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: int, b: int) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_formula_gives_the_known_values() -> None:
    assert contrast(WHITE, BLACK) == pytest.approx(21.0)
    assert contrast(0x777777, WHITE) == pytest.approx(4.48, abs=0.01)  # the usual grey
    assert contrast(0xFEE75C, WHITE) < 1.3 and contrast(0x57F287, WHITE) < 1.5  # the issue's


@pytest.mark.parametrize("persona", sorted(PERSONA_BY_KEY))
def test_every_persona_reads_on_white_and_on_black(persona: str) -> None:
    rgb = terminal_colour(persona)
    assert persona in TERMINAL_COLOURS  # not the fallback grey
    assert contrast(rgb, WHITE) >= 3.0, f"{persona} {rgb:06X} on white"
    assert contrast(rgb, BLACK) >= 3.0, f"{persona} {rgb:06X} on black"


def test_the_fallback_reads_too_and_the_table_knows_only_real_personas() -> None:
    assert min(contrast(UNKNOWN_TERMINAL_COLOUR, bg) for bg in (WHITE, BLACK)) >= 3.0
    assert terminal_colour("someone new") == UNKNOWN_TERMINAL_COLOUR
    assert set(TERMINAL_COLOURS) == set(PERSONA_BY_KEY)


def lab(rgb: int) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour, where distance roughly follows what the eye tells
    apart (CIE76: about 2.3 is just noticeable, 25 plainly different colours)."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(rgb >> s & 0xFF) for s in (16, 8, 0))
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
           0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def test_the_colours_stay_apart() -> None:
    """Held to one band of luminance, they differ by hue: every two plainly differ."""
    closest = min(math.dist(lab(a), lab(b))
                  for a, b in itertools.combinations(TERMINAL_COLOURS.values(), 2))
    assert closest >= 25


def test_discord_keeps_its_own_colours() -> None:
    """Embeds and avatars are drawn on Discord's themes: their colours do not change here."""
    assert PERSONA_BY_KEY["performance_guru"].colour == 0xFEE75C
    assert PERSONA_BY_KEY["test_skeptic"].colour == 0x57F287
    assert terminal_colour("performance_guru") != PERSONA_BY_KEY["performance_guru"].colour
