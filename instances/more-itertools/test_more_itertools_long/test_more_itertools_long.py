"""Long, stateful executions of more-itertools, for harder trace questions.

The other test files call each function a few times on literal inputs, so the
questions generated from them are quick to answer. Here every test drives one
area of the package through many calls (20-60) over inputs built by explicit
loops: arithmetic progressions, small-modulus patterns such as
``(i * 7 + 3) % 11``, strings built from the index and nested lists that grow.
Most tests carry state from call to call (one peekable, seekable or bucket
used for a whole sequence of operations; one call's output fed to the next),
take branches both ways over the rounds and raise exceptions inside the
package that the package or the test catches. The asserts check aggregates or
compare with a plain-Python reference computed in the test.

Deterministic: no randomness, no string hashing order, no clocks, no files.
"""

from fractions import Fraction
from itertools import (
    chain,
    combinations,
    combinations_with_replacement,
    permutations,
    product,
)
from math import prod

import more_itertools as mi
import pytest


def test_peekable_used_as_a_work_queue():
    # One peekable over 50 multiples of 3, worked for 40 rounds; `model` is a
    # plain list holding what the peekable still has to give.
    p = mi.peekable(x * 3 for x in range(50))
    model = [x * 3 for x in range(50)]
    popped = []
    looked = []
    for i in range(40):
        op = (i * 7 + 3) % 5
        if op == 0:
            looked.append(p.peek(-1))
            assert looked[-1] == (model[0] if model else -1)
        elif op == 1:
            k = i % 4
            looked.append(p[k])
            assert looked[-1] == model[k]
        elif op == 2:
            window = p[1 : 2 + i % 3]
            assert window == model[1 : 2 + i % 3]
            looked.append(sum(window))
        elif op == 3:
            head = next(p)
            assert head == model.pop(0)
            popped.append(head)
            if head % 2 == 0:
                # Even heads go back in as two derived items.
                p.prepend(head + 1, head + 2)
                model[0:0] = [head + 1, head + 2]
        else:
            popped.append(next(p))
            model.pop(0)
            assert bool(p) == bool(model)

    # Indexes and slices counted from the right, then the rest drained.
    assert p[-1] == model[-1]
    assert p[::-4] == model[::-4]
    assert p[-3:] == model[-3:]
    rest = list(p)
    assert rest == model
    assert not p
    assert p.peek("empty") == "empty"
    with pytest.raises(StopIteration):
        p.peek()
    p.prepend(7, 8)
    assert [next(p), p.peek()] == [7, 8]
    assert len(popped) == 16
    assert sum(popped) + sum(rest) == 3811
    assert len(looked) == 24


def test_seekable_rewinds_and_relative_seeks():
    # A seekable over 24 labels; 36 rounds of next / seek / relative_seek /
    # peek chosen by (i * 7 + 3) % 6.  `pos` tracks where the seekable stands.
    labels = [f"k{i % 5}:{i}" for i in range(24)]
    s = mi.seekable(iter(labels))
    pos = 0
    trail = []
    for i in range(36):
        op = (i * 7 + 3) % 6
        if op in (0, 1, 2):
            got = next(s, "END")
            expected = labels[pos] if pos < len(labels) else "END"
            assert got == expected
            if got != "END":
                pos += 1
            trail.append(got)
        elif op == 3:
            target = (i * 5) % 17
            s.seek(target)
            pos = min(target, len(labels))
        elif op == 4:
            s.relative_seek(-(i % 4) - 1)
            pos = max(pos - (i % 4) - 1, 0)
        else:
            got = s.peek("END")
            assert got == (labels[pos] if pos < len(labels) else "END")
            trail.append(got)
    assert len(trail) == 24
    assert sum(1 for t in trail if t.startswith("k0")) == 7
    assert len(s.elements()) <= len(labels)
    assert s[0] == "k0:0"

    # A bounded cache forgets the oldest items: seeking to 0 goes back only
    # as far as the last `maxlen` items.
    b = mi.seekable((n * n for n in range(30)), maxlen=6)
    firsts = []
    for rnd in range(12):
        for _ in range(1 + rnd % 3):
            next(b, None)
        b.seek(0)
        firsts.append(next(b))
        b.relative_seek(rnd % 4)
    assert firsts == sorted(firsts)
    assert len(b.elements()) == 6
    assert bool(b) == (b.peek(None) is not None)


