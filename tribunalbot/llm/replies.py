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

One schema: what is validated is exactly what the provider was sent, or looser. Strict modes
cannot express string lengths (`structured.strict_schema` drops them), so no length is ever
a reason to reject a reply: over-long strings are clipped, a malformed planted entry is dropped,
and a missing optional field takes its default. The seats a reply may name are sent as an
enum where the mechanism allows, but validated as any integer, so that a seat outside its
candidates is the engine's to handle (ask again once, then abstain), not a failed call.

This module sits below the engine (the offline player imports it too), so it never imports
`tribunalbot.engine`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, create_model

REVIEW_MARK = "[REVIEW]"
NOTES_MARK = "[NOTES]"
PLANTED_PREFIX = "PLANTED:"

# A marker starts a line (after any markdown decoration); text may follow it on that line.
_MARK_RE = re.compile(r"^[ \t]*[#*_> \t]*\[\s*(REVIEW|NOTES)\s*\][*_]*:?", re.I | re.M)
_PLANTED_RE = re.compile(r"^\s*[-*]?\s*PLANTED\s*:\s*(.+)$", re.I | re.M)

# Clip limits (characters): what we keep, never what we accept. Public text is cut further,
# to its word budget, by the engine.
CLAIM_CHARS = 600
KIND_CHARS = 60
QUOTE_CHARS = 400
ARGUMENT_CHARS = 6000
NOTES_CHARS = 4000
REASON_CHARS = 2000
REVIEW_CHARS = 12_000  # twice the most the largest word budget publishes (engine.budget)


def _clipper(limit: int) -> Callable[[Any], Any]:
    def clip(value: Any) -> Any:
        if value is None:  # a null where text was asked for is just no text
            return ""
        return value[:limit] if isinstance(value, str) else value
    return clip


# `str` fields cut to their limit instead of rejected when longer.
ClaimText = Annotated[str, BeforeValidator(_clipper(CLAIM_CHARS))]
KindText = Annotated[str, BeforeValidator(_clipper(KIND_CHARS))]
QuoteText = Annotated[str, BeforeValidator(_clipper(QUOTE_CHARS))]
ArgumentText = Annotated[str, BeforeValidator(_clipper(ARGUMENT_CHARS))]
NotesText = Annotated[str, BeforeValidator(_clipper(NOTES_CHARS))]
ReasonText = Annotated[str, BeforeValidator(_clipper(REASON_CHARS))]


class PlantedClaim(BaseModel):
    model_config = ConfigDict(extra="ignore")
    claim: ClaimText
    why_wrong: ClaimText = ""
    kind: KindText = "misdirection"


def _valid_claims(value: Any) -> Any:
    """Keep the planted entries that make sense; one bad entry costs only itself."""
    if not isinstance(value, list):
        return []
    kept: list[PlantedClaim] = []
    for item in value:
        try:
            claim = PlantedClaim.model_validate(item)
        except ValidationError:
            continue
        if claim.claim.strip():
            kept.append(claim)
    return kept


Planted = Annotated[list[PlantedClaim], BeforeValidator(_valid_claims)]

_DEBATE_TARGET = "seat number of the player you accuse"
_VOTE_TARGET = "seat number of the player to eliminate"


class DebateReply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    target: int = Field(description=_DEBATE_TARGET)
    quote: QuoteText = Field(
        description="a short exact quote from that player's review")
    argument: ArgumentText = Field(
        description="why it is wrong, citing code lines, and what should have been said "
                    "instead")
    private_notes: NotesText = Field(
        "", description="never shown: your confidence and reasoning")
    planted: Planted = Field(default_factory=list)


class VoteReply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    target: int = Field(description=_VOTE_TARGET)
    reason: ReasonText = Field(description="one or two sentences")


def _with_seats(base: type[BaseModel], description: str,
                seats: tuple[int, ...]) -> type[BaseModel]:
    # The enum only shapes the schema that is sent; validation stays `int` (looser).
    target = Field(description=description, json_schema_extra={"enum": list(seats)})
    model: type[BaseModel] = create_model(base.__name__, __base__=base, target=(int, target))
    return model


@lru_cache(maxsize=256)
def debate_schema(seats: tuple[int, ...]) -> type[DebateReply]:
    """`DebateReply` whose sent schema allows only `seats` as the target."""
    return _with_seats(DebateReply, _DEBATE_TARGET, seats)  # type: ignore[return-value]


@lru_cache(maxsize=256)
def vote_schema(seats: tuple[int, ...]) -> type[VoteReply]:
    """`VoteReply` whose sent schema allows only `seats` as the target."""
    return _with_seats(VoteReply, _VOTE_TARGET, seats)  # type: ignore[return-value]


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
    public = public.strip()[:REVIEW_CHARS]  # a megabyte is not read further than this
    return ParsedReview(public, notes.strip(), parse_planted(notes), ok and bool(public))


def _fields(line: str) -> list[str]:
    """A planted line's fields: split at each `|` outside backticked code (a claim about a
    shell pipe quotes `a | b`). The third field onwards is the kind, whole."""
    parts = re.split(r"\|(?=(?:[^`]*`[^`]*`)*[^`]*$)", line)
    return [*parts[:2], "|".join(parts[2:])] if len(parts) > 3 else parts


def parse_planted(notes: str) -> tuple[PlantedClaim, ...]:
    claims = []
    for match in _PLANTED_RE.finditer(notes):
        parts = [p.strip() for p in _fields(match.group(1))]
        claim, why, kind = [*parts, "", "", ""][:3]
        if claim:
            claims.append(PlantedClaim(claim=claim, why_wrong=why, kind=kind or "misdirection"))
    return tuple(claims)


def format_review(public: str, notes: str, planted: tuple[PlantedClaim, ...] = ()) -> str:
    """The canonical reply text (used by the offline provider and scripted tests)."""
    lines = [f"{PLANTED_PREFIX} {p.claim} | {p.why_wrong} | {p.kind}" for p in planted]
    private = "\n".join([notes, *lines]).strip()
    return f"{REVIEW_MARK}\n{public.strip()}\n{NOTES_MARK}\n{private}\n"
