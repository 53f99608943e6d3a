"""A package's public face, loaded on first use (PEP 562): its `__all__` names what the rest of
the project uses, and each name is imported from its own module only when asked for.

Eager re-exports made `import tribunalbot.engine.leaderboard` load the whole engine, and
`tribunalbot.llm.base` the whole offline reviewer: every command, the container's health
check among them, started 0.4 s later. A lazy face costs nothing until a name is read.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence


def lazy_face(package: str, homes: Mapping[str, Sequence[str]]
              ) -> tuple[list[str], Callable[[str], object]]:
    """`(__all__, __getattr__)` for `package`, from `homes`: each submodule's name (relative
    to the package) and the names the face offers from it."""
    where = {name: f"{package}.{module}" for module, names in homes.items() for name in names}

    def attribute(name: str) -> object:
        if name not in where:  # a submodule (`from package import sub`) is imported instead
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(where[name]), name)

    return sorted(where), attribute
