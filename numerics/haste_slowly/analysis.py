"""Quantities computed from the results of the Make haste slowly runs (MHS-): distances between
loss curves, onsets, distance matrices of representations, closed-form curves fitted to a run,
elbows, gradient and flow errors.  Nothing here decides: ``verify.haste_slowly.evidence`` holds
these numbers to the paper's criteria.  Times are the paper's clock of each trajectory (epochs
for Sec 4-6 and App B, t/tau for App A and C)."""
from __future__ import annotations

import numpy as np
from scipy import stats

from numerics.haste_slowly.datasets import context_gates, k_of_c, zero_output_loss
from numerics.metrics import crossing_time
from numerics.validation import InvalidArgument, finite_array

ALIGNED = 0.9       # |cos| past which a pathway's top output mode counts as aligned
ONSET = 0.9         # a loss part has started to drop once below this share of its start


def _curves(loss, name: str = "loss") -> np.ndarray:
    """(T, K) finite loss curves, K >= 1."""
    arr = finite_array(loss, name)
    if arr.ndim != 2 or arr.size == 0:
        raise InvalidArgument(f"{name} must be (T, K) curves, got shape {arr.shape}")
    return arr


def _scale(value, name: str) -> float:
    value = float(finite_array(value, name))
    if value <= 0:
        raise InvalidArgument(f"{name}={value!r} must be positive")
    return value


def _count(value, name: str, least: int = 1) -> int:
    if isinstance(value, (bool, np.bool_)) or int(value) != value or value < least:
        raise InvalidArgument(f"{name}={value!r} must be an integer >= {least}")
    return int(value)

def flow_times(epochs, n_samples: int):
    """The paper's t/tau at ``epochs`` (one epoch = one released step, lr 1e-3 on the 1/2-sum loss
    over ``n_samples`` datapoints; ``theory.conventions.flow_time``)."""
    epochs = finite_array(epochs, "epochs")
    _count(n_samples, "n_samples")
    from numerics.haste_slowly.configs import PAPER_LR
    from theory.conventions import flow_time
    return np.asarray(epochs, dtype=float) * float(flow_time(1, PAPER_LR, n_samples,
                                                             "haste_slowly"))


def first_time(times, values, level: float, below: bool = False) -> np.ndarray:
    """(K,) first time each column of ``values`` (T, K) passes ``level`` (one number, or one per
    column; inf: never)."""
    values = finite_array(values, "values")
    level = finite_array(level, "level")
    if np.shape(times)[:1] != values.shape[:1]:
        raise InvalidArgument(f"times has {np.shape(times)[:1]} instants, values {values.shape[:1]}")
    values = np.asarray(values, dtype=float)
    hit = values < level if below else values > level
    return np.where(hit.any(0), np.asarray(times, dtype=float)[np.argmax(hit, axis=0)], np.inf)


def deviation_from_mean(loss, L0: float) -> np.ndarray:
    """(K,) max over time of |L_k(t) - mean_k L(t)| / L(0): how far each seed's loss curve
    strays from its network's seed-mean curve."""
    loss, L0 = _curves(loss), _scale(L0, "L0")
    loss = np.asarray(loss, dtype=float)
    return np.max(np.abs(loss - loss.mean(1, keepdims=True)), axis=0) / L0


def stereotypical(loss) -> int:
    """The run closest to the seed-mean curve (sum over time of squared distances, as the released
    depth/replot.py picks Fig 6b's highlighted runs)."""
    loss = _curves(loss)
    loss = np.asarray(loss, dtype=float)
    return int(np.argmin(((loss - loss.mean(1, keepdims=True)) ** 2).sum(0)))


def mass_shares(counts, mass, values, keep_fraction: float = 0.01) -> dict:
    """Share of the weight mass of the units (mass > keep_fraction x max) with each count value."""
    if np.shape(counts) != np.shape(mass):
        raise InvalidArgument(f"counts {np.shape(counts)} and mass {np.shape(mass)} must have one shape")
    counts, mass = np.asarray(counts), finite_array(mass, "mass")
    if not np.all(mass.max(axis=-1) > 0):
        raise InvalidArgument("mass is zero for every unit: there are no shares to take")
    big = mass > keep_fraction * mass.max(axis=-1, keepdims=True)
    w = mass * big
    return {v: float((w * (counts == v)).sum() / w.sum()) for v in values}


def per_context(centroids, C: int = 3, n_items: int = 8) -> set:
    """The binarised context patterns of k-means centroids: a context is on when the centroid is
    on for a majority of its items (Algorithm B.1 leaves the binarisation open)."""
    C, n_items = _count(C, "C"), _count(n_items, "n_items")
    if any(np.size(c) != C * n_items for c in centroids):
        raise InvalidArgument(f"centroids must each have C x n_items = {C * n_items} entries, got "
                              f"{sorted({np.size(c) for c in centroids})}")
    return {tuple(np.repeat(np.asarray(c).reshape(C, n_items).mean(1) > 0.5, n_items).astype(float))
            for c in centroids}


def reln_patterns(C: int = 3) -> set:
    """The gate patterns of the Sec 4 ReLN: all-on and the pathways on in C-1 contexts."""
    C = _count(C, "C", 2)
    return {tuple(np.ones(8 * C))} | {tuple(r) for r in context_gates(C, k_of_c(C, C - 1))}


def onsets(trajectory) -> tuple[np.ndarray, np.ndarray]:
    """(K,) per seed: the epoch the common pathway's top output mode aligns (``align_lin`` past
    :data:`ALIGNED`) and the epoch the gating-only loss part ``ctx`` starts to drop (below
    :data:`ONSET` of its start)."""
    t, rec = trajectory.time, trajectory.records
    return (first_time(t, rec["align_lin"], ALIGNED),
            first_time(t, rec["ctx"], ONSET * np.asarray(rec["ctx"])[0], below=True))


def aligned_curves(trajectory, start, width: float, every: float) -> np.ndarray:
    """(S, K) each seed's loss from its own ``start`` epoch on, over ``width`` epochs sampled
    every ``every`` (linear interpolation)."""
    t, loss = np.asarray(trajectory.time, float), np.asarray(trajectory.loss, float)
    start = finite_array(start, "start", shape=loss.shape[1:])
    width, every = _scale(width, "width"), _scale(every, "every")
    grid = np.arange(0.0, width + every / 2, every)
    return np.stack([np.interp(s + grid, t, loss[:, k]) for k, s in enumerate(start)], axis=1)


