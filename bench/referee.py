"""The referee on games a capable model played (tests/recordings/), replayed through the engine.

Per game: the input, the disguise, the round the AI jury caught it (or never), the honest
mistakes charged, model replies refused, verdict items sharing eight words in a row with the
plant (its claims and the Troublemaker's points holding one; its whole review where its notes
do not name the plant word for word), verdict
items that are fragments (under eight words, or opening on a connective), and the verdict's
size. Then over the corpus:

    metric corpus_games N
    metric honest_mistakes_charged N      every one a defect on this corpus: none was real
    metric replies_refused N
    metric verdict_items_from_the_plant N
    metric verdict_fragments N
    metric ai_jury_catch_rate X           games whose Troublemaker the AI jury eliminated
    metric ai_jury_round1_share X         games it caught in round 1 (a game is no game at 1.0)
    metric games_under_jury_R N           per jury rule R (all: everyone examines everyone;
    metric round1_catch_share_under_jury_R X    3: cross-examination, DESIGN §2.2)
    metric games_reaching_round_3_under_jury_R N
    metric round1_accusers_share X        of the honest seats' round-1 accusations, the share
                                          naming the Troublemaker
    metric round1_voters_share X          the same for the honest seats' round-1 votes

The last two are what a subtler brief can move while every game still ends in round 1: the
round alone says only that a plurality found the plant, not by how much.

    python bench/referee.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.referee.corpus import GAMES, SPAN, Replayed, plant_spans, replay, spans  # noqa: E402
from tribunalbot.engine import events as ev  # noqa: E402

_CONNECTIVE = re.compile(r"(?i)(?:but|and|also|ebenso|zudem|so|then)\b")


def round1_shares(game: Replayed) -> tuple[float, float]:
    """Of the honest seats' round-1 accusations and votes, the shares naming the Troublemaker."""
    plant = game.revealed.troublemaker
    accused = [e.target for e in game.result.events
               if isinstance(e, ev.Accusation) and e.round == 1 and e.seat != plant]
    voted = [v.target for e in game.result.events
             if isinstance(e, ev.AIVotes) and e.round == 1 for v in e.votes if v.seat != plant]
    return (sum(t == plant for t in accused) / max(1, len(accused)),
            sum(t == plant for t in voted) / max(1, len(voted)))


def row(game: Replayed) -> dict[str, object]:
    revealed = game.revealed
    theirs = plant_spans(game)
    accusers, voters = round1_shares(game)
    return {
        "game": game.name, "input": game.setup.language, "disguise": revealed.strategy,
        "jury": game.setup.settings.cross_examined or "all",
        "rounds": sum(isinstance(e, ev.Elimination) for e in game.result.events),
        "caught": revealed.caught_round or "never",
        "mistakes": len(revealed.honest_errors or ()),
        "refused": revealed.rejected_replies,
        "from_plant": sum(1 for v in revealed.verdict if spans(v) & theirs),
        "fragments": sum(1 for v in revealed.verdict
                         if len(v.split()) < SPAN or _CONNECTIVE.match(v)),
        "items": len(revealed.verdict),
        "r1_accusers": f"{accusers:.2f}", "r1_voters": f"{voters:.2f}",
    }


def main() -> None:
    rows = [row(replay(name)) for name in GAMES]
    for r in rows:
        print("  ".join(f"{k}={v}" for k, v in r.items()))
    caught = [r["caught"] for r in rows if r["caught"] != "never"]
    print(f"metric corpus_games {len(rows)}")
    for key, name in (("mistakes", "honest_mistakes_charged"), ("refused", "replies_refused"),
                      ("from_plant", "verdict_items_from_the_plant"),
                      ("fragments", "verdict_fragments")):
        print(f"metric {name} {sum(int(str(r[key])) for r in rows)}")
    print(f"metric ai_jury_catch_rate {len(caught) / len(rows):.2f}")
    print(f"metric ai_jury_round1_share {sum(c == 1 for c in caught) / len(rows):.2f}")
    # Per jury rule: "all" (everyone examines everyone) or seats examined per juror.
    for jury in sorted({str(r["jury"]) for r in rows}):
        ruled = [r for r in rows if str(r["jury"]) == jury]
        print(f"metric games_under_jury_{jury} {len(ruled)}")
        print(f"metric round1_catch_share_under_jury_{jury} "
              f"{sum(r['caught'] == 1 for r in ruled) / len(ruled):.2f}")
        print(f"metric games_reaching_round_3_under_jury_{jury} "
              f"{sum(int(str(r['rounds'])) >= 3 for r in ruled)}")
    for key, name in (("r1_accusers", "round1_accusers_share"),
                      ("r1_voters", "round1_voters_share")):
        mean = sum(float(str(r[key])) for r in rows) / len(rows)
        print(f"metric {name} {mean:.2f}")


if __name__ == "__main__":
    main()
