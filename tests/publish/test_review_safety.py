"""What the text of a posted review can do on the forge: nobody notified, no other issue or
merge request noted, no GitLab quick action run, not even where a code span is misread or cut
open; the human jury told as the leaderboard counts it; and a busy pull request, whose other
reviews are long, still searched for the marker before the review is posted."""

from __future__ import annotations

import pytest

from tests.publish.conftest import (
    GITHUB_PR,
    OFF_DIFF,
    PLAYERS,
    finished_game,
    github_revision,
    settings,
)
from tests.publish.fake_forges import Forges
from tribunalbot.diffs import change_of
from tribunalbot.engine import events as ev
from tribunalbot.publish.review import (
    Comment,
    GameOutcome,
    build_review,
    clip,
    comment_body,
    forge_safe,
)
from tribunalbot.publish.service import Publisher
from tribunalbot.store import Store

ZWSP = "\u200b"
KEY = (GITHUB_PR.project, GITHUB_PR.number)


@pytest.mark.parametrize(("text", "broken"), [
    ("`` @alice ` takes the lock", "@" + ZWSP + "alice"),  # `` opens, ` does not close it
    ("\\` @alice ` takes the lock", "@" + ZWSP + "alice"),  # an escaped backtick opens nothing
    ("as in acme/shop#12", "#" + ZWSP + "12"),  # another repository's issue
    ("as in group/proj!5", "!" + ZWSP + "5"),  # another project's merge request
    ("see GH-12", "GH-" + ZWSP + "12"),
    ("ask owners/@alice", "@" + ZWSP + "alice"),
    ("tracked in &7", "&" + ZWSP + "7"),  # a GitLab epic
])
def test_nothing_that_notifies_is_left_whole(text: str, broken: str) -> None:
    assert broken in forge_safe(text)


def test_code_spans_e_mail_addresses_and_entities_stay_as_written() -> None:
    text = "`@alice` and ``a ` @bob`` mail ops@example.com, &#12; and C#"
    assert forge_safe(text) == text


def test_no_line_opens_with_a_gitlab_quick_action() -> None:
    safe = forge_safe("`a.py:3` leaks\n/merge\n  /approve and `x\n/close`")
    assert all(not line.lstrip().startswith("/") for line in safe.splitlines())


def test_a_cut_never_opens_a_code_span() -> None:
    text = "x" * 40 + " `@alice` holds the lock"
    for limit in range(45, 70):
        cut = clip(text, limit)
        assert len(cut) <= limit and ("`@alice`" in cut or "`@" not in cut), limit
    long = "`a.py:1` " + "y" * 65_480 + " `@alice @bob` " + "z" * 40  # the cut falls in it
    body = comment_body("g", Comment(0, "a.py", "a.py", 1, None, None, long))
    assert len(body) <= 65_536 and "`@alice" not in body


def test_a_vote_after_the_early_stop_names_nobody() -> None:
    scores = tuple(ev.Score(user_id=str(i), user_name=f"m{i}", seat=3, correct=True,
                            points=0 if late else 1, jury_missed_bonus=False,
                            early_bonus=False, after_stop=late)
                   for i, late in enumerate((False, True, True)))
    revealed = ev.Revealed(troublemaker=3, persona="architect", strategy="deep_thinker",
                           strategy_name="Deep Thinker", caught_round=1, ledger=(),
                           event_details={}, scores=scores, verdict=(OFF_DIFF,), struck=())
    diff = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    change = change_of(diff, "diff")
    assert change is not None
    review = build_review(GameOutcome("g", revealed, PLAYERS, "ab" * 20), diff, change,
                          site="GitHub")
    assert ("1 of 3 human voters named the Troublemaker (2 votes came after the early stop "
            "gave the answer away).") in review.summary


async def test_a_pull_request_with_long_reviews_is_still_searched(store: Store,
                                                                  forges: Forges) -> None:
    others = [{"id": n, "body": "A long review by another bot. " * 2_000,
               "html_url": f"https://github.com/acme/shop/pull/7#pullrequestreview-{n}"}
              for n in range(20)]  # 1.2 MB in one page, more than a diff may be
    forges.reviews[KEY] = list(others)
    game = await finished_game(store, "a1b2c3d4e5f6", github_revision(forges),
                               verdict=(OFF_DIFF,))
    publisher = Publisher(store, settings(forges).pull_requests)
    posted = await publisher.publish(game, "4242", False)
    assert posted.answer.startswith("Posted to acme/shop#7: "), posted.answer
    assert len(forges.reviews[KEY]) == len(others) + 1
