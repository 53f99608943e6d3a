"""Readability: names, docstrings, types, quoting and the old ways of shell, magic numbers, to-dos
and comparisons a reader stumbles on. One record per topic (topic.TopicRecord).
"""

from __future__ import annotations

from tribunalbot.llm.offline import vet, vetapi, vetforms, vetshell
from tribunalbot.llm.offline.rules import COMMENT, JS_TS, PYTHON, SHELL, TYPESCRIPT, rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "dx_advocate"

RECORDS: dict[Topic, TopicRecord] = {
    Topic.VAGUE_NAME: TopicRecord(
        domain=OWNER, severity=2,
        problem="uses a name that says nothing about intent",
        fix="Rename it after what it means",
        more_fixes=(
            "Give it a name that says what it means",
            "Choose a name that reflects its meaning",
            "Call it something that conveys its purpose",
            "Rename it to describe what it stands for",
            "Pick a name that states its intent",
            "Replace the name with one that explains the meaning",
            "Name it for what it represents",
        ),
        label="vague name",
        names="[vague name|name that says nothing|meaningless name|opaque name]",
        ruff=("E741",),
        rules=(
            rule(r"^\s*(def|func|function)\s+(proc|do|doit|tmp|f|g|foo|stuff)\b", detail=2),
            rule(r"^\s*(const\s+|let\s+|var\s+)?([a-df-hl-mo-z])\s*:?=[^=]", detail=2),
            rule(r"^\s*for\s+([a-z])\b", SHELL, detail=1),
        ),
        check=vet.name_is_vague,
    ),
    Topic.NAMING: TopicRecord(
        domain=OWNER, severity=2,
        problem="breaks the naming conventions readers rely on",
        fix="Follow the language's naming style",
        more_fixes=(
            "Use the naming conventions of the language",
            "Match the idioms the language uses for names",
            "Rename it to fit the language's conventions",
            "Stick to the naming rules the language expects",
            "Adopt the language's usual naming conventions",
            "Bring the name in line with the language's style",
            "Name things the way the language's conventions say",
        ),
        label="naming problem",
        names="[naming problem|misleading name|poorly chosen name|name off-style|unidiomatic name]",
        ruff=("N8",),
        check=vetapi.name_free_to_change,
        juror_fix="[[follow|match|respect|adopt|keep to] the [language's|usual|"
                  "house] naming [style|conventions|rules]|[rename|restyle] it [idiomatically|"
                  "to convention|the usual way]|[spell|write] the name [idiomatically|"
                  "conventionally|the usual way]]",
    ),
    Topic.MISSING_DOCSTRING: TopicRecord(
        domain=OWNER, severity=1,
        problem="exposes a public function with no docstring",
        fix="Document what it returns and when it fails",
        more_fixes=(
            "Add a docstring covering its return value and failure cases",
            "Write down what it returns and under which conditions it fails",
            "Describe its result and its failure conditions in a docstring",
            "Give it a docstring stating the return value and the errors",
            "Explain in a docstring what comes back and when it raises",
            "Note the return value and the failure conditions in its docstring",
            "Say in its docstring what it gives back and when it errors",
        ),
        label="missing docstring",
        names="[missing docstring|undocumented function|docstring gap|function left undocumented|"
              "function with no docstring]",
        ruff=("D102", "D103"),
        check=vet.docstring_is_missing,
        juror_fix="[[document|note] [its return value|what it returns]|[add|write|supply] [a|"
                  "its] docstring|give [it|the function] a docstring]",
    ),
    Topic.MODULE_DOCSTRING: TopicRecord(
        domain=OWNER, severity=1,
        problem="opens a module with no docstring saying what it is for",
        fix="Add a one-line module docstring",
        more_fixes=(
            "Open the file with a one-line docstring",
            "Write a single-line docstring for the module",
            "Put a one-line docstring at the top of the module",
            "Give the file a one-sentence docstring saying what it is for",
            "Start the module with a short one-line docstring",
            "Include a one-line docstring stating the module's purpose",
            "Describe the module in a one-line docstring",
        ),
        label="missing module docstring",
        names="[missing module docstring|undocumented module|module without a docstring|"
              "docstring-less module|module lacking a docstring]",
        ruff=("D100", "D104"),
        check=vet.module_docstring_missing,
        juror_fix="[[add|write|give it] a [short|brief] [module|header] docstring|[document|"
                  "explain] the module [up top|at the top|first]|[say|"
                  "state] what the module [is for|does]]",
    ),
    Topic.CLASS_DOCSTRING: TopicRecord(
        domain=OWNER, severity=1,
        problem="declares a public class with no docstring",
        fix="Document what the class represents",
        more_fixes=(
            "Add a docstring saying what the class stands for",
            "Describe the class's meaning in a docstring",
            "Write a docstring explaining what the class models",
            "Give the class a docstring stating what it represents",
            "Explain in a docstring what an instance of the class is",
            "State in the class docstring what it represents",
            "Say in a docstring what each instance stands for",
        ),
        label="missing class docstring",
        names="[missing class docstring|undocumented class|class without a docstring|"
              "class left undocumented|docstring-less class]",
        ruff=("D101", "D106"),
        check=vet.docstring_is_missing,
        juror_fix="[[document|explain|describe] what the class [represents|stands for|models]|"
                  "give the class a docstring|[say|note] what the class [is for|holds]]",
    ),
    Topic.WEAK_TYPING: TopicRecord(
        domain=OWNER, severity=2,
        problem="escapes the type checker with any",
        fix="Give it a real type",
        more_fixes=(
            "Annotate it with a concrete type",
            "Replace any with a real type",
            "Type it precisely",
            "Use a specific type for it",
            "Declare an actual type instead",
            "Assign it a proper type",
            "Spell out its real type",
        ),
        label="type-checker escape",
        names="[type-checker escape|loose any type|untyped value|any-typed value]",
        rules=(
            rule(r":\s*any\b|\bas\s+any\b", TYPESCRIPT),
        ),
    ),
    Topic.UNQUOTED_VAR: TopicRecord(
        domain=OWNER, severity=2,
        problem="expands a variable unquoted, so spaces split it",
        fix="Quote the expansion",
        more_fixes=(
            "Put double quotes around the expansion",
            "Wrap the variable in quotes",
            "Add quotes around the variable expansion",
            "Double-quote the variable",
            "Enclose the expansion in double quotes",
            "Write the expansion inside quotes",
            "Surround the variable with quotes",
        ),
        label="unquoted variable",
        names="[unquoted variable|unquoted expansion|word-splitting expansion|"
              "bare variable expansion]",
        rules=(
            rule(r"^\s*(rm|cp|mv|cd|cat|chmod|chown)\s[^\"'#\n]*\$\{?\w", SHELL),
            # In a test, an empty or spaced value breaks the expression (`[ = x ]`, `[ -n ]` is
            # true).
            rule(r"(?:\[|\btest)\s+(?:!\s+)?(?:-n\s+\$\{?(?:\w+|[1-9])\}?\s|"
                 r"\$\{?(?:[A-Za-z_]\w*|[1-9])\}?\s+!?==?\s)", SHELL),
        ),
        check=vetshell.expansion_may_split,
    ),
    Topic.BACKTICKS: TopicRecord(
        domain=OWNER, severity=1,
        noted=True,
        problem="substitutes a command with backticks, which nest and quote badly",
        fix="Use $(...) instead",
        more_fixes=(
            "Replace the backticks with $(...)",
            "Switch to $(...) for the substitution",
            "Write the command substitution as $(...)",
            "Substitute with $(...) in place of backticks",
            "Prefer $(...) over backticks",
            "Change the backticks to $(...)",
            "Express the substitution with $(...)",
        ),
        label="backtick substitution",
        names="[backtick substitution|backtick command|legacy backtick call|"
              "old-style substitution|command in backquotes]",
        rules=(
            rule(r"(?<!\\)`[^`]+(?<!\\)`", SHELL),
        ),
        check=vetshell.backticks_nest_or_quote,
        juror_fix="[use $(...) instead|[switch|move|change] to $(...)|[write|spell] it [as|"
                  "with] $(...)|[replace|swap] the backticks [with|for] $(...)]",
    ),
    Topic.OLD_ARITHMETIC: TopicRecord(
        domain=OWNER, severity=1,
        noted=True,
        problem="does arithmetic the old way (expr, a process per sum, or $[...]), where POSIX "
                "$((...)) does it in the shell",
        fix="Use $((...))",
        more_fixes=(
            "Switch to $((...))",
            "Do the arithmetic with $((...))",
            "Replace it with POSIX $((...))",
            "Write the sum as $((...))",
            "Compute it in the shell with $((...))",
            "Change it to $((...)) arithmetic",
            "Express the calculation as $((...))",
        ),
        label="expr arithmetic",
        names="[expr arithmetic|forked sum|old-style arithmetic]",
        rules=(
            rule(r"\bexpr\s+[\w$\"{}]+\s+[-+*/%]\s|\$\[[^\]]+\]", SHELL),
        ),
    ),
    Topic.ECHO_OPTIONS: TopicRecord(
        domain=OWNER, severity=2,
        stated=True,
        problem="passes -e to echo in a #!/bin/sh script, where dash's echo prints the -e itself",
        fix="Use printf, which means the same in every shell",
        more_fixes=(
            "Switch to printf, which behaves the same in all shells",
            "Replace echo -e with printf, which is portable across shells",
            "Print with printf, whose meaning is consistent everywhere",
            "Call printf instead, since every shell reads it alike",
            "Write the output with printf so it is the same in any shell",
            "Move to printf, which every shell treats identically",
            "Change echo to printf for the same behavior in each shell",
        ),
        label="echo -e in sh",
        names="[echo -e in sh|non-portable echo|echo with flags|echo option in sh]",
        rules=(
            rule(r"(?:^|[;&|(]|\bthen|\bdo|\belse)\s*echo\s+-[nE]*e[nE]*\s", SHELL),
        ),
        check=vetshell.echo_under_sh,
        proven=True,
    ),
    Topic.SQL_NO_COMMENT: TopicRecord(
        domain=OWNER, severity=1,
        problem="creates a function with no COMMENT ON, unlike the ones this file describes, so "
                "the catalog says nothing of it",
        fix="Add a COMMENT ON FUNCTION saying what it computes",
        more_fixes=(
            "Describe what the function computes in a COMMENT ON FUNCTION",
            "Write a COMMENT ON FUNCTION explaining its result",
            "Attach a COMMENT ON FUNCTION that states what it computes",
            "Give it a COMMENT ON FUNCTION describing the computation",
            "Record what it calculates with a COMMENT ON FUNCTION",
            "Document the function via COMMENT ON FUNCTION, saying what it returns",
            "Follow the file's pattern with a COMMENT ON FUNCTION on what it computes",
        ),
        label="undocumented SQL function",
        names="[undocumented SQL function|function with no COMMENT ON|uncommented function|"
              "function nobody described]",
        detectors=("shellsql",),
    ),
    Topic.MAGIC_NUMBER: TopicRecord(
        domain=OWNER, severity=1,
        problem="compares against an unexplained literal",
        fix="Give the value a named constant",
        more_fixes=(
            "Replace the literal with a named constant",
            "Move the number into a well-named constant",
            "Name the value as a constant",
            "Define a constant for the literal and use it",
            "Put the value behind a descriptive constant name",
            "Extract the literal into a named constant",
            "Introduce a constant whose name explains the value",
        ),
        label="magic number",
        names="[magic number|unexplained literal|bare constant|unnamed number]",
        ruff=("PLR2004",),
        check=vetapi.number_unexplained,
    ),
    Topic.TODO: TopicRecord(
        domain=OWNER, severity=2,
        problem="leaves a TODO that the next developer inherits",
        fix="Resolve it or turn it into a tracked issue",
        more_fixes=(
            "Do the work now or file it as a tracked issue",
            "Fix the TODO or open a ticket for it",
            "Settle it, or move it into the issue tracker",
            "Address it or record it as an issue that is tracked",
            "Either finish it or convert it into a tracked ticket",
            "Close it out, or log it as an issue in the tracker",
            "Complete it, or replace it with a link to a tracked issue",
        ),
        label="open TODO",
        names="[open TODO|unresolved TODO|TODO left behind|stray TODO]",
        ruff=("FIX",),
        rules=(
            rule(r"\b(TODO|FIXME|XXX|HACK)\b", reads=COMMENT),
        ),
        check=vet.todo_starts_here,
    ),
    Topic.NONE_COMPARE: TopicRecord(
        domain=OWNER, severity=1,
        noted=True,
        problem="compares to None with == or !=",  # `!= None` too (round 62)
        # `is` alone: "or test the value itself" would turn `!= False` into a truth test
        # that also rejects an empty list (blind round 15's readers caught it).
        fix="Use `is` or `is not` for that comparison",
        more_fixes=(
            "Compare with `is` or `is not` instead of ==",
            "Switch the == or != to `is` or `is not`",
            "Replace == with `is`, and != with `is not`",
            "Write the comparison with `is` or `is not`",
            "Use an identity check, `is` or `is not`",
            "Test identity with `is` or `is not` there",
            "Drop the == or != for `is` or `is not`",
        ),
        label="comparison to None",
        names="[comparison to None|equality test on None|None check written with ==]",
        ruff=("E711",),  # not E712 (`== True`): see ruffscan.SILENCED
        rules=(
            rule(r"[=!]=\s*None\b", PYTHON),
        ),
        check=vetforms.compares_to_none,
    ),
    Topic.LOOSE_EQUALITY: TopicRecord(
        domain=OWNER, severity=2,
        problem="uses loose equality or var scoping",
        fix="Use strict equality and const/let",
        more_fixes=(
            "Switch to strict equality and declare with const/let",
            "Compare with strict equality and replace var with const/let",
            "Write === comparisons and scope variables with const/let",
            "Move to strict comparisons and const/let declarations",
            "Tighten loose comparisons into strict ones, and declare variables with const/let",
            "Adopt strict equality and block-scoped const/let",
            "Prefer strict equality, and const/let over var",
        ),
        label="loose equality",
        names="[loose equality|non-strict comparison|var-scoped declaration|"
              "type-coercing comparison]",
        rules=(
            rule(r"[^=!<>]==[^=]|^\s*var\s", JS_TS),
        ),
        check=vet.equality_is_loose,
    ),
    Topic.UNUSED: TopicRecord(
        domain=OWNER, severity=1,
        problem="keeps a variable it never uses",
        fix="Delete it, or name it _ where something must bind it",
        more_fixes=(
            "Remove the variable, or call it _ where a binding is required",
            "Drop it, or rename it to _ if it has to be bound",
            "Get rid of it, or use _ where the syntax needs a name",
            "Take it out, or bind it as _ when something requires a target",
            "Remove it, and where a binding is unavoidable, name it _",
            "Rename it _ where it must be bound, and otherwise delete it",
            "Erase the variable, or bind it to _ where binding is mandatory",
        ),
        label="dead code",
        names="[dead code|unused variable|variable nothing reads|leftover binding]",
        ruff=("B007", "F841"),
        check=vet.binding_is_unused,
    ),
}
