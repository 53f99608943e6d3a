"""Pure rules: dealing, tallies, scoring, the cosmic ray, the verdict. No I/O, no model."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

from tribunalbot.diffs import CITATION
from tribunalbot.engine import events as ev
from tribunalbot.engine.balance import Lean
from tribunalbot.engine.budget import has_cjk
from tribunalbot.engine.personas import (
    FOCUS_ASPECTS,
    FUTURE_COMMITS,
    GHOST,
    PERSONAS,
    RANDOM_EVENTS,
    STRATEGIES,
    Persona,
)


def rng_for(seed: int, *labels: object) -> random.Random:
    """An independent random stream per purpose, so a resumed game draws exactly what an
    uninterrupted one would, whatever was already done."""
    digest = hashlib.blake2b(repr((seed, *labels)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def deal(seed: int, event_chance: float,
         lean: Lean | None = None) -> tuple[list[Persona], ev.Dealt]:
    """Seat the panel, pick the Troublemaker, its strategy and the random event: a pure
    function of its arguments, all of which the `Dealt` records. A lean that leans draws the
    strategy from its own stream; the uniform draw is still made, so everything else (and the
    whole deal without a lean) is exactly what the seed dealt before balancing existed."""
    rng = rng_for(seed, "deal")
    event = rng.choice(RANDOM_EVENTS).key if rng.random() < event_chance else None
    panel = [*PERSONAS, GHOST] if event == "ghost_reviewer" else list(PERSONAS)
    rng.shuffle(panel)
    seats = list(range(1, len(panel) + 1))
    troublemaker = rng.choice(seats)
    strategy = rng.choice(STRATEGIES).key
    if lean is not None and lean.leans:
        strategy = _leaned_strategy(seed, lean)
    event_seats: tuple[int, ...] = ()
    if event in ("cosmic_ray", "robot_rebellion", "lucky_wheel"):
        event_seats = (rng.choice(seats),)
    elif event == "great_minds":
        event_seats = tuple(sorted(rng.sample(seats, 2)))
    dealt = ev.Dealt(
        seed=seed, troublemaker=troublemaker, strategy=strategy, event=event,
        event_seats=event_seats,
        focus=rng.choice(FOCUS_ASPECTS) if event == "ultra_focus" else None,
        future_commit=rng.choice(FUTURE_COMMITS) if event == "pr_from_future" else None,
        lean=lean,
    )
    return panel, dealt


def _leaned_strategy(seed: int, lean: Lean) -> str:
    keys = [s.key for s in STRATEGIES]
    weights = [lean.weights.get(key, 0.0) for key in keys]
    return rng_for(seed, "deal-lean").choices(keys, weights=weights)[0]


def cross_examinations(seed: int, rnd: int, active: Sequence[int],
                        per_juror: int) -> dict[int, tuple[int, ...]]:
    """Which seats each juror cross-examines in a round (DESIGN §2.2): the seats in play in
    an order drawn for the round, each juror taking the `per_juror` seats after its own, so
    every seat is examined by exactly that many jurors and never by itself. The draw reads
    no role, so who examines whom tells nothing. `per_juror` 0, or as many as there are
    other seats, is the open tribunal: everyone examines everyone."""
    seats = sorted(active)
    if per_juror <= 0 or per_juror >= len(seats) - 1:
        return {s: tuple(o for o in seats if o != s) for s in seats}
    order = seats[:]
    rng_for(seed, "cross-examination", rnd).shuffle(order)
    n = len(order)
    return {juror: tuple(sorted(order[(i + d) % n] for d in range(1, per_juror + 1)))
            for i, juror in enumerate(order)}


def keyword_hits(text: str, persona: Persona) -> int:
    lowered = text.lower()
    return sum(1 for word in persona.keywords if word in lowered)


def tally(votes: Sequence[ev.AIVote]) -> tuple[dict[int, int], int | None]:
    """Weighted plurality; a tie (or no vote) eliminates nobody."""
    counts: dict[int, int] = {}
    for vote in votes:
        counts[vote.target] = counts.get(vote.target, 0) + vote.weight
    if not counts:
        return counts, None
    top = max(counts.values())
    leaders = [seat for seat, n in counts.items() if n == top]
    return dict(sorted(counts.items())), leaders[0] if len(leaders) == 1 else None


def remembered(counts: Mapping[int, int], earlier: Sequence[Mapping[int, int]]) -> int | None:
    """A tied round under cross-examination (DESIGN §2.2): of the seats tied at the top,
    the one the earlier rounds' votes named most, since each round's three examiners saw
    what others had not; None when that is tied too, or there is no earlier round."""
    if not counts:
        return None
    top = max(counts.values())
    leaders = [seat for seat, n in counts.items() if n == top]
    past = {seat: sum(round_tally.get(seat, 0) for round_tally in earlier) for seat in leaders}
    most = max(past.values())
    named = [seat for seat in leaders if past[seat] == most]
    return named[0] if most > 0 and len(named) == 1 else None


_NOISE = "#%&*~^§¤░▒"


def garble(text: str, rng: random.Random, share: float = 0.18) -> str:
    """The cosmic ray: flip characters in a share of the words, keeping line structure. A run
    of Chinese or Japanese (no spaces: a whole line is one run) is garbled in pieces of four
    characters, each piece as one word."""
    words = text.split(" ")
    for i, word in enumerate(words):
        pieces = [word[j:j + 4] for j in range(0, len(word), 4)] if has_cjk(word) else [word]
        words[i] = "".join(_garbled(piece, rng, share) for piece in pieces)
    return " ".join(words)


def _garbled(word: str, rng: random.Random, share: float) -> str:
    if len(word) > 3 and rng.random() < share:
        chars = list(word)
        for j in rng.sample(range(len(chars)), max(1, len(chars) // 3)):
            if chars[j] != "\n":
                chars[j] = rng.choice(_NOISE)
        return "".join(chars)
    return word


def early_cutoff(state_eliminations: dict[int, ev.Elimination]) -> datetime | None:
    """When the first AI elimination was announced; with none, when the tribunal ended."""
    ordered = [e for _, e in sorted(state_eliminations.items())]
    for elim in ordered:
        if elim.seat is not None:
            return elim.at
    return ordered[-1].at if ordered else None


def early_stop(eliminations: dict[int, ev.Elimination], troublemaker: int, max_rounds: int,
               players: int) -> datetime | None:
    """When the tribunal stopped early because the AI jury eliminated the Troublemaker: the
    stop itself names it, so from that moment on a vote is a free answer. None when the
    tribunal ran its course: a Troublemaker out in the last round (or with two players left)
    ends a tribunal that was ending anyway, which tells nobody anything."""
    remaining = players
    for rnd, elim in sorted(eliminations.items()):
        if elim.seat is None:
            continue
        remaining -= 1
        if elim.seat == troublemaker:
            return elim.at if rnd < max_rounds and remaining > 2 else None
    return None


def score(votes: Sequence[ev.HumanVote], troublemaker: int, caught_round: int | None,
          cutoff: datetime | None, erred: Collection[int] = (),
          stop: datetime | None = None) -> tuple[ev.Score, ...]:
    """DESIGN §2.6: 1 for the right seat, +1 if the AI jury missed, +1 if cast early.

    A wrong vote for a seat in `erred` (honest players whose cited code was not there) is a
    fair catch: said at the reveal, worth no point, so the scores and the leaderboard keep
    meaning one thing, naming the saboteur. A vote cast or changed at or after `stop` (the
    early stop, `early_stop`) scores nothing: waiting for the answer never pays."""
    scores = []
    for vote in votes:
        correct = vote.seat == troublemaker
        after_stop = stop is not None and vote.at >= stop
        missed = correct and caught_round is None
        early = correct and (cutoff is None or vote.at < cutoff)
        points = 0 if after_stop else int(correct) + int(missed) + int(early)
        scores.append(ev.Score(user_id=vote.user_id, user_name=vote.user_name, seat=vote.seat,
                               correct=correct, points=points,
                               jury_missed_bonus=missed and not after_stop,
                               early_bonus=early and not after_stop,
                               fair_catch=not correct and vote.seat in erred,
                               after_stop=after_stop))
    return tuple(scores)


# A sentence ends at . ! or ? followed by white space (so `ast.literal_eval` stays whole), and
# at Chinese and Japanese 。！？, which no space follows.
SENTENCE_END = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+|\n+|(?<=[。！？｡])\s*")
# A cited line: "line 12" of a file, or "path:12" of a change (the file's new version); and
# "line 12" as reviewers writing another language cite it ("Zeile 12", "12行目", "第12行").
LOCAL_LINE = (r"\b(?:zeilen?|lignes?|l[ií]neas?|linhas?|righe|riga|regels?|строк[аеиу]?)"
               r"\s+(\d+)|(\d+)\s*行目|第\s*(\d+)\s*行|(\d+)\s*번째\s*줄|(\d+)\s*행")
_LINE_REF = re.compile(rf"\blines?\s+(\d+)|{CITATION.pattern}|{LOCAL_LINE}", re.I)


# A sentence that says to leave a line as it is: a reviewer's judgment, not something to act
# on, so the verdict (a list of recommendations) leaves it out.
_DISMISSAL = re.compile(
    r"\bleave (?:it|this|that|them|(?:line|lines) \d+|`?[\w./-]+:\d+`?)(?: \w+){0,3} "
    r"(?:alone|as (?:it )?is)\b|"
    r"\b(?:can|could|may) (?:stay|remain|be left)\b|\bnot (?:spend|waste) (?:any )?time\b|"
    r"\bno (?:change|fix|action)s? (?:is |are )?(?:needed|required|necessary)\b|"
    r"\b(?:needs?|requires?) no (?:change|fix|action)\b|"
    r"\b(?:does not|doesn't|do not|don't) need (?:to (?:change|be (?:changed|fixed))|"
    r"changing|fixing|any change)\b|\bnothing (?:to|needs to) (?:fix|change|be done)\b|"
    # "is fine" dismisses only when nothing after it turns it round ("fine, but quadratic")
    r"\b(?:is|are|looks?|seems?) (?:fine|ok|okay|acceptable|harmless)\b"
    r"(?![^.!?]*\b(?:but|however|yet|unless|until|except)\b)|"
    r"\bacceptable (?:as written|as is|here)\b|\bfine (?:as (?:written|is)|in context)\b|"
    r"\blooks worse than it is\b|\bnot (?:a|an) (?:real |actual )?(?:concern|problem|issue)\b|"
    r"\bno (?:real )?(?:concern|problem|issue) (?:here|there)\b|\bnot worth (?:changing|fixing)|"
    r"\bnot worth a change\b|\blet (?:it|line \d+) be\b|\bdoes no real harm\b|"
    r"\b(?:it|line \d+) can wait\b",
    re.I)


# A reviewer's judgment call about the code's shape rather than a finding in it: a structural
# option (an interface, a queue, a rewrite, a model...) recommended or turned down in a
# reviewer's own voice ("For line 9, my advice is to put it behind an adapter", "I would not
# move it onto a message bus"). Arguable either way, and the Troublemaker's favourite
# disguise, so the verdict (what to act on) lists findings only.
_OPTION = re.compile(
    r"\binterface\b|adapter|\bprotocol\b|plugin|registry|factory|extension point|pluggable|"
    r"\bqueue\b|\bworker|work list|message bus|event bus|ledger|event stream|microservice|"
    r"own service|rewrit\w*|\bport to\b|fresh (?:start|codebase|version)|from scratch|wholesale|"
    r"language model|\bLLM\b|\bAI\b|classifier|model call", re.I)
_JUDGMENT_LEAD = re.compile(
    r"\bI would\b|\bmy advice\b|\breason to\b|\brather than\b|\blooking past\b|"
    r"\bdurable answer\b|\btempting\b|\bsome would\b|\bnobody should\b|\bno need\b|"
    r"\bI see no\b|\bI(?:'d| would) (?:suggest|recommend)\b|\bthe right step\b|"
    r"\bmy suggestion\b|\bit pays to\b|\bwould gain if\b|\bI suggest we\b|\bneeds is to\b|"
    r"\bline \d+, we should\b|\bthe place to\b|\basks us to\b|\bcall for us\b|"
    r"\bnot bother\b|\bnot worth it\b|\bgives no reason\b|\b(?:the|no) spot to\b|"
    r"\bif this were mine\b|\bno point trying\b|\bbest, at line\b", re.I)


def is_judgment_call(sentence: str) -> bool:
    return bool(_OPTION.search(sentence) and _JUDGMENT_LEAD.search(sentence))


def _cited(ref: re.Match[str]) -> tuple[str, int]:
    """(path, line) of a citation; the path is "" for a plain file's "line 12"."""
    if ref.group(2) is not None:
        return ref.group(2), int(ref.group(3))
    return "", int(next(g for g in (ref.group(1), *ref.groups()[3:]) if g is not None))


def is_planted(sentence: str, claims: Sequence[str]) -> bool:
    words = " ".join(sentence.lower().split())
    squashed = [" ".join(c.lower().split()) for c in claims]
    return any(words[:60] in claim or claim[:60] in words for claim in squashed if claim)
