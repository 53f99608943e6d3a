"""The review a finished game posts on its pull request: a summary and one comment per
verdict finding on the line it cites. Pure: no I/O.

Only the verdict goes (`Revealed.verdict`, the honest findings worth acting on); the struck
plant never does. A finding is placed on the first line it cites (`path:93`, `path:93-96`,
read by the engine's own citation reader), when that line is one of the diff's new lines: a
comment elsewhere is refused by the host. Any other finding is listed in the summary, which
says why. The verdict holds findings as prose, with no fix in a form a ```suggestion block
could carry, so no comment suggests a change.

Text goes to a forge, where `@name` notifies a person and `#12` or `!12` links (and notes
itself on) another issue or merge request: outside code those are broken with a zero-width
space. Every review carries a hidden marker with the game's id, by which a review already
posted is found again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tribunalbot.diffs import CITATION, Change, Line
from tribunalbot.engine import events as ev
from tribunalbot.engine.claims import Code
from tribunalbot.wording import plural

BODY_LIMIT = 65_536  # characters in a GitHub review's or comment's body
# A code span as CommonMark reads one: a whole run of backticks (not escaped) closed by the
# next whole run of as many. A looser reading would leave prose as written ("`` @name `").
_CODE_SPAN = re.compile(r"(?<![`\\])(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
# What notifies someone or notes itself on another issue: @name after anything but a letter
# or digit (an e-mail address is no mention; "path/@name" is one); #12 and !12 after anything
# ("owner/repo#12" and "group/project!12" reach other repositories) but an HTML entity's "&#";
# GH-12; GitLab's &12 (an epic); and #name or !name where they start a word.
_REFERENCE = re.compile(r"(?<!\w)@(?=\w)|(?<!&)#(?=\d)|!(?=\d)|(?<![\w&/])[#!](?=[A-Za-z_])|"
                        r"(?<!\w)(?:GH-|&)(?=\d)", re.I)
_HIDDEN = re.compile(r"<!--")
# A line opening with "/" is a quick action on GitLab (/close, /merge, /approve), run with the
# write token's rights, even in a note posted through the API.
_COMMAND = re.compile(r"^([ \t]*)/", re.M)
# The end of a range cited by path ("`a.py:93-96`"), which the citation reader leaves out.
_RANGE_END = re.compile(r"\s*[-–]\s*(\d{1,7})\b")


def marker(game_id: str, part: str = "") -> str:
    """The hidden line a posted review (or one of its parts) is found again by."""
    return f"<!-- tribunal-game:{game_id}{':' + part if part else ''} -->"


def markers_in(body: str, game_id: str) -> set[str]:
    """The game's markers a posted body carries where this bot puts them: a summary's first,
    a finding's last. One quoted inside someone's reply is none."""
    pattern = rf"<!-- tribunal-game:{re.escape(game_id)}(?::[\w-]+)? -->"
    text = body.strip()
    found = (re.match(pattern, text), re.search(rf"{pattern}\Z", text))
    return {m.group(0) for m in found if m is not None}


def forge_safe(text: str) -> str:
    """`text` that notifies nobody, links nothing and commands nothing on GitHub or GitLab,
    nor hides a marker; code spans are left as written."""
    text = _COMMAND.sub("\\1\u200b/", text)
    out, at = [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [_quiet(text[at:span.start()]), span.group(0)]
        at = span.end()
    out.append(_quiet(text[at:]))
    return "".join(out)


def _quiet(prose: str) -> str:
    return _HIDDEN.sub("<\u200b!--", _REFERENCE.sub(lambda m: m.group(0) + "\u200b", prose))


@dataclass(frozen=True)
class Comment:
    """A finding on one of the diff's new lines (its last, for a range on GitHub)."""

    index: int  # the finding's place in the verdict
    path: str
    old_path: str  # GitLab asks for both paths
    line: int
    start_line: int | None  # the range's first line, when the range lies in one hunk
    old_line: int | None  # for an unchanged line: its number before the change (GitLab)
    text: str


@dataclass(frozen=True)
class Review:
    game_id: str
    summary: str
    comments: tuple[Comment, ...]


@dataclass(frozen=True)
class GameOutcome:
    """What the summary tells of the game, read from its log."""

    game_id: str
    revealed: ev.Revealed
    players: tuple[ev.PlayerInfo, ...]
    reviewed_at: str  # the head commit the game's diff was read at

    @classmethod
    def of(cls, game_id: str, events: Sequence[ev.Record],
           reviewed_at: str) -> GameOutcome | None:
        """None while the game has no reveal."""
        revealed = next((e for e in events if isinstance(e, ev.Revealed)), None)
        started = next((e for e in events if isinstance(e, ev.GameStarted)), None)
        if revealed is None:
            return None
        return cls(game_id, revealed, started.players if started else (), reviewed_at)


# (path, new line) -> (hunk number, the line): where a comment may go
Places = dict[tuple[str, int], tuple[int, Line]]


def places_of(change: Change) -> Places:
    """Every new line the diff shows (added or unchanged), by path and number."""
    found: Places = {}
    for file in change.files:
        if file.new_path is None or file.binary:
            continue
        for number, hunk in enumerate(file.hunks):
            for line in hunk.lines:
                if line.new is not None:
                    found[(file.new_path, line.new)] = (number, line)
    return found


def first_cited(text: str, code: Code) -> tuple[str, int, int] | None:
    """(path, first line, last line) of the first citation of the code in `text`: a
    `path:93` or `path:93-96` (the range in backticks too, which the engine's reader takes
    for quoted code), or a "line 93" of the one file it can be."""
    found: list[tuple[int, str, int, int]] = []
    if (m := CITATION.search(text)) and (file := code.resolve(m.group(1), int(m.group(2)))):
        first = int(m.group(2))
        more = _RANGE_END.match(text, m.end())
        found.append((m.start(), file.path, first, max(first, int(more.group(1)) if more
                                                        else first)))
    if (cited := next(code.citations(text), None)) is not None:
        found.append((cited.start, cited.file.path, cited.first, cited.last))
    return min(found)[1:] if found else None


