"""What blind rounds 84 and 85's readers judged weak or wrong (bench/blind/round84, round85),
fixed after the rounds: imports under `TYPE_CHECKING` read only by a type alias written as a
string (`_Arg: 'TypeAlias' = 'Union[Literal["a"], Type[Lexer]]'`) called unused,
`getattr(cls, "__fields__")` of an attribute a typed class leaves to its subclasses
urged as a plain read, and two branches joined with `or` where the chain's `else` does the
same again. The same findings elsewhere are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

ALIASES = '''from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from typing import Literal, Type, Union

    from .lexer import Lexer
    from .grammar import Rule

_LexerArg: 'TypeAlias' = 'Union[Literal["auto", "basic"], Type[Lexer]]'
_Callback = Callable[[str], str]
NOTE = "Rule of thumb: keep it short"


def lexer_of(arg: "_LexerArg") -> None:
    print(arg)
'''


def test_names_a_string_type_alias_reads_are_not_unused():
    assert said_lines(ALIASES, Topic.UNUSED_IMPORT) == {7}


SERIALIZE = '''from typing import Any, Dict


class Serialize:
    def serialize(self) -> Dict[str, Any]:
        fields = getattr(self, "__serialize_fields__")
        return {f: self.__dict__[f] for f in fields}

    @classmethod
    def load(cls, data: Dict[str, Any]) -> Any:
        fields = getattr(cls, "__serialize_fields__")
        return cls(**{f: data[f] for f in fields})


class Point(Serialize):
    __serialize_fields__ = ("x", "y")
    label = "point"

    def __init__(self, x: int = 0, y: int = 0) -> None:
        self.x, self.y = x, y

    def name(self) -> str:
        return getattr(self, "label")
'''


def test_getattr_of_what_a_typed_class_leaves_to_subclasses_is_kept():
    assert said_lines(SERIALIZE, Topic.SIMPLIFY) == {23}


CHAIN = '''def join(ctext, ntext, cnum, nnum):
    if cnum < 100:
        return "%s-%s" % (ctext, ntext)
    elif nnum == 1:
        return "%s %s" % (ctext, ntext)
    elif cnum == 100:
        return "%s %s" % (ctext, ntext)
    else:
        return "%s %s" % (ctext, ntext)


def kind(x):
    if x < 0:
        return "negative"
    elif x == 1:
        return "unit"
    elif x == 2:
        return "unit"
    else:
        return "other"
'''


def test_branches_are_not_joined_where_the_else_does_the_same():
    assert said_lines(CHAIN, Topic.SIMPLIFY) == {15}
