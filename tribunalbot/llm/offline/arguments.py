"""How a juror puts an accusation or a vote reason into words.

Every text argues about one weak spot of one review: it quotes the claim, says what the code
at the line in question does (in the analysis's words, by the finding's name or by the code
itself), why the claim fails there, and what should have been said. Each of those moves has
several independent phrasings and the moves come in varied order, so two jurors arguing the
same point do not write the same sentence, and no kind of flaw has a slogan of its own.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from tribunalbot.llm.offline import debate_phrases as phrases
from tribunalbot.llm.offline import rephrase
from tribunalbot.llm.offline.findings import _UNSAFE, Analysis, Finding
from tribunalbot.llm.offline.weakspots import Spot, top_at

STRONG = 1.0  # a weak spot at least this heavy is argued as a mistake, not a doubt


@dataclass(frozen=True)
class Context:
    name: str  # the reviewer argued about
    juror: str  # the arguing juror's persona key
    accusers: int = 0  # accusations others made against that reviewer so far
    answered: bool = False  # the reviewer has accused one of its accusers back


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def label(finding: Finding) -> str:
    return finding.info.label


def named(finding: Finding, rng: random.Random) -> str:
    """The finding's topic in one of its several names."""
    return say(finding.info.names, rng)


def _an(noun: str) -> str:
    """The indefinite article for `noun` (by its first letter: good enough for our labels)."""
    return "an" if noun[:1].lower() in "aeio" or noun[:2].lower() in ("un", "ur") else "a"


_CODE_OK = re.compile(r"[^`\"@<>\\]{4,}")


def code_at(analysis: Analysis, line: int) -> str:
    """The code of `line`, short and safe to echo (no backticks, quotes, mentions or bait),
    or "" when it is not."""
    if analysis.places.spans or not 1 <= line <= len(analysis.lines):
        return ""
    text = analysis.lines[line - 1].strip()
    if len(text) > 48:
        cut = text.rfind(" ", 0, 48)
        text = text[:cut if cut > 20 else 48].rstrip() + " ..."
    if not _CODE_OK.fullmatch(text) or _UNSAFE.search(text):
        return ""
    return text


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lower(text: str) -> str:
    """Lower the first letter, unless it starts a name, an acronym or the word "I"."""
    first = text.split(" ", 1)[0]
    if first == "I" or (len(first) > 1 and not first[1:].islower()):
        return text
    return text[:1].lower() + text[1:]


def _brief(text: str, words: int = 5) -> str:
    """The first clause of `text` when it is at most `words` long, else "" (the caller says
    it another way): long stock phrases repeat across a debate."""
    head = re.split(r",\s|;\s| so | or | instead\b| because ", text, maxsplit=1)[0]
    head = head.strip().rstrip(".")
    balanced = head.count("(") == head.count(")") and head.count("`") % 2 == 0
    return head if balanced and 2 <= len(head.split()) <= words else ""


_CHOICE = re.compile(r"\[([^\[\]]*)\]")


def say(template: str, rng: random.Random, **slots: object) -> str:
    """Expand `[a|b|c]` choices (innermost first), then fill `{slots}`. Slots are filled
    last, so a quote or a line of code holding brackets is never read as a choice."""
    while (m := _CHOICE.search(template)) is not None:
        pick = rng.choice(m.group(1).split("|"))
        template = template[:m.start()] + pick + template[m.end():]
    # Tidy the words an empty choice left apart; the slots (quotes) stay exactly as given.
    template = _SPACE_BEFORE_MARK.sub(r"\1", " ".join(template.split()))
    return template.format(**slots)


_SPACE_BEFORE_MARK = re.compile(r"\s+([.,;:!?])")


def line_ref(n: int, analysis: Analysis, rng: random.Random, chance: float = 0.8) -> str:
    """The number of a line, followed now and then by its code: a person points at what
    they mean."""
    code = code_at(analysis, n)
    return f"{n} (`{code}`)" if code and rng.random() < chance else str(n)


