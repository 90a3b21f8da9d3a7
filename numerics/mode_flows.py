"""Gradient flows of the sigmoidal mode law (BL Eq. (7), BA Eq. (3), MHS Eq. (7); MHS App A), the
references the closed forms are checked against.

Time is the papers' ODE time t with its constant tau (``tau da/dt = 2a(s - da)``); only t / tau
matters.  Every flow runs ``numerics.ode.integrate_flow`` at tight tolerances.
"""
from __future__ import annotations

import numpy as np

from numerics.ode import integrate_flow
from numerics.validation import InvalidArgument, finite_array, integer, number, positive, time_grid


def scalar_mode_flow(s: float, d: float, a0: float, tau: float, grid, rtol: float = 1e-12):
    """a(t) on ``grid`` (times from 0) of the scalar mode ODE ``tau da/dt = 2a(s - da)``."""
    s, d, a0 = (number(v, n) for v, n in ((s, "s"), (d, "d"), (a0, "a0")))
    tau = number(tau, "tau", positive=True)
    grid = time_grid(grid)
    flow = integrate_flow(lambda t, p: {"a": 2 * p["a"] * (s - d * p["a"]) / tau},
                          {"a": np.array([a0], dtype=float)}, float(grid[-1]), t_eval=grid, rtol=rtol,
                          atol=1e-14 * abs(a0), conservation_tol=None)
    return flow.states["a"][0]


def layer_flow_drift(layer_rhs, w1: float, w2: float, t_end: float) -> float:
    """Drift of the balance (w1)^2 - (w2)^2 along the per-layer flow ``(dw1, dw2) = layer_rhs(w1,
    w2)`` (MHS-A-Mode) from (w1, w2) to time ``t_end``."""
    flow = integrate_flow(lambda t, p: dict(zip(("w1", "w2"), layer_rhs(p["w1"], p["w2"]))),
                          {"w1": w1, "w2": w2}, t_end,
                          conserved={"w1^2 - w2^2": lambda p: p["w1"] ** 2 - p["w2"] ** 2})
    return flow.drift["w1^2 - w2^2"]


def aligned_flow(n_in: int, n_out: int, n_hid: int, s, d, a0, tau, *, imbalance=1.0, seed=0,
                 t_end=None):
    """Full matrix gradient flow of a two-layer linear network on statistics that share V.

    ``tau dW1/dt = W2^T (Syx - W2 W1 Sx)``, ``tau dW2/dt = (Syx - W2 W1 Sx) W1^T`` (BL Eq. 18
    with its transposes restored), from the aligned init ``W1 = R diag(sqrt(a0)*k) V^T``,
    ``W2 = U diag(sqrt(a0)/k) R^T`` (``k = imbalance``; 1 is balanced).  Random orthonormal U, V, R
    of the given non-square shapes.  Returns (times, mode strengths diag(U^T W2 W1 V) of shape
    (modes, T), conserved-quantity drift).
    """
    n_in, n_out, n_hid = (integer(v, n) for v, n in ((n_in, "n_in"), (n_out, "n_out"), (n_hid, "n_hid")))
    s = positive(np.atleast_1d(finite_array(s, "s")), "s")
    d = positive(finite_array(d, "d", shape=s.shape), "d")
    a0 = positive(np.broadcast_to(finite_array(a0, "a0"), s.shape), "a0")
    if s.ndim != 1 or s.size > min(n_in, n_out, n_hid):
        raise InvalidArgument(f"s has {s.size} modes: it must be 1-d with at most min(n_in, n_out, n_hid) "
                              f"= {min(n_in, n_out, n_hid)} modes")
    tau = number(tau, "tau", positive=True)
    imbalance = number(imbalance, "imbalance", positive=True)
    r = s.size
    rng = np.random.default_rng(seed)
    U = np.linalg.qr(rng.standard_normal((n_out, r)))[0]
    V_full = np.linalg.qr(rng.standard_normal((n_in, n_in)))[0]
    V = V_full[:, :r]
    R = np.linalg.qr(rng.standard_normal((n_hid, r)))[0]
    # Sigma_x also has variance off the modes of Sigma_yx, to show it does not couple in.
    rest = V_full[:, r:]
    sx = V @ np.diag(d) @ V.T + rest @ np.diag(rng.uniform(0.2, 2.0, n_in - r)) @ rest.T
    syx = U @ np.diag(s) @ V.T
    W1 = R @ np.diag(np.sqrt(a0) * imbalance) @ V.T
    W2 = U @ np.diag(np.sqrt(a0) / imbalance) @ R.T

    def rhs(t, p):
        err = syx - p["W2"] @ p["W1"] @ sx
        return {"W1": p["W2"].T @ err / tau, "W2": err @ p["W1"].T / tau}

    if t_end is None:
        t_end = 12 * tau / (2 * s.min())
    flow = integrate_flow(rhs, {"W1": W1, "W2": W2}, t_end, t_eval=np.linspace(0, t_end, 120),
                          conserved={"W2^T W2 - W1 W1^T": lambda p: p["W2"].T @ p["W2"]
                                     - p["W1"] @ p["W1"].T})
    products = np.einsum("ij,jkT,kl->ilT", U.T, np.einsum("abT,bcT->acT", flow.states["W2"],
                                                          flow.states["W1"]), V)
    modes = np.stack([products[a, a] for a in range(r)])
    return flow.t, modes, flow.drift["W2^T W2 - W1 W1^T"]


def trained_linear_modes(seeds, *, n_hid: int = 32, init_std: float = float(np.sqrt(2e-4)),
                         lr: float = 1e-3, steps: int = 5000, c: float = 1.0,
                         record_every: int = 20):
    """Linear networks with a hidden bias of strength ``c`` trained by batched full-batch GD on
    the 4-item hierarchy (the bias paper's 1/2-sum loss), recording the map W2 W~1 and the
    balance matrix W2^T W2 - W~1 W~1^T: (Trajectory in t/tau, (U, s, V, d, off-diagonal of
    V^T Sigma_x V) of the augmented statistics)."""
    from numerics.datasets import correlations, hierarchy, modes
    from numerics.models import TwoLayerEnsemble
    from numerics.train import train
    X, Y = hierarchy(2)
    stats = modes(*correlations(X, Y, c=c))
    net = TwoLayerEnsemble.init(seeds, X.shape[0], n_hid, Y.shape[0], activation="linear",
                                bias_strength=c, init_std=init_std)
    trajectory = train(net, X, Y, lr=lr, steps=steps, paper="bias", record_every=record_every,
                       record=lambda m: {"W": m.product(),
                                         "balance": m.W2.transpose(1, 2) @ m.W2
                                         - m.W1 @ m.W1.transpose(1, 2)})
    return trajectory, stats
