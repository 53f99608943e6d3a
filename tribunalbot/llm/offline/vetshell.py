"""Vetting checks for shell scripts: a `read` that eats backslashes, `echo -e` under sh, an
expansion that splits, `eval` of what the script did not write, a recursive delete of a path
an empty variable turns into /, backticks that nest or quote, a temporary file that is only
scratch; and where a shell loop ends.
"""

from __future__ import annotations

import re

from tribunalbot.llm.offline.rules import SHELL_READ
from tribunalbot.llm.offline.vetcontext import Candidate, Context

READ = re.compile(SHELL_READ)


def read_eats_backslashes(f: Candidate, ctx: Context) -> bool:
    """`read` with -r among its options keeps backslashes; without it, they are eaten. A
    bare `read` that keeps nothing (waiting for Enter) loses nothing."""
    match = READ.search(ctx.text(f.line))
    if not match:
        return False
    words = re.split(r"[;&|<>)]", ctx.text(f.line)[match.end():], maxsplit=1)[0].split()
    if any(re.fullmatch(r"-\w*r\w*", w) for w in words):
        return False
    return any(_FREE_TEXT.fullmatch(w) for w in words)


# Variables that hold a line, a path or a name, where a backslash can really occur (a
# commit hash or a yes/no answer never has one).
_FREE_TEXT = re.compile(r"(?i)\w*(line|file|path|name|dir|entry|url|text|input|link|crt|"
                        r"cert|hook|patch)\w*|[ifp]")


# `name=$(mktemp ...)` or with backticks: the variable that holds a new temporary file.
_TEMP_NAME = re.compile(r"\b(\w+)=(?:\$\(|`)\s*mktemp\b")


def temp_left_behind(f: Candidate, ctx: Context) -> bool:
    """A temporary file is left behind unless it is what the script makes: one its own
    output goes to (`exec >>"$log" 2>&1`, a session's log or a result another program
    reads) is meant to outlive the run, and a trap that removed it would remove the output.
    A file written by a command (`sort x > "$tmp"`) is scratch, and stays a finding."""
    made = _TEMP_NAME.search(ctx.text(f.line))
    if not made:
        return True
    output = re.compile(rf"\bexec\s+[1&]?>>?\s*[\"']?\$\{{?{made.group(1)}\b")
    return not any(output.search(x) for x in ctx.code)


def loop_end(code: tuple[str, ...], line: int) -> int:
    """The line of the `done` that closes the shell loop opened on `line` (Structure reads
    brace blocks, not `do ... done`)."""
    depth = 0
    for number in range(line, len(code) + 1):
        text = re.sub(r"'[^']*'|\"[^\"]*\"", "", code[number - 1])
        depth += len(re.findall(r"(?:^|[;\s])do\b", text))
        closed = re.findall(r"(?:^|[;\s&|])done\b", text)
        depth -= len(closed)
        if depth <= 0 and closed:
            return number
    return len(code)


def echo_under_sh(f: Candidate, ctx: Context) -> bool:
    """echo -e works in bash; in a #!/bin/sh script, dash's echo prints the -e."""
    first = ctx.lines[0] if ctx.lines else ""
    return bool(re.match(r"#!\s*(/usr)?/bin/(env\s+)?(da)?sh\b", first))


def guessable_temp(f: Candidate, ctx: Context) -> bool:
    """A name made from the process id is guessable; `set -C` just before it makes the
    shell refuse a file someone planted there."""
    above = "\n".join(ctx.code[max(0, f.line - 4) : f.line])
    return not re.search(r"^\s*set\s+-\w*C", above, re.M)


_TESTED = re.compile(r"(?:\[|\btest)\s+(?:!\s+)?(?:-n\s+)?\$\{?(\w+)\}?\s")


# bash's own test: no word splitting or globbing of what it expands (bench/blind/round13).
_DOUBLE_BRACKETS = re.compile(r"\[\[\s.*?\s\]\]")
_ARGUMENT = re.compile(r"(?<![\"'\\])\$\{?([A-Za-z_]\w*)\}?")
# Names a script gives a list of words: `rm -f -- $list` is meant to split.
_LIST_NAME = re.compile(r"(?i)\w*(list|opts|options|args|flags|files|dirs|names|paths|items)"
                        r"|\w+s")