def place(index: int, text: str, code: Code, change: Change, places: Places) -> Comment | None:
    """The finding on the first line it cites, or None when that line is not in the diff."""
    cited = first_cited(text, code)
    if cited is None or cited[:2] not in places:
        return None
    path, first, last = cited
    hunk = places[(path, first)][0]
    # A range is one comment over its lines only when GitHub can show it so: in one hunk.
    whole = last > first and all(places.get((path, n), (-1,))[0] == hunk
                                 for n in range(first, last + 1))
    at = last if whole else first
    line = places[(path, at)][1]
    old_path = next((f.old_path or path for f in change.files if f.new_path == path), path)
    old_line = line.old if line.kind == "context" else None
    return Comment(index, path, old_path, at, first if whole else None, old_line, text)


def build_review(outcome: GameOutcome, code: str, change: Change, *, site: str,
                 moved_to: str | None = None, refused: frozenset[int] = frozenset()) -> Review:
    """The review of `outcome`'s verdict on `change` (the game's diff, `code` its text). With
    `moved_to` (the pull request's head now, when it is not the one reviewed) every finding
    goes to the summary: the lines they cite may have changed. So do the findings `refused`
    (by their place in the verdict), whose lines the host `site` would not take."""
    places, reader = places_of(change), Code(code, change)
    placed: list[Comment] = []
    off_diff: list[str] = []
    turned_down: list[str] = []
    for index, text in enumerate(outcome.revealed.verdict):
        safe = forge_safe(text)
        comment = None if moved_to else place(index, safe, reader, change, places)
        if comment is None:
            off_diff.append(safe)
        elif index in refused:
            turned_down.append(safe)
        else:
            placed.append(comment)
    if moved_to:
        sections = _listed(f"This pull request has moved on since the game (reviewed at "
                           f"`{outcome.reviewed_at[:7]}`, its head is now `{moved_to[:7]}`): "
                           "the findings are listed here, not on lines that may have changed.",
                           off_diff)
    else:
        sections = [f"{plural(len(placed), 'finding')} {'is' if len(placed) == 1 else 'are'} "
                    "on the lines they cite."] if placed else []
        sections += _listed("Not on a line of this diff, so listed here:", off_diff)
        sections += _listed(f"{site} would not take these on their lines, so they are listed "
                            "here:", turned_down)
    return Review(outcome.game_id, _summary(outcome, sections), tuple(placed))


def _listed(lead: str, texts: list[str]) -> list[str]:
    return [lead, "\n".join(f"- {text}" for text in texts)] if texts else []


def comment_body(game_id: str, comment: Comment, *, marked: bool = False) -> str:
    """One finding's comment; `marked` adds its own hidden marker (GitLab posts each finding
    apart, so each is found again on its own)."""
    tail = f"\n\n{marker(game_id, f'finding-{comment.index}')}" if marked else ""
    return clip(f"**Tribunal verdict** · {comment.text}", BODY_LIMIT - len(tail)) + tail


def _summary(outcome: GameOutcome, sections: list[str]) -> str:
    """The summary: the game, its Troublemaker and jury, then where the findings are."""
    e = outcome.revealed
    parts = [marker(outcome.game_id), "### ⚖️ The Tribunal's verdict", _intro(outcome),
             _cast(outcome), f"**The human jury:** {_jury(e.scores)}", *sections]
    if not e.verdict:
        parts.append("The game found nothing worth acting on.")
    return clip("\n\n".join(parts), BODY_LIMIT)


def _intro(outcome: GameOutcome) -> str:
    return (f"Eight AI reviewers reviewed this change at `{outcome.reviewed_at[:7]}` in a "
            f"Tribunal game on Discord (game `{outcome.game_id}`). One of them, the "
            "Troublemaker, hid a piece of subtly wrong advice among real findings: it is "
            "struck, and not repeated here. What follows are the findings the game kept.")


def _cast(outcome: GameOutcome) -> str:
    e = outcome.revealed
    seat = next((p for p in outcome.players if p.seat == e.troublemaker), None)
    name = forge_safe(seat.name) if seat else f"seat {e.troublemaker}"
    caught = (f"the AI jury caught it in round {e.caught_round}" if e.caught_round
              else "the AI jury never caught it")
    return f"**The Troublemaker** was {name}, disguised as {e.strategy_name}; {caught}."


def _jury(scores: Sequence[ev.Score]) -> str:
    """A vote cast after the early stop gave the answer away names no one: it is counted as
    the leaderboard and the catch rates count it (DESIGN §2.6)."""
    if not scores:
        return "no human voted."
    right = sum(s.correct and not s.after_stop for s in scores)
    late = sum(s.after_stop for s in scores)
    after = (f" ({plural(late, 'vote')} came after the early stop gave the answer away)"
             if late else "")
    return f"{right} of {plural(len(scores), 'human voter')} named the Troublemaker{after}."


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, saying so; never inside a code span, whose text was
    left as written (`forge_safe`): cut open, it would be read as prose, @names and all."""
    if len(text) <= limit:
        return text
    note = "\n\n… (cut to fit)"
    cut = limit - len(note)
    line = text.rfind("\n", 0, cut) + 1  # a finding is one line, read as forge_safe read it
    for span in _CODE_SPAN.finditer(text, line):
        if span.start() >= cut:
            break
        if span.end() > cut:
            cut = span.start()
            break
    return text[:cut] + note
