"""The shapes every player's reply takes, and their parsing.

A review is free text in two parts, the same for every persona so that the format is no tell:

    [REVIEW]
    ...the public review...
    [NOTES]
    ...private notes: honest players give confidence and reasoning; the Troublemaker lists
    each planted claim on its own line as
    PLANTED: <the claim> | <why it is wrong> | <kind>

Debate and vote replies are JSON validated by the models below; they carry the same private
part as fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

REVIEW_MARK = "[REVIEW]"
NOTES_MARK = "[NOTES]"
PLANTED_PREFIX = "PLANTED:"

# A marker starts a line (after any markdown decoration); text may follow it on that line.
_MARK_RE = re.compile(r"^[ \t]*[#*_> \t]*\[\s*(REVIEW|NOTES)\s*\][*_]*:?", re.I | re.M)
_PLANTED_RE = re.compile(r"^\s*[-*]?\s*PLANTED\s*:\s*(.+)$", re.I | re.M)


class PlantedClaim(BaseModel):
    model_config = ConfigDict(extra="ignore")
    claim: str = Field(max_length=600)
    why_wrong: str = Field("", max_length=600)
    kind: str = Field("misdirection", max_length=60)


class DebateReply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    target: int = Field(description="seat number of the player you accuse")
    quote: str = Field(description="a short exact quote from that player's review")
    argument: str = Field(description="why it is wrong, citing code lines, and what should "
                          "have been said instead")
    private_notes: str = Field("", description="never shown: your confidence and reasoning")
    planted: list[PlantedClaim] = Field(default_factory=list)


class VoteReply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    target: int = Field(description="seat number of the player to eliminate")
    reason: str = Field(description="one or two sentences")


@dataclass(frozen=True)
class ParsedReview:
    public: str
    notes: str
    planted: tuple[PlantedClaim, ...]
    well_formed: bool


def parse_review(text: str) -> ParsedReview:
    """Split a review reply into its public and private parts.

    Only the exact shape (one REVIEW marker, then one NOTES marker) is well formed. Anything
    else is flagged so that the engine regenerates it rather than guess where the notes are.
    """
    marks = list(_MARK_RE.finditer(text))
    names = [m.group(1).upper() for m in marks]
    if names == ["REVIEW", "NOTES"]:
        public = text[marks[0].end() : marks[1].start()]
        notes = text[marks[1].end() :]
        ok = True
    elif names == ["NOTES"]:
        public, notes, ok = text[: marks[0].start()], text[marks[0].end() :], True
    else:
        public, notes, ok = "", text, False
    public = public.strip()
    return ParsedReview(public, notes.strip(), parse_planted(notes), ok and bool(public))


def parse_planted(notes: str) -> tuple[PlantedClaim, ...]:
    claims = []
    for match in _PLANTED_RE.finditer(notes):
        parts = [p.strip() for p in match.group(1).split("|")]
        claim, why, kind = [*parts, "", "", ""][:3]
        if claim:
            claims.append(PlantedClaim(claim=claim[:600], why_wrong=why[:600],
                                       kind=(kind or "misdirection")[:60]))
    return tuple(claims)


def format_review(public: str, notes: str, planted: tuple[PlantedClaim, ...] = ()) -> str:
    """The canonical reply text (used by the offline provider and scripted tests)."""
    lines = [f"{PLANTED_PREFIX} {p.claim} | {p.why_wrong} | {p.kind}" for p in planted]
    private = "\n".join([notes, *lines]).strip()
    return f"{REVIEW_MARK}\n{public.strip()}\n{NOTES_MARK}\n{private}\n"
