"""A juror's own words for what the analysis says in one fixed sentence.

The analysis gives every topic one fix ("Add a unit test per branch") and every kind of
weak spot one piece of advice; jurors arguing about the same finding in one game would
otherwise all repeat it. Here each is told in several ways, as choice grammars for
arguments.say: the fix's leading verb in other words, advice without a finding as the
juror's own short sentence about the line.
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


# A topic's name in several words, for the topics argued most: jurors naming the same
# finding in one game say it differently. Each is a noun phrase taking "a"/"an" by its
# first letter, as arguments.label's are.
ALIASES: dict[str, str] = {
    "long_function": "[long function|sprawling function|oversized function|function that "
                     "sprawls|bloated function|endless function|overlong function|overgrown "
                     "function|long-winded function]",
    "naming": "[naming problem|misleading name|poorly chosen name|name off-style|"
              "unidiomatic name|name against convention|unconventional name|badly styled "
              "name|name that breaks convention]",
    "deep_nesting": "[deeply nested block|nest of branches|buried block|tower of ifs|"
                    "over-nested block|staircase of nested blocks|pile of nested ifs|block "
                    "buried under branches]",
    "missing_docstring": "[missing docstring|undocumented function|docstring gap|"
                         "function left undocumented|function with no docstring|"
                         "unexplained function]",
    "class_docstring": "[missing class docstring|undocumented class|class without a "
                       "docstring|class left undocumented|docstring-less class|"
                       "unexplained class]",
    "untested_branch": "[untested branch|branch nobody tests|unexercised path|branch "
                       "lacking tests|path no test reaches]",
    "backticks": "[backtick substitution|backtick command|legacy backtick call|"
                 "old-style substitution|command in backquotes|backquoted command|dated "
                 "substitution form|backtick expansion]",
    "module_docstring": "[missing module docstring|undocumented module|module without "
                        "a docstring|docstring-less module|module lacking a "
                        "docstring|unexplained module]",
    "third_party": "[third-party import|outside dependency|external package|foreign "
                   "import]",
    "ignored_error": "[ignored error|unchecked error|swallowed failure|dropped error|"
                     "discarded error|error nobody checks|error result thrown away|failure "
                     "left unchecked]",
    "hidden_side_effect": "[hidden side effect|surprise mutation|quiet side effect|"
                          "sneaky mutation|effect callers cannot see]",
    "assert_in_code": "[assert doing real checks|assert as guard|assert-based check|"
                      "fragile assert|guard that -O "
                      "strips|assert used as a guard]",
    "wrapped_error": "[lost error cause|thinly wrapped error|error stripped of cause]",
    "complexity": "[branch-heavy function|branchy function|tangle of branches|function "
                  "with too many branches|knot of conditions]",
    "simplify": "[needless detour|roundabout construct|long way round|convoluted "
                "construct|overworked expression]",
    "blocking_io": "[blocking call|loop-stalling call|blocking I/O]",
    "broad_except": "[catch-all except|overbroad except|blanket handler]",
    "unused_import": "[unused import|idle import|dead import|import nothing uses]",
    "import_style": "[star import|wildcard import|import of everything|blanket import]",
    "n_plus_one": "[query per item|per-item query|query run inside the loop|unbatched "
                  "query|one-query-per-row loop|looped query]",
    "warn_stacklevel": "[warning without a stacklevel|stacklevel-less warning|warning that "
                       "blames itself]",
    "magic_number": "[magic number|unexplained literal|bare constant|unnamed number]",
    "vague_name": "[vague name|name that says nothing|meaningless name|opaque name]",
    "unused": "[dead code|unused variable|variable nothing reads|leftover binding]",
    "todo": "[open TODO|unresolved TODO|TODO left behind|stray TODO]",
    "global_state": "[global state|module-level state|shared global|process-wide "
                    "variable]",
    "mutable_default": "[mutable default|shared default argument|mutable default "
                       "argument|default list shared between calls]",
    "print_output": "[stray print|print left in|bare print call|print to stdout]",
    "none_compare": "[comparison to None|equality test on None|None check written with ==]",
    "old_arithmetic": "[expr arithmetic|forked sum|old-style arithmetic]",
    "sql_no_comment": "[undocumented SQL function|function the catalog says nothing of|"
                      "function with no COMMENT ON|uncommented function|function left out of "
                      "the comments|function nobody described]",
    "unset_variable": "[never-set variable|variable nothing assigns|always-empty variable]",
    "deprecated_kept": "[obsolete definition kept|deprecated definition still shipped|"
                       "leftover obsolete definition]",
}


# A short fix in several wordings, for the topics argued most (each an imperative, as
# SHOULD's lead-ins need; the meaning of topics.py's fix unchanged).
FIXES: dict[str, str] = {
    "naming": "[[follow|match|respect|adopt|keep to] the [language's|usual|house] naming "
              "[style|conventions|rules]|[rename|restyle] it [idiomatically|to convention|"
              "the usual way]|[spell|write] the name [idiomatically|conventionally|the usual "
              "way]]",
    "backticks": "[use $(...) instead|[switch|move|change] to $(...)|[write|spell] it [as|"
                 "with] $(...)|[replace|swap] the backticks [with|for] $(...)]",
    "class_docstring": "[[document|explain|describe] what the class [represents|stands "
                       "for|models]|give the class a docstring|[say|note] what "
                       "the class [is for|holds]]",
    "module_docstring": "[[add|write|give it] a [short|brief] [module|header] docstring|"
                        "[document|explain] the module [up top|at the top|first]|[say|state] "
                        "what the module [is for|does]]",
    "deep_nesting": "[[flatten|unnest] it with guard clauses|[return|bail out] early "
                    "[instead|]|[pull|lift|move] the inner [block|branch] out|[straighten|"
                    "flatten] [it|the nesting] [out|]]",
    "simplify": "[use the simpler form|[say|write] it [plainly|directly|the short way]|"
                "[drop|cut|skip] the detour|[pick|take] the [plain|simpler|shorter] "
                "[construct|form]]",
    "complexity": "[split it and return early|[break|cut|split] it [up|apart]|[peel|pull] "
                  "[out|off] [some|a few] branches|[shed|trim] [its|the] branches]",
    "unused_import": "[drop the import|[delete|remove|cut] the [unused|idle] import|"
                     "[take out|strip] the import]",
    "missing_docstring": "[[document|note] [its return value|what it returns]|[add|write|supply] "
                         "[a|its] docstring|give [it|the function] a docstring]",
}
