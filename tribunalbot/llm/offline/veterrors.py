"""Is an ignored failure swallowed, or expected? The check of a catch that does nothing, in
brace languages (JavaScript, TypeScript): the code around it may already handle what the
failure leaves behind, or expect the failure outright. (Python's handlers are read by
vet.handler_catches_blindly.)

A blind round's readers (bench/blind round 8) judged three such findings wrong: a `stat`
whose missing result the next line tests, the `unlink` of a temp file that a successful
rename has already moved away, and a lookup (`os.userInfo()`) whose function answers nothing
when it fails, called as the last of a chain of fallbacks.
"""

from __future__ import annotations

import re

from tribunalbot.llm.offline import pyhandlers, vet
from tribunalbot.llm.offline.vetcontext import Candidate, Context, has_comment

# Removing something that may already be gone: the failure it ignores is "no such file".
_REMOVES = re.compile(r"\b(unlink|rm|rmdir|rimraf|remove|unlinkSync|rmSync|rmdirSync)\b")
_TEMP = re.compile(r"(?i)(?<![a-z])te?mp(?!l)")
_ASSIGNED = re.compile(r"^\s*(?:(?:const|let|var)\s+)?([\w$]+)\s*=[^=]")
_TRY_OPEN = re.compile(r"\btry\s*\{")


def failure_swallowed(f: Candidate, ctx: Context) -> bool:
    """An empty catch swallows a failure, unless what follows handles the missing value (the
    result is tested, or the function that returns nothing on failure is only called as a
    fallback), or the failure is one the code expects (removing a temp file, or any file
    in cleanup, that may no longer exist)."""
    if ctx.language == "python":
        return catches_blindly_with_no_fallback(f, ctx)
    if ctx.language not in ("javascript", "typescript"):
        return True
    text = ctx.text(f.line)
    if re.search(r"(\|\||\?\?|[?:=])\s*\(\s*\(\s*\)\s*=>\s*\{\s*\}\s*\)|"
                 r"[(,]\s*\w+\s*=\s*\(\s*\)\s*=>\s*\{\s*\}", text):
        return False  # `f || (() => {})`, `(cb = () => {})`: a no-op stand-in (rounds 19, 20)
    guarded = [text.split(".catch(")[0]] if ".catch(" in text else _try_body(f.line, ctx)
    if _removes_expected(guarded, f.line, ctx) or _errors_listened_for(text, f.line, ctx) \
            or _best_effort(guarded, text) or _explained_in_try(f.line, ctx):
        return False
    if any(_result_tested(x, f.line, ctx) for x in guarded):
        return False
    return not _nothing_for_a_fallback(guarded, f.line, ctx)


def catches_blindly_with_no_fallback(f: Candidate, ctx: Context) -> bool:
    """`vet.handler_catches_blindly`, less a handler that passes so that the code keeps a
    fallback (`pyhandlers.keeps_a_fallback`)."""
    return vet.handler_catches_blindly(f, ctx) and not (
        ctx.py is not None and pyhandlers.keeps_a_fallback(ctx.py, f.line))


# Calls whose failure the code may fairly ignore (blind round 19's development set, npm's tar
# and node-gyp): metadata set as a courtesy (times, owner, mode), a descriptor closed after an
# error, and a probe whose failure means "not there".
_BEST_EFFORT = re.compile(r"\b(?:fs\.|fsp\.)?(?:l|f)?(?:utimes|chown|chmod|close|stat|access|"
                          r"exists|realpath)(?:Sync)?\(")
_CALL = re.compile(r"[\w$.]+\s*\(")


def _best_effort(guarded: list[str], text: str) -> bool:
    """Every call the empty catch (or the no-op callback on `text`) covers is best-effort."""
    calls = [m.group(0) for x in (guarded or [text]) for m in _CALL.finditer(x)
             if not re.match(r"(if|while|for|switch|return|await|String|Number|path\.)\b",
                             m.group(0))]
    return bool(calls) and all(_BEST_EFFORT.search(c) for c in calls)


COMMENT_ABOVE_TRY = 3  # lines above a `try` where its reason may be written (round 20: two)


def _explained_in_try(line: int, ctx: Context) -> bool:
    """A comment in the try block or on the line above its `try`: the author says why the
    failure is let go (an optional feature loaded if present)."""
    found = _try_opener(line, ctx)
    if found is None:
        return False
    for above in range(found[0] - 1, max(0, found[0] - 1 - COMMENT_ABOVE_TRY), -1):
        if has_comment(above, ctx):
            return True
        if ctx.text(above).rstrip().endswith(("}", ";")):
            break  # a statement ends there: a comment above it is about something else
    return any(has_comment(n, ctx) for n in range(found[0], line + 1))


