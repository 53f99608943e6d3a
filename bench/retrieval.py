"""Recall@5 of the experience embedding: the original's whitespace hashing vs the code-aware one.

The corpus (bench/corpus) holds 60 snippets in 10 categories, 3 in Python and 3 in JavaScript
per category, written differently on purpose. Each snippet queries all the others; the 5 other
snippets of its category are the relevant ones. Both embeddings have 128 dimensions and the
same hash function, so the difference is only in what counts as a feature.

    python bench/retrieval.py
"""

from __future__ import annotations

import hashlib
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from corpus.javascript_snippets import JAVASCRIPT  # noqa: E402
from corpus.python_snippets import PYTHON  # noqa: E402

from tribunalbot.store.embedding import DIMENSIONS, embed  # noqa: E402

K = 5
Embed = Callable[[str, str], list[float]]


def original_embed(text: str, language: str) -> list[float]:
    """The original scheme: lowercase, split on whitespace, count hashed tokens, normalize.
    `conn.execute(query)` stays one token, so it only matches itself, character for character."""
    del language
    vector = [0.0] * DIMENSIONS
    for token in text.lower().split():
        digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
        vector[int.from_bytes(digest, "little") % DIMENSIONS] += 1.0
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector] if norm else vector


def corpus() -> list[tuple[str, str, str]]:
    """(category, language, code) for every snippet."""
    return ([(c, "python", code) for c, code in PYTHON]
            + [(c, "javascript", code) for c, code in JAVASCRIPT])


def recall_at_k(items: list[tuple[str, str, str]], embed_fn: Embed) -> tuple[float, float]:
    """(recall@K over all relevant snippets, recall@K counting same-language ones only)."""
    vectors = [embed_fn(code, lang) for _, lang, code in items]
    total = same_lang = 0.0
    for i, (category, lang, _) in enumerate(items):
        scores = sorted(
            ((sum(a * b for a, b in zip(vectors[i], vectors[j], strict=True)), j)
             for j in range(len(items)) if j != i),
            key=lambda s: (-s[0], s[1]))
        top = [j for _, j in scores[:K]]
        relevant = {j for j, (c, _, _) in enumerate(items) if c == category and j != i}
        same = {j for j in relevant if items[j][1] == lang}
        total += len(relevant & set(top)) / min(K, len(relevant))
        same_lang += len(same & set(top)) / len(same)
    return total / len(items), same_lang / len(items)


def main() -> None:
    items = corpus()
    categories = {c for c, _, _ in items}
    languages = {lang for _, lang, _ in items}
    print(f"corpus: {len(items)} snippets, {len(categories)} categories, "
          f"{len(languages)} languages; recall@{K} with each snippet as the query")
    results = {}
    for name, fn in (("original", original_embed), ("codeaware", embed)):
        started = time.perf_counter()
        overall, same = recall_at_k(items, fn)
        results[name] = overall
        print(f"  {name:<10} recall@{K} {overall:.3f}  (same-language only: {same:.3f})  "
              f"{(time.perf_counter() - started) * 1000:.0f} ms")
    ratio = results["codeaware"] / results["original"] if results["original"] else float("inf")
    print(f"  code-aware / original: {ratio:.2f}x")
    print(f"metric recall5_original {results['original']:.3f}")
    print(f"metric recall5_codeaware {results['codeaware']:.3f}")
    print(f"metric recall5_ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
