"""The persona avatars, made by this project (`draw.py` draws them) and shipped as package
data, so every persona shows its own face without the operator hosting anything: a webhook
created with the image as its avatar shows it on every message (DESIGN §5.2)."""

from __future__ import annotations

from functools import cache
from importlib import resources

__all__ = ["avatar_image"]


@cache  # nine small files, read once each: the poster asks on every webhook it creates
def avatar_image(file_name: str) -> bytes:
    """The PNG bytes of a persona's avatar (`Persona.avatar`, e.g. "architect.png")."""
    if "/" in file_name or "\\" in file_name or not file_name.endswith(".png"):
        raise ValueError(f"not an avatar file name: {file_name!r}")
    return resources.files(__package__).joinpath(file_name).read_bytes()
