"""What a played game must satisfy, as a list of precise problems (empty = all is well)."""

from __future__ import annotations

import signal
from collections import Counter

from tests.chaos import thread
from tests.chaos.faults import Seen
from tests.chaos.harness import Played
from tests.chaos.process import TERM_GRACE_SECONDS, Exit
from tests.chaos.scenarios import SEAT_NAMES


def run_problems(played: Played) -> list[str]:
    """The harness's own view: every step reached and acted on, no crash, no refusal."""
    problems = list(played.problems)
    for outcome in played.outcomes:
        if not outcome.reached:
            problems.append(f"{outcome.step.describe()}: never reached ({outcome.missed})")
        elif outcome.error is not None:
            problems.append(f"{outcome.step.describe()}: acting failed: {outcome.error}")
    problems += [f"Discord would have refused: {v}" for v in played.violations]
    return problems


def single_messages(played: Played) -> list[str]:
    """Exactly one status message and one ballot message, wherever the bot was killed."""
    problems = []
    for what, probe in (("status", thread.is_status), ("ballot", thread.is_ballot),
                        ("reveal", thread.is_reveal), ("transcript", thread.is_transcript)):
        found = [m for m in played.messages if probe(m)]
        if len(found) != 1:
            lives = ", ".join(played.ended_by(played.life_of.get(m.id, 0)) for m in found)
            problems.append(f"{len(found)} {what} messages (expected exactly 1)"
                            + (f", posted by {lives}" if found else ""))
    return problems


def votes_counted(played: Played) -> list[str]:
    """Every vote a human cast (and the bot confirmed) is named at the reveal."""
    # A click made again after one killed in its answer may find its vote stored already.
    again = {vote for vote, _, stored in played.killed_clicks if stored}
    problems = [f"{vote.voter}'s click on seat {vote.seat} was answered {answer!r}"
                for vote, answer in played.votes if "Your vote is now" not in answer
                and not (vote in again and "Your vote stays" in answer)]
    verdicts = human_verdicts(played)
    for vote, _ in played.votes:
        if vote.voter.lower() not in verdicts.lower():
            problems.append(f"{vote.voter}'s vote (seat {vote.seat}) is not counted at the "
                            f"reveal: Human verdicts = {verdicts!r}")
    return problems


def killed_clicks_honest(played: Played) -> list[str]:
    """A click killed between its answer and its vote's write was either stored or never
    confirmed: the clicker is never told "your vote is X" and then X is lost."""
    return [f"{vote.voter}'s click was answered {shown!r}, but the vote was not stored when "
            "the bot died" for vote, shown, stored in played.killed_clicks
            if "Your vote is now" in shown and not stored]


def human_verdicts(played: Played) -> str:
    reveal = played.reveal()
    if reveal is None or not reveal.embeds:
        return "(no reveal)"
    fields = reveal.embeds[0].get("fields") or []
    return next((f["value"] for f in fields if f["name"] == "Human verdicts"), "(no field)")


def sigterm_exits(played: Played) -> list[str]:
    """After SIGTERM the bot exits with code 0 within the grace period."""
    exits: list[tuple[str, Exit | None]] = [
        (o.step.describe(), o.exit) for o in played.outcomes
        if o.step.signal is signal.SIGTERM and o.reached]
    exits.append(("[after the reveal] SIGTERM: the game is over", played.final_exit))
    problems = []
    for label, exit in exits:
        if exit is None:
            continue  # not reached, reported elsewhere
        if exit.code is None:
            problems.append(f"{label}: still running {TERM_GRACE_SECONDS:.0f} s after SIGTERM")
        elif exit.code != 0:
            problems.append(f"{label}: exit code {exit.code} after {exit.seconds:.2f} s "
                            "(expected 0 within 10 s)")
    return problems


def unique_persona_posts(played: Played) -> list[str]:
    """The uninterrupted game's own sanity: one statement per seat, nothing said twice."""
    entries = played.entries
    statements = [e.author for e in entries
                  if e.author != thread.BOT and not e.text.startswith("**I accuse")]
    problems = []
    if sorted(statements) != sorted(SEAT_NAMES):
        problems.append(f"statements by {statements}, expected one by each of {SEAT_NAMES}")
    doubled = [key for key, n in Counter(e.key for e in entries).items()
               if n > 1 and key[1] != thread.STATUS]
    problems += [f"posted twice: {key[0]}: {thread.clip(key[1])}" for key in doubled]
    return problems


def same_thread(played: Played, baseline: Played) -> list[str]:
    def where(message_id: int) -> str:
        return played.ended_by(played.life_of.get(message_id, 0))

    problems = thread.differences(baseline.entries, played.entries, where,
                                  lambda *place: lost_at(played, *place))
    if human_verdicts(played) != human_verdicts(baseline):
        problems.append(f"Human verdicts {human_verdicts(played)!r}, the uninterrupted game "
                        f"has {human_verdicts(baseline)!r}")
    return problems


def lost_at(played: Played, missing: thread.Entry, before: int | None,
            after: int | None) -> str:
    """The kill point whose request carried the missing post, else the kills between the
    lives that posted its neighbours."""
    for outcome in played.outcomes:
        if outcome.seen is not None and request_key(outcome.seen) == missing.key:
            return f"its request came at {outcome.step.describe()}"
    first = played.life_of.get(before, 1) if before is not None else 1
    last = played.life_of.get(after, len(played.lives)) if after is not None else len(
        played.lives)
    kills = [o.step.describe() for o in played.outcomes
             if o.exit is not None and first <= o.life < last]
    if not kills:
        return f"never requested, in life {first}, with no kill around it"
    return f"never requested; lost between life {first} and life {last}, across " + \
        "; ".join(kills)


def request_key(seen: Seen) -> tuple[str, str]:
    """What a request would have shown in the thread, as a thread entry's key."""
    persona = seen.route.startswith("/webhooks/") and (seen.body or {}).get("username")
    author = str(persona) if persona else thread.BOT
    return author, thread.text_of(seen.content, seen.embeds, seen.files)


def thread_dump(played: Played) -> str:
    """The thread as played, with the life that posted each message."""
    return "\n".join(f"  #{i:<3} life {played.life_of.get(e.message_id, 0):<2} "
                     f"{e.author[:18]:<18} {thread.clip(e.text, 64)}"
                     for i, e in enumerate(played.entries, 1))


def report(title: str, problems: list[str], played: Played) -> str:
    listed = "\n".join(f" - {p}" for p in problems)
    lives = "\n".join(f"  life {life.number}: {life.exit}" for life in played.lives)
    return (f"{title}: {len(problems)} problem(s)\n{listed}\n\nlives:\n{lives}\n\n"
            f"thread:\n{thread_dump(played)}")