def loss_distance(a, b, L0: float) -> float:
    """Mean over epochs of |seed-mean loss of ``a`` - seed-mean loss of ``b``| / L(0); ``a``,
    ``b`` (T, K) on one time grid."""
    a, b, L0 = _curves(a, "a"), _curves(b, "b"), _scale(L0, "L0")
    if a.shape[0] != b.shape[0]:
        raise InvalidArgument(f"a and b must share a time grid, got {a.shape[0]} and {b.shape[0]} records")
    return float(np.mean(np.abs(np.mean(a, 1) - np.mean(b, 1)))) / L0


def seed_spread(loss, L0: float) -> float:
    """Mean over seeds and epochs of |L_k - seed-mean L| / L(0): how far a run strays from its
    network's mean curve (the run-to-run yardstick of an agreement)."""
    loss, L0 = _curves(loss), _scale(L0, "L0")
    loss = np.asarray(loss, dtype=float)
    return float(np.mean(np.abs(loss - loss.mean(1, keepdims=True)))) / L0


def rdm(H) -> np.ndarray:
    """(K, N, N) Euclidean distances between the columns (datapoints) of hidden activity (K, H, N)."""
    if np.ndim(H) != 3:
        raise InvalidArgument(f"H must be (K, units, N), got shape {np.shape(H)}")
    H = np.asarray(H, dtype=float)
    sq = (H ** 2).sum(-2)
    return np.sqrt(np.maximum(sq[..., :, None] + sq[..., None, :] - 2 * H.transpose(0, 2, 1) @ H, 0))


def rdm_correlation(Ha, Hb, same: bool = False) -> float:
    """Mean Pearson correlation of the RDMs of every run of ``Ha`` with every run of ``Hb`` (K,
    H, N) (``same``: the distinct pairs of one network)."""
    A, B = rdm(Ha), rdm(Hb)
    if same and len(A) < 2:
        raise InvalidArgument(f"Ha has {len(A)} run: same=True needs at least two runs to pair")
    iu = np.triu_indices(A.shape[-1], 1)
    pairs = [(i, j) for i in range(len(A)) for j in range(len(B)) if not (same and j <= i)]
    return float(np.mean([np.corrcoef(A[i][iu], B[j][iu])[0, 1] for i, j in pairs]))


def rdm_scores(H, idx) -> np.ndarray:
    """(K, len(idx), pairs): each run's RDM (:func:`rdm`) at the record indices ``idx`` of hidden
    activity (T, K, H, N), its upper triangle standardised, so that the Pearson correlation of two
    RDMs is the mean of the product of their scores (:func:`mean_rdm_correlation`)."""
    iu = None
    out = []
    for i in idx:
        R = rdm(np.asarray(H[i], float))
        iu = np.triu_indices(R.shape[-1], 1) if iu is None else iu
        v = R[:, iu[0], iu[1]]
        out.append((v - v.mean(-1, keepdims=True)) / v.std(-1, keepdims=True))
    return np.stack(out, axis=1)


