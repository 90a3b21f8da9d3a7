"""Neural-race dynamics (MHS-Eq(6), MHS-F-Eq(race-overlap)) against the full matrix flow of
two-layer pathways (MHS-Eq(3) with the statistics given), integrated with ``numerics.ode``.

Time units: everything takes the paper's ``t`` and ``tau``; only ``t / tau`` matters.
"""
from __future__ import annotations

import numpy as np

from numerics.ode import integrate_flow
from numerics.validation import InvalidArgument, finite_array, positive


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

    t_eval = finite_array(t_eval, "t_eval", ndim=1, nonempty=True)
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

    t_eval = finite_array(t_eval, "t_eval", ndim=1, nonempty=True)
    flow = integrate_flow(rhs, {"b1": np.asarray(b1, float), "b2": np.asarray(b2, float)},
                          float(t_eval[-1]), t_eval=t_eval)
    return flow.t, flow.states["b1"] * flow.states["b2"]


def two_pathway_case(overlap: float, seed: int = 2, m=6, d=5, h=4, r=3) -> dict:
    """Two pathways into one output node with statistics of the Eq. (5) form: shared V,
    U_2 = overlap U_1 + sqrt(1 - overlap^2) U_perp; Sigma^x has variance off V too; aligned,
    small initial weights.  ``O`` the per-mode overlaps U_p^T U_j (2, 2, r)."""
    if not -1 <= overlap <= 1:
        raise InvalidArgument(f"overlap={overlap!r} must lie in [-1, 1]")
    rng = np.random.default_rng(seed)
    Q = np.linalg.qr(rng.standard_normal((m, 2 * r)))[0]
    U1, Uperp = Q[:, :r], Q[:, r:]
    U2 = overlap * U1 + np.sqrt(1 - overlap ** 2) * Uperp
    Vfull = np.linalg.qr(rng.standard_normal((d, d)))[0]
    V, rest = Vfull[:, :r], Vfull[:, r:]
    S = rng.uniform(0.5, 2.0, (2, r))
    Dd = rng.uniform(0.5, 1.5, (2, r))
    Dx = 0.4 * np.sqrt(Dd[0] * Dd[1])                       # cross-variance D(1,2) = D(2,1)
    D = np.array([[Dd[0], Dx], [Dx, Dd[1]]])                 # D[j, p] (2, 2, r)
    off = rest @ np.diag(rng.uniform(0.3, 1.0, d - r)) @ rest.T
    sx = [[V @ np.diag(D[j, p]) @ V.T + (off if j == p else 0.3 * off) for p in range(2)]
          for j in range(2)]
    syx = [U1 @ np.diag(S[0]) @ V.T, U2 @ np.diag(S[1]) @ V.T]
    R = [np.linalg.qr(rng.standard_normal((h, r)))[0] for _ in range(2)]
    b0 = rng.uniform(1e-3, 1e-2, (2, r))
    W1 = np.stack([R[p] @ np.diag(b0[p]) @ V.T for p in range(2)])
    W2 = np.stack([[U1, U2][p] @ np.diag(b0[p]) @ R[p].T for p in range(2)])
    Omat = np.array([[np.eye(r), U1.T @ U2], [U2.T @ U1, np.eye(r)]])   # (2, 2, r, r)
    return {"syx": syx, "sx": sx, "W1": W1, "W2": W2, "U": [U1, U2], "V": V, "S": S, "D": D, "b0": b0,
                "O": np.einsum("pjrr->pjr", Omat)}


def flow_and_race(case: dict, overlaps=None, tau: float = 3.0, n_t: int = 80):
    """The full matrix flow of :func:`two_pathway_case`'s pathways, projected on each pathway's
    singular vectors (U_p^T W2_p W1_p V, (2, r, r, T)), and the race ODE with the per-mode
    ``overlaps`` (None: the case's own) from the same init ((2, r, T)), over 12 time constants."""
    t_eval = np.linspace(0, 12 * tau / case["S"].min(), n_t)
    _, W1, W2 = pathway_flow(case["syx"], case["sx"], case["W1"], case["W2"], tau, t_eval)
    proj = np.stack([np.einsum("mi,ijT,jkT,kn->mnT", case["U"][p].T, W2[p], W1[p], case["V"])
                     for p in range(2)])
    O = case["O"] if overlaps is None else overlaps
    _, B = race_flow(case["S"], case["D"], O, case["b0"], case["b0"], tau, t_eval)
    return proj, B


def contextual_race(C: int, overlaps=None, tau: float = 1.0, b0: float = 1e-3):
    """The C contextual pathways of App F on the residual statistics of the C-context data, aligned
    symmetric init: their mode strengths along the full matrix flow ((C, r, T)) and along the race
    ODE with per-pair ``overlaps`` (None: the data's U_p^T U_j), and the data's overlaps."""
    from numerics.haste_slowly.datasets import contexts, contextual_statistics
    X, Y = contexts(C)
    syx, sx = contextual_statistics(X, Y, C)
    _, S, Vt = np.linalg.svd(syx[0])
    r = int((S > 1e-10).sum())
    V0, S0 = Vt[:r].T, S[:r]
    Us = [s @ V0 / S0 for s in syx]
    rng = np.random.default_rng(5)
    R = [np.linalg.qr(rng.standard_normal((r + 2, r)))[0] for _ in range(C)]
    W1 = np.stack([R[p] @ (b0 * V0.T) for p in range(C)])
    W2 = np.stack([Us[p] @ (b0 * R[p].T) for p in range(C)])
    O_data = np.array([[np.diag(Us[p].T @ Us[j]) for j in range(C)] for p in range(C)])
    D = np.array([[np.diag(V0.T @ sx[j][p] @ V0) for p in range(C)] for j in range(C)])
    t_eval = np.linspace(0, 10 * tau / S0.min(), 60)
    _, W1t, W2t = pathway_flow(syx, sx, W1, W2, tau, t_eval)
    modes = np.stack([np.einsum("ma,mkT,kdT,da->aT", Us[p], W2t[p], W1t[p], V0) for p in range(C)])
    O = O_data if overlaps is None else overlaps
    _, B = race_flow(np.tile(S0, (C, 1)), D, O, np.full((C, r), b0), np.full((C, r), b0), tau,
                     t_eval)
    return modes, B, O_data
