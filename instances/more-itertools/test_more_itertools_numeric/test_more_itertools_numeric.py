from fractions import Fraction

import pytest
import more_itertools as mi


def test_numeric_range_forward_backward():
    assert list(mi.numeric_range(1, 3, Fraction(1, 2))) == [
        1, Fraction(3, 2), 2, Fraction(5, 2)
    ]
    r = mi.numeric_range(10, 0, -3)
    assert list(r) == [10, 7, 4, 1]
    assert len(r) == 4
    assert r[1] == 7 and r[-1] == 1
    assert 4 in r and 5 not in r
    assert list(reversed(mi.numeric_range(0, 5, 2))) == [4, 2, 0]


def test_numeric_range_slicing_and_errors():
    r = mi.numeric_range(0.0, 2.0, 0.25)
    assert len(r) == 8
    assert list(r[2:6:2]) == [0.5, 1.0]
    assert r.index(1.5) == 6
    with pytest.raises(ValueError):
        r.index(0.3)
    with pytest.raises(IndexError):
        r[8]
    with pytest.raises(ValueError):
        mi.numeric_range(0, 1, 0)
    assert r.count(0.75) == 1 and r.count(0.8) == 0


def test_sieve_and_primes():
    assert list(mi.sieve(30)) == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    assert list(mi.sieve(2)) == []
    assert len(list(mi.sieve(100))) == 25
    assert [mi.nth_prime(i) for i in (0, 4, 9)] == [2, 11, 29]
    assert [n for n in range(20) if mi.is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19]


def test_factor_and_totient():
    assert list(mi.factor(360)) == [2, 2, 2, 3, 3, 5]
    assert list(mi.factor(97)) == [97]
    assert list(mi.factor(1)) == []
    assert list(mi.factor(2 * 2 * 7 * 13)) == [2, 2, 7, 13]
    assert [mi.totient(n) for n in (1, 9, 10, 12, 36)] == [1, 6, 4, 4, 12]


def test_polynomials():
    coeffs = mi.polynomial_from_roots([2, -1, 3])
    assert list(coeffs) == [1, -4, 1, 6]
    assert mi.polynomial_eval(coeffs, 2) == 0
    assert mi.polynomial_eval(coeffs, 0) == 6
    assert mi.polynomial_eval([1, 0, -1], 5) == 24
    assert list(mi.polynomial_derivative([1, -4, 1, 6])) == [3, -8, 1]
    assert list(mi.polynomial_derivative([7])) == []


def test_convolve_and_dotproduct():
    assert list(mi.convolve([1, 2, 3], [1, 1])) == [1, 3, 5, 3]
    assert list(mi.convolve([1, -1], [1, 1, 1])) == [1, 0, 0, -1]
    assert mi.dotproduct([1, 2, 3], [4, 5, 6]) == 32
    assert mi.sum_of_squares([1, 2, 3]) == 14
    assert list(mi.matmul([(7, 5), (3, 5)], [(2, 5), (7, 9)])) == [(49, 80), (41, 60)]


def test_running_statistics():
    assert list(mi.running_median([5, 1, 3, 8, 2])) == [5, 3.0, 3, 4.0, 3]
    assert list(mi.running_median([4, 2, 6, 1], maxlen=2)) == [4, 3.0, 4.0, 3.5]
    assert list(mi.running_max([3, 1, 4, 1, 5])) == [3, 3, 4, 4, 5]
    assert list(mi.running_min([3, 1, 4, 0, 5])) == [3, 1, 1, 0, 0]
    assert list(mi.running_mean([2, 4, 6])) == [2.0, 3.0, 4.0]


def test_minmax_argmax_argmin():
    assert mi.minmax([5, 3, 9, 1, 7]) == (1, 9)
    assert mi.minmax("hello", "hi", "hey", key=len) == ("hi", "hello")
    assert mi.minmax([], default=(0, 0)) == (0, 0)
    with pytest.raises(ValueError):
        mi.minmax([])
    assert mi.argmax([3, 9, 2, 9]) == 1
    assert mi.argmin("cbabc") == 2


def test_difference_and_ilen_quantify():
    assert list(mi.difference([1, 3, 6, 10, 15])) == [1, 2, 3, 4, 5]
    assert list(mi.difference([1, 2, 6, 24], func=lambda x, y: x // y)) == [1, 2, 3, 4]
    assert list(mi.difference([10, 20, 25], initial=10)) == [10, 5]
    assert mi.ilen(x for x in range(20) if x % 3 == 0) == 7
    assert mi.quantify(range(10), lambda x: x > 6) == 3


def test_iter_index_and_locate():
    assert list(mi.iter_index("abracadabra", "a")) == [0, 3, 5, 7, 10]
    assert list(mi.iter_index([0, 1, 0, 0, 1], 1)) == [1, 4]
    assert list(mi.iter_index(iter("abcab"), "b", 2)) == [4]
    assert list(mi.locate([0, 1, 1, 0, 1])) == [1, 2, 4]
    assert list(mi.locate("abcabc", lambda *w: w == ("b", "c"), window_size=2)) == [1, 4]
    assert list(mi.rlocate([0, 1, 1, 0, 1])) == [4, 2, 1]
