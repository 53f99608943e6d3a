"""Does a review stay in its persona's field? Judged by what the review is about, not by
counting the persona's keywords (DESIGN §2.8).

Each persona's field is a set of word stems: its keywords and the words its reviewers use for
the same things (an Architect writes of seams, adapters and decorators as much as of coupling).
A review is off its field only when it is plainly about another persona's: it touches its own
field at most once, and another field's words dominate it. A sound review in the persona's
own terms always passes, whatever words it happens to choose; a review written for another
persona still fails. The retry then says which field the review wandered into, never a list
of words to stuff.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from tribunalbot.engine.personas import PERSONA_BY_KEY, Persona

# The words beyond each persona's keywords that say a sentence is about its field.
_MORE: dict[str, tuple[str, ...]] = {
    "architect": ("seam", "adapter", "decorator", "strategy", "facade", "encapsul", "concern",
                  "helper", "class", "modular", "contract", "couple", "coupled", "decouple",
                  "inject", "extensib", "composition", "inherit", "structure", "api",
                  "namedtuple", "return type", "tuple", "policy", "own the", "owns"),
    "security_guardian": ("cve", "trust", "untrusted", "privilege", "permission", "chmod",
                          "symlink", "path traversal", "xss", "csrf", "leak", "disclos",
                          "hardcoded", "nosec", "tls", "certificate", "registry", "sandbox",
                          "toctou", "race", "taint", "shell", "eval", "exec", "attacker"),
    "performance_guru": ("o(1)", "o(log", "fork", "syscall", "buffer", "read", "write",
                         "scan", "pass over", "per call", "per line", "per file", "faster",
                         "slow", "cost", "overhead", "heap", "linear", "cpu", "ms", "bytes",
                         "stream", "pipe", "process", "spawn", "regex", "compile"),
    "test_skeptic": ("prove", "pytest", "case", "scenario", "reproduc", "fixture", "spec",
                     "untested", "tested", "verify", "expect", "would catch", "check that",
                     "input of", "given", "when"),
    "dx_advocate": ("reader", "readable", "error message", "usage", "help text", "typo",
                    "rename", "clear", "misleading", "surprise", "caller", "consisten",
                    "convention", "variable name", "magic", "self-document", "explain"),
    "error_philosopher": ("errno", "fail", "lost", "silent", "status", "exit", "abort",
                          "partial", "cleanup", "finally", "rollback", "trap", "propagat",
                          "caught", "catch", "throw", "reject", "warn", "diagnos", "stderr"),
    "dependency_watcher": ("requirement", "semver", "release", "python 3", "node ", "npm",
                           "pip", "compat", "support", "backport", "api change", "breaking",
                           "ecosystem", "third-party", "upstream", "bump", "lock",
                           "min version", "minimum", "legacy", "getopt", "builtin", "posix"),
    "simplicity_zealot": ("simple", "simpler", "delet", "needless", "one line", "fewer",
                          "branch", "flag", "layer", "wrapper", "dead code", "redundant",
                          "collapse", "merge", "drop", "boilerplate", "noise", "lines",
                          # a relayed game's sound review of duplication was read as DX's
                          # (tests/recordings/string-seed1): "the same function twice"
                          "twice", "copies", "halve", "trick", "clever", "shorter"),
}
OWN_AT_MOST = 1  # a review touching its own field this often or less may be off it
OTHER_AT_LEAST = 4  # ... when another field's words are this many, and thrice its own


@dataclass(frozen=True)
class FocusCheck:
    on_field: bool
    strayed_to: str = ""  # the persona whose field the review is about, when off its own


@cache
def _stems(key: str) -> tuple[re.Pattern[str], ...]:
    persona = PERSONA_BY_KEY[key]
    words = dict.fromkeys((*persona.keywords, *_MORE.get(key, ())))
    return tuple(re.compile(rf"(?<![\w]){re.escape(w.strip())}", re.I) for w in words)


def field_hits(text: str, key: str) -> int:
    """How many of a field's stems the text uses (each once)."""
    return sum(1 for stem in _stems(key) if stem.search(text))


def judge_focus(text: str, persona: Persona) -> FocusCheck:
    """Whether a review is about its persona's field."""
    if persona.key not in _MORE:  # the ghost reviewer has no field of its own
        return FocusCheck(True)
    own = field_hits(text, persona.key)
    if own > OWN_AT_MOST:
        return FocusCheck(True)
    others = {key: field_hits(text, key) for key in _MORE if key != persona.key}
    best = max(others, key=lambda k: others[k])
    if others[best] >= OTHER_AT_LEAST and others[best] >= 3 * max(own, 1):
        return FocusCheck(False, best)
    return FocusCheck(True)
