"""What blind round 22's readers judged wrong or weak (bench/blind/round22): a state
machine's own `.eval(env=env)` method read as eval of a string; SciPy's template tests,
whose asserts live in the hook each subclass defines, read as tests that check nothing;
`pickle.loads` behind `allow_pickle` read as avoidable; setattr of `__init__` (which type
checkers refuse as an assignment), a lexer's keyword list written as a split string, a
comprehension for a dict that already holds keys, and branches folded together with the
comment on each case lost."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

EVALS = '''def apply_rule(state, env, text):
    state.error.eval(env=env)
    return eval(text)
'''


def test_a_method_named_eval_is_no_eval_of_a_string():
    assert said_lines(EVALS, Topic.EVAL) == {3}


TEMPLATE = '''import unittest


class Template(unittest.TestCase):
    def test_views(self):
        for arg in self.arguments:
            self.pythranfunc(arg[::-1])

    def test_nothing(self):
        print(self.arguments)
'''


def test_a_test_that_hands_its_checks_to_a_hook_may_assert_there():
    assert said_lines(TEMPLATE, Topic.TEST_WITHOUT_ASSERT) == {9}


PICKLES = '''import pickle


def loads(data, allow_pickle=False):
    if not allow_pickle:
        raise RuntimeError("pickle is off")
    return pickle.loads(data)


def load(data):
    return pickle.loads(data)
'''


def test_a_pickle_the_caller_opts_into_is_the_safe_design_already():
    assert said_lines(PICKLES, Topic.UNSAFE_DESERIALIZE) == {11}


SETATTRS = '''def patch(cls, init, obj):
    setattr(cls, "__init__", init)
    setattr(obj, "tearDown", lambda *args: None)
    return cls


def name(obj):
    setattr(obj, "name", "x")
    return obj
'''


def test_setattr_is_plain_only_for_a_plain_attribute_and_value():
    assert said_lines(SETATTRS, Topic.SIMPLIFY, source="B010") == {8}


SPLITS = '''KEYWORDS = """
    abstract asm begin break case do else elsif end ensure extend
""".split()
PAIR = "left right".split()
'''


def test_a_word_list_written_as_a_string_is_left_as_it_is():
    # From round 33 no split string is noted: a house style (ruffscan.SILENCED).
    assert said_lines(SPLITS, Topic.SIMPLIFY, source="SIM905") == set()


DICTS = '''def options(pairs, debug):
    kwargs = {"debug": debug}
    for key, value in pairs:
        kwargs[key] = value
    return kwargs


def table(pairs):
    out = {}
    for key, value in pairs:
        out[key] = value
    return out
'''


def test_a_dict_comprehension_only_for_a_dict_that_starts_empty():
    assert said_lines(DICTS, Topic.SIMPLIFY, source="PERF403") == {11}


BRANCHES = '''def defines(names, name, block, fresh):
    if fresh:
        names[name] = block
        return True
    elif names[name] == block:
        return True  # a redefinition: a new variable of the same name
    else:
        return False  # an assignment to the existing variable


def plain(names, name, block):
    if names[name] == block:
        return True
    else:
        return False
'''


def test_branches_that_carry_a_comment_each_are_not_folded():
    # `plain` has one case; the last `elif` of a chain is not folded either (round 33).
    assert said_lines(BRANCHES, Topic.SIMPLIFY, source="SIM103") == {12}