def _meant_to_split(name: str, ctx: Context) -> bool:
    """A variable that holds several words on purpose: named as a list, set from a command's
    output, grown word by word, or looped over. Quoting it would break the command."""
    if _LIST_NAME.fullmatch(name):
        return True
    sets = [m.group(1) for x in ctx.code for m in re.finditer(
        rf"(?:^|[\s;&|(]){name}=(.*)", x)]
    split = re.compile(rf"[\"']?(\$\(|`)|[\"']?[^\"'\s]*\s+\S|.*\$\{{?{name}\}}?\s")
    looped = any(re.search(rf"\bfor\s+\w+\s+in\s+[^;]*\${{?{name}\b", x) for x in ctx.code)
    return looped or any(split.match(value) for value in sets)


def expansion_may_split(f: Candidate, ctx: Context) -> bool:
    """A variable unquoted in a test breaks it when empty or spaced; one the script only
    ever sets to a plain word (a yes/no flag, a count) can be neither."""
    text = _DOUBLE_BRACKETS.sub(" ", ctx.text(f.line))  # bash splits nothing in [[ ]]
    match = _TESTED.search(text)
    if not match:  # the other commands' unquoted arguments
        names = _ARGUMENT.findall(text.split("#")[0])
        return any(not _meant_to_split(name, ctx) for name in names)
    name = match.group(1)
    if name.isdigit():
        return True
    sets = [m.group(1) for x in ctx.code for m in re.finditer(
        rf"(?:^|[\s;&|(]){name}=(\S*)", x)]
    # A loop over an unquoted list binds words already split: never empty, never spaced.
    loops = [m.group(1) for x in ctx.code for m in re.finditer(
        rf"\bfor\s+{name}\b(?:\s+in\s+([^;]*))?", x)]
    if any(not words or '"' in words for words in loops):
        return True
    # A word, a quoted word, a count, or the variable itself grown by a word (`s=${s}I`).
    plain = re.compile(rf"([\"']?)[\w.+-]+\1|\$\(\([^)]*\)\)|\$\?|\$#|"
                       rf"\$\{{?{name}\}}?[\w.+-]*")
    return not (sets or loops) or not all(plain.fullmatch(v.rstrip(";")) for v in sets)


def evals_outside_input(f: Candidate, ctx: Context) -> bool:
    """eval of the caller's arguments or of a variable the script never sets (it comes from
    the environment); the script's own quoted constructions are its business."""
    text = re.sub(r"'[^']*'", "", ctx.text(f.line).split("eval", 1)[-1])  # literal to eval
    if _SHELL_QUOTED.search(text):
        return False
    if re.search(r"(?<!\\)\$\{?([1-9@*])", text):  # the caller's arguments become code
        return True
    assigned = {m.group(1) for x in ctx.code for m in re.finditer(r"\b(\w+)=", x)}
    assigned |= {m.group(1) for x in ctx.code for m in re.finditer(r"\b(?:read|for)\s+(\w+)", x)}
    used = set(re.findall(r"\$\{?(\w+)", text))
    # The user's own configured command, arguments and all (`eval ${PAGER-more}`): eval is
    # how a script runs one, and nobody crosses a boundary.
    return bool({u for u in used - assigned - {"IFS", "PATH", "HOME"} if not _USERS.match(u)})


# Output a command quotes for the shell to read back (`git rev-parse --sq`, `for-each-ref
# --shell`, `getopt`, `printf %q`): eval of it is how a script takes it in (blind round 16).
_SHELL_QUOTED = re.compile(r"\$\(\s*(git\s[^)]*\s--(sq|shell)\b|getopt\b|printf\s+['\"]?%q)")

_USERS = re.compile(r"(\w+_)?(PAGER|EDITOR|VISUAL|BROWSER|SHELL|DIFF|CMD|COMMAND)$")


