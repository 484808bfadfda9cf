"""Long executions of lark, with state carried across calls, for harder items.

Each test drives one area of the package through dozens of calls over inputs
that the test builds with explicit loops (arithmetic progressions,
small-modulus patterns, names built from the loop index, programs and
expressions of growing size), and most carry state from one call into the
next: a result is fed into the next input, a variable environment evolves,
one tree is rewritten again and again, one interactive parser is walked token
by token.  Errors raised inside the package are part of the plan: the tests
catch them inside their loops, or let the package's own recovery run.  The
asserts check aggregates.

The few grammars are built once, at import, from the strings below (no grammar
cache on disk), and every test reuses them across many parse calls.
Everything is deterministic: no random numbers, no clock, and nothing asserted
depends on the iteration order of a set of strings.
"""

import copy

import pytest
from lark import Discard, Lark, Token, Transformer, Tree, Visitor, v_args
from lark.exceptions import (
    MissingVariableError,
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import DedentError, Indenter
from lark.tree_templates import Template, TemplateTranslator
from lark.utils import TextSlice
from lark.visitors import (
    CollapseAmbiguities,
    Interpreter,
    Transformer_InPlaceRecursive,
    Transformer_NonRecursive,
    Visitor_Recursive,
)

# Arithmetic with variables and calls; `[...]` leaves a None placeholder when
# a call has no arguments (maybe_placeholders is on by default).
CALC_GRAMMAR = r"""
    ?start: sum
    ?sum: product
        | sum "+" product -> add
        | sum "-" product -> sub
    ?product: atom
        | product "*" atom -> mul
        | product "/" atom -> div
        | product "%" atom -> mod
    ?atom: NUMBER -> number
         | NAME -> var
         | "-" atom -> neg
         | NAME "(" [sum ("," sum)*] ")" -> call
         | "(" sum ")"
    NUMBER: /[0-9]+/
    NAME: /[a-z][a-z0-9]*/
    WS: / +/
    %ignore WS
"""

# Statements for error recovery and the interactive parser.
STMT_GRAMMAR = r"""
    start: stmt+
    stmt: NAME "=" value ";"
    ?value: NUMBER -> num
          | NAME -> ref
          | "[" [value ("," value)*] "]" -> group
    NAME: /[a-z][a-z0-9]*/
    NUMBER: /[0-9]+/
    WS: /[ \n]+/
    %ignore WS
"""

# Tokens only, for Lark.lex: the keywords are strings that NAME also matches.
LEX_GRAMMAR = r"""
    start: (IF | ELSE | WHILE | NAME | NUMBER | OP | STRING)*
    IF: "if"
    ELSE: "else"
    WHILE: "while"
    NAME: /[a-z_][a-z0-9_]*/
    NUMBER: /[0-9]+/
    OP: "==" | "=" | "<" | "+"
    STRING: /"[^"]*"/
    COMMENT: /#[^\n]*/
    WS: /[ \n]+/
    %ignore WS
    %ignore COMMENT
"""

BLOCK_GRAMMAR = r"""
    start: _NL* stmt+
    ?stmt: simple | block
    simple: NAME _NL
          | NAME LPAR NAME ("," NAME)* RPAR _NL
    block: NAME ":" _NL _INDENT stmt+ _DEDENT
    NAME: /[a-z][a-z0-9]*/
    LPAR: "("
    RPAR: ")"
    _NL: /(\r?\n[\t ]*)+/
    %ignore " "
    %declare _INDENT _DEDENT
"""

# Ambiguous on purpose: every bracketing of a chain of operators is a parse.
AMBIG_GRAMMAR = r"""
    start: e
    e: e "+" e -> add
     | e "*" e -> mul
     | NUMBER -> num
    NUMBER: /[0-9]+/
"""


class BlockIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ("LPAR",)
    CLOSE_PAREN_types = ("RPAR",)
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


COMMENTS = []
NAMES_SEEN = []


def _on_comment(tok):
    COMMENTS.append(tok.line)
    return tok


def _on_name(tok):
    NAMES_SEEN.append(str(tok))
    return tok


CALC = Lark(CALC_GRAMMAR, parser="lalr", cache=False)
STMTS = Lark(STMT_GRAMMAR, parser="lalr", cache=False)
LEXER = Lark(LEX_GRAMMAR, parser="lalr", lexer="basic", cache=False,
             lexer_callbacks={"COMMENT": _on_comment, "NAME": _on_name})
BLOCKS = Lark(BLOCK_GRAMMAR, parser="lalr", postlex=BlockIndenter(),
              propagate_positions=True, cache=False)
AMBIG = Lark(AMBIG_GRAMMAR, parser="earley", ambiguity="explicit", cache=False)


CALC_FUNCS = {"max": max, "min": min, "abs": abs}


@v_args(inline=True)
class Calc(Transformer):
    """Evaluates CALC trees against an environment the test keeps changing."""

    def __init__(self, env):
        super().__init__()
        self.env = env

    def number(self, tok):
        return int(tok)

    def var(self, name):
        return self.env[str(name)]

    def neg(self, value):
        return -value

    def add(self, a, b):
        return a + b

    def sub(self, a, b):
        return a - b

    def mul(self, a, b):
        return a * b

    def div(self, a, b):
        return a // b

    def mod(self, a, b):
        return a % b

    def call(self, name, *args):
        if args == (None,):
            return 0  # an empty call: only the placeholder
        return CALC_FUNCS[str(name)](*args)


def test_calc_transformer_with_evolving_environment():
    env = {f"k{j}": j * 3 + 1 for j in range(5)}
    env["acc"] = 0
    calc = Calc(env)
    fnames = ["abs", "max", "min", "sq"]
    results = []
    failures = []
    for i in range(40):
        a = (i * 7 + 3) % 11
        b = i % 5
        c = (i * 3) % 7
        shape = i % 4
        if shape == 0:
            text = f"k{b} + {a} * (k{(b + 2) % 5} - {i})"
        elif shape == 1:
            text = f"max(k{b}, {a}, acc) / {c}"
        elif shape == 2:
            text = f"-(acc % {a + 1}) + min({b}, k{b}) * zero()"
        else:
            text = f"{fnames[b % 4]}(acc - {i * 13}) % 97 + k{b}"
        try:
            value = calc.transform(CALC.parse(text))
        except VisitError as e:
            failures.append((i, e.rule, type(e.orig_exc).__name__))
            continue
        results.append(value)
        env["acc"] = value
        env[f"k{b}"] = value % 100
    assert len(results) == 33
    assert sum(results) == 1360
    assert results[-5:] == [172, 59, 10, -4, 118]
    assert [f[0] for f in failures] == [3, 7, 11, 21, 23, 27, 31]
    assert sorted({(rule, exc) for _, rule, exc in failures}) == [
        ("call", "KeyError"), ("call", "TypeError"), ("div", "ZeroDivisionError")]
    assert sorted(env.items()) == [
        ("acc", 118), ("k0", 72), ("k1", 59), ("k2", 10), ("k3", 96), ("k4", 18)]


def test_lexer_keywords_comments_and_lines():
    del COMMENTS[:]
    del NAMES_SEEN[:]
    kinds = {}
    last_positions = []
    bad = []
    keywords = ["if", "else", "while"]
    for i in range(30):
        kw = keywords[i % 3]
        parts = [f"{kw} k{i % 5} == {i * 7 % 23}"]
        if i % 4 == 1:
            parts.append(f'"line{i}\nnext{i % 3}"')  # a string spanning two lines
        if i % 3 == 0:
            parts.append(f"# note {i}\n")
        parts.append(f"{kw}{i % 2 and 'x' or ''} = {i % 6} + iffy")
        if i % 7 == 6:
            parts.append("$")
        text = " ".join(parts)
        try:
            toks = list(LEXER.lex(text))
        except UnexpectedCharacters as e:
            bad.append((i, e.line, e.column))
            continue
        for t in toks:
            kinds[t.type] = kinds.get(t.type, 0) + 1
        last = toks[-1]
        last_positions.append((last.line, last.column, last.end_pos))
    raw = [t.type for t in LEXER.lex('if a # c\n"x\ny" b', dont_ignore=True)]
    assert sorted(kinds.items()) == [
        ("ELSE", 14), ("IF", 12), ("NAME", 65), ("NUMBER", 52), ("OP", 78), ("STRING", 7), ("WHILE", 13)]
    assert bad == [(6, 2, 16), (13, 2, 25), (20, 1, 32), (27, 2, 17)]
    assert last_positions[:4] == [(2, 11, 34), (2, 20, 43), (1, 28, 31), (2, 12, 36)]
    assert sum(p[2] for p in last_positions) == 929
    assert len(COMMENTS) == 11 and COMMENTS[:5] == [1, 1, 1, 2, 1]
    assert len(NAMES_SEEN) == 77
    assert NAMES_SEEN[:6] == ["k0", "iffy", "k1", "elsex", "iffy", "k2"]
    assert raw == ["IF", "WS", "NAME", "WS", "COMMENT", "WS", "STRING", "WS", "NAME"]


def _program(p):
    """A block-structured program whose shape follows the index p."""
    depths = [0]
    for j in range(1, 4 + p % 6):
        d = depths[-1]
        if (j * 3 + p) % 4 != 0:
            depths.append(d + 1)
        else:
            depths.append((j + p) % (d + 1))
    lines = []
    for j, d in enumerate(depths):
        head = j + 1 < len(depths) and depths[j + 1] == d + 1
        indent = "\t" * d if p % 5 == 4 else "    " * d
        name = f"n{(p + j) % 4}"
        if head:
            lines.append(f"{indent}{name}:")
        elif j % 3 == 2:
            lines.append(f"{indent}{name}(a{j},\n  b{p % 3})")  # newline inside parens
        else:
            lines.append(f"{indent}{name}")
    if p % 6 == 5:
        lines.append("  odd")  # dedents to a column no block opened
    return "\n".join(lines) + "\n"


def test_indenter_programs_of_growing_depth():
    blocks = simples = 0
    spans = []
    errors = []
    for p in range(18):
        try:
            tree = BLOCKS.parse(_program(p))
        except DedentError as e:
            errors.append((p, str(e)))
            continue
        nb = sum(1 for _ in tree.find_data("block"))
        blocks += nb
        simples += sum(1 for _ in tree.find_data("simple"))
        spans.append((tree.meta.line, tree.meta.end_line))
    assert (blocks, simples) == (60, 30)
    assert len(spans) == 15
    assert [end for _, end in spans] == [5, 6, 8, 9, 9, 5, 7, 8, 8, 10, 5, 6, 8, 9, 9]
    assert {line for line, _ in spans} == {1}
    assert [p for p, _ in errors] == [5, 11, 17]
    assert errors[0][1] == "Unexpected dedent to column 2. Expected dedent to 0"


def test_on_error_recovery_over_faulty_programs():
    log = []
    trees = []
    escaped = []
    for i in range(16):
        stmts = []
        for j in range(4 + i % 4):
            name = f"v{(i + j) % 6}"
            fault = (i * 3 + j * 5) % 7
            if fault == 0:
                stmts.append(f"{name} = = {j};")
            elif fault == 1:
                stmts.append(f"{name} = [{j}, $ {i}];")
            elif fault == 2:
                stmts.append(f"{name} = {j} {i} ;")
            else:
                stmts.append(f"{name} = [{j}, [v{j % 3}], {i}];")
        if i % 5 == 4:
            stmts.append(f"tail{i} = {i}")  # no closing ";"
        text = " ".join(stmts)
        seen = []

        def on_error(e, seen=seen):
            kind = type(e).__name__
            where = e.column
            seen.append((kind, where))
            return len(seen) < 6

        try:
            tree = STMTS.parse(text, on_error=on_error)
        except UnexpectedInput as e:
            escaped.append((i, type(e).__name__, len(seen)))
            log.extend(seen)
            continue
        log.extend(seen)
        trees.append(len(tree.children))
    kinds = {}
    for kind, _ in log:
        kinds[kind] = kinds.get(kind, 0) + 1
    assert len(log) == 40
    assert sorted(kinds.items()) == [("UnexpectedCharacters", 13), ("UnexpectedToken", 27)]
    assert trees == [4, 5, 6, 7, 5, 6, 7, 4, 6, 7, 4, 5, 7]
    assert escaped == [(4, "UnexpectedToken", 2), (9, "UnexpectedToken", 3), (14, "UnexpectedToken", 3)]
    assert log[:6] == [("UnexpectedToken", 6), ("UnexpectedCharacters", 58), ("UnexpectedCharacters", 29),
                       ("UnexpectedToken", 80), ("UnexpectedToken", 46), ("UnexpectedToken", 55)]


TOKEN_VALUES = {"EQUAL": "=", "SEMICOLON": ";", "LSQB": "[", "RSQB": "]", "COMMA": ","}
CLOSING = ["$END", "SEMICOLON", "RSQB", "NUMBER", "EQUAL", "NAME"]


def _terminals(ip):
    # the token types the current state has an action for
    return sorted(t for t in ip.choices() if t.isupper())


def test_interactive_parser_walk_and_repair():
    ip = STMTS.parse_interactive("")
    fed = []
    sizes = []
    branches = 0
    step = 0
    result = None
    rejected = 0
    while result is None:
        acc = _terminals(ip)
        sizes.append(len(acc))
        if step < 40:
            options = [t for t in acc if t != "$END"]  # no ending yet
            k = (step * 7 + step // 4) % len(options)
            options = options[k:] + options[:k]
        else:
            options = [t for t in CLOSING if t in acc]
        for choice in options:
            if choice == "NAME":
                value = f"k{step % 5}"
            elif choice == "NUMBER":
                value = str(step * 3)
            else:
                value = TOKEN_VALUES.get(choice, "")
            # an action in the table is not always a token the parser can take
            try:
                ip.copy().feed_token(Token(choice, value))
            except UnexpectedToken:
                rejected += 1
            else:
                break
        if choice == "$END":
            result = ip.feed_eof()
            break
        if step % 6 == 5:
            # a copy goes its own way; the original is unaffected
            other = ip.copy()
            try:
                other.feed_token(Token("RSQB", "]"))
                branches += 1
            except UnexpectedToken:
                branches -= 1
        ip.feed_token(Token(choice, value))
        fed.append(choice)
        step += 1

    # Repair: statements missing their ";" get one inserted, other bad tokens are dropped.
    inserted = dropped = 0
    repaired = []
    for i in range(8):
        parts = []
        for j in range(3 + i % 3):
            end = "" if (i + j * 2) % 5 == 1 else ";"
            extra = " ]" if (i * j) % 7 == 3 else ""
            parts.append(f"r{j} = [{i}, r{(j + i) % 4}]{extra}{end}")
        ip = STMTS.parse_interactive(" ".join(parts) + ";")
        while True:
            try:
                for _tok in ip.iter_parse():
                    pass
                break
            except UnexpectedToken as e:
                if e.token.type == "NAME" and "SEMICOLON" in ip.choices():
                    ip.feed_token(Token("SEMICOLON", ";"))
                    ip.feed_token(e.token)
                    inserted += 1
                else:
                    dropped += 1
        tree = ip.feed_eof(ip.lexer_thread.state.last_token)
        repaired.append(len(tree.children))
    imm = STMTS.parse_interactive("a = [1, 2];").as_immutable()
    walked = imm.exhaust_lexer()
    assert len(fed) == 44
    assert fed[:8] == ["NAME", "EQUAL", "NUMBER", "SEMICOLON", "NAME", "EQUAL", "NAME", "SEMICOLON"]
    assert [fed.count(t) for t in ("NAME", "NUMBER", "LSQB", "RSQB", "COMMA", "SEMICOLON")] == [11, 2, 7, 7, 7, 5]
    assert len(sizes) == 45 and sum(sizes) == 125
    assert (branches, rejected) == (5, 10)
    assert result.pretty().count("\n") == 26
    assert (inserted, dropped) == (6, 11)
    assert repaired == [3, 4, 5, 3, 4, 5, 3, 4]
    assert len(walked.parser_state.state_stack) == 5
    assert len(imm.parser_state.state_stack) == 1


CALC_EXAMPLES = {
    "missing operand": ["1 +", "k1 *", "1 + k1 *"],
    "double operator": ["3 * / 4", "8 / * 2", "1 + * 2"],
    "unclosed paren": ["(1 + 2", "max(1, 2", "(1 - 2 * 3"],
    "stray close": ["1 + 2)", "k0)", "f(1))"],
    "bad character": ["1 & 2", "1 + 2 & 3"],
    "empty argument": ["f(,", "min(1,, 2)"],
}


def test_match_examples_classifies_errors():
    labels = []
    contexts = []
    for i in range(18):
        a = (i * 5 + 2) % 9
        shape = i % 6
        if shape == 0:
            text = f"{a} + k{i % 4} *"
        elif shape == 1:
            text = f"({a} - {i} * {a}"
        elif shape == 2:
            text = f"{a} {'*/+-'[i % 4]} {'/*+*'[i % 4]} {i}"
        elif shape == 3:
            text = f"max({a}, k{i % 3}))"
        elif shape == 4:
            text = f"{a} + {i} & {a}"
        else:
            text = f"min({a},, {i})"
        with pytest.raises(UnexpectedInput) as info:
            CALC.parse(text)
        err = info.value
        label = err.match_examples(CALC.parse, CALC_EXAMPLES, use_accepts=False)
        labels.append(label)
        contexts.append(err.get_context(text, span=3 + i % 4))
    assert labels[:6] == ["missing operand", "unclosed paren", "missing operand",
                          "stray close", "bad character", "empty argument"]
    assert labels.count("missing operand") == 5
    assert labels.count("double operator") == 1
    assert None not in labels
    assert contexts[:6] == ["k0 *\n   ^\n", "1 * 7\n    ^\n", "3 + + 2\n    ^\n",
                            "8, k0))\n      ^\n", " 4 & 4\n   ^\n", "n(0,, 5)\n    ^\n"]


def _count_trees(node):
    """How many unambiguous trees a tree with _ambig nodes stands for."""
    if not isinstance(node, Tree):
        return 1
    if node.data == "_ambig":
        return sum(_count_trees(c) for c in node.children)
    total = 1
    for c in node.children:
        total *= _count_trees(c)
    return total


def test_earley_ambiguity_grows_with_chain_length():
    counts = []
    collapsed = []
    for m in range(8):
        n = 2 + m % 3
        ops = "".join("+*"[(k * 3 + m) % 2] + str((k * 7 + m) % 10) for k in range(n - 1))
        text = str(m) + ops
        tree = AMBIG.parse(text)
        counts.append(_count_trees(tree))
        alts = CollapseAmbiguities().transform(tree)
        collapsed.append(sum(len(list(t.find_data("mul"))) for t in alts))
    assert counts == [1, 2, 5, 1, 2, 5, 1, 2]
    assert collapsed == [0, 2, 5, 1, 2, 10, 0, 2]


def test_tree_templates_simplify_until_fixpoint():
    x = Tree("var", ["$x"])
    rules = {
        Template(Tree("add", [x, Tree("number", ["0"])])): Template(x),
        Template(Tree("mul", [x, Tree("number", ["1"])])): Template(x),
        Template(Tree("mul", [Tree("number", ["1"]), x])): Template(x),
        Template(Tree("neg", [Tree("neg", [x])])): Template(x),
    }
    translator = TemplateTranslator(rules)
    broken = Template(Tree("sub", [x, Tree("var", ["$y"])]))
    rounds = []
    sizes = []
    missing = 0
    for i in range(16):
        terms = []
        for j in range(2 + i % 3):
            k = (i + j * 3) % 5
            if k == 0:
                terms.append(f"k{j} * 1")
            elif k == 1:
                terms.append(f"1 * (k{j} + 0)")
            elif k == 2:
                terms.append(f"- - k{j}")
            elif k == 3:
                terms.append(f"k{j} + - - 0")  # the "+ 0" shows only once "- -" is gone
            else:
                terms.append(f"{j + 2} * - - 1")
        tree = CALC.parse(" + ".join(terms) + (" + 0" if i % 2 else ""))
        n = 0
        while True:
            before = copy.deepcopy(tree)
            tree = translator.translate(tree)
            n += 1
            if tree == before:
                break
        rounds.append(n)
        sizes.append(sum(1 for _ in tree.iter_subtrees()))
        for _sub, found in Template(Tree("add", [x, Tree("var", ["$z"])])).search(tree):
            try:
                broken.apply_vars(found)
            except MissingVariableError:
                missing += 1
    assert rounds.count(3) == 15 and rounds.index(2) == 12
    assert sizes == [3, 5, 7] * 5 + [3]
    assert missing == 31


def test_tree_editing_and_pretty_on_one_growing_tree():
    root = Tree("root", [])
    pretty_lines = []
    expanded = 0
    for i in range(36):
        nodes = list(root.iter_subtrees_topdown())
        parent = nodes[(i * 5) % len(nodes)]
        if i % 4 == 3:
            parent.children.append(Tree("_grp", [Token("N", str(i)), Tree(f"n{i % 3}", [])]))
        else:
            parent.children.append(Tree(f"n{i % 3}", [Token("N", str(i))]))
        if i % 9 == 8:
            for t in list(root.iter_subtrees_topdown()):
                if t.expand_kids_by_data("_grp"):
                    expanded += 1
        pretty_lines.append(root.pretty().count("\n"))
    values = [int(v) for v in root.scan_values(lambda v: isinstance(v, Token))]
    clone = copy.deepcopy(root)
    clone.children[0].set("moved", [])
    assert pretty_lines[-5:] == [59, 60, 61, 62, 62]
    assert expanded == 7
    assert sum(values) == 630 and values[:8] == [0, 1, 4, 2, 3, 6, 8, 11]
    assert root.children[0].data != "moved"  # the deep copy was changed, not the tree
    assert sum(1 for _ in root.find_pred(lambda t: t.data == "n1")) == 12


class _Count(Visitor):
    def __init__(self):
        self.seen = []

    def __default__(self, tree):
        self.seen.append(tree.data)


class _Depth(Visitor_Recursive):
    def __init__(self):
        self.order = []

    def add(self, tree):
        self.order.append("+")

    def mul(self, tree):
        self.order.append("*")


class _Lazy(Interpreter):
    """Evaluates CALC trees; pick(c, a, b) evaluates only one branch."""

    def __init__(self):
        self.skipped = 0

    def number(self, tree):
        return int(tree.children[0])

    def var(self, tree):
        return int(str(tree.children[0])[1:])

    def add(self, tree):
        a, b = self.visit_children(tree)
        return a + b

    def mul(self, tree):
        a, b = self.visit_children(tree)
        return a * b

    def sub(self, tree):
        a, b = self.visit_children(tree)
        return a - b

    def call(self, tree):
        _name, cond, yes, no = tree.children
        self.skipped += 1
        return self.visit(yes if self.visit(cond) % 2 else no)


class _Fold(Transformer_NonRecursive):
    def number(self, children):
        return int(children[0])

    def var(self, children):
        return Discard if str(children[0]) == "k0" else int(str(children[0])[1:])

    def add(self, children):
        return sum(children)

    def mul(self, children):
        out = 1
        for c in children:
            out *= c
        return out

    def sub(self, children):
        return children[0] - sum(children[1:])


class _Swap(Transformer_InPlaceRecursive):
    def add(self, children):
        return Tree("add", children[::-1])


def test_visitors_interpreter_and_nonrecursive_fold():
    order = []
    lazy = _Lazy()
    lazy_total = fold_total = 0
    seen_total = 0
    swapped = []
    for i in range(24):
        a, b = (i * 7 + 3) % 11, i % 5
        text = f"pick(k{b} + {a}, {a} * k{(b + 1) % 5}, k{b} - {i}) + {i} * (k{i % 3} + {a})"
        if i % 3 == 0:
            text = f"({text}) * pick({i}, k{b}, {b})"
        tree = CALC.parse(text)
        counter = _Count()
        counter.visit(tree)
        seen_total += len(counter.seen)
        depth = _Depth()
        depth.visit(tree)
        order.append("".join(depth.order))
        lazy_total += lazy.visit(tree)
        tail = f"k0 * {b}" if i % 2 else f"(k{b} - {a})"
        plain = CALC.parse(f"k{b} + {a} * (k{i % 4} - {i}) + {tail}")
        fold_total += _Fold().transform(plain)
        swapped.append(" ".join(_Swap().transform(plain).scan_values(lambda v: True)))
    assert seen_total == 424
    assert order[:4] == ["+*+*+*", "+*+*+", "+*+*+", "+*+*+*"]
    assert (lazy_total, lazy.skipped) == (2088, 32)
    assert fold_total == -1582
    assert swapped[:3] == ["k0 3 3 k0 0 k0", "k0 1 10 k1 1 k1", "k2 6 6 k2 2 k2"]


def test_text_slices_of_one_document():
    lines = []
    for j in range(30):
        if j % 3 == 0:
            value = str(j * 11 % 17)
        elif j % 3 == 1:
            value = f"[{j}, s{j - 1}]"
        else:
            value = f"s{j // 2}"
        lines.append(" " * (j % 3) + f"s{j} = {value};")
    text = "\n".join(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    firsts = []
    sizes = []
    errors = []
    for w in range(24):
        lo = starts[w]
        hi = starts[w + 1 + w % 4] - 1
        if w % 6 == 5:
            hi -= 2  # cuts the last statement short
        if w % 5 == 4:
            hi -= len(text)  # the same end, counted from the end of the text
        try:
            tree = STMTS.parse(TextSlice(text, lo, hi))
        except UnexpectedInput as e:
            errors.append((w, type(e).__name__, e.line, e.column))
            continue
        first = tree.children[0].children[0]
        firsts.append((first.line, first.column, first.start_pos))
        sizes.append(len(tree.children))
    assert len(text) == 383
    assert firsts[:5] == [(1, 1, 0), (2, 2, 9), (3, 3, 25), (4, 1, 34), (5, 2, 44)]
    assert sum(sizes) == 48
    assert errors == [(5, "UnexpectedToken", 7, 6), (11, "UnexpectedToken", 15, 9),
                      (17, "UnexpectedToken", 19, 7), (23, "UnexpectedToken", 27, 9)]