def test_numeric_range_against_builtin_range():
    # 36 integer ranges of every direction and step compared with range(),
    # then 20 Fraction ranges compared with a list built by hand.
    misses = 0
    index_errors = 0
    for i in range(36):
        start = (i * 7 + 3) % 11 - 5
        stop = (i * 5 + 2) % 13 - 6
        step = (1, 2, 3, -1, -2, -3)[i % 6]
        r = mi.numeric_range(start, stop, step)
        ref = range(start, stop, step)
        assert list(r) == list(ref)
        assert len(r) == len(ref)
        assert bool(r) == bool(ref)
        assert list(reversed(r)) == list(reversed(ref))
        probe = (i * 3) % 9 - 4
        assert (probe in r) == (probe in ref)
        assert r.count(probe) == ref.count(probe)
        try:
            got = r.index(probe)
        except ValueError:
            misses += 1
            assert probe not in ref
        else:
            assert got == ref.index(probe)
        k = i % 5 - 2
        try:
            item = r[k]
        except IndexError:
            index_errors += 1
            assert not -len(ref) <= k < len(ref)
        else:
            assert item == ref[k]
        assert list(r[1::2]) == list(ref[1::2])
        assert r == mi.numeric_range(start, stop, step)
    assert misses == 31
    assert index_errors == 24

    total = Fraction(0)
    for i in range(20):
        start = Fraction(i, 3)
        stop = Fraction(i + 7, 2)
        step = Fraction(1, i % 3 + 2)
        r = mi.numeric_range(start, stop, step)
        expected = []
        x = start
        while x < stop:
            expected.append(x)
            x += step
        assert list(r) == expected
        assert len(r) == len(expected)
        assert r[-1] == expected[-1]
        total += sum(r)
    assert total == Fraction(7397, 4)


def test_islice_extended_against_list_slicing():
    # 56 slices with positive, negative and missing bounds and steps over
    # iterators of varying length, compared with list slicing.
    starts = (None, 0, 2, -1, -3, 5, -8, 9)
    stops = (None, 1, 4, -1, -2, 7, -9, 12)
    steps = (None, 1, 2, 3, -1, -2, -3)
    produced = 0
    empty = 0
    for i in range(56):
        n = 5 + i % 9
        data = [10 * i + j for j in range(n)]
        start = starts[i % 8]
        stop = stops[(i * 3 + 1) % 8]
        step = steps[(i * 5 + 2) % 7]
        got = list(mi.islice_extended(iter(data), start, stop, step))
        assert got == data[start:stop:step]
        # The same slice through the object's slice notation.
        assert list(mi.islice_extended(iter(data))[start:stop:step]) == got
        produced += len(got)
        empty += not got
    assert produced == 124
    assert empty == 22

    zero_steps = 0
    for i in range(4):
        with pytest.raises(ValueError):
            list(mi.islice_extended(iter(range(i + 3)), 0, i + 1, 0))
        zero_steps += 1
    assert zero_steps == 4


