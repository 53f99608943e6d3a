"""How a person would read the offline game's text: how often the commonest opener starts a
review and an accusation, and how long a review runs, over the readability test's games
(tests/offline/test_readability.py holds the shares under their caps):

    metric review_opener_share X      the commonest review sentence opener's share of reviews
    metric accusation_opener_share X  the commonest accusation opener's share of accusations
    metric words_per_review X         mean words of a review

Usage, from the project root: python bench/openers.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
    from bench.fair.games import play_all, schedule
    from bench.fair.inputs import resolve
    from tests.offline.test_readability import (
        GAMES,
        INPUTS,
        INPUTS_PER_SEED,
        _opener,
        _opener_shares,
    )

    found, _ = resolve(INPUTS)
    games = play_all(found, schedule(len(found), GAMES, INPUTS_PER_SEED))
    reviews = [text for game in games for text in game.reviews.values()]
    accusations = [a.text for game in games for a in game.accusations]
    review_top, review_count = _opener_shares(reviews).most_common(1)[0]
    accusation_top, accusation_count = Counter(map(_opener, accusations)).most_common(1)[0]
    print(f"# commonest review opener: {review_top!r}; accusation opener: {accusation_top!r}")
    print(f"metric review_opener_share {review_count / len(reviews):.3f}")
    print(f"metric accusation_opener_share {accusation_count / len(accusations):.3f}")
    words = sum(len(text.split()) for text in reviews) / len(reviews)
    print(f"metric words_per_review {words:.1f}")


if __name__ == "__main__":
    main()