def mean_rdm_correlation(a, b) -> np.ndarray:
    """(T,) the mean over every run of ``a`` and every run of ``b`` of their RDMs' Pearson
    correlation at each record, from :func:`rdm_scores` (K_a, T, pairs) and (K_b, T, pairs):
    :func:`rdm_correlation` for runs of two networks."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.einsum("tp,tp->t", a.mean(0), b.mean(0)) / a.shape[-1]


def context_usage(patterns, C: int, majority: float = 0.0) -> np.ndarray:
    """(..., H) number of contexts in which a unit is on for more than ``majority`` of the items
    (0: for any item) from binary (..., H, 8C) patterns."""
    C = _count(C, "C", 2)
    if np.shape(patterns)[-1] % C:
        raise InvalidArgument(f"patterns' last axis ({np.shape(patterns)[-1]}) must split into C={C} contexts")
    per = np.asarray(patterns, dtype=float).reshape(*np.shape(patterns)[:-1], C, -1).mean(-1)
    return (per > majority).sum(-1)


def fit_a0(times, series, s: float, d: float, level: float = 0.5) -> float:
    """The initial strength a0 for which the mode law crosses ``level`` x s/d when ``series`` does
    (the paper fits its pi_0 and B_0, App F)."""
    s, d = _scale(s, "s"), _scale(d, "d")
    if not 0 < level < 1:
        raise InvalidArgument(f"level={level!r} must lie in (0, 1)")
    from scipy.optimize import brentq

    from numerics.closed_forms import mode_strength
    t_half = crossing_time(series, times, level * s / d)
    def f(la):
        return mode_strength(t_half, s, d, 10 ** la) - level * s / d
    return 10 ** brentq(f, -300, 0) if f(-300) < 0 else 1e-300


def closed_form_loss(tt, N: int, C: int, L0: float, common, contextual) -> np.ndarray:
    """(T,) the closed-form ReLN loss at flow times ``tt`` (t/tau): L(0) less the gains of the
    common modes ``common = (S, D, pi (T, a))`` and of the contextual modes
    ``contextual = (S0, D0, B (T, b))`` (theory.haste_slowly.contexts COMMON_GAIN, CONTEXT_GAIN)."""
    import sympy as sp

    from theory.haste_slowly import contexts as tc
    gain = sp.lambdify((tc.N, tc.S, tc.D, tc.pi), tc.COMMON_GAIN, "numpy")
    ctx_gain = sp.lambdify((tc.N, tc.C, tc.S, tc.D, tc.B), tc.CONTEXT_GAIN, "numpy")
    (S, D, pi), (S0, D0, B) = common, contextual
    return (L0 - np.sum(gain(N, np.asarray(S), np.asarray(D), np.asarray(pi)), axis=-1)
            - np.sum(ctx_gain(N, C, np.asarray(S0), D0, np.asarray(B)), axis=-1))


def elbows(mse: dict) -> dict:
    """The elbow of a decreasing metric over k, two ways: the largest second difference
    (curvature), and the kneedle point (largest drop below the chord from the first to the last
    k, axes scaled to [0, 1]; Satopaa et al. 2011)."""
    if len(mse) < 3:
        raise InvalidArgument(f"mse needs at least 3 values of k, got {sorted(mse)}")
    ks = np.array(sorted(mse))
    m = np.array([mse[k] for k in ks], dtype=float)
    curvature = m[:-2] - 2 * m[1:-1] + m[2:]
    x = (ks - ks[0]) / (ks[-1] - ks[0])
    y = (m - m.min()) / (m.max() - m.min()) if m.max() > m.min() else np.zeros_like(m)
    chord = y[0] + (y[-1] - y[0]) * x
    return {"curvature": int(ks[1:-1][np.argmax(curvature)]), "kneedle": int(ks[np.argmax(chord - y)])}


def race_gap(loss_alt, loss_star, L0: float) -> dict:
    """Gap (L(G') - L(G*)) / L(0) of an alternative gating's loss curve over the ReLN's, both on
    one time grid: its value at t = 0, its minimum over t, and the share of the run where it
    exceeds 1% of L(0) (a strict win on an interval)."""
    L0 = _scale(L0, "L0")
    loss_alt, loss_star = finite_array(loss_alt, "loss_alt", ndim=1), finite_array(loss_star, "loss_star", ndim=1)
    if loss_alt.shape != loss_star.shape or not loss_alt.size:
        raise InvalidArgument(f"loss_alt {loss_alt.shape} and loss_star {loss_star.shape} must be curves "
                              "on one non-empty time grid")
    gap = (loss_alt - loss_star) / L0
    return {"t0": float(gap[0]), "min": float(gap.min()), "strict share": float(np.mean(gap > 0.01))}


def _sub_sv(M, rows, cols):
    return np.linalg.svd(M[np.ix_(rows, cols)], compute_uv=False)


def interlacing_violation(case) -> float:
    """MHS-E-Interlace: max_j (beta_j - alpha_j, alpha_j - sigma_j) / (1 + max|M|) for the
    submatrix B, the column-restricted A and the full M of ``case = (M, rows, cols)``."""
    M, rows, cols = case
    s = np.linalg.svd(M, compute_uv=False)
    a = _sub_sv(M, list(range(M.shape[0])), cols)
    b = _sub_sv(M, rows, cols)
    return max(float(np.max(b - a[:len(b)])), float(np.max(a - s[:len(a)]))) / (1 + np.abs(M).max())


def sigma1_increase(X, Y, keep) -> float:
    """MHS-E-Nonneg: sigma_1 of Y X^T restricted to the kept datapoints minus sigma_1 of Y X^T."""
    X, Y = finite_array(X, "X", ndim=2), finite_array(Y, "Y", ndim=2)
    if not list(keep):
        raise InvalidArgument("keep must name at least one datapoint")
    if any(isinstance(i, bool) or int(i) != i or not 0 <= i < X.shape[1] for i in keep):
        raise InvalidArgument(f"keep must hold datapoint indices in [0, {X.shape[1]})")
    full = np.linalg.norm(Y @ X.T, 2)
    return float(np.linalg.norm(Y[:, keep] @ X[:, keep].T, 2) - full)


def relative_increase(case) -> float:
    """:func:`sigma1_increase` of ``case = (X, Y, keep)`` relative to the scale of its products."""
    X, Y, _ = case
    return sigma1_increase(*case) / (1 + 8 * np.abs(Y).max() * np.abs(X).max())


def relative_error(a, b) -> float:
    """max |a - b| / max |b|."""
    if np.shape(a) != np.shape(b):
        raise InvalidArgument(f"a {np.shape(a)} and b {np.shape(b)} must have one shape")
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if not np.max(np.abs(b), initial=0.0) > 0:
        raise InvalidArgument("b is zero (or empty): the relative error has no scale")
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def race_errors(proj, B) -> tuple[float, float]:
    """(max off-diagonal / diagonal of the flow's U^T W2 W1 V (P, r, r, T), max relative error of
    the race's mode strengths B (P, r, T) against the flow's diagonal)."""
    diag = np.einsum("prrT->prT", proj)
    off = np.max(np.abs(proj - np.einsum("prT,rs->prsT", diag, np.eye(diag.shape[1]))))
    return float(off / np.max(np.abs(diag))), relative_error(B, diag)


def rise_time(series, times, plateau: float) -> float:
    """Time from 10% to 90% of the plateau (independent of the initial strength)."""
    plateau = _scale(plateau, "plateau")
    return crossing_time(series, times, 0.9 * plateau) - crossing_time(series, times, 0.1 * plateau)


def overlap_error(printed, C: int, X, Y) -> float:
    """max |U_0^T U_1 - printed I| for the C-context data (``printed`` a number)."""
    C = _count(C, "C", 2)
    from numerics.haste_slowly.datasets import overlap_and_rho
    O = overlap_and_rho(X, Y, C)[0]
    return float(np.abs(O - float(printed) * np.eye(O.shape[0])).max())


def reln_closed_form(run, X, Y, C: int):
    """The closed-form ReLN of App F for the trained ReLN ``run`` (C contexts): the common modes
    by Eq. (7) with pi_0 fitted to the first seed's top mode, the contextual modes by the corrected
    F-Closed with B_0 fitted to the mean top contextual singular value; returns the loss (T,) and
    the curves behind it (epochs, common modes (T, 3) closed form and simulated, contextual mode
    closed form and simulated)."""
    from numerics.closed_forms import mode_strength
    from numerics.datasets import modes
    from numerics.haste_slowly.datasets import overlap_and_rho
    t = run.trajectory
    N = X.shape[1]
    tt = flow_times(t.time, N)
    U, S, V, D, _ = modes(Y @ X.T / N, X @ X.T / N)
    proj = np.einsum("ma,tmn,na->ta", U[:, :3], np.asarray(t.records["prod"])[:, 0, 0], V[:, :3])
    a0 = fit_a0(tt, proj[:, 0], S[0], D[0])
    _, _, S0, D0 = overlap_and_rho(X, Y, C)
    top = np.asarray(t.records["sv"])[:, 0, 1:, 0].mean(1)
    b0 = fit_a0(tt, top, S0[0], D0 / (C - 1), level=0.25)
    pi = np.stack([mode_strength(tt, S[a], D[a], a0) for a in range(len(S))], 1)
    B = mode_strength(tt[:, None], S0[None], D0 / (C - 1), b0)
    loss = closed_form_loss(tt, N, C, zero_output_loss(Y), (S, D, pi), (S0, D0, B))
    return loss, {"epochs": t.time, "common": pi[:, :3], "common simulated": proj,
                  "contextual": B[:, 0], "contextual simulated": top}


def gate_mse(loss, members, relu_loss, L0: float) -> dict:
    """App B's performance metric: {(centroid set, std): {k: mean over the GDLN seeds of the mean
    over epochs of (L_GDLN_k - seed-mean L_ReLU)^2 / L(0)^2}} from the GDLNs' losses (T, M) with
    ``members`` (k, std, seed, set) and the ReLU runs' losses (T, K) on the same grid."""
    loss, ref = np.asarray(loss, float), np.asarray(relu_loss, float).mean(1)
    if loss.shape[1] != len(members):
        raise InvalidArgument(f"loss has {loss.shape[1]} members, members lists {len(members)}")
    out = {}
    for m, (k, std, _, which) in enumerate(members):
        out.setdefault((which, std), {}).setdefault(k, []).append(
            float(np.mean((loss[:, m] - ref) ** 2)) / L0 ** 2)
    return {key: {k: float(np.mean(v)) for k, v in by_k.items()} for key, by_k in out.items()}


