"""Draws the persona avatars shipped in this package: a flat geometric emblem on the persona's
colour, written as PNG by a few lines of zlib + struct (no image library needed).

    python -m tribunalbot.avatars.draw          # rewrite the nine PNG files next to this one

The drawing is deterministic, so a test can check that the shipped files are what this code
draws (they are made here, not copied from anywhere)."""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from tribunalbot.engine.personas import GHOST, PERSONAS, Persona

SIZE = 128  # Discord shows avatars at 40-128 px; 128 is crisp and stays a few KB
Shape = Callable[[float, float], bool]  # is the point (x, y) inside? x, y in [-1, 1], y down
RGB = tuple[int, int, int]
Layer = tuple[Shape, RGB]
Point = tuple[float, float]

# ---- shapes ------------------------------------------------------------------------------


def circle(cx: float, cy: float, r: float) -> Shape:
    return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def ring(cx: float, cy: float, outer: float, inner: float) -> Shape:
    return lambda x, y: inner * inner <= (x - cx) ** 2 + (y - cy) ** 2 <= outer * outer


def rect(x0: float, y0: float, x1: float, y1: float) -> Shape:
    return lambda x, y: x0 <= x <= x1 and y0 <= y <= y1


def polygon(points: Sequence[Point]) -> Shape:
    def inside(x: float, y: float) -> bool:  # even-odd ray casting
        hit = False
        for (ax, ay), (bx, by) in zip(points, [*points[1:], points[0]], strict=True):
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                hit = not hit
        return hit
    return inside


def stroke(ax: float, ay: float, bx: float, by: float, width: float) -> Shape:
    """A line with round caps: the points within width/2 of the segment a-b."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy

    def inside(x: float, y: float) -> bool:
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
        return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= width * width / 4
    return inside


def union(*shapes: Shape) -> Shape:
    return lambda x, y: any(s(x, y) for s in shapes)


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> Shape:
    return union(rect(x0 + r, y0, x1 - r, y1), rect(x0, y0 + r, x1, y1 - r),
                 *(circle(cx, cy, r) for cx in (x0 + r, x1 - r) for cy in (y0 + r, y1 - r)))


# ---- the emblems: (shape, ink) where ink is "fg" (the emblem) or "bg" (cut back out) --------

Emblem = list[tuple[Shape, str]]


def architect() -> Emblem:  # a portico: roof, three columns, a base (structure)
    roof = polygon([(-0.66, -0.2), (0.0, -0.64), (0.66, -0.2)])
    columns = union(*(rect(x - 0.09, -0.12, x + 0.09, 0.42) for x in (-0.42, 0.0, 0.42)))
    return [(union(roof, rect(-0.62, -0.2, 0.62, -0.1), columns,
                   rect(-0.66, 0.46, 0.66, 0.58)), "fg")]


def security_guardian() -> Emblem:  # a shield with a keyhole
    side = [(0.52 * math.cos(a), 0.05 + 0.62 * math.sin(a))
            for a in (math.pi * k / 16 for k in range(9))]  # the lower curve, right to left
    shield = polygon([(-0.52, -0.58), (0.52, -0.58), *side[:-1], (0.0, 0.67),
                      *[(-x, y) for x, y in reversed(side[:-1])]])
    keyhole = union(circle(0.0, -0.14, 0.14), polygon([(-0.07, -0.08), (0.07, -0.08),
                                                       (0.12, 0.3), (-0.12, 0.3)]))
    return [(shield, "fg"), (keyhole, "bg")]


def performance_guru() -> Emblem:  # a lightning bolt
    return [(polygon([(0.16, -0.72), (-0.42, 0.1), (-0.03, 0.1), (-0.16, 0.72), (0.44, -0.14),
                      (0.05, -0.14)]), "fg")]


def test_skeptic() -> Emblem:  # a magnifying glass over a check mark
    return [(union(ring(-0.12, -0.12, 0.46, 0.32), stroke(0.2, 0.2, 0.6, 0.6, 0.2)), "fg"),
            (union(stroke(-0.32, -0.12, -0.18, 0.03, 0.1),
                   stroke(-0.18, 0.03, 0.1, -0.3, 0.1)), "fg")]


def dx_advocate() -> Emblem:  # a speech bubble with three dots
    bubble = union(rounded_rect(-0.64, -0.5, 0.64, 0.26, 0.22),
                   polygon([(-0.36, 0.2), (-0.5, 0.62), (0.04, 0.2)]))
    dots = union(*(circle(x, -0.12, 0.1) for x in (-0.32, 0.0, 0.32)))
    return [(bubble, "fg"), (dots, "bg")]


def error_philosopher() -> Emblem:  # a warning sign
    sign = polygon([(0.0, -0.66), (0.7, 0.56), (-0.7, 0.56)])
    mark = union(stroke(0.0, -0.24, 0.0, 0.12, 0.15), circle(0.0, 0.34, 0.08))
    return [(sign, "fg"), (mark, "bg")]


def dependency_watcher() -> Emblem:  # a dependency tree: one root, three children
    root, kids = (0.0, -0.46), [(-0.5, 0.42), (0.0, 0.42), (0.5, 0.42)]
    edges = union(*(stroke(*root, *kid, 0.1) for kid in kids))
    nodes = union(circle(*root, 0.2), *(circle(*kid, 0.17) for kid in kids))
    return [(union(edges, nodes), "fg")]


def simplicity_zealot() -> Emblem:  # the empty set: the best code is no code
    return [(union(ring(0.0, 0.0, 0.5, 0.35), stroke(-0.56, 0.56, 0.56, -0.56, 0.13)), "fg")]


def ghost() -> Emblem:  # a ghost with a scalloped hem
    body = union(circle(0.0, -0.14, 0.46), rect(-0.46, -0.14, 0.46, 0.52))
    hem = union(*(circle(x, 0.62, 0.155) for x in (-0.31, 0.0, 0.31)))
    eyes = union(circle(-0.17, -0.18, 0.09), circle(0.17, -0.18, 0.09))
    return [(body, "fg"), (hem, "bg"), (eyes, "bg")]


EMBLEMS: dict[str, Callable[[], Emblem]] = {
    "architect": architect, "security_guardian": security_guardian,
    "performance_guru": performance_guru, "test_skeptic": test_skeptic,
    "dx_advocate": dx_advocate, "error_philosopher": error_philosopher,
    "dependency_watcher": dependency_watcher, "simplicity_zealot": simplicity_zealot,
    "ghost": ghost,
}

# ---- painting ----------------------------------------------------------------------------

SAMPLES = 4  # per axis: 16 samples where a pixel straddles an edge (anti-aliasing)


def rgb(colour: int) -> RGB:
    return (colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF


def shade(colour: RGB, factor: float) -> RGB:
    r, g, b = (min(255, round(c * factor)) for c in colour)
    return r, g, b


def ink_for(background: RGB) -> RGB:
    """White on dark and mid colours, near-black on light ones (the yellow), for contrast."""
    r, g, b = background
    return (35, 39, 42) if 0.299 * r + 0.587 * g + 0.114 * b > 186 else (255, 255, 255)


def layers_for(persona: Persona) -> list[Layer]:
    """A darker rim (Discord crops avatars to a circle, so it reads as a border), the disc in
    the persona's colour, then the emblem."""
    base = rgb(persona.colour)
    ink = ink_for(base)
    layers: list[Layer] = [(rect(-1.0, -1.0, 1.0, 1.0), shade(base, 0.72)),
                           (circle(0.0, 0.0, 0.93), base)]
    layers += [(shape, ink if which == "fg" else base) for shape, which in
               EMBLEMS[persona.key]()]
    return layers


