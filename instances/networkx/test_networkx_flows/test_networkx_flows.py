import pytest
import networkx as nx
from networkx.algorithms import flow


def network():
    D = nx.DiGraph()
    D.add_edge("s", "a", capacity=10)
    D.add_edge("s", "b", capacity=5)
    D.add_edge("a", "b", capacity=15)
    D.add_edge("a", "c", capacity=9)
    D.add_edge("b", "d", capacity=10)
    D.add_edge("c", "t", capacity=10)
    D.add_edge("d", "c", capacity=6)
    D.add_edge("d", "t", capacity=10)
    return D


def test_maximum_flow_value_with_several_algorithms():
    D = network()
    for func in (flow.edmonds_karp, flow.shortest_augmenting_path,
                 flow.preflow_push, flow.dinitz, flow.boykov_kolmogorov):
        assert nx.maximum_flow_value(D, "s", "t", flow_func=func) == 15


def test_flow_dict_conservation():
    D = network()
    value, fd = nx.maximum_flow(D, "s", "t")
    assert value == 15
    for n in ["a", "b", "c", "d"]:
        inflow = sum(fd[u][n] for u in D.predecessors(n))
        outflow = sum(fd[n].values())
        assert inflow == outflow
    assert all(fd[u][v] <= D[u][v]["capacity"] for u, v in D.edges())
    assert sum(fd["s"].values()) == 15


def test_minimum_cut_partition():
    D = network()
    cut_value, (S, T) = nx.minimum_cut(D, "s", "t")
    assert cut_value == 15
    assert "s" in S and "t" in T
    crossing = sum(D[u][v]["capacity"] for u in S for v in D[u] if v in T)
    assert crossing == 15
    assert nx.minimum_cut_value(D, "s", "t", flow_func=flow.edmonds_karp) == 15


def test_residual_network_and_unbounded():
    D = nx.DiGraph()
    D.add_edge(0, 1)  # no capacity -> infinite
    D.add_edge(1, 2)
    with pytest.raises(nx.NetworkXUnbounded):
        nx.maximum_flow_value(D, 0, 2)
    D[1][2]["capacity"] = 4
    assert nx.maximum_flow_value(D, 0, 2) == 4
    R = flow.edmonds_karp(D, 0, 2)
    assert R.graph["flow_value"] == 4
    assert R[1][2]["flow"] == 4


def test_flow_errors_for_bad_terminals():
    D = network()
    with pytest.raises(nx.NetworkXError):
        nx.maximum_flow_value(D, "s", "zz")
    with pytest.raises(nx.NetworkXError):
        nx.maximum_flow_value(D, "s", "s")


def test_min_cost_flow_and_network_simplex():
    G = nx.DiGraph()
    G.add_node("a", demand=-5)
    G.add_node("d", demand=5)
    G.add_edge("a", "b", weight=3, capacity=4)
    G.add_edge("a", "c", weight=6, capacity=10)
    G.add_edge("b", "d", weight=1, capacity=9)
    G.add_edge("c", "d", weight=2, capacity=5)
    fd = nx.min_cost_flow(G)
    assert fd["a"] == {"b": 4, "c": 1}
    assert nx.cost_of_flow(G, fd) == 24
    cost, fd2 = nx.network_simplex(G)
    assert cost == 24 and fd2 == fd
    G.nodes["d"]["demand"] = 20
    G.nodes["a"]["demand"] = -20
    with pytest.raises(nx.NetworkXUnfeasible):
        nx.network_simplex(G)


def test_max_weight_matching():
    G = nx.Graph()
    G.add_weighted_edges_from([(1, 2, 6), (1, 3, 2), (2, 3, 1), (2, 4, 7), (3, 5, 9), (4, 5, 3)])
    M = nx.max_weight_matching(G)
    assert sorted(tuple(sorted(e)) for e in M) == [(2, 4), (3, 5)]
    assert sum(G[u][v]["weight"] for u, v in M) == 16
    card = nx.max_weight_matching(nx.path_graph(6), maxcardinality=True)
    assert len(card) == 3
    assert nx.is_perfect_matching(nx.path_graph(6), card)


def test_maximal_and_min_weight_matching():
    G = nx.cycle_graph(7)
    m = nx.maximal_matching(G)
    assert nx.is_maximal_matching(G, m)
    assert len(m) == 3
    W = nx.Graph()
    W.add_weighted_edges_from([(0, 1, 5), (1, 2, 1), (2, 3, 5), (3, 0, 1)])
    mw = nx.min_weight_matching(W)
    assert sorted(tuple(sorted(e)) for e in mw) == [(0, 3), (1, 2)]
    assert nx.is_matching(W, {(0, 1)})
    assert not nx.is_matching(W, {(0, 1), (1, 2)})


def test_bipartite_hopcroft_karp_and_eppstein():
    from networkx.algorithms import bipartite

    B = nx.Graph()
    left = ["L0", "L1", "L2", "L3"]
    B.add_nodes_from(left, bipartite=0)
    B.add_nodes_from(["R0", "R1", "R2", "R3"], bipartite=1)
    B.add_edges_from([("L0", "R0"), ("L0", "R1"), ("L1", "R0"), ("L2", "R1"),
                      ("L2", "R2"), ("L3", "R2"), ("L3", "R3")])
    hk = bipartite.hopcroft_karp_matching(B, top_nodes=left)
    assert len(hk) == 8
    assert all(hk[hk[n]] == n for n in hk)
    ep = bipartite.eppstein_matching(B, top_nodes=left)
    assert len(ep) == 8
    B.remove_node("R3")
    assert len(bipartite.maximum_matching(B, top_nodes=left)) == 6
    cover = bipartite.to_vertex_cover(B, bipartite.maximum_matching(B, top_nodes=left), top_nodes=left)
    assert len(cover) == 3
