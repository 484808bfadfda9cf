"""Long, stateful executions of boltons, for harder trace questions.

The other test files call each helper a few times with literal inputs. Here every
test drives one area of the package through many invocations over inputs built by
explicit loops (arithmetic progressions, small-modulus patterns, strings made from
the index), and carries state from one call to the next: a cache, a container or a
string is transformed again and again, so what the package does on a late call
depends on everything before it. Everything is deterministic and can be worked out
by hand from this file and the package's source.
"""

import pytest
from boltons import iterutils as iu
from boltons import strutils as su
from boltons.cacheutils import LRU, ThresholdCounter, cached
from boltons.dictutils import OMD
from boltons.listutils import BarrelList
from boltons.queueutils import HeapPriorityQueue, SortedPriorityQueue
from boltons.setutils import IndexedSet
from boltons.statsutils import Stats, describe
from boltons.urlutils import URL, URLParseError


def test_cacheutils_memo_eviction_and_lossy_counting():
    # A Collatz step counter memoised in a 6-slot LRU: the recursion fills the
    # cache with intermediate values, which evicts earlier answers.
    cache = LRU(max_size=6)
    calls = []

    @cached(cache)
    def steps(n):
        calls.append(n)
        if n <= 1:
            return 0
        nxt = n // 2 if n % 2 == 0 else 3 * n + 1
        return 1 + steps(nxt)

    results = [steps((i * 5 + 2) % 17 + 1) for i in range(30)]
    assert results[:10] == [7, 3, 9, 0, 8, 14, 4, 2, 19, 17]
    assert sum(results) == 258
    assert len(calls) == cache.miss_count == 102
    assert cache.hit_count == 21
    assert list(cache.keys()) == [16, 5, 10, 3, 6, 12]

    # get / pop / set cycles on a 4-slot LRU.
    sq = LRU(max_size=4)
    total = 0
    popped = []
    for i in range(40):
        k = (i * 3 + i // 5) % 7
        if i % 6 == 5:
            popped.append(sq.pop(k, None))
            continue
        v = sq.get(k)
        if v is None:
            sq[k] = k * k
        else:
            total += v
    assert total == 168
    assert popped == [4, 0, None, None, None, 0]
    assert (sq.hit_count, sq.miss_count, sq.soft_miss_count) == (9, 25, 25)
    assert list(sq.keys()) == [3, 6, 2, 5]

    # Lossy counting: every 10th add culls the keys that are too rare.
    tc = ThresholdCounter(threshold=0.1)
    for i in range(60):
        tc.add(f"k{(i * i) % 11}" if i % 5 else f"c{i}")
    assert tc.total == 60
    assert tc.most_common(3) == [("k4", 9), ("k9", 9), ("k5", 9)]
    assert sorted(tc.keys()) == ["k1", "k3", "k4", "k5", "k9"]
    assert (tc.get_common_count(), tc.get_uncommon_count()) == (41, 19)


def test_omd_churn_then_views():
    omd = OMD()
    popped = []
    for i in range(48):
        k = f"k{(i * 7 + 3) % 5}"
        r = i % 6
        if r < 3:
            omd.add(k, i)
        elif r == 3:
            popped.append(omd.poplast(k, default=None))
        elif r == 4:
            omd.update_extend([(k, -i), (f"k{i % 3}", i * 2)])
        elif i % 12 == 5:
            popped.extend(omd.popall(k, []))
        else:
            omd[k] = i  # replaces every value under k
    assert len(popped) == 24
    assert popped.count(None) == 1
    assert sum(v for v in popped if v is not None) == 290
    assert omd.items(multi=True) == [
        ("k4", 23), ("k1", -34), ("k3", 35), ("k4", 38), ("k1", 80),
        ("k4", 43), ("k1", 44), ("k0", -46), ("k1", 92), ("k2", 47),
    ]
    assert omd.counts().items() == [("k4", 3), ("k1", 4), ("k3", 1), ("k0", 1), ("k2", 1)]
    assert list(reversed(omd)) == ["k2", "k0", "k3", "k1", "k4"]
    assert omd.sortedvalues().getlist("k1") == [-34, 44, 80, 92]
    assert omd.inverted().todict() == {
        23: "k4", -34: "k1", 35: "k3", 38: "k4", 80: "k1",
        43: "k4", 44: "k1", -46: "k0", 92: "k1", 47: "k2",
    }
    assert omd.sorted(key=lambda kv: (kv[1] % 4, kv[0])).keys() == ["k1", "k0", "k4", "k2", "k3"]
    assert omd.poplast() == 47
    assert len(omd) == 4


def test_indexed_set_churn_against_list_model():
    iset = IndexedSet(range(40))
    model = list(range(40))
    popped, probes = [], []
    for i in range(48):
        op = i % 4
        if op == 0:
            v = (i * 7 + 3) % 45  # may already be gone: discard swallows the KeyError
            iset.discard(v)
            if v in model:
                model.remove(v)
        elif op == 1:
            idx = (i * 5) % len(model)
            got = iset.pop(idx)
            assert got == model.pop(idx)
            popped.append(got)
        elif op == 2:
            idx = (i * 3) % len(model)
            assert iset[idx] == model[idx]
            assert iset.index(model[idx]) == idx
            probes.append(iset[-1 - idx])
        else:
            iset.add(40 + i)
            model.append(40 + i)
        assert list(iset) == model
    assert popped == [6, 27, 10, 34, 17, 0, 33, 21, 11, 75, 59, 29]
    assert sum(probes) == 258
    assert len(iset) == 30
    assert list(iset[5:15]) == model[5:15]
    assert list(iset[::-3]) == model[::-1][::3]

    iset &= range(0, 100, 2)
    iset -= IndexedSet(range(0, 100, 3))
    assert list(iset) == [4, 16, 20, 22, 26, 28, 32, 38]
    with pytest.raises(ValueError):
        iset.index(3)


def test_priority_queues_reprioritise_and_drain():
    orders = {}
    for cls in (HeapPriorityQueue, SortedPriorityQueue):
        pq = cls()
        order = []
        for i in range(30):
            # re-adding a task that is still queued changes its priority
            pq.add(f"t{i % 12}", (i * 7 + 3) % 11)
            if i % 5 == 4:
                order.append(pq.pop())
        order.append(pq.peek())
        while len(pq):
            order.append(pq.pop())
        assert pq.pop(default="empty") == "empty"
        with pytest.raises(IndexError):
            pq.peek()
        orders[cls.__name__] = order
    assert orders["HeapPriorityQueue"] == orders["SortedPriorityQueue"]
    assert orders["HeapPriorityQueue"] == [
        "t1", "t4", "t0", "t3", "t11", "t2", "t6", "t6", "t5",
        "t9", "t0", "t3", "t7", "t10", "t1", "t4", "t8",
    ]


class _SmallBarrel(BarrelList):
    # a tiny size factor so that a few dozen items spread over several sublists
    _size_factor = 2


def test_barrel_list_against_list_model():
    bl = _SmallBarrel()
    model = []
    sublists = []
    for i in range(40):
        idx = (i * 7 + 3) % (len(model) + 1)
        bl.insert(idx, i)
        model.insert(idx, i)
        if i % 6 == 5:
            j = (i * 3) % len(model)
            assert bl.pop(j) == model.pop(j)
        sublists.append(len(bl.lists))
        assert list(bl) == model
    assert max(sublists) == 6
    assert [len(part) for part in bl.lists] == [8, 8, 3, 1, 4, 10]
    for i in range(-len(model), len(model), 3):
        assert bl[i] == model[i]
    assert list(bl[3:20:2]) == model[3:20:2]
    del bl[4:17]
    del model[4:17]
    assert list(bl) == model
    assert [bl.index(v) for v in model[::4]] == list(range(0, len(model), 4))
    bl.sort()
    model.sort()
    assert list(bl) == model
    bl.reverse()
    model.reverse()
    while len(bl) > 3:
        assert bl.pop() == model.pop()
    assert list(bl) == [35, 34, 29]
    with pytest.raises(ValueError):
        bl.index(999)


def test_remap_research_and_get_path_over_nested_records():
    data = {
        f"g{g}": [
            {"id": g * 10 + j, "tags": [f"t{(g + j) % 3}"] * (j % 3 + 1), "w": (g * j) % 7}
            for j in range(g + 1)
        ]
        for g in range(6)
    }

    def visit(path, key, value):
        if key == "w" and value == 0:
            return False  # drop zero weights
        if isinstance(value, int):
            return key, value * 2
        return True

    def enter(path, key, value):
        if key == "tags":
            return (), enumerate(value)  # rebuilt as a tuple on exit
        return iu.default_enter(path, key, value)

    out = iu.remap(data, visit=visit, enter=enter)
    assert out["g2"] == [
        {"id": 40, "tags": ("t2",)},
        {"id": 42, "tags": ("t0", "t0"), "w": 4},
        {"id": 44, "tags": ("t1", "t1", "t1"), "w": 8},
    ]

    big = iu.research(out, query=lambda p, k, v: isinstance(v, int) and v > 50)
    assert len(big) == 15
    assert all(iu.get_path(out, p) == v for p, v in big)
    weights = iu.research(out, query=lambda p, k, v: k == "w")
    assert (len(weights), sum(v for _, v in weights)) == (15, 98)

    # look up (group, index, "w") over a grid, counting why each lookup fails
    failures = {}
    found = 0
    for g in range(8):
        for j in range(4):
            try:
                found += iu.get_path(out, (f"g{g}", j, "w"))
            except iu.PathAccessError as exc:
                name = type(exc.exc).__name__
                failures[name] = failures.get(name, 0) + 1
    assert found == 74
    assert failures == {"KeyError": 14, "IndexError": 6}

    # second pass over the first pass's output: join each tag tuple into one string
    def enter_flat(path, key, value):
        if key == "tags":
            return value, False  # not traversed: visit sees the whole tuple
        return iu.default_enter(path, key, value)

    flat = iu.remap(
        out,
        visit=lambda p, k, v: (k, "+".join(v)) if k == "tags" else True,
        enter=enter_flat,
    )
    assert [rec["tags"] for rec in flat["g3"]] == ["t0", "t1+t1", "t2+t2+t2", "t0"]
    assert iu.get_path(flat, "g4.2.tags") == "t0+t0+t0"
    assert iu.get_path(flat, "g5.9.id", default=-1) == -1
    with pytest.raises(iu.PathAccessError):
        iu.get_path(flat, "g2.5.id")


def test_iterutils_chunks_windows_and_splits():
    seq = [(i * i + 3) % 13 for i in range(60)]
    chunks = iu.chunked(seq, 7, fill=-1)
    assert len(chunks) == 9
    assert [sum(c) for c in chunks] == [34, 34, 31, 38, 29, 43, 28, 49, 5]
    assert sum(len(iu.rstrip(c, -1)) for c in chunks) == 60

    wins = iu.windowed(seq, 4)
    assert len(wins) == 57
    assert sum(1 for w in wins if w[0] < w[-1]) == 26
    assert iu.windowed(seq[-5:], 3, fill=None)[-2:] == [(0, 0, None), (0, None, None)]
    assert iu.pairwise(seq[:12], end=None)[-1] == (7, None)

    by_five = iu.split(seq, sep=lambda x: x % 5 == 0)
    assert [len(g) for g in by_five] == [6, 0, 11, 0, 11, 0, 11, 0, 11, 0, 0]
    capped = iu.split(seq, sep=[0, 12], maxsplit=6)
    assert [len(g) for g in capped] == [3, 2, 0, 2, 5, 2, 40]

    # chunk ranges over a grid of sizes, overlaps and alignments
    count = 0
    spans = 0
    for size in range(5, 29, 3):
        for overlap in (0, 1, 2):
            for align in (False, True):
                rs = list(iu.chunk_ranges(size, 5, input_offset=size % 4,
                                          overlap_size=overlap, align=align))
                count += len(rs)
                spans += rs[-1][1] - rs[0][0]
    assert (count, spans) == (203, 744)

    delays = [iu.backoff(1, 50, count=8, factor=f) for f in (1.5, 2, 3)]
    assert [d[-1] for d in delays] == [17.0859375, 50.0, 50.0]
    assert sum(sum(d) for d in delays) == 452.2578125


def test_iterutils_grouping_over_generated_records():
    records = [(f"k{i % 5}", (i * 7 + 3) % 11, i) for i in range(50)]
    by_key = iu.bucketize(records, key=lambda r: r[0], value_transform=lambda r: r[1],
                          key_filter=lambda k: k != "k4")
    assert {k: sum(v) for k, v in by_key.items()} == {"k0": 54, "k1": 47, "k2": 51, "k3": 55}
    by_list = iu.bucketize([r[2] for r in records], key=[r[1] % 3 for r in records])
    assert {k: len(v) for k, v in by_list.items()} == {0: 19, 1: 17, 2: 14}
    small, mid, large = iu.partition(records, lambda r: r[1] < 3, lambda r: r[1] < 7)
    assert (len(small), len(mid), len(large)) == (13, 19, 18)
    firsts = iu.unique(records, key=lambda r: r[1])
    assert [r[2] for r in firsts] == list(range(11))
    dups = iu.redundant([r[1] for r in records], groups=True)
    assert [len(g) for g in dups] == [5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4]
    paired = iu.redundant(records, key=lambda r: (r[0], r[1] % 2))
    assert [r[2] for r in paired] == [5, 7, 8, 11, 14, 22, 25, 31, 33, 39]
    flat = iu.flatten([[i, [i * 2, [i * 3]]] for i in range(10)])
    assert sum(flat) == 270
    soft = iu.soft_sorted([r[1] for r in records[:20]], first=[7, 3], last=[0])
    assert soft == [7, 3, 3, 1, 1, 2, 2, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 0]
    assert iu.first(records, key=lambda r: r[1] > 9) == ("k1", 10, 1)
    assert iu.one(records, key=lambda r: r[2] > 48) == ("k4", 5, 49)
    assert iu.one(records, default="many", key=lambda r: r[2] > 47) == "many"
    assert iu.same(r[1] for r in records[::11]) is True
    assert iu.same((r[1] for r in records[::5]), ref=3) is False


def test_int_list_format_parse_roundtrip():
    members = []
    texts, comps, nranges = [], [], []
    for i in range(30):
        members.extend([(i * 7 + 3) % 40, (i * 11 + 5) % 40])
        text = su.format_int_list(members)  # duplicates collapse
        assert su.parse_int_list(text) == sorted(set(members))
        comps.append(su.complement_int_list(text, range_start=1, range_end=40))
        nranges.append(len(su.int_ranges_from_int_list(text)))
        texts.append(text)
    assert texts[:4] == ["3,5", "3,5,10,16", "3,5,10,16-17,27", "3,5,10,16-17,24,27,38"]
    assert texts[-1] == "0,2-7,9-14,16-33,35-39"
    assert comps[10] == "1,4,6-8,11,14-15,18,21-23,25,28-30,32,34,36-37,39"
    assert comps[-1] == "1,8,15,34"
    assert sum(nranges) == 273
    assert max(nranges) == 13
    spaced = su.format_int_list(su.parse_int_list(texts[12]), delim=";",
                                range_delim=":", delim_space=True)
    assert spaced == "0; 2:3; 5:7; 9:10; 12:13; 16:17; 19:20; 24; 26:27; 31; 33; 35; 38"


def test_strutils_words_sizes_and_rewrites():
    nouns = ["box", "city", "wolf", "child", "key", "bus", "Glass", "leaf", "DAY",
             "index", "mouse", "Wish"]
    phrases, lost, ords, sizes = [], [], [], []
    for i in range(36):
        noun = nouns[(i * 5) % 12]
        phrases.append(su.unit_len(range(i % 4), noun))
        if su.singularize(su.pluralize(noun)) != noun:
            lost.append(noun)
        ords.append(su.ordinalize((i * 37) % 125))
        sizes.append(su.bytes2human(3 ** i, ndigits=i % 3))
    assert phrases[:12] == [
        "No boxes", "1 bus", "2 mice", "3 children", "No DAYS", "1 city",
        "2 Glasses", "3 Wishes", "No keys", "1 index", "2 wolves", "3 leaves",
    ]
    assert sorted(set(lost)) == ["Wish", "box"]
    assert len(lost) == 6
    assert sum(o.endswith("th") for o in ords) == 28
    assert ords[:6] == ["0th", "37th", "74th", "111th", "23rd", "60th"]
    assert sizes[7:13] == ["2.1K", "6.41K", "19K", "57.7K", "173.00K", "519K"]
    assert sizes[-1] == "44.44P"

    # one MultiReplace pass per step over a string that keeps growing
    mr = su.MultiReplace([("ab", "b"), ("cc", "c"), ("ba", "a"), ("ca", "ac")])
    pieces = ["ab", "bc", "ca", "cc", "a"]
    text = ""
    lengths = []
    for i in range(30):
        text = mr.sub(text + pieces[(i * 3) % 5])
        lengths.append(len(text))
    assert text == "aaaaaaaaaacbcaca"
    assert sum(lengths) == 308

    args = [f"a{i}" + "\\" * (i % 3) + ('"' if i % 4 == 1 else "") + (" x" if i % 5 == 2 else "")
            for i in range(20)]
    cmd = su.args2cmd(args)
    assert len(cmd) == 120
    assert cmd.count('"') == 13


def test_stats_over_growing_prefixes_and_trimming():
    values = [(i * 7 + 3) % 11 + i // 5 for i in range(40)]
    medians, lower_q, modes, above = [], [], [], 0
    hist_rows = []
    for n in range(4, 41, 3):
        s = Stats(values[:n])
        medians.append(s.median)
        lower_q.append(s.get_quantile(0.25))
        modes.append(s.mode)
        above += s.get_zscore(values[n - 1]) > 0
        hist_rows.append([c for _, c in s.get_histogram_counts(bins=[0, 4, 8, 12])])
    assert medians == [4.5, 6, 5.5, 6, 6.0, 6, 6.5, 7, 7.5, 8, 8.0, 9, 9.0]
    assert lower_q[:4] == [2.75, 2.5, 2.25, 3]
    assert modes == [2, 2, 2, 9, 9, 9, 4, 4, 4, 10, 6, 9, 9]
    assert above == 9
    assert hist_rows[-1] == [4, 12, 14, 10]
    assert [sum(row) for row in hist_rows] == list(range(4, 41, 3))

    s = Stats(values)
    kept = []
    for amount in (0.1, 0.1, 0.2, 0.25, 0.3):
        s.trim_relative(amount)  # trims the already-trimmed data again
        kept.append((s.count, s.min, s.max))
    assert kept == [(32, 4, 13), (26, 5, 12), (16, 6, 10), (8, 8, 9), (4, 8, 9)]

    summary = dict(describe(values, quantiles=[0.1, 0.9], format="list"))
    assert summary["count"] == 40
    assert summary["mean"] == pytest.approx(8.525)
    assert summary["mad"] == 3.0
    assert summary["0.9"] == pytest.approx(13.1)
    lines = Stats(values).format_histogram(bins=5, width=30).splitlines()
    assert [int(line.split(":")[1].split()[0]) for line in lines] == [4, 9, 11, 9, 7]


def test_url_navigation_chain_and_parsing():
    url = URL("http://example.com/a/b/c?x=1")
    dests = ["../d{i}/", "./e{i}/f/", "/r{m}/s/t/", "?q={i}", "g{i}#h{i}",
             "../../k{i}/?k={i}&k={j}", "./", ".."]
    texts = []
    for i in range(30):
        url = url.navigate(dests[i % 8].format(i=i, m=i % 3, j=i * 2))
        texts.append(url.to_text())
    assert texts[:8] == [
        "http://example.com/a/d0/",
        "http://example.com/a/d0/e1/f/",
        "http://example.com/r2/s/t/",
        "http://example.com/r2/s/t/?q=3",
        "http://example.com/r2/s/t/g4#h4",
        "http://example.com/r2/k5/?k=5&k=10",
        "http://example.com/r2/k5/",
        "http://example.com/r2/",
    ]
    assert texts[-1] == "http://example.com/r2/k29/?k=29&k=58"
    assert url.query_params.getlist("k") == ["29", "58"]
    assert sum(t.count("/") for t in texts) == 161

    bad = 0
    seen = []
    for i in range(24):
        port = str(8000 + i) if i % 4 else f"8{i}x"
        user = f"u{i}:p%20{i}@" if i % 3 == 0 else ""
        try:
            u = URL(f"http://{user}h{i}.example.com:{port}/p/{i}/../q?n={i}")
        except URLParseError:
            bad += 1
            continue
        u.normalize()
        seen.append((u.port, u.path, u.password, u.get_authority(with_userinfo=True)))
    assert bad == 6
    assert len(seen) == 18
    assert seen[2] == (8003, "/p/q", "p 3", "u3:p%203@h3.example.com:8003")
    assert all(path == "/p/q" for _, path, _, _ in seen)

    qp = URL("https://x.org/?a=1&b=2&a=3&c").query_params
    for i in range(20):
        k = "abc"[i % 3]
        if i % 4 == 3:
            qp.poplast(k, None)
        else:
            qp.add(k, str(i))
    assert qp.to_text() == "a=1&b=2&a=3&c&b=1&c=2&c=5&a=6&a=9&b=10&b=13&c=14&c=17&a=18"
