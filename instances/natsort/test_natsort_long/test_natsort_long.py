"""Long, deep executions of natsort, for harder items.

Each test drives one area of the package through dozens of calls over inputs
the test builds with explicit loops (arithmetic progressions, small-modulus
patterns, strings built from the loop index, nested lists of growing size),
and most carry state from one call into the next: a sorted output is edited
and sorted again, an index order is applied and re-derived, a word is passed
through a chain of transforms round after round. The asserts check aggregates
and final states rather than one literal per call.

Everything is deterministic and independent of the machine: no locale-aware
algorithm (ns.LOCALE, humansorted and os_sorted consult the machine's
locale), no real filesystem paths, no random numbers and no iteration over
sets of strings.
"""

import pytest
from natsort import (
    as_ascii,
    as_utf8,
    chain_functions,
    decoder,
    index_natsorted,
    index_realsorted,
    natsort_key,
    natsort_keygen,
    natsorted,
    ns,
    numeric_regex_chooser,
    order_by_index,
    realsorted,
    utils,
)
from natsort.__main__ import check_filters, keep_entry_range, keep_entry_value, main
from natsort.compat.fake_fastnumbers import fast_float, fast_int
from natsort.compat.fastnumbers import is_supported_fastnumbers, try_float, try_int
from natsort.utils import path_splitter, sep_inserter

# the optional flags the key-generation matrix switches on and off, bit by bit
MATRIX_FLAGS = [
    ns.FLOAT,
    ns.SIGNED,
    ns.NOEXP,
    ns.IGNORECASE,
    ns.LOWERCASEFIRST,
    ns.GROUPLETTERS,
]


def _leaves(value):
    # count the non-tuple leaves of a (possibly nested) key
    if isinstance(value, tuple):
        return sum(_leaves(v) for v in value)
    return 1


def test_keygen_flag_matrix():
    samples = [
        "Ab-1.5e2x",
        "aB+3.25",
        "v2.10/f-3.tar.gz",
        b"Q7z",
        4.5,
        None,
        float("nan"),
        "x\u2460y07",
    ]
    lengths = []
    leaves = 0
    rejected = 0
    numeric_heads = 0
    for i in range(40):
        if i % 9 == 8:
            # a string or a float is not an ns flag: the keygen refuses it
            bad = f"ns{i}" if i % 2 else i / 4
            with pytest.raises(ValueError):
                natsort_keygen(alg=bad)
            rejected += 1
            continue
        mask = (i * 7 + 3) % 64
        alg = ns.DEFAULT
        for bit, flag in enumerate(MATRIX_FLAGS):
            if mask >> bit & 1:
                alg |= flag
        if i % 4 == 3:
            alg |= ns.PATH
        if i % 3 == 1:
            alg |= ns.NANLAST
        if i % 5 == 2:
            alg |= ns.NUMAFTER
        if i % 6 == 0:
            alg |= ns.COMPATIBILITYNORMALIZE
        key = natsort_keygen(alg=alg)
        sample = samples[i % len(samples)]
        k = key(sample)
        lengths.append(len(k))
        leaves += _leaves(k)
        flat = k[0] if k and isinstance(k[0], tuple) else k
        if (
            flat
            and isinstance(flat[0], str)
            and len(flat) > 1
            and not isinstance(flat[1], str)
        ):
            numeric_heads += 1
    assert rejected == 4
    assert len(lengths) == 36
    assert sum(lengths) == 97
    assert leaves == 112
    assert numeric_heads == 32
    assert lengths[:12] == [3, 4, 5, 1, 2, 3, 3, 1, 4, 5, 1, 2]


def test_case_flags_feedback_rounds():
    # each round sorts the words, then the head is recased and re-added with a
    # new number, so the words and their order evolve together
    words = [
        ("Ab", "aB", "ba", "BA", "b", "A")[i % 6] + str((i * 7 + 3) % 11)
        for i in range(7)
    ]
    heads = []
    for r in range(24):
        alg = (
            ns.LOWERCASEFIRST,
            ns.GROUPLETTERS,
            ns.IGNORECASE,
            ns.G | ns.LF,
            ns.DEFAULT,
        )[r % 5]
        out = natsorted(words, alg=alg, reverse=r % 7 == 6)
        heads.append(out[0])
        head = out[0]
        letters = head.rstrip("0123456789")
        recased = letters.swapcase() if r % 2 else letters.upper()
        words = out[1:] + [recased + str((r * 5 + 2) % 13)]
    assert heads[:8] == ["aB10", "A5", "a7", "A12", "AB2", "a4", "ba6", "A1"]
    assert len(words) == 7
    assert words == ["A8", "Ab1", "Ab3", "ba2", "B12", "BA11", "AB0"]
    assert sum(h[0].isupper() for h in heads) == 13


