"""Check functions of Make haste slowly (MHS-).  Each takes the object under test (a formula, a
gradient rule, a closed form, a statistics rule) as an argument, so tests/haste_slowly can show
that it rejects perturbed versions."""
from __future__ import annotations

import numpy as np
import sympy as sp
import torch

from numerics.haste_slowly import equivalence
from numerics.haste_slowly import graph as G
from numerics.haste_slowly import race
from numerics.haste_slowly.metrics import crossing_time
from verify.checks.symbolic import is_zero, ode_residual


# ---------------------------------------------------------------- GDLN on a graph (Eq. 1-4)
def random_gdln(seed: int = 0, N: int = 7):
    """Two input nodes (3, 2 units) -> two hidden nodes (4, 3) with a hidden-to-hidden edge ->
    two output nodes (2, 1): paths of length 2 and 3, paths from different sources into one
    node (non-square Sigma^x(j, p)), random 0/1 gates per datapoint."""
    rng = np.random.default_rng(seed)
    g = G.Graph(sizes=[3, 2, 4, 3, 2, 1], edges=[(0, 2), (1, 2), (0, 3), (2, 3), (1, 3),
                                                 (2, 4), (3, 4), (3, 5)],
                inputs=[0, 1], outputs=[4, 5])
    W = [rng.standard_normal((g.sizes[t], g.sizes[s])) * 0.7 for s, t in g.edges]
    x = {v: rng.standard_normal((g.sizes[v], N)) for v in g.inputs}
    y = {v: rng.standard_normal((g.sizes[v], N)) for v in g.outputs}
    ng = (rng.random((len(g.sizes), N)) < 0.7).astype(float)
    eg = (rng.random((len(g.edges), N)) < 0.7).astype(float)
    return g, W, x, y, ng, eg


def path_sum_error(forward, seed: int = 0) -> float:
    """Max |forward(...)[v] - sum_{p in T(v)} g_p W_p x_{s(p)}| over output nodes (Eq. 1)."""
    g, W, x, y, ng, eg = random_gdln(seed)
    h = forward(g, W, x, ng, eg)
    err = 0.0
    for v in g.outputs:
        total = sum(G.path_gate(g, p, ng, eg) * (G.path_product(W, p, g.sizes[g.source(p)])
                                                  @ x[g.source(p)])
                    for p in g.paths() if g.target(p) == v)
        err = max(err, float(np.max(np.abs(h[v] - total))))
    return err


def path_gradient_error(gate_stats=G.statistics, seed: int = 0) -> float:
    """Max relative error of the path-form gradient (Eq. 3 with ``gate_stats``) against autograd
    of the mean loss Eq. (2), over every edge."""
    g, W, x, y, ng, eg = random_gdln(seed)
    Wt = [torch.tensor(w, requires_grad=True) for w in W]
    loss = G.loss(g, Wt, {k: torch.tensor(v) for k, v in x.items()},
                  {k: torch.tensor(v) for k, v in y.items()}, torch.tensor(ng), torch.tensor(eg))
    auto = torch.autograd.grad(loss, Wt)
    err = 0.0
    for e in range(len(g.edges)):
        path = G.path_gradient(g, W, x, y, ng, eg, e, gate_stats)
        scale = max(np.abs(path).max(), np.abs(auto[e].numpy()).max(), 1e-300)
        err = max(err, float(np.max(np.abs(path + auto[e].numpy())) / scale))
    return err


def clock_error(tau_of_lr, lr: float = 2e-3, steps: int = 1500, seed: int = 1) -> float:
    """GD with rate ``lr`` on the mean loss Eq. (2) of a two-layer linear net against the flow
    tau dW/dt = -dL/dW with tau = tau_of_lr(lr, N); max relative error of W2 W1 over the run."""
    traj, prods = equivalence.gd_beside_flow(tau_of_lr, lr, steps, seed)
    return float(np.max(np.abs(prods - traj)) / np.max(np.abs(traj)))


