"""A GDLN on an explicit graph (MHS Sec 2): recursive forward pass (Eq. 1), mean loss (Eq. 2),
gated path statistics (Eq. 4) and the path-form gradient (Eq. 3), in float64 numpy.

Nodes are numbered in topological order; ``edges[e] = (source, target)``.  Gates are per
datapoint: ``node_gates`` (V, N) and ``edge_gates`` (E, N).  The path gate is the product of the
node gates of every node after the input and the edge gates along the path (Saxe et al. 2022; the
paper leaves it implicit, catalogue §0.1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numerics.validation import InvalidArgument


@dataclass
class Graph:
    sizes: list                 # |v| of every node
    edges: list                 # (source, target) pairs, source < target
    inputs: list                # input node ids (h_v = x_v)
    outputs: list               # output node ids

    def __post_init__(self):
        for e, (s, t) in enumerate(self.edges):
            if not (0 <= s < t < len(self.sizes)):
                raise InvalidArgument(f"edges[{e}]={(s, t)!r} must satisfy 0 <= source < target < V")

    def paths(self):
        """Every input-to-output path as a tuple of edge indices."""
        out, stack = [], [(v, ()) for v in self.inputs]
        while stack:
            v, p = stack.pop()
            if v in self.outputs and p:
                out.append(p)
            stack += [(t, p + (e,)) for e, (s, t) in enumerate(self.edges) if s == v]
        return sorted(out)

    def source(self, path):
        return self.edges[path[0]][0]

    def target(self, path):
        return self.edges[path[-1]][1]


def forward(graph: Graph, W, x, node_gates, edge_gates):
    """Eq. (1): h_v = g_v sum_{q: t(q)=v} g_q W_q h_{s(q)}; ``x[v]`` (|v|, N) for input nodes."""
    h = {v: x[v] for v in graph.inputs}
    for v in range(len(graph.sizes)):
        if v in graph.inputs:
            continue
        incoming = [edge_gates[q] * (W[q] @ h[s]) for q, (s, t) in enumerate(graph.edges) if t == v]
        if not incoming:
            raise InvalidArgument(f"node {v} is neither an input nor the target of an edge")
        h[v] = node_gates[v] * sum(incoming)
    return h


def path_gate(graph: Graph, path, node_gates, edge_gates):
    """(N,) g_p: edge gates along p times node gates of every node after the source."""
    g = np.ones(node_gates.shape[1])
    for e in path:
        g = g * edge_gates[e] * node_gates[graph.edges[e][1]]
    return g


def path_product(W, path, dim):
    """W_p = W_{e_k} ... W_{e_1}; identity of size ``dim`` for the empty path."""
    out = np.eye(dim)
    for e in path:
        out = W[e] @ out
    return out


def loss(graph, W, x, y, node_gates, edge_gates):
    """Eq. (2): 1/(2N) sum_i sum_{v in Out} ||y_v^i - h_v^i||^2."""
    h = forward(graph, W, x, node_gates, edge_gates)
    N = node_gates.shape[1]
    return sum(((y[v] - h[v]) ** 2).sum() for v in graph.outputs) / (2 * N)


def statistics(graph, path, other, x, y, node_gates, edge_gates):
    """Eq. (4): (Sigma^yx(p), Sigma^x(j, p)) with 1/N over ALL datapoints (``other`` = j)."""
    N = node_gates.shape[1]
    gp = path_gate(graph, path, node_gates, edge_gates)
    gj = path_gate(graph, other, node_gates, edge_gates)
    xs = x[graph.source(path)]
    syx = (gp * y[graph.target(path)]) @ xs.T / N
    sx = (gj * x[graph.source(other)]) @ (gp * xs).T / N
    return syx, sx


def path_gradient(graph, W, x, y, node_gates, edge_gates, edge, gate_stats=statistics):
    """Eq. (3): -dL/dW_e = sum_{p through e} W_{tbar}^T [Sigma^yx(p) - sum_{j into t(p)} W_j
    Sigma^x(j, p)] W_{sbar}^T, with the statistics of ``gate_stats`` (Eq. 4 by default)."""
    paths = graph.paths()
    _s_e, t_e = graph.edges[edge]
    total = np.zeros_like(W[edge])
    for p in paths:
        if edge not in p:
            continue
        k = p.index(edge)
        before = path_product(W, p[:k], graph.sizes[graph.source(p)])
        after = path_product(W, p[k + 1:], graph.sizes[t_e])
        syx, _ = gate_stats(graph, p, p, x, y, node_gates, edge_gates)
        inner = syx.copy()
        for j in paths:
            if graph.target(j) == graph.target(p):
                _, sx = gate_stats(graph, p, j, x, y, node_gates, edge_gates)
                inner -= path_product(W, j, graph.sizes[graph.source(j)]) @ sx
        total += after.T @ inner @ before.T
    return total


def random_case(seed: int = 0, N: int = 7):
    """A random GDLN to test Eq. (1)-(4) on: two input nodes (3, 2 units) -> two hidden nodes (4,
    3) with a hidden-to-hidden edge -> two output nodes (2, 1): paths of length 2 and 3, paths from
    different sources into one node (non-square Sigma^x(j, p)), random 0/1 gates per datapoint.
    Returns (graph, weights, x, y, node gates (V, N), edge gates (E, N))."""
    if isinstance(N, bool) or int(N) != N or N < 1:
        raise InvalidArgument(f"N={N!r} must be a positive integer")
    rng = np.random.default_rng(seed)
    g = Graph(sizes=[3, 2, 4, 3, 2, 1], edges=[(0, 2), (1, 2), (0, 3), (2, 3), (1, 3),
                                               (2, 4), (3, 4), (3, 5)],
              inputs=[0, 1], outputs=[4, 5])
    W = [rng.standard_normal((g.sizes[t], g.sizes[s])) * 0.7 for s, t in g.edges]
    x = {v: rng.standard_normal((g.sizes[v], N)) for v in g.inputs}
    y = {v: rng.standard_normal((g.sizes[v], N)) for v in g.outputs}
    ng = (rng.random((len(g.sizes), N)) < 0.7).astype(float)
    eg = (rng.random((len(g.edges), N)) < 0.7).astype(float)
    return g, W, x, y, ng, eg
