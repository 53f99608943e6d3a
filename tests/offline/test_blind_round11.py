"""What blind round 11's readers judged wrong (bench/blind/round11), one idiom a test, each on
a small piece of code written for the test, next to the same construct where the finding
stands: a detector that cannot be precise on an idiom says nothing there (issue 24)."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze


def found(code: str, language: str = "python") -> set[tuple[int, str]]:
    return {(f.line, str(f.topic)) for f in analyze(code, language).findings}


def line_of(code: str, needle: str) -> int:
    return next(n for n, text in enumerate(code.splitlines(), 1) if needle in text)


def flagged(code: str, needle: str, topic: str = "assert_in_code",
            language: str = "python") -> bool:
    return (line_of(code, needle), topic) in found(code, language)


def test_an_assert_of_the_step_the_object_is_at_states_how_it_is_driven() -> None:
    code = ("class Reader:\n    def __init__(self, path, mode):\n        self.path = path\n"
            "        self.mode = mode\n        self.pending = None\n\n"
            "    def take(self, kind):\n"
            "        assert self.pending is None, f'already holding {self.pending!r}'\n"
            "        self.pending = kind\n\n"
            "    def open(self):\n"
            "        assert self.mode in ('r', 'w'), 'mode must be r or w'\n"
            "        assert self.path is not None, 'no path was given'\n"
            "        return self.path\n")
    assert not flagged(code, "self.pending is None")
    # State only the constructor sets may be what a user passed in: still a check of input.
    assert flagged(code, "self.mode in")
    assert flagged(code, "self.path is not None")


def _tokenizer(second_step: str) -> str:
    return ("class Tokenizer:\n    def __init__(self, source, rules):\n"
            "        self.source = source\n        self.rules = rules\n"
            "        self.next_token = None\n        self.position = 0\n\n"
            "    def check(self, name):\n"
            "        assert self.next_token is None, f'already have {self.next_token!r}'\n"
            "        assert name in self.rules, f'Unknown token name: {name!r}'\n"
            "        assert isinstance(name, str), 'a token name is text'\n"
            "        self.next_token = self.rules[name].match(self.source, self.position)\n"
            "        return self.next_token is not None\n\n"
            "    def read(self):\n"
            f"{second_step}"
            "        token = self.next_token\n        self.next_token = None\n"
            "        return token\n\n"
            "    def expect(self, name):\n        token = self.read()\n"
            "        assert token.name == name, f'expected {name!r}, have {token!r}'\n"
            "        return token\n")


def test_a_class_that_asserts_its_steps_states_its_contract_with_its_callers() -> None:
    driven = _tokenizer("        assert self.next_token is not None, 'nothing checked'\n")
    assert not flagged(driven, "name in self.rules")
    assert not flagged(driven, "token.name == name")
    # An assert that reads only what the caller passed is a check of input even here.
    assert flagged(driven, "isinstance(name, str)")
    # One step-assert is no protocol: the class's other asserts are judged on their own.
    once = _tokenizer("")
    assert not flagged(once, "self.next_token is None")
    assert flagged(once, "name in self.rules")
    assert flagged(once, "token.name == name")


def test_an_assert_that_narrows_an_optional_the_next_lines_use_is_for_the_type_checker() -> None:
    def code(use: str, check: str = "assert spec.socket is not None") -> str:
        return ("def create_io(spec, group):\n"
                f"    {check}\n"
                "    assert not spec.python, 'socket: python executables not supported'\n"
                f"    host, port = {use}\n    return host, int(port)\n")
    used = code("spec.socket.split(':')")
    assert not flagged(used, "spec.socket is not None")
    # Rejecting an option the user set stays a finding beside it (round 10, judged right).
    assert flagged(used, "not spec.python")
    # Handed on unread, a None would travel further: the assert is the only check.
    assert flagged(code("connect(spec.socket)"), "spec.socket is not None")
    assert flagged(code("spec.socket.split(':')", "assert spec.socket is not None, 'no socket'"),
                   "spec.socket is not None")


def test_var_is_the_idiom_of_a_file_that_never_declares_with_let_or_const() -> None:
    def script(extra: str = "") -> str:
        return ("'use strict';\n\nvar pattern = /^\\s*([^\\s;]+)\\s*$/;\n\n"
                "function parse(accept) {\n  var parts = accept.split(',');\n"
                "  for (var i = 0; i < parts.length; i++) {\n"
                "    if (parts[i] === '*') { return i; }\n  }\n"
                f"{extra}  return -1;\n}}\n")
    es5 = script()
    assert not flagged(es5, "var pattern", "loose_equality", "javascript")
    assert not flagged(es5, "var parts", "loose_equality", "javascript")
    mixed = script("  const none = null;\n")
    assert flagged(mixed, "var pattern", "loose_equality", "javascript")
    assert flagged(mixed, "var parts", "loose_equality", "javascript")
    loose = script("  if (accept == 0) { return 0; }\n")
    assert flagged(loose, "accept == 0", "loose_equality", "javascript")
