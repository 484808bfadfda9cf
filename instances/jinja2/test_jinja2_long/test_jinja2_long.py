"""Long executions of jinja2, with state carried across calls.

Each test drives one area of the package (the LRU cache, macro argument
binding, the undefined types, loop contexts, the lexer, the parser and node
walkers, the sandbox, the sorting/grouping filters, urlize, the numeric
filters, loaders with an evicting template cache, native rendering) through
many calls over inputs built by explicit loops: arithmetic progressions,
small-modulus patterns, strings built from the loop index.  Templates are
compiled once and rendered many times, and most tests feed what one call
returned into the next call or keep one object across the whole run, then
assert aggregates at the end.  The point is to make the package's own
functions run long and deep, so that questions about what they did take
patient, step-by-step reasoning over the test and the source.
"""

import pytest
from jinja2 import (
    ChainableUndefined,
    DebugUndefined,
    DictLoader,
    Environment,
    FunctionLoader,
    PrefixLoader,
    StrictUndefined,
    TemplateNotFound,
    TemplatesNotFound,
    TemplateSyntaxError,
    Undefined,
    UndefinedError,
    meta,
    nodes,
)
from jinja2.exceptions import SecurityError
from jinja2.nativetypes import NativeEnvironment
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment
from jinja2.utils import LRUCache


def test_lru_cache_insert_lookup_evict_cycles():
    # One cache of capacity 6 over 11 possible keys, 60 operations in a
    # fixed rotation: two writes, a get, a setdefault, a delete, a lookup.
    cache = LRUCache(6)
    hits = misses = deleted = absent = lost = 0
    recent_hits = 0
    last_written = None
    for i in range(60):
        key = f"k{(i * 5 + 2) % 11}"
        op = i % 6
        if op in (0, 1):
            cache[key] = i
            last_written = key
        elif op == 2:
            value = cache.get(key, "none")
            if value == "none":
                misses += 1
            else:
                hits += 1
        elif op == 3:
            cache.setdefault(key, 100 + i)
        elif op == 4:
            # Deletes follow their own key pattern.
            try:
                del cache[f"k{(i * 3) % 11}"]
            except KeyError:
                absent += 1
            else:
                deleted += 1
        else:
            # Look the last written key up twice in a row.
            try:
                cache[last_written]
                recent_hits += cache[last_written] >= 0
            except KeyError:
                lost += 1
    snapshot = cache.copy()
    snapshot["extra"] = -1
    assert (hits, misses, deleted, absent, lost, recent_hits) == (5, 5, 5, 5, 1, 9)
    assert len(cache) == 6
    assert "k3" not in cache
    assert cache.keys() == ["k2", "k1", "k7", "k8", "k5", "k4"]
    assert cache.values() == [55, 157, 145, 54, 49, 151]
    assert list(reversed(cache)) == ["k4", "k5", "k8", "k7", "k1", "k2"]
    assert cache.items()[:2] == [("k2", 55), ("k1", 157)]
    with pytest.raises(KeyError):
        cache["k3"]
    # The copy evicted its least recently used key; the original did not.
    assert snapshot.keys() == ["extra", "k2", "k1", "k7", "k8", "k5"]


MACROS = (
    "{% macro tag(name, cls='c', n=1) %}<{{ name }}.{{ cls }}.{{ n }}"
    "|{{ varargs|length }}|{{ kwargs|dictsort|map('first')|join('+') }}>{% endmacro %}"
    "{% macro plain(a, b=2) %}{{ a }}-{{ b }}{% endmacro %}"
    "{% macro wrap(x) %}[{{ caller(x) }}]{% endmacro %}"
    "{% for i in range(count) %}{{ plain(i, b=i * 2) }}{{ tag('t', n=i) }}"
    "{% call(v) wrap(i) %}{{ v + 1 }}{% endcall %};{% endfor %}"
)


class Suffix:
    """A caller for wrap(): appends a fixed suffix to what it is given."""

    def __init__(self, suffix):
        self.suffix = suffix

    def __call__(self, value):
        return f"{value}{self.suffix}"

    def __repr__(self):
        return f"Suffix({self.suffix!r})"


