"""The reveal's honest mistakes and vote story in words, shared by the thread, the terminal and
the game page, so every table tells them alike. Plain text: each renderer adds its markup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tribunalbot.engine import events as ev
from tribunalbot.engine.achievements import Unlock
from tribunalbot.engine.secrecy import neutralize_mentions

FAIR_CATCH = "a fair catch, wrong player"
# Why a vote cast or changed after the early stop scored nothing (DESIGN §2.6).
AFTER_STOP = "voted after the tribunal stopped early, which gave the answer away"


def score_note(score: ev.Score) -> str:
    """What a human's score needs said beside right or wrong and its points, or ""."""
    if score.after_stop:
        return AFTER_STOP
    return FAIR_CATCH if score.fair_catch else ""


def stand_in_count(e: ev.Revealed) -> str:
    """"2 turns played by the offline reviewer", or "" when every model played its own."""
    n = len(e.stand_ins)
    return f"{n} turn{'s' * (n != 1)} played by the offline reviewer" if n else ""


def rejected_count(e: ev.Revealed) -> str:
    """"3 model replies refused", or "" when every reply was taken (the operator's log has
    each refusal's reason)."""
    n = e.rejected_replies
    return f"{n} model repl{'ies' if n != 1 else 'y'} refused" if n else ""


def with_stand_ins(usage: str, e: ev.Revealed) -> str:
    """The game's usage line with its refused replies and stand-in turns counted at the end
    (each refusal's reason is in the operator's log)."""
    return ", ".join(part for part in (usage, rejected_count(e), stand_in_count(e)) if part)


def _turn(turn: ev.StandInTurn) -> str:
    return {"speak": "its review", "debate": f"its accusation in round {turn.round}",
            "vote": f"its vote in round {turn.round}"}[turn.phase]


def cover_line(e: ev.Revealed) -> str:
    """Which of the Troublemaker's turns the offline reviewer played as its honest cover,
    because its model outed it on every attempt; "" when none."""
    turns = [_turn(t) for t in e.stand_ins if t.cover]
    if not turns:
        return ""
    listed = turns[0] if len(turns) == 1 else f"{', '.join(turns[:-1])} and {turns[-1]}"
    return (f"Its model gave itself away on every attempt at {listed}, so the offline reviewer "
            "played that as its honest cover: no plant.")


def achievements_line(unlocks: Sequence[Unlock]) -> str:
    """Who this game gave an achievement: "ANN: First catch, Beat the jury; BO: Five in a
    row (again in May 2026)", or "" for nobody. A member's name never pings, whatever shows
    the line."""
    def earned(unlock: Unlock) -> str:
        names = [a.name for a in unlock.first]
        if unlock.again and unlock.season is not None:
            names.append(f"{', '.join(a.name for a in unlock.again)} "
                         f"(again in {unlock.season.label})")
        return f"{neutralize_mentions(unlock.user_name)}: {', '.join(names)}"

    return "; ".join(earned(u) for u in unlocks if u.first or u.again)


def said_where(error: ev.HonestError) -> str:
    return "in its review" if error.phase == "speak" else f"in the debate, round {error.round}"


def _name(names: Mapping[int, str], seat: int | None) -> str:
    return names.get(seat, f"seat {seat}") if seat is not None else "nobody"


def fair_catch_lines(e: ev.Revealed, names: Mapping[int, str]) -> list[str]:
    """The AI accusations that named a seat which made an honest error, grouped by target and
    round: "Performance Guru, DX Advocate accused Architect (round 1)". (A human's fair catch
    is told with that human's score.)"""
    grouped: dict[tuple[int, int], list[str]] = {}
    for catch in e.fair_catches:
        grouped.setdefault((catch.target, catch.round), []).append(_name(names, catch.seat))
    return [f"{', '.join(who)} accused {_name(names, target)} (round {rnd})"
            for (target, rnd), who in sorted(grouped.items(), key=lambda kv: kv[0][::-1])]


def votes_by_target(told: ev.VoteRoundStory) -> list[tuple[int, list[ev.StoryVote]]]:
    """A round's votes grouped by whom they named, the most weighted first."""
    groups: dict[int, list[ev.StoryVote]] = {}
    for vote in told.votes:
        groups.setdefault(vote.target, []).append(vote)
    return sorted(groups.items(), key=lambda kv: (-sum(v.weight for v in kv[1]), kv[0]))


def outcome(told: ev.VoteRoundStory, names: Mapping[int, str]) -> str:
    if told.eliminated is None:
        return "a tie: nobody out" if told.votes else "no vote: nobody out"
    return f"{_name(names, told.eliminated)} out"


def mind_changes(told: ev.VoteRoundStory, names: Mapping[int, str]) -> list[str]:
    """"DX Advocate (Architect → Test Skeptic)" for each seat that changed its mind."""
    return [f"{_name(names, v.seat)} ({_name(names, v.changed_from)} → "
            f"{_name(names, v.target)})" for v in told.votes if v.changed_from is not None]


def story_grid(story: tuple[ev.VoteRoundStory, ...], names: Mapping[int, str],
               short: bool = False) -> list[list[str]]:
    """The vote story as rows: a header of rounds, one row per voter (its target each round:
    "*" a change of mind, "×2" a double vote, "–" an abstention, blank once out), then who
    went out. `short` names targets by seat number and rounds R1, R2…, for a narrow table."""
    def label(seat: int | None) -> str:
        return f"#{seat}" if short and seat is not None else _name(names, seat)

    voters = sorted({v.seat for r in story for v in r.votes} | {s for r in story
                                                                for s in r.abstained})
    rows = [["", *((f"R{r.round}" if short else f"round {r.round}") for r in story)]]
    for seat in voters:
        row = [f"#{seat} {_name(names, seat)}" if short else _name(names, seat)]
        for told in story:
            vote = next((v for v in told.votes if v.seat == seat), None)
            if vote is None:
                row.append("–" if seat in told.abstained else "")
                continue
            row.append(label(vote.target) + (" ×2" if vote.weight > 1 else "")
                       + (" *" if vote.changed_from is not None else ""))
        rows.append(row)
    rows.append(["out", *(label(r.eliminated) if r.eliminated else
                          "tie" if r.votes else "nobody" for r in story)])
    return rows
