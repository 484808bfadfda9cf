"""Workloads of boltons at three sizes (about 30x apart) and a fourth, 2-4x the largest, for the measured kinds
(W2 peak memory, W3 wall time): each test keeps what it built until it ends, so both its time and its peak grow
with the size."""

from boltons.iterutils import chunked, remap


def _chunked(n):
    out = chunked(range(n), 5)
    assert len(out) == -(-n // 5)


def _remap(n):
    data = {f"k{i}": {"v": i, "tags": [i, str(i)]} for i in range(n)}
    out = remap(data, visit=lambda path, key, value: (key, value * 2) if isinstance(value, int) else True)
    assert out[f"k{n - 1}"]["v"] == 2 * (n - 1)


def test_chunked_small():
    _chunked(300)


def test_chunked_medium():
    _chunked(9_000)


def test_chunked_large():
    _chunked(270_000)


def test_remap_small():
    _remap(30)


def test_remap_medium():
    _remap(1_000)


def test_remap_large():
    _remap(30_000)


def test_chunked_xlarge():
    _chunked(1_080_000)


def test_remap_xlarge():
    _remap(120_000)
