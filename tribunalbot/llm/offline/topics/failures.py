"""Error handling, part two: what fails without a word or loses data (recursive deletes of a
variable path, a statement with no WHERE, unwraps, scripts that run past errors, unset
variables, unchecked cd, temp files left behind, read without -r, stray prints). One record per
topic (topic.TopicRecord).
"""

from __future__ import annotations

import re

from tribunalbot.llm.offline import vet, vetshell
from tribunalbot.llm.offline.rules import RUST, SHELL, SHELL_READ, SQL, rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "error_philosopher"

RECORDS: dict[Topic, TopicRecord] = {
    Topic.DESTRUCTIVE_COMMAND: TopicRecord(
        domain=OWNER, severity=5,
        problem="deletes recursively under a path built from a variable, so an empty value wipes "
                "the wrong tree",
        fix="Quote the variable, fail on empty (${1:?}) and refuse /",
        more_fixes=(
            "Quote the variable, abort if it is empty, and refuse to act on /",
            "Put the variable in quotes, stop on an empty value, and reject /",
            "Guard the delete: quote the variable, fail when it is empty, and never accept /",
            "Quote the path variable, make an empty value fatal, and reject the root /",
            "Fail fast on an empty variable, quote it, and refuse to delete /",
            "Wrap the variable in quotes, exit on empty, and refuse the root directory",
            "Reject / and empty values, and quote the variable in the command",
        ),
        label="unguarded recursive delete",
        names="[unguarded recursive delete|variable-path recursive delete|unchecked tree removal|"
              "dangerous recursive removal]",
        rules=(
            rule(r"\brm\s+-\w*[rR]\w*\s+[^#\n]*\$\{?\w", SHELL),
        ),
        check=vetshell.deletes_under_unguarded_path,
    ),
    Topic.DELETE_WITHOUT_WHERE: TopicRecord(
        domain=OWNER, severity=5,
        problem="changes every row of the table, with no WHERE clause",
        fix="Add the WHERE clause and run it in a transaction",
        more_fixes=(
            "Restrict the statement with a WHERE clause and wrap it in a transaction",
            "Give it a WHERE condition and execute it inside a transaction",
            "Limit the rows with a WHERE clause and run the change transactionally",
            "Put a WHERE clause on it and do it within a transaction",
            "Scope the change with WHERE and perform it in a transaction",
            "Open a transaction around the statement and bound it with a WHERE clause",
            "Filter the rows with WHERE and execute the statement inside a transaction",
        ),
        label="DELETE without WHERE",
        names="[DELETE without WHERE|unfiltered table change|statement touching every row|"
              "missing WHERE clause]",
        rules=(
            rule(r"^\s*(DELETE\s+FROM|UPDATE)\s+\w+(\s+SET\s+[^;]*)?\s*;",
                 SQL, flags=re.I),
        ),
    ),
    Topic.UNWRAP_PANIC: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="unwraps a result, so any error becomes a panic",
        fix="Propagate it with ? or handle the error case",
        more_fixes=(
            "Return the error with `?`, or deal with the failure case",
            "Pass the error up using `?` or handle it explicitly",
            "Handle the error arm, or propagate the result with `?`",
            "Match on the error case, or forward it with `?`",
            "Replace the unwrap with `?` or with explicit error handling",
            "Bubble the error up with `?`, or handle it where it occurs",
            "Let `?` carry the error upward, or handle the failure case",
        ),
        label="panicking unwrap",
        names="[panicking unwrap|bare unwrap|unwrap that can panic|unhandled result]",
        rules=(
            rule(r"\.unwrap\(\)|\.expect\(", RUST),
        ),
    ),
    Topic.NO_ERREXIT: TopicRecord(
        domain=OWNER, severity=2,
        problem="runs a script that carries on after a failed command",
        fix="Start with set -euo pipefail",
        more_fixes=(
            "Put set -euo pipefail at the top of the script",
            "Open the script with set -euo pipefail",
            "Add set -euo pipefail as the first command",
            "Let set -euo pipefail be the first thing the script runs",
            "Make set -euo pipefail the script's first command",
            "Enable set -euo pipefail at the start",
            "Turn on set -euo pipefail before anything else runs",
        ),
        label="script that ignores failures",
        names="[script that ignores failures|missing errexit|failure-blind script|"
              "script that runs past errors]",
        detectors=("heuristics",),
    ),
    Topic.UNSET_VARIABLE: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="expands a variable the script never sets, so it is always empty there",
        fix="Set it where it is meant to come from, or fix the name",
        more_fixes=(
            "Assign it at its intended source, or correct the variable name",
            "Give it a value where it should originate, or fix the typo in its name",
            "Define the variable where it is supposed to be set, or correct its name",
            "Correct the name, or set the variable at the place it should come from",
            "Initialize it at its intended origin, or repair the name",
            "Make sure its source sets it, or spell the name correctly",
            "Populate it where it is expected to come from, or rename the reference",
        ),
        label="never-set variable",
        names="[never-set variable|variable nothing assigns|always-empty variable]",
        ref="CWE-457",
        detectors=("shellsql",),
    ),
    Topic.UNCHECKED_CD: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="changes directory without checking that it worked, so the commands after it run "
                "in the wrong place",
        fix="Write cd ... || exit",
        more_fixes=(
            "Make the script exit when cd fails",
            "Follow the cd with an exit on failure",
            "Exit right away if the cd does not succeed",
            "Stop the script whenever cd fails",
            "Check the status of cd and exit on failure",
            "Guard the cd so a failure ends the script",
            "Pair the cd with an exit that runs when it fails",
        ),
        label="unchecked cd",
        names="[unchecked cd|unverified directory change|cd without a check|"
              "directory change nobody checks]",
        detectors=("shellsql",),
        proven=True,
    ),
    Topic.TEMP_NO_CLEANUP: TopicRecord(
        domain=OWNER, severity=2,
        problem="makes a temporary file with mktemp but sets no trap, so a failed or interrupted "
                "run leaves it behind",
        fix="Remove it in a trap on EXIT",
        more_fixes=(
            "Delete the file from an EXIT trap",
            "Set a trap on EXIT that removes it",
            "Register an EXIT trap that deletes the temporary file",
            "Add a trap on EXIT to remove the temp file",
            "Install an EXIT trap to clean up the file",
            "Use an EXIT trap to delete it",
            "Arrange for an EXIT trap to remove it",
        ),
        label="temp file left behind",
        names="[temp file left behind|uncleaned temp file|temp file with no trap|"
              "leaked temporary file]",
        ref="CWE-459",
        detectors=("shellsql",),
        check=vetshell.temp_left_behind,
    ),
    Topic.READ_WITHOUT_R: TopicRecord(
        domain=OWNER, severity=2,
        problem="reads input with read but without -r, so backslashes in it are eaten",
        fix="Use read -r",
        more_fixes=(
            "Add -r to the read",
            "Call read with -r",
            "Switch to read -r",
            "Pass -r to read",
            "Read the input with read -r",
            "Give read the -r flag",
            "Replace read with read -r",
        ),
        label="read without -r",
        names="[read without -r|backslash-eating read|read missing -r|"
              "read that mangles backslashes]",
        rules=(
            rule(SHELL_READ, SHELL),
        ),
        check=vetshell.read_eats_backslashes,
    ),
    Topic.PRINT_OUTPUT: TopicRecord(
        domain=OWNER, severity=1,
        problem="writes to stdout with print, which a caller or log pipeline cannot filter",
        fix="Use the logger, or return the value",
        more_fixes=(
            "Log it through the logger, or hand the value back",
            "Return the result to the caller instead, or emit a log record",
            "Route it to the logger or give it back to the caller",
            "Replace the print with a log call or a return value",
            "Send it to the logger, or just return it",
            "Make it the function's return value, or write it through the logger",
            "Either log it properly or return the value to the caller",
        ),
        label="stray print",
        names="[stray print|print left in|bare print call|print to stdout]",
        ruff=("T20",),
        check=vet.print_is_stray_output,
    ),
}
