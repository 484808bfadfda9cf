import math
from itertools import combinations, permutations, product

import pytest
import more_itertools as mi


def test_distinct_permutations_counts():
    perms = list(mi.distinct_permutations([1, 1, 2]))
    assert sorted(perms) == [(1, 1, 2), (1, 2, 1), (2, 1, 1)]
    assert len(list(mi.distinct_permutations("aabb"))) == 6
    assert len(list(mi.distinct_permutations("aabbc", r=2))) == 8
    assert list(mi.distinct_permutations("abc", r=0)) == [()]


def test_distinct_combinations():
    assert list(mi.distinct_combinations([0, 0, 1], 2)) == [(0, 0), (0, 1)]
    assert len(list(mi.distinct_combinations("aabbc", 3))) == 5
    assert list(mi.distinct_combinations("ab", 3)) == []


def test_powerset_and_powerset_of_sets():
    assert list(mi.powerset([1, 2, 3])) == [
        (), (1,), (2,), (3,), (1, 2), (1, 3), (2, 3), (1, 2, 3)
    ]
    sets = list(mi.powerset_of_sets([1, 2, 1]))
    assert sets == [set(), {1}, {2}, {1, 2}]


def test_set_partitions_sizes():
    parts = list(mi.set_partitions("abc"))
    assert len(parts) == 5
    assert list(mi.set_partitions("abc", 2)) == [
        [["a"], ["b", "c"]], [["a", "b"], ["c"]], [["b"], ["a", "c"]]
    ]
    assert len(list(mi.set_partitions(range(5)))) == 52
    assert list(mi.set_partitions("ab", 3)) == []
    with pytest.raises(ValueError):
        list(mi.set_partitions("abc", 0))


def test_partitions_compositions():
    got = [[list(p) for p in part] for part in mi.partitions("abc")]
    assert got == [
        [["a", "b", "c"]], [["a"], ["b", "c"]], [["a", "b"], ["c"]], [["a"], ["b"], ["c"]]
    ]
    assert len(list(mi.partitions(range(5)))) == 16


def test_nth_combination_matches_itertools():
    pool = "abcdef"
    allc = list(combinations(pool, 3))
    for idx in (0, 7, 19):
        assert mi.nth_combination(pool, 3, idx) == allc[idx]
        assert mi.combination_index(allc[idx], pool) == idx
    assert mi.nth_combination(pool, 3, -1) == allc[-1]
    with pytest.raises(IndexError):
        mi.nth_combination(pool, 3, 20)
    with pytest.raises(IndexError):
        mi.nth_combination(pool, 7, 0)
    with pytest.raises(ValueError):
        mi.nth_combination(pool, -1, 0)
    with pytest.raises(ValueError):
        mi.combination_index("xz", pool)


def test_nth_permutation_and_index():
    pool = range(5)
    allp = list(permutations(pool, 3))
    for idx in (0, 11, 59):
        assert mi.nth_permutation(pool, 3, idx) == allp[idx]
        assert mi.permutation_index(allp[idx], pool) == idx
    full = list(permutations("abcd"))
    assert mi.nth_permutation("abcd", 4, 17) == full[17]
    with pytest.raises(IndexError):
        mi.nth_permutation(pool, 3, 60)


def test_nth_product_and_product_index():
    args = ("ab", range(3), "xyz")
    allp = list(product(*args))
    for idx in (0, 5, 13, 17):
        assert mi.nth_product(idx, *args) == allp[idx]
        assert mi.product_index(allp[idx], *args) == idx
    with pytest.raises(IndexError):
        mi.nth_product(18, *args)
    with pytest.raises(ValueError):
        mi.product_index(("c", 0, "x"), *args)


def test_circular_shifts_and_derangements():
    assert list(mi.circular_shifts(range(4))) == [
        (0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)
    ]
    assert list(mi.circular_shifts("abc", steps=-1)) == [
        ("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")
    ]
    ders = list(mi.derangements(range(4)))
    assert len(ders) == 9
    assert all(all(p[i] != i for i in range(4)) for p in ders)


def test_gray_product_and_partial_product():
    gp = list(mi.gray_product("AB", "CD"))
    assert gp == [("A", "C"), ("B", "C"), ("B", "D"), ("A", "D")]
    assert len(list(mi.gray_product("AB", "CDE", "FG"))) == 12
    with pytest.raises(ValueError):
        list(mi.gray_product("AB", "C"))
    assert list(mi.partial_product("AB", "C", "DEF")) == [
        ("A", "C", "D"), ("B", "C", "D"), ("B", "C", "E"), ("B", "C", "F")
    ]


def test_combination_with_replacement_index():
    pool = "abc"
    from itertools import combinations_with_replacement as cwr
    allc = list(cwr(pool, 3))
    assert len(allc) == math.comb(5, 3)
    for idx in (0, 4, 9):
        assert mi.nth_combination_with_replacement(pool, 3, idx) == allc[idx]
        assert mi.combination_with_replacement_index(allc[idx], pool) == idx