ERROR_LISTENER_REACH = 20  # lines above an empty `.catch`, in its function, a listener may be


def _errors_listened_for(text: str, line: int, ctx: Context) -> bool:
    """An empty `.catch` on a promise whose stream's errors an `on('error')` listener above
    already forwards: it only keeps the rejection from going unhandled (pacote's cache
    stream, blind round 18); reporting it again would report it twice."""
    if ".catch(" not in text:
        return False
    block = _openers(line, ctx)  # the listener sits in the same function
    start = max(block[-1] if block else 1, line - ERROR_LISTENER_REACH)
    above = ctx.code[start - 1 : line - 1]
    return any(re.search(r"\.on\(\s*['\"]error['\"]\s*,[^)]*\bemit\(", x) for x in above)


def _openers(line: int, ctx: Context) -> list[int]:
    """The lines whose `{` opens a block around `line`, innermost first."""
    found: list[int] = []
    balance = 0
    for number in range(line - 1, 0, -1):
        for char in reversed(ctx.text(number)):
            balance += (char == "}") - (char == "{")
            if balance < 0:
                found.append(number)
                balance = 0
    return found


def _try_opener(line: int, ctx: Context) -> tuple[int, int] | None:
    """(the `try {` line, the line closing its block) for the `catch` on `line`, whether the
    `}` shares the catch's line or stands on the line above it."""
    closing = line
    if re.match(r"\s*catch\b", ctx.text(line)):
        closing = next((n for n in range(line - 1, 0, -1) if ctx.text(n).strip()), line)
        if ctx.text(closing).strip() != "}":
            return None
    opener = next(iter(_openers(closing, ctx)), None)
    if opener is None or not _TRY_OPEN.search(ctx.text(opener)):
        return None
    return opener, closing


def _try_body(line: int, ctx: Context) -> list[str]:
    """The lines of the try block closed by the `catch` on `line`."""
    found = _try_opener(line, ctx)
    if found is None:
        return []
    opener, closing = found
    return list(ctx.code[opener : closing - 1])


def _removes_expected(guarded: list[str], line: int, ctx: Context) -> bool:
    """Every guarded statement removes a file, a temp one or one in a `finally` block."""
    code = [x for x in guarded if x.strip() and x.strip() not in ("{", "}")]
    return bool(code) and all(_REMOVES.search(x) for x in code) and any(
        _TEMP.search(x.split("(", 1)[-1]) or _in_finally(line, ctx) for x in code)


def _in_finally(line: int, ctx: Context) -> bool:
    """`line` is in a `finally` block of its own function."""
    for opener in _openers(line, ctx):
        text = ctx.text(opener)
        if re.search(r"\bfinally\s*\{", text):
            return True
        if re.search(r"\bfunction\b|=>\s*\{", text):
            return False
    return False


def _result_tested(statement: str, line: int, ctx: Context) -> bool:
    """The guarded statement sets a name that one of the next lines tests before use."""
    match = _ASSIGNED.match(statement)
    if not match:
        return False
    name = re.escape(match.group(1))
    tests = re.compile(rf"\bif\s*\(\s*!?\s*{name}\b|(?<![\w.$]){name}\s*(&&|\|\||\?\?|\?\.)|"
                       rf"(?<![\w.$]){name}\s*[!=]==?\s*(null|undefined)\b")
    return any(tests.search(x) for x in ctx.code[line : line + 4])


def _nothing_for_a_fallback(guarded: list[str], line: int, ctx: Context) -> bool:
    """`try { return lookup() } catch {}` ends a function that answers nothing when the
    lookup fails, and every caller reads that answer as one of a chain of fallbacks."""
    code = [x for x in guarded if x.strip()]
    if len(code) != 1 or not re.match(r"\s*return\b", code[0]):
        return False
    after = next((x for x in ctx.code[line:] if x.strip()), "")
    func = ctx.structure.function_at(line)
    if after.strip() != "}" or func is None or not func.name:
        return False
    name = re.escape(func.name)
    calls = [x for n, x in enumerate(ctx.code, 1)
             if re.search(rf"(?<![\w.$]){name}\s*\(", x) and n != func.start]
    fallback = re.compile(rf"(\|\||\?\?)\s*{name}\s*\(|{name}\s*\([^()]*\)\s*(\|\||\?\?)")
    return bool(calls) and all(fallback.search(x) for x in calls)
