import pytest
import networkx as nx


def test_graph_mutation_and_errors():
    G = nx.Graph()
    G.add_edges_from([(1, 2), (2, 3), (3, 4)], color="red")
    G.add_edge(4, 1, color="blue")
    assert G.number_of_edges() == 4
    assert G[4][1]["color"] == "blue"
    assert sorted(d for _, d in G.degree()) == [2, 2, 2, 2]
    G.remove_edge(1, 2)
    with pytest.raises(nx.NetworkXError):
        G.remove_edge(1, 2)
    with pytest.raises(nx.NetworkXError):
        G.remove_node(99)
    G.remove_nodes_from([3, 99])
    assert sorted(G.nodes()) == [1, 2, 4]
    assert sorted(tuple(sorted(e)) for e in G.edges()) == [(1, 4)]


def test_multigraph_keys_and_degree():
    M = nx.MultiGraph()
    keys = [M.add_edge("a", "b"), M.add_edge("a", "b"), M.add_edge("a", "b", key="x")]
    assert keys == [0, 1, "x"]
    M.add_edge("b", "c", weight=3)
    assert M.number_of_edges("a", "b") == 3
    assert M.degree("b") == 4
    assert M.degree("b", weight="weight") == 6
    M.remove_edge("a", "b", key=0)
    assert sorted(M["a"]["b"], key=str) == [1, "x"]
    with pytest.raises(nx.NetworkXError):
        M.remove_edge("a", "c")


def test_find_cycle_and_cycle_basis():
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3)])
    basis = sorted(sorted(c) for c in nx.cycle_basis(G, 0))
    assert basis == [[0, 1, 2], [3, 4, 5]]
    D = nx.DiGraph([(0, 1), (1, 2), (2, 3), (3, 1)])
    cyc = nx.find_cycle(D, 0)
    assert sorted(cyc) == [(1, 2), (2, 3), (3, 1)]
    with pytest.raises(nx.NetworkXNoCycle):
        nx.find_cycle(nx.path_graph(5))
    with pytest.raises(nx.NetworkXNoCycle):
        nx.find_cycle(nx.DiGraph([(0, 1), (0, 2), (1, 2)]))


def test_simple_cycles_counts():
    D = nx.DiGraph([(0, 0), (0, 1), (0, 2), (1, 2), (2, 0), (2, 1), (2, 2)])
    cycles = sorted(sorted(c) for c in nx.simple_cycles(D))
    assert cycles == [[0], [0, 1, 2], [0, 2], [1, 2], [2]]
    U = nx.complete_graph(4)
    assert len(list(nx.simple_cycles(U))) == 7
    assert len(list(nx.simple_cycles(U, length_bound=3))) == 4
    assert nx.girth(nx.petersen_graph()) == 5


def test_isomorphism_vf2():
    G1 = nx.cycle_graph(6)
    G2 = nx.relabel_nodes(nx.cycle_graph(6), {i: chr(97 + (i * 5) % 6) for i in range(6)})
    assert nx.is_isomorphic(G1, G2)
    assert not nx.is_isomorphic(G1, nx.path_graph(6))
    gm = nx.isomorphism.GraphMatcher(G1, G2)
    assert gm.is_isomorphic()
    assert len(list(gm.isomorphisms_iter())) == 12
    sub = nx.isomorphism.GraphMatcher(nx.complete_graph(4), nx.path_graph(3))
    assert sub.subgraph_is_monomorphic()
    assert not nx.isomorphism.GraphMatcher(nx.path_graph(4), nx.cycle_graph(3)).subgraph_is_isomorphic()


def test_relabel_and_convert_labels():
    G = nx.path_graph(4)
    H = nx.relabel_nodes(G, {0: "a", 1: "b"})
    assert sorted(map(str, H.nodes())) == ["2", "3", "a", "b"]
    nx.relabel_nodes(G, lambda n: n + 10, copy=False)
    assert sorted(G) == [10, 11, 12, 13]
    C = nx.convert_node_labels_to_integers(nx.Graph([("x", "y"), ("y", "z")]), first_label=5,
                                           ordering="sorted", label_attribute="old")
    assert sorted(C.nodes(data="old")) == [(5, "x"), (6, "y"), (7, "z")]
    with pytest.raises(nx.NetworkXError):
        nx.convert_node_labels_to_integers(nx.path_graph(2), ordering="bogus")


def test_operators_union_compose_complement():
    A = nx.path_graph(3)
    B = nx.Graph([(2, 3), (3, 4)])
    C = nx.compose(A, B)
    assert sorted(C.edges()) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    with pytest.raises(nx.NetworkXError):
        nx.union(A, B)
    U = nx.disjoint_union(A, B)
    assert len(U) == 6 and U.number_of_edges() == 4
    comp = nx.complement(nx.path_graph(4))
    assert sorted(tuple(sorted(e)) for e in comp.edges()) == [(0, 2), (0, 3), (1, 3)]
    I = nx.intersection(nx.cycle_graph(4), nx.path_graph(4))
    assert sorted(I.edges()) == [(0, 1), (1, 2), (2, 3)]


def test_trees_spanning_and_distance_measures():
    G = nx.Graph()
    G.add_weighted_edges_from([(0, 1, 7), (0, 3, 5), (1, 2, 8), (1, 3, 9), (1, 4, 7),
                               (2, 4, 5), (3, 4, 15), (3, 5, 6), (4, 5, 8), (4, 6, 9), (5, 6, 11)])
    for algo in ("kruskal", "prim", "boruvka"):
        T = nx.minimum_spanning_tree(G, algorithm=algo)
        assert T.size(weight="weight") == 39
        assert nx.is_tree(T)
    Tmax = nx.maximum_spanning_tree(G)
    assert Tmax.number_of_edges() == 6
    P = nx.path_graph(7)
    assert nx.diameter(P) == 6 and nx.radius(P) == 3
    assert nx.center(P) == [3]
    assert sorted(nx.periphery(P)) == [0, 6]
    assert nx.eccentricity(P, 1) == 5
    with pytest.raises(nx.NetworkXError):
        nx.diameter(nx.Graph([(1, 2), (3, 4)]))


def test_lowest_common_ancestor_and_tree_checks():
    T = nx.DiGraph([(0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (4, 6)])
    assert nx.lowest_common_ancestor(T, 3, 6) == 1
    assert nx.lowest_common_ancestor(T, 6, 5) == 0
    pairs = dict(nx.all_pairs_lowest_common_ancestor(T, pairs=[(3, 4), (5, 6), (2, 5)]))
    assert pairs == {(3, 4): 1, (5, 6): 0, (2, 5): 2}
    assert nx.is_arborescence(T)
    assert nx.is_forest(nx.Graph([(1, 2), (3, 4)]))
    assert not nx.is_tree(nx.cycle_graph(3))
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_tree(nx.Graph())
