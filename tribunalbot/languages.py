"""The natural language the reviewers write their public text in (a game setting).

Not the programming language of the code under review (`GameSetup.language` is that). The
value is a language's name, as a person would write it in any script ("German", "Deutsch",
"日本語", "Brazilian Portuguese"); it goes into every reviewer's prompt, so it is checked to be
a short name and nothing else: no mention, no markdown, no line break, no instruction.
"""

from __future__ import annotations

import unicodedata

DEFAULT_LANGUAGE = "English"
MAX_NAME = 40
# Offered by autocomplete, named in English as the bot's own text is; any other name (in any
# script: "Deutsch", "日本語") passes the same check.
COMMON = ("English", "German", "French", "Spanish", "Portuguese", "Brazilian Portuguese",
          "Italian", "Dutch", "Polish", "Swedish", "Czech", "Ukrainian", "Russian", "Turkish",
          "Japanese", "Chinese (Simplified)", "Chinese (Traditional)", "Korean", "Hindi",
          "Indonesian", "Vietnamese", "Arabic", "Hebrew", "Greek")
_PUNCTUATION = frozenset(" -()")
_BREAKS = frozenset(("Cc", "Zl", "Zp"))  # control characters, line and paragraph separators
_MARKDOWN = frozenset("*_`~|[]\\")
RULE = ("Give a language's name: 1 to 40 letters of any script, spaces, hyphens or "
        "parentheses, such as German, Deutsch, 日本語 or Brazilian Portuguese")


def check_language(value: str) -> str:
    """`value` as a language name, tidied (one space between words, first letter upper
    case, "english" as the default's own spelling); raises ValueError saying what to give."""
    name = " ".join(unicodedata.normalize("NFKC", value).split())
    problem = _problem(value, name)
    if problem:
        raise ValueError(f"{RULE} ({problem})")
    if is_english(name):
        return DEFAULT_LANGUAGE
    return name[0].upper() + name[1:]


def is_english(language: str) -> bool:
    """The default: the prompts say nothing about language, exactly as before the setting."""
    return language.strip().casefold() == DEFAULT_LANGUAGE.casefold()


def english_only_notice(language: str) -> str:
    """What a player is told when the offline reviewer plays a game set to another language."""
    return (f"The offline reviewer writes English only, so its reviews are in English, "
            f"not {language}; a model provider writes them in {language}.")


def _problem(value: str, name: str) -> str:
    """What is wrong with `value` as a name (the value itself is never echoed: it may be a
    mention), or "" when nothing is."""
    if any(unicodedata.category(ch) in _BREAKS for ch in value):
        return "no line breaks or tabs"
    if not name:
        return "it is empty"
    if len(name) > MAX_NAME:
        return f"{len(name)} characters is too long"
    if any(ch in "@<>#&" for ch in name):
        return "no mentions or channel links"
    if any(unicodedata.category(ch) == "Nd" for ch in name):
        return "no digits"
    if any(ch in _MARKDOWN for ch in name):
        return "no markdown"
    if not all(_allowed(ch) for ch in name):
        return "only letters, spaces, hyphens and parentheses"
    if not unicodedata.category(name[0]).startswith("L"):
        return "it must start with a letter"
    if not _balanced(name):
        return "unbalanced parentheses"
    return ""


def _allowed(ch: str) -> bool:
    return ch in _PUNCTUATION or _is_letter(ch)


def _is_letter(ch: str) -> bool:
    # Marks too: Devanagari, Thai or Arabic names carry vowel signs (categories Mn, Mc).
    return unicodedata.category(ch)[0] in "LM"


def _balanced(name: str) -> bool:
    depth = 0
    for ch in name:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0
