"""The vote story: round by round, who voted for whom, who changed their mind, who went out.

Built from the log alone (the AI votes and the eliminations), so the reveal, the experience
record and every table tell the same story, after a resume too. Humans are not in it: their
final votes are the reveal's scores, which a member's "forget me" scrubs; a copy here would
escape that.
"""

from __future__ import annotations

from tribunalbot.engine import events as ev
from tribunalbot.engine.rules import tally
from tribunalbot.engine.state import GameState


def vote_story(state: GameState) -> tuple[ev.VoteRoundStory, ...]:
    rounds = []
    last: dict[int, int] = {}  # seat -> the target of its latest vote
    gone: set[int] = set()  # seats eliminated before the round being told
    for rnd in sorted(state.votes):
        ballots = state.votes[rnd].votes
        votes = []
        for vote in ballots:
            before = last.get(vote.seat)
            changed = (before if before is not None and before != vote.target
                       and before not in gone else None)
            votes.append(ev.StoryVote(seat=vote.seat, target=vote.target, weight=vote.weight,
                                      changed_from=changed))
            last[vote.seat] = vote.target
        voted = {v.seat for v in ballots}
        in_play = [p.seat for p in state.players if p.seat not in gone]
        elimination = state.eliminations.get(rnd)
        rounds.append(ev.VoteRoundStory(
            round=rnd, votes=tuple(votes),
            abstained=tuple(s for s in in_play if s not in voted),
            eliminated=elimination.seat if elimination else None,
            tally=dict(elimination.tally) if elimination else tally(ballots)[0]))
        if elimination is not None and elimination.seat is not None:
            gone.add(elimination.seat)
    return tuple(rounds)


def changes_of_mind(story: tuple[ev.VoteRoundStory, ...]) -> list[tuple[int, ev.StoryVote]]:
    """(round, vote) of every vote that changed the seat's mind, in order."""
    return [(r.round, v) for r in story for v in r.votes if v.changed_from is not None]
