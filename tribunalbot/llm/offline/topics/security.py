"""Security, part one: what lets another party run code, read a secret or act with too much
privilege (injection, credentials in source, eval, broad grants, unchecked unsafe memory, open
file modes, TLS checks off, unsafe loaders). One record per topic (topic.TopicRecord).
"""

from __future__ import annotations

import re

from tribunalbot.llm.offline import vet, vetcommands, vetdata, vetsecrets
from tribunalbot.llm.offline.rules import GO, JS_TS, PYTHON, RUST, SHELL, SQL, SQL_STATEMENT, rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "security_guardian"

RECORDS: dict[Topic, TopicRecord] = {
    Topic.SQL_INJECTION: TopicRecord(
        domain=OWNER, severity=5,
        problem="builds SQL by string formatting, so caller input becomes query text",
        fix="Bind the values as query parameters instead",
        more_fixes=(
            "Pass the values to the driver as bound parameters",
            "Use placeholders in the SQL and hand the values over separately",
            "Send caller input through parameter binding, never into the query string",
            "Replace the string formatting with a parameterized query",
            "Keep the SQL text fixed and supply the values as parameters",
            "Switch to placeholders and let the driver bind each value",
            "Give the database the values as parameters, apart from the statement text",
        ),
        label="SQL built from input",
        names="[SQL built from input|injectable query|query assembled from strings|"
              "string-built SQL]",
        ref="CWE-89",
        ruff=("S608",),
        check=vetcommands.query_takes_input,
        rules=(
            rule(r"\b(execute|executemany|query|Query|Exec|raw)\(\s*f[\"']"),
            rule(rf"=\s*f[\"']{SQL_STATEMENT}", flags=re.I),
            rule(rf"\"{SQL_STATEMENT}[^\"]*\"\s*(%|\+)|'{SQL_STATEMENT}[^']*'\s*(%|\+)",
                 flags=re.I),
            rule(rf"Sprintf\(\s*\"{SQL_STATEMENT}", GO, flags=re.I),
            rule(rf"\"{SQL_STATEMENT}[^\"]*\"\.format\(|'{SQL_STATEMENT}[^']*'\.format\(", PYTHON,
                 flags=re.I),
            rule(rf"`{SQL_STATEMENT}[^`]*\$\{{", JS_TS, flags=re.I),
        ),
    ),
    Topic.SECRET: TopicRecord(
        domain=OWNER, severity=5,
        problem="hard-codes a credential in source, where every clone and log can read it",
        fix="Load it from the environment or a secret store and rotate it",
        more_fixes=(
            "Read the credential from the environment or a secrets manager, then rotate it",
            "Rotate the credential and fetch it at runtime from the environment or a vault",
            "Move it out of the code into an environment variable or secret store and rotate it",
            "Pull the value from the environment or a secret store, and issue a new one",
            "Replace the literal with a lookup in the environment or a secret store, then rotate "
            "it",
            "Source it at runtime from the environment or a vault and change the exposed value",
            "Issue a replacement for the exposed value and keep it in the environment or a vault",
        ),
        label="hard-coded secret",
        names="[hard-coded secret|credential in source|embedded password|secret committed to code]",
        ref="CWE-798",
        ruff=("S105", "S106", "S107"),
        rules=(
            rule(r"(?i)\b\w*(api_?key|secret|token|passw(or)?d|passwd)\w*\s*[:=]\s*"
                 r"[\"'`]([^\"'`\s]{6,})[\"'`]"),
        ),
        check=vetsecrets.literal_is_a_credential,
    ),
    Topic.SHELL_INJECTION: TopicRecord(
        domain=OWNER, severity=5,
        problem="hands a concatenated string to a shell",
        fix="Pass an argument list without a shell",
        more_fixes=(
            "Call the program with a list of arguments and no shell",
            "Hand the command over as separate arguments, skipping the shell",
            "Run the executable directly with an argv list instead of a shell string",
            "Split the command into a list of arguments and turn the shell off",
            "Invoke the process with explicit arguments so no shell parses them",
            "Drop the shell and give each argument as its own list item",
            "Build an argument vector and execute it directly, not through a shell",
        ),
        label="string-built shell command",
        names="[string-built shell command|shell injection|concatenated shell command|"
              "injectable shell call]",
        ref="CWE-78",
        ruff=("S602", "S604", "S605"),
        rules=(
            rule(r"\bos\.(system|popen)\(|shell\s*=\s*True|\bexecSync\(|"
                 r"exec\.Command\(\"(ba)?sh\""),
            rule(r"Command::new\(\s*\"(ba)?sh\"", RUST),
            rule(r"\bchild_process\.exec\(|\bexec\(\s*`[^`]*\$\{", JS_TS),
        ),
        check=vetcommands.shells_out_input,
    ),
    Topic.EVAL: TopicRecord(
        domain=OWNER, severity=5,
        problem="evaluates a string as code, so whoever controls that string controls the program",
        fix="Parse it as data (JSON or a literal parser) instead of executing it",
        more_fixes=(
            "Treat the string as data and read it with a JSON or literal parser",
            "Decode it with a JSON or literal parser, never as code to run",
            "Replace the evaluation with a JSON or literal parser that only reads data",
            "Read the input as data through JSON or a literal parser, not as code",
            "Load it with a data parser, such as JSON or a literal parser",
            "Stop executing the string and parse it as JSON or literals instead",
            "Hand the text to a JSON or literal parser so it stays data",
        ),
        label="eval of a string",
        names="[eval of a string|string run as code|dynamic eval|code built from a string]",
        ref="CWE-95",
        ruff=("S307", "S102"),
        rules=(
            # Not `.eval(` nor `def eval(`: a method of the program's own (a state
            # machine's `self.error.eval(env=env)`, blind rounds 22 and 23).
            rule(r"(?<!\.)(?<!def )\beval\(|\bnew Function\("),
            # Python's exec runs a string; Perl's and PHP's exec run a program (bench/blind/
            # round14: `exec(@_) or exit(1)` is no string run as code).
            rule(r"^\s*exec\(", PYTHON),
            rule(r"^\s*eval\s|[;&|]\s*eval\s", SHELL),
        ),
        check=vet.evals_input,
    ),
    Topic.GRANT_PUBLIC: TopicRecord(
        domain=OWNER, severity=5,
        problem="grants broad privileges: ALL of them, or writes to PUBLIC (every role in the "
                "database)",
        fix="Grant only the needed privileges to a named role",
        more_fixes=(
            "Give a named role just the privileges it requires",
            "Limit the grant to the required privileges on a specific role",
            "Narrow the grant down to one named role holding only what it uses",
            "Replace the broad grant with the minimum privileges for one named role",
            "Assign a named role the least privileges that do the job",
            "Restrict privileges to what is needed and grant them to a specific role",
            "Name the role that needs access and grant it only those privileges",
        ),
        label="overbroad grant",
        names="[overbroad grant|grant to PUBLIC|blanket privilege grant|grant of all privileges]",
        ref="CWE-732",
        rules=(
            rule(r"\bGRANT\s+ALL\b|\bGRANT\b.*\b(INSERT|UPDATE|DELETE|TRUNCATE)\b.*"
                 r"\bTO\s+PUBLIC\b", SQL, flags=re.I),
        ),
    ),
    Topic.UNSAFE_BLOCK: TopicRecord(
        domain=OWNER, severity=4,
        problem="dereferences memory in an unsafe block the compiler cannot check",
        fix="Use a safe API, or document and test the invariant that makes it sound",
        more_fixes=(
            "Switch to a safe API, or write down and test why the access is sound",
            "Replace it with a safe API, or record and test the invariant it relies on",
            "Prefer a checked API, or else document the soundness invariant and test it",
            "Reach for a safe API, or spell out and test what keeps the code sound",
            "Call a safe API instead, or justify the block with a documented, tested invariant",
            "Move to a safe abstraction, or explain and test what guarantees the dereference is "
            "sound",
            "Use safe code, or comment and test the invariant that keeps it sound",
        ),
        label="unchecked unsafe block",
        names="[unchecked unsafe block|unsafe dereference|raw pointer dereference|"
              "unsafe memory access]",
        ref="CWE-119",
        rules=(
            rule(r"\bunsafe\s*\{", RUST),
        ),
    ),
    Topic.WORLD_WRITABLE: TopicRecord(
        domain=OWNER, severity=4,
        problem="makes a file writable by every user",
        fix="Grant the narrowest mode that works",
        more_fixes=(
            "Set the tightest permissions that still work",
            "Restrict the file mode to the minimum that works",
            "Choose the most restrictive permission bits that do the job",
            "Narrow the mode to only the access that is required",
            "Give the file the least permissive mode that still functions",
            "Tighten the permissions to what the program actually needs",
            "Remove every permission bit the program does not need",
        ),
        label="world-writable file",
        names="[world-writable file|file anyone can write|overly open file mode|"
              "permissive file mode]",
        ref="CWE-732",
        ruff=("S103",),
        rules=(
            rule(r"\bchmod\s+(-R\s+)?0?777\b", SHELL),
        ),
        check=vetcommands.mode_lets_others_write,
    ),
    Topic.TLS_OFF: TopicRecord(
        domain=OWNER, severity=5,
        problem="turns off certificate verification",
        fix="Keep verification on and trust the right CA instead",
        more_fixes=(
            "Turn certificate checks back on and point them at the correct CA",
            "Re-enable verification and add the proper CA to the trust store",
            "Verify certificates and supply the correct CA bundle instead",
            "Restore certificate verification and trust the CA that signed the server",
            "Configure the right certificate authority while verification stays enabled",
            "Switch verification back on and load the appropriate CA certificate",
            "Trust the correct CA explicitly and keep checking certificates",
        ),
        label="disabled TLS check",
        names="[disabled TLS check|skipped certificate check|unverified TLS connection|"
              "certificate check turned off]",
        ref="CWE-295",
        ruff=("S501",),
        rules=(
            # Not jwt.decode(..., verify=False): that skips a token's signature, not TLS. Nor
            # a parameter named so (`for_verify=False`, a `def`'s default: allauth, round 51).
            rule(r"InsecureSkipVerify:\s*true|rejectUnauthorized:\s*false|"
                 r"(?<![\w.])verify\s*=\s*False",
                 unless=r"\bjwt\.decode\(|^\s*(async\s+)?def\b"),
        ),
    ),
    Topic.UNSAFE_DESERIALIZE: TopicRecord(
        domain=OWNER, severity=4,
        problem="deserializes with a loader that can build arbitrary objects",
        fix="Use a safe loader or a plain data format",
        more_fixes=(
            "Switch to a safe loader or a simple data format",
            "Load it with a safe loader, or store it as plain data",
            "Replace the loader with a safe one or a plain-data format such as JSON",
            "Deserialize with a restricted loader or move to plain data",
            "Choose a safe loading function or a format that holds only data",
            "Read it through a safe loader, or change to a plain data format",
            "Use a loader that cannot build objects, or a data-only format",
        ),
        label="unsafe deserialization",
        names="[unsafe deserialization|unsafe loader|arbitrary-object loader|"
              "dangerous deserializer]",
        ref="CWE-502",
        ruff=("S301", "S506"),
        rules=(
            rule(r"\bpickle\.loads?\(|\byaml\.load\((?![^)]*Loader)"),
        ),
        check=vetdata.load_runs_code,
    ),
}