def crossover_check(equation, crossover, Delta, dps: int = 50):
    """(|lhs - rhs| of ``equation`` at the claimed crossover, evaluated at ``dps`` digits; sympy's
    roots of the equation)."""
    import mpmath
    import sympy as sp
    f = sp.lambdify(Delta, equation.lhs - equation.rhs, "mpmath")
    with mpmath.workdps(dps):
        gap = abs(f(mpmath.mpf(1) * sp.N(crossover, dps + 10)))
    return float(gap), sp.solve(equation, Delta)


def hierarchy_modes(prod, tt):
    """The mode strengths u_a' W2 W1 v_a (T, modes) of the first member's map ``prod`` (T, K, 7,
    4) on the 4-item hierarchy, the full projection (T, modes, modes), and its (S, D)."""
    from numerics.datasets import correlations, hierarchy, modes
    U, S, V, D, _ = modes(*correlations(*hierarchy(2)))
    P = np.asarray(prod, dtype=float)[:, 0]
    return np.einsum("ma,tmn,na->ta", U, P, V), np.einsum("ma,tmn,nb->tab", U, P, V), S, D


def fitted_modes(proj, tt, S, D):
    """Eq. (7) for every mode with pi_0 fitted to its half-rise time, and the largest deviation
    from the simulation after half that time, relative to the plateau."""
    from numerics.closed_forms import mode_strength
    curves, devs = [], []
    for a in range(proj.shape[1]):
        a0 = fit_a0(tt, proj[:, a], S[a], D[a])
        th = mode_strength(tt, S[a], D[a], a0)
        late = tt > crossing_time(proj[:, a], tt, 0.5 * S[a] / D[a]) / 2
        curves.append(th)
        devs.append(float(np.max(np.abs(proj[late, a] - th[late])) / (S[a] / D[a])))
    return np.stack(curves, 1), max(devs)


def learning_rule_error(sign: int, seed: int = 6) -> float:
    """MHS-A-Loss: max rel difference between ``sign * eps * dL/dW`` (autograd, 1/2-sum loss) and
    the App A right-hand sides eps P W2^T (Syx - W2 W1 Sx), eps P (Syx - W2 W1 Sx) W1^T."""
    if sign not in (1, -1):
        raise InvalidArgument(f"sign={sign!r} must be +1 or -1")
    import torch
    rng = np.random.default_rng(seed)
    P, d, h, m, eps = 9, 4, 3, 5, 0.01
    X, Y = rng.standard_normal((d, P)), rng.standard_normal((m, P))
    W1 = torch.tensor(rng.standard_normal((h, d)), requires_grad=True)
    W2 = torch.tensor(rng.standard_normal((m, h)), requires_grad=True)
    L = 0.5 * ((torch.tensor(Y) - W2 @ W1 @ torch.tensor(X)) ** 2).sum()
    g1, g2 = torch.autograd.grad(L, (W1, W2))
    syx, sx = Y @ X.T / P, X @ X.T / P
    w1, w2 = W1.detach().numpy(), W2.detach().numpy()
    E_ = syx - w2 @ w1 @ sx
    want = (eps * P * w2.T @ E_, eps * P * E_ @ w1.T)
    got = (sign * eps * g1.numpy(), sign * eps * g2.numpy())
    return max(float(np.abs(a - b).max() / np.abs(a).max()) for a, b in zip(got, want))


def nondiag_reduction_error(rhs1, rhs2, seed: int = 7, n: int = 4) -> float:
    """MHS-A-NonDiag: the rotated-frame gradient flow (R^T tau dW1 V, U^T tau dW2 R) against the
    reduced right-hand sides ``rhs1(W1b, W2b, M, D)``, ``rhs2(...)`` with M = S Vhat^T V, for
    general (non-diagonal) W1b, W2b and Sigma^yx, Sigma^x that do not share V.  Max rel error."""
    rng = np.random.default_rng(seed)
    U, Vh, V, R = (np.linalg.qr(rng.standard_normal((n, n)))[0] for _ in range(4))
    S, D = np.diag(rng.uniform(0.5, 2, n)), np.diag(rng.uniform(0.5, 2, n))
    W1b, W2b = rng.standard_normal((n, n)), rng.standard_normal((n, n))
    syx, sx = U @ S @ Vh.T, V @ D @ V.T
    W1, W2 = R @ W1b @ V.T, U @ W2b @ R.T
    E_ = syx - W2 @ W1 @ sx
    full1, full2 = R.T @ (W2.T @ E_) @ V, U.T @ (E_ @ W1.T) @ R
    M = S @ Vh.T @ V
    r1, r2 = rhs1(W1b, W2b, M, D), rhs2(W1b, W2b, M, D)
    return max(float(np.abs(full1 - r1).max() / np.abs(full1).max()),
               float(np.abs(full2 - r2).max() / np.abs(full2).max()))