def test_index_natsorted_order_by_index_chain():
    names = [f"f{(i * 7 + 3) % 11}.v{i % 4}" for i in range(9)]
    weights = list(range(9))
    moved = 0
    errors = 0
    for r in range(24):
        key = None if r % 3 else (lambda s: s.split(".")[1])
        alg = ns.PRESORT if r % 5 == 4 else (ns.FLOAT if r % 2 else ns.INT)
        idx = index_natsorted(names, key=key, reverse=r % 4 == 3, alg=alg)
        moved += sum(1 for pos, j in enumerate(idx) if pos != j)
        names = order_by_index(names, idx)
        weights = list(order_by_index(weights, idx, iter=True))
        # the name in front is rewritten from the weight that travelled with it
        names[0] = f"f{(weights[0] * 5 + r) % 13}.v{r % 4}"
        if r % 6 == 5:
            try:
                order_by_index(names, idx + [len(names) + r])
            except IndexError:
                errors += 1
    assert moved == 165
    assert errors == 4
    assert names == [
        "f9.v3",
        "f9.v1",
        "f8.v3",
        "f8.v0",
        "f7.v2",
        "f6.v2",
        "f6.v2",
        "f6.v1",
        "f3.v2",
    ]
    assert weights == [5, 0, 7, 6, 8, 1, 2, 3, 4]


def test_realsorted_signed_exponents_and_specials():
    pool = []
    for i in range(30):
        sign = ("-", "+", "")[i % 3]
        exp = f"e{i % 5 - 2}" if i % 4 == 0 else ""
        pool.append(f"t{sign}{(i * 7 + 3) % 11}.{i % 4}{exp}")
    specials = ["inf", "-inf", "nan", "info", "t-x", ".5", "NaN", "+7"]
    firsts = []
    lasts = []
    orders = 0
    for r in range(20):
        special = specials[r % len(specials)]
        # odd rounds glue the special token to the common "t" prefix
        window = pool[r : r + 5] + [f"t{special}" if r % 2 else special]
        alg = ns.NANLAST if r % 2 else ns.DEFAULT
        if r % 3 == 2:
            alg |= ns.NOEXP
        out = realsorted(window, alg=alg, reverse=r % 5 == 4)
        firsts.append(out[0])
        lasts.append(out[-1])
        idx = index_realsorted(window, alg=alg)
        orders += idx.index(len(window) - 1)
    numbers = []
    for i in range(12):
        if i % 5 == 1:
            numbers.append(None)
        elif i % 5 == 3:
            numbers.append(float("nan"))
        elif i % 6 == 4:
            numbers.append(float("-inf") if i % 4 else float("inf"))
        else:
            numbers.append((i * 7 + 3) % 11 - 5)
    plain = natsorted(numbers)
    last = natsorted(numbers, alg=ns.NANLAST)
    assert firsts[:6] == ["inf", "t-2.3", "nan", "t-2.3", "t-x", "t-1.2"]
    assert lasts[:6] == ["t+9.0e2", "t-inf", "t+9.0e2", "tinfo", "t-1.2", "t+8.3"]
    assert orders == 51
    assert [repr(x) for x in plain] == [
        "nan",
        "nan",
        "None",
        "None",
        "None",
        "-inf",
        "-5",
        "-2",
        "0",
        "1",
        "3",
        "inf",
    ]
    assert [repr(x) for x in last] == [
        "-inf",
        "-5",
        "-2",
        "0",
        "1",
        "3",
        "inf",
        "None",
        "None",
        "None",
        "nan",
        "nan",
    ]


def test_path_splitter_suffix_loop_and_path_sort():
    exts = [".tar", ".gz", ".7", ".backup", ".x1", ".py"]
    paths = []
    components = 0
    suffix_parts = 0
    for i in range(32):
        dirs = "/".join(f"d{(i + j) % 4}" for j in range(i % 3))
        suffix = "".join(exts[(i * 7 + k) % 6] for k in range(i % 4))
        name = f"file{(i * 5) % 12}{suffix}"
        path = f"{dirs}/{name}" if dirs else name
        if i % 7 == 0:
            path = "/" + path
        if i % 11 == 10:
            path = "."  # no parts at all
        parts = list(path_splitter(path, treat_base=i % 5 != 4))
        components += len(parts)
        suffix_parts += sum(1 for p in parts if p.startswith(".") and p != ".")
        paths.append(path)
    ordered = natsorted(paths, alg=ns.PATH)
    ordered_icase = natsorted(
        [p.upper() if len(p) % 2 else p for p in paths], alg=ns.PATH | ns.IGNORECASE
    )
    assert components == 89
    assert suffix_parts == 23
    assert ordered[:6] == [
        ".",
        ".",
        "/d0/file8",
        "/d2/d3/file10.7.backup",
        "/d3/file11.gz.7.backup",
        "/file0",
    ]
    assert ordered[-3:] == ["file6.tar.gz", "file6.tar.gz", "file9.backup"]
    assert ordered_icase[:4] == [".", ".", "/D0/FILE8", "/d2/d3/file10.7.backup"]


