"""Performance: work repeated per item, blocking calls and sleeps, and lists that only grow. One
record per topic (topic.TopicRecord).
"""

from __future__ import annotations

from tribunalbot.llm.offline import vet, vetloops
from tribunalbot.llm.offline.rules import GO, HTTP_CALL, JS_TS, PYTHON, rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "performance_guru"

RECORDS: dict[Topic, TopicRecord] = {
    Topic.N_PLUS_ONE: TopicRecord(
        domain=OWNER, severity=4,
        problem="runs one query per item inside the loop, an N+1 pattern",
        fix="Fetch everything in one batched query",
        more_fixes=(
            "Load all the rows in a single batched query",
            "Replace the per-item queries with one batch query",
            "Query once for every item, in a batch",
            "Gather the data with a single query before the loop",
            "Batch the lookups into one round trip",
            "Retrieve all items together in one query",
            "Issue one batched query that returns everything at once",
        ),
        label="query per item",
        names="[query per item|per-item query|query run inside the loop|unbatched query|"
              "one-query-per-row loop]",
        rules=(
            rule(rf"\.(execute|query|Query|QueryRow|Exec|fetchone)\(|{HTTP_CALL}", in_loop=True),
        ),
        check=vetloops.queries_per_item,
    ),
    Topic.QUADRATIC: TopicRecord(
        domain=OWNER, severity=3,
        problem="scans a whole collection for each item of the outer loop, O(n×m) work",
        fix="Index the inner collection in a dict once",
        more_fixes=(
            "Build a dict from the inner collection once, up front",
            "Put the inner items in a dict once and look them up by key",
            "Make one dict over the inner collection before the loop",
            "Create a lookup dict of the inner collection a single time",
            "Turn the inner collection into a dict once, then index into it",
            "Key the inner collection in a dictionary once instead of scanning it",
            "Precompute a dict for the inner collection and reuse it",
        ),
        label="quadratic loop",
        names="[quadratic loop|nested linear scan|repeated inner scan|scan per outer item]",
        rules=(
            rule(r"^\s*for\b", in_loop=True),
        ),
        check=vetloops.scans_per_item,
        earns=(("rewrite", 1),),
        reason="scans a whole collection for each item",
    ),
    Topic.CONCAT_IN_LOOP: TopicRecord(
        domain=OWNER, severity=3,
        problem="grows a string or buffer by concatenation inside a loop",
        fix="Collect the parts and join them once",
        more_fixes=(
            "Gather the pieces in a list and join at the end",
            "Append the parts to a list, then join them a single time",
            "Accumulate the fragments and combine them in one join",
            "Store each piece and concatenate them all once",
            "Build a list of parts and join it after the loop",
            "Keep the pieces in a list and do one join",
            "Put the parts together with a single join after collecting them",
        ),
        label="concatenation in a loop",
        names="[concatenation in a loop|looped concatenation|string grown piece by piece|"
              "growing buffer]",
        rules=(
            rule(r"\b(\w+)\s*=\s*\1\s*\+|\b\w+\s*\+=\s*[\"'f`]", in_loop=True),
        ),
        check=vetloops.builds_string_in_loop,
    ),
    Topic.BLOCKING_IO: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="does synchronous I/O on the request path",
        fix="Use the asynchronous call so the server keeps serving",
        more_fixes=(
            "Switch to the async version so requests continue to be served",
            "Call the asynchronous API so other requests are not blocked",
            "Make the I/O asynchronous so the server goes on handling requests",
            "Await the non-blocking variant so the server stays responsive",
            "Replace the blocking call with its async counterpart to keep serving requests",
            "Do the I/O asynchronously so the server keeps handling traffic",
            "Move to the async call and keep the request path unblocked",
        ),
        label="blocking call",
        names="[blocking call|loop-stalling call|blocking I/O]",
        ruff=("ASYNC2",),
        rules=(
            rule(r"\b\w+Sync\(", JS_TS),
        ),
        check=vet.io_blocks_a_server,
        earns=(("infrastructure", 2),),
        reason="blocks on synchronous I/O",
        # Not proven: the call blocks, but whether the wait matters is a reading of what the
        # code serves. Blind rounds' readers judged all 38 said on packages' files weak or
        # wrong: a small local file read once, a command-line tool's `asyncio.run`.
    ),
    Topic.AWAIT_IN_LOOP: TopicRecord(
        domain=OWNER, severity=2,
        problem="awaits each item in turn inside the loop",
        fix="Start the calls together and gather them",
        more_fixes=(
            "Launch all the calls at once and gather the results",
            "Fire the calls concurrently, then await them together with gather",
            "Create every task first and gather them in one await",
            "Kick off the calls side by side and collect them with gather",
            "Run the awaits concurrently and gather their results",
            "Begin each call up front and wait for them all together",
            "Schedule the calls together and await them as a group",
        ),
        label="sequential await in a loop",
        names="[sequential await in a loop|await per item|serial await|one-at-a-time await]",
        rules=(
            rule(r"\bawait\b", JS_TS | PYTHON, in_loop=True),
        ),
        check=vetloops.awaits_could_gather,
    ),
    Topic.COPY_IN_LOOP: TopicRecord(
        domain=OWNER, severity=2,
        problem="copies a buffer element by element",
        fix="Copy it in one call or reuse the original slice",
        more_fixes=(
            "Do the copy with a single call, or keep using the original slice",
            "Replace the element loop with one bulk copy, or reuse the slice",
            "Copy the whole buffer at once, or share the existing slice",
            "Use one copy call for the buffer, or reference the original slice",
            "Make a single bulk copy or work from the source slice directly",
            "Move the data in one call, or reuse the slice you already have",
            "Keep working on the original slice, or do a single bulk copy",
        ),
        label="element-by-element copy",
        names="[element-by-element copy|manual copy loop|hand-rolled copy|looped buffer copy]",
        rules=(
            rule(r"\b(\w+)\s*=\s*append\(\1,\s*\w+\)", GO, in_loop=True),
        ),
    ),
    Topic.IO_CALL_IN_LOOP: TopicRecord(
        domain=OWNER, severity=4,
        problem="calls a function that does network or database I/O once per item",
        fix="Batch the work into one call, or run the calls concurrently with a bound",
        more_fixes=(
            "Combine the items into one call, or make the calls concurrently with a limit",
            "Send one batched request, or run the calls in parallel with a cap",
            "Group the work into a single request, or cap how many calls run at once",
            "Issue a single batch call, or run the calls concurrently under a limit",
            "Merge the per-item I/O into one call, or make it concurrent but bounded",
            "Collapse the calls into one batch, or overlap them with a concurrency cap",
            "Do the I/O in one call, or in parallel up to a fixed limit",
        ),
        label="I/O call per item",
        names="[I/O call per item|looped I/O call|per-item network call|unbatched I/O call]",
        detectors=("heuristics",),
        earns=(("infrastructure", 2),),
        needs=("infrastructure", 2),
        reason="makes an I/O call once per item",
    ),
    Topic.BLOCKING_SLEEP: TopicRecord(
        domain=OWNER, severity=2,
        problem="sleeps with time.sleep, blocking its whole thread (in async code, the event loop)",
        fix="Cap the total wait, or schedule the retry instead of holding the worker",
        more_fixes=(
            "Limit the overall wait, or schedule the retry instead of blocking the thread",
            "Put a ceiling on the total delay, or defer the retry without holding the thread",
            "Bound how long it waits in total, or schedule the retry so the thread is freed",
            "Set a maximum total wait, or schedule a later retry instead of sleeping in place",
            "Cap the cumulative sleep, or hand the retry to a scheduler and release the thread",
            "Restrict the total waiting time, or reschedule the retry and free the thread",
            "Keep the total wait under a cap, or schedule the retry and let the thread go",
        ),
        label="blocking sleep",
        names="[blocking sleep|thread-blocking sleep|sleep that stalls the loop|synchronous sleep]",
        rules=(
            rule(r"\btime\.sleep\(", PYTHON),
        ),
        check=vetloops.sleep_blocks,
    ),
    Topic.PERF_MISC: TopicRecord(
        domain=OWNER, severity=2,
        problem="does avoidable work in a loop",
        fix="Hoist it out of the loop",
        more_fixes=(
            "Move it outside the loop",
            "Do it once before the loop",
            "Lift the work out of the loop body",
            "Compute it a single time ahead of the loop",
            "Pull it out so it runs once, not per iteration",
            "Take the work out of the loop and reuse the result",
            "Run it once outside the loop",
        ),
        label="slow path",
        names="[slow path|avoidable work in a loop|wasted loop work|loop doing extra work]",
        ruff=("PERF101", "PERF102"),
    ),
    Topic.UNBOUNDED_GROWTH: TopicRecord(
        domain=OWNER, severity=3,
        problem="appends to a list that is never trimmed",
        fix="Bound it or keep counters instead",
        more_fixes=(
            "Cap its size, or track counts instead",
            "Limit how large it can grow, or store counters in its place",
            "Trim it to a maximum length or replace it with counters",
            "Put a bound on the list, or just keep tallies",
            "Keep running counts instead, or cap the list",
            "Give the list a maximum size, or count instead of appending",
            "Replace it with counters, or make it bounded",
        ),
        label="ever-growing list",
        names="[ever-growing list|unbounded list|list never trimmed|unchecked growth]",
        rules=(
            rule(r"\bself\.(\w+)\.append\("),
        ),
        check=vetloops.list_only_grows,
        earns=(("infrastructure", 1),),
        needs=("infrastructure", 1),
        reason="grows a list that is never trimmed",
    ),
}
