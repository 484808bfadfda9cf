"""Long executions of networkx, with state carried across calls.

The other networkx test files call each algorithm once or twice on a small
literal graph, so the questions generated from them are quick to answer.
Here every test drives one area of the package (shortest paths, traversal,
components, DAGs, flows, spanning trees, colouring, relabelling, cores,
matching, simple paths) through dozens of calls on one
graph that changes between the calls: edges arrive one at a time, weights
and capacities are rewritten, back edges create cycles that are then broken,
nodes are renamed in place again and again.  The graphs are built by explicit
loops from the loop index (arithmetic progressions and small-modulus patterns
such as ``(i * 7 + 3) % 11``), are small (14 to 32 nodes), and use integer
node labels; the algorithms driven walk dict-ordered adjacency, not sets
(clique finding and the bipartite matchers, which pick from sets, are left
out: a reader cannot follow a set's order).  Errors raised inside the package
(no path, unknown node, a cycle in a topological sort, a graph that is not
bipartite, a bad strategy name)
are part of the plan and are caught by the tests.  Results that networkx
returns as sets are sorted before they are compared, and the asserts check
aggregates computed over the whole run.

Deterministic: no random numbers, no seeds, no clocks, no files.
"""

import networkx as nx
import pytest
from networkx.algorithms import bipartite
from networkx.algorithms.flow import edmonds_karp, shortest_augmenting_path


def ring_with_chords(n, steps):
    # Node i is joined to i + s (mod n) for every s in `steps`; the weight
    # depends on both ends so that there are ties but not too many.
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for i in range(n):
        for s in steps:
            j = (i + s) % n
            G.add_edge(i, j, weight=1 + (i * 7 + j * 3) % 11)
    return G


def grid(rows, cols):
    # Node r * cols + c, joined to its right and lower neighbours.
    G = nx.Graph()
    for r in range(rows):
        for c in range(cols):
            n = r * cols + c
            G.add_node(n)
            if c + 1 < cols:
                G.add_edge(n, n + 1)
            if r + 1 < rows:
                G.add_edge(n, n + cols)
    return G


def layered_network(widths, cap_seed):
    # Source 0, then layers of the given widths, then the sink.  Each node is
    # joined to two nodes of the next layer; capacities follow the index.
    D = nx.DiGraph()
    layers = [[0]]
    nxt = 1
    for w in widths:
        layers.append(list(range(nxt, nxt + w)))
        nxt += w
    layers.append([nxt])
    k = 0
    for li in range(len(layers) - 1):
        a, b = layers[li], layers[li + 1]
        for idx, u in enumerate(a):
            for off in (0, 1):
                v = b[(idx + off * (1 + idx % 2)) % len(b)]
                if not D.has_edge(u, v):
                    D.add_edge(u, v, capacity=1 + (k * cap_seed + 3) % 9)
                    k += 1
    return D, nxt


def is_proper_colouring(G, colours):
    for u, v in G.edges():
        if colours[u] == colours[v]:
            return False
    return len(colours) == len(G)


