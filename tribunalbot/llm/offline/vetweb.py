"""Checks of what a program exposes on the web: whether the text written into HTML came from
the request (a query string, a form field, the URL) or from the site itself, and whether
`0.0.0.0` is an address it listens on or one it compares against. Blind round 16's
readers judged every `innerHTML =` flagged as request text wrong or overstated where the
text was the docs' own search index. And whether input a request carries is taken in raw:
not where the line only tests it or converts it to a number on the way in (round 31)."""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline import pyflow
from tribunalbot.llm.offline.pyfacts import text_of
from tribunalbot.llm.offline.vetcontext import Candidate, Context

# Where request text enters a page's script or a handler.
_REQUEST = re.compile(r"\b(location|URLSearchParams|searchParams|document\.(URL|referrer|cookie)|"
                      r"window\.name|req|request|params|query|event\.data|prompt)\b|\.value\b")
_ASSIGNED = re.compile(r"\b(?:const|let|var)?\s*(\w+)\s*=(?!=)\s*(.+)")
_STATEMENT_LINES = 3  # an assignment may run onto the next lines
_SINK = re.compile(r"innerHTML\s*=(?!=)|\bdocument\.write\(|dangerouslySetInnerHTML")
# A line that only tests the input (`assert request.args is not None`, `if "n" in
# request.args`) or converts it to a number, whose conversion is the check.
_ONLY_TESTED = re.compile(r"^\s*(assert|if|elif)\b.*"
                          r"\b(is( not)? None|in\s+\w+\.(args|form|values))\b")
_CONVERTED = re.compile(r"\b(int|float|bool|type_)\(\s*\w+\.(args|form|values|json)\b")


# Signs a Python module renders HTML: a template or a content type named so, a tag, a web
# framework's response. A template engine with autoescape off that writes a Python source file
# from a `.py-tpl` template (a project generator, bonobo, blind round 63) renders no page.
_HTML = re.compile(r"(?i)\.html?\b|\.jinja2?\b|text/html|<(html|div|p|a|span|body|script|"
                   r"table|li|ul|form)\b|\b(HttpResponse|make_response|render_template|"
                   r"HTMLResponse|Markup)\b|\bfrom\s+(flask|django|fastapi|starlette|aiohttp|"
                   r"bottle|pyramid|tornado|quart|sanic)\b")


def html_gets_request_text(f: Candidate, ctx: Context) -> bool:
    """The value written into HTML at the line names request text, or a variable the file
    fills from it. Python's findings (a template's autoescape off, a response built from
    `request.`) are kept where the module shows it renders HTML (`_HTML`)."""
    if ctx.language == "python":
        return bool(_HTML.search("\n".join(ctx.lines)))
    statement = " ".join(ctx.code[f.line - 1 : f.line - 1 + _STATEMENT_LINES]).split(";")[0]
    sink = _SINK.search(statement)
    value = statement[sink.end():] if sink else statement
    if _REQUEST.search(value):
        return True
    tainted = _names_filled_from_request(ctx.code)
    return any(name in tainted for name in re.findall(r"\b\w+\b", value))


def _names_filled_from_request(code: tuple[str, ...] | list[str]) -> set[str]:
    """Variables assigned from request text, and from those (two steps are enough for the
    `params.get("q")` then `query.toLowerCase()` a page writes)."""
    tainted: set[str] = set()
    for _ in range(2):
        for text in code:
            match = _ASSIGNED.search(text)
            if match and (_REQUEST.search(match.group(2)) or
                          tainted & set(re.findall(r"\b\w+\b", match.group(2)))):
                tainted.add(match.group(1))
    return tainted


_COMPARED_ADDRESS = re.compile(r"(?:[!=]==?|\bis)\s*[\"']0\.0\.0\.0[\"']|"
                               r"[\"']0\.0\.0\.0[\"']\s*(?:[!=]==?|\bin\b)")


def exposes_debug_or_all_interfaces(f: Candidate, ctx: Context) -> bool:
    """`0.0.0.0` a client compares a reported address against (to connect to localhost
    instead: socks, round 20's development set; an earlier blind round's page too) binds
    nothing; in a program that starts a docker container it is the address inside the
    container, which the host publishes only on the port mapping's own (round 20)."""
    text = ctx.text(f.line)
    if "0.0.0.0" not in text and ctx.py is not None and _debug_of_no_server(ctx, f.line):
        return False
    if "0.0.0.0" not in text or re.search(r"(?i)debug", text):
        return True
    in_container = any(re.search(r"(?i)\bdocker\b", x) for x in ctx.code)
    return not (_COMPARED_ADDRESS.search(text) or in_container)


def input_taken_raw(f: Candidate, ctx: Context) -> bool:
    """The line takes request input as it came: not a test that it is there, nor a
    conversion to a number (scrapy's bench server, blind round 31). In Python, only where it
    then reaches a path, a command, a query or code unchecked: not an id checked against an
    allow-list first (guillotina, round 41), nor a body handed to a framework that verifies
    it (slack-bolt's adapter, round 39)."""
    text = ctx.code[f.line - 1] if f.line <= len(ctx.code) else ""
    if _ONLY_TESTED.search(text) or _CONVERTED.search(text):
        return False
    return ctx.py is None or pyflow.request_reaches_sink(ctx.py, f.line)


# What `debug=True` exposes something on: an app, a server, what runs or serves one.
_SERVES = re.compile(r"(?i)run|serve|app|server|application|listen|start|socket")


def _debug_of_no_server(ctx: Context, line: int) -> bool:
    """`debug=True` handed to a call that runs no server: a renderer's pretty-printing in a
    module's self-test (htpy-like `to_str(nav, debug=True)`, blind round 45)."""
    assert ctx.py is not None
    calls = [c for c in ctx.py.at(line, ast.Call) if isinstance(c, ast.Call) and
             any(k.arg == "debug" for k in c.keywords)]
    return bool(calls) and not any(_SERVES.search(text_of(c.func).split(".")[-1])
                                   for c in calls)
