"""Reading unified diffs: git's (`diff --git`, extended headers, renames, binary files) and
plain `diff -u`, one file or many.

A text is a diff when it has file headers (`diff --git`, or `---` followed by `+++`) or a
hunk header. A diff that breaks its own rules (a hunk shorter or longer than its header says, a
malformed `@@` line, a `+++` with no `---`) raises `DiffError`, whose message names the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tribunalbot.diffs.model import DIFF_LANGUAGE, OMITTED_PREFIX, Change, FileChange, Hunk, Line

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$")
_GIT = re.compile(r"^diff --git (.+)$")
_FILE_HEADS = re.compile(r"^diff --git |^--- .*\n\+\+\+ |^@@ -\d+(?:,\d+)? \+\d+", re.M)
_NO_EOL = "\\ No newline at end of file"
# git's extended header lines: kept as they are, read for paths where they name them.
_EXTENDED = ("old mode ", "new mode ", "deleted file mode ", "new file mode ", "copy from ",
             "copy to ", "rename from ", "rename to ", "similarity index ",
             "dissimilarity index ", "index ")


class DiffError(ValueError):
    """A diff that cannot be read; the message names the line (1-based) and the problem."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"the diff is broken at line {line}: {problem}")
        self.line = line


def change_of(code: str, language: str) -> Change | None:
    """The change a stored game reviews: its code is the diff text when its language is
    `diff` (as the intake stores a change); None for plain code or an unreadable diff."""
    if language != DIFF_LANGUAGE:
        return None
    try:
        return parse_diff(code)
    except DiffError:
        return None


def looks_like_diff(text: str) -> bool:
    """Whether `text` is meant as a diff (broken or not), rather than code."""
    return bool(_FILE_HEADS.search(text))


@dataclass
class _File:
    """A file being read: its headers so far, then its hunks."""

    old: str | None = None
    new: str | None = None
    git: bool = False
    seen_minus: bool = False
    binary: bool = False
    headers: list[str] = field(default_factory=list)
    hunks: list[Hunk] = field(default_factory=list)

    def done(self) -> FileChange:
        return FileChange(self.old, self.new, tuple(self.hunks), self.binary,
                          tuple(self.headers))