def path_sum_error(forward, case) -> float:
    """MHS-Eq(1): max |forward(...)[v] - sum_{p in T(v)} g_p W_p x_{s(p)}| over the output nodes
    of ``case`` (``numerics.haste_slowly.graph.random_case``)."""
    from numerics.haste_slowly import graph as G
    g, W, x, _y, ng, eg = case
    h = forward(g, W, x, ng, eg)
    err = 0.0
    for v in g.outputs:
        total = sum(G.path_gate(g, p, ng, eg) * (G.path_product(W, p, g.sizes[g.source(p)])
                                                  @ x[g.source(p)])
                    for p in g.paths() if g.target(p) == v)
        err = max(err, float(np.max(np.abs(h[v] - total))))
    return err


def path_gradient_error(case, gate_stats=None) -> float:
    """MHS-Eq(3): max relative error of the path-form gradient (Eq. 3 with ``gate_stats``, Eq. 4
    by default) against autograd of the mean loss Eq. (2), over every edge of ``case``."""
    import torch

    from numerics.haste_slowly import graph as G
    g, W, x, y, ng, eg = case
    Wt = [torch.tensor(w, requires_grad=True) for w in W]
    loss = G.loss(g, Wt, {k: torch.tensor(v) for k, v in x.items()},
                  {k: torch.tensor(v) for k, v in y.items()}, torch.tensor(ng), torch.tensor(eg))
    auto = torch.autograd.grad(loss, Wt)
    err = 0.0
    for e in range(len(g.edges)):
        path = G.path_gradient(g, W, x, y, ng, eg, e, gate_stats or G.statistics)
        scale = max(np.abs(path).max(), np.abs(auto[e].numpy()).max(), 1e-300)
        err = max(err, float(np.max(np.abs(path + auto[e].numpy())) / scale))
    return err


def common_rise_errors(run, X, Y) -> dict:
    """MHS-F-Common for one C: the relative error of the 10%-90% rise time of the trained ReLN's
    common modes 1-3 (first seed) against Eq. (7) with the statistics as printed (Sigma* = Y X^T,
    with tau = 1/(N eps): N times the normalised S and D) and corrected ((1/N) Y X^T).  The rise
    time depends on the rate alone, not on pi_0."""
    from numerics.closed_forms import mode_strength
    from numerics.datasets import modes
    t = run.trajectory
    N = X.shape[1]
    tt = flow_times(t.time, N)
    U, S, V, D, _ = modes(Y @ X.T / N, X @ X.T / N)
    proj = np.einsum("ma,tmn,na->ta", U[:, :3], np.asarray(t.records["prod"])[:, 0, 0], V[:, :3])
    out = {}
    for name, scale in (("printed", N), ("corrected", 1)):
        a0 = fit_a0(tt, proj[:, 0], S[0] * scale, D[0] * scale)
        rises = [(rise_time(proj[:, a], tt, S[a] / D[a]),
                  rise_time(mode_strength(tt, S[a] * scale, D[a] * scale, a0), tt, S[a] / D[a]))
                 for a in range(3)]
        out[name] = max(abs(sim - th) / sim for sim, th in rises)
    return out


def contextual_closed_form_error(run, X, Y, C: int) -> float:
    """MHS-F-Closed for one C: the trained ReLN's mean top contextual singular value against the
    corrected closed form (B_0 fitted at 25% of K = (C-1) S/D): the larger relative deviation of
    the time to 75% of K and of the final value from K."""
    from numerics.haste_slowly.datasets import overlap_and_rho
    curves = reln_closed_form(run, X, Y, C)[1]
    _, _, S0, D0 = overlap_and_rho(X, Y, C)
    K = (C - 1) * S0[0] / D0
    sim, th, ep = curves["contextual simulated"], curves["contextual"], curves["epochs"]
    t_sim, t_th = crossing_time(sim, ep, 0.75 * K), crossing_time(th, ep, 0.75 * K)
    return max(abs(t_sim - t_th) / t_th, abs(sim[-1] - K) / K)


def linear_gdln_deviation(trajectory, delta: float, loss_22) -> float:
    """MHS-C-Eq(20-22): the 2-pathway linear GDLN's loss (first member; time t/tau) against
    Eq. (22) (``loss_22`` in a, Delta) at the mode law's strength, a0 fitted once from the time the
    loss crosses 1/4: max |dL| after the fifth record."""
    import sympy as sp

    from numerics.closed_forms import mode_strength
    from theory.haste_slowly import xor_margin as tx
    tt, L = np.asarray(trajectory.time, float), np.asarray(trajectory.loss, float)[:, 0]
    a_half = (1 - np.sqrt(2 * 0.25)) / delta
    k = int(np.argmax(L < 0.25))
    a0 = a_half / (np.exp(delta * tt[k]) * (1 - a_half * delta) + a_half * delta)
    pred = sp.lambdify((tx.a, tx.Delta), loss_22)(mode_strength(tt, delta / 2, delta ** 2 / 2, a0),
                                                  delta)
    return float(np.max(np.abs(pred[5:] - L[5:])))


def residual_correlations(tasks) -> dict:
    """For the least-squares residual R = Y - Y X^+ X of each (X, Y, C) of ``tasks``, the largest
    |R X_c^T| (context features), |R X^T| (every feature) and |Sigma^yx(not c) + Sigma^yx(only c)|
    on the item features (MHS-E-Resid, MHS-E4)."""
    out = {"context": 0.0, "all": 0.0, "mirror": 0.0}
    for X, Y, C in tasks:
        R = Y - Y @ np.linalg.pinv(X) @ X
        g = context_gates(C, [{c} for c in range(C)])
        out["context"] = max(out["context"], float(np.abs(R @ X[8:].T).max()))
        out["all"] = max(out["all"], float(np.abs(R @ X.T).max()))
        out["mirror"] = max([out["mirror"]] + [float(np.abs(R * g[c] @ X[:8].T
                                                            + R * (1 - g[c]) @ X[:8].T).max())
                                               for c in range(C)])
    return out


def fixed_point_reconstruction(X, Y, C: int) -> float:
    """max |sum_p of the gated contextual outputs U_p B* V^T x at B* = (C-1) S / D - the common
    pathway's residual| on the C-context data (App F's fixed point of the contextual race)."""
    C = _count(C, "C", 2)
    from numerics.haste_slowly.datasets import contextual_statistics, overlap_and_rho
    _, _, S0, D0 = overlap_and_rho(X, Y, C)
    syx, _ = contextual_statistics(X, Y, C)
    V0 = np.linalg.svd(syx[0])[2][:len(S0)].T
    G = context_gates(C, [set(range(C)) - {c} for c in range(C)])
    out = sum(((syx[p] @ V0 / S0) @ np.diag((C - 1) * S0 / D0) @ V0.T @ X[:8]) * G[p]
              for p in range(C))
    return float(np.abs(out - (Y - Y @ np.linalg.pinv(X) @ X)).max())


