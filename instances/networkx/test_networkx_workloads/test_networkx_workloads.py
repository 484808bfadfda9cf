"""Workloads of networkx at three sizes (8x apart in nodes) and a fourth, 2-4x the largest, for the measured
kinds (W2 peak memory, W3 wall time): each test keeps what it built until it ends, so both its time and its peak
grow with the size."""

import networkx as nx


def _paths(side):
    grid = nx.grid_2d_graph(side, side)
    lengths = dict(nx.single_source_shortest_path_length(grid, (0, 0)))
    assert len(lengths) == side * side and lengths[(side - 1, side - 1)] == 2 * (side - 1)


def _components(n):
    graph = nx.path_graph(n)
    graph.add_edges_from((i, i + 1) for i in range(n + 5, 2 * n))
    parts = sorted(len(c) for c in nx.connected_components(graph))
    assert parts == [n - 4, n]


def _topo(n):
    heap = nx.DiGraph((i, j) for i in range(n) for j in (2 * i + 1, 2 * i + 2) if j < n)
    order = list(nx.topological_sort(heap))
    assert order[0] == 0 and len(order) == n


def test_paths_small():
    _paths(30)


def test_paths_medium():
    _paths(85)


def test_paths_large():
    _paths(240)


def test_components_small():
    _components(2_000)


def test_components_medium():
    _components(16_000)


def test_components_large():
    _components(128_000)


def test_topo_small():
    _topo(1_500)


def test_topo_medium():
    _topo(12_000)


def test_topo_large():
    _topo(96_000)


def test_paths_xlarge():
    _paths(400)


def test_components_xlarge():
    _components(256_000)


def test_topo_xlarge():
    _topo(288_000)
