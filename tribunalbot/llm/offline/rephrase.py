"""A juror's own words for what the analysis says in one fixed sentence.

The analysis gives every topic one fix ("Add a unit test per branch") and every kind of
weak spot one piece of advice; jurors arguing about the same finding in one game would
otherwise all repeat it. Here each is told in several ways, as choice grammars for
arguments.say: the fix's leading verb in other words, advice without a finding as the
juror's own short sentence about the line. A topic's names and its fix in a juror's own
words are in its record (topics/).
"""

from __future__ import annotations

# Other words for the verb a fix starts with (the rest of the fix reads after any of them).
VERBS: dict[str, str] = {
    "use": "[use|adopt|prefer|choose]",
    "give": "[give|assign|hand]",
    "add": "[add|write|supply|include]",
    "inject": "[inject|supply|provide]",
    "pass": "[pass|send|supply]",
    "keep": "[keep|leave]",
    "check": "[check|verify|test]",
    "fix": "[fix|repair|mend]",
    "delete": "[delete|remove|drop]",
    "drop": "[drop|remove|delete]",
    "split": "[split|divide]",
    "document": "[document|explain|record]",
    "catch": "[catch|trap|intercept]",
    "follow": "[follow|match|respect|adopt]",
    "flatten": "[flatten|unnest|straighten]",
    "fetch": "[fetch|load|read]",
    "move": "[move|shift|relocate]",
    "rename": "[rename|retitle]",
    "quote": "[quote|protect|escape]",
    "validate": "[validate|vet|check]",
    "return": "[return|give back]",
    "wrap": "[wrap|enclose]",
    "define": "[define|declare]",
    "handle": "[handle|treat|manage]",
    "raise": "[raise|throw]",
}


def fix_parts(fix: str) -> tuple[str, str]:
    """(choice grammar for the fix's leading verb, the rest of the fix as written)."""
    verb, _, rest = fix.partition(" ")
    return VERBS.get(verb.lower(), verb.replace("[", "(").replace("]", ")")), rest


# What should have been said where the analysis has no finding at the line argued.
NO_FINDING = ("[grant|admit|say plainly] that line {n} [is fine|needs nothing|can stay]",
              "[leave|keep] line {n} [alone|as written|untouched]",
              "[nothing|no change] [at|for] line {n}, [said|stated] [once|briefly]",
              "line {n} [works|holds up]; [say so|admit it] and [stop|move on]")

# What a review resting on one claim should have done instead.
RANKED = ("[rank|order|sort] [its|the] [findings|points|problems] [worst first|by "
          "weight|by severity]",
          "[lead with|open on|start from] the [worst|gravest|heaviest] [finding|problem|"
          "flaw]",
          "[weigh|grade] [each|every] [finding|point], [worst|heaviest] first",
          "[cover|read|review] the [whole|entire|full] [file|code] first",
          "[say|put] the [serious|big|heavy] [things|problems] [first|up front|on top]",
          "[look|read] past line {n} [first|too|as well]")