def _emphasis(spot: Spot, analysis: Analysis, rng: random.Random) -> str:
    """That a review's case rests on the one claim quoted (no capital, no stop)."""
    n = spot.line
    found = top_at(analysis, n)
    n = found.line if found else n
    ref = line_ref(n, analysis, rng, 1.0)
    name = named(found, rng) if found else say("[point|claim|catch|remark]", rng)
    forms = _RESTS_ON if n else _RESTS_ON_NOTHING  # a claim citing no line has no "line 0"
    return say(rng.choice(forms), rng, n=ref, name=name, a=_an(name))


def _lineless(forms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f for f in forms if "{n}" not in f)


# That a review rests on one point: many short forms, since a file with little to find has
# every juror saying it of someone.
_RESTS_ON = ("[{a}|one|the] {name} [at|on] line {n} is [all|about all|the most] [it "
             "found|it offers|we get]",
             "[it|the review] [stakes|rests|bets] [everything|its case|it all] on [one|a "
             "single|a lone] {name}",
             "[one|a single|a lone] {name} is [all|everything] [it has|on offer|it found]",
             "[it|the review] [found|has|offers] [{a}|one] {name} at line {n}, [little|"
             "not much|nothing] [else|more]",
             "[beyond|past|apart from] line {n} [it offers|there is|I find] [little|"
             "nothing]",
             "[it|the review] [leans on|banks on|clings to|hangs everything on] line {n}",
             "[line {n}|that {name}] is [its|the] [whole|entire|only|single] [case|"
             "argument|catch]",
             "[one|a single|a lone] {name} (line {n}) [carries|makes|is] [the|its] "
             "[whole review|case|review]",
             "[after|besides] line {n}, [silence|nothing|not much]",
             "[its|the] [review|case] [hangs|turns|hinges] on line {n} [alone|only|]")

# ... and when the claim cites no line at all: as many forms, so they repeat no more often.
_RESTS_ON_NOTHING = (
    "[it|the review] [stakes|rests|bets] [everything|its case|it all] on [one|a single|a "
    "lone] {name}",
    "[one|a single|a lone] {name} is [all|everything] [it has|on offer|it found]",
    "[it|the review] [names|points at|cites] no line [at all|anywhere|], [just|only|merely] "
    "[one|a] {name}",
    "[not one|no] line [is|gets] [named|cited|pointed at], [only|just] [a|one] [vague|loose|"
    "broad] {name}",
    "[it|{name}] [floats|hovers|stays] [above|over|clear of] the code",
    "[a|one] {name} [and|with] no line [behind it|to back it|under it]",
    "[it|the review] [never says|does not say|leaves unsaid] [where|which line|what line]",
    "[all|everything] [rides|hangs|rests] on [one|a single] [general|broad|loose] {name}",
    "[nothing|no part of it] [ties|pins|anchors] [it|the {name}] to [a line|the code|the "
    "file]",
    "[its|the] [one|single|lone] {name} [never touches|does not touch|stays off] [the "
    "file|a line|the code]")


_CLEAN_LINE = ("[I see|there is] nothing [wrong|amiss] [at|on|in] line {n}",
               "line {n} [looks|reads] [fine|clean|sound] [to me|as it is|]",
               "[no flaw|no defect|nothing bad] [shows|turns up|appears] at line {n}",
               "I [find|see] no [fault|problem|bug] [in|at|on] line {n}")
# ... and for a claim citing no line, which has no "line 0" to look at.
_CLEAN_CODE = ("[I see|there is] nothing [wrong|amiss] [in|with] the code [it means|in "
               "question|as written]",
               "the [file|code] [shows|has] no [such|matching] [fault|problem|defect]",
               "nothing in the [file|code] [needs|calls for|asks for] [it|that]")


