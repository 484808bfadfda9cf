import pytest
import more_itertools as mi


def test_split_at_and_maxsplit():
    assert list(mi.split_at("a,b,,c", lambda ch: ch == ",")) == [["a"], ["b"], [], ["c"]]
    assert list(mi.split_at(range(10), lambda n: n % 3 == 0, maxsplit=2)) == [
        [], [1, 2], [4, 5, 6, 7, 8, 9]
    ]
    assert list(mi.split_at([1, 0, 2], lambda n: n == 0, keep_separator=True)) == [
        [1], [0], [2]
    ]


def test_split_before_and_after():
    assert list(mi.split_before("OneTwoThree", str.isupper)) == [
        ["O", "n", "e"], ["T", "w", "o"], ["T", "h", "r", "e", "e"]
    ]
    assert list(mi.split_after([1, 5, 2, 7, 3], lambda n: n > 4)) == [[1, 5], [2, 7], [3]]
    assert list(mi.split_after(range(8), lambda n: n % 2, maxsplit=2)) == [
        [0, 1], [2, 3], [4, 5, 6, 7]
    ]
    assert list(mi.split_before([], bool)) == []


def test_split_when_and_split_into():
    assert list(mi.split_when([1, 2, 3, 3, 2, 5, 2, 4, 2], lambda a, b: a > b)) == [
        [1, 2, 3, 3], [2, 5], [2, 4], [2]
    ]
    assert list(mi.split_into(range(10), [1, 2, 3])) == [[0], [1, 2], [3, 4, 5]]
    assert list(mi.split_into([1, 2, 3, 4, 5], [2, None])) == [[1, 2], [3, 4, 5]]
    assert list(mi.split_into([1, 2], [1, 3, 2])) == [[1], [2], []]


def test_consecutive_groups_and_run_length():
    groups = [list(g) for g in mi.consecutive_groups([1, 2, 3, 7, 8, 10, 11, 12, 13])]
    assert groups == [[1, 2, 3], [7, 8], [10, 11, 12, 13]]
    letters = [list(g) for g in mi.consecutive_groups("abdefh", ordering=ord)]
    assert letters == [["a", "b"], ["d", "e", "f"], ["h"]]
    encoded = list(mi.run_length.encode("aaabccdddd"))
    assert encoded == [("a", 3), ("b", 1), ("c", 2), ("d", 4)]
    assert "".join(mi.run_length.decode(encoded)) == "aaabccdddd"


def test_bucket_keys_and_missing():
    b = mi.bucket(["a1", "b1", "a2", "c1", "b2", "a3"], key=lambda s: s[0])
    assert list(b["a"]) == ["a1", "a2", "a3"]
    assert list(b["b"]) == ["b1", "b2"]
    assert "c" in b
    assert sorted(b) == ["a", "b", "c"]
    assert list(b["z"]) == []


def test_partition_and_classify():
    evens, odds = mi.partition(lambda n: n % 2, range(9))
    assert list(evens) == [0, 2, 4, 6, 8]
    assert list(odds) == [1, 3, 5, 7]
    falsy, truthy = mi.partition(None, [0, 1, "", "x", None, 3])
    assert list(falsy) == [0, "", None]
    assert list(truthy) == [1, "x", 3]


def test_map_reduce_and_groupby_transform():
    result = mi.map_reduce(
        "abbcccdddd", keyfunc=lambda c: c, valuefunc=lambda c: 1, reducefunc=sum
    )
    assert dict(result) == {"a": 1, "b": 2, "c": 3, "d": 4}
    by_len = mi.map_reduce(["ab", "c", "de", "fgh"], keyfunc=len)
    assert dict(by_len) == {2: ["ab", "de"], 1: ["c"], 3: ["fgh"]}
    grouped = [
        (k, list(g))
        for k, g in mi.groupby_transform("AaaBbC", keyfunc=str.upper, valuefunc=str.lower)
    ]
    assert grouped == [("A", ["a", "a", "a"]), ("B", ["b", "b"]), ("C", ["c"])]


def test_distribute_and_divide():
    assert [list(c) for c in mi.distribute(3, range(8))] == [[0, 3, 6], [1, 4, 7], [2, 5]]
    assert [list(c) for c in mi.divide(3, range(8))] == [[0, 1, 2], [3, 4, 5], [6, 7]]
    assert [list(c) for c in mi.divide(4, [1, 2])] == [[1], [2], [], []]
    with pytest.raises(ValueError):
        mi.distribute(0, [1, 2])
    with pytest.raises(ValueError):
        mi.divide(0, [1, 2])


def test_unique_everseen_and_justseen():
    assert list(mi.unique_everseen("AAAABBBCCDAABBB")) == ["A", "B", "C", "D"]
    assert list(mi.unique_everseen("ABBcCAD", key=str.lower)) == ["A", "B", "c", "D"]
    assert list(mi.unique_everseen([[1], [2], [1], [3, 4]], key=tuple)) == [[1], [2], [3, 4]]
    with pytest.raises(TypeError):
        list(mi.unique_everseen([[1], [2], [1]]))
    assert list(mi.unique_justseen("AAAABBBCCDAABBB")) == ["A", "B", "C", "D", "A", "B"]
    assert list(mi.duplicates_everseen("mississippi")) == ["s", "i", "s", "s", "i", "p", "i"]


def test_unique_to_each_and_join_mappings():
    assert mi.unique_to_each("mississippi", "missouri", "mist") == [
        ["p", "p"], ["o", "u", "r"], ["t"]
    ]
    joined = mi.join_mappings(score={"a": 1, "b": 2}, rank={"a": 3, "c": 4})
    assert joined == {"a": {"score": 1, "rank": 3}, "b": {"score": 2}, "c": {"rank": 4}}