# ---------------------------------------------------------------- race reduction (Eq. 5, 6)
def race_setup(overlap: float, seed: int = 2, m=6, d=5, h=4, r=3):
    """Two pathways into one output node with statistics of the Eq. (5) form: shared V,
    U_2 = overlap U_1 + sqrt(1 - overlap^2) U_perp; Sigma^x has variance off V too."""
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
    return dict(syx=syx, sx=sx, W1=W1, W2=W2, U=[U1, U2], V=V, S=S, D=D, b0=b0,
                O=np.einsum("pjrr->pjr", Omat))


def race_errors(overlaps_in_race, overlap: float, tau: float = 3.0, seed: int = 2):
    """(max off-diagonal / diagonal of U_p^T W2_p W1_p V along the full flow, max relative error
    of the race ODE with the given per-mode overlaps (None: the flow's own) against the flow)."""
    c = race_setup(overlap, seed)
    t_eval = np.linspace(0, 12 * tau / c["S"].min(), 80)
    t, W1, W2 = race.pathway_flow(c["syx"], c["sx"], c["W1"], c["W2"], tau, t_eval)
    proj = np.stack([np.einsum("mi,ijT,jkT,kn->mnT", c["U"][p].T, W2[p], W1[p], c["V"])
                     for p in range(2)])                              # (2, r, r, T)
    diag = np.einsum("prrT->prT", proj)
    offdiag = np.max(np.abs(proj - np.einsum("prT,rs->prsT", diag, np.eye(diag.shape[1]))))
    O = c["O"] if overlaps_in_race is None else overlaps_in_race
    _, B = race.race_flow(c["S"], c["D"], O, c["b0"], c["b0"], tau, t_eval)
    err = np.max(np.abs(B - diag)) / np.max(np.abs(diag))
    return float(offdiag / np.max(np.abs(diag))), float(err)


# ---------------------------------------------------------------- symbolic helpers
def solves(solution, rhs, t, state, initial=None) -> dict:
    """Residual of tau-ODE solution and its initial value (sympy)."""
    out = {"residual": is_zero(ode_residual(solution, rhs, t, state))}
    if initial is not None:
        out["t=0"] = is_zero(solution.subs(t, 0) - initial)
    return out


# ---------------------------------------------------------------- XoR with margin (App C)
def pathway_statistics(X: sp.Matrix, Y: sp.Matrix, gate, N: int):
    """(Sigma^yx, Sigma^x) of a pathway gated on the datapoints of ``gate`` (1/N over all N)."""
    Gm = sp.diag(*gate)
    return (Y * Gm * X.T) / N, (X * Gm * X.T) / N


def mode_of(syx: sp.Matrix, sx: sp.Matrix):
    """(s, d) of a rank-one Sigma^yx = s u v^T: s = ||Sigma^yx||, d = v^T Sigma^x v."""
    s = sp.sqrt(sp.simplify((syx * syx.T)[0, 0]))
    v = syx.T / s
    return sp.simplify(s), sp.simplify((v.T * sx * v)[0, 0])


def loss_at_plateau(loss_expr, s_expr, d_expr, a, s, d):
    """Loss expression (in a, s, d) at a* = s/d: a squared loss that is learned must give 0."""
    return sp.simplify(loss_expr.subs(a, s_expr / d_expr).subs({s: s_expr, d: d_expr}))


def crossover_check(s_lin, s_xor, crossover, Delta, dps: int = 50):
    """(|s_lin - s_xor| at the claimed crossover, evaluated at ``dps`` digits; sympy's roots)."""
    import mpmath
    f = sp.lambdify(Delta, s_lin - s_xor, "mpmath")
    with mpmath.workdps(dps):
        gap = abs(f(mpmath.mpf(1) * sp.N(crossover, dps + 10)))
    return float(gap), sp.solve(sp.Eq(s_lin, s_xor), Delta)


