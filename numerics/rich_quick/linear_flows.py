"""Gradient-flow runs of wide and deep linear networks (GRQ Sec. 4, App. B) that the verify
checks measure: task-aligned square flows (Ass. B.4-B.5), kernel movement across the delta
regimes (funnel, inverted funnel, square) and deep-network limits.  Time is the paper's gradient-flow
time t (tau = 1, loss 1/2 ||X beta - Y||_F^2)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.ode import integrate_flow
from numerics.ran import Ran
from numerics.rich_quick import configs as C
from numerics.rich_quick import linear_nets as ln
from numerics.validation import InvalidArgument, finite_array, integer, number, positive


def _rel(a, b) -> float:
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b)) / max(np.linalg.norm(b), 1e-300))


def wide_flow_drift(W, A, X, Y, eta_a, eta_w, t_end, quantity) -> float:
    """Largest drift (relative to max(1, |initial|)) of ``quantity(W, A) -> array`` along the
    wide-network gradient flow over gradient-flow time [0, t_end] (DOP853, rtol 1e-11)."""
    ln.wide_shapes(W, A, X)
    flow = integrate_flow(ln.wide_rhs(X, Y, eta_a, eta_w), {"W": W, "A": A}, t_end,
                          conserved={"q": lambda p: quantity(p["W"], p["A"])},
                          rtol=1e-11, atol=1e-13, conservation_tol=None)
    return flow.drift["q"]


def aligned_square_flow(d, delta, eta_a, eta_w, rng, D, t_end=6.0):
    """Task-aligned square network (Ass. B.4-B.5) with ``X^T X = V diag(D) V^T``: returns
    ((Lambda(t), Lambda'(t)) = diag(V^T beta U) and its exact velocity (d, T) each, the largest
    off-diagonal |V^T beta U|, the singular values S of X^T Y, the drift of Delta)."""
    d, delta, t_end = integer(d, "d"), number(delta, "delta"), number(t_end, "t_end", positive=True)
    D = finite_array(D, "D", shape=(d,))
    if np.any(D < 0):
        raise InvalidArgument(f"D must be non-negative (the eigenvalues of X^T X), got {D}")
    positive(eta_a, "eta_a"), positive(eta_w, "eta_w"), ln.generator(rng)
    V, U, O = (np.linalg.qr(rng.standard_normal((d, d)))[0] for _ in range(3))
    s = rng.uniform(0.5, 2.0, d)
    lam0 = rng.uniform(0.05, 0.3, d)
    # per mode: eta_w a^2 - eta_a w^2 = delta, a w = lambda0
    kap = np.sqrt(delta ** 2 + 4 * eta_a * eta_w * lam0 ** 2)
    a = np.sqrt((kap + delta) / (2 * eta_w))
    w = np.sqrt((kap - delta) / (2 * eta_a))
    W = O @ np.diag(w) @ V.T
    A = O @ np.diag(a) @ U.T
    X = np.diag(np.sqrt(D)) @ V.T                         # X^T X = V D V^T
    # X^T Y = V S U^T on the modes with D > 0 (and 0 on the others)
    Y = X @ V @ np.diag(np.where(D > 0, s / np.where(D > 0, D, 1), 0)) @ U.T
    S_eff = V.T @ X.T @ Y @ U
    t = np.linspace(0, t_end, 61)
    flow = integrate_flow(ln.wide_rhs(X, Y, eta_a, eta_w), {"W": W, "A": A}, t_end, t_eval=t,
                          conserved={"Delta": lambda p: eta_w * p["A"] @ p["A"].T
                                     - eta_a * p["W"] @ p["W"].T}, rtol=1e-11, atol=1e-13)
    B = np.einsum("hdT,hcT->dcT", flow.states["W"], flow.states["A"])
    L = np.einsum("di,dcT,cj->ijT", V, B, U)
    off = np.max(np.abs(L - np.einsum("iiT->iT", L)[:, None, :] * np.eye(d)[:, :, None]))
    rhs = ln.wide_rhs(X, Y, eta_a, eta_w)
    lam_dot = []
    for k in range(len(t)):
        p = {"W": flow.states["W"][..., k], "A": flow.states["A"][..., k]}
        v = rhs(0.0, p)
        lam_dot.append(np.diag(V.T @ (v["W"].T @ p["A"] + p["W"].T @ v["A"]) @ U))
    return (np.einsum("iiT->iT", L), np.array(lam_dot).T), off, np.diag(S_eff), flow.drift["Delta"]


def kernel_movement(d, h, c, delta, rng, beta_scale=0.1, eta_a=1.0, eta_w=1.0):
    """Wide linear net with whitened inputs (X = I_d, so the NTK is M) and all delta_i = delta,
    trained to convergence (t_end = 40 + 12|delta|).  Returns S(0, t_end), S(0, 5/|delta|) (the
    end of the fast lazy phase; S(0, 5) at delta = 0), the final relative error of beta, and
    S(0, 1) and S(0, 2) (times common to every delta, by which the balanced nets have fitted)."""
    d, h, c = integer(d, "d"), integer(h, "h"), integer(c, "c")
    delta, beta_scale = number(delta, "delta"), number(beta_scale, "beta_scale", positive=True)
    W, A = ln.init_wide(d, h, c, delta, beta_scale, eta_a, eta_w, rng)
    X = np.eye(d)
    Y = rng.standard_normal((d, c))
    t_end = 40.0 + 12.0 * abs(delta)
    t_fast = 5.0 / abs(delta) if delta else 5.0
    t = np.unique([0.0, t_fast, 1.0, 2.0, t_end])
    flow = integrate_flow(ln.wide_rhs(X, Y, eta_a, eta_w), {"W": W, "A": A}, t_end, t_eval=t,
                          rtol=1e-8, atol=1e-10, conservation_tol=None, method="LSODA")
    Ms = {float(tk): ln.wide_M(flow.states["W"][..., k], flow.states["A"][..., k], eta_a, eta_w)
          for k, tk in enumerate(t)}
    beta_end = flow.states["W"][..., -1].T @ flow.states["A"][..., -1]
    return (ln.kernel_distance(Ms[0.0], Ms[t_end]), ln.kernel_distance(Ms[0.0], Ms[t_fast]),
            _rel(beta_end, Y), ln.kernel_distance(Ms[0.0], Ms[1.0]), ln.kernel_distance(Ms[0.0], Ms[2.0]))


@dataclass(frozen=True)
class RegimeRun:
    """``table[net]``: rows per delta of (S(0, end), S(0, 5/|delta|), final relative error of
    beta, S(0, 1), S(0, 2)); the ``deltas`` and the Ran."""

    table: dict
    deltas: tuple
    ran: Ran


def regime_table(config) -> RegimeRun:
    """:func:`kernel_movement` for each net and delta of ``config`` (``configs.Regimes``)."""
    config = C.expect(config, C.Regimes)
    table = {name: np.array([kernel_movement(*shape, D, np.random.default_rng(config.seed),
                                             beta_scale=config.beta_scale, eta_a=config.eta_a,
                                             eta_w=config.eta_w) for D in config.deltas])
             for name, shape in config.nets}
    ran = Ran.of(config, regime_table, **{
        "networks (d, h, c)": tuple(f"{name} {tuple(shape)}" for name, shape in config.nets),
        "deltas": tuple(config.deltas), "data": f"whitened X = I_d, Y ~ N(0, 1) (seed {config.seed})",
        "init scale ||beta_i(0)||": config.beta_scale,
        "rates (eta_a, eta_w)": (config.eta_a, config.eta_w),
        "dynamics": "gradient flow", "horizon": "t = 40 + 12 |delta| (converged)"})
    return RegimeRun(table, tuple(config.deltas), ran)


def _depth(Ws, a, l):
    """``Ws`` holds ``l`` chained matrices that fit ``a``."""
    if integer(l, "l") != len(Ws):
        raise InvalidArgument(f"l={l} but Ws holds {len(Ws)} matrices: one per layer")
    ln.deep_shapes(Ws, a)


def deep_flow_limit(Ws, a, X, y, l, t_end=60.0):
    """beta(t_end) of the deep-network gradient flow (rates 1, DOP853 at rtol 1e-11) from
    ``Ws``, ``a`` (gradient-flow time)."""
    _depth(Ws, a, l)
    rhs, names = ln.deep_rhs(X, y, l)
    params = {k: W for k, W in zip(names, Ws)}
    params["a"] = a
    flow = integrate_flow(rhs, params, t_end, t_eval=np.array([0.0, t_end]), rtol=1e-11,
                          atol=1e-13, conservation_tol=None)
    end = flow.at(t_end)
    return ln.deep_beta([end[k] for k in names], end["a"])


def deep_flow_drift(Ws, a, X, y, l, quantity, t_end):
    """Largest drift (relative to max(1, |initial|)) of ``quantity(Ws, a) -> array`` along the
    deep-network gradient flow over gradient-flow time [0, t_end] (DOP853, rtol 1e-11)."""
    _depth(Ws, a, l)
    rhs, names = ln.deep_rhs(X, y, l)
    flow = integrate_flow(rhs, dict(zip(names, Ws), a=a), t_end,
                          conserved={"q": lambda p: quantity([p[k] for k in names], p["a"])},
                          rtol=1e-11, atol=1e-13, conservation_tol=None)
    return flow.drift["q"]

