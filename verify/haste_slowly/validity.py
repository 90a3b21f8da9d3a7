"""Validity maps of the haste_slowly ("Make haste slowly") holds-if claims.

Each ``spec_*`` returns the :class:`verify.validity.MapSpec` of one claim; :data:`SPECS` maps the
claim ID to it.  These claims have no sympy encoding in the registry (their statements are about
dynamics and data), so the maps evaluate the statements directly: the race reduction Eq. (6)
against the pathways' strength flow with the output overlap kept, the diagonalisability of the
common pathway's statistics, and a GDLN with fixed gates against the ReLU network it should
reproduce.  Time is t/tau with tau = 1/eps on the 1/(2N) loss (MHS-Eq(3)), or GD steps where stated.
"""
from __future__ import annotations

import numpy as np

from numerics.haste_slowly.datasets import contexts, section4
from numerics.rk4 import rk4
from verify.validity import Axis, Boundary, Field, MapSpec, Mark

S_PATH, B0, HORIZON = np.array([1.0, 0.6]), 1e-3, 12.0 / 0.6


def _race(overlap, coupling, kept: bool):
    """Strengths B_p(t) of two balanced rank-one pathways into one node (tau = 1):
    B_p' = 2 B_p (S_p - sum_q o_pq D(q, p) B_q), o_pp = 1, o_12 = u_1.u_2 (kept) or 1 (Eq. 6 as
    printed), D(1, 1) = D(2, 2) = 1, D(1, 2) = coupling (the pathways' shared input)."""
    o = overlap if kept else np.ones_like(overlap)

    def rhs(_, B):
        return 2 * B * (S_PATH - B - (o * coupling)[..., None] * B[..., ::-1])

    y0 = np.full(overlap.shape + (2,), B0)
    return rk4(rhs, y0, HORIZON, 500, every=5)


def spec_eq6() -> MapSpec:
    """MHS-Eq(6) (Sec 2): tau dB_e/dt = sum_p B_(p\\e)[S(p) - sum_j B_j D(j, p)] drops the overlap
    U_t(p)^T U_t(j) of paths into one node; two rank-one pathways with output directions
    u_1.u_2 = o and input overlap D(1, 2)."""
    def error(overlap, coupling):
        exact = _race(overlap, coupling, kept=True)
        printed = _race(overlap, coupling, kept=False)
        return np.max(np.abs(printed - exact), axis=(0, -1)) / np.max(np.abs(exact), axis=(0, -1))

    return MapSpec(
        "MHS-Eq(6)", Axis("overlap", r"output overlap $u_1^\top u_2$", -0.9, 1.0, 39, scale="linear"),
        Axis("coupling", "input overlap D(1, 2) of the pathways", 1e-3, 1.0, 31),
        (Field("printed Eq. (6) (overlap taken as 1)", error),),
        "max_t |B_Eq.(6) - B| / max_t |B|",
        Boundary(r"$u_1^\top u_2 = 1$: the paths share the node's output vectors",
                 curve=((1.0, 1.0), (1e-3, 1.0))),
        ("<=", 1e-6), "the strength flow with the overlap kept (RK4, 500 steps to t = 20 tau)",
        fixed="S = (1, 0.6), D(p, p) = 1, B(0) = 1e-3",
        marks=(Mark(-0.5, 1.0, "check's counterexample (U1^T U2 = -I/2, shared input)"),), search=False)


def spec_asm21() -> MapSpec:
    """MHS-Asm2.1 (Sec 2 L79-84, L296): the common pathway's Sigma^x is diagonalised by the right
    singular vectors V of Sigma^yx.  Labels interpolate from the context-symmetric hierarchical
    task (theta = 0, Sec 5) to the Sec 4 task (theta = 1: H, Ring, Cross)."""
    _, Y_sec4 = section4()

    def error(theta, scale):
        out = np.empty_like(theta)
        for j, sc in enumerate(scale[:, 0]):
            X, Y_sym = contexts(3, float(sc))
            Y = (1 - theta[j][:, None, None]) * Y_sym + theta[j][:, None, None] * Y_sec4
            N = X.shape[1]
            _, s, Vt = np.linalg.svd(Y @ X.T / N, full_matrices=False)
            keep = s > 1e-10 * s[..., :1]
            D = Vt @ (X @ X.T / N) @ np.swapaxes(Vt, -1, -2)
            # within a degenerate singular subspace V may be rotated freely: no evidence there (nor
            # on the diagonal, where s_i - s_i = 0)
            apart = np.abs(s[..., :, None] - s[..., None, :]) > 1e-8 * s[..., :1, None]
            off = np.where(keep[..., :, None] & keep[..., None, :] & apart, np.abs(D), 0.0)
            out[j] = off.max(axis=(-2, -1)) / np.abs(np.einsum("...ii->...i", D)).max(axis=-1)
        return out

    return MapSpec(
        "MHS-Asm2.1", Axis("theta", r"labels: (1 - $\theta$) hierarchical + $\theta$ Sec 4", -0.5, 1.0, 31,
                           scale="linear", include=(0.0,)),
        Axis("scale", "context one-hot scale", 0.3, 3.0, 15),
        (Field("Assumption 2.1 (1): V of Sigma^yx diagonalises Sigma^x", error),),
        "max |offdiag(V^T Sigma^x V)| / max diag",
        Boundary(r"$\theta = 0$: the context-symmetric hierarchical task", curve=((0.0, 0.0), (0.3, 3.0))),
        ("<=", 1e-10), "numpy SVD of the common pathway's statistics (1/N over all datapoints)",
        fixed="C = 3 contexts, 8 items", marks=(Mark(1.0, 1.0, "the Sec 4 task (check's counterexample)"),),
        search=False)


