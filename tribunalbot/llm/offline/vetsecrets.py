"""Is a literal a credential? A key or password written into the source is one, unless it is
the name a secret is looked up by, or a stand-in a sample file asks its user to replace."""

from __future__ import annotations

import re
from itertools import pairwise

from tribunalbot.llm.offline.vetcontext import Candidate, Context

_CREDENTIAL = re.compile(r"[\"'`]([^\"'`\s]{6,})[\"'`]")


def literal_is_a_credential(f: Candidate, ctx: Context) -> bool:
    """A literal that looks like a credential: letters and digits, no placeholder, and not
    the name a secret is looked up by (`'mage_git_ssh_private_key_b64'`, round 52), nor a
    sample's stand-in (`_made_up`)."""
    if any(_ASKS_TO_EDIT.search(x) for x in ctx.lines[max(0, f.line - 6) : f.line]):
        return False  # "# Change these values to configure authentication" (round 57)
    for value in _CREDENTIAL.findall(ctx.text(f.line)):
        if _made_up(value):
            continue
        if re.fullmatch(r"([a-z]+|[a-z0-9]{1,4})([_.-]([a-z]+|[a-z0-9]{1,4})){2,}", value):
            continue  # words in snake or kebab case (`mage_git_ssh_private_key_b64`): a name
        if re.search(r"\d", value) and re.search(r"[A-Za-z]", value) and not re.search(
                r"[{}%<>$]|^x+$|example\.(com|org)|changeme|/", value, re.I):
            return True
        if len(value) >= 16 and re.search(r"\d", value):
            return True
    return False


# A sample configuration's comment telling its user to put their own values in.
_ASKS_TO_EDIT = re.compile(r"(?i)#.*\b(change|replace|edit|fill in|set) (these|this|the)\b"
                           r".*\b(values?|keys?|credentials?|settings?)\b|#.*\byour own\b")
_RUN = 10  # characters counted out in order (`0123456789`): no generated key holds such a run


def _made_up(value: str) -> bool:
    """A stand-in typed by hand: characters counted out in order (`0123456789abcdef` twice, a
    sample config's key, blind round 57). A short run (`admin123456`) may be a real, weak
    password, and is still said."""
    steps = [ord(b) - ord(a) == 1 for a, b in pairwise(value)]
    longest = run = 0
    for step in steps:
        run = run + 1 if step else 0
        longest = max(longest, run)
    return longest + 1 >= _RUN