def test_natsort_key_nested_growing_structures():
    # rows grow with the index; every round the new row joins the kept rows,
    # everything is sorted again and only the last four are kept
    kept = []
    leaves = 0
    for i in range(20):
        cells = [f"r{i % 4}c{j}" if j % 3 else j * 1.5 for j in range(i % 5 + 1)]
        if i % 6 == 5:
            cells.append(None)
        if i % 7 == 3:
            cells.insert(0, float("nan"))
        row = [f"g{(i * 5) % 3}", cells]
        leaves += _leaves(natsort_key(row))
        kept = natsorted(kept + [row], reverse=i % 8 == 7)[-4:]
    deep = []
    for i in range(6):
        deep = [deep, f"lvl{i}", i]
    deep_key = natsort_key(deep)
    assert leaves == 242
    assert kept == [
        ["g2", [0.0, "r0c1"]],
        ["g2", [0.0, "r0c1", "r0c2", 4.5, "r0c4"]],
        ["g2", [0.0, "r1c1"]],
        ["g2", [0.0, "r3c1", "r3c2", 4.5, "r3c4"]],
    ]
    assert _leaves(deep_key) == 24
    assert deep_key[1:] == (("lvl", 5), ("", 5))


def test_decoding_and_bytes_keys():
    dec = decoder("latin-1")
    failures = 0
    decoded = []
    blobs = []
    for i in range(30):
        blob = (
            bytes([65 + i % 26 + (32 if i % 3 == 0 else 0)])
            + str((i * 7 + 3) % 11).encode()
        )
        if i % 4 == 1:
            blob += b"\xe9"
        value = i if i % 5 == 0 else blob
        blobs.append(value)
        try:
            text = as_ascii(value)
        except UnicodeDecodeError:
            failures += 1
            text = dec(value)
        decoded.append(text)
    utf8_failures = 0
    for value in blobs:
        try:
            as_utf8(value)
        except UnicodeDecodeError:
            utf8_failures += 1
    raw = natsorted([b for b in blobs if isinstance(b, bytes)])
    by_text = natsorted(blobs, key=dec)
    by_text_icase = natsorted(blobs, key=dec, alg=ns.IGNORECASE)
    path_bytes = natsort_keygen(alg=ns.PATH | ns.IGNORECASE)
    assert failures == 6
    assert utf8_failures == 6
    assert sum(isinstance(t, str) for t in decoded) == 24
    assert raw[:5] == [b"A9", b"B10\xe9", b"C1", b"C6", b"D8\xe9"]
    assert by_text[:8] == [0, 5, 10, 15, 20, 25, b"A9", b"B10\xe9"]
    assert by_text_icase[:8] == [0, 5, 10, 15, 20, 25, b"A9", b"b5"]
    assert path_bytes(blobs[1]) == ((b"b10\xe9",),)


def test_cli_main_filters_and_exclusions(capsys):
    entries = [f"run{(i * 7 + 3) % 11}-v{i % 4}.{i % 3}" for i in range(10)]
    counts = []
    bad_filters = 0
    for r in range(20):
        args = ["-t", ("int", "float", "real", "f", "i", "r")[r % 6]]
        if r % 2:
            args += ["-f", str(r % 5), str(r % 5 + 4)]
        if r % 3 == 0:
            args += ["-F", "7", "9"]
        if r % 4 == 1:
            args += ["-e", str(r % 6)]
        if r % 5 == 2:
            args.append("-r")
        if r % 7 == 3:
            args.append("--noexp")
        if r % 4 == 3:
            args.append("-p")
        if r % 6 == 4:
            args.append("-s")
        if r % 9 == 8:
            # an empty range: main refuses it before sorting anything
            with pytest.raises(ValueError, match="Error in --filter"):
                main(*args, "-f", "6", "2", *entries)
            bad_filters += 1
            continue
        main(*args, *entries)
        printed = capsys.readouterr().out.splitlines()
        counts.append(len(printed))
        if printed:
            # the first printed entry goes back in, the round number spliced
            # in right after its "run"
            entries = entries[1:] + [printed[0].replace("run", f"run{r}", 1)]
    kept_range = [
        e
        for e in entries
        if keep_entry_range(e, [2, 20], [4, 30], float, utils.regex_chooser(ns.INT))
    ]
    kept_value = [
        e
        for e in entries
        if keep_entry_value(e, [3.0, 1.0], float, utils.regex_chooser(ns.REAL))
    ]
    assert bad_filters == 2
    assert counts == [8, 6, 10, 5, 10, 9, 9, 5, 1, 10, 9, 10, 4, 10, 10, 10, 10, 0]
    assert entries == [
        "run7212-v3.0",
        "run94-v0.2",
        "run100-v1.0",
        "run1100-v1.0",
        "run127212-v3.0",
        "run1332-v3.0",
        "run1432-v3.0",
        "run1540-v1.0",
        "run1650-v1.0",
        "run1860-v1.0",
    ]
    assert len(kept_range) == 5
    assert len(kept_value) == 1
    assert check_filters([]) is None
    assert check_filters([(1, 2.5), (0, 9)]) == [(1, 2.5), (0, 9)]