# --- C3.1: a ReLU network is a GDLN only with gates that follow the pre-activations -------------

def _train(stds, steps=1000, lr=5e-3, seed=3, sizes=(5, 16, 3)):
    """Full-batch GD of a one-hidden-layer ReLU net for every init std at once, and of the GDLN
    with gates fixed at their init values step(h(x, 0)) (Def. 3.1's G*): weights and the step of
    each net's first gate flip.  Loss 1/(2N) sum ||y - y^||^2, N = 10.  Returns (distance after
    each step, shape (steps, stds); first flip step per std, inf if none)."""
    rng = np.random.default_rng(seed)
    X, Y = rng.standard_normal((sizes[0], 10)), rng.standard_normal((sizes[2], 10))
    w1 = rng.standard_normal((sizes[1], sizes[0])) / np.sqrt(sizes[0])
    w2 = rng.standard_normal((sizes[2], sizes[1])) / np.sqrt(sizes[1])
    s = np.asarray(stds, float)[:, None, None]
    W1, W2 = np.stack([s * w1] * 2), np.stack([s * w2] * 2)    # [the ReLU net, the fixed GDLN]
    gates0 = W1[0] @ X > 0
    first_flip = np.full(len(stds), np.inf)
    distance, N = [], X.shape[1]
    for step in range(steps):
        pre = W1 @ X
        g = np.stack([pre[0] > 0, np.broadcast_to(gates0, pre[1].shape)]).astype(float)
        first_flip[np.any(g[0] != gates0, axis=(-2, -1)) & np.isinf(first_flip)] = step
        h = g * pre
        err = Y - W2 @ h
        W1, W2 = (W1 + lr * (((np.swapaxes(W2, -1, -2) @ err) * g) @ X.T / N),
                  W2 + lr * (err @ np.swapaxes(h, -1, -2) / N))
        distance.append(np.maximum(*[np.abs(W[1] - W[0]).max(axis=(-2, -1))
                                     / np.abs(W[0]).max(axis=(-2, -1)) for W in (W1, W2)]))
    return np.array(distance), first_flip


STDS = np.geomspace(0.05, 3.0, 16)


def spec_c31() -> MapSpec:
    """MHS-C3.1 (Sec 3 L92): 'always' possible to reproduce the ReLU net by a GDLN; with Def. 3.1's
    fixed gates G*(x) = step(h(x, 0)) only until a unit changes sign."""
    distance, first_flip = _train(STDS)

    def error(steps, std):
        rows = np.argmin(np.abs(STDS[:, None, None] - std), axis=0)
        cols = np.clip(np.round(steps).astype(int) - 1, 0, distance.shape[0] - 1)
        return distance[cols, rows]

    flips = np.where(np.isinf(first_flip), np.nan, first_flip + 1)
    return MapSpec(
        "MHS-C3.1", Axis("steps", "GD steps (lr 5e-3)", 1.0, 1000.0, 25), Axis("std", "init scale of both layers", 0.05, 3.0, STDS.size),
        (Field("GDLN with Def. 3.1's gates fixed at init", error),),
        "max rel. weight distance from the ReLU net",
        Boundary("the first gate flip of the ReLU net (gates must follow h(x, t) after it)",
                 curve=(tuple(flips), tuple(STDS))),
        ("<=", 1e-12), "the ReLU network trained by the same GD (float64)",
        fixed="sizes (5, 16, 3), 10 data points, one training run per init scale",
        marks=(Mark(1000.0, float(STDS[np.argmin(np.abs(STDS - 0.5))]), "near the check's setting (std 0.5)"),),
        search=False)


SPECS = {"MHS-Eq(6)": spec_eq6, "MHS-Asm2.1": spec_asm21, "MHS-C3.1": spec_c31}
