"""The personas' colours on a terminal.

Why a second table: `Persona.colour` is what Discord shows (embeds, avatars, the shared page)
and stays as it is there, on Discord's own dark and light themes. A terminal's background is
the player's choice, white as often as black, and two of those colours vanish on white
(Performance Guru's yellow reads at 1.3:1, Test Skeptic's green at 1.45:1). So the terminal
gets its own colour per persona, in the same hue family, each with a relative luminance between
about 0.17 and 0.23: that is at least 3:1 (WCAG's floor for large or bold text; names are
printed bold) against both white and black. With luminance held alike, the nine differ by hue
alone; the closest two (Test Skeptic's green and Dependency Watcher's teal) are still about 30
apart in CIELAB. tests/cli/test_palette.py measures every one of them.
"""

from __future__ import annotations

TERMINAL_COLOURS: dict[str, int] = {  # persona key -> 0xRRGGBB
    "architect": 0x5865F2,  # Discord's own blurple already reads on both
    "security_guardian": 0xD83C3E,
    "performance_guru": 0x9C7A00,  # a dark gold: yellow itself cannot read on white
    "test_skeptic": 0x2D8A3E,
    "dx_advocate": 0xC8388A,
    "error_philosopher": 0xC0601A,
    "dependency_watcher": 0x168A73,
    "simplicity_zealot": 0x7A8587,
    "ghost": 0x9B59B6,  # Discord's near-black ghost is invisible on a black terminal
}
UNKNOWN_TERMINAL_COLOUR = 0x7A8587  # a persona added without a terminal colour: readable grey


def terminal_colour(persona: str) -> int:
    """The persona's colour for a name printed on a terminal."""
    return TERMINAL_COLOURS.get(persona, UNKNOWN_TERMINAL_COLOUR)