def test_macro_argument_binding_from_python_and_template():
    env = Environment()
    template = env.from_string(MACROS)
    module = template.make_module({"count": 0})
    outputs = []
    errors = []
    carry = "s"
    for i in range(40):
        kind = i % 4
        positional = [f"{carry}{j}" for j in range(i % 5)]
        keywords = {f"x{j}": j for j in range(i % 3)}
        try:
            if kind == 0:
                out = module.tag(*positional, **keywords)
            elif kind == 1:
                out = module.plain(*positional[:3], **({"b": i} if i % 3 else {}))
            elif kind == 2:
                # plain() declares no x0/x1 and takes no **kwargs.
                out = module.plain(*positional[:1], **keywords)
            else:
                out = module.wrap(*positional[:2], caller=Suffix(i))
        except TypeError as exc:
            errors.append((i, "keyword" if "keyword" in str(exc) else "count"))
            continue
        outputs.append(out)
        carry = out[1:3]
    rendered = template.render(count=6)
    assert len(outputs) == 21
    assert sum(len(o) for o in outputs) == 202
    assert outputs[-4:] == ["[2031]", "<200.201.1|0|x0+x1>", "[35]", "<350.c.1|0|>"]
    assert [i for i, why in errors if why == "keyword"] == [2, 10, 13, 14, 17, 22, 26, 29, 34, 37, 38]
    assert [i for i, why in errors if why == "count"] == [3, 7, 9, 19, 23, 27, 33, 39]
    assert rendered == (
        "0-0<t.c.0|0|>[1];1-2<t.c.1|0|>[2];2-4<t.c.2|0|>[3];"
        "3-6<t.c.3|0|>[4];4-8<t.c.4|0|>[5];5-10<t.c.5|0|>[6];"
    )


UNDEFINED_SRC = "{{ a }}|{{ b.c }}|{{ d[e] }}|{{ f|default('F') }}|{{ 'y' if g is defined else 'n' }}"


def test_undefined_kinds_over_partial_contexts():
    # Four undefined policies take turns over contexts that each leave a
    # different subset of the names out.
    templates = [
        Environment(undefined=cls).from_string(UNDEFINED_SRC)
        for cls in (Undefined, ChainableUndefined, DebugUndefined, StrictUndefined)
    ]
    outputs = []
    messages = []
    for i in range(40):
        ctx = {}
        if i % 2:
            ctx["a"] = i
        if i % 3:
            ctx["b"] = {"c": i} if i % 3 == 1 else {}
        if i % 5:
            ctx["d"] = [i, i + 1]
            ctx["e"] = i % 4
        if i % 7 == 0:
            ctx["f"] = ctx["g"] = i
        try:
            outputs.append(templates[i % 4].render(ctx))
        except UndefinedError as exc:
            messages.append((i % 4, str(exc)))
    assert len(outputs) == 21
    assert outputs[:4] == [
        "1|1|2|F|n",
        "{{ a }}|{{ no such element: dict object['c'] }}|{{ no such element: list object[2] }}|F|n",
        "|4|4|F|n",
        "5|||F|n",
    ]
    assert outputs[-2:] == [
        "37|37|38|F|n",
        "{{ a }}|{{ no such element: dict object['c'] }}|{{ no such element: list object[2] }}|F|n",
    ]
    assert sum(o.endswith("|y") for o in outputs) == 3
    assert len(messages) == 19
    assert sorted({m for _, m in messages}) == [
        "'b' is undefined",
        "'d' is undefined",
        "'dict object' has no attribute 'c'",
        "list object has no element 3",
    ]
    assert [kind for kind, _ in messages].count(3) == 10


LOOP_SRC = (
    "{% for x in xs %}"
    "{% if loop.changed(x // 4) %}|{% endif %}"
    "{{ x }}{{ loop.cycle('a', 'b', 'c') }}"
    "{% if loop.previtem is defined and loop.previtem > x %}v{% endif %}"
    "{% if loop.nextitem is defined and loop.nextitem == x %}={% endif %}"
    "{% if loop.last %}#{{ loop.length }}/{{ loop.revindex0 }}{% endif %}"
    "{% endfor %}"
    "{% for x in xs if x is odd %}{{ loop.index }}:{{ loop.revindex }}"
    "{{ ',' if not loop.last }}{% else %}none{% endfor %}"
)

