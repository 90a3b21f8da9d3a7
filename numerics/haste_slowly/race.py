"""Neural-race dynamics (MHS-Eq(6), MHS-F-Eq(race-overlap)) against the full matrix flow of
two-layer pathways (MHS-Eq(3) with the statistics given), integrated with ``numerics.ode``.

Time units: everything takes the paper's ``t`` and ``tau``; only ``t / tau`` matters.
"""
from __future__ import annotations

import numpy as np

from numerics.validation import finite_array, positive
from numerics.ode import integrate_flow


def pathway_flow(syx, sx, W1, W2, tau, t_eval):
    """Full flow of pathways p = 1..P, all ending at one output node (App A.2 Eq. 8):
    tau dW1_p/dt = W2_p^T E_p, tau dW2_p/dt = E_p W1_p^T, E_p = Syx(p) - sum_j W2_j W1_j Sx(j, p).

    ``syx[p]`` (m, d); ``sx[j][p]`` (d, d); returns (t, W1 (P, h, d, T), W2 (P, m, h, T)).
    """
    P = len(syx)
    tau = float(positive(tau, "tau"))

    def rhs(t, w):
        prods = [w["W2"][j] @ w["W1"][j] for j in range(P)]
        errs = [syx[p] - sum(prods[j] @ sx[j][p] for j in range(P)) for p in range(P)]
        return {"W1": np.stack([w["W2"][p].T @ errs[p] for p in range(P)]) / tau,
                "W2": np.stack([errs[p] @ w["W1"][p].T for p in range(P)]) / tau}

    t_eval = finite_array(t_eval, "t_eval", ndim=1)
    flow = integrate_flow(rhs, {"W1": np.asarray(W1, float), "W2": np.asarray(W2, float)},
                          float(t_eval[-1]), t_eval=t_eval)
    return flow.t, flow.states["W1"], flow.states["W2"]


def race_flow(S, D, O, b1, b2, tau, t_eval):
    """Reduced two-layer race per mode: tau db1_p/dt = b2_p R_p, tau db2_p/dt = b1_p R_p,
    R_p = S_p - sum_j O[p, j] b2_j b1_j D[j, p] (all (P, r) arrays; O (P, P) per-mode overlaps
    broadcast to (P, P, r)).  Eq. (6) as printed is O = 1 for every pair.  Returns (t, B (P, r, T))."""
    S, D0 = np.asarray(S, float), np.asarray(D, float)
    O = np.broadcast_to(np.asarray(O, float)[..., None] if np.ndim(O) == 2 else O,
                        D0.shape).copy()
    tau = float(positive(tau, "tau"))

    def rhs(t, w):
        B = w["b2"] * w["b1"]
        R = S - np.einsum("jpr,pjr,jr->pr", D0, O, B)
        return {"b1": w["b2"] * R / tau, "b2": w["b1"] * R / tau}

    t_eval = finite_array(t_eval, "t_eval", ndim=1)
    flow = integrate_flow(rhs, {"b1": np.asarray(b1, float), "b2": np.asarray(b2, float)},
                          float(t_eval[-1]), t_eval=t_eval)
    return flow.t, flow.states["b1"] * flow.states["b2"]