def test_split_family_feeds_its_own_output():
    # 40 rounds; each splits the current sequence with one of split_at,
    # split_before, split_after or split_when, and the next sequence is built
    # from the pieces (length plus first item) followed by part of the old one.
    seq = [(i * 7 + 3) % 11 for i in range(30)]
    piece_counts = []
    for rnd in range(40):
        maxsplit = (rnd // 4) % 4 - 1
        mod = 2 + rnd % 3
        kind = rnd % 4
        if kind == 0:
            keep = rnd % 8 == 0
            parts = list(
                mi.split_at(seq, lambda x, m=mod: x % m == 0, maxsplit=maxsplit, keep_separator=keep)
            )
            if keep:
                assert list(chain(*parts)) == seq
        elif kind == 1:
            parts = list(mi.split_before(seq, lambda x, m=mod: x % m == 0, maxsplit=maxsplit))
            assert list(chain(*parts)) == seq
        elif kind == 2:
            parts = list(mi.split_after(seq, lambda x, m=mod: x % m == 0, maxsplit=maxsplit))
            assert list(chain(*parts)) == seq
        else:
            parts = list(mi.split_when(seq, lambda a, b: a > b, maxsplit=maxsplit))
            assert list(chain(*parts)) == seq
        if maxsplit >= 0 and kind != 0:
            assert len(parts) <= maxsplit + 1
        piece_counts.append(len(parts))
        seq = [len(p) + (p[0] if p else 0) for p in parts] + seq[rnd % 5 : rnd % 5 + 20]
    assert sum(piece_counts) == 289
    assert len(seq) == 15
    assert sum(seq) == 327


def test_bucket_interleaved_lookups_with_validator():
    # 60 labels "k<d>-<i>" with d = (i * 7 + 3) % 6, bucketed by their "k<d>"
    # prefix; "k5" is refused by the validator.  40 rounds alternate
    # membership tests with pulling one item from a per-key child iterator.
    labels = (f"k{(i * 7 + 3) % 6}-{i}" for i in range(60))
    b = mi.bucket(labels, key=lambda s: s.split("-")[0], validator=lambda k: k != "k5")
    streams = {}
    pulled = []
    members = []
    for i in range(40):
        # No label has the prefix "k6".
        key = "k6" if i == 27 else f"k{(i * 5) % 6}"
        if i % 3 == 0:
            members.append((key, key in b))
        else:
            if key not in streams:
                streams[key] = b[key]
            item = next(streams[key], None)
            if item is not None:
                assert item.startswith(key + "-")
                pulled.append(item)
    assert sum(found for _, found in members) == 13
    assert len(pulled) == 19
    assert sorted(b) == ["k0", "k1", "k2", "k3", "k4", "k6"]
    # Drain every key; each accepted label comes out exactly once overall.
    for key in ("k0", "k1", "k2", "k3", "k4", "k5"):
        pulled.extend(b[key])
    assert len(pulled) == 50
    assert len(set(pulled)) == 50

    by_key = mi.map_reduce(
        pulled,
        keyfunc=lambda s: s.split("-")[0],
        valuefunc=lambda s: int(s.split("-")[1]),
        reducefunc=sum,
    )
    assert sorted(by_key.items()) == [
        (f"k{d}", sum(i for i in range(60) if (i * 7 + 3) % 6 == d)) for d in range(5)
    ]


def test_combinatoric_ranks_round_trip_in_a_chain():
    # Each family is walked along a chain of indexes: the rank read back from
    # the previous item picks the next index.
    pool = "abcdefgh"
    combos = list(combinations(pool, 4))
    idx = 5
    raised = 0
    ranks = []
    for step in range(30):
        c = mi.nth_combination(pool, 4, idx)
        assert c == combos[idx]
        assert mi.nth_combination(pool, 4, idx - len(combos)) == c
        back = mi.combination_index(c, pool)
        assert back == idx
        ranks.append(back)
        if step % 6 == 0:
            with pytest.raises(IndexError):
                mi.nth_combination(pool, 4, len(combos) + step)
            with pytest.raises(ValueError):
                mi.combination_index(c[::-1], pool)
            raised += 2
        idx = (back * 7 + step * 11 + sum(map(ord, c))) % len(combos)
    assert raised == 10
    assert sum(ranks) == 887

    perms = list(permutations(range(6), 3))
    idx = 11
    total = 0
    for step in range(25):
        t = mi.nth_permutation(range(6), 3, idx)
        assert t == perms[idx]
        assert mi.permutation_index(t, range(6)) == idx
        total += sum(t)
        idx = (idx * 13 + t[0] + step + 7) % len(perms)
    assert total == 178

    cwr = list(combinations_with_replacement("wxyz", 3))
    idx = 0
    for step in range(20):
        t = mi.nth_combination_with_replacement("wxyz", 3, idx)
        assert t == cwr[idx]
        assert mi.combination_with_replacement_index(t, "wxyz") == idx
        idx = (idx + 3 + step % 4) % len(cwr)

    args = ("ab", range(3), "xyz")
    prods = list(product(*args, repeat=2))
    idx = 1
    for step in range(20):
        t = mi.nth_product(idx, *args, repeat=2)
        assert t == prods[idx]
        assert mi.product_index(t, *args, repeat=2) == idx
        idx = (idx * 5 + step + 17) % len(prods)
    with pytest.raises(IndexError):
        mi.nth_product(len(prods), *args, repeat=2)
    with pytest.raises(ValueError):
        mi.product_index(("a", 0), *args, repeat=2)


def test_factor_totient_and_primes_in_a_chain():
    # A chain of 30 numbers: each is factored, checked, and the next one is
    # grown from its smallest prime factor.
    n = 1000
    factor_counts = []
    for step in range(30):
        fs = list(mi.factor(n))
        assert prod(fs) == n
        assert fs == sorted(fs)
        assert all(mi.is_prime(f) for f in fs)
        phi = n
        for p in sorted(set(fs)):
            phi -= phi // p
        assert mi.totient(n) == phi
        factor_counts.append(len(fs))
        n = n + fs[0] * (step % 4 + 1) + step
    assert sum(factor_counts) == 97
    assert n == 37219

    # Products of two primes above 210.
    big = [p for p in mi.sieve(260) if p > 210]
    for j in range(4):
        p, q = big[j], big[j + 2]
        assert list(mi.factor(p * q)) == [p, q]
        assert not mi.is_prime(p * q)
        assert mi.totient(p * q) == (p - 1) * (q - 1)

    # sieve(n) for 30 growing n against is_prime.
    counts = []
    for n in range(2, 122, 4):
        primes = list(mi.sieve(n))
        assert primes == [k for k in range(n) if mi.is_prime(k)]
        counts.append(len(primes))
    assert sum(counts) == 501


def _reference_flatten(node, levels=None, depth=0):
    # Plain recursive flattening, the behaviour collapse() documents.
    out = []
    for child in node:
        atom = isinstance(child, str) or not isinstance(child, (list, tuple))
        if atom or (levels is not None and depth >= levels):
            out.append(child)
        else:
            out.extend(_reference_flatten(child, levels, depth + 1))
    return out


def test_collapse_over_a_structure_that_grows_each_round():
    # The tree is rebuilt for 24 rounds: wrapped in a new list, extended with
    # a tuple holding a string and a tuple, or nested under a new head.
    tree = []
    sizes = []
    for i in range(24):
        if i % 3 == 0:
            tree = [tree, i]
        elif i % 3 == 1:
            tree.append((i, [f"s{i}", (i + 1,)]))
        else:
            tree = [i, tree, [[i]]]
        flat = list(mi.collapse(tree))
        assert flat == _reference_flatten(tree)
        levels = i % 4
        assert list(mi.collapse(tree, levels=levels)) == _reference_flatten(tree, levels)
        kept = list(mi.collapse(tree, base_type=tuple))
        assert sum(isinstance(x, tuple) for x in kept) == sum(1 for j in range(i + 1) if j % 3 == 1)
        sizes.append(len(flat))
    assert sizes[-1] == 48
    assert sum(sizes) == 592


def test_windows_chunks_and_batches_over_growing_sequences():
    # 30 sequences of growing length; windowed, chunked_even and
    # constrained_batches run on each with parameters taken from the index.
    window_total = 0
    for i in range(30):
        seq = [(j * 7 + i) % 11 for j in range(i % 13)]
        n = 1 + i % 5
        step = 1 + (i * 3) % 4
        wins = list(mi.windowed(seq, n, fillvalue=-1, step=step))
        # Reference: windows start every `step` items of the sequence padded
        # with just enough fill values for the last window.
        pad = n - 1 if step >= n else step - 1
        padded = seq + [-1] * pad
        if not seq:
            expected = []
        elif len(seq) < n:
            expected = [tuple(seq) + (-1,) * (n - len(seq))]
        else:
            count = 1 + (len(seq) - n + pad) // step
            expected = [tuple(padded[k * step : k * step + n]) for k in range(count)]
        assert wins == expected
        window_total += len(wins)

        size = 1 + i % 4
        chunks = list(mi.chunked_even(seq, size))
        assert list(chain(*chunks)) == seq
        lengths = [len(c) for c in chunks]
        assert all(0 < m <= size for m in lengths)
        if lengths:
            assert max(lengths) - min(lengths) <= 1
    assert window_total == 76

    words = [f"w{j}" * (1 + (j * 7 + 3) % 4) for j in range(40)]
    batch_counts = []
    for i in range(20):
        max_size = 8 + i % 7
        max_count = None if i % 3 == 0 else 1 + i % 4
        batches = list(mi.constrained_batches(words[i:], max_size, max_count=max_count, strict=False))
        assert list(chain(*batches)) == words[i:]
        for batch in batches:
            assert len(batch) == 1 or sum(map(len, batch)) <= max_size
            assert max_count is None or len(batch) <= max_count
        batch_counts.append(len(batches))
        if max_size < 12:
            with pytest.raises(ValueError):
                list(mi.constrained_batches(words[i:], max_size))
    assert sum(batch_counts) == 496


def _stirling2(n, k):
    table = [[0] * (k + 1) for _ in range(n + 1)]
    table[0][0] = 1
    for a in range(1, n + 1):
        for b in range(1, k + 1):
            table[a][b] = b * table[a - 1][b] + table[a - 1][b - 1]
    return table[n][k]


def test_set_partitions_counts_and_size_bounds():
    # Every n from 1 to 6 and every k from 0 to n + 1, then the size bounds.
    calls = 0
    for n in range(1, 7):
        items = [f"e{j}" for j in range(n)]
        for k in range(n + 2):
            calls += 1
            if k == 0:
                with pytest.raises(ValueError):
                    list(mi.set_partitions(items, k))
                continue
            parts = list(mi.set_partitions(items, k))
            assert len(parts) == _stirling2(n, k)
            for part in parts:
                assert len(part) == k
                assert sorted(chain(*part)) == items
        assert len(list(mi.partitions(items))) == 2 ** (n - 1)
    assert calls == 33

    bounded = []
    for n in range(2, 7):
        items = list(range(n))
        for lo, hi in ((1, 2), (2, 3), (2, 2), (3, 1)):
            got = list(mi.set_partitions(items, min_size=lo, max_size=hi))
            for part in got:
                assert all(lo <= len(block) <= hi for block in part)
            bounded.append(len(got))
    assert bounded == [2, 1, 1, 0, 4, 1, 0, 0, 10, 3, 3, 0, 26, 10, 0, 0, 76, 25, 15, 0]


def test_dedup_run_length_and_interleave_feedback():
    # 20 rounds over a sequence that mixes ints with one-item lists; each
    # round's results build the next round's sequence.
    seq = [(i * 7 + 3) % 5 if i % 4 else [i % 3] for i in range(20)]
    dup_total = 0
    replaced_total = 0
    for rnd in range(20):
        dups = list(mi.duplicates_everseen(seq))
        firsts = list(mi.unique_everseen(seq, key=repr))
        assert len(dups) + len(firsts) == len(seq)
        dup_total += len(dups)

        ints = [x if isinstance(x, int) else x[0] for x in seq]
        enc = list(mi.run_length.encode(ints))
        assert list(mi.run_length.decode(enc)) == ints
        assert list(mi.unique_justseen(ints)) == [k for k, _ in enc]

        # Replace adjacent pairs summing to rnd % 5 by -1, at most three times.
        target = rnd % 5
        replaced = list(
            mi.replace(ints, lambda *w, t=target: len(w) == 2 and w[0] + w[1] == t, [-1], count=3, window_size=2)
        )
        replaced_total += len(ints) - len(replaced)

        # Spread the first-seen items evenly among the run lengths and feed
        # the mixture back in, with every third entry wrapped in a list.
        heads = [x if isinstance(x, int) else x[0] for x in firsts[:6]]
        mixed = list(mi.interleave_evenly([[n for _, n in enc], heads]))
        seq = ([x % 5 if j % 3 else [x % 3] for j, x in enumerate(mixed)] + seq)[:20]
    assert dup_total == 266
    assert replaced_total == 41
    assert len(seq) == 20