TREE_SRC = (
    "{% for n in nodes recursive %}"
    "{{ n.name }}{{ loop.depth }}"
    "{% if n.kids %}({{ loop(n.kids) }}){% endif %}"
    "{{ '.' if not loop.last }}"
    "{% endfor %}"
)


def test_loop_context_over_growing_sequences():
    env = Environment()
    flat = env.from_string(LOOP_SRC)
    tree_template = env.from_string(TREE_SRC)
    total_len = bars = downs = 0
    last = ""
    for n in range(1, 29):
        xs = [(j * 7 + 3) % 11 for j in range(n)]
        last = flat.render(xs=xs)
        total_len += len(last)
        bars += last.count("|")
        downs += last.count("v")
    # A tree that grows by one node per step; each level nests the previous.
    tree = []
    shapes = []
    for i in range(12):
        node = {"name": f"n{i}", "kids": tree[-2:] if i % 3 == 2 else tree[-1:]}
        tree = tree + [node] if i % 4 != 3 else [node]
        shapes.append(len(tree_template.render(nodes=tree)))
    assert (total_len, bars, downs) == (2372, 406, 235)
    assert last == (
        "|3a|10b|6cv|2av|9b|5cv|1av|8b|4cv|0av|7b|3cv|10a|6bv|2cv|9a|5bv|1cv|8a|4bv|0cv"
        "|7a|3bv|10c|6av|2bv|9c|5av#28/0"
        "1:13,2:12,3:11,4:10,5:9,6:8,7:7,8:6,9:5,10:4,11:3,12:2,13:1"
    )
    assert shapes == [3, 12, 30, 22, 50, 106, 167, 65, 136, 213, 299, 174]
    assert tree_template.render(nodes=tree) == (
        "n111(n92(n83(n74(n65(n56(n37(n28(n09.n19(n010))).n47(n38(n29(n010.n110(n011)))))))))"
        ".n102(n93(n84(n75(n66(n57(n38(n29(n010.n110(n011))).n48(n39(n210(n011.n111(n012)))))))))))"
    )


def test_lexer_on_generated_sources():
    env = Environment(
        trim_blocks=True,
        lstrip_blocks=True,
        line_statement_prefix="%%",
        line_comment_prefix="##",
    )
    kinds = {}
    raw_total = wrapped_total = 0
    error_lines = []
    source = ""
    for i in range(18):
        part = i % 6
        if part == 0:
            piece = f"  {{% if v{i} > {i}.5 %}}\n"
        elif part == 1:
            piece = f"t{i} {{{{ v{i}|f{i % 3}('s{i}', {i}) }}}}\n"
        elif part == 2:
            piece = f"%% set w{i} = [{i}, {i * 2}]\n## note {i}\n"
        elif part == 3:
            piece = f"{{# c{i} #}}  {{%- endif %}}\n"
        elif part == 4:
            piece = f"{{% raw %}}{{{{ r{i} }}}}{{% endraw %}} x{i}\n"
        else:
            piece = f"{{{{ a{i}.b[{i}] ~ \"q{i}\" }}}}\n"
        # The raw token stream of the new piece alone, then the filtered
        # stream of everything so far.
        raw_total += len(list(env.lex(piece)))
        source += piece
        wrapped = list(env.lexer.tokenize(source))
        wrapped_total += len(wrapped)
        for token in wrapped:
            kinds[token.type] = kinds.get(token.type, 0) + 1
        if i % 4 == 3:
            # The same source with an unclosed string added must not lex.
            try:
                list(env.lexer.tokenize(source + "{{ 'open }}"))
            except TemplateSyntaxError as exc:
                error_lines.append(exc.lineno)
    assert raw_total == 207
    assert wrapped_total == 1293
    assert sorted(kinds.items()) == [
        ("assign", 30), ("block_begin", 93), ("block_end", 93), ("comma", 63), ("data", 156),
        ("dot", 21), ("float", 36), ("gt", 36), ("integer", 114), ("lbracket", 51),
        ("lparen", 33), ("name", 267), ("pipe", 33), ("rbracket", 51), ("rparen", 33),
        ("string", 54), ("tilde", 21), ("variable_begin", 54), ("variable_end", 54),
    ]
    assert error_lines == [6, 10, 15, 20]