def test_weighted_paths_on_a_growing_graph():
    # 20 nodes with no edges; 40 rounds each add one edge and ask for a path.
    G = nx.Graph()
    G.add_nodes_from(range(20))
    no_path = not_found = 0
    weighted_total = hops_total = 0
    lengths = []
    for i in range(40):
        u = (i * 7 + 3) % 20
        v = (i * 5 + 11) % 20
        if u == v:
            v = (v + 1) % 20
        G.add_edge(u, v, weight=1 + (i * 3) % 7)
        s, t = i % 20, (i * 11 + 5) % 20
        try:
            path = nx.shortest_path(G, s, t, weight="weight")
        except nx.NetworkXNoPath:
            no_path += 1
            assert not nx.has_path(G, s, t)
        else:
            w = nx.path_weight(G, path, "weight")
            assert w == nx.shortest_path_length(G, s, t, weight="weight")
            weighted_total += w
            hops = nx.shortest_path_length(G, s, t)
            assert hops <= len(path) - 1
            hops_total += hops
        if i % 4 == 3:
            dist = nx.single_source_dijkstra_path_length(G, s, weight="weight")
            lengths.append(sum(dist.values()))
        if i % 6 == 5:
            try:
                nx.shortest_path(G, s, 100 + i)
            except nx.NodeNotFound:
                not_found += 1
    assert no_path == 15
    assert not_found == 6
    assert weighted_total == 396
    assert hops_total == 110
    assert lengths == [1, 0, 89, 0, 278, 298, 256, 238, 382, 312]
    # Bellman-Ford must agree with Dijkstra on the final graph.
    bf = nx.single_source_bellman_ford_path_length(G, 0, weight="weight")
    dj = nx.single_source_dijkstra_path_length(G, 0, weight="weight")
    assert bf == dj
    assert sorted(dj.items())[-4:] == [(16, 9), (17, 25), (18, 15), (19, 12)]


def test_traversal_orders_while_a_grid_is_cut():
    # A 5x6 grid loses one edge per round; each round runs BFS and DFS from
    # a different node, so the search trees shrink and change shape.
    G = grid(5, 6)
    bfs_sizes = []
    layer_counts = []
    pre_heads = []
    post_tails = []
    limited = 0
    for i in range(20):
        edges = list(G.edges())
        u, v = edges[(i * 7 + 3) % len(edges)]
        G.remove_edge(u, v)
        src = (i * 5 + 2) % 30
        tree_edges = list(nx.bfs_edges(G, src))
        bfs_sizes.append(len(tree_edges))
        layers = list(nx.bfs_layers(G, [src]))
        assert sum(len(layer) for layer in layers) == len(tree_edges) + 1
        layer_counts.append(len(layers))
        pre = list(nx.dfs_preorder_nodes(G, src))
        assert len(pre) == len(tree_edges) + 1
        pre_heads.append(pre[1] if len(pre) > 1 else -1)
        if i % 2 == 0:
            post = list(nx.dfs_postorder_nodes(G, src))
            assert sorted(pre) == sorted(post) and post[-1] == src
            post_tails.append(post[0])
        elif i % 4 == 1:
            limited += len(list(nx.dfs_preorder_nodes(G, src, depth_limit=2)))
    assert G.number_of_edges() == 29
    assert sum(bfs_sizes) == 552
    assert bfs_sizes[-6:] == [27, 27, 25, 25, 25, 25]
    assert sum(layer_counts) == 173
    assert max(layer_counts) == 11
    assert pre_heads[:10] == [1, 6, 6, 11, 16, 21, 3, 6, 6, 11]
    assert post_tails == [17, 29, 24, 1, 1, 1, 1, 1, 2, 3]
    assert limited == 43