def criterion_times(delta, a0: float, modes, criterion: float = 0.2):
    """Flow times (t/tau) for the linear and the XoR GDLN to reach the loss ``criterion``: a mode
    (s, d) starting at ``a0`` reaching the share 1 - sqrt(2 L_c) of its plateau s/d (both losses
    are 1/2 (1 - a d/s)^2); ``modes(Delta)`` gives ((s, d) linear, (s, d) XoR) (App C)."""
    from numerics.closed_forms import hitting_time
    if not (np.isfinite(delta) and delta >= 0):
        raise InvalidArgument(f"delta={delta!r} must be finite and non-negative")
    if not 0 < criterion < 0.5:
        raise InvalidArgument(f"criterion={criterion!r} must lie in (0, 0.5): the loss starts at 1/2")
    rf = 1 - np.sqrt(2 * criterion)
    (s_l, d_l), (s_x, d_x) = modes(delta)
    t_lin = hitting_time(rf * s_l / d_l, s_l, d_l, a0) if delta > 0 else np.inf
    return float(t_lin), float(hitting_time(rf * s_x / d_x, s_x, d_x, a0))


def xor_outcomes(run, modes, criterion: float = 0.2, keep=None) -> dict:
    """Per seed, from a ``numerics.haste_slowly.xor.XorRun``: ``closer`` the mean over Delta of
    |T_ReLU - T_slower GDLN| - |T_ReLU - T_faster GDLN| (times to the loss criterion; a0 of the
    closed forms fitted once, to the ReLU's time at Delta = 0), ``switch`` the mean share of
    linear-gated large units above sqrt(2/3) minus below, and the arrays behind them; ``modes``
    as :func:`criterion_times`; ``keep`` (a mask over the Delta grid) restricts the means to part
    of the grid."""
    from scipy.optimize import brentq
    t, loss = np.asarray(run.trajectory.time, float), np.asarray(run.trajectory.loss, float)
    deltas = np.unique(run.delta)
    K = len(run.delta) // len(deltas)
    t_relu = first_time(t, loss, criterion, below=True).reshape(len(deltas), K)
    la = brentq(lambda la: criterion_times(0.0, 10 ** la, modes, criterion)[1] - t_relu[0].mean(), -14, -1)
    th = np.array([criterion_times(d, 10 ** la, modes, criterion) for d in deltas])
    fast, slow = th.min(1)[:, None], th.max(1)[:, None]
    closer = np.abs(t_relu - slow) - np.abs(t_relu - fast)
    big = run.mass > 0.05 * run.mass.max(axis=1, keepdims=True)
    pat = np.asarray(run.patterns, dtype=bool)
    linear = ((pat == [0, 1, 1, 0]).all(-1) | (pat == [1, 0, 0, 1]).all(-1)) & big
    share = (linear.sum(1) / np.maximum(big.sum(1), 1)).reshape(len(deltas), K)
    keep = np.ones(len(deltas), bool) if keep is None else np.asarray(keep, bool)
    above = deltas > np.sqrt(2 / 3)     # App C's crossover, Eq. (26)
    # at Delta = 0 the linear GDLN never learns: no slower time to be nearer or farther from
    both = keep & np.isfinite(slow[:, 0])
    return {"closer": np.mean(closer[both], axis=0),
            "switch": share[above & keep].mean(0) - share[~above & keep].mean(0),
            "t_relu": t_relu, "t_gdln": th, "linear share": share, "deltas": deltas,
            "a0": 10 ** la, "reached": bool(np.all(np.isfinite(t_relu)))}


def criterion_crossover(a0: float, modes, criterion: float = 0.2) -> float:
    """The Delta where the linear and the XoR GDLN reach the loss criterion at the same time from
    the same raw a0 (the catalogue's exact time-to-criterion crossover)."""
    from scipy.optimize import brentq
    return brentq(lambda dl: np.subtract(*criterion_times(dl, a0, modes, criterion)), 0.5, 3.0,
                  xtol=1e-12)


# ------------------------------------------------------------------ App A: linear networks


def half_rise_epochs(prod, tt, times, X, Y, n_modes: int = 4):
    """The epochs at which the common pathway's top ``n_modes`` modes (u_a' W2 W1 v_a of the
    first seed's ``prod`` (T, K, modules, m, d)) reach half their plateau, and those of Eq. (7)
    with one pi_0 fitted to the top mode (flow times ``tt``)."""
    from numerics.closed_forms import mode_strength
    from numerics.datasets import modes
    N = X.shape[1]
    U, S, V, D, _ = modes(Y @ X.T / N, X @ X.T / N)
    common = np.einsum("ma,tmn,na->ta", U[:, :n_modes], np.asarray(prod)[:, 0, 0], V[:, :n_modes])
    a0 = fit_a0(tt, common[:, 0], S[0], D[0])
    theory = np.stack([mode_strength(tt, S[a], D[a], a0) for a in range(n_modes)], 1)
    return ([crossing_time(common[:, a], times, 0.5 * S[a] / D[a]) for a in range(n_modes)],
            [crossing_time(theory[:, a], times, 0.5 * S[a] / D[a]) for a in range(n_modes)])


def pathway_leak(outs, gates, unit_module, Y):
    """For a trained Sec 4 ReLN's pathway outputs ``outs`` (modules, m, N): the smallest largest
    |output| a contextual pathway writes into a context block whose target is 0 on datapoints
    where it is on, and ||sum of the contextual outputs - the common pathway's residual|| /
    ||residual||."""
    from numerics.haste_slowly.datasets import context_of
    ctx = context_of(3)
    leak = min(float(np.abs(outs[m][15 + 15 * c:30 + 15 * c][:, ctx == cp]).max())
               for m in range(1, 4) for cp in range(3) for c in range(3)
               if c != cp and gates[unit_module == m][0][ctx == cp].all())
    resid = Y - outs[0]
    return leak, float(np.linalg.norm(sum(outs[1:]) - resid) / np.linalg.norm(resid))