def test_parse_and_walk_generated_templates():
    env = Environment()
    names_seen = []
    node_counts = []
    # One tree grows: each step parses a new piece and appends its body.
    tree = env.parse("")
    for i in range(20):
        part = i % 4
        if part == 0:
            piece = f"{{% for x{i} in items{i % 3} %}}{{{{ x{i} + n{i} }}}}{{% endfor %}}"
        elif part == 1:
            piece = f"{{% if c{i} %}}{{% include 'p{i}.html' %}}{{% else %}}{{{{ d{i} }}}}{{% endif %}}"
        elif part == 2:
            piece = f"{{% set s{i} = s{i - 1}|default({i}) %}}{{{{ s{i} * {i} }}}}"
        else:
            piece = f"{{% import 'm{i % 2}.html' as m{i} %}}{{{{ m{i}.f(e{i}) }}}}"
        tree.body.extend(env.parse(piece).body)
        loads = {n.name for n in tree.find_all(nodes.Name) if n.ctx == "load"}
        names_seen.append(len(loads))
        node_counts.append(sum(1 for _ in tree.find_all(nodes.Node)))
    refs = list(meta.find_referenced_templates(tree))
    undeclared = sorted(meta.find_undeclared_variables(tree))
    assert names_seen == [3, 5, 7, 9, 12, 14, 16, 18, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39, 41, 43]
    assert node_counts[:6] == [7, 13, 22, 29, 36, 42]
    assert node_counts[-1] == 145
    assert refs == [
        "p1.html", "m1.html", "p5.html", "m1.html", "p9.html",
        "m1.html", "p13.html", "m1.html", "p17.html", "m1.html",
    ]
    assert len(undeclared) == 28
    assert [n for n in undeclared if n.startswith(("items", "s"))] == [
        "items0", "items1", "items2", "s1", "s13", "s17", "s5", "s9",
    ]


class Box:
    def __init__(self, n):
        self.n = n
        self._hidden = n * 2
        self.items = [n, n + 1]

    def double(self):
        return self.n * 2

    def label(self, prefix):
        return f"{prefix}{self.n}"

    def __repr__(self):
        return f"Box({self.n})"


def test_sandbox_attribute_and_call_policy():
    env = SandboxedEnvironment()
    immutable = ImmutableSandboxedEnvironment()
    attr_template = env.from_string(
        "{% set v = obj|attr(name) %}"
        "{% if v is undefined %}?{% elif v is callable %}{{ v(name) if name == 'label' else v() }}"
        "{% else %}{{ v }}{% endif %}"
    )
    call_template = env.from_string("{{ obj[name]() }}")
    fmt_template = env.from_string("{{ pattern.format(obj) }}")
    mutate_template = immutable.from_string("{{ seq[name](1) }}")
    names = ["n", "_hidden", "double", "__class__", "items", "label", "mro", "__dict__"]
    shown = []
    security = []
    for i in range(32):
        box = Box(i)
        name = names[i % len(names)]
        shown.append(attr_template.render(obj=box, name=name))
        try:
            shown.append(call_template.render(obj=box, name=name))
        except SecurityError as exc:
            security.append((i, "call", str(exc).split(" ")[0]))
        except UndefinedError:
            security.append((i, "undefined", name))
        except TypeError:
            security.append((i, "type", name))
        pattern = "{0.n}/{0.items[1]}" if i % 2 else "{0._hidden}"
        try:
            shown.append(fmt_template.render(obj=box, pattern=pattern))
        except SecurityError:
            security.append((i, "fmt", pattern))
        seq = [i, 1] if i % 3 == 0 else ({"k": i} if i % 3 == 1 else (1, i))
        method = ["append", "get", "count", "update", "pop"][i % 5]
        try:
            shown.append(mutate_template.render(seq=seq, name=method))
        except SecurityError:
            security.append((i, "mutate", method))
        except UndefinedError:
            # The container has no method of that name.
            security.append((i, "missing", method))
    assert len(shown) == 75
    assert shown[:12] == ["0", "", "?", "1/2", "None", "4", "4", "", "1", "?", "3/4", "[4, 5]"]
    assert shown.count("?") == 16
    assert [s for s in shown if s.startswith("label")] == ["label5", "label13", "label21", "label29"]
    assert len(security) == 53
    tally = {}
    for _, kind, _ in security:
        tally[kind] = tally.get(kind, 0) + 1
    assert sorted(tally.items()) == [("call", 12), ("missing", 16), ("mutate", 9), ("type", 12), ("undefined", 4)]
    assert [i for i, kind, _ in security if kind == "undefined"] == [6, 14, 22, 30]


