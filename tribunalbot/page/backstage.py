"""What each seat wrote privately, for the replay: read from the log only once the game is over.

The public page is built from public views alone (`build.public_log`). The private fields of a
record (a seat's notes and confidence, the Troublemaker's plan and planted claims, the text a
cosmic ray garbled, why a reply was refused) are read here, and only from the log of a game
that was revealed and not stopped: a running or aborted game never has them on a page. A log
that carries no private part at all (the thread's public copy, which has no `Dealt`) gives an
empty backstage, and the page then shows no notes, not "no notes".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tribunalbot.engine import events as ev
from tribunalbot.engine.secrecy import neutralize_model
from tribunalbot.llm.replies import parse_planted

# (phase, round, seat) of a post: ("speak", 0, seat) a review, ("debate", N, seat) an accusation
PostKey = tuple[str, int, int]


@dataclass(frozen=True)
class PostNotes:
    """The private side of one post."""

    notes: str = ""  # its author's own words, the PLANTED lines taken out (shown as `planted`)
    planted: tuple[ev.LedgerEntry, ...] = ()
    ungarbled: str = ""  # the review as written, when the cosmic ray garbled it
    refused: tuple[str, ...] = ()  # the kind of each reply refused before this one


@dataclass(frozen=True)
class VoteNotes:
    """The private side of one round's AI vote: what the engine noted per seat (a seat that
    abstained, a reply asked again), and why earlier replies were refused."""

    notes: Mapping[int, str] = field(default_factory=dict)
    refused: Mapping[int, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Backstage:
    """The private record of a finished game, or nothing (`shown` False)."""

    troublemaker: int | None = None
    posts: Mapping[PostKey, PostNotes] = field(default_factory=dict)
    votes: Mapping[int, VoteNotes] = field(default_factory=dict)

    @property
    def shown(self) -> bool:
        return self.troublemaker is not None

    def post(self, phase: str, rnd: int, seat: int) -> PostNotes:
        return self.posts.get((phase, rnd, seat), PostNotes())

    def vote(self, rnd: int) -> VoteNotes:
        return self.votes.get(rnd, VoteNotes())


def over(events: Sequence[ev.Record]) -> ev.Revealed | None:
    """The reveal of a game that ended with one, else None (running, or stopped)."""
    if any(isinstance(r, ev.GameAborted) for r in events):
        return None
    return next((r for r in events if isinstance(r, ev.Revealed)), None)


def backstage_of(events: Sequence[ev.Record]) -> Backstage:
    """The private side of a revealed game's log; empty for any other log (the gate comes
    before any private field is read) and for a log of public views only."""
    revealed = over(events)
    if revealed is None or not any(isinstance(r, ev.Dealt) for r in events):
        return Backstage()
    posts: dict[PostKey, PostNotes] = {}
    votes: dict[int, VoteNotes] = {}
    for record in events:
        if isinstance(record, ev.Statement | ev.Accusation):
            key, post = _post(neutralize_model(record))
            posts[key] = post
        elif isinstance(record, ev.AIVotes):
            clean = neutralize_model(record)
            votes[clean.round] = VoteNotes(
                dict(clean.notes), {s: _kinds(r) for s, r in clean.rejected.items() if r})
    return Backstage(revealed.troublemaker, posts, votes)


def _post(record: ev.Statement | ev.Accusation) -> tuple[PostKey, PostNotes]:
    if isinstance(record, ev.Statement):
        key: PostKey = ("speak", 0, record.seat)
        ungarbled = record.ungarbled
    else:
        key, ungarbled = ("debate", record.round, record.seat), ""
    return key, PostNotes(own_words(record.notes), record.planted, ungarbled,
                          _kinds(record.rejected))


def own_words(notes: str) -> str:
    """Notes without their PLANTED lines: each planted claim is shown whole, once, from the
    record's `planted`, so the line that declared it would only repeat it."""
    return "\n".join(line for line in notes.splitlines() if not parse_planted(line)).strip()


def _kinds(reasons: tuple[str, ...]) -> tuple[str, ...]:
    """Each refusal by its kind only ("format", "secrecy", "focus", "schema", "unusable"):
    the rest of a reason may hold a provider's error text, which is the operator's log's."""
    return tuple(reason.split(":", 1)[0].strip() or "refused" for reason in reasons)