def colour_at(layers: Sequence[Layer], x: float, y: float) -> RGB:
    found = layers[0][1]
    for shape, colour in layers:
        if shape(x, y):
            found = colour
    return found


def pixel(layers: Sequence[Layer], px: int, py: int) -> RGB:
    """The pixel's colour; its corners decide whether it needs supersampling at all."""
    def at(fx: float, fy: float) -> RGB:
        return colour_at(layers, (px + fx) * 2 / SIZE - 1, (py + fy) * 2 / SIZE - 1)

    corners = {at(0.0, 0.0), at(1.0, 0.0), at(0.0, 1.0), at(1.0, 1.0), at(0.5, 0.5)}
    if len(corners) == 1:
        return corners.pop()
    steps = [(k + 0.5) / SAMPLES for k in range(SAMPLES)]
    samples = [at(fx, fy) for fy in steps for fx in steps]
    r, g, b = (round(sum(s[i] for s in samples) / len(samples)) for i in range(3))
    return r, g, b


def render(persona: Persona) -> bytes:
    """The persona's avatar as raw RGB rows, top to bottom."""
    layers = layers_for(persona)
    return b"".join(bytes(c for px in range(SIZE) for c in pixel(layers, px, py))
                    for py in range(SIZE))


# ---- PNG ---------------------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width: int, height: int, rows: bytes) -> bytes:
    """A truecolour 8-bit PNG of `rows` (RGB, no alpha), every row unfiltered."""
    stride = width * 3
    raw = b"".join(b"\x00" + rows[y * stride:(y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


def avatar_png(persona: Persona) -> bytes:
    return png(SIZE, SIZE, render(persona))


def main(argv: Sequence[str] = ()) -> int:
    """Write every persona's PNG into `argv[0]` (default: this package's folder)."""
    target = Path(argv[0]) if argv else Path(__file__).resolve().parent
    for persona in (*PERSONAS, GHOST):
        (target / persona.avatar).write_bytes(avatar_png(persona))
        print(f"wrote {target / persona.avatar}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