def task_facts(X, Y) -> dict:
    """Facts of the Sec 4 task: one-hot item (+) context inputs, the number of distinct (item,
    context) pairs, whether each context block of Y is zero off its context, L(0) and the
    least-squares plateau 1/2 ||Y - Y X^+ X||^2."""
    from numerics.haste_slowly.datasets import context_of
    ctx = context_of(3)
    return {"one-hot": bool((X[:8].sum(0) == 1).all() and (X[8:].sum(0) == 1).all()),
            "pairs": len({(int(np.argmax(X[:8, i])), int(np.argmax(X[8:, i])))
                          for i in range(X.shape[1])}),
            "own blocks": bool(all(np.all(Y[15 + 15 * c:30 + 15 * c][:, ctx != c] == 0)
                                   for c in range(3))),
            "L0": zero_output_loss(Y), "plateau": zero_output_loss(Y - Y @ np.linalg.pinv(X) @ X)}


def reln_layout(gates, mask, unit_module) -> tuple[bool, bool]:
    """Whether a Sec 4 ReLN's pathway 0 is always on and sees every input, and whether pathways
    1-3 are each off in exactly one context and see the items only."""
    from numerics.haste_slowly.datasets import context_of
    ctx = context_of(3)
    common = bool((gates[unit_module == 0] == 1).all() and (mask[unit_module == 0] == 1).all())
    contextual = all(
        len([c for c in range(3) if not gates[unit_module == m][0][ctx == c].any()]) == 1
        and bool((mask[unit_module == m][:, 8:] == 0).all()) for m in range(1, 4))
    return common, contextual


def change_of_variables_error(seed: int = 8, m: int = 6, d: int = 5, h: int = 4, r: int = 3):
    """MHS-A-CoV: max |full flow - its reduced form| for W2 = U W2bar R^T, W1 = R W1bar V^T with
    diagonal W1bar, W2bar and non-square orthonormal U (m x r), V (d x r), R (h x r): the flow's
    W2^T E and E W1^T against R[W2bar(S - W2bar W1bar D)]V^T and U[W1bar(...)]R^T."""
    if not 0 < r <= min(m, d, h):
        raise InvalidArgument(f"r={r!r} must lie in [1, min(m, d, h)]")
    rng = np.random.default_rng(seed)
    U, V, R = (np.linalg.qr(rng.standard_normal((k, r)))[0] for k in (m, d, h))
    S, D = np.diag(rng.uniform(0.5, 2, r)), np.diag(rng.uniform(0.5, 2, r))
    w1, w2 = np.diag(rng.uniform(0.1, 1, r)), np.diag(rng.uniform(0.1, 1, r))
    W1, W2 = R @ w1 @ V.T, U @ w2 @ R.T
    err = U @ S @ V.T - W2 @ W1 @ V @ D @ V.T
    return float(max(np.abs(W2.T @ err - R @ (w2 @ (S - w2 @ w1 @ D)) @ V.T).max(),
                     np.abs(err @ W1.T - U @ (w1 @ (S - w2 @ w1 @ D)) @ R.T).max()))


def always_on_shares(gates, mass):
    """Per run, of the units of one layer (final ``gates`` (K, units, N), ``mass`` (K, units)):
    the share of the units carrying weight (> 1% of the largest mass) that are on for every
    datapoint, and the share of the weight mass on units on for every datapoint."""
    gates, mass = np.asarray(gates, dtype=bool), finite_array(mass, "mass")
    if gates.shape[:2] != mass.shape:
        raise InvalidArgument(f"gates {gates.shape} and mass {mass.shape} disagree")
    always = gates.all(-1)
    big = mass > 0.01 * mass.max(axis=1, keepdims=True)
    return ((always & big).sum(1) / big.sum(1),
            np.array([mass_shares(always[k].astype(int), mass[k], (1,))[1]
                      for k in range(len(mass))]))


def aligned_gap(a, b, L0: float) -> tuple[float, float]:
    """Every seed's loss curve of trajectories ``a`` and ``b`` taken from its own contextual onset
    (:func:`onsets`) over the window all share: (mean over epochs of |seed-mean b - seed-mean a|
    / L(0), mean over seeds and epochs of |a_k - seed-mean a| / L(0)); (inf, 0) when a run never
    starts or the shared window is shorter than a record."""
    L0 = _scale(L0, "L0")
    ctx_a, ctx_b = onsets(a)[1], onsets(b)[1]
    every = float(np.diff(np.asarray(a.time, float)[:2])[0])
    if not np.all(np.isfinite(np.r_[ctx_a, ctx_b])):
        return np.inf, 0.0
    width = float(min(np.asarray(a.time)[-1] - ctx_a.max(), np.asarray(b.time)[-1] - ctx_b.max()))
    if width <= every:
        return np.inf, 0.0
    R = aligned_curves(a, ctx_a, width, every) / L0
    G = aligned_curves(b, ctx_b, width, every) / L0
    return (float(np.mean(np.abs(G.mean(1) - R.mean(1)))),
            float(np.mean(np.abs(R - R.mean(1, keepdims=True)))))



def stereotypical_distances(a, b, L0: float):
    """Mean over epochs of |stereotypical a - stereotypical b| / L(0) (:func:`stereotypical`), and
    the same distance of every other run of ``a`` from the stereotypical a; losses (T, K)."""
    R, G = _curves(a, "a") / _scale(L0, "L0"), _curves(b, "b") / L0
    r, g = stereotypical(R), stereotypical(G)
    return (float(np.mean(np.abs(R[:, r] - G[:, g]))),
            np.mean(np.abs(np.delete(R, r, axis=1) - R[:, r:r + 1]), axis=0))


def rdm_series(Ha, Hb, idx, same: bool = False) -> np.ndarray:
    """:func:`rdm_correlation` of the hidden activities (T, K, H, N) at the record indices ``idx``."""
    return np.array([rdm_correlation(Ha[i], Hb[i], same) for i in idx])


def context_specific_units(patterns, mass, C: int, majority: float = 0.0):
    """Of final ReLU units (``patterns`` (K, H, 8C), ``mass`` (K, H)): the number of contexts each
    serves (:func:`context_usage`), the count per run of units carrying weight (> 1% of the
    largest mass) that serve exactly one, and each run's weight share per number of contexts."""
    usage = context_usage(patterns, C, majority)
    mass = finite_array(mass, "mass")
    big = mass > 0.01 * mass.max(axis=1, keepdims=True)
    return (usage, ((usage == 1) & big).sum(1),
            [mass_shares(usage[k], mass[k], range(C + 1)) for k in range(len(mass))])



