"""Simplicity: branches, nesting, layers with one implementation, roundabout forms. One record per
topic (topic.TopicRecord).
"""

from __future__ import annotations

from tribunalbot.llm.offline import vet, vetforms
from tribunalbot.llm.offline.rules import rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "simplicity_zealot"

RECORDS: dict[Topic, TopicRecord] = {
    Topic.COMPLEXITY: TopicRecord(
        domain=OWNER, severity=3,
        problem="packs too many branches into one function",
        fix="Split it and return early",
        more_fixes=(
            "Break it into smaller functions and use early returns",
            "Divide the function and exit early",
            "Use early returns and split it up",
            "Decompose it into parts and return as soon as you can",
            "Extract pieces into functions and bail out early",
            "Separate it into smaller units with early returns",
            "Cut it into pieces and return from it early",
        ),
        label="branch-heavy function",
        names="[branch-heavy function|branchy function|tangle of branches|"
              "function with too many branches|knot of conditions]",
        ruff=("C90", "PLR0912"),
        earns=(("rewrite", 1),),
        reason="branches too many ways in one function",
        juror_fix="[split it and return early|[break|cut|split] it [up|apart]|[peel|pull] [out|"
                  "off] [some|a few] branches|[shed|trim] [its|the] branches]",
        proven=True,
    ),
    Topic.DEEP_NESTING: TopicRecord(
        domain=OWNER, severity=3,
        problem="nests its logic several blocks deep",
        fix="Flatten it with guard clauses or a helper",
        more_fixes=(
            "Reduce the nesting with guard clauses or a helper function",
            "Use early-exit guards or extract a helper to flatten it",
            "Unnest the logic using guard clauses or a helper",
            "Pull the inner blocks into a helper, or add guard clauses",
            "Replace the nesting with guard clauses, or move it into a helper",
            "Lower the depth with guard clauses or an extracted function",
            "Add guard clauses or a helper so the logic sits flat",
        ),
        label="deeply nested block",
        names="[deeply nested block|nest of branches|buried block|tower of ifs|over-nested block]",
        detectors=("heuristics",),
        earns=(("rewrite", 1),),
        reason="is nested too deep to follow",
        juror_fix="[[flatten|unnest] it with guard clauses|[return|bail out] early [instead|]|"
                  "[pull|lift|move] the inner [block|branch] out|[straighten|flatten] [it|"
                  "the nesting] [out|]]",
        proven=True,
    ),
    Topic.NEEDLESS_ABSTRACTION: TopicRecord(
        domain=OWNER, severity=3,
        problem="adds a layer that has exactly one implementation",
        fix="Delete the layer and call the concrete code",
        more_fixes=(
            "Remove the layer and call the implementation directly",
            "Drop the indirection and use the concrete code",
            "Inline the layer and invoke the concrete code",
            "Get rid of the extra layer and call the real implementation",
            "Collapse the layer into direct calls to the concrete code",
            "Take the layer out and call the single implementation",
            "Route callers straight to the concrete code, without the layer",
        ),
        label="single-use abstraction",
        names="[single-use abstraction|needless layer|layer with one implementation|"
              "premature abstraction]",
        rules=(
            rule(r"\bclass\s+(\w*(Factory|Interface|Abstract|Strategy)\w*)|"
                 r"\bclass\s+(\w+)\(ABC\)|^type\s+(\w+Interface)\s+interface"),
        ),
        check=vet.has_one_implementation,
    ),
    Topic.SIMPLIFY: TopicRecord(
        domain=OWNER, severity=1,
        noted=True,
        problem="says in a roundabout way what a simpler construct says",
        fix="Use the simpler form",
        more_fixes=(
            "Switch to the simpler construct",
            "Replace it with the simpler form",
            "Write it the simple way",
            "Express it with the plainer construct",
            "Prefer the simpler construct",
            "Choose the plainer way of saying it",
            "Reduce it to the simpler construct",
        ),
        label="needless detour",
        names="[needless detour|roundabout construct|long way round|convoluted construct|"
              "overworked expression]",
        ruff=("PERF401", "PERF402", "PERF403", "TRY203", "B009", "B010", "E713", "E714", "SIM"),
        forms=(
            ("SIM101", "merge the `isinstance` calls into one with a tuple of types"),
            ("SIM102", "merge the nested `if` statements into one condition joined by `and`"),
            # bool(): a match object or a count is not the True or False the if returned;
            # `not`: an if that returns False when it holds (lizard's checks, round 111).
            ("SIM103", "return the condition (with `not` where the if returns False, as "
                       "`bool(...)` where it is not a bool already) instead of True or False "
                       "from an if"),
            ("SIM114", "join the branches that do the same thing with `or`"),
            ("SIM117", "merge the nested `with` statements into one"),
            # One wording for both shapes the rule finds: a loop, and a membership test that
            # "iterate" misnamed (blind rounds 58-60).
            ("SIM118", "drop the `.keys()`, since a loop over the dict or an `in` test on "
                       "it reads its keys already"),
            ("SIM201", "write `!=` instead of `not ... ==`"),
            ("SIM202", "write `==` instead of `not ... !=`"),
            ("SIM401", "use `dict.get(key, default)` in place of the if/else"),
            ("E713", "write `x not in y` instead of `not x in y`"),
            ("E714", "write `x is not y` instead of `not x is y`"),
            ("B009", "read the attribute directly instead of through `getattr` with a fixed name"),
            ("B010", "set the attribute directly instead of through `setattr` with a fixed name"),
            ("PERF401", "build the list with a comprehension"),
            # Not "copy it with list(...)": the list may hold items already (round 17).
            # A loop that copies into an empty list is `list(...)` (blind rounds 74, 75).
            ("PERF402", "add the items in one call: `.extend(...)` onto a list that "
                        "already holds items, `list(...)` where it starts empty"),
            ("PERF403", "build the dict with a comprehension"),
            ("TRY203", "drop the handler that only raises again"),
        ),
        check=vetforms.plain_form_holds,
        juror_fix="[use the simpler form|[say|write] it [plainly|directly|the short way]|[drop|"
                  "cut|skip] the detour|[pick|take] the [plain|simpler|shorter] [construct|form]]",
    ),
}