def fact(spot: Spot, analysis: Analysis, rng: random.Random, juror: str = "",
         cite: bool = True) -> str:
    """What the code at the spot's line does, in one of several forms (no capital, no stop);
    `cite` False: by the line's own code alone where it can be quoted."""
    f, n = spot.finding, spot.line
    if spot.family == "bad_line":
        return say(rng.choice((
            "[this|the] [code|file] has no line {n}",
            "the file [stops|ends] at line {count}, [well|long] before {n}",
            "there is [nothing|no line] numbered {n} [to look at|here|in it]",
            "line {n} is not in [the|this] [file|code] [at all|anywhere]")), rng,
            n=n, count=analysis.line_count)
    if spot.family == "emphasis":
        return _emphasis(spot, analysis, rng)
    code = code_at(analysis, n)
    if f is None:
        return say(rng.choice(("[all|what] line {n} [holds|has] is `{code}`",
                               "line {n} [is just|reads] `{code}`")) if code else
                   rng.choice(_CLEAN_LINE if n else _CLEAN_CODE), rng,
                   n=n, code=code)
    problem = _brief(f.problem)
    forms = list(_BY_CODE if code and not cite else _BY_LINE + (_CODE_AND_LINE if code else ()))
    if problem and rng.random() < 0.5:  # the analysis's own words: not every time
        forms.append(_PROBLEM_BY_CODE if code and not cite else _PROBLEM_BY_LINE)
    name = named(f, rng)
    text = say(rng.choice(forms), rng, n=line_ref(n, analysis, rng, 1.0), problem=problem,
               label=name, code=code, n_=n, a=_an(name))
    if f.domain == juror and juror in phrases.CONSEQUENCES and rng.random() < 0.7:
        text += ", " + say(phrases.CONSEQUENCES[juror], rng)  # its own field: it says what it costs
    return text


# A finding at a line, said by the line's number (its code follows it where it can be quoted)
_BY_LINE = ("[the|that|{a}] {label} [sits|is|lives|shows up|turns up|hides|waits] [at|on|"
            "in] line {n}",
            "line {n} [has|holds|carries|shows|contains|harbours] [one [real|plain|clear|]|"
            "{a}] {label}",
            "[the|its|one] [issue|problem|defect|trouble|flaw|fault] [at|on|in] line {n} "
            "[is|looks like|amounts to|comes down to|is really|is in fact] [{a}|one] "
            "{label}",
            "[I see|I count|I find|there is|I spot|I note] [{a}|one] {label} [at|on] line "
            "{n}",
            )
_CODE_AND_LINE = ("`{code}` (line {n_}) is [{a}|one] {label}",
                  "`{code}` [on|at] line {n_} [is|amounts to|makes|reads as|is plainly] "
                  "[{a}|one] {label}",
                  "{a} {label} [sits|shows|stands] at line {n_}: `{code}`")
_PROBLEM_BY_LINE = ("[line {n}|the code at line {n}|at line {n} the code|line {n}], [I "
                    "checked,|plainly,|as written,|to be exact,|as I read it,|sure enough,|if "
                    "you look,|on a close read,|as it stands,|by my reading,] {problem}")
# ... or by its code alone, which says which line it is.
_BY_CODE = ("`{code}` [is|amounts to|makes|reads as|looks like|comes down to] [{a}|one] "
            "{label}",
            "[{a}|one] {label} [sits|lives|hides|shows] in `{code}`",
            "[the|that] {label} is `{code}`",
            "`{code}` [holds|carries|has] {a} {label}")
_PROBLEM_BY_CODE = "`{code}`[, as written,|, plainly,|, if you look,|, as it stands,|] {problem}"