def parse_diff(text: str) -> Change:
    """The change a unified diff describes. Raises DiffError."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    reader = _Reader(lines)
    reader.run()
    if not reader.files:
        raise DiffError(1, "it has no file and no hunk")
    return Change(tuple(f.done() for f in reader.files), tuple(reader.omitted))


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.at = 0  # index of the next line to read
        self.files: list[_File] = []
        self.omitted: list[str] = []

    @property
    def current(self) -> _File | None:
        return self.files[-1] if self.files else None

    def run(self) -> None:
        while self.at < len(self.lines):
            line = self.lines[self.at]
            self.at += 1
            self._line(line)

    def _line(self, line: str) -> None:
        file = self.current
        if line.startswith("diff --git "):
            self.files.append(_File(git=True))
            self._git_paths(line)
        elif line.startswith("--- ") and self._next_is_plus():
            if file is None or file.hunks or file.seen_minus or not file.git:
                file = _File()
                self.files.append(file)
            file.old, file.seen_minus = _path(line[4:], file.git), True
        elif line.startswith("+++ "):
            if file is None or not file.seen_minus or file.hunks:
                raise DiffError(self.at, "a `+++` file header with no `---` header before it")
            file.new = _path(line[4:], file.git)
        elif line.startswith("@@"):
            self._hunk(line)
        elif line.startswith(OMITTED_PREFIX) and not self.files:
            self.omitted += [p for p in line[len(OMITTED_PREFIX):].split(", ") if p]
        elif file is not None and file.git and not file.hunks:
            self._extended(file, line)
        # Anything else between files (a commit message, `Only in ...`, `diff -ru` command
        # lines) is not part of any file.

    def _next_is_plus(self) -> bool:
        return self.at < len(self.lines) and self.lines[self.at].startswith("+++ ")

    def _git_paths(self, line: str) -> None:
        file = self.files[-1]
        match = _GIT.match(line)
        names = match.group(1) if match else ""
        old, sep, new = names.partition(" b/")
        if sep and old.startswith("a/"):
            file.old, file.new = old[2:], new
        elif names.startswith('"'):
            parts = re.findall(r'"(?:[^"\\]|\\.)*"|\S+', names)
            if len(parts) == 2:
                file.old, file.new = _path(parts[0], True), _path(parts[1], True)

    def _extended(self, file: _File, line: str) -> None:
        if line.startswith(_EXTENDED):
            file.headers.append(line)
            if line.startswith("new file mode "):
                file.old = None
            elif line.startswith("deleted file mode "):
                file.new = None
            elif line.startswith(("rename from ", "copy from ")):
                file.old = _unquote(line.split(" ", 2)[2])
            elif line.startswith(("rename to ", "copy to ")):
                file.new = _unquote(line.split(" ", 2)[2])
        elif line.startswith(("Binary files ", "GIT binary patch")):
            file.binary = True

    def _hunk(self, line: str) -> None:
        start = self.at  # 1-based number of the header line
        match = _HUNK.match(line)
        if match is None:
            raise DiffError(start, f"{_shown(line)} is not a hunk header like "
                            "`@@ -12,7 +12,9 @@`")
        if self.current is None:  # a bare hunk with no file headers: one unnamed file
            self.files.append(_File(old="(unnamed)", new="(unnamed)"))
        file = self.current
        assert file is not None
        if file.seen_minus and file.new is None and file.old is None:
            raise DiffError(start, "a hunk for a file with neither an old nor a new path")
        old_start, new_start = int(match.group(1)), int(match.group(3))
        old_count = int(match.group(2)) if match.group(2) is not None else 1
        new_count = int(match.group(4)) if match.group(4) is not None else 1
        body = self._body(start, old_start, old_count, new_start, new_count)
        file.hunks.append(Hunk(old_start, old_count, new_start, new_count, body,
                               match.group(5).strip()))

    def _body(self, start: int, old: int, old_left: int, new: int,
              new_left: int) -> tuple[Line, ...]:
        """The hunk's lines, exactly as many as its header announces."""
        out: list[Line] = []
        old, new = (old if old_left else old + 1), (new if new_left else new + 1)
        while old_left > 0 or new_left > 0:
            if self.at >= len(self.lines):
                raise DiffError(start, f"the hunk ends early: its header announces "
                                f"{old_left} more old and {new_left} more new line(s)")
            text = self.lines[self.at]
            mark, rest = (text[:1] or " "), text[1:]  # git drops the space of a blank line
            if mark == "\\" and out:
                out[-1] = Line(out[-1].kind, out[-1].text, out[-1].old, out[-1].new, False)
                self.at += 1
                continue
            if mark not in " +-" or (mark == " " and (old_left == 0 or new_left == 0)) or \
                    (mark == "-" and old_left == 0) or (mark == "+" and new_left == 0):
                raise DiffError(self.at + 1, f"{_shown(text)} does not fit the hunk at line "
                                f"{start}: it still expects {old_left} old and {new_left} new "
                                "line(s)")
            self.at += 1
            if mark == " ":
                out.append(Line("context", rest, old, new))
                old, new, old_left, new_left = old + 1, new + 1, old_left - 1, new_left - 1
            elif mark == "-":
                out.append(Line("removed", rest, old, None))
                old, old_left = old + 1, old_left - 1
            else:
                out.append(Line("added", rest, None, new))
                new, new_left = new + 1, new_left - 1
        self._eol_marker(out)
        self._overlong(start)
        return tuple(out)

    def _eol_marker(self, out: list[Line]) -> None:
        if self.at < len(self.lines) and self.lines[self.at] == _NO_EOL and out:
            last = out[-1]
            out[-1] = Line(last.kind, last.text, last.old, last.new, False)
            self.at += 1

    def _overlong(self, start: int) -> None:
        """A `+` or `-` line right after a complete hunk means the header undercounted."""
        if self.at >= len(self.lines):
            return
        text = self.lines[self.at]
        # ("-- " closes the patch of `git format-patch`: its signature follows.)
        if text[:1] in ("+", "-") and text != "-- " and not text.startswith(("--- ", "+++ ")):
            raise DiffError(self.at + 1, f"{_shown(text)} comes after the hunk at line {start} "
                            "has all the lines its header announces")


def _shown(line: str, width: int = 40) -> str:
    text = line if len(line) <= width else line[: width - 1] + "…"
    return f"`{text}`"


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _path(raw: str, git: bool) -> str | None:
    """A header's path without its timestamp or its a/ b/ prefix; None for /dev/null."""
    name = raw.split("\t", 1)[0].rstrip()
    # A name's control characters (an escape sequence, a bell) are never passed on to a
    # terminal or a page: shown as "?", as ls shows them.
    name = _CONTROL.sub("?", _unquote(name))
    if name == "/dev/null":
        return None
    if (git or re.match(r"^[ab]/", name)) and name[:2] in ("a/", "b/"):
        return name[2:]
    return name


def _unquote(name: str) -> str:
    """git quotes unusual paths C-style: "a/caf\\303\\251.py"."""
    if len(name) < 2 or not (name.startswith('"') and name.endswith('"')):
        return name
    raw = name[1:-1].encode("latin-1", "backslashreplace")
    try:
        return raw.decode("unicode_escape").encode("latin-1").decode("utf-8")
    except (UnicodeDecodeError, UnicodeEncodeError):
        return name[1:-1]
