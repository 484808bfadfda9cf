"""Pretty printing, repr protocol, highlighters and JSON (rich.pretty, rich.repr, rich.highlighter, rich.json)."""

import collections
import dataclasses
import io

import pytest
import rich.repr
from rich.console import Console
from rich.highlighter import ReprHighlighter
from rich.json import JSON
from rich.pretty import Pretty, pretty_repr
from rich.text import Text

DATA = {
    "name": "bench",
    "values": list(range(12)),
    "nested": {"a": [1, {"b": (2, 3)}], "s": {1}},
    "empty": [],
    "t": (1,),
}


def make_console(width=30):
    return Console(
        file=io.StringIO(),
        width=width,
        force_terminal=False,
        color_system=None,
        legacy_windows=False,
        _environ={},
    )


def test_pretty_repr_expands_only_what_does_not_fit():
    out = pretty_repr(DATA, max_width=40)
    lines = out.splitlines()
    assert lines[0] == "{"
    assert lines[1] == "    'name': 'bench',"
    assert lines[2] == "    'values': ["
    assert lines[3:15] == [f"        {i}," for i in range(11)] + ["        11"]
    assert "        'a': [1, {'b': (2, 3)}]," in lines
    assert lines[-3:] == ["    'empty': [],", "    't': (1,)", "}"]
    assert pretty_repr(DATA, max_width=200) == repr(DATA)


def test_pretty_repr_length_string_and_depth_limits():
    assert pretty_repr(DATA, max_length=3, max_width=200) == (
        "{'name': 'bench', 'values': [0, 1, 2, ... +9], 'nested': {'a': [1, {'b': (2, 3)}], 's': {1}}, ... +2}"
    )
    assert pretty_repr("x" * 30, max_string=10) == "'xxxxxxxxxx'+20"
    assert pretty_repr([[[[1]]]], max_depth=2) == "[[[...]]]"
    assert pretty_repr([1, 2], expand_all=True) == "[\n    1,\n    2\n]"
    assert pretty_repr({"k": [1, 2]}, indent_size=2, expand_all=True) == "{\n  'k': [\n    1,\n    2\n  ]\n}"


@dataclasses.dataclass
class Point:
    x: int
    y: list = dataclasses.field(default_factory=list)
    hidden: str = dataclasses.field(default="secret", repr=False)


def test_dataclass_and_namedtuple_reprs():
    assert pretty_repr(Point(1, [Point(2)]), max_width=80) == "Point(x=1, y=[Point(x=2, y=[])])"
    assert pretty_repr(Point(1, [Point(2)]), max_width=20) == (
        "Point(\n    x=1,\n    y=[\n        Point(\n            x=2,\n            y=[]\n        )\n    ]\n)"
    )
    NT = collections.namedtuple("NT", "a b")
    assert pretty_repr(NT(1, "two")) == "NT(a=1, b='two')"
    assert pretty_repr([NT(1, [1, 2, 3]), NT(2, None)], max_width=30) == (
        "[\n    NT(a=1, b=[1, 2, 3]),\n    NT(a=2, b=None)\n]"
    )


@rich.repr.auto
class Bird:
    def __init__(self, name, eats=None, fly=True):
        self.name = name
        self.eats = eats
        self.fly = fly

    def __rich_repr__(self):
        yield self.name
        yield "eats", self.eats, None
        yield "fly", self.fly, True


def test_rich_repr_protocol_omits_defaults():
    assert repr(Bird("gull", eats=["fish"], fly=False)) == "Bird('gull', eats=['fish'], fly=False)"
    assert repr(Bird("x")) == "Bird('x')"
    assert pretty_repr([Bird("a", eats=["seed", "worm"]), Bird("b")], max_width=40) == (
        "[\n    Bird('a', eats=['seed', 'worm']),\n    Bird('b')\n]"
    )


def test_special_containers_and_cycles():
    cyc = [1]
    cyc.append(cyc)
    assert pretty_repr(cyc) == "[1, ...]"
    assert pretty_repr(collections.defaultdict(list, {"k": [1]})) == "defaultdict(<class 'list'>, {'k': [1]})"
    assert pretty_repr(collections.OrderedDict(a=1)) == "OrderedDict([('a', 1)])"
    assert pretty_repr(collections.Counter("aab")) == "Counter({'a': 2, 'b': 1})"
    assert pretty_repr(frozenset()) == "frozenset()"
    assert pretty_repr(set()) == "set()"
    assert pretty_repr(collections.deque([1, 2], maxlen=3)) == "deque([1, 2], maxlen=3)"


def test_repr_highlighter_spans():
    text = Text("call(1, 'two', None, True, 0x1F) see http://x.y/z")
    ReprHighlighter().highlight(text)
    spans = sorted((s.start, s.end, s.style) for s in text.spans)
    assert spans == [
        (0, 4, "repr.call"),
        (4, 5, "repr.brace"),
        (5, 6, "repr.number"),
        (8, 13, "repr.str"),
        (15, 19, "repr.none"),
        (21, 25, "repr.bool_true"),
        (27, 31, "repr.number"),
        (31, 32, "repr.brace"),
        (37, 49, "repr.url"),
    ]


def test_json_renderable_indent_and_sort():
    console = make_console()
    console.print(JSON('{"b": [1, 2, {"c": null}], "a": true}', indent=2))
    console.print(JSON.from_data({"z": 1, "a": [1]}, sort_keys=True, indent=None))
    assert console.file.getvalue() == (
        '{\n  "b": [\n    1,\n    2,\n    {\n      "c": null\n    }\n  ],\n  "a": true\n}\n'
        '{"a": [1], "z": 1}\n'
    )
    with pytest.raises(Exception):
        JSON("{not valid json")


def test_pretty_renderable_in_console():
    console = make_console()
    console.print(Pretty(DATA, max_length=2))
    assert [line.rstrip() for line in console.file.getvalue().splitlines()] == [
        "{",
        "    'name': 'bench',",
        "    'values': [",
        "        0,",
        "        1,",
        "        ... +10",
        "    ],",
        "    ... +3",
        "}",
    ]
    console = make_console(60)
    console.print(Pretty([1, "a", None], indent_guides=False))
    assert console.file.getvalue() == "[1, 'a', None]\n"