# ---------------------------------------------------------------- contextual pathways (App F/G)
def contextual_statistics(X, Y, C: int, n_items: int = 8):
    """Per (C-1)-context pathway p (off in context p): Sigma^yx(p) of the common pathway's
    residual R = Y - Y X^+ X on item inputs, and Sigma^x(j, p); 1/N over all datapoints."""
    from numerics.haste_slowly.datasets import context_gates
    N = X.shape[1]
    R = Y - Y @ np.linalg.pinv(X) @ X
    G = context_gates(C, [set(range(C)) - {c} for c in range(C)], n_items)
    Xi = X[:n_items]
    syx = [(R * G[p]) @ Xi.T / N for p in range(C)]
    sx = [[(Xi * G[j]) @ (Xi * G[p]).T / N for p in range(C)] for j in range(C)]
    return syx, sx


def overlap_and_rho(X, Y, C: int):
    """(U_0^T U_1 in pathway 0's shared-V basis, rho = Sigma^x(1,0)/Sigma^x(0,0), S(0), D(0)):
    U_j := Sigma^yx(j) V_0 S_0^{-1} (App F recipe)."""
    syx, sx = contextual_statistics(X, Y, C)
    U, S, Vt = np.linalg.svd(syx[0])
    r = int((S > 1e-10).sum())
    V0, S0 = Vt[:r].T, S[:r]
    U1 = syx[1] @ V0 / S0
    rho = sx[1][0] @ np.linalg.pinv(sx[0][0])
    return U[:, :r].T @ U1, rho, S0, float(sx[0][0][0, 0])


def overlap_error(printed: dict, C: int, X, Y) -> float:
    """max |U_0^T U_1 - printed[C] I|."""
    O = overlap_and_rho(X, Y, C)[0]
    return float(np.abs(O - float(printed[C]) * np.eye(O.shape[0])).max())


def data_race_error(C: int, overlaps=None, tau: float = 1.0, b0: float = 1e-3):
    """Full matrix flow of the C contextual pathways on the residual statistics of the C-context
    data (App F), aligned symmetric init, against the race ODE with per-pair ``overlaps``
    (None: the data's U_p^T U_j).  Returns (max rel error of the mode strengths, data overlaps)."""
    from numerics.haste_slowly.datasets import contexts
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
    _, W1t, W2t = race.pathway_flow(syx, sx, W1, W2, tau, t_eval)
    modes = np.stack([np.einsum("ma,mkT,kdT,da->aT", Us[p], W2t[p], W1t[p], V0) for p in range(C)])
    O = O_data if overlaps is None else overlaps
    _, B = race.race_flow(np.tile(S0, (C, 1)), D, O, np.full((C, r), b0), np.full((C, r), b0),
                          tau, t_eval)
    return float(np.max(np.abs(B - modes)) / np.max(np.abs(modes))), O_data


# ---------------------------------------------------------------- App A
def learning_rule_error(sign: int, seed: int = 6) -> float:
    """Max rel difference between ``sign * eps * dL/dW`` (autograd, 1/2-sum loss) and the App A
    right-hand sides eps P W2^T (Syx - W2 W1 Sx), eps P (Syx - W2 W1 Sx) W1^T."""
    rng = np.random.default_rng(seed)
    P, d, h, m, eps = 9, 4, 3, 5, 0.01
    X, Y = rng.standard_normal((d, P)), rng.standard_normal((m, P))
    W1 = torch.tensor(rng.standard_normal((h, d)), requires_grad=True)
    W2 = torch.tensor(rng.standard_normal((m, h)), requires_grad=True)
    L = 0.5 * ((torch.tensor(Y) - W2 @ W1 @ torch.tensor(X)) ** 2).sum()
    g1, g2 = torch.autograd.grad(L, (W1, W2))
    syx, sx = Y @ X.T / P, X @ X.T / P
    w1, w2 = W1.detach().numpy(), W2.detach().numpy()
    E = syx - w2 @ w1 @ sx
    want = (eps * P * w2.T @ E, eps * P * E @ w1.T)
    got = (sign * eps * g1.numpy(), sign * eps * g2.numpy())
    return max(float(np.abs(a - b).max() / np.abs(a).max()) for a, b in zip(got, want))