def gates_off_output(case) -> float:
    """The largest |output| of a random GDLN (``graph.random_case``) with every node gate 0."""
    from numerics.haste_slowly import graph as G
    g, W, x = case[:3]
    N = x[g.inputs[0]].shape[1]
    h = G.forward(g, W, x, np.zeros((len(g.sizes), N)), np.ones((len(g.edges), N)))
    return max(float(np.abs(h[v]).max()) for v in g.outputs)


def loss_residual(case) -> float:
    """|Eq. (2) - 1/(2N) sum of squared output errors| of a random GDLN (``graph.random_case``)."""
    from numerics.haste_slowly import graph as G
    g, W, x, y, ng, eg = case
    h = G.forward(g, W, x, ng, eg)
    direct = sum(np.sum((y[v] - h[v]) ** 2) for v in g.outputs) / (2 * ng.shape[1])
    return abs(G.loss(g, W, x, y, ng, eg) - direct)


def offdiagonal(tasks) -> dict:
    """{name: the largest |off-diagonal| of V^T Sigma^x V in the common pathway's basis} of
    ``tasks`` {name: (X, Y)} (Asm 2.1: zero when the statistics are mutually diagonalisable)."""
    from numerics.datasets import modes
    return {k: modes(Y @ X.T / X.shape[1], X @ X.T / X.shape[1])[4] for k, (X, Y) in tasks.items()}


def equivalence_errors(runs) -> dict:
    """{sizes: (max |dW| of the recomputed-gate GDLN from the ReLU net, the same for gates fixed
    at init, gate flips)} from ``equivalence.equivalence_runs``."""
    return {k: (max(float((a[0] - b).abs().max()) for a, b in zip(dyn, ref)),
                max(float((a[0] - b).abs().max()) for a, b in zip(fix, ref)), flips)
            for k, (ref, dyn, fix, flips) in runs.items()}



def context_task_facts(Cs) -> dict:
    """Of the released C-context tasks, C in ``Cs``: whether X is (8 + C, 8C) and Y (15 (C + 1),
    8C), and the largest |L(0) - 32 C| and |least-squares plateau - (C-1) 17/2|."""
    from numerics.haste_slowly.datasets import contexts
    data = {C: contexts(C) for C in Cs}
    return {"shapes": all(X.shape == (8 + C, 8 * C) and Y.shape == (15 * (C + 1), 8 * C)
                          for C, (X, Y) in data.items()),
            "L0": max(abs(zero_output_loss(Y) - 32 * C) for C, (X, Y) in data.items()),
            "plateau": max(abs(zero_output_loss(Y - Y @ np.linalg.pinv(X) @ X) - (C - 1) * 17 / 2)
                           for C, (X, Y) in data.items())}


def linearly_separable(delta: float) -> bool:
    """LP: is there w with y_i w.x_i >= 1 for the four XoR-with-margin points (bias-free linear
    separation)?"""
    from scipy.optimize import linprog

    from numerics.haste_slowly.datasets import xor_margin
    X, y = xor_margin(delta)
    return linprog(np.zeros(3), A_ub=-(y * X).T, b_ub=-np.ones(4),
                   bounds=[(None, None)] * 3).status == 0


def time_course_values(s: float, a0: float, f: float, ds_) -> tuple:
    """For a mode (s, d) from ``a0``, per d in ``ds_``: the numeric time to the share ``f`` of its
    plateau, and the fitted exponential rate of its late approach (t in [12, 16])."""
    s, a0, f = _scale(s, "s"), _scale(a0, "a0"), _scale(f, "f")
    from numerics.closed_forms import hitting_time, mode_strength
    tt = np.linspace(12, 16, 5)
    return ([float(hitting_time(f * s / d, s, d, a0)) for d in ds_],
            [np.polyfit(tt, np.log(s / d - mode_strength(tt, s, d, a0)), 1)[0] for d in ds_])


def cross_modes(full, S, times, after: float) -> float:
    """max |u_a' W v_b| between modes with distinct singular values (degenerate ones split
    arbitrarily) at the times past ``after``; ``full`` (T, modes, modes)."""
    distinct = np.abs(S[:, None] - S[None, :]) > 1e-9
    if not np.any(np.asarray(times) > after):
        raise InvalidArgument(f"after={after!r} is past the last record ({np.max(times):g}): no record to read")
    return float(np.max(np.abs(np.asarray(full)[np.asarray(times) > after][:, distinct])))


def detectable_effect(n1: int, n2: int, level: float = 0.05, power: float = 0.8) -> float:
    """Cohen's d that a one-sided two-sample t-test at ``level`` detects
    with probability ``power`` from ``n1`` and ``n2`` seeds (noncentral t): the power statement
    of a claim about a distribution decided on that many seeds."""
    if min(n1, n2) < 2 or not 0 < power < 1 or not 0 < level < 1:
        raise InvalidArgument(f"n1={n1}, n2={n2} must be >= 2, level={level} and power={power} in "
                              "(0, 1)")
    df = n1 + n2 - 2
    crit = stats.t.ppf(1 - level, df)
    scale = np.sqrt(n1 * n2 / (n1 + n2))
    lo, hi = 0.0, 50.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if stats.nct.sf(crit, df, mid * scale) < power else (lo, mid)
    return hi


def cohen_d(a, b) -> float:
    """(mean b - mean a) / pooled s.d. of two samples of at least two values each (inf where both
    are constant)."""
    a, b = finite_array(a, "a", ndim=1), finite_array(b, "b", ndim=1)
    if min(a.size, b.size) < 2:
        raise InvalidArgument(f"a and b need at least two values each, got {a.size} and {b.size}")
    pooled = np.sqrt(((a.size - 1) * a.var(ddof=1) + (b.size - 1) * b.var(ddof=1))
                     / (a.size + b.size - 2))
    return float((b.mean() - a.mean()) / pooled) if pooled > 0 else float("inf")


# ------------------------------------------------------------------ Sec 6: depth (L162-L171)

S6_WORDS = ("the ReLU network does not use the first layer for gating and instead all neurons are "
            "active for all datapoints")