def test_components_merge_as_edges_arrive():
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_connected(nx.Graph())
    G = nx.Graph()
    G.add_nodes_from(range(32))
    # A plain union-find kept beside the graph as the reference.
    parent = list(range(32))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    counts = []
    largest = []
    reach = 0
    merges = 0
    for i in range(36):
        u = (i * 7 + 3) % 32
        v = (i * 11 + 5 + i // 8) % 32
        if u == v:
            v = (v + 1) % 32
        G.add_edge(u, v)
        ru, rv = find(u), find(v)
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
            merges += 1
        n = nx.number_connected_components(G)
        assert n == len({find(x) for x in range(32)})
        counts.append(n)
        if i % 2 == 0:
            comp = nx.node_connected_component(G, (i * 3) % 32)
            reach += len(comp)
        if i % 3 == 2:
            sizes = sorted(len(c) for c in nx.connected_components(G))
            largest.append(sizes[-1])
            assert nx.is_connected(G) == (n == 1)
    assert merges == 31
    assert counts[::4] == [31, 27, 23, 19, 15, 11, 7, 3, 2]
    assert largest == [2, 3, 4, 6, 8, 9, 9, 9, 16, 21, 21, 32]
    assert reach == 119
    cut_nodes = sorted(nx.articulation_points(G))
    assert len(cut_nodes) == 14
    assert cut_nodes[:6] == [2, 3, 5, 6, 7, 9]
    assert sorted(min(c) for c in nx.connected_components(G)) == [0]


def test_dag_grows_then_back_edges_make_cycles():
    D = nx.DiGraph()
    D.add_nodes_from(range(30))
    # Phase 1: forward edges only, so every topological sort succeeds.
    desc_total = anc_total = 0
    picks = []
    for i in range(40):
        u = (i * 7 + 3) % 30
        v = u + 1 + (i * 5) % 6
        if v < 30:
            D.add_edge(u, v)
        if i % 4 == 3:
            order = list(nx.topological_sort(D))
            pos = {n: k for k, n in enumerate(order)}
            assert all(pos[a] < pos[b] for a, b in D.edges())
            picks.append(order[(i * 3) % 30])
            desc_total += len(nx.descendants(D, i % 30))
            anc_total += len(nx.ancestors(D, 29 - i % 30))
            assert nx.is_directed_acyclic_graph(D)
    assert D.number_of_edges() == 28
    assert picks == [10, 25, 3, 18, 16, 11, 25, 3, 18, 16]
    assert desc_total == 17
    assert anc_total == 36
    with pytest.raises(nx.NetworkXNoCycle):
        nx.find_cycle(D)
    # Phase 2: each round adds one back edge.  When that closes a cycle,
    # find_cycle reports one and its last edge is deleted, except every third
    # round, when the cycle is left in place for the rounds that follow.
    unfeasible = acyclic = 0
    cycle_lengths = []
    for i in range(24):
        a = (i * 7 + 5) % 30
        b = (a + 2 + i % 5) % 30
        D.add_edge(max(a, b), min(a, b))
        try:
            list(nx.topological_sort(D))
        except nx.NetworkXUnfeasible:
            unfeasible += 1
            assert not nx.is_directed_acyclic_graph(D)
            cycle = nx.find_cycle(D)
            cycle_lengths.append(len(cycle))
            if i % 3 != 2:
                D.remove_edge(*cycle[-1][:2])
        else:
            acyclic += 1
    assert unfeasible == 10
    assert acyclic == 14
    assert cycle_lengths == [2, 2, 3, 5, 5, 4, 6, 6, 7, 2]
    assert D.number_of_edges() == 45
    assert not nx.is_directed_acyclic_graph(D)


def test_dag_longest_paths_while_weights_change():
    # Edges i -> i+1, i+3, i+4 among 1..20, skipping those with i * j
    # divisible by 5 (so node 0 never appears).
    D = nx.DiGraph()
    for i in range(20):
        for step in (1, 3, 4):
            j = i + step
            if j < 20 and (i * j) % 5 != 0:
                D.add_edge(i, j, weight=1 + (i * 3 + j) % 7)
    edges = list(D.edges())
    lengths = []
    ends = []
    unweighted = []
    for r in range(20):
        u, v = edges[(r * 7 + 3) % len(edges)]
        D[u][v]["weight"] = 1 + (r * 5) % 9
        path = nx.dag_longest_path(D)
        length = nx.path_weight(D, path, "weight")
        if r % 2 == 1:
            assert nx.dag_longest_path_length(D) == length
        lengths.append(length)
        ends.append((path[0], path[-1]))
        if r % 5 == 0:
            # Unweighted: count of edges on the longest chain.
            unweighted.append(nx.dag_longest_path_length(D, weight=None))
    assert lengths[::4] == [57, 54, 55, 60, 64]
    assert sum(lengths) == 1163
    assert sorted(set(ends)) == [(1, 19)]
    assert unweighted == [12, 12, 12, 12]
    generations = [sorted(g) for g in nx.topological_generations(D)]
    assert len(generations) == 13
    assert generations[:3] == [[1], [2], [3]]
    lex = list(nx.lexicographical_topological_sort(D, key=lambda n: -n))
    assert lex[:8] == [1, 2, 3, 6, 4, 7, 8, 11]
    small = D.subgraph(range(12)).copy()
    closure = nx.transitive_closure_dag(small)
    reduction = nx.transitive_reduction(closure)
    assert closure.number_of_edges() == 34
    assert reduction.number_of_edges() == 9
    assert sorted(reduction.edges()) == sorted(nx.transitive_reduction(small).edges())


def test_max_flow_as_capacities_change():
    # 15 nodes: source 0, layers 1-4, 5-9 and 10-13, sink 14.  One capacity
    # is rewritten per round; Edmonds-Karp and shortest augmenting path take
    # turns, and every third round also asks for the minimum cut.
    D, sink = layered_network([4, 5, 4], 5)
    edges = list(D.edges())
    values = []
    cut_sizes = 0
    for r in range(24):
        u, v = edges[(r * 7 + 3) % len(edges)]
        D[u][v]["capacity"] = 1 + (r * 5) % 9
        func = edmonds_karp if r % 2 == 0 else shortest_augmenting_path
        value, flows = nx.maximum_flow(D, 0, sink, flow_func=func)
        values.append(value)
        for n in D:
            if n not in (0, sink):
                inflow = sum(flows[p][n] for p in D.predecessors(n))
                assert inflow == sum(flows[n].values())
        assert all(flows[a][b] <= D[a][b]["capacity"] for a, b in D.edges())
        if r % 3 == 1:
            cut, (S, T) = nx.minimum_cut(D, 0, sink, flow_func=edmonds_karp)
            assert cut == value and 0 in S and sink in T
            cut_sizes += len(S)
    assert values[::3] == [7, 8, 8, 4, 4, 4, 11, 11]
    assert sum(values) == 185
    assert cut_sizes == 62
    # A sink equal to the source, then a sink that is not in the graph.
    errors = 0
    for bad in (0, 99):
        try:
            nx.maximum_flow_value(D, 0, bad, flow_func=edmonds_karp)
        except nx.NetworkXError:
            errors += 1
    assert errors == 2


def test_spanning_trees_as_weights_shift():
    # 16 nodes, 48 edges; one weight is rewritten per round, and Kruskal and
    # Prim take turns building the minimum tree.
    G = ring_with_chords(16, (1, 3, 7))
    edges = list(G.edges())
    lows = []
    highs = []
    for r in range(20):
        u, v = edges[(r * 11 + 2) % len(edges)]
        G[u][v]["weight"] = 1 + (r * 4) % 13
        algo = "kruskal" if r % 2 == 0 else "prim"
        T = nx.minimum_spanning_tree(G, algorithm=algo)
        assert nx.is_tree(T) and T.number_of_nodes() == 16
        lows.append(T.size(weight="weight"))
        if r % 3 == 0:
            M = nx.maximum_spanning_tree(G, algorithm="prim")
            highs.append(M.size(weight="weight"))
            assert highs[-1] >= lows[-1]
    assert lows[::4] == [35.0, 37.0, 37.0, 39.0, 36.0]
    assert sum(lows) == 730.0
    assert highs == [137.0, 140.0, 141.0, 145.0, 147.0, 144.0, 147.0]
    # Cutting every edge that leaves nodes 0..7 forward leaves a forest.
    forest = G.copy()
    forest.remove_edges_from([(i, (i + s) % 16) for i in range(8) for s in (1, 3, 7)])
    F = nx.minimum_spanning_tree(forest)
    assert nx.number_connected_components(F) == 2
    assert F.number_of_edges() == 14
    with pytest.raises(ValueError):
        nx.minimum_spanning_tree(G, algorithm="dijkstra")


def test_greedy_colouring_of_a_growing_graph():
    G = nx.Graph()
    G.add_nodes_from(range(24))
    used = []
    for i in range(40):
        # Two edges per round: one long chord, one short hop along the ring.
        u = (i * 7 + 3) % 24
        for v in ((i * 11 + 5 + i // 8) % 24, (u + 3 + i % 3) % 24):
            if u != v:
                G.add_edge(u, v)
        if i % 4 == 3:
            # The two strategies take turns.
            strategy = "largest_first" if i % 8 == 3 else "DSATUR"
            colours = nx.greedy_color(G, strategy=strategy)
            assert is_proper_colouring(G, colours)
            used.append(max(colours.values()) + 1)
    assert G.number_of_edges() == 59
    assert used == [3, 2, 3, 3, 3, 3, 4, 3, 5, 4]
    swapped = nx.greedy_color(G, strategy="largest_first", interchange=True)
    assert is_proper_colouring(G, swapped)
    assert max(swapped.values()) + 1 == 4
    by_colour = [0, 0, 0, 0, 0]
    for n in range(24):
        by_colour[swapped[n]] += 1
    assert by_colour == [7, 6, 8, 3, 0]
    with pytest.raises(nx.NetworkXError):
        nx.greedy_color(G, strategy="rainbow")
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.greedy_color(G, strategy="DSATUR", interchange=True)


def test_relabel_in_place_then_convert():
    G = nx.Graph()
    for i in range(16):
        G.add_edge(i, i + 1)
        if i % 3 == 0:
            G.add_edge(i, (i * 5 + 7) % 17)
    shifted = 0
    unfeasible = 0
    for r in range(16):
        # Shift every label up by one: old and new labels overlap, so the
        # relabelling has to be ordered by a topological sort of the mapping.
        mapping = {n: n + 1 for n in G}
        nx.relabel_nodes(G, mapping, copy=False)
        shifted += min(G) + max(G)
        if r % 4 == 3:
            lo = min(G)
            cyc = {lo: lo + 1, lo + 1: lo + 2, lo + 2: lo}
            try:
                nx.relabel_nodes(G, cyc, copy=False)
            except nx.NetworkXUnfeasible:
                unfeasible += 1
            H = nx.relabel_nodes(G, cyc, copy=True)
            assert sorted(H.degree(n) for n in H) == sorted(G.degree(n) for n in G)
    assert shifted == 528
    assert unfeasible == 4
    assert sorted(G)[:3] == [16, 17, 18]
    named = nx.relabel_nodes(G, {n: f"v{n:02d}" for n in G})
    back = nx.convert_node_labels_to_integers(named, label_attribute="old")
    assert back.nodes[0]["old"] == "v32"
    assert back.nodes[16]["old"] == "v16"
    assert nx.is_isomorphic(back, G)
    D = nx.DiGraph((min(a, b), max(a, b)) for a, b in G.edges())
    L = nx.line_graph(D)
    assert L.number_of_nodes() == 21
    assert L.number_of_edges() == 23
    C = nx.complement(G)
    assert C.number_of_edges() == 17 * 16 // 2 - G.number_of_edges()
    assert C.number_of_edges() == 115
    assert sorted(d for _, d in C.degree())[:5] == [12, 13, 13, 13, 13]


def test_core_numbers_as_edges_arrive():
    G = nx.Graph()
    G.add_nodes_from(range(24))
    max_cores = []
    core_sums = []
    for i in range(60):
        u = (i * 7 + 3) % 24
        v = (i * 5 + 1 + i // 24) % 24
        if u != v:
            G.add_edge(u, v)
        if i % 5 == 4:
            core = nx.core_number(G)
            max_cores.append(max(core.values()))
            core_sums.append(sum(core.values()))
            k = max(core.values())
            assert len(nx.k_core(G, k)) == sum(1 for c in core.values() if c == k)
    assert G.number_of_edges() == 43
    assert max_cores == [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3]
    assert core_sums == [10, 16, 20, 22, 22, 25, 26, 43, 47, 48, 71, 71]
    assert sorted(nx.k_core(G).nodes())[:6] == [0, 1, 2, 3, 4, 5]
    G.add_edge(5, 5)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.core_number(G)
    G.remove_edge(5, 5)
    assert sorted(nx.k_shell(G, 2).nodes()) == [20]


def test_matchings_as_edges_arrive():
    # A matching built over the graph's edges (dict order), and a two-colouring
    # by a walk over the adjacency; not the bipartite helpers that iterate sets.
    left = list(range(12))
    right = list(range(100, 112))
    G = nx.Graph()
    G.add_nodes_from(left, bipartite=0)
    G.add_nodes_from(right, bipartite=1)
    maximal = []
    for i in range(36):
        if i < 28:
            # Crowded: some right nodes are wanted by several left nodes.
            u, v = (i * 7 + 3) % 12, 100 + (i * i + i // 3) % 12
        else:
            # Bridges that join the pieces and open augmenting paths.
            u, v = (i * 5) % 12, 100 + (i * 5 + 1) % 12
        G.add_edge(u, v)
        mm = nx.maximal_matching(G)
        matched = {n for edge in mm for n in edge}
        assert all(a in matched or b in matched for a, b in G.edges())
        maximal.append(len(mm))
    assert maximal[::5] == [1, 6, 9, 9, 9, 10, 10, 10]
    assert sum(maximal) == 297
    assert nx.is_bipartite(G)
    assert sorted(bipartite.color(G).items())[:3] == [(0, 1), (1, 1), (2, 1)]
    G.add_edge(0, 1)
    assert not nx.is_bipartite(G)
    with pytest.raises(nx.NetworkXError):
        bipartite.color(G)


def test_simple_and_shortest_paths_on_a_ladder():
    # A 2x7 ladder (nodes 0..13: top row 0..6, bottom row 7..13).  Rounds
    # 0-5 add the down-diagonals a -> 8 + a, rounds 6-11 the up-diagonals
    # a + 1 -> 7 + a, and rounds 12-19 take the down-diagonals away again
    # (the last two rounds ask for ones already gone).
    G = grid(2, 7)
    simple_counts = []
    shortest_counts = []
    missing = unreached = gone = 0
    for i in range(20):
        a = (i * 5) % 6
        if i < 6:
            G.add_edge(a, 8 + a)
        elif i < 12:
            G.add_edge(a + 1, 7 + a)
        else:
            try:
                G.remove_edge(a, 8 + a)
            except nx.NetworkXError:
                gone += 1
        s, t = i % 7, 7 + (i * 5 + 6) % 7
        cutoff = 3 + i % 2
        paths = list(nx.all_simple_paths(G, s, t, cutoff=cutoff))
        assert all(len(p) - 1 <= cutoff for p in paths)
        simple_counts.append(len(paths))
        shortest = list(nx.all_shortest_paths(G, s, t))
        d = nx.shortest_path_length(G, s, t)
        assert all(len(p) - 1 == d for p in shortest)
        shortest_counts.append(len(shortest))
        if i % 5 == 4:
            # A missing target: the simple-path search checks it up front,
            # the shortest-path search only finds it was never reached.
            try:
                list(nx.all_simple_paths(G, s, 50 + i))
            except nx.NodeNotFound:
                missing += 1
            try:
                list(nx.all_shortest_paths(G, s, 50 + i))
            except nx.NetworkXNoPath:
                unreached += 1
    assert simple_counts[:10] == [0, 4, 3, 4, 5, 11, 0, 0, 3, 9]
    assert sum(simple_counts) == 113
    assert sum(shortest_counts) == 66
    assert missing == 4
    assert unreached == 4
    assert gone == 2
    D = nx.DiGraph((u, v) for u, v in G.edges() if u < v)
    dag_paths = list(nx.all_simple_paths(D, 0, 13))
    assert len(dag_paths) == 13
    assert min(len(p) for p in dag_paths) == 8
    assert max(len(p) for p in dag_paths) == 9