def test_fake_fastnumbers_tokens():
    tokens = []
    for i in range(40):
        kind = i % 8
        if kind == 0:
            tokens.append(str(i * 13))
        elif kind == 1:
            tokens.append(("-", "+", ".")[i % 3] + str(i % 7))
        elif kind == 2:
            tokens.append(chr(0x660 + i % 10))  # arabic-indic digits
        elif kind == 3:
            tokens.append(("\u00bd", "\u00b2", "\u2153", "\u2460")[i % 4])
        elif kind == 4:
            tokens.append(("InF", "nAn", "-inf", "info", "+Na")[i % 5])
        elif kind == 5:
            tokens.append(f"w{i}")
        elif kind == 6:
            tokens.append(("-", ".", "+x", "1e3")[i % 4])
        else:
            tokens.append(f"{i % 9}.{i % 4}e{i % 3}")
    as_int = [fast_int(t, key=str.upper) for t in tokens]
    as_float = [fast_float(t, key=str.upper, nan=-1.0) for t in tokens]
    ints = sum(isinstance(v, int) for v in as_int)
    floats = sum(isinstance(v, float) for v in as_float)
    float_total = sum(v for v in as_float if isinstance(v, float) and abs(v) < 1e6)
    chunked = []
    for start in range(0, 40, 8):
        chunked.extend(try_int(iter(tokens[start : start + 8]), map=True))
        chunked.extend(try_float(iter(tokens[start : start + 4]), map=True, nan=0.0))
    supported = 0
    errors = []
    for i in range(24):
        version = f"{i % 7}.{i % 5}.{i % 3}"
        if i % 6 == 5:
            version = f"{i % 4}.{i % 3}"  # no patch number
        elif i % 8 == 3:
            version = f"v{i}.0"
        elif i % 5 == 2:
            version += ("a", "b")[i % 2] + str(i)
        try:
            supported += is_supported_fastnumbers(version, (2, 1, 0))
        except (ValueError, TypeError) as exc:
            errors.append(type(exc).__name__)
    assert ints == 19
    assert floats == 28
    assert round(float_total, 6) == 1717.9
    assert [v for v in as_int if isinstance(v, str)][:10] == [
        "+NA",
        "W5",
        "+X",
        "7.3E1",
        "-INF",
        "W13",
        "+X",
        "6.3E0",
        ".3",
        "INF",
    ]
    assert len(chunked) == 60
    assert sum(isinstance(v, str) for v in chunked) == 21
    assert supported == 10
    assert errors == [
        "ValueError",
        "TypeError",
        "TypeError",
        "TypeError",
        "ValueError",
        "TypeError",
    ]


def test_utils_pipeline_chain_groupletters_sep_inserter():
    pool = [str.upper, str.lower, str.swapcase, utils.groupletters, str.title]
    word = "Ab"
    words = []
    for i in range(24):
        chain = chain_functions(pool[j % 5] for j in range(i % 4, i % 4 + i % 3))
        word = chain(word + chr(97 + i % 26))[-8:]
        words.append(word)
    inserted = 0
    streams = 0
    for i in range(30):
        seq = [(j * i) % 7 if (i + j) % 3 else f"s{j}" for j in range(i % 6)]
        if i % 4 == 1:
            seq = [float(x) if isinstance(x, int) else x for x in seq]
        out = list(sep_inserter(iter(seq), "~"))
        inserted += len(out) - len(seq)
        streams += bool(out)
    splits = 0
    patterns = set()
    for i in range(16):
        alg = ns.FLOAT * (i % 2) | ns.SIGNED * (i // 2 % 2) | ns.NOEXP * (i // 4 % 2)
        text = f"a{i}-{i % 3}.5e{i % 4}b+{i}"
        splits += len([p for p in utils.regex_chooser(alg).split(text) if p])
        patterns.add(numeric_regex_chooser(alg)[:12])
    assert words[:8] == [
        "Aba",
        "abab",
        "bBaAbBcC",
        "BaAbBcCd",
        "AABBCCDE",
        "ABBCCDEF",
        "BBCCDEFg",
        "eEfFgghh",
    ]
    assert words[-1] == "uuvvwwxx"
    assert inserted == 35
    assert streams == 25
    assert splits == 128
    assert len(patterns) == 4
