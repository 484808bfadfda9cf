"""Long executions of pyparsing, with state carried across calls.

Each test drives one area of the package through many calls over inputs
built by explicit loops from the loop index (arithmetic progressions,
small-modulus patterns, strings and nested lists that grow), and most of
them feed what one call returned into the next one: a ParseResults edited
in place, a text transformed again and again, a nested list re-parsed after
every change.  Branches are taken both ways over the iterations and many
inputs make the package raise, which the package itself or the test catches.
Checks are mostly aggregates over the whole run.  The point is to make the
package's own functions run long and deep, so that questions about what
they did take patient, step-by-step reasoning over the test and the source.
"""

import pyparsing as pp
import pytest
from pyparsing.util import make_compressed_re


def test_one_of_reorders_growing_symbol_lists():
    # One symbol is added per turn; later ones extend earlier ones with "x",
    # so one_of must move longer symbols ahead of their prefixes.
    stems = ["a", "b", "c"]
    symbols = []
    names = []
    regexes = []
    longest_hits = 0
    for i in range(24):
        sym = stems[(i * 2) % 3] + "x" * ((i // 3) % 4)
        symbols.append(sym)
        # Regex on even turns, MatchFirst of literals on odd ones; every
        # fourth turn (from 1) is caseless.
        expr = pp.one_of(symbols, caseless=(i % 4 == 1), use_regex=(i % 2 == 0))
        names.append(expr.name)
        regexes.append(make_compressed_re(symbols, max_level=1 + i % 3))
        probe = (sym.upper() if i % 4 == 1 else sym) + "xy"
        matched = expr.parse_string(probe)[0]
        if len(matched) == len(sym) + 1:
            longest_hits += 1
    assert names[-1] == "axxx | axx | ax | a | cxxx | cxx | cx | c | bxxx | bxx | bx | b"
    assert names[5] == "ax | a | cx | c | bx | b"
    assert sum(len(n) for n in names) == 1320
    assert regexes[-1] == "a(?:x(?:xx?)?)?|b(?:x(?:xx?)?)?|c(?:x(?:xx?)?)?"
    assert sum(len(r) for r in regexes) == 796
    assert longest_hits == 9
    with pytest.raises(ValueError):
        make_compressed_re(["a", ""])


def test_results_insert_delete_pop_cycles():
    # One ParseResults is edited 60 times; the named tokens' offsets are
    # shifted by every insert and delete.
    key = pp.Word(pp.alphas)("key*")
    val = pp.Word(pp.nums)("val")
    grammar = (key + val)[1, ...]
    text = " ".join(f"k{'abcde'[i % 5]} {i * 3 % 17}" for i in range(16))
    r = grammar.parse_string(text)
    popped = []
    for i in range(60):
        op = i % 5
        if op == 0:
            r.insert((i * 7 + 3) % (len(r) + 1), f"x{i}")
        elif op == 1:
            del r[(i * 5 + 1) % len(r)]
        elif op == 2:
            r[f"tag{i % 3}"] = i
        elif op == 3:
            popped.append(r.pop((i * 3) % len(r)))
        else:
            r += grammar.parse_string(f"z{'pq'[i % 2]} {i}")
    assert len(r) == 44
    assert sum(1 for t in r if t.startswith("x")) == 6
    assert len(popped) == 12
    assert r["val"] == "59"
    assert len(r["key"]) == 28
    assert sorted(r.as_dict()) == ["key", "tag0", "tag1", "tag2", "val"]
    assert r.pop("tag0") == 57
    assert r.get("tag0", "gone") == "gone"
    assert r.pop("tag0", default=-1) == -1


def test_from_dict_round_trip_and_dump_grow():
    # A nested dict grows by one value per turn, at depth i % 4; each turn's
    # round trip through ParseResults becomes the next turn's dict.
    state = {}
    dump_lines = []
    top_lengths = []
    for i in range(20):
        node = state
        for d in range(i % 4):
            node = node.setdefault(f"n{d}", {})
        node[f"v{i}"] = (i * 3) % 11 if i % 3 else [i, i + 1]
        r = pp.ParseResults.from_dict(state)
        back = r.as_dict()
        assert back == state
        state = back
        copy = r.deepcopy()
        dump_lines.append(len(copy.dump().splitlines()))
        top_lengths.append(len(r))
    assert dump_lines[:4] == [2, 9, 23, 51]
    assert dump_lines[-1] == 167
    assert sum(dump_lines) == 1845
    assert sum(top_lengths) == 79
    assert r["n0"].get_name() == "n0"
    assert r["n0"]["n1"]["n2"]["v19"] == 2


def test_transform_string_passes_feed_forward():
    def bump(t):
        return str((int(t[0]) * 3 + 1) % 50)

    def rotate(t):
        return "abcd"[("abcd".index(t[0]) + 1) % 4]

    num = pp.Word(pp.nums).set_parse_action(bump)
    letter = pp.Word("abcd", exact=1).set_parse_action(rotate)
    expr = num | letter
    counter = pp.Word(pp.nums)
    text = " ".join(f"{i * 7 % 13}{'abcd'[i % 4]}" for i in range(12))
    sums = []
    # Fifteen passes, each over the previous pass's output.
    for _ in range(15):
        text = expr.transform_string(text)
        sums.append(sum(int(t[0]) for t, _s, _e in counter.scan_string(text)))
    assert text == "3d 2a 10b 9c 17d 16a 24b 23c 31d 30a 38b 37c"
    assert sum(sums) == 4012
    assert max(sums) == 310


def test_skip_to_records_with_quotes_and_fail_on():
    rec = pp.SkipTo(";", ignore=pp.quoted_string, fail_on="#") + pp.Suppress(";")
    kept, failed = [], []
    for i in range(30):
        # Every third record holds a quoted ';', every fifth a '#'.
        body = f"r{i} " + ("'a;b' " if i % 3 == 0 else "") + ("# " if i % 5 == 4 else "") + "z" * (i % 4)
        try:
            r = rec.parse_string(body + ";")
        except pp.ParseException as e:
            failed.append(e.loc)
        else:
            kept.append(len(r[0]))
    assert len(kept) == 24
    assert sum(kept) == 172
    assert sorted(failed) == [3, 4, 4, 4, 9, 10]
    stream = "".join(f"s{i} 'q;{i}';" if i % 2 else f"s{i};" for i in range(12))
    many = rec[1, ...].parse_string(stream, parse_all=True)
    assert len(many) == 12
    assert sum(len(t) for t in many) == 63


def test_each_any_order_with_required_and_repeats():
    a = pp.Keyword("alpha") + pp.Word(pp.nums)("a")
    b = pp.Keyword("beta") + pp.Word(pp.nums)("b")
    c = pp.Keyword("gamma") + pp.Word(pp.nums)("c*")
    d = pp.Keyword("delta")
    spec = a & pp.Opt(b) & pp.OneOrMore(c) & pp.ZeroOrMore(d)
    ok, errs = [], []
    for i in range(24):
        parts = []
        if i % 7 != 6:
            parts.append(f"alpha {i}")
        if i % 3:
            parts.append(f"beta {i * 2}")
        for j in range(i % 3 + (0 if i % 8 == 5 else 1)):
            parts.append(f"gamma {i + j}")
        for _ in range(i % 2):
            parts.append("delta")
        # Rotate the parts so each turn presents them in another order.
        k = i % len(parts)
        parts = parts[k:] + parts[:k]
        try:
            r = spec.parse_string(" ".join(parts), parse_all=True)
        except pp.ParseException as e:
            errs.append((i, e.loc, "gamma" in e.msg))
        else:
            ok.append((int(r.a), r.get("b", "-"), len(r.c), len(r)))
    assert len(ok) == 20
    assert sum(x[0] for x in ok) == 216
    assert sum(1 for x in ok if x[1] == "-") == 6
    assert sum(x[2] for x in ok) == 40
    assert sum(x[3] for x in ok) == 158
    assert errs == [(6, 0, False), (13, 0, False), (20, 0, False), (21, 0, True)]


def test_or_longest_versus_match_first():
    # The condition only runs when actions run, after Or has measured lengths.
    small = pp.Word(pp.nums).add_condition(lambda t: int(t[0]) % 3 != 0).add_parse_action(lambda t: "I" + t[0])
    real = pp.Regex(r"\d+\.\d+").set_parse_action(lambda t: "R" + t[0])
    ident = pp.Word(pp.alphanums).set_parse_action(lambda t: "W" + t[0])
    tagged = pp.Combine(pp.Word(pp.nums) + "x").set_parse_action(lambda t: "T" + t[0])
    longest = small ^ real ^ ident ^ tagged
    first = small | real | ident | tagged
    a, b = [], []
    for i in range(32):
        tok = [f"{i * 4 % 23}", f"{i}.{i % 7}", f"{i % 5}x", f"q{i}"][i % 4]
        for expr, out in ((longest, a), (first, b)):
            try:
                out.append(expr.parse_string(tok)[0])
            except pp.ParseException as e:
                out.append(f"E{e.loc}")
    kinds_a = "".join(x[0] for x in a)
    kinds_b = "".join(x[0] for x in b)
    assert kinds_a.count("I") == 5
    assert kinds_a.count("W") == 19
    assert kinds_b.count("I") == 16
    assert sum(x != y for x, y in zip(a, b)) == 11
    assert sum(1 for x in b if x.startswith("E")) == 0


def test_repetition_operators_build_and_parse():
    item = pp.Word(pp.alphas, exact=1)
    # Keys for item[...]: counts, (min, max) pairs with None/..., bad ones.
    keys = [2, (1, 3), (0, None), (2, ...), (..., 3), (1, None), (3, 1), -1, (1, 2, 3), (1, slice(None, "z")), (0, 2), 4]
    out = []
    for i in range(36):
        key = keys[i % len(keys)]
        n = (i * 5 + 2) % 7
        text = " ".join("abcdefg"[j % 7] for j in range(n)) + " z y"
        try:
            expr = item[key]
        except (ValueError, TypeError) as e:
            out.append(type(e).__name__)
            continue
        try:
            out.append(len(expr.parse_string(text)))
        except pp.ParseException as e:
            out.append(f"E{e.loc}")
    counts = [x for x in out if isinstance(x, int)]
    assert len(counts) == 26
    assert sum(counts) == 97
    assert out.count("ValueError") == 6
    assert out.count("TypeError") == 3
    assert [x for x in out if isinstance(x, str) and x.startswith("E")] == ["E5"]


def test_forward_nested_lists_reparsed_each_turn():
    value = pp.Forward()
    atom = pp.Word(pp.nums).set_parse_action(lambda t: int(t[0]))
    lst = pp.Group(pp.Suppress("[") + pp.Opt(pp.DelimitedList(value)) + pp.Suppress("]"))
    value <<= atom | lst

    def render(x):
        if isinstance(x, int):
            return str(x)
        return "[" + ",".join(render(y) for y in x) + "]"

    s = []
    sizes = []
    for i in range(16):
        op = i % 3
        if op == 0:
            s.append(i)
        elif op == 1:
            s.append([i, [i + 1]])
        else:
            # Move the last element to the front and nest the rest under it.
            s = [s[-1], s[:-1]]
        parsed = value.parse_string(render(s), parse_all=True)[0].as_list()
        assert parsed == s
        s = parsed
        sizes.append(len(render(s)))
    assert render(s) == "[[13,[14]],[[10,[11]],[[7,[8]],[[4,[5]],[[1,[2]],[0],3],6],9],12],15]"
    assert sum(sizes) == 581
    with pytest.raises(pp.ParseException):
        value.parse_string(render(s)[:-1], parse_all=True)


def test_infix_notation_chain_feeds_each_result_forward():
    def fold(t):
        items = t[0]
        acc = items[0]
        for k in range(1, len(items), 2):
            op, rhs = items[k], items[k + 1]
            acc = {"+": acc + rhs, "-": acc - rhs, "*": acc * rhs, "%": acc % rhs}[op]
        return acc

    operand = pp.Word(pp.nums).set_parse_action(lambda t: int(t[0]))
    arith = pp.infix_notation(operand, [
        ("-", 1, pp.OpAssoc.RIGHT, lambda t: -t[0][1]),
        (pp.one_of("* %"), 2, pp.OpAssoc.LEFT, fold),
        (pp.one_of("+ -"), 2, pp.OpAssoc.LEFT, fold),
    ])
    acc = 7
    values = []
    for i in range(18):
        a = (i * 7 + 3) % 11 + 1
        b = (i * 5 + 2) % 9 + 1
        # Each expression starts from the previous turn's value.
        if i % 3 == 0:
            text = f"({acc} + {a}) * {b} % 97"
        elif i % 3 == 1:
            text = f"{acc} * {a} - -{b} + {i}"
        else:
            text = f"-({acc} - {a} * {b}) % 89 + {a}"
        acc = arith.parse_string(text, parse_all=True)[0]
        values.append(acc)
    assert acc == 45
    assert sum(values) == 3016
    assert (min(values), max(values)) == (4, 650)
    with pytest.raises(pp.ParseException):
        arith.parse_string(f"({acc} + ) * 2", parse_all=True)


def test_word_without_regex_bounds_and_keywords():
    letters = "abcdefghij"
    reprs, outs = [], []
    for i in range(48):
        init = letters[i % 4: i % 4 + 3 + i % 3]
        # A space in the body chars keeps Word off its regex fast path.
        body = init + " " + ("xyz" if i % 2 else "")
        w = pp.Word(
            init,
            body,
            min=1 + i % 3,
            max=(0 if i % 4 == 0 else 3 + i % 4),
            as_keyword=(i % 5 == 2),
        ).leave_whitespace()
        reprs.append(str(w))
        text = init[i % len(init)] + body[(i * 3) % len(body)] * (i % 9) + "Q"
        try:
            outs.append(len(w.parse_string(text)[0]))
        except pp.ParseException as e:
            outs.append(f"E{e.loc}")
    assert reprs[1] == "W:(b-e,  b-ex-z){2,4}"
    assert sum(len(x) for x in reprs) == 932
    assert sum(x for x in outs if isinstance(x, int)) == 121
    assert {e: outs.count(e) for e in ("E4", "E5", "E6")} == {"E4": 6, "E5": 5, "E6": 4}


def test_error_locations_across_lines():
    ident = pp.Word(pp.alphas, pp.alphanums)
    stmt = pp.Keyword("let") - ident + pp.Suppress("=") + pp.Word(pp.nums) + pp.Suppress(";")
    prog = stmt[1, ...] + pp.StringEnd()
    kinds = {}
    line_sum = col_sum = 0
    marks = []
    for i in range(24):
        nlines = i % 5 + 2
        bad = (i * 3) % nlines
        lines = []
        for j in range(nlines):
            if j == bad:
                lines.append(["let 9x = 1;", "let v = ;", "let w = 2", "lot q = 3;"][i % 4])
            else:
                lines.append(f"let v{j} = {j * i};")
        try:
            prog.parse_string("\n".join(lines))
        except pp.ParseBaseException as e:
            kinds[type(e).__name__] = kinds.get(type(e).__name__, 0) + 1
            line_sum += e.lineno
            col_sum += e.col
            marks.append(e.mark_input_line("^"))
        else:
            kinds["ok"] = kinds.get("ok", 0) + 1
    assert kinds == {"ParseSyntaxException": 18, "ParseException": 6}
    assert line_sum == 65
    assert col_sum == 105
    assert marks[2] == "^let v3 = 6;"
    assert sum(m.startswith("^") for m in marks) == 11
