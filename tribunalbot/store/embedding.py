"""A dependency-free, code-aware hashed embedding (DESIGN §2.5).

The original split code on whitespace, so `conn.execute(query)` was one opaque token and two
snippets doing the same thing with different spacing shared nothing. Here identifiers are split
into their words (camelCase, snake_case, digits), punctuation is dropped, language keywords count
as their own features, and for Python the kinds of AST nodes (loops, calls, try blocks,
comprehensions...) describe the shape of the code independently of its names.

Features are hashed with blake2b (Python's `hash()` is salted per process, which would make
stored vectors useless after a restart) into 128 signed buckets, weighted by sublinear term
frequency, and the vector is L2-normalized so cosine distance is meaningful.

A change (a unified diff) is embedded by what it leaves behind: each file's path and the new
side of its hunks, in the file's own language. Removed lines and the diff's markup are no part
of it, so a later change that writes similar code finds the game, whatever it replaced.
"""

from __future__ import annotations

import array
import ast
import hashlib
import math
import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import lru_cache

from tribunalbot.cpu import off_loop
from tribunalbot.diffs import DIFF_LANGUAGE, Change, DiffError, looks_like_diff, parse_diff
from tribunalbot.pyparse import parse_python

DIMENSIONS = 128

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

_KEYWORD_TEXT = (
    # Python
    "and as assert async await break class continue def del elif else except finally for from "
    "global if import in is lambda nonlocal not or pass raise return try while with yield "
    "none true false self "
    # JavaScript / TypeScript
    "const let var function new this typeof instanceof catch throw switch case default do "
    "export extends super null undefined void delete of interface type enum implements "
    "public private protected static readonly "
    # Go, Rust, Java, C
    "func go defer chan select struct package map range fn impl trait mut match loop pub use "
    "crate where unsafe ref move dyn int float double char bool string long short unsigned "
    "goto sizeof"
)
KEYWORDS = frozenset(_KEYWORD_TEXT.split())
# Words that appear in nearly every snippet and so only blur the similarity.
_NOISE = frozenset({"self", "this", "the", "a", "an", "of", "to", "is", "it"})

_WEIGHT_WORD = 1.0
_WEIGHT_KEYWORD = 0.7
_WEIGHT_AST = 0.6


def split_identifier(identifier: str) -> list[str]:
    """`parseHTTPResponse_v2` -> ["parse", "http", "response", "v", "2"]."""
    parts: list[str] = []
    for chunk in identifier.split("_"):
        parts.extend(p.lower() for p in _CAMEL.findall(chunk))
    return parts


def features(text: str, language: str = "") -> dict[str, float]:
    """Weighted features of a piece of code, or of a change's post-change hunks."""
    change = _as_change(text, language)
    if change is not None:
        return _change_features(change)
    return _code_features(text, language)


def _as_change(text: str, language: str) -> Change | None:
    if language.lower() not in ("", DIFF_LANGUAGE) or not looks_like_diff(text):
        return None
    try:
        return parse_diff(text)
    except DiffError:  # a broken diff is still text with words in it
        return None


def _change_features(change: Change) -> dict[str, float]:
    counts: defaultdict[str, float] = defaultdict(float)
    for file in change.files:
        if file.new_path is None:
            continue  # a deleted file leaves nothing behind
        hunks = ["\n".join(line.text for line in h.lines if line.kind != "removed")
                 for h in file.hunks]
        # Each hunk dedented, so that a hunk cut from inside a function still parses.
        parts = [file.path, *(textwrap.dedent(h) for h in hunks)]
        for part in parts:
            for feature, weight in _code_features(part, file.language).items():
                counts[feature] += weight
    return counts


def _code_features(text: str, language: str) -> dict[str, float]:
    counts: defaultdict[str, float] = defaultdict(float)
    for token in _WORD.findall(text):
        lowered = token.lower()
        if lowered in KEYWORDS:
            counts[f"kw:{lowered}"] += _WEIGHT_KEYWORD
            continue
        for word in split_identifier(token):
            if word not in _NOISE and (len(word) > 1 or word.isdigit()):
                counts[f"w:{word}"] += _WEIGHT_WORD
    if language.lower() in {"", "python", "py"}:
        for kind, n in _python_node_kinds(text).items():
            counts[f"ast:{kind}"] += _WEIGHT_AST * n
    return counts


def _python_node_kinds(text: str) -> Counter[str]:
    """Counts of AST node kinds; empty when the text is not Python."""
    tree = parse_python(text)  # the process's one parse lock: embeddings run on threads
    if tree is None:
        return Counter()
    # Names, loads and stores are everywhere; they say nothing about what the code does.
    skip = {"Module", "Name", "Load", "Store", "Constant", "Attribute", "arguments", "arg",
            "Expr", "keyword", "alias"}
    return Counter(k for node in ast.walk(tree) if (k := type(node).__name__) not in skip)


@lru_cache(maxsize=65_536)
def _bucket(feature: str) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    # The sign bit halves the bias of collisions: colliding features cancel as often as add.
    return value % DIMENSIONS, (1.0 if (value >> 63) & 1 else -1.0)


def hash_features(counts: Mapping[str, float]) -> list[float]:
    """Sublinear-tf signed feature hashing, L2-normalized (all zeros for empty input)."""
    vector = [0.0] * DIMENSIONS
    for feature, weight in counts.items():
        if weight <= 0:
            continue
        index, sign = _bucket(feature)
        scaled = 1.0 + math.log(weight) if weight >= 1 else weight
        vector[index] += sign * scaled
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector] if norm else vector


def embed(text: str, language: str = "") -> list[float]:
    """The 128-dimensional code-aware embedding of `text`."""
    return hash_features(features(text, language))


async def embed_async(text: str, language: str = "") -> list[float]:
    """`embed` on the CPU worker: the regex pass and the AST parse of a 4000-character
    submission take milliseconds, which would stall every other game on the loop."""
    return await off_loop(embed, text, language)


def to_blob(vector: list[float]) -> bytes:
    """Native float32, the raw format sqlite-vec reads."""
    packed = array.array("f", vector)
    if packed.itemsize != 4:  # pragma: no cover - every supported platform has 4-byte floats
        raise RuntimeError("float is not 32-bit on this platform")
    return packed.tobytes()
