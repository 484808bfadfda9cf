"""Tree processing in lark.visitors: Transformer, Visitor, Interpreter, v_args, Discard."""
import pytest
from lark import Lark, Transformer, Visitor, Tree, Token, v_args, Discard
from lark.visitors import Interpreter, Transformer_InPlace, Transformer_NonRecursive, merge_transformers
from lark.exceptions import VisitError

GRAMMAR = r"""
    ?start: sum
    ?sum: product
        | sum "+" product -> add
        | sum "-" product -> sub
    ?product: atom
        | product "*" atom -> mul
        | product "/" atom -> div
    ?atom: NUMBER -> number
        | NAME -> var
        | "(" sum ")"
    %import common.NUMBER
    %import common.CNAME -> NAME
    %import common.WS_INLINE
    %ignore WS_INLINE
"""
PARSER = Lark(GRAMMAR, parser="lalr")


@v_args(inline=True)
class Calc(Transformer):
    def __init__(self, env=None):
        super().__init__()
        self.env = env or {}

    def number(self, tok):
        return int(tok)

    def var(self, name):
        return self.env[str(name)]

    def add(self, a, b):
        return a + b

    def sub(self, a, b):
        return a - b

    def mul(self, a, b):
        return a * b

    def div(self, a, b):
        return a // b


def test_transformer_evaluates_expressions():
    calc = Calc()
    assert calc.transform(PARSER.parse("1 + 2 * 3")) == 7
    assert calc.transform(PARSER.parse("(1 + 2) * 3 - 4")) == 5
    assert calc.transform(PARSER.parse("100 / 7 / 2")) == 7


def test_transformer_with_variables():
    calc = Calc({"x": 4, "y": 10})
    assert calc.transform(PARSER.parse("x * y - x")) == 36
    assert calc.transform(PARSER.parse("y / x + y")) == 12


def test_exception_inside_callback_wrapped_in_visit_error():
    calc = Calc({"x": 1})
    with pytest.raises(VisitError) as info:
        calc.transform(PARSER.parse("x + missing"))
    assert isinstance(info.value.orig_exc, KeyError)
    assert info.value.rule == "var"


def test_default_and_token_callbacks():
    class Upper(Transformer):
        def NAME(self, tok):
            return tok.update(value=tok.upper())

        def __default__(self, data, children, meta):
            return Tree("node_" + data, children, meta)

    tree = Upper().transform(PARSER.parse("a + b * c"))
    assert tree.data == "node_add"
    names = [str(t) for t in tree.scan_values(lambda v: isinstance(v, Token))]
    assert names == ["A", "B", "C"]


def test_discard_removes_children():
    class DropNumbers(Transformer):
        def number(self, children):
            return Discard

    tree = Lark(r"""
        start: (NUMBER | NAME)+
        %import common.NUMBER
        %import common.CNAME -> NAME
        %ignore " "
    """, parser="lalr").parse("a 1 b 2 3 c")

    class DropNumberTokens(Transformer):
        def NUMBER(self, tok):
            return Discard

    result = DropNumberTokens().transform(tree)
    assert [str(c) for c in result.children] == ["a", "b", "c"]
    nested = DropNumbers().transform(PARSER.parse("1 + 2"))
    assert nested.data == "add"
    assert nested.children == []


def test_visitor_counts_nodes():
    class Counter(Visitor):
        def __init__(self):
            self.counts = {}

        def __default__(self, tree):
            self.counts[tree.data] = self.counts.get(tree.data, 0) + 1

    c = Counter()
    c.visit(PARSER.parse("1 + 2 * x - (3 * 4)"))
    assert sorted(c.counts.items()) == [("add", 1), ("mul", 2), ("number", 4), ("sub", 1), ("var", 1)]
    c2 = Counter()
    c2.visit_topdown(PARSER.parse("a * b"))
    assert sorted(c2.counts.items()) == [("mul", 1), ("var", 2)]


def test_interpreter_controls_traversal():
    class Eval(Interpreter):
        def number(self, tree):
            return int(tree.children[0])

        def add(self, tree):
            left, right = self.visit_children(tree)
            return left + right

        def mul(self, tree):
            left = self.visit(tree.children[0])
            if left == 0:
                return 0
            return left * self.visit(tree.children[1])

        def var(self, tree):
            raise LookupError(str(tree.children[0]))

    ev = Eval()
    assert ev.visit(PARSER.parse("2 * 3 + 4")) == 10
    assert ev.visit(PARSER.parse("0 * undefined")) == 0
    with pytest.raises(LookupError):
        ev.visit(PARSER.parse("1 * undefined"))


def test_inplace_and_nonrecursive_transformers():
    class Negate(Transformer_InPlace):
        @v_args(tree=True)
        def number(self, tree):
            tree.children[0] = Token("NUMBER", "-" + tree.children[0])
            return tree

    tree = PARSER.parse("1 + 2 * 3")
    out = Negate().transform(tree)
    assert [str(t) for t in out.scan_values(lambda v: isinstance(v, Token))] == ["-1", "-2", "-3"]

    class Sum(Transformer_NonRecursive):
        def number(self, children):
            return int(children[0])

        def add(self, children):
            return sum(children)

    deep = PARSER.parse(" + ".join(str(i) for i in range(1, 9)))
    assert Sum().transform(deep) == 36


def test_v_args_tree_and_meta():
    parser = Lark(GRAMMAR, parser="lalr", propagate_positions=True)

    class Spans(Transformer):
        @v_args(meta=True)
        def var(self, meta, children):
            return (str(children[0]), meta.column, meta.end_column)

        @v_args(tree=True)
        def add(self, tree):
            return [c for c in tree.children]

    result = Spans().transform(parser.parse("ab + cde"))
    assert result == [("ab", 1, 3), ("cde", 6, 9)]


def test_transformer_chaining_and_merge():
    class Numbers(Transformer):
        def number(self, children):
            return int(children[0])

    class Ops(Transformer):
        def add(self, children):
            return children[0] + children[1]

        def mul(self, children):
            return children[0] * children[1]

    chained = Numbers() * Ops()
    assert chained.transform(PARSER.parse("2 * 5 + 1")) == 11

    class Base(Transformer):
        def add(self, children):
            return ("add", children[0], children[1])

    merged = merge_transformers(Base(), num=Numbers())
    out = merged.transform(Lark(GRAMMAR.replace("-> number", "-> num__number"), parser="lalr").parse("3 + 4"))
    assert out == ("add", 3, 4)