def rebuttal(spot: Spot, ctx: Context, rng: random.Random) -> str:
    """Why the claim is wrong, or the review short, for this code (no capital, no stop)."""
    if spot.family in phrases.SUBJECTS:
        term = spot.term or phrases.TERMS[spot.family]
        if spot.term and rng.random() < 0.8:
            term = f'"{spot.term}"'  # the reviewer's own words, quoted back
        subject = say(phrases.SUBJECTS[spot.family], rng, term=term, a=_an(term.strip('"')))
        minor = spot.family == "dismissal" and spot.finding and spot.finding.severity < 3
        predicates = phrases.PREDICATES["waved" if minor else spot.family]
        return f"{subject} {say(f'[{predicates}]', rng)}"
    gap = say(f"[{phrases.GAPS.get(spot.family, phrases.GAPS['ungrounded'])}]", rng,
              name=ctx.name)
    own = spot.finding is not None and spot.finding.domain == ctx.juror
    return f"{gap}, {say(phrases.OWN_FIELD, rng)}" if own and rng.random() < 0.4 else gap


def _advice(spot: Spot, analysis: Analysis, rng: random.Random) -> str:
    """What should have been said, as an imperative in the juror's own words (no stop)."""
    f = spot.finding
    if f is None:
        if spot.family != "emphasis" and not spot.line:
            return say("[say less|claim less|cite less], [and only|keeping to|sticking to] "
                       "[what the code shows|the file as it is|what is there|what the file [holds|"
                       "says]|the lines as written]", rng)
        given: tuple[str, ...] = (rephrase.RANKED if spot.family == "emphasis"
                                  else rephrase.NO_FINDING)
        forms = given if spot.line else _lineless(given)
        return say(rng.choice(forms), rng, n=line_ref(spot.line, analysis, rng))
    fix = _lower(_brief(rng.choice(f.info.wordings), 5))  # not every juror's words
    if len(re.findall(r"[\w']+", fix)) > 5:  # "one-line" is two words to a reader too
        fix = ""
    own = f.info.juror_fix
    if own and rng.random() < 0.6:  # the fix in one of the juror's own wordings
        return say(own, rng)
    if not fix or rng.random() < 0.4:
        if f.line == spot.line and rng.random() < 0.8:  # the line was named already
            return say(phrases.FIXES_THERE, rng)
        return say(phrases.SHORT_FIXES, rng, n=line_ref(f.line, analysis, rng))
    lead, rest = rephrase.fix_parts(fix)
    return " ".join(p for p in (say(lead, rng), rest) if p)


def should(spot: Spot, analysis: Analysis, rng: random.Random) -> str:
    advice = _advice(spot, analysis, rng)
    return say(rng.choice(phrases.SHOULD), rng, x=advice)


def _context(ctx: Context, rng: random.Random) -> str:
    if ctx.accusers and rng.random() < 0.3:
        return say(rng.choice(("[I am not|I'm not] the first.", "[Others|Some] [saw|said] "
                               "it too.", "That makes {n} of us.", "[Not just|Not only] me.")),
                   rng, n=_count(ctx.accusers + 1))
    if ctx.accusers and not ctx.answered and rng.random() < 0.3:
        return say("[No answer from {name} yet|{name} [has not|hasn't] answered|{name} "
                   "[is still|stays] silent].", rng, name=ctx.name)
    return ""