GROUP_SRC = (
    "{% for g in rows|groupby('team') %}{{ g.grouper }}="
    "{{ g.list|sort(attribute='score,name', reverse=true)|map(attribute='name')|join('/') }};"
    "{% endfor %}"
    "{{ rows|map(attribute='tag')|unique(case_sensitive=false)|list|length }}|"
    "{{ totals|dictsort(by='value', reverse=true)|first|first }}"
)


def test_grouping_and_sorting_filters_over_accumulating_rows():
    env = Environment()
    template = env.from_string(GROUP_SRC)
    rows = []
    totals = {}
    leaders = []
    lengths = 0
    for i in range(24):
        team = f"t{(i * 3 + 1) % 5}"
        rows.append(
            {"team": team, "score": (i * 7 + 3) % 11, "name": f"p{i}", "tag": ("Ab" if i % 2 else "aB") + str(i % 4)}
        )
        totals[team] = totals.get(team, 0) + rows[-1]["score"]
        out = template.render(rows=rows, totals=totals)
        lengths += len(out)
        leaders.append(out.rsplit("|", 1)[1])
    assert lengths == 1431
    assert leaders == [
        "t1", "t4", "t4", "t4", "t4", "t4", "t4", "t2", "t2", "t2", "t1", "t1",
        "t2", "t2", "t2", "t1", "t1", "t2", "t2", "t2", "t2", "t4", "t2", "t0",
    ]
    assert out == (
        "t0=p23/p18/p13/p8/p3;t1=p15/p10/p5/p0/p20;t2=p12/p7/p2/p22/p17;"
        "t3=p4/p19/p14/p9;t4=p1/p21/p16/p11/p6;4|t0"
    )


def test_urlize_over_generated_texts():
    env = Environment()
    env.policies["urlize.rel"] = "nofollow"
    template = env.from_string("{{ text|urlize(limit, target=tgt) }}")
    words = [
        "http://h{i}.org/a{i}",
        "(www.s{i}.com)",
        "mail{i}@ex{i}.net,",
        "<https://x{i}.io/q?a={i}>.",
        "mailto:u{i}@m.org",
        "plain{i}",
        "@at{i}@b.c",
        "e{i}.example.com",
    ]
    anchors = 0
    total = 0
    text = ""
    for i in range(30):
        text = text.split(" ")[-3:] if i % 5 == 4 else text.split(" ")
        text = " ".join(t for t in text if t) + " " + words[i % len(words)].format(i=i)
        out = template.render(text=text, limit=(i % 4) * 6 or None, tgt="_blank" if i % 3 == 0 else None)
        anchors += out.count("<a ")
        total += len(out)
    assert anchors == 125
    assert total == 8353
    assert out == (
        '<a href="mailto:mail26@ex26.net">mail26@ex26.net</a>, '
        '&lt;<a href="https://x27.io/q?a=27" rel="nofollow">https:...</a>&gt;. '
        '<a href="mailto:u28@m.org">u28@m.org</a> plain29'
    )


def test_numeric_filters_over_progressions():
    env = Environment()
    template = env.from_string(
        "{{ n|filesizeformat(binary) }};{{ s|int(-1, base) }};{{ s|float(0.5) }};"
        "{{ x|round(p, method) }};{{ xs|batch(k, 0)|map('sum')|list }};"
        "{{ xs|slice(k)|map('length')|join(',') }}"
    )
    methods = ["common", "ceil", "floor"]
    outputs = []
    total_int = 0
    for i in range(30):
        n = 3 ** i + i
        s = ["12", "0x1f", "0b101", "7.9", "z{i}", "-3"][i % 6].format(i=i)
        base = 16 if i % 6 == 1 else (2 if i % 6 == 2 else 10)
        xs = [(j * 7 + i) % 9 for j in range(i % 7 + 1)]
        out = template.render(
            n=n, binary=i % 2 == 1, s=s, base=base, x=i / 7, p=i % 3, method=methods[i % 3], xs=xs, k=i % 4 + 1
        )
        outputs.append(out)
        total_int += int(out.split(";")[1])
    assert total_int == 255
    assert outputs[::5] == [
        "1 Byte;12;12.0;0.0;[0];1",
        "248 Bytes;-3;-3.0;0.71;[8, 9, 10];3,3",
        "59.1 kB;-1;0.5;1.5;[15, 4];2,1,1",
        "13.7 MiB;7;7.9;2.0;[10];1,1,0,0",
        "3.5 GB;5;0.5;2.85;[2, 0, 7, 5, 3, 1, 8];7",
        "789.1 GiB;31;0.5;3.6;[12, 4, 8];3,2",
    ]
    sizes = [o.split(";")[0] for o in outputs]
    assert sizes[6:10] == ["735 Bytes", "2.1 KiB", "6.6 kB", "19.2 KiB"]
    assert sizes[-3:] == ["6.9 TiB", "22.9 TB", "62.4 TiB"]


