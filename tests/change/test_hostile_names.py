"""Names a member controls never act on whoever reads them (issue 25): escape sequences in a
diff's file names never reach a terminal or a page, and markdown in a nickname or a left-out
file's name is shown as written, never as a link."""

from __future__ import annotations

import re

from tribunalbot.diffs import parse_diff
from tribunalbot.discordbot.render import announcement

TITLE = "\x1b]0;owned\x07"  # sets a terminal's title; \x1b[2J would clear its screen


def test_control_characters_in_a_diffs_file_names_are_shown_as_question_marks() -> None:
    quoted = '"b/\\033]0;owned\\007.py"'  # as git quotes such a name
    for header in (f"+++ {quoted}", f"+++ b/{TITLE}.py"):
        diff = (f"--- a/x.py\n{header}\n@@ -1,1 +1,2 @@\n x = 1\n+y = 2\n")
        path = parse_diff(diff).files[0].path
        assert "\x1b" not in path and "\x07" not in path, repr(path)
        assert path.endswith(".py") and "?" in path


def test_a_nickname_with_markdown_is_shown_as_written() -> None:
    nick = "[Claim your prize](https://example.com/x) **now**"
    description = announcement("python", 12, nick).description or ""
    assert re.search(r"(?<!\\)\[Claim", description) is None, description  # no link
    assert "\\[Claim your prize]" in description and "\\*\\*now\\*\\*" in description
