"""Architecture: long functions, shared state, mixed concerns, hard-wired clients, hidden side
effects. One record per topic (topic.TopicRecord).
"""

from __future__ import annotations

from tribunalbot.llm.offline import vet, vetapi
from tribunalbot.llm.offline.rules import rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "architect"
# Lines of code (not comments, docstrings or blank lines) that make a function long. A blind
# round's readers found a straight run of 20-25 steps no clearer split; from 30 they agreed it
# does several jobs. Here, where the finding says it, so the number said is the one used.
LONG_FUNCTION = 30

RECORDS: dict[Topic, TopicRecord] = {
    Topic.LONG_FUNCTION: TopicRecord(
        domain=OWNER, severity=3,
        problem=f"starts a long function ({LONG_FUNCTION} lines of code or more), too much to "
                "take in at once",
        fix="Split it into steps that each do one job",
        more_fixes=(
            "Break it into steps with one job apiece",
            "Divide it into single-purpose steps",
            "Extract each step into its own function with one job",
            "Separate it into smaller steps, each doing a single thing",
            "Decompose it into steps that have one responsibility each",
            "Cut it into parts, one job per part",
            "Pull each job out into its own step",
        ),
        label="long function",
        names="[long function|sprawling function|oversized function|function that sprawls|"
              "bloated function]",
        ruff=("PLR0915",),
        detectors=("heuristics",),
        earns=(("rewrite", 1),),
        reason="sits in a function too long to read in one pass",
        proven=True,
    ),
    Topic.GLOBAL_STATE: TopicRecord(
        domain=OWNER, severity=3,
        problem="keeps shared module-level state that every caller is coupled to",
        fix="Inject it where it is used",
        more_fixes=(
            "Pass it in where it is needed",
            "Hand it to its users as a parameter",
            "Provide it to each user explicitly",
            "Supply it as a dependency at the point of use",
            "Give it to the code that uses it as an argument",
            "Thread it through to where it is used",
            "Make callers pass it in explicitly",
        ),
        label="shared global",
        names="[global state|module-level state|shared global|process-wide variable]",
        ruff=("PLW0603",),
        rules=(
            rule(r"^(\w+)\s*=\s*[\w.]*(Flask|connect|Redis|Client|Session)\(|"
                 r"^(const|let|var)\s+\w+\s*=\s*[\w.]*(createConnection|Router|connect|Pool)\("),
        ),
        earns=(("abstraction", 2),),
        needs=("abstraction", 1),
        reason="leans on shared module-level state",
    ),
    Topic.MIXED_LAYERS: TopicRecord(
        domain=OWNER, severity=3,
        problem="starts a function that mixes {detail} in one place",
        fix="Give each concern its own function behind a narrow interface",
        more_fixes=(
            "Put each concern in its own function with a narrow API",
            "Split the concerns into separate functions with narrow signatures",
            "Separate each concern into a function behind a narrow boundary",
            "Move every concern into its own function with a small, focused API",
            "Extract one function per concern and keep their boundaries narrow",
            "Divide the concerns into distinct functions that each expose little",
            "Give every concern a separate function with a tight API",
        ),
        label="function mixing concerns",
        names="[function mixing concerns|tangle of layers|mixed-concern function|"
              "function doing several jobs]",
        detectors=("heuristics",),
        check=vet.layers_mixed_outside_main,
        earns=(("abstraction", 2),),
        needs=("abstraction", 1),
        reason="mixes several concerns in one function",
    ),
    Topic.HARDWIRED_CLIENT: TopicRecord(
        domain=OWNER, severity=3,
        problem="hard-wires a concrete client inside a constructor",
        fix="Inject the client so callers and tests can choose it",
        more_fixes=(
            "Pass the client into the constructor so any caller or test can swap it",
            "Take the client as a constructor argument so callers and tests can supply it",
            "Accept the client as a parameter, letting callers and tests decide",
            "Let callers and tests provide the client from outside",
            "Receive the client from outside so tests and callers can substitute one",
            "Make the client a dependency that callers and tests can supply",
            "Move client creation out of the constructor so callers and tests choose it",
        ),
        label="hard-wired client",
        names="[hard-wired client|client built in the constructor|baked-in dependency|"
              "uninjectable client]",
        rules=(
            rule(r"\bself\.\w+\s*=\s*\w+\.(Redis|Client|connect|Session)\("),
        ),
        earns=(("abstraction", 2),),
        needs=("abstraction", 1),
        reason="hard-wires its client in a constructor",
    ),
    Topic.HIDDEN_SIDE_EFFECT: TopicRecord(
        domain=OWNER, severity=3,
        problem="reaches for process-wide state (the command line, the environment, a shell) that "
                "its callers cannot see",
        fix="Make the effect explicit at the boundary",
        more_fixes=(
            "Surface the effect explicitly at the boundary",
            "Move the effect out to the boundary and make it explicit",
            "Bring the side effect into view at the boundary",
            "Expose the effect at the boundary where callers see it",
            "Handle the process-wide state explicitly at the edge",
            "Push the effect to the boundary and state it openly",
            "Put the effect at the boundary, visible to callers",
        ),
        label="hidden side effect",
        names="[hidden side effect|surprise mutation|quiet side effect|sneaky mutation|"
              "effect callers cannot see]",
        rules=(
            rule(r"\bsys\.argv\[|\bos\.environ\[|subprocess\.\w+\(.*rm -rf"),
        ),
        check=vetapi.effect_hidden_from_callers,
        earns=(("abstraction", 1),),
        reason="reaches for the command line, the environment or a shell",
    ),
}
