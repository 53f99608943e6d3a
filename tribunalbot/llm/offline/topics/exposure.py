"""Security, part two: what the code exposes or trusts (user paths, unescaped HTML, a missing
ownership check, weak hashes and randomness, debug servers, guessable temp paths, every column
selected, unvalidated input). One record per topic (topic.TopicRecord).
"""

from __future__ import annotations

from tribunalbot.llm.offline import vet, vetweb
from tribunalbot.llm.offline.rules import COMMENT, JS_TS, SHELL, rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "security_guardian"

RECORDS: dict[Topic, TopicRecord] = {
    Topic.PATH_TRAVERSAL: TopicRecord(
        domain=OWNER, severity=5,
        problem="joins a user-supplied name into a filesystem path",
        fix="Resolve the path and reject anything outside the base directory",
        more_fixes=(
            "Normalize the full path and refuse any that escapes the base directory",
            "Canonicalize the path, then deny it unless it sits under the base directory",
            "Resolve the joined path and fail unless it stays within the base directory",
            "Compute the real path and turn away anything beyond the base directory",
            "After resolving the path, refuse it if it points outside the base directory",
            "Reject resolved paths that fall outside the base directory",
            "Turn the name into an absolute path and allow it only under the base directory",
        ),
        label="path traversal",
        names="[path traversal|user-built file path|unchecked path join|path escape]",
        ref="CWE-22",
        detectors=("heuristics",),
    ),
    Topic.XSS: TopicRecord(
        domain=OWNER, severity=4,
        problem="writes request text into HTML without escaping",
        fix="Escape it or render through a template",
        more_fixes=(
            "Escape the request text, or output it via a template engine",
            "Pass it through an HTML escaper or a templating engine",
            "Render the value with a template, or escape it first",
            "Encode it for HTML, or let an auto-escaping template produce the page",
            "Send the text through escaping or a template before it reaches the HTML",
            "Output it via a template, or escape it yourself",
            "Apply HTML escaping to it, or generate the markup with a template",
        ),
        label="unescaped HTML output",
        names="[unescaped HTML output|cross-site scripting hole|raw request text in HTML|XSS hole]",
        ref="CWE-79",
        ruff=("S701",),
        rules=(
            rule(r"<\w+>[\"'`]\s*\+\s*(req|request)\.|innerHTML\s*="),
            rule(r"\bdocument\.write\(|dangerouslySetInnerHTML", JS_TS),
        ),
        check=vetweb.html_gets_request_text,
    ),
    Topic.MISSING_AUTH: TopicRecord(
        domain=OWNER, severity=4,
        problem="acts on a resource without checking who owns it",
        fix="Check the caller's ownership before acting",
        more_fixes=(
            "Verify the caller owns the resource before touching it",
            "Confirm ownership of the resource first, then act",
            "Before doing anything, make sure the caller is the owner",
            "Add an ownership check on the caller ahead of the action",
            "Refuse the action unless the caller owns the resource",
            "Test that the resource belongs to the caller before proceeding",
            "Authorize the caller as owner before the action runs",
        ),
        label="missing ownership check",
        names="[missing ownership check|unchecked ownership|missing authorization check|"
              "access without an owner check]",
        ref="CWE-862",
        rules=(
            # A note that the ownership check is missing, right above the action it should guard.
            rule(r"(?i)\b(TODO|FIXME)\b.*\b(check|verify|ensure)\w*\b.*\b(own|owner|owns|"
                 r"permission|authori[sz]\w*)\b", reads=COMMENT),
        ),
        check=vet.guards_a_destructive_action,
    ),
    Topic.WEAK_HASH: TopicRecord(
        domain=OWNER, severity=3,
        problem="relies on a broken hash function",
        fix="Use SHA-256 or a keyed HMAC",
        more_fixes=(
            "Switch to SHA-256, or an HMAC with a key",
            "Replace the hash with SHA-256 or a keyed HMAC",
            "Hash with SHA-256 instead, or with an HMAC and a secret key",
            "Adopt SHA-256 or an HMAC keyed with a secret",
            "Pick SHA-256 or a keyed HMAC in place of it",
            "Compute a SHA-256 digest or a keyed HMAC instead",
            "Swap the broken function for SHA-256 or a keyed HMAC",
        ),
        label="weak hash",
        names="[weak hash|broken hash function|outdated digest|insecure hash]",
        ref="CWE-327",
        ruff=("S324",),
        rules=(
            rule(r"createHash\(\s*[\"'](md5|sha1)|\bmd5\.New\(|hashlib\.(md5|sha1)\("),
        ),
        check=vet.hash_guards_a_secret,
    ),
    Topic.WEAK_RANDOM: TopicRecord(
        domain=OWNER, severity=2,
        problem="uses a predictable random generator",
        fix="Use the secrets module where the value matters",
        more_fixes=(
            "Draw security-sensitive values from the secrets module",
            "Generate any value that matters with the secrets module",
            "Switch to the secrets module wherever the value must be unpredictable",
            "Take important values from the secrets module, not the predictable generator",
            "Rely on the secrets module for values that need to be unguessable",
            "Call the secrets module when the number has to be hard to guess",
            "Replace the generator with the secrets module where it counts",
        ),
        label="predictable random value",
        names="[predictable random value|weak random generator|insecure randomness|"
              "guessable random number]",
        ref="CWE-338",
        ruff=("S311",),
        rules=(
            rule(r"\bMath\.random\(", JS_TS),
        ),
        check=vet.random_guards_a_secret,
    ),
    Topic.DEBUG_EXPOSURE: TopicRecord(
        domain=OWNER, severity=4,
        problem="turns debug mode on or listens on every network interface",
        fix="Keep debug off and bind to localhost outside development",
        more_fixes=(
            "Disable debug mode and listen only on localhost except in development",
            "Outside development, run with debugging disabled and the server bound to localhost",
            "Switch debug off and restrict the listener to localhost beyond development",
            "Run without debug and bind to 127.0.0.1 everywhere but development",
            "Turn off debug and listen on the loopback address outside development",
            "Except in development, keep debug disabled and bind to localhost",
            "Bind to localhost and disable debug in every environment but development",
        ),
        label="exposed debug mode",
        names="[exposed debug mode|debug setting left on|wide-open listener|exposed debug server]",
        ref="CWE-489",
        ruff=("S104", "S201"),
        rules=(
            rule(r"\(.*\bdebug\s*=\s*True\b|^\s*DEBUG\s*=\s*True\b|[\"']0\.0\.0\.0[\"']"),
        ),
        check=vetweb.exposes_debug_or_all_interfaces,
    ),
    Topic.TEMP_FILE: TopicRecord(
        domain=OWNER, severity=3,
        problem="works on a guessable temporary path",
        fix="Use a private temporary directory",
        more_fixes=(
            "Create a private temp directory for the work",
            "Work inside a temporary directory only this process can access",
            "Allocate a temporary directory that only you can read",
            "Put the files in a securely created private temp directory",
            "Switch to a private, unpredictable temporary directory",
            "Move the work into a temporary directory with private permissions",
            "Ask the system for a private temporary directory instead",
        ),
        label="guessable temp path",
        names="[guessable temp path|predictable temporary file|insecure temp file|"
              "shared temp path]",
        ref="CWE-377",
        rules=(
            rule(r"[\"'`]/tmp/[\w.{$-]"),
            # A name made from the process id ($$), which anyone can guess, under a temp directory.
            rule(r"=\S*(\bTMPDIR\b|/tmp/)\S*\$\$|\b\w*(tmp|temp)\w*=\S*\$\$", SHELL),
        ),
        check=vet.temp_path_is_guessable,
    ),
    Topic.DATA_EXPOSURE: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="fetches every column with SELECT *, more than a caller may need or be allowed to "
                "see",
        fix="Select an explicit list of columns",
        more_fixes=(
            "Name the columns you need in the SELECT",
            "List each required column explicitly",
            "Replace SELECT * with the specific columns",
            "Spell out the columns the query should return",
            "Query only the named columns the caller needs",
            "Choose the columns explicitly instead of fetching all of them",
            "Enumerate the wanted columns in the select list",
        ),
        label="all-columns query",
        names="[all-columns query|overfetching query|query that selects every column|"
              "wildcard column list]",
        ref="CWE-200",
        rules=(
            rule(r"(?i)\bSELECT \*"),
        ),
        check=vet.selects_private_columns,
    ),
    Topic.UNTRUSTED_INPUT: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="takes untrusted input and uses it without validation",
        fix="Validate type, length and format where it enters",
        more_fixes=(
            "Screen the input for type, length and format on arrival",
            "Validate the input's type, size and format as it comes in",
            "At the point of entry, verify type, length and format",
            "Enforce type, length and format checks where the input arrives",
            "Reject input of the wrong type, length or format at the boundary",
            "Check type, length and format as soon as it enters",
            "Constrain the input's type, length and format when it first arrives",
        ),
        label="unvalidated input",
        names="[unvalidated input|unchecked input|untrusted input|raw user input]",
        ref="CWE-20",
        rules=(
            rule(r"\breq\.(body|params|query)\.\w+|\brequest\.(args|form|json|values)"
                 r"\b"),
        ),
        check=vetweb.input_taken_raw,
    ),
}
