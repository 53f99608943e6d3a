"""How each persona sounds: phrase tables, not branches.

Every review has the same skeleton (opener, about three items, asides, closer), padded or
trimmed so that all personas come out about the same length: length must never be a tell.
Each closer carries at least two of its persona's keywords, so the engine's keyword check
passes whatever the findings were. Honest phrasing avoids the vocabulary the jury treats as
suspicious (heavy technology, rewrites, runtime model calls, "is fine").
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from tribunalbot.llm.offline.phrasebook import lowered


@dataclass(frozen=True)
class Voice:
    openers: tuple[str, ...]
    items: tuple[str, ...]  # slots: {line} {problem} {fix} {ref}
    closers: tuple[str, ...]
    subject: str  # what this persona would over-build or hand away, for planted claims
    neighbours: tuple[str, ...]  # domains to borrow from when its own has too little
    fillers: tuple[str, ...] = ()  # short asides that even out review lengths


VOICES: dict[str, Voice] = {
    "architect": Voice(
        ("Reading this for structure: who depends on whom, and where the seams are.",
         "The shape of this code matters more than any single line, so I looked at its seams.",
         "I traced the dependencies between the pieces before judging the details."),
        ("Line {line} {problem}; that coupling is paid for on every later change. {fix}.",
         "At line {line} the design {problem}. {fix}, so each part keeps one responsibility.",
         "Line {line} {problem}, which blurs the boundary between layers. {fix}."),
        ("Draw the module boundary first: once each layer has one responsibility, the "
         "coupling problems above get cheaper to fix.",
         "None of this needs a new abstraction; it needs a clearer interface between the "
         "pieces that already exist, and less coupling across that boundary."),
        "the data-access layer",
        ("simplicity_zealot", "dependency_watcher", "error_philosopher", "security_guardian"),
        ("Each piece should be replaceable without touching the others.",
         "Keep the layers thin and the interfaces narrow.",
         "A seam drawn early costs far less than one cut later.",
         "Good structure shows in what a change does not have to touch.",
         "Dependencies should point one way, toward the stable parts."),
    ),
    "security_guardian": Voice(
        ("I read every input as hostile until proven otherwise.",
         "Starting from the attack surface: what can an outsider send, and where does it land?",
         "Threat model first: untrusted input, secrets, and who is allowed to do what."),
        ("Line {line} {problem}{ref}. {fix}.",
         "Line {line} is an attack vector: it {problem}{ref}. {fix}.",
         "At line {line} the code {problem}{ref}; an attacker will find it before we do. "
         "{fix}."),
        ("Treat every input here as an attack and every secret as already leaked (OWASP "
         "A03, A07): sanitize where data enters, and keep each credential out of source.",
         "Sanitize at the boundary, keep each secret out of source, and assume an attacker "
         "reads this input path as closely as I did."),
        "input validation",
        ("error_philosopher", "dependency_watcher", "test_skeptic"),
        ("Assume every request is crafted by someone who has read this file.",
         "Logs and error messages leak too, so check what they expose.",
         "Trust is granted at a boundary, never inherited from a caller.",
         "Defaults decide most outcomes, so they deserve the closest look.",
         "Whatever reaches a shell or a query string needs the most care."),
    ),
    "performance_guru": Voice(
        ("I priced the hot path: loops, I/O per item, and what gets copied.",
         "Numbers first: where does the work grow with the input, and where does it wait?",
         "Looking for the cost per request and how it scales with n."),
        ("Line {line} {problem}; at a thousand items that is a thousand times the latency. "
         "{fix}.",
         "Line {line} {problem}, so the cost grows with the input rather than staying flat. "
         "{fix}.",
         "On the hot path, line {line} {problem}. {fix}; it is the cheapest win here."),
        ("Fix the costliest item above first; the memory and latency figures follow, and "
         "the throughput of the whole path with them.",
         "Measure the hot path after these changes: the latency and memory figures will show "
         "whether the per-item loop cost is gone."),
        "cache invalidation",
        ("simplicity_zealot", "architect", "error_philosopher"),
        ("Most of the cost here is round trips, not CPU.",
         "Profile before and after; the numbers will be obvious.",
         "Guessing at hot spots is how time gets wasted; measuring is cheaper.",
         "What runs once rarely matters; what runs per item always does.",
         "Memory is a cost too, even when nobody graphs it."),
    ),
    "test_skeptic": Voice(
        ("I asked of each function: which test would fail if this broke?",
         "Show me the evidence: where are the tests for the failure paths?",
         "My question for every branch here is simple: what proves it works?"),
        ("Line {line} {problem}, and no test covers that edge case. {fix}.",
         "What test would catch line {line}? It {problem}. {fix}.",
         "Line {line} {problem}; without a regression test that is a bug waiting. {fix}."),
        ("Before merging, I want a unit test per failing path above, with a real assert on "
         "the empty and boundary cases, not a mock that cannot fail.",
         "Give me evidence: a regression test for each edge case above, asserting on "
         "behaviour, and coverage of the failure paths rather than the happy one."),
        "the edge-case checks",
        ("error_philosopher", "dx_advocate", "simplicity_zealot"),
        ("A test that cannot fail proves nothing.",
         "Begin with the empty input; it is the case nobody tried.",
         "Boundaries are where the bugs live: zero, one, and the last item.",
         "A failing path deserves its own test as much as the happy one.",
         "If a behaviour matters, some assertion should say so."),
    ),
    "dx_advocate": Voice(
        ("I read this as the next developer who has to change it at 2 a.m.",
         "Thinking about whoever maintains this next: what will confuse them?",
         "I focused on how this reads, and what the names and signatures promise."),
        ("Line {line} {problem}; the next developer will have to guess the intent. {fix}.",
         "Reading line {line}, the code {problem}, which is confusing for a newcomer. {fix}.",
         "Line {line} {problem}. {fix}, so the intent is clear without a comment."),
        ("Better naming and a docstring on each public function would make the intent of "
         "this API readable to the next developer without a walkthrough.",
         "The fixes above are mostly naming and clarity: the signature and the name should "
         "tell the next developer the intent, with a comment only where it cannot."),
        "the public API surface",
        ("simplicity_zealot", "architect", "test_skeptic"),
        ("Code is read far more often than it is written.",
         "A good name saves a paragraph of comments.",
         "Surprise is the enemy of the next maintainer.",
         "Consistency with the rest of the file beats local cleverness.",
         "When a signature tells the whole story, the reader moves on quickly."),
    ),
    "error_philosopher": Voice(
        ("Every error is a message from reality; I followed each one to see who listens.",
         "I followed each failure path: what raises, who catches, and what the user sees.",
         "Failure is the normal case at scale, so I read this for what happens when it fails."),
        ("Line {line} {problem}; the failure is lost and the caller believes all is well. "
         "{fix}.",
         "At line {line} the code {problem}. {fix}, because a hidden error is a lie told to "
         "the caller.",
         "Line {line} {problem}, so a transient failure becomes a silent one. {fix}."),
        ("Handle each exception where recovery is possible and let the rest raise; a "
         "swallowed error today is tomorrow's unexplained crash.",
         "Decide what failure means here: a timeout, a retry budget, a clear error for the "
         "caller. Right now each failure is swallowed or crashes."),
        "the retry and fallback decisions",
        ("test_skeptic", "security_guardian", "performance_guru"),
        ("A failure nobody hears about is still a failure.",
         "Decide which errors are expected and which are bugs.",
         "An error message is written for someone having a bad day.",
         "Cleanup has to run on the unhappy path too.",
         "Retrying blindly turns one failure into several."),
    ),
    "dependency_watcher": Voice(
        ("I weighed every import by what it will cost to maintain in two years.",
         "Looking at what this code pulls in, and what it will drag along with it.",
         "Supply chain first: every package here is a promise someone must keep maintaining."),
        ("Line {line} {problem}; every such package is a transitive tree to audit. {fix}.",
         "At line {line} the module {problem}. {fix}, and record why it is needed.",
         "Line {line} {problem}, which ties us to someone else's release schedule. {fix}."),
        ("Pin each dependency version, prefer the stdlib where it covers the need, and "
         "replace anything deprecated before it stops receiving fixes.",
         "Every import above is a dependency to pin and maintain; the stdlib covers part of "
         "it, and anything deprecated should be replaced, not upgraded in place."),
        "third-party client wiring",
        ("architect", "security_guardian", "error_philosopher"),
        ("Every dependency is code we did not review.",
         "The cheapest package to maintain is the one we do not add.",
         "Pinned versions make tomorrow's build match today's.",
         "A library earns its place by what it saves, not by what it offers.",
         "Upgrades go smoothest when they happen a little at a time."),
    ),
    "simplicity_zealot": Voice(
        ("The best code is no code; I looked for what we could delete.",
         "I read this asking what each line earns, and what we can cut.",
         "Everything here has to earn its place; a lot of it does not."),
        ("Line {line} {problem}. {fix}: less code, fewer places for bugs.",
         "Cut at line {line}: it {problem}. {fix}.",
         "Line {line} {problem}, which is complexity nobody asked for. {fix}."),
        ("Remove the unnecessary layers and flatten the nesting; simplify until each "
         "function does one thing you can read in one pass.",
         "Delete before you add: inline the indirection, cut the duplicated branches, and "
         "the complexity here halves."),
        "the branching logic",
        ("architect", "dx_advocate", "performance_guru"),
        ("Fewer moving parts, fewer bugs.",
         "If it is not needed today, it is not needed.",
         "Plain code ages better than clever code.",
         "Two similar lines are cheaper than a premature helper.",
         "Deleting code is the change least likely to add a bug."),
    ),
    "ghost": Voice(
        ("Here is what looks wrong to me.",
         "A quick pass over the code, worst first.",
         "I went through this once, looking for the risk."),
        ("Line {line} {problem}. {fix}.",
         "Line {line}: the code {problem}. {fix}.",
         "There is a problem at line {line}: it {problem}. {fix}."),
        ("Fix the worst issue first; each change here lowers the risk of a bug in production.",
         "These are the bugs I would fix first; each is a small change with a real risk "
         "behind it."),
        "this logic",
        ("security_guardian", "error_philosopher", "performance_guru", "architect"),
        ("Small fixes, big difference.",
         "Start with the riskiest one.",
         "Risk first, polish later.",
         "A careful second read catches what the first one skims."),
    ),
}

FOCUS_DOMAINS: dict[str, str] = {
    "error handling": "error_philosopher",
    "security": "security_guardian",
    "performance": "performance_guru",
    "naming and readability": "dx_advocate",
    "testability": "test_skeptic",
}

# Findings outside a persona's own domain are told plainly rather than in its usual frame:
# the first of them now and then after a segue (one of many, so none recurs across reviews),
# the rest as the finding itself.
SEGUE_SHARE = 0.5
BORROWED_SEGUES: tuple[str, ...] = (
    "Outside my usual beat, line {line} {problem}. {fix}.",
    "One more, though it is not my area: line {line} {problem}. {fix}.",
    "Not my field, but worth saying: line {line} {problem}. {fix}.",
    "Beyond my focus, line {line} {problem}. {fix}.",
    "Stepping outside my lane, line {line} {problem}. {fix}.",
    "Off my usual track, line {line} {problem}. {fix}.",
    "From outside my specialty: line {line} {problem}. {fix}.",
    "While I was there, line {line} {problem}. {fix}.",
    "Also worth a look: line {line} {problem}. {fix}.",
    "Though it belongs to another reviewer, line {line} {problem}. {fix}.",
)
BORROWED: tuple[str, ...] = (
    "Line {line} {problem}. {fix}.",
    "Line {line} also {problem}. {fix}.",
    "Line {line}, too, {problem}. {fix}.",
    "Line {line} {problem} as well. {fix}.",
)
# A finding not worth a change on its own (findings.Finding.worth_saying), said as what it is:
# true, minor, for whoever next touches that code. One sentence led by its line, so no
# formula opens review after review; {fix} is the seat's own wording, lowered.
MINOR: tuple[str, ...] = (
    "Line {line} {problem}; a minor point, for when that code is next touched: {fix}.",
    "Line {line} {problem}, which is minor on code this settled; {fix} when it next changes.",
    "Line {line} {problem}; small and not urgent, so {fix} on the next pass through it.",
    "Line {line} {problem}, a nit rather than a defect; {fix} if that code changes anyway.",
    "Line {line} {problem}; low priority, and when someone is in there anyway, {fix}.",
    "Line {line} {problem}, one for later rather than for this change; {fix}.",
)

# A template that adds to a point made before it: never a review's first.
ADDITIVE = re.compile(r"\balso\b|, too,|\bas well\b")

# A finding's fix: in its sentence after a semicolon about half the time, else a sentence of
# its own under one of many leads ("" keeps the fix's own first word), so that no fix opens
# the same way in more than a few reviews. FIX_SLOT marks where a template puts it.
FIX_SLOT = "\x00"
MERGE_SHARE = 0.55
FIX_LEADS: tuple[str, ...] = (
    "", "The fix: ", "Better: ", "Worth doing: ", "Suggested fix: ", "My fix: ",
    "Cheapest fix: ", "Remedy: ", "What I would do: ", "Next step: ", "To fix it: ",
    "Simple remedy: ", "The way out: ", "In short: ", "Recommended: ", "First step: ",
    "The repair: ", "Do this: ", "A small change fixes it: ", "Straightforward fix: ",
)


def with_fix(text: str, fix: str, rng: random.Random) -> str:
    """`text` (a template filled with FIX_SLOT for its fix) with the fix said."""
    merge, lead = rng.random() < MERGE_SHARE, rng.choice(FIX_LEADS)
    before = text.split(FIX_SLOT, 1)[0]
    if merge and before.endswith(". ") and ";" not in before:  # one semicolon a sentence
        return text.replace(". " + FIX_SLOT, "; " + lowered(fix))
    return text.replace(FIX_SLOT, lead + lowered(fix) if lead else fix)


# Under Ultra Focus every seat says first that it keeps to the aspect: in several ways, since a
# blind panel read one sentence open all eight reviews (bench/blind/round5).
FOCUS_OPENERS = ("Looking at {focus} only, as this review asks.",
                 "This round is about {focus}, so that is all I read for.",
                 "Keeping to {focus}, as asked.",
                 "{Focus} only this time; here is what I found.",
                 "As the review asks, I kept to {focus}.")
HOSTILE_OPENER = ("I am assuming the author wants a way in, so I read each input as an attack "
                  "vector.")
# The Future Commits event: a finding the coming commit makes worse, said in one of several
# ways; or, when nothing the review found is one the commit bears on, that it changes none of
# it (a blind panel read all eight seats tie "undo last week's input validation" to a file
# with no input: bench/blind/round5).
FUTURE_SENTENCES = ("With the coming commit \"{commit}\" in mind, line {line} matters even "
                    "more: {fix}.",
                    "The coming commit \"{commit}\" raises the stakes at line {line}: {fix}.",
                    "Line {line} is the one the coming commit \"{commit}\" will make worse: "
                    "{fix}.")
FUTURE_ASIDES = ("The coming commit \"{commit}\" bears on none of the points above.",
                 "I weighed the coming commit \"{commit}\"; nothing above turns on it.",
                 "As for the coming commit \"{commit}\", it leaves the points above as they "
                 "are.")
# Which fields each kind of coming commit bears on, by its words.
FUTURE_FIELDS: tuple[tuple[str, frozenset[str]], ...] = (
    (r"(?i)input validation|login|auth", frozenset({"security_guardian"})),
    (r"(?i)public API|plugin", frozenset({"architect", "dx_advocate"})),
    (r"(?i)drop python|compatib|shim", frozenset({"dependency_watcher"})),
    (r"(?i)hotfix|incident", frozenset({"error_philosopher", "test_skeptic"})),
    (r"(?i)every request|nightly|batch", frozenset({"performance_guru"})),
)


# A closer for a review that found nothing in its own field: in the persona's words (two of
# its keywords, as every closer), claiming nothing of the code. A blind panel found the stock
# closers claiming what the file did not hold ("keep each credential out of source" for a
# script with no secret, "a docstring on each public function" for a shell script:
# bench/blind/round4).
QUIET_CLOSERS: dict[str, tuple[str, ...]] = {
    "architect": ("On structure, coupling and module boundaries, nothing here worried me.",
                  "The layering and the interfaces between modules hold up as they are."),
    "security_guardian": ("No injection path, secret or credential in this file needed a "
                          "flag from me.", "On auth, secrets and untrusted input, this file "
                          "gave me nothing to flag."),
    "performance_guru": ("No loop or hot path here costs enough latency or memory to flag.",
                         "On latency, memory and the hot path, nothing here needs work."),
    "test_skeptic": ("No untested edge case in my own field called for a new test.",
                     "On test coverage and edge cases, I have nothing more to flag."),
    "dx_advocate": ("Naming and readability hold up; nothing here would confuse a newcomer.",
                    "On naming and clarity, I have nothing more to flag."),
    "error_philosopher": ("Not one swallowed error or hidden failure caught my eye.",
                          "Error handling holds up: no exception is lost that I could see."),
    "dependency_watcher": ("No dependency or package here needs a version pin or a change.",
                           "On dependencies and package versions, nothing needs a change.",
                           "No import here needs a version pin or a change."),
    "simplicity_zealot": ("Nothing here is over-engineered or begs to be deleted.",
                          "No layer here needs to be removed to simplify it."),
    "ghost": ("That is the whole of it: no other change to this code from me.",
              "Nothing more in this code needs a change from me."),
}


def voice_for(persona: str | None) -> Voice:
    return VOICES.get(persona or "", VOICES["ghost"])
