"""The reason an option recommendation gives, and where the code plainly refutes it.

Every cited recommendation of an option says why, in one form for every seat ("..., since that
line <reason>"), and the reason is always that of a topic that earns the option's family
(fit.EARNS; the `reason` in the topic's record). An honest seat's is its cited finding's own
topic, true there. The Troublemaker's is such a reason claimed at a line whose code shows it
absent: "is nested too deep to follow" in a function one block deep, "makes an I/O call once
per item" in a function with no loop. A blind panel could not refute a bare "a rewrite of that
block, so it reads in one pass" (bench/blind/round5 and round6); a reason the cited lines
contradict it can.

Only claims a reader settles from the lines themselves are planted. A topic whose absence the
code does not show at a glance has no refuter here and is never claimed falsely: shared
module-level state (a line in a function may still reach it), layers mixed in a function (a
matter of judgement), a scan of a collection per item (a loop's absence refutes it, but honest
seats almost never give it, so a plant's would name its speaker by the words alone) and a file
that does not parse (a fact of the whole file, not of the cited lines).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.structure import Function, Structure
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import record
from tribunalbot.llm.offline.topics.architecture import LONG_FUNCTION

FLAT = 1  # blocks deep a function may go and still be plainly not "several blocks deep"
FEW_BRANCHES = 2  # branches a function may have and plainly not "too many"
SHORT = LONG_FUNCTION // 2  # lines of code a function may have and plainly not be long
# Any way code repeats work: loops, comprehensions, iteration helpers, in every language read.
_LOOPING = re.compile(r"\b(for|while|until|loop)\b|\bforEach\b|\.map\(|\bmap\(|\bfilter\(|"
                      r"\breduce\(|\.each\b")
# A line that opens a block, a function or a statement over several lines.
_OPENS = re.compile(r"[:{(\[\\,]\s*$|=>|\b(class|def|function|func|procedure|begin|case|if|for|"
                    r"while|with|try|switch|do|then)\b", re.I)
_APPENDING = re.compile(r"append|extend|push|insert|unshift|concat|\+=|<<|\.add\(|\[\]\s*=")
_CONSTRUCTOR = re.compile(r"^(__init__|__new__|__post_init__|constructor|init|new)$|^New|"
                          r"^(make|create|build|connect|setup|open|get)|client|session|"
                          r"factory|pool", re.I)
_CLIENTISH = re.compile(r"client|session|connect|pool|engine|transport", re.I)
_PROCESS_WIDE = re.compile(r"argv|environ|getenv|setenv|\benv\b|subprocess|system\(|popen|"
                           r"exec|spawn|shell|process\.|os\.Args|sys\.|exit|chdir|stdin|"
                           r"stdout|stderr|signal|\$", re.I)


@dataclass(frozen=True)
class Code:
    """What a reader of the cited lines sees: the code (comments blanked) and its structure."""
    lines: tuple[str, ...]
    structure: Structure
    language: str

    def near(self, line: int) -> str:
        """The cited line and its neighbours (the analysis cites a statement's start)."""
        return "\n".join(self.lines[max(line - 2, 0):line + 1])

    def alone_in(self, line: int) -> Function | None:
        """The function holding `line`, when exactly one does: inside a nested function the
        outer one's blocks and loops would count as well."""
        holding = [f for f in self.structure.functions if f.start <= line <= f.end]
        return holding[0] if len(holding) == 1 else None


def code_of(analysis: Analysis) -> Code | None:
    """The code as the detectors read it; None for a change (its files sit on one number
    line, shown in parts)."""
    if analysis.places.spans or analysis.structure is None:
        return None
    return Code(analysis.code_view, analysis.structure, analysis.language)


def problem_of(topic: Topic) -> str:
    """A topic's problem as a direct fix's reason ("since that line ..."), the same words for
    every seat."""
    return record(topic).problem.replace("{detail}", "several concerns")


def reason_of(topic: Topic) -> str:
    """Why a topic earns an option, as a recommendation of it says ("since that line ...")."""
    return record(topic).reason


def _span(func: Function) -> str:
    return f"its function (lines {func.start}-{func.end})"


def _count(n: int, noun: str, plural: str) -> str:
    return "no " + plural if n == 0 else f"one {noun}" if n == 1 else f"{n} {plural}"


def _top_level(code: Code, line: int) -> bool:
    """A plain statement outside every function and block (an import, a constant): nothing
    nested, no branch, no function starts there."""
    text = code.lines[line - 1] if 0 < line <= len(code.lines) else ""
    holding = any(f.start <= line <= f.end for f in code.structure.functions)
    return bool(text.strip()) and not text[0].isspace() and not holding \
        and not _OPENS.search(text)


def _flat(code: Code, line: int) -> str:
    if _top_level(code, line):
        return f"Line {line} is not nested: it is a plain top-level statement"
    func = code.alone_in(line)
    if func is None or func.max_depth > FLAT or func.if_depth > FLAT:
        return ""
    return f"Line {line} is not nested: {_span(func)} goes at most one block deep"


def _few_branches(code: Code, line: int) -> str:
    if _top_level(code, line):
        return f"Line {line} is in no function: it is a plain top-level statement"
    func = code.alone_in(line)
    if func is None or func.branches > FEW_BRANCHES:
        return ""
    return f"Line {line} sits in a function with {_count(func.branches, 'branch', 'branches')}"


def _short(code: Code, line: int) -> str:
    if _top_level(code, line):
        return f"Line {line} is in no function: it is a plain top-level statement"
    func = code.alone_in(line)
    if func is None or func.code_lines > SHORT:
        return ""
    return (f"Line {line} is in no long function: {_span(func)} has "
            f"{_count(func.code_lines, 'line', 'lines')} of code")


def _loopless(code: Code, line: int) -> str:
    func = code.alone_in(line)
    if func is None or any(code.structure.in_loop(n) for n in range(func.start, func.end + 1)):
        return ""
    if any(_LOOPING.search(text) for text in code.lines[func.start - 1:func.end]):
        return ""
    return f"Line {line} runs once per call, not once per item: {_span(func)} has no loop"


def _calls_nothing(code: Code, line: int) -> str:
    """No call, no await: nothing at the line can do I/O. (Shell lines are commands, each of
    them a call.)"""
    near = code.near(line)
    if code.alone_in(line) is None or code.language == "shell" or re.search(
            r"\(|\bawait\b|`|\$", near):
        return ""
    return f"Line {line} does no I/O: neither it nor the lines beside it call anything"


def _appends_nothing(code: Code, line: int) -> str:
    if _APPENDING.search(code.near(line)):
        return ""
    return f"Line {line} appends to nothing: neither it nor the lines beside it add to a list"


def _no_constructor(code: Code, line: int) -> str:
    """Not where the function, anywhere in it, builds or holds a client: blind round 16's
    panel could not refute "hard-wires its client" of a `Run` whose next lines take one."""
    func = code.alone_in(line)
    body = "\n".join(code.lines[func.start - 1:func.end]) if func else ""
    if func is None or _CONSTRUCTOR.search(func.name) or _CLIENTISH.search(body):
        return ""
    return (f"Line {line} is in no constructor and builds no client: {_span(func)} is an "
            "ordinary one")


def _self_contained(code: Code, line: int) -> str:
    if code.alone_in(line) is None or _PROCESS_WIDE.search(code.near(line)):
        return ""
    return (f"Line {line} touches no process-wide state: it reads no argument or environment "
            "variable and runs no shell")


# Topic -> how the code refutes "that line <its reason>" at a line: the refutation, or "" where
# the code does not plainly show it false. The topics that earn an option and are
# missing here are the ones the module docstring names. In the order a plant weighs them
# (false_reasons): the sabotage draws from that list, so the order is part of every game.
REFUTERS: dict[Topic, Callable[[Code, int], str]] = {
    Topic.LONG_FUNCTION: _short, Topic.COMPLEXITY: _few_branches, Topic.DEEP_NESTING: _flat,
    Topic.IO_CALL_IN_LOOP: _loopless, Topic.BLOCKING_IO: _calls_nothing,
    Topic.UNBOUNDED_GROWTH: _appends_nothing,
    Topic.HARDWIRED_CLIENT: _no_constructor, Topic.HIDDEN_SIDE_EFFECT: _self_contained,
}


def refutation(topic: Topic, analysis: Analysis, line: int) -> str:
    """How the code shows "that line <the topic's reason>" false at `line`, or ""."""
    code = code_of(analysis)
    refute = REFUTERS.get(topic)
    if code is None or refute is None or any(f.topic == topic for f in analysis.at(line)):
        return ""
    return refute(code, line)


def code_lines(analysis: Analysis) -> list[int]:
    """The lines of code (no blank, no comment) a call may cite where nothing was found."""
    code = code_of(analysis)
    return [n for n, text in enumerate(code.lines, 1) if text.strip()] if code else []


def false_reasons(family: str, analysis: Analysis, line: int) -> list[Topic]:
    """The topics earning `family` whose reason the code plainly refutes at `line`: the
    reasons a plant recommending the family there can give."""
    earning = fit.EARNS.get(family, {})
    return [topic for topic in REFUTERS if topic in earning and refutation(topic, analysis, line)]
