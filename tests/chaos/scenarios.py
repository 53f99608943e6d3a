"""The kill points, as the twin sees them, for the fixed seed.

Three scenarios so that one phase's failure does not hide the next phase's: each plays the
whole game with the same three votes at the same moments (the uninterrupted game plays them
too), and kills the bot in its own phases."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from signal import SIGKILL, SIGTERM, Signals

from tests.chaos.faults import Seen, Stage, Step, Vote
from tests.chaos.harness import SEED
from tribunalbot.discordbot.text import safe_username
from tribunalbot.engine import rules

WEBHOOK_EXECUTE = "/webhooks/{webhook_id}/{webhook_token}"
CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"

# The deal is a pure function of the seed (event_chance 0 in the bot's config).
_PANEL, _DEALT = rules.deal(SEED, 0.0)
SEAT_NAMES = tuple(safe_username(p.name) for p in _PANEL)
TROUBLEMAKER = _DEALT.troublemaker
WRONG_SEAT = TROUBLEMAKER % len(SEAT_NAMES) + 1

Match = Callable[[Seen], bool]


def persona_post(seat: int, *, accusation: bool = False) -> Match:
    name = SEAT_NAMES[seat - 1]
    return lambda s: (s.method == "POST" and s.route == WEBHOOK_EXECUTE
                      and (s.body or {}).get("username") == name
                      and s.content.startswith("**I accuse") == accusation)


def bot_post(test: Match) -> Match:
    return lambda s: s.method == "POST" and s.route == CHANNEL_MESSAGES and test(s)


def shows_deadline(s: Seen) -> bool:
    """The status, posted or edited, with the ballot's countdown: the human vote window."""
    return (s.method in ("POST", "PATCH") and s.route in (CHANNEL_MESSAGES, CHANNEL_MESSAGE)
            and "Ballot closes" in s.content)


def _has_vote_buttons(s: Seen) -> bool:
    rows = (s.body or {}).get("components") or []
    return any(str(c.get("custom_id", "")).startswith("tribunal:vote:")
               for row in rows for c in row.get("components", []))


STATUS = bot_post(lambda s: s.content.startswith("**Phase:**"))
BALLOT = bot_post(_has_vote_buttons)
DEBATE_1 = bot_post(lambda s: s.content.startswith("🗣️ **Debate, round 1**"))
VOTES_1 = bot_post(lambda s: "Votes, round 1" in s.embed_titles)
ELIMINATION = bot_post(lambda s: s.content.startswith(("🚪", "⚖️ A tie")))
BALLOT_CLOSED = bot_post(lambda s: s.content.startswith("🔒 The ballot is closed"))
REVEAL = bot_post(lambda s: any("Troublemaker was" in t for t in s.embed_titles))


def kill(phase: str, label: str, match: Match, stage: Stage, sig: Signals) -> Step:
    return Step(label, phase, match, stage, sig)


# ---- the three votes: the same moments in every game --------------------------------------

def ballot_open(sig: Signals | None = None) -> Step:
    return Step("the ballot message was stored; alice votes for the Troublemaker before "
                "Discord answers", "human ballot open", BALLOT, "stored", sig,
                (Vote("alice", TROUBLEMAKER),))


def debate_opens(sig: Signals | None = None) -> Step:
    return Step("the 'Debate, round 1' header was stored; bob votes (wrongly) before the "
                "first elimination", "debate", DEBATE_1, "stored", sig,
                (Vote("bob", WRONG_SEAT),))


def vote_window(sig: Signals | None = None) -> Step:
    return Step("the status shows the ballot deadline; carol votes for the Troublemaker "
                "while the bot waits for the window", "human vote window", shows_deadline,
                "answered", sig, (Vote("carol", TROUBLEMAKER),))


@dataclass(frozen=True)
class Scenario:
    name: str
    steps: tuple[Step, ...]

    @property
    def kills(self) -> list[Step]:
        return [s for s in self.steps if s.signal is not None]


UNINTERRUPTED = Scenario("uninterrupted", (ballot_open(), debate_opens(), vote_window()))

REVIEWS = Scenario("reviews", (
    kill("reviews", "the status message was stored; SIGKILL before Discord answers (its id "
         "never reaches the bot)", STATUS, "stored", SIGKILL),
    kill("reviews", "seat 2's statement request arrived; SIGKILL, and the twin drops it (it "
         "never reached Discord)", persona_post(2), "request", SIGKILL),
    kill("reviews", "seat 4's statement was stored; SIGKILL before Discord answers (posted, "
         "id never stored)", persona_post(4), "stored", SIGKILL),
    kill("reviews", "seat 6's statement is in flight; SIGTERM, then Discord stores and "
         "answers it", persona_post(6), "request", SIGTERM),
    kill("reviews", "seat 8's statement was answered; SIGKILL as the answer goes out (the "
         "bot may or may not have read it)", persona_post(8), "answered", SIGKILL),
    ballot_open(), debate_opens(), vote_window(),
))

BALLOT_AND_DEBATE = Scenario("ballot-and-debate", (
    ballot_open(SIGKILL),  # the ballot posted, its id never stored
    debate_opens(SIGTERM),
    kill("debate", "seat 3's accusation was stored; SIGKILL before Discord answers",
         persona_post(3, accusation=True), "stored", SIGKILL),
    kill("debate", "seat 6's accusation request arrived; SIGKILL, and the twin drops it",
         persona_post(6, accusation=True), "request", SIGKILL),
    vote_window(),
))

VOTES_AND_REVEAL = Scenario("votes-and-reveal", (
    ballot_open(), debate_opens(),
    kill("AI vote", "the 'Votes, round 1' embed is in flight; SIGTERM, then Discord stores "
         "and answers it", VOTES_1, "request", SIGTERM),
    kill("AI vote", "round 1's elimination message was stored; SIGKILL before Discord "
         "answers", ELIMINATION, "stored", SIGKILL),
    vote_window(SIGKILL),
    kill("human vote window", "the ballot deadline shows again after the restart; SIGTERM "
         "while the bot waits", shows_deadline, "answered", SIGTERM),
    kill("just before the reveal", "the 'ballot is closed' message request arrived; "
         "SIGKILL, and the twin drops it", BALLOT_CLOSED, "request", SIGKILL),
    kill("at the reveal", "the reveal embed was stored; SIGKILL before Discord answers",
         REVEAL, "stored", SIGKILL),
))

# A click is answered before its vote is stored (a deferred "thinking…", edited into the
# confirmation once the vote is in): killed in between, the click must never read "your
# vote is X" unless X was stored. The voter clicks again after the restart.
CLICKS = Scenario("clicks", (
    Step("the ballot message was stored; alice's click is deferred, SIGKILL before the "
         "bot hears Discord took the deferral (the vote was never stored)",
         "human ballot open", BALLOT, "stored", SIGKILL, (Vote("alice", TROUBLEMAKER),),
         answer_kill="stored"),
    debate_opens(),
    Step("the status shows the ballot deadline; carol's click is deferred, SIGKILL as "
         "Discord's answer goes out (her vote may or may not be stored by then)",
         "human vote window", shows_deadline, "answered", SIGKILL,
         (Vote("carol", TROUBLEMAKER),), answer_kill="answered"),
))

CHAOS = (REVIEWS, BALLOT_AND_DEBATE, VOTES_AND_REVEAL, CLICKS)