def _count(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


def accusation(spot: Spot, strong: bool, ctx: Context, analysis: Analysis,
               rng: random.Random) -> str:
    opener = say(rng.choice(phrases.OPENERS), rng, name=ctx.name, quote=spot.quote)
    lens = say(phrases.LENSES.get(ctx.juror, ""), rng) if rng.random() < 0.3 else ""
    if not strong and rng.random() < 0.3:
        lens = say(phrases.HEDGES, rng)
    what, why = fact(spot, analysis, rng, ctx.juror), rebuttal(spot, ctx, rng)
    turn = "" if lens else say(phrases.TURNS, rng)  # a lens already leads into the point
    if spot.family in phrases.SUBJECTS:
        body = rng.choice((f"{_cap(what)}; {why}.", f"{_cap(why)}, since {what}.",
                           f"{turn} {what}, and {why}."))
    else:
        body = rng.choice((f"{_cap(what)}, {why}.", f"{turn} {what}, {why}."))
    body = f"{lens} {_lower(body.strip())}" if lens else _cap(body.strip())
    firm = say(phrases.FIRM, rng) if strong and rng.random() < 0.1 else ""
    parts = [opener, body, firm, should(spot, analysis, rng), _context(ctx, rng)]
    if rng.random() < 0.3:
        parts[0], parts[1] = parts[1], parts[0]
    return undouble(" ".join(p for p in parts if p))


_VERBATIM = re.compile(r"(\"[^\"]*\"|`[^`]*`)")
_DOUBLED = re.compile(r"\b(\w+) \1\b", re.I)


def undouble(text: str) -> str:
    """One word where two parts met on the same word ("that that"), outside quotes and code,
    which stay exactly as written."""
    pieces = _VERBATIM.split(text)
    return "".join(p if i % 2 else _DOUBLED.sub(r"\1", p) for i, p in enumerate(pieces))


def standing(count: int, name: str, rng: random.Random) -> str:
    """The accusations already made, with the verb agreeing with their number."""
    many = count != 1
    noun = "accusations" if many else "accusation"
    verb = "stand" if many else "stands"
    return say(rng.choice(("{n} {noun} [now|already|] {verb}",
                           "{name} [has drawn|faces] {n} {noun}",
                           "[I join|I back|I echo] the {n} {noun} [before mine|made|]")),
               rng, n=_count(count), noun=noun, verb=verb, name=name)


def fragment(quote: str, term: str, rng: random.Random, words: int = 7) -> str:
    """A few whole words of a quote, exactly as written, from where it says what it means
    (its suspect term, else its line, else after its lead-in): enough to say which claim."""
    split = quote.split()
    if len(split) <= words:
        return quote
    lowered = [w.lower() for w in split]
    anchors = [i for i, w in enumerate(lowered) if term and term.lower().split()[0] in w]
    anchors += [i for i, w in enumerate(lowered) if w == "line"]
    anchors += [i + 1 for i, w in enumerate(split) if w.endswith((",", ":", ";"))]
    start = max(0, min(anchors[0] if anchors else 0, len(split) - words) - rng.randrange(2))
    if start and split[start].rstrip(",;:.").isdigit():
        start -= 1  # "line 12 ...", never a bare "12 ..."
    kept = split[start:start + words]
    while len(kept) > 3 and kept[-1].lower().rstrip(",;:.") in _DANGLING:
        kept.pop()  # a fragment ends on a word that completes it, not on "since"
    return " ".join(kept).rstrip(",;:.(")


_DANGLING = frozenset({"since", "so", "and", "or", "but", "because", "that", "which", "the",
                       "a", "an"})


def vote_reason(spot: Spot, strong: bool, ctx: Context, analysis: Analysis,
                rng: random.Random) -> str:
    verdict = say(rng.choice(phrases.VERDICTS), rng, name=ctx.name)
    if rng.random() < 0.6:
        verdict += say('; "{q}" [fails here|does not hold|misleads|falls short|is the '
                       'problem|will not do]', rng, q=fragment(spot.quote, spot.term, rng))
    why = say(phrases.STRONG_WHY if strong else phrases.WEAK_WHY, rng)
    what = fact(spot, analysis, rng, ctx.juror, cite=rng.random() < 0.3)
    if spot.family in phrases.SUBJECTS:
        detail = rng.choice((what, rebuttal(spot, ctx, rng)))
    else:  # a gap reads only after what was missed
        detail = f"{what}, {rebuttal(spot, ctx, rng)}" if rng.random() < 0.5 else what
    since = say("[since|because|as|for|seeing as]", rng)
    body = rng.choice((f"{verdict}: {why}; {detail}.", f"{verdict}, {since} {detail}.",
                       f"{_cap(detail)}. {verdict}."))
    if ctx.accusers and rng.random() < 0.25:
        body += f" {_cap(standing(ctx.accusers, ctx.name, rng))}."
    return undouble(body)