def deletes_under_unguarded_path(f: Candidate, ctx: Context) -> bool:
    """`rm -rf $dir` of a whole variable removes nothing when it is empty, quoted or not (the
    command is left with no argument: blind round 16's readers ran it); a path built on a
    variable removes from / (`$dir/x`) or the working directory (`$dir*`) instead."""
    text = ctx.text(f.line)
    if re.search(r"\b(echo|printf)\b[^;&|]*\brm\s", text):
        return False  # `echo rm -rf $dir/` shows the command it is about to run
    args = text[text.index("rm") :]
    for match in re.finditer(r"\$\{?(\w+)(:[?-][^}]*)?\}?(\S?)", args):
        name, guard, after = match.groups()
        if guard:
            continue
        if re.search(rf"(test|\[)\s+-n\s+\"?\$\{{?{name}\b", text) or \
                _tested_above(name, ctx, f.line):
            continue
        if after in ("/", "*"):  # empty, `$dir/x` is `/x` and `$dir*` is `*`
            return True
    return False


GUARD_REACH = 12  # lines above a delete where the `if` that guards it may open


def _tested_above(name: str, ctx: Context, line: int) -> bool:
    """Inside an `if [ "$x" ]` (or `-n`) still open at `line`, where `name` is `x` or was
    set from `$x` since: pg_buildext's `pattern=$(echo "$target" | sed ...)` under
    `if [ "$target" ]` (blind round 17)."""
    sources = {name}
    for text in reversed(ctx.code[max(0, line - 1 - GUARD_REACH) : line - 1]):
        if re.search(r"^\s*(fi|done|esac)\b", text):
            return False
        set_here = re.match(rf"\s*{name}=(.*)", text)
        if set_here:
            sources |= set(re.findall(r"\$\{?(\w+)", set_here.group(1)))
        tested = re.search(r"\b(if|elif)\s+(\[|test)\s+(-n\s+)?\"\$\{?(\w+)\}?\"\s*\]?", text)
        if tested and tested.group(4) in sources:
            return True
    return False


def backticks_nest_or_quote(f: Candidate, ctx: Context) -> bool:
    """Backticks are worth a word where they do what the finding says, nest or quote badly:
    an escaped backtick or a quote inside them. A plain `date` or `basename $0` is style.
    A backtick inside single quotes is a character, not a command substitution. A script
    written for Bourne shells older than $(...) (it never writes one and substitutes with
    backticks throughout) quotes inside them as those shells define; only nesting (an escaped
    backtick) or an escaped quote is worth a word there."""
    text = ctx.lines[f.line - 1] if 0 < f.line <= len(ctx.lines) else ""
    live = [m for m in re.finditer(r"(?<!\\)`([^`]*)(?<!\\)`", text)
            if text[: m.start()].count("'") % 2 == 0]
    bad = r"\\[`\"]" if _backticks_throughout(ctx) else r"\\`|[\"']"
    return any(re.search(bad, m.group(1)) for m in live) or "\\`" in text


def _backticks_throughout(ctx: Context) -> bool:
    """The script's one way to substitute a command is backticks, never nested: on three
    lines or more, no escaped backtick anywhere (read as nesting, as on a line), and no
    $(...) anywhere, nor the POSIX shell's $((...)), which would mean $(...) works."""
    substitutes = [x for x in ctx.code if re.search(r"(?<!\\)`[^`]+(?<!\\)`", x)]
    return len(substitutes) >= 3 and not any("$(" in x or "\\`" in x for x in ctx.code)


def which_is_run(f: Candidate, ctx: Context) -> bool:
    """`which` as a command, not the word inside a message (`echo "... (which is now
    obsolete)"`, blind round 16): a `which` within double quotes is run only in a
    substitution there."""
    text = ctx.text(f.line)
    for match in re.finditer(r"\bwhich\s", text):
        before = text[: match.start()]
        quoted = before.count('"') - before.count('\\"')
        if quoted % 2 == 0 or re.search(r"(\$\(|`)\s*$", before):
            return True
    return False