def nondiag_reduction_error(rhs1, rhs2, seed: int = 7, n: int = 4) -> float:
    """Rotated-frame gradient flow (R^T tau dW1 V, U^T tau dW2 R) against the reduced right-hand
    sides ``rhs1(W1b, W2b, M, D)``, ``rhs2(...)`` with M = S Vhat^T V, for general (non-diagonal)
    W1b, W2b and Sigma^yx, Sigma^x that do not share V.  Max relative error."""
    rng = np.random.default_rng(seed)
    q = lambda: np.linalg.qr(rng.standard_normal((n, n)))[0]
    U, Vh, V, R = q(), q(), q(), q()
    S, D = np.diag(rng.uniform(0.5, 2, n)), np.diag(rng.uniform(0.5, 2, n))
    W1b, W2b = rng.standard_normal((n, n)), rng.standard_normal((n, n))
    syx, sx = U @ S @ Vh.T, V @ D @ V.T
    W1, W2 = R @ W1b @ V.T, U @ W2b @ R.T
    E = syx - W2 @ W1 @ sx
    full1, full2 = R.T @ (W2.T @ E) @ V, U.T @ (E @ W1.T) @ R
    M = S @ Vh.T @ V
    r1, r2 = rhs1(W1b, W2b, M, D), rhs2(W1b, W2b, M, D)
    return max(float(np.abs(full1 - r1).max() / np.abs(full1).max()),
               float(np.abs(full2 - r2).max() / np.abs(full2).max()))


# ---------------------------------------------------------------- App E (interlacing, non-negative data)
def _sub_sv(M, rows, cols):
    return np.linalg.svd(M[np.ix_(rows, cols)], compute_uv=False)


def interlacing_violation(case):
    """max_j (beta_j - alpha_j, alpha_j - sigma_j) / (1 + max|M|): submatrix B, column-restricted
    A, full M."""
    M, rows, cols = case
    s = np.linalg.svd(M, compute_uv=False)
    a = _sub_sv(M, list(range(M.shape[0])), cols)
    b = _sub_sv(M, rows, cols)
    return max(float(np.max(b - a[:len(b)])), float(np.max(a - s[:len(a)]))) / (1 + np.abs(M).max())


def sigma1_increase(X_, Y_, keep):
    """sigma_1 of Y X^T restricted to the kept datapoints minus sigma_1 of Y X^T."""
    full = np.linalg.norm(Y_ @ X_.T, 2)
    return float(np.linalg.norm(Y_[:, keep] @ X_[:, keep].T, 2) - full)


def relative_increase(case):
    """:func:`sigma1_increase` of ``case = (X, Y, keep)`` relative to the scale of its products."""
    X_, Y_, _ = case
    return sigma1_increase(*case) / (1 + 8 * np.abs(Y_).max() * np.abs(X_).max())


# ---------------------------------------------------------------- App F (rise of a mode)
def rise_time(series, tt, plateau):
    """Time from 10% to 90% of the plateau (independent of the initial strength)."""
    return crossing_time(series, tt, 0.9 * plateau) - crossing_time(series, tt, 0.1 * plateau)


# ---------------------------------------------------------------- Prop 4.2 (the race between gatings)
def race_gap(loss_alt, loss_star, L0: float) -> dict:
    """Gap (L(G') - L(G*)) / L(0) of an alternative gating's loss curve over the ReLN's, both on
    one time grid: its value at t = 0, its minimum over t, and the share of the run where it
    exceeds 1% of L(0) (a strict win on an interval)."""
    gap = (np.asarray(loss_alt, dtype=float) - np.asarray(loss_star, dtype=float)) / L0
    return {"t0": float(gap[0]), "min": float(gap.min()), "strict share": float(np.mean(gap > 0.01))}

