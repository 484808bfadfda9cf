import pytest
import networkx as nx


def two_blocks():
    # two triangles joined by a bridge 2-3, plus a pendant 5-6 and isolated 9
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3), (5, 6)])
    G.add_node(9)
    return G


def test_connected_components_sorted():
    G = two_blocks()
    G.add_edges_from([(10, 11), (11, 12)])
    comps = sorted(sorted(c) for c in nx.connected_components(G))
    assert comps == [[0, 1, 2, 3, 4, 5, 6], [9], [10, 11, 12]]
    assert nx.number_connected_components(G) == 3
    assert sorted(nx.node_connected_component(G, 11)) == [10, 11, 12]
    assert not nx.is_connected(G)
    assert nx.is_connected(nx.path_graph(5))


def test_connected_errors_for_empty_and_directed():
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_connected(nx.Graph())
    with pytest.raises(nx.NetworkXNotImplemented):
        list(nx.connected_components(nx.DiGraph([(1, 2)])))
    with pytest.raises(nx.NetworkXNotImplemented):
        list(nx.strongly_connected_components(nx.Graph([(1, 2)])))


def test_strongly_connected_components_tarjan_and_kosaraju():
    D = nx.DiGraph([(1, 2), (2, 3), (3, 1), (3, 4), (4, 5), (5, 6), (6, 4), (6, 7), (8, 7)])
    scc = sorted(sorted(c) for c in nx.strongly_connected_components(D))
    assert scc == [[1, 2, 3], [4, 5, 6], [7], [8]]
    kos = sorted(sorted(c) for c in nx.kosaraju_strongly_connected_components(D))
    assert kos == scc
    assert nx.number_strongly_connected_components(D) == 4
    assert not nx.is_strongly_connected(D)
    assert nx.is_strongly_connected(nx.DiGraph([(0, 1), (1, 2), (2, 0)]))


def test_weakly_connected_and_attracting():
    D = nx.DiGraph([(1, 2), (3, 2), (4, 5), (5, 4), (6, 4), (7, 8)])
    wcc = sorted(sorted(c) for c in nx.weakly_connected_components(D))
    assert wcc == [[1, 2, 3], [4, 5, 6], [7, 8]]
    att = sorted(sorted(c) for c in nx.attracting_components(D))
    assert att == [[2], [4, 5], [8]]
    assert nx.number_attracting_components(D) == 3
    assert nx.is_weakly_connected(nx.DiGraph([(1, 2), (3, 2)]))


def test_condensation_mapping():
    D = nx.DiGraph([(1, 2), (2, 1), (2, 3), (3, 4), (4, 3), (4, 5)])
    C = nx.condensation(D)
    mapping = C.graph["mapping"]
    assert mapping[1] == mapping[2]
    assert mapping[3] == mapping[4]
    assert len(C) == 3
    order = [sorted(C.nodes[n]["members"]) for n in nx.topological_sort(C)]
    assert order == [[1, 2], [3, 4], [5]]


def test_articulation_points_and_bridges():
    G = two_blocks()
    assert sorted(nx.articulation_points(G)) == [2, 3, 5]
    assert sorted(tuple(sorted(e)) for e in nx.bridges(G)) == [(2, 3), (5, 6)]
    assert nx.has_bridges(G)
    assert not nx.has_bridges(nx.cycle_graph(5))
    local = sorted(tuple(sorted(e)) for e in nx.local_bridges(nx.cycle_graph(5), with_span=False))
    assert local == [(0, 1), (0, 4), (1, 2), (2, 3), (3, 4)]


def test_biconnected_components():
    G = two_blocks()
    G.remove_node(9)
    comps = sorted(sorted(c) for c in nx.biconnected_components(G))
    assert comps == [[0, 1, 2], [2, 3], [3, 4, 5], [5, 6]]
    edges = sorted(len(list(c)) for c in nx.biconnected_component_edges(G))
    assert edges == [1, 1, 3, 3]
    assert not nx.is_biconnected(G)
    assert nx.is_biconnected(nx.complete_graph(4))


def test_node_and_edge_connectivity_small():
    assert nx.node_connectivity(nx.complete_graph(5)) == 4
    assert nx.edge_connectivity(nx.cycle_graph(6)) == 2
    G = two_blocks()
    G.remove_node(9)
    assert nx.node_connectivity(G) == 1
    assert nx.edge_connectivity(G) == 1
    assert nx.node_connectivity(G, 0, 4) == 1
    cut = nx.minimum_node_cut(nx.path_graph(5), 0, 4)
    assert len(cut) == 1 and cut <= {1, 2, 3}


def test_isolates_and_k_core():
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (0, 3), (3, 4)])
    G.add_nodes_from([7, 8])
    assert sorted(nx.isolates(G)) == [7, 8]
    assert nx.number_of_isolates(G) == 2
    core = nx.core_number(G)
    assert [core[n] for n in range(5)] == [2, 2, 2, 2, 1]
    assert sorted(nx.k_core(G, 2)) == [0, 1, 2, 3]
    assert sorted(nx.k_shell(G, 1)) == [4]