def test_loaders_with_evicting_template_cache():
    loads = []

    def load(name):
        loads.append(name)
        if name.startswith("gone"):
            return None
        return f"F[{name}]{{{{ v }}}}"

    pages = {f"p{i}.html": f"P{i}<{{{{ v * {i} }}}}>" for i in range(5)}
    loader = PrefixLoader({"d": DictLoader(pages), "f": FunctionLoader(load)}, delimiter=":")
    env = Environment(loader=loader, cache_size=3, auto_reload=False)
    rendered = []
    missing = []
    for i in range(36):
        prefix = "d" if i % 3 else "f"
        stem = f"p{(i * 2) % 7}.html" if prefix == "d" else (f"x{i % 4}" if i % 4 else f"gone{i}")
        name = f"{prefix}:{stem}"
        try:
            rendered.append(env.get_template(name).render(v=i))
        except TemplateNotFound as exc:
            missing.append(exc.name)
        if i % 6 == 5:
            # A list of names: the first that loads wins.
            choices = [f"z:{i}", f"d:p{i % 9}.html", f"f:x{i % 4}" if i % 12 == 5 else f"f:gone{i}"]
            try:
                rendered.append(env.select_template(choices).render(v=-i))
            except TemplatesNotFound as exc:
                missing.append(tuple(exc.templates))
    assert len(rendered) == 31
    assert rendered[-6:] == ["P2<58>", "P2<-58>", "F[x2]30", "P1<32>", "F[x1]33", "P0<0>"]
    assert missing == [
        "f:gone0", "d:p6.html", "f:gone12", "d:p5.html", "d:p6.html", "d:p5.html",
        ("z:23", "d:p5.html", "f:gone23"), "f:gone24", "d:p6.html", "d:p5.html",
        ("z:35", "d:p8.html", "f:gone35"),
    ]
    # Every call of the function loader, in order (a cache hit makes none).
    assert loads == [
        "gone0", "x3", "x1", "x2", "x1", "gone12", "x3", "x1",
        "x2", "gone23", "gone24", "x3", "x2", "x1", "gone35",
    ]
    cached = env.cache.keys()
    assert [key[1] for key in cached] == ["d:p0.html", "f:x1", "d:p1.html"]


def test_native_rendering_of_generated_expressions():
    env = NativeEnvironment()
    templates = [
        env.from_string("{{ a }}"),
        env.from_string("{{ a }}{{ b }}"),
        env.from_string("[{{ a }}, {{ b }}]"),
        env.from_string("{{ a }} + {{ b }}"),
        env.from_string("{% for x in range(a % 4) %}{{ x }}{% endfor %}"),
        env.from_string("{{ (a, b)|list }}"),
    ]
    kinds = {}
    total = 0
    value = 1
    for i in range(36):
        a = value if i % 2 else (i * 7 + 3) % 11
        b = f"'s{i}'" if i % 5 == 0 else (i % 4)
        result = templates[i % 6].render(a=a, b=b)
        kinds[type(result).__name__] = kinds.get(type(result).__name__, 0) + 1
        if isinstance(result, int):
            value = result
            total += result
        elif isinstance(result, list):
            total += len(result)
    assert sorted(kinds.items()) == [("int", 14), ("list", 12), ("str", 10)]
    assert (total, value) == (327, 43)
