"""Dependencies: packages the standard library covers, deprecated ones, piped installs, obsolete
definitions kept, and imports. One record per topic (topic.TopicRecord).
"""

from __future__ import annotations

from tribunalbot.llm.offline import vetapi, vetshell
from tribunalbot.llm.offline.rules import SHELL, rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "dependency_watcher"

RECORDS: dict[Topic, TopicRecord] = {
    Topic.THIRD_PARTY: TopicRecord(
        domain=OWNER, severity=2,
        problem="pulls in a third-party package",
        fix="Pin it and check whether the standard library already covers the use",
        more_fixes=(
            "Pin the version and see if the standard library already does the job",
            "Lock its version, and check whether the stdlib already covers this use",
            "Fix it to one version and ask whether the standard library already provides it",
            "Pin the dependency and look for a standard library equivalent first",
            "Pin a specific version and verify the standard library does not already cover it",
            "Check the standard library for the same feature, and pin the package",
            "Give it a pinned version and compare it against what the standard library offers",
        ),
        label="third-party import",
        names="[third-party import|outside dependency|external package|foreign import]",
        detectors=("heuristics",),
    ),
    Topic.DEPRECATED_DEP: TopicRecord(
        domain=OWNER, severity=3,
        problem="depends on a deprecated or unmaintained package",
        fix="Move to the maintained replacement",
        more_fixes=(
            "Switch to the maintained successor",
            "Migrate to the package that replaces it",
            "Replace it with its maintained alternative",
            "Adopt the supported successor package",
            "Depend on the maintained replacement instead",
            "Change over to the actively maintained replacement",
            "Swap it for the maintained successor",
        ),
        label="deprecated dependency",
        names="[deprecated dependency|unmaintained package|abandoned dependency|outdated package]",
        detectors=("heuristics",),
    ),
    Topic.PIPE_TO_SHELL: TopicRecord(
        domain=OWNER, severity=5,
        problem="pipes a downloaded script straight into a shell, unpinned and unverified",
        fix="Download a pinned version, verify its checksum, then run it",
        more_fixes=(
            "Fetch a specific version, check its hash, and only then execute it",
            "Pin the version, download it, confirm the checksum, and run it afterwards",
            "Save a pinned release locally, verify the checksum, then execute it",
            "Get a fixed version first, validate its checksum, and then run it",
            "Retrieve a pinned copy and run it only after its checksum matches",
            "Check the checksum of a pinned download before running it",
            "Grab a pinned version, compare its checksum, and execute it once verified",
        ),
        label="download piped to a shell",
        names="[download piped to a shell|curl-to-shell install|unverified remote script|"
              "unpinned piped install]",
        rules=(
            rule(r"\b(curl|wget)\b[^|#]*\|\s*(sudo\s+)?(ba|z)?sh\b", SHELL),
        ),
    ),
    Topic.WHICH_COMMAND: TopicRecord(
        domain=OWNER, severity=1,
        stated=True,
        problem="looks a command up with which, an external program that is not in POSIX and "
                "behaves differently between systems",
        fix="Use command -v",
        more_fixes=(
            "Switch to command -v",
            "Look it up with command -v",
            "Replace which with command -v",
            "Call command -v instead",
            "Check for the command with command -v",
            "Rely on the built-in command -v",
            "Find the program using command -v",
        ),
        label="which lookup",
        names="[which lookup|non-portable which|command found with which|which call]",
        rules=(
            rule(r"(?:^|[;&|(!`]|\$\(|\bif\s|\bthen\s)\s*which\s+-?\w", SHELL),
        ),
        check=vetshell.which_is_run,
        proven=True,
    ),
    Topic.DEPRECATED_KEPT: TopicRecord(
        domain=OWNER, severity=2,
        problem="still creates what its own comment calls obsolete, so new code can go on "
                "depending on it",
        fix="Drop it in the next version, and point users at the replacement",
        more_fixes=(
            "Remove it in the next release and direct users to the replacement",
            "Delete it in the next version, and steer callers to its successor",
            "Schedule its removal for the next version and name the replacement for users",
            "Take it out next version and tell users what replaces it",
            "Point users to the replacement and remove it in the following version",
            "Plan its removal for the next release, with a pointer to the replacement",
            "Retire it in the next version and send users to what replaces it",
        ),
        label="obsolete definition kept",
        names="[obsolete definition kept|deprecated definition still shipped|"
              "leftover obsolete definition]",
        detectors=("shellsql",),
    ),
    Topic.UNUSED_IMPORT: TopicRecord(
        domain=OWNER, severity=2,
        stated=True,
        problem="imports something it never uses",
        fix="Drop the import",
        more_fixes=(
            "Remove the import",
            "Delete the unused import",
            "Take the import out",
            "Get rid of the import",
            "Strip the unused import",
            "Erase the import line",
            "Cut the import",
        ),
        label="unused import",
        names="[unused import|idle import|dead import|import nothing uses]",
        ruff=("F401",),
        check=vetapi.import_is_unused,
        juror_fix="[drop the import|[delete|remove|cut] the [unused|idle] import|[take out|"
                  "strip] the import]",
        proven=True,
    ),
    Topic.IMPORT_STYLE: TopicRecord(
        domain=OWNER, severity=1,
        problem="imports * from a module, which hides where names come from",
        fix="Import the names it uses explicitly",
        more_fixes=(
            "List each used name in the import",
            "Replace the star import with explicit names",
            "Name every imported symbol it needs",
            "Spell out the imported names",
            "Import only the specific names it needs",
            "Enumerate the names explicitly in the import",
            "Write an explicit import for each name used",
        ),
        label="star import",
        names="[star import|wildcard import|import of everything|blanket import]",
        ruff=("F403",),
        check=vetapi.star_import_hides_names,
    ),
}
