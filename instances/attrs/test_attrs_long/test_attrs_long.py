"""Long, stateful executions of attrs, for harder trace questions.

The other test files call each entry point a few times with literal inputs. Here every
test drives one area of the package through many invocations over inputs built by
explicit loops (arithmetic progressions, small-modulus patterns, strings made from the
index), and carries state from one call to the next: an instance is evolved again and
again, a class is derived from the previous one, a tree is flattened and rebuilt, one
object goes through a sequence of assignments. Validators and converters fail on some
iterations and the test catches the error and goes on. Everything is deterministic and
can be worked out by hand from this file and the package's source.
"""

import itertools

import attr
import attrs
import pytest
from attrs import converters as c
from attrs import define, field, frozen, setters
from attrs import validators as v


def test_validator_chain_screens_generated_records():
    @define
    class Record:
        code: str = field(validator=[v.instance_of(str), v.matches_re(r"[a-d]\d{1,2}")])
        qty: int = field(validator=v.and_(v.instance_of(int), v.ge(0), v.lt(40)))
        tag: str = field(default="std", validator=v.in_(["std", "rush", "hold"]))
        note = field(
            default=None, validator=v.optional([v.instance_of(str), v.max_len(5)])
        )

    accepted = []
    failed = {}
    for i in range(48):
        code = f"{'abcde'[i % 5]}{(i * 17) % 130}"
        qty = (i * 13) % 47 - 3
        if i % 11 == 7:
            qty = str(qty)
        tag = ("std", "rush", "hold", "void")[(i * 3 + i // 4) % 4]
        note = None if i % 4 == 0 else "n" * (i % 9)
        try:
            accepted.append(Record(code, qty, tag, note))
        except (TypeError, ValueError) as exc:
            # The failing field's name is the first quoted word of the message.
            name = exc.args[0].split("'")[1]
            key = (name, type(exc).__name__)
            failed[key] = failed.get(key, 0) + 1

    assert len(accepted) == 14
    assert failed == {
        ("code", "ValueError"): 17,
        ("qty", "ValueError"): 5,
        ("qty", "TypeError"): 2,
        ("tag", "ValueError"): 7,
        ("note", "ValueError"): 3,
    }
    assert sum(r.qty for r in accepted) == 332
    assert [r.code for r in accepted][:6] == ["c34", "d51", "a85", "d6", "a40", "d91"]


def test_deep_iterable_and_mapping_over_growing_payloads():
    @define
    class Batch:
        items: list = field(
            validator=v.deep_iterable(
                member_validator=[v.instance_of(int), v.ge(0)],
                iterable_validator=[v.instance_of(list), v.max_len(8)],
            )
        )
        index: dict = field(
            factory=dict,
            validator=v.deep_mapping(
                key_validator=v.matches_re(r"k\d"),
                value_validator=v.deep_iterable(v.instance_of(int)),
                mapping_validator=v.instance_of(dict),
            ),
        )

    kept = []
    errors = []
    for n in range(1, 31):
        items = [(j * 5 + n) % 9 for j in range(n % 10)]
        if n % 6 == 5:
            items[-1] = -n
        if n % 7 == 3:
            items.insert(0, f"s{n}")
        index = {f"k{(n + j) % 12}": list(range(j)) for j in range(n % 5)}
        if n % 8 == 0:
            index["k0"] = [0, "x"]
        try:
            kept.append(Batch(items, index))
        except (TypeError, ValueError) as exc:
            errors.append((n, exc.args[0].split("'")[1], type(exc).__name__))

    assert len(kept) == 17
    assert errors == [
        (3, "items", "TypeError"),
        (5, "items", "ValueError"),
        (8, "index", "ValueError"),
        (9, "items", "ValueError"),
        (10, "items", "TypeError"),
        (11, "items", "ValueError"),
        (16, "index", "TypeError"),
        (17, "items", "TypeError"),
        (19, "items", "ValueError"),
        (22, "index", "ValueError"),
        (23, "items", "ValueError"),
        (24, "items", "TypeError"),
        (29, "items", "ValueError"),
    ]
    assert sum(len(b.items) for b in kept) == 69
    assert sum(len(b.index) for b in kept) == 29

    # With validators switched off an invalid batch is built; validate() finds it later.
    found = []
    for n in range(6):
        with v.disabled():
            assert v.get_disabled() is True
            b = Batch([n, (n * 4) % 7 - 2, n * 2], {f"k{n * 3}": [n]})
        assert v.get_disabled() is False
        try:
            attrs.validate(b)
        except ValueError as exc:
            found.append(exc.args[0])
        else:
            found.append(None)
    assert found == [
        "'items' must be >= 0: -2",
        None,
        "'items' must be >= 0: -1",
        None,
        r"'index' must match regex 'k\\d' ('k12' doesn't)",
        r"'index' must match regex 'k\\d' ('k15' doesn't)",
    ]


def test_or_and_not_validators_classify_tokens():
    @define
    class Token:
        raw = field(
            validator=v.or_(
                v.or_(v.instance_of(int), v.matches_re(r"-?\d+")), v.in_(("x", "y"))
            )
        )
        kind: str = field(default="n", validator=v.not_(v.in_(("bad", "nil"))))

    outcomes = {}
    good = []
    for i in range(40):
        shape = i % 4
        if shape == 0:
            raw = i
        elif shape == 1:
            raw = str(i - 20)
        elif shape == 2:
            raw = "xyz"[i % 3]
        else:
            raw = i / 2
        kind = ("n", "bad", "ok", "nil", "q")[(i * 3) % 5]
        try:
            good.append(Token(raw, kind))
        except ValueError as exc:
            which = "raw" if exc.args[0].startswith("None of") else "kind"
            outcomes[which] = outcomes.get(which, 0) + 1
    assert outcomes == {"raw": 14, "kind": 10}
    assert len(good) == 16
    assert [t.raw for t in good][:8] == [0, 4, "-15", 8, "-11", "y", "-7", "x"]


def test_evolve_chain_carries_state():
    @frozen
    class Account:
        owner: str = field(validator=v.min_len(2))
        balance: int = field(validator=v.ge(0))
        history: tuple = field(factory=tuple, converter=tuple)
        _level: int = field(default=0, validator=v.in_(range(5)))

    acct = Account("ann", 5)
    rejected = []
    for i in range(40):
        delta = (i * 11) % 23 - 8
        new_balance = acct.balance + delta
        owner = acct.owner if i % 13 != 12 else acct.owner[:1]
        try:
            acct = attrs.evolve(
                acct,
                owner=owner,
                balance=new_balance,
                history=[*acct.history, delta],
                level=new_balance // 25,
            )
        except ValueError as exc:
            rejected.append((i, exc.args[0].split("'")[1]))
    assert (acct.balance, acct._level, len(acct.history)) == (120, 4, 34)
    assert sum(acct.history) == 115
    assert rejected == [
        (0, "balance"),
        (12, "owner"),
        (25, "owner"),
        (37, "_level"),
        (38, "owner"),
        (39, "_level"),
    ]

    # assoc copies the instance and sets the changed attributes on the copy.
    copies = [attr.assoc(acct, balance=k * 7 - 14) for k in range(5)]
    assert [a.balance for a in copies] == [-14, -7, 0, 7, 14]
    assert all(a.history == acct.history for a in copies)
    misses = 0
    for name in ("balance", "level", "_level", "owners", "history"):
        try:
            attr.assoc(acct, **{name: 1})
        except attrs.exceptions.AttrsAttributeNotFoundError:
            misses += 1
    with pytest.raises(TypeError):
        attrs.evolve(acct, acct)
    assert misses == 2


@define
class Leaf:
    name: str
    weight: int = 1
    tags: tuple = ()


@define
class Branch:
    label: str
    leaves: list = field(factory=list)
    children: list = field(factory=list)
    meta: dict = field(factory=dict)


def _grow(depth, seed):
    # Each branch gets seed % 3 + 1 leaves and, above depth 0, two children.
    leaves = [
        Leaf(f"l{seed}{j}", (seed + j) % 4, tuple(range(j)))
        for j in range(seed % 3 + 1)
    ]
    children = [_grow(depth - 1, seed * 2 + k) for k in range(2)] if depth > 0 else []
    meta = {("w", seed): leaves[0]} if seed % 2 else {}
    return Branch(f"b{seed}", leaves, children, meta)


def _rebuild(d):
    return Branch(
        d["label"],
        [Leaf(x["name"], x["weight"], x["tags"]) for x in d["leaves"]],
        [_rebuild(ch) for ch in d["children"]],
        {k: Leaf(x["name"], x["weight"], x["tags"]) for k, x in d["meta"].items()},
    )


def test_asdict_tree_round_trip_with_filter_and_serializer():
    tree = _grow(2, 1)
    flat = attrs.asdict(tree)
    assert _rebuild(flat) == tree
    assert flat["children"][1]["meta"] == {
        ("w", 3): {"name": "l30", "weight": 3, "tags": ()}
    }
    assert [lf["tags"] for lf in flat["children"][0]["leaves"]] == [(), (0,), (0, 1)]

    seen = []

    def serialize(inst, a, value):
        seen.append(a.name if a is not None else type(value).__name__)
        return value * 2 if type(value) is int else value

    doubled = attrs.asdict(
        tree, filter=attrs.filters.exclude("meta"), value_serializer=serialize
    )
    counts = {}
    for s in seen:
        counts[s] = counts.get(s, 0) + 1
    assert counts == {
        "label": 7,
        "leaves": 7,
        "children": 7,
        "name": 14,
        "weight": 14,
        "tags": 14,
        "int": 9,
    }
    assert len(seen) == 72
    assert doubled["leaves"] == [
        {"name": "l10", "weight": 2, "tags": ()},
        {"name": "l11", "weight": 4, "tags": (0,)},
    ]

    # Drop every leaf of weight 0 and every tag tuple; count what is left.
    light = attrs.asdict(
        tree,
        filter=lambda a, value: (
            a.name != "tags" and not (a.name == "weight" and value == 0)
        ),
    )

    def count_keys(d):
        n = len(d)
        for ch in d["children"]:
            n += count_keys(ch)
        for lf in d["leaves"]:
            n += len(lf)
        return n

    assert count_keys(light) == 53


def test_astuple_records_and_rebuild():
    @define
    class Point:
        x: int
        y: int

    @define
    class Path:
        name: str
        points: list = field(factory=list)
        bounds: tuple = (0, 0)
        marks: dict = field(factory=dict)

    paths = []
    prev = None
    for i in range(30):
        pts = [Point((i + k) % 7, (i * k) % 5) for k in range(i % 6)]
        if prev is not None and i % 3 == 0:
            # Reuse the previous path's points, shifted.
            pts = [attrs.evolve(p, x=p.x + 1) for p in prev.points] + pts
        marks = {f"m{k}": Point(k, i % 4) for k in range(i % 3)}
        path = Path(f"p{i}", pts, (len(pts), i % 5), marks)
        paths.append(path)
        prev = path

    total_len = 0
    rebuilt = 0
    for i, path in enumerate(paths):
        retain = i % 2 == 0
        t = attr.astuple(path, retain_collection_types=retain)
        total_len += len(t[1])
        back = Path(
            t[0],
            [Point(*p) for p in t[1]],
            t[2],
            {k: Point(*m) for k, m in t[3].items()},
        )
        if back == path:
            rebuilt += 1
    assert (total_len, rebuilt) == (105, 15)

    as_lists = [
        attr.astuple(p, tuple_factory=list, recurse=(i % 4 != 1))
        for i, p in enumerate(paths[:8])
    ]
    assert as_lists[5] == [
        "p5",
        [Point(5, 0), Point(6, 0), Point(0, 0), Point(1, 0), Point(2, 0)],
        (5, 0),
        {"m0": Point(0, 1), "m1": Point(1, 1)},
    ]
    assert as_lists[6] == ["p6", [[6, 0], [7, 0], [1, 0], [2, 0], [3, 0]], [5, 1], {}]
    shallow = attrs.astuple(paths[7], recurse=False)
    assert shallow[1] is paths[7].points


def test_make_class_inheritance_chain():
    prev = object
    classes = []
    for n in range(1, 11):
        body = {f"f{n}": attr.ib(default=n * 3, validator=v.instance_of(int))}
        if n % 4 == 0:
            # This subclass redefines f1, which its bases already define.
            body["f1"] = attr.ib(default=-n)
        if n % 3 == 0:
            body[f"k{n}"] = attr.ib(default=f"k{n}", kw_only=True)
        cls = attr.make_class(f"Gen{n}", body, bases=(prev,), order=True)
        classes.append(cls)
        prev = cls

    names = [[a.name for a in attrs.fields(cls)] for cls in classes]
    assert names[-1] == [
        "f2",
        "f3",
        "k3",
        "f4",
        "f5",
        "f6",
        "k6",
        "f7",
        "f8",
        "f1",
        "f9",
        "k9",
        "f10",
    ]
    assert [len(x) for x in names] == [1, 2, 4, 5, 6, 8, 9, 10, 12, 13]
    inherited = [sum(a.inherited for a in attrs.fields(cls)) for cls in classes]
    assert inherited == [0, 1, 2, 3, 5, 6, 8, 8, 10, 12]

    defaults = [attrs.asdict(cls()) for cls in classes]
    assert defaults[-1]["f1"] == -8
    assert (
        sum(sum(val for val in d.values() if type(val) is int) for d in defaults) == 599
    )

    # Instances of the last class built positionally, compared in order.
    last = classes[-1]
    npos = sum(1 for a in attrs.fields(last) if not a.kw_only)
    insts = [last(*[(i * j) % 5 for j in range(npos)]) for i in range(12)]
    best = insts[0]
    wins = 0
    for inst in insts[1:]:
        if inst > best:
            best = inst
            wins += 1
    assert attrs.astuple(best) == (0, 4, "k3", 3, 2, 1, "k6", 0, 4, 3, 2, "k9", 1)
    assert wins == 4

    bad = 0
    for cls in classes:
        try:
            cls(f1="no")
        except TypeError:
            bad += 1
    assert bad == 3

    checked = [attrs.has(x) for x in [*classes[:3], int, Leaf, Branch, dict]]
    assert checked == [True, True, True, False, True, True, False]
    with pytest.raises(attrs.exceptions.NotAnAttrsClassError):
        attrs.fields(dict)


def test_ordering_with_key_and_cmp_using():
    @define(order=True)
    class Version:
        major: int
        minor: int = field(order=lambda m: -m)
        label: str = field(default="", eq=False, order=False)

    versions = [Version((i * 7) % 5, (i * 3) % 4, f"v{i}") for i in range(40)]
    best = versions[0]
    ties = 0
    for ver in versions[1:]:
        if ver > best:
            best = ver
        elif ver == best:
            ties += 1
    lowest = versions[0]
    drops = []
    for ver in versions[1:]:
        if ver <= lowest:
            drops.append(ver.label)
            lowest = ver
    assert (best.major, best.minor, best.label) == (4, 0, "v12")
    assert ties == 1
    assert lowest.label == "v25"
    assert drops == ["v5", "v25"]

    Approx = attrs.cmp_using(
        eq=lambda a, b: abs(a - b) < 0.5,
        lt=lambda a, b: a < b - 0.5,
        class_name="Approx",
    )

    @define(order=True)
    class Reading:
        value = field(eq=Approx)
        site: str = field(default="", eq=False)

    readings = []
    for i in range(24):
        q = (i * i) % 7
        # Every sixth reading holds an int; the others hold quarter floats.
        readings.append(Reading(q * 0.25 if i % 6 else q, f"s{i % 3}"))
    equal = differ = raised = below = 0
    for a, b in itertools.pairwise(readings):
        if a == b:
            equal += 1
        if a != b:
            differ += 1
        try:
            if a < b:
                below += 1
        except TypeError:
            raised += 1
    assert (equal, differ, raised, below) == (7, 16, 7, 4)


def _scale(val, inst):
    return val * inst.count


def _tag(val, inst, fld):
    return f"{fld.name}:{val}:{inst.name}"


def test_converters_normalise_rows():
    @define
    class Row:
        name: str = field(converter=c.pipe(str, str.strip, str.lower))
        count: int = field(default=None, converter=c.pipe(c.default_if_none(1), int))
        flag: bool = field(default="no", converter=c.to_bool)
        ratio = field(default=None, converter=c.optional(float))
        scaled: int = field(
            default=None,
            converter=c.pipe(
                c.default_if_none(2), attrs.Converter(_scale, takes_self=True)
            ),
        )
        label: str = field(
            default="",
            converter=attrs.Converter(_tag, takes_self=True, takes_field=True),
        )

    rows = []
    errors = {}
    for i in range(40):
        name = " " * (i % 3) + f"Item{i % 6}" + " " * (i % 2)
        count = None if i % 5 == 0 else (str(i % 7) if i % 2 else i % 7)
        if i % 13 == 6:
            count = f"{i}x"
        flag = ("yes", "0", "on", "T", "maybe", 1, "off")[i % 7]
        ratio = None if i % 3 else f"{i / 4}"
        scaled = None if i % 4 == 1 else i % 6
        try:
            rows.append(Row(name, count, flag, ratio, scaled, i % 5))
        except ValueError as exc:
            reason = "bool" if "bool" in exc.args[0] else "int"
            errors[reason] = errors.get(reason, 0) + 1
    assert (len(rows), errors) == (32, {"bool": 5, "int": 3})
    assert (sum(r.count for r in rows), sum(r.scaled for r in rows)) == (70, 154)
    assert sum(r.flag for r in rows) == 22
    assert sorted({r.name for r in rows}) == [f"item{k}" for k in range(6)]
    assert [r.label for r in rows[:4]] == [f"label:{k}:item{k}" for k in range(4)]
    assert sum(r.ratio or 0 for r in rows) == 52.5

    # define() runs converters again on assignment.
    row = rows[0]
    for i in range(10):
        row.count = None if i % 4 == 3 else str(i)
        row.scaled = i if i % 2 else None
        row.flag = ("y", "n", "1")[i % 3]
    assert (row.count, row.scaled, row.flag) == (9, 81, True)


def test_setattr_hooks_on_one_object():
    peaks = []

    def keep_peak(inst, attrib, new):
        peaks.append(new)
        return max(inst.peak, new)

    @define
    class Gauge:
        level: int = field(default=0, converter=int, validator=[v.ge(0), v.le(50)])
        unit: str = field(default="mm", on_setattr=setters.frozen)
        peak: int = field(
            default=0,
            on_setattr=setters.pipe(setters.convert, setters.validate, keep_peak),
        )
        step: int = field(default=1, on_setattr=setters.NO_OP)

    g = Gauge()
    failures = {}
    for i in range(40):
        op = i % 5
        try:
            if op == 0:
                g.level = str((i * 7) % 60)
            elif op == 1:
                g.level = g.level - 9
            elif op == 2:
                g.unit = "cm"
            elif op == 3:
                g.peak = g.level
            else:
                g.step = g.step + g.level % 4
        except (ValueError, attrs.exceptions.FrozenAttributeError) as exc:
            kind = type(exc).__name__
            failures[kind] = failures.get(kind, 0) + 1
    assert attrs.asdict(g) == {"level": 5, "unit": "mm", "peak": 36, "step": 11}
    assert failures == {"ValueError": 3, "FrozenAttributeError": 8}
    assert peaks == [0, 26, 1, 36, 11, 2, 21, 5]

    # With validators disabled the assignment goes through; validate() catches it.
    with v.disabled():
        g.level = 70
    with pytest.raises(ValueError):
        attrs.validate(g)
    assert g.level == 70


def test_filters_select_fields_of_wide_class():
    kinds = [int, str, float, list, type(None)]
    body = {}
    for j in range(10):
        kind = kinds[(j * 3) % 5]
        if kind is int:
            default = j
        elif kind is str:
            default = f"s{j}"
        elif kind is float:
            default = j / 2
        elif kind is list:
            default = attr.Factory(lambda j=j: list(range(j % 4)))
        else:
            default = None
        body[f"c{j}"] = attr.ib(default=default)
    Wide = attr.make_class("Wide", body)
    fs = attrs.fields(Wide)

    w = Wide()
    sizes = []
    for i in range(24):
        k = (i * 7) % 10
        mode = i % 4
        if mode == 0:
            flt = attrs.filters.include(f"c{k}", int)
        elif mode == 1:
            flt = attrs.filters.exclude(float, f"c{k}")
        elif mode == 2:
            flt = attrs.filters.include(fs[k], str)
        else:
            flt = attrs.filters.exclude(fs[k], list)
        d = attrs.asdict(w, filter=flt)
        t = attrs.astuple(w, filter=flt)
        assert len(d) == len(t)
        sizes.append(len(d))
        # Carry the state: the next instance has one more field changed.
        w = attrs.evolve(w, **{f"c{k}": i})
    assert sizes[:8] == [2, 7, 2, 8, 6, 8, 1, 8]
    assert sum(sizes) == 157
    assert attrs.astuple(w) == (20, 23, 16, 19, 22, 15, 18, 21, 14, 17)
