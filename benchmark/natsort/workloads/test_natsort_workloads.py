"""Workloads of natsort at three sizes (about 20x apart) and a fourth, 2-4x the largest, for the measured kinds
(W2 peak memory, W3 wall time): each test keeps what it built until it ends, so both its time and its peak grow
with the size."""

import natsort


def _names(n):
    return [f"file{(i * 7919) % n}.v{i % 13}.txt" for i in range(n)]


def _natsorted(n):
    out = natsort.natsorted(_names(n))
    assert len(out) == n and out[0].startswith("file0.")


def _index_natsorted(n):
    order = natsort.index_natsorted(_names(n), reverse=True)
    assert sorted(order) == list(range(n))


def test_natsorted_small():
    _natsorted(100)


def test_natsorted_medium():
    _natsorted(2_000)


def test_natsorted_large():
    _natsorted(40_000)


def test_index_natsorted_small():
    _index_natsorted(100)


def test_index_natsorted_medium():
    _index_natsorted(2_000)


def test_index_natsorted_large():
    _index_natsorted(40_000)


def test_natsorted_xlarge():
    _natsorted(160_000)


def test_index_natsorted_xlarge():
    _index_natsorted(160_000)
