import pytest
import networkx as nx


def weighted_graph():
    G = nx.Graph()
    G.add_weighted_edges_from(
        [
            ("a", "b", 4), ("a", "c", 1), ("c", "b", 2), ("b", "d", 5),
            ("c", "d", 8), ("c", "e", 11), ("d", "e", 2), ("d", "f", 6),
            ("e", "f", 3),
        ]
    )
    return G


def test_unweighted_shortest_path_bidirectional():
    G = nx.grid_2d_graph(4, 4)
    path = nx.shortest_path(G, (0, 0), (3, 3))
    assert len(path) == 7
    assert path[0] == (0, 0) and path[-1] == (3, 3)
    assert nx.shortest_path_length(G, (0, 0), (3, 3)) == 6
    P = nx.path_graph(9)
    assert nx.shortest_path(P, 2, 7) == [2, 3, 4, 5, 6, 7]
    assert nx.shortest_path(P, 4, 4) == [4]


def test_single_source_lengths_and_cutoff():
    G = nx.cycle_graph(10)
    lengths = nx.single_source_shortest_path_length(G, 0)
    assert [lengths[i] for i in range(10)] == [0, 1, 2, 3, 4, 5, 4, 3, 2, 1]
    cut = nx.single_source_shortest_path_length(G, 0, cutoff=2)
    assert sorted(cut) == [0, 1, 2, 8, 9]
    paths = nx.single_source_shortest_path(G, 3, cutoff=3)
    assert paths[6] == [3, 4, 5, 6]
    assert paths[0] == [3, 2, 1, 0]


def test_dijkstra_paths_and_lengths():
    G = weighted_graph()
    assert nx.dijkstra_path(G, "a", "f") == ["a", "c", "b", "d", "e", "f"]
    assert nx.dijkstra_path_length(G, "a", "f") == 13
    assert nx.dijkstra_path_length(G, "a", "e") == 10
    dist, paths = nx.single_source_dijkstra(G, "a")
    assert dist == {"a": 0, "c": 1, "b": 3, "d": 8, "e": 10, "f": 13}
    assert paths["d"] == ["a", "c", "b", "d"]
    length, path = nx.bidirectional_dijkstra(G, "f", "a")
    assert length == 13 and path[0] == "f" and path[-1] == "a"


def test_dijkstra_with_cutoff_and_weight_function():
    G = weighted_graph()
    dist = nx.single_source_dijkstra_path_length(G, "a", cutoff=8)
    assert dist == {"a": 0, "c": 1, "b": 3, "d": 8}
    hop = nx.dijkstra_path_length(G, "a", "f", weight=lambda u, v, d: 1)
    assert hop == 3
    blocked = nx.dijkstra_path(
        G, "a", "f", weight=lambda u, v, d: None if {u, v} == {"b", "d"} else d["weight"]
    )
    assert blocked == ["a", "c", "d", "e", "f"]


def test_bellman_ford_and_negative_weights():
    D = nx.DiGraph()
    D.add_weighted_edges_from(
        [(0, 1, 4), (0, 2, 5), (1, 2, -3), (2, 3, 4), (3, 1, 2), (1, 4, 7), (3, 4, 1)]
    )
    assert nx.bellman_ford_path(D, 0, 4) == [0, 1, 2, 3, 4]
    assert nx.bellman_ford_path_length(D, 0, 4) == 6
    pred, dist = nx.bellman_ford_predecessor_and_distance(D, 0)
    assert dist == {0: 0, 1: 4, 2: 1, 3: 5, 4: 6}
    assert pred[3] == [2]
    assert not nx.negative_edge_cycle(D)
    D.add_edge(3, 1, weight=-2)
    assert nx.negative_edge_cycle(D)
    with pytest.raises(nx.NetworkXUnbounded):
        nx.bellman_ford_path(D, 0, 4)


def test_goldberg_radzik_and_johnson():
    D = nx.DiGraph()
    D.add_weighted_edges_from([("s", "a", 2), ("a", "b", -1), ("s", "b", 4), ("b", "t", 3), ("a", "t", 5)])
    pred, dist = nx.goldberg_radzik(D, "s")
    assert dist == {"s": 0, "a": 2, "b": 1, "t": 4}
    assert pred["t"] == "b"
    paths = nx.johnson(D)
    assert paths["s"]["t"] == ["s", "a", "b", "t"]
    assert paths["a"]["t"] == ["a", "b", "t"]


def test_astar_with_heuristic():
    G = nx.grid_2d_graph(5, 5)
    for u, v in G.edges():
        G.edges[u, v]["w"] = 1
    G.remove_nodes_from([(1, 1), (1, 2), (1, 3), (2, 3), (3, 3)])

    def manhattan(a, b):
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    path = nx.astar_path(G, (0, 0), (4, 4), heuristic=manhattan, weight="w")
    assert len(path) == 9
    assert nx.astar_path_length(G, (0, 0), (2, 2), heuristic=manhattan, weight="w") == 4
    with pytest.raises(nx.NodeNotFound):
        nx.astar_path(G, (1, 1), (4, 4))


def test_all_shortest_paths_sorted():
    G = nx.Graph([(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (1, 5), (5, 4)])
    paths = sorted(nx.all_shortest_paths(G, 0, 4))
    assert paths == [[0, 1, 3, 4], [0, 1, 5, 4], [0, 2, 3, 4]]
    D = nx.DiGraph([(0, 1), (1, 2), (0, 2)])
    assert list(nx.all_shortest_paths(D, 0, 2)) == [[0, 2]]
    with pytest.raises(nx.NetworkXNoPath):
        list(nx.all_shortest_paths(D, 2, 0))


def test_no_path_and_missing_node_errors():
    G = nx.Graph([(1, 2), (3, 4)])
    with pytest.raises(nx.NetworkXNoPath):
        nx.shortest_path(G, 1, 4)
    with pytest.raises(nx.NetworkXNoPath):
        nx.dijkstra_path(G, 1, 3)
    with pytest.raises(nx.NodeNotFound):
        nx.shortest_path(G, 1, 99)
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_dijkstra(G, 42)
    assert nx.has_path(G, 3, 4) and not nx.has_path(G, 2, 3)


def test_floyd_warshall_and_all_pairs():
    G = nx.Graph()
    G.add_weighted_edges_from([(0, 1, 3), (1, 2, 1), (0, 2, 7), (2, 3, 2)])
    fw = nx.floyd_warshall(G)
    assert fw[0][3] == 6 and fw[3][0] == 6 and fw[1][1] == 0
    pred, dist = nx.floyd_warshall_predecessor_and_distance(G)
    assert nx.reconstruct_path(0, 3, pred) == [0, 1, 2, 3]
    lengths = dict(nx.all_pairs_shortest_path_length(nx.path_graph(5)))
    assert lengths[0][4] == 4 and lengths[2][4] == 2
    dl = dict(nx.all_pairs_dijkstra_path_length(G))
    assert dl[3][0] == 6
