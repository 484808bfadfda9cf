import pytest
import networkx as nx


def sample_tree():
    G = nx.Graph()
    G.add_edges_from([(0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6), (4, 7), (6, 8)])
    return G


def test_bfs_edges_and_layers():
    G = sample_tree()
    assert list(nx.bfs_edges(G, 0)) == [(0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6), (4, 7), (6, 8)]
    layers = [sorted(layer) for layer in nx.bfs_layers(G, [0])]
    assert layers == [[0], [1, 2], [3, 4, 5, 6], [7, 8]]
    assert list(nx.bfs_edges(G, 4, depth_limit=1)) == [(4, 1), (4, 7)]
    multi = [sorted(layer) for layer in nx.bfs_layers(G, [3, 8])]
    assert multi == [[3, 8], [1, 6], [0, 2, 4], [5, 7]]


def test_bfs_predecessors_successors_tree():
    G = sample_tree()
    pred = dict(nx.bfs_predecessors(G, 0))
    assert pred == {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2, 7: 4, 8: 6}
    succ = dict(nx.bfs_successors(G, 1))
    assert succ == {1: [0, 3, 4], 0: [2], 4: [7], 2: [5, 6], 6: [8]}
    T = nx.bfs_tree(G, 7)
    assert T.number_of_edges() == 8
    assert sorted(T.successors(1)) == [0, 3]


def test_dfs_orders():
    G = sample_tree()
    assert list(nx.dfs_preorder_nodes(G, 0)) == [0, 1, 3, 4, 7, 2, 5, 6, 8]
    assert list(nx.dfs_postorder_nodes(G, 0)) == [3, 7, 4, 1, 5, 8, 6, 2, 0]
    assert list(nx.dfs_preorder_nodes(G, 0, depth_limit=1)) == [0, 1, 2]
    assert list(nx.dfs_edges(G, 2)) == [(2, 0), (0, 1), (1, 3), (1, 4), (4, 7), (2, 5), (2, 6), (6, 8)]
    labeled = list(nx.dfs_labeled_edges(nx.path_graph(3), 0))
    assert labeled[0] == (0, 0, "forward")
    assert len(labeled) == 8
    assert [e for e in labeled if e[2] == "nontree"] == [(1, 0, "nontree"), (2, 1, "nontree")]
    assert [e for e in labeled if e[2] == "reverse"] == [(1, 2, "reverse"), (0, 1, "reverse"), (0, 0, "reverse")]


def test_edge_dfs_and_edge_bfs_on_digraph():
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (1, 3), (3, 4)])
    assert list(nx.edge_dfs(D, 0)) == [(0, 1), (1, 2), (2, 0), (1, 3), (3, 4)]
    assert list(nx.edge_bfs(D, 0)) == [(0, 1), (1, 2), (1, 3), (2, 0), (3, 4)]
    rev = list(nx.edge_dfs(D, 4, orientation="reverse"))
    assert rev == [(3, 4, "reverse"), (1, 3, "reverse"), (0, 1, "reverse"), (2, 0, "reverse"), (1, 2, "reverse")]


def test_topological_sort_and_cycle_error():
    D = nx.DiGraph([("shirt", "tie"), ("tie", "jacket"), ("pants", "shoes"),
                    ("pants", "belt"), ("belt", "jacket"), ("shirt", "belt"), ("socks", "shoes")])
    order = list(nx.topological_sort(D))
    pos = {n: i for i, n in enumerate(order)}
    assert all(pos[u] < pos[v] for u, v in D.edges())
    assert list(nx.lexicographical_topological_sort(D)) == [
        "pants", "shirt", "belt", "socks", "shoes", "tie", "jacket"
    ]
    D.add_edge("jacket", "shirt")
    with pytest.raises(nx.NetworkXUnfeasible):
        list(nx.topological_sort(D))
    assert not nx.is_directed_acyclic_graph(D)


def test_topological_generations_and_all_sorts():
    D = nx.DiGraph([(1, 3), (2, 3), (3, 4), (3, 5), (4, 6), (5, 6)])
    gens = [sorted(g) for g in nx.topological_generations(D)]
    assert gens == [[1, 2], [3], [4, 5], [6]]
    all_sorts = sorted(nx.all_topological_sorts(D))
    assert len(all_sorts) == 4
    assert all_sorts[0] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(nx.NetworkXError):
        list(nx.topological_sort(nx.Graph([(1, 2)])))


def test_ancestors_descendants_and_longest_path():
    D = nx.DiGraph()
    D.add_weighted_edges_from([(0, 1, 3), (0, 2, 1), (1, 3, 4), (2, 3, 8), (3, 4, 2), (2, 4, 1)])
    assert sorted(nx.descendants(D, 2)) == [3, 4]
    assert sorted(nx.ancestors(D, 3)) == [0, 1, 2]
    assert nx.dag_longest_path(D) == [0, 2, 3, 4]
    assert nx.dag_longest_path_length(D) == 11
    assert nx.dag_longest_path(D, weight=None) in ([0, 1, 3, 4], [0, 2, 3, 4])
    assert nx.dag_longest_path_length(D, weight=None) == 3


def test_transitive_closure_and_reduction():
    D = nx.DiGraph([(1, 2), (2, 3), (3, 4), (1, 3)])
    TC = nx.transitive_closure_dag(D)
    assert sorted(TC.edges()) == [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    TR = nx.transitive_reduction(D)
    assert sorted(TR.edges()) == [(1, 2), (2, 3), (3, 4)]
    C = nx.DiGraph([(1, 2), (2, 1)])
    with pytest.raises(nx.NetworkXError):
        nx.transitive_reduction(C)


def test_dfs_tree_and_predecessors():
    G = nx.cycle_graph(6)
    T = nx.dfs_tree(G, 0)
    assert sorted(T.edges()) == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    assert nx.dfs_predecessors(G, 3) == {2: 3, 1: 2, 0: 1, 5: 0, 4: 5}
    assert nx.dfs_successors(nx.path_graph(4), 0) == {0: [1], 1: [2], 2: [3]}
