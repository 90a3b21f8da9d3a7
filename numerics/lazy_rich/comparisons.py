"""Errors of the LR- formulas against runs: each function takes the formula under test (a sympy
object or a callable closed form) first, evaluates it on a case of :mod:`numerics.lazy_rich.experiments`
and returns the distance to the reference (a flow, GD, a Monte Carlo sample).  A number, never a
verdict: ``verify`` holds it to a criterion, and ``tests/lazy_rich/test_perturbations.py`` shows the
same function rejects a perturbed formula.  Time is t/tau (tau = 1/lr, 1/2-mean loss).
"""
from __future__ import annotations

import functools

import numpy as np
import sympy as sp

from numerics.lazy_rich import experiments as xp
from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.closed_forms import compiled
from numerics.lazy_rich.experiments import mode_function
from numerics.metrics import rel_err
from numerics.lazy_rich.init import balance, lambda_balanced_init, random_orthogonal
from numerics.lazy_rich.tasks import random_task
from theory.lazy_rich import applications as ap
from theory.lazy_rich import exact_solution as exact_sol
from theory.lazy_rich import random_init as ri
from theory.lazy_rich import symbols as sy


@functools.lru_cache(maxsize=64)
def _riccati_function(rhs, size: int):
    """``rhs`` (sympy in the MatrixSymbols F, QQ^T of size n) compiled for n = ``size``."""
    F, QQ = sp.MatrixSymbol("F_", size, size), sp.MatrixSymbol("QQ_", size, size)
    return sp.lambdify([F, QQ], rhs.xreplace({exact_sol.F: F, exact_sol.QQ: QQ, exact_sol.n: size}), "numpy")


def riccati_residual(rhs, task, W1, W2, lam: float) -> float:
    """tau d(QQ^T)/dt (from the weight flow) minus ``rhs`` (sympy in F, QQ^T), relative to the size
    of the terms max(|F QQ^T|, |(QQ^T)^2|) (a zero left side is then no 0/0)."""
    E = task.syx - W2 @ W1 @ task.sxx
    Q = np.concatenate([W1.T, W2])
    dQ = np.concatenate([(W2.T @ E).T, E @ W1.T])
    F, QQ = so.f_matrix(task.syx, lam), Q @ Q.T
    right = _riccati_function(rhs, F.shape[0])(F, QQ)
    size = max(np.max(np.abs(F @ QQ)), np.max(np.abs(QQ @ QQ)), 1e-300)
    return float(np.max(np.abs(dQ @ Q.T + Q @ dQ.T - right)) / size)


def eigen_error(spectrum_fn, task, lam: float) -> float:
    """max(||P^T P - I||, ||F - P Gamma P^T|| / ||F||) for ``spectrum_fn(svd, lam)``."""
    spc = spectrum_fn(task.svd, lam)
    F = so.f_matrix(task.syx, lam)
    orth = np.max(np.abs(spc.P.T @ spc.P - np.eye(F.shape[0])))
    recon = np.max(np.abs(F - spc.P @ np.diag(spc.gamma) @ spc.P.T)) / max(np.max(np.abs(F)), 1e-300)
    return float(max(orth, recon))


def solution_error(solution, task, W1, W2, lam: float, t_eval) -> tuple[float, float]:
    """(max rel err of ``solution(t, W1, W2, svd, lam)`` vs the integrated flow, balance drift)."""
    W1t, W2t, drift = xp.integrate(task, W1, W2, t_eval)
    return rel_err(solution(t_eval, W1, W2, task.svd, lam), so.qq_from_weights(W1t, W2t)), drift


def printed_theorem_value(expr, t: float, W1, W2, svd, lam: float) -> np.ndarray:
    """The printed sympy Theorem 4.3 (matrix expression) evaluated by substitution at one time."""
    spc = so.spectrum(svd, lam)
    m, k = len(svd.s), svd.U_perp.shape[1]
    mu, lp = spc.s_lam, spc.lam_perp

    def M(a):
        return sp.ImmutableMatrix(np.atleast_2d(a))
    values = {
        exact_sol.Vt: M(svd.V), exact_sol.Ut: M(svd.U), exact_sol.W1_0: M(W1), exact_sol.W2_0: M(W2),
        exact_sol.Gm: M(np.diag(spc.g * (1 - spc.h))), exact_sol.Gp: M(np.diag(spc.g * (1 + spc.h))),
        exact_sol.Ep: M(np.diag(np.exp(mu * t))), exact_sol.Em: M(np.diag(np.exp(-mu * t))),
        exact_sol.Ap: M(np.diag(np.expm1(2 * mu * t) / (4 * mu))), exact_sol.Am: M(np.diag(np.expm1(-2 * mu * t) / (4 * mu))),
        exact_sol.ep: np.exp(lp * t), exact_sol.ap: (np.expm1(2 * lp * t) / (2 * lp)) if lp != 0 else t,
        exact_sol.Ni: svd.n_in, exact_sol.No: svd.n_out, exact_sol.Nh: m, exact_sol.m: m, exact_sol.k: max(k, 1),
    }
    if k:
        values[exact_sol.Vp], values[exact_sol.Up] = M(svd.V_perp), M(svd.U_perp)
    else:
        values[exact_sol.Vp], values[exact_sol.Up] = sp.zeros(svd.n_in, 1), sp.zeros(svd.n_out, 1)
    return np.array(sp.Matrix(sp.block_collapse(expr.subs(values)).doit()).evalf(), dtype=float)


def aligned_mode_error(trajectory, n_in, n_out, s_task, s0, lam, t_eval, seed=0) -> tuple[float, float]:
    """(max rel err of the per-mode formula vs the full matrix flow, max off-diagonal of U~^T W2W1 V~)."""
    task, W1, W2 = xp.aligned_problem(n_in, n_out, s_task, s0, lam, seed)
    W1t, W2t, _ = xp.integrate(task, W1, W2, t_eval)
    M = np.swapaxes(task.svd.U, 0, 1) @ (W2t @ W1t) @ task.svd.V
    diag = np.diagonal(M, axis1=1, axis2=2)
    off = np.max(np.abs(M - np.einsum("ti,ij->tij", diag, np.eye(M.shape[1]))))
    pred = mode_function(trajectory)(lam, task.svd.s[None], np.asarray(s0)[None], t_eval[:, None], 1.0)
    return rel_err(diag, pred), float(off)


def aligned_gd_deviation(trajectory, s_task, s0, lams, lr, steps, every, seed=40):
    """Batched GD of aligned inits (4,3,3) vs the per-mode formula: (times, sim (T, K, m), pred, max dev / s~_max)."""
    from numerics.lazy_rich.training import train_linear
    probs = [xp.aligned_problem(4, 3, s_task, s0, lam, seed=seed) for lam in lams]
    task = probs[0][0]
    hist = train_linear(np.stack([p[1] for p in probs]), np.stack([p[2] for p in probs]), task.X, task.Y,
                        lr=lr, steps=steps, record_every=every)
    t = hist.time
    sim = np.diagonal(task.svd.U.T @ (hist.records["W2"] @ hist.records["W1"]) @ task.svd.V, axis1=-2, axis2=-1)
    f = mode_function(trajectory)
    pred = np.stack([f(lam, task.svd.s[None], np.asarray(s0)[None], t[:, None], 1.0) for lam in lams], axis=1)
    return t, task, sim, float(np.max(np.abs(sim - pred)) / np.max(s_task))


def init_variable_error(init_fn, task, W1, W2, lam: float) -> float:
    """LR-Eq10-12: || Q0^T P - [B/sqrt2, -C/sqrt2, D] || relative, for ``init_fn(W1, W2, spectrum)``."""
    spc = so.spectrum(task.svd, lam)
    B, C, D = init_fn(W1, W2, spc)
    Q0 = np.concatenate([W1.T, W2])
    return rel_err(Q0.T @ spc.P, np.concatenate([B / np.sqrt(2), -C / np.sqrt(2), D], axis=1))


def weight_recovery_error(S1, S2, W1t, W2t, lam: float) -> float:
    """LR-Thm5.2: with R := W1 V S1^{-1}, max(||R^T R - I||, ||W2 - U S2 R^T||) over the given weights."""
    f1, f2 = (compiled((sy.lam, sy.sn), e) for e in (S1, S2))
    worst = 0.0
    for A, Bm in zip(W1t, W2t):
        U, s, Vt = np.linalg.svd(Bm @ A, full_matrices=False)
        R = A @ Vt.T / f1(lam, s)
        worst = max(worst, np.max(np.abs(R.T @ R - np.eye(len(s)))), rel_err(Bm, (U * f2(lam, s)) @ R.T))
    return float(worst)


def converged_gram_error(gram_in, gram_out, task, W1, W2, lam: float) -> float:
    """LR-ThmC.3: stable form far in time vs W2W1 -> Syx and the per-mode Gram limits given."""
    spc = so.spectrum(task.svd, lam)
    t_end = 30 / np.min(spc.s_lam - spc.lam_perp)
    b = so.blocks(so.qq_stable([t_end], W1, W2, task.svd, lam)[0], task.svd.n_in)
    gi, go = xp.converged_grams(task, lam, gram_in, gram_out)
    return max(rel_err(b["W2W1"], task.syx), rel_err(b["W1tW1"], gi), rel_err(b["W2W2t"], go))


def ntk_formula_error(gram_in, gram_out, X, W1t, W2t, lam: float) -> float:
    """LR-ThmC.5 (1): NTK from the per-mode Grams of W2W1's SVD vs the NTK of the weights."""
    gi, go = mode_function(gram_in), mode_function(gram_out)
    worst = 0.0
    for A, Bm in zip(W1t, W2t):
        U, s, Vt = np.linalg.svd(Bm @ A, full_matrices=False)
        K = kn.ntk_from_grams((Vt.T * gi(lam, s, 0, 0, 1)) @ Vt, (U * go(lam, s, 0, 0, 1)) @ U.T, X)
        worst = max(worst, rel_err(K, kn.ntk(A, Bm, X)))
    return float(worst)


def noise_z(formula, subs: dict, losses) -> float:
    """Monte Carlo z-score of ``formula`` (sympy, evaluated with ``subs``) against sampled losses."""
    losses = np.asarray(losses)
    predicted = float(sp.sympify(formula).subs(subs))
    return float((losses.mean() - predicted) / (losses.std() / np.sqrt(losses.size)))


def forgetting_error(formula, tasks, ends, n) -> float:
    """LR-D.1: max |L_i(end of k) - L_i(end of j) - formula(S_i, S_j, S_k)| over i and consecutive j -> k."""
    sig = [sp.ImmutableMatrix(t.syx) for t in tasks]
    worst = 0.0
    for i in range(len(tasks)):
        for j in range(len(ends) - 1):
            measured = tasks[i].loss(ends[j + 1]) - tasks[i].loss(ends[j])
            value = float(sp.sympify(formula).subs({ap.Si: sig[i], ap.Sj: sig[j], ap.Sk: sig[j + 1], ap.n: n}).doit())
            worst = max(worst, abs(measured - value))
    return worst


def lazy_limit_sups(gamma, lazy, lams, s=1.0, s0=0.05) -> np.ndarray:
    """sup_t |gamma - lazy| over 12 e-folds of |lambda| t, per lambda."""
    g, z = mode_function(gamma), mode_function(lazy)
    out = []
    for lam in lams:
        t = np.linspace(0, 12 / abs(lam), 4001)
        out.append(np.max(np.abs(g(lam, s, s0, t, 1.0) - z(lam, s, s0, t, 1.0))))
    return np.array(out)


def lazy_limit_slope(gamma, lazy, s=1.0, s0=0.05) -> float:
    """Log-log slope of sup_t |gamma - lazy| at |lambda| = 10, 100, 1000."""
    sups = lazy_limit_sups(gamma, lazy, (10.0, 100.0, 1000.0), s, s0)
    return float(np.polyfit(np.log([10, 100, 1000]), np.log(sups), 1)[0])


def balance_moments(mean_expr, pref_expr, dims, var1: float, var2: float, draws: int, seed: int) -> dict:
    """LR-ThmA.3 / Tab1: Monte Carlo of W2^T W2 - W1 W1^T for Gaussian layers: z-score of the mean
    diagonal against ``mean_expr`` and the pooled diagonal / off-diagonal variances over ``pref_expr``."""
    n_in, n_hid, n_out = dims
    bal = xp.sample_balance(n_in, n_hid, n_out, var1, var2, draws, seed)
    subs = {sy.n_in: n_in, sy.n_hid: n_hid, sy.n_out: n_out, ri.var1: var1, ri.var2: var2}
    mean, pref = float(sp.sympify(mean_expr).subs(subs)), float(sp.sympify(pref_expr).subs(subs))
    diag = np.einsum("kii->ki", bal)
    iu = np.triu_indices(n_hid, 1)
    off = bal[:, iu[0], iu[1]]
    return {"z_mean": float((diag.mean() - mean) / (diag.std() / np.sqrt(diag.size))), "mean": float(diag.mean()),
            "predicted_mean": mean, "diag_ratio": float(diag.var(axis=0, ddof=1).mean() / pref),
            "off_ratio": float(off.var(axis=0, ddof=1).mean() / pref)}


def late_rate(rate_expr, n_in: int, n_out: int, lam: float, seed: int = 8) -> tuple[float, float]:
    """LR-ThmC.6: (fitted late decay rate of ||W2W1 - Syx|| (stable form), min_i rate_expr(s~_i, lam))."""
    task = random_task(n_in, n_out, 8, np.random.default_rng(seed))
    W1, W2 = lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, np.random.default_rng(seed + 1), scale=0.2)
    spc = so.spectrum(task.svd, lam)
    slow = np.min(spc.s_lam - spc.lam_perp)
    t = np.linspace(8 / slow, 14 / slow, 7)
    fn = so.blocks(so.qq_stable(t, W1, W2, task.svd, lam), n_in)["W2W1"]
    fitted = -np.polyfit(t, np.log(np.linalg.norm(fn - task.syx, axis=(1, 2))), 1)[0]
    predicted = float(np.min(compiled((sy.lam, sy.s), rate_expr)(lam, task.svd.s)))
    return float(fitted), predicted


def reversal_curve(formula, lam, s, s0, t):
    """A per-mode reversal formula (d = -1) in (lam, s~, t, tau, s1, s2, d) evaluated from s(0) = -s0."""
    s1 = np.sqrt((np.sqrt(lam ** 2 + 4 * s0 ** 2) - lam) / 2)
    s2 = np.sqrt((np.sqrt(lam ** 2 + 4 * s0 ** 2) + lam) / 2)
    # lambda = 0 is the removable singularity of H~ = (sqrt(lam^2 + 4 s^2) - 2 s)/lam: evaluate at 1e-12 (H ~ 2.5e-13)
    lam_eval = lam if lam != 0 else 1e-12
    f = compiled((sy.lam, sy.s, sy.t, sy.tau, ap.s1, ap.s2, ap.d), formula)
    return f(lam_eval, s, t, 1.0, s1, s2, -1.0)


def reversal_error(formula, lams=(-1.0, 0.0, 0.3, 3.0), t=None) -> float:
    """LR-D.2: max |formula - reversed mode of the full matrix flow| over ``lams``."""
    t = np.linspace(0, 10, 11) if t is None else t
    worst = 0.0
    for lam in lams:
        task, W1, W2 = xp.reversal_problem(lam)
        W1t, W2t, _ = xp.integrate(task, W1, W2, t)
        sim = xp.reversed_mode(task, W1t, W2t)
        worst = max(worst, float(np.max(np.abs(sim - reversal_curve(formula, lam, 1.0, 0.5, t)))))
    return worst


def ntk_jacobian_error(ntk_fn, W1, W2, X) -> float:
    """LR-Eq5: ``ntk_fn(W1, W2, X)`` vs J J^T of the explicit Jacobian (torch.func.jacrev), output-major."""
    import torch
    Xt = torch.tensor(X)

    def f(w1, w2):
        return (w2 @ w1 @ Xt).reshape(-1)
    J1, J2 = torch.func.jacrev(f, argnums=(0, 1))(torch.tensor(W1), torch.tensor(W2))
    J = torch.cat([J1.reshape(J1.shape[0], -1), J2.reshape(J2.shape[0], -1)], dim=1).numpy()
    return rel_err(ntk_fn(W1, W2, X), J @ J.T)


def gram_limit_distances(gram_in, gram_out, lams=(20.0, 80.0), seed=1) -> dict:
    """LR-ThmC.4: per architecture and lambda, the converged Grams' distances
    (||W2W2^T/lam - I||, ||W1^TW1/lam - I|| at -lam, ||W2W2^T/lam - U~U~^T||, ||W1^TW1/lam - V~V~^T|| at -lam)."""
    dist = {}
    for name, (ni, no) in xp.ARCHS.items():
        task = random_task(ni, no, 8, np.random.default_rng(seed))
        for lam in lams:
            _, go = xp.converged_grams(task, lam, gram_in, gram_out)
            gi, _ = xp.converged_grams(task, -lam, gram_in, gram_out)
            dist[name, lam] = (np.linalg.norm(go / lam - np.eye(no)), np.linalg.norm(gi / lam - np.eye(ni)),
                               np.linalg.norm(go / lam - task.svd.U @ task.svd.U.T),
                               np.linalg.norm(gi / lam - task.svd.V @ task.svd.V.T))
    return dist


def representation_stats(gram_in, gram_out, task, lams, W1s, W2s, W1T, W2T) -> dict:
    """LR-Sec5-Rep-claims on trained hierarchy nets (``lams`` balanced, then a large Gaussian one):
    sim_err -- trained Grams vs the per-mode formulas; rsm_gap -- RSM_O vs RSM_I (Eq. 4);
    rsm_out_to_eye, gram_out_to_eye -- normalised distance to I at lambda = max(lams) of RSM_O and W2W2^T;
    struct -- ||lam W1^TW1 - V~S~^2V~^T|| / ||S~^2|| at max(lams); keep, to_task -- kernel distance of the
    large init's final W1^TW1 to its initial Gram and to V~S~V~^T; lazy_big, rich_small -- NTK movement."""
    n = task.svd.n_in
    sim_err, rsm_gap = [], []
    for k, lam in enumerate(lams):
        gi, go = xp.converged_grams(task, lam, gram_in, gram_out)
        sim_err.append(max(rel_err(W1T[k].T @ W1T[k], gi), rel_err(W2T[k] @ W2T[k].T, go)))
        rsm_gap.append(rel_err(kn.rsm_out(W2T[k], task.Y), kn.rsm_in(W1T[k], task.X)))
    top = max(lams)
    k_top, k0, big = list(lams).index(top), list(lams).index(0.0), len(lams)
    gi, go = xp.converged_grams(task, top, gram_in, gram_out)
    ro = kn.rsm_out(W2T[k_top], task.Y)
    final_gram = W1T[big].T @ W1T[big]
    return dict(
        sim_err=max(sim_err), rsm_gap=np.array(rsm_gap), top=top,
        rsm_out_to_eye=float(np.linalg.norm(ro / (np.trace(ro) / n) - np.eye(n))),
        gram_out_to_eye=float(np.linalg.norm(go / (np.trace(go) / n) - np.eye(n))),
        struct=float(np.linalg.norm(top * gi - (task.svd.V * task.svd.s ** 2) @ task.svd.V.T) / np.linalg.norm(task.svd.s ** 2)),
        keep=float(kn.kernel_distance(final_gram, W1s[big].T @ W1s[big])),
        to_task=float(kn.kernel_distance(final_gram, (task.svd.V * task.svd.s) @ task.svd.V.T)),
        lazy_big=float(kn.kernel_distance(kn.ntk(W1s[big], W2s[big], task.X), kn.ntk(W1T[big], W2T[big], task.X))),
        rich_small=float(kn.kernel_distance(kn.ntk(W1s[k0], W2s[k0], task.X), kn.ntk(W1T[k0], W2T[k0], task.X))))


def no_invertibility_errors(solution) -> dict:
    """LR-A.2-claims for a closed form ``solution(t, W1, W2, svd, lam)`` of QQ^T:
    'singular B' -- rel err vs the ODE for a square lambda = 0 net with a reversed mode (B singular);
    'zero function' -- rel err vs the ODE from W1 = 0, W2 = sqrt(1.5) O (lambda = 1.5);
    'learns' -- rel distance of its W2W1 at t/tau = 20 from Syx (the transient has decayed by
    e^{-2 x 0.78 x 20} ~ 3e-14); 'fixed point' -- max |QQ^T(t)| from W1 = W2 = 0 at lambda = 0.
    A form that needs B^{-1} (raises LinAlgError) scores inf."""
    task = random_task(4, 4, 8, np.random.default_rng(20))
    U, V = task.svd.U, task.svd.V
    W1, W2 = 0.3 * V.T, U @ np.diag([-0.3, 0.3, 0.3, 0.3])
    Z2 = np.sqrt(1.5) * random_orthogonal(4, np.random.default_rng(21))
    zero = np.zeros((4, 4))
    out = {"cond B": float(np.linalg.cond(so.init_variables(W1, W2, so.spectrum(task.svd, 0.0))[0]))}
    try:
        out["singular B"] = solution_error(solution, task, W1, W2, 0.0, np.linspace(0, 6, 7))[0]
        out["zero function"] = solution_error(solution, task, zero, Z2, 1.5, np.linspace(0, 6, 7))[0]
        out["learns"] = rel_err(so.blocks(solution(np.array([20.0]), zero, Z2, task.svd, 1.5)[0], 4)["W2W1"], task.syx)
        out["fixed point"] = float(np.max(np.abs(solution(np.linspace(0, 10, 5), zero, zero, task.svd, 0.0))))
    except np.linalg.LinAlgError:
        out.update({k: np.inf for k in ("singular B", "zero function", "learns", "fixed point")})
    return out


def closed_form_riccati_error(rhs, solution, task, W1, W2, lam: float, times=(0.3, 1.1, 2.5), h=1e-5) -> float:
    """LR-B.5.1: central difference of ``solution`` (QQ^T(t)) against ``rhs`` (sympy in F, QQ^T), relative."""
    F = so.f_matrix(task.syx, lam)
    worst = 0.0
    for t in times:
        qq = solution(np.array([t - h, t, t + h]), W1, W2, task.svd, lam)
        worst = max(worst, rel_err((qq[2] - qq[0]) / (2 * h), _riccati_function(rhs, F.shape[0])(F, qq[1])))
    return worst


def rich_lazy_stats(gamma, s_task, s0: float = 1e-3, lam_lazy: float = 40.0) -> dict:
    """LR-Sec5-SV-claims from a transition function ``gamma``: half-rise times at lambda = 0, their
    order (largest s~ first?), their worst relative distance to (tau/2s~) ln(s~/s0), and the fitted decay
    rates of 1 - gamma at lambda = lam_lazy with their worst relative distance to |lambda|."""
    g = mode_function(gamma)
    t = np.linspace(0, 30, 30001)
    half = [float(t[np.argmax(g(0.0, s, s0, t, 1.0) >= 0.5)]) for s in s_task]
    pred = [np.log(s / s0) / (2 * s) for s in s_task]
    tl = np.linspace(0.8, 12.0, 50) / lam_lazy           # |lambda| t from 0.8 to 12 e-folds
    rates = [float(-np.polyfit(tl, np.log(1 - g(lam_lazy, s, s0, tl, 1.0)), 1)[0]) for s in s_task]
    salient_first = list(np.argsort(half)) == list(np.argsort(-np.asarray(s_task, dtype=float)))
    return dict(half=half, ordered=bool(salient_first),
                close=max(abs(h - p) / p for h, p in zip(half, pred)), rates=rates,
                rate_err=max(abs(r - lam_lazy) / lam_lazy for r in rates))


def shallow_limit_errors(decay, lams=(5.0, 20.0, 80.0), seed=55) -> dict:
    """Shallow limit: max |W2W1(t) - (Syx + (W2W1(0) - Syx) decay(lam, t))| / max|Syx| of a square
    non-aligned net (stable closed form), per lambda; ``decay`` is sympy in (lambda, t, tau)."""
    f = compiled((sy.lam, sy.t, sy.tau), decay)
    out = {}
    for lam in lams:
        task, W1, W2 = xp.problem(4, 4, lam, seed=seed, scale=0.3)
        tt = np.linspace(0, 3 / lam, 40)
        fn = so.blocks(so.qq_stable(tt, W1, W2, task.svd, lam), 4)["W2W1"]
        approx = task.syx + (W2 @ W1 - task.syx)[None] * np.asarray(f(lam, tt, 1.0))[:, None, None]
        out[lam] = float(np.max(np.abs(fn - approx)) / np.max(np.abs(task.syx)))
    return out


def weight_noise_subs(task, W1, W2, sigma: float) -> dict:
    """Values of the symbols of Eq. (173) for a network (W1, W2) on ``task``."""
    from theory.lazy_rich import robustness as rb
    return {rb.loss_clean: float(task.loss(W2 @ W1)), rb.sigma: sigma, sy.n_in: W1.shape[1], sy.n_hid: W1.shape[0],
            sy.n_out: W2.shape[0], rb.w1_sq: float(np.sum(W1 ** 2)), rb.w2_sq: float(np.sum(W2 ** 2))}


def weight_noise_minimiser(m1, m2, s=0.7) -> dict:
    """LR-Robust-Param for per-mode norms m1 = ||W1||^2, m2 = ||W2||^2 (sympy in lambda, s~):
    stationary points of m1 + m2 (Ni = No), the second derivative at s~ = 1 (smallest over a lambda
    grid), and for Ni != No the worst distance of the numeric argmin of Nm(No m1 + Ni m2) from
    lambda* = s~(No - Ni)/sqrt(Ni No) (derived)."""
    from scipy.optimize import minimize_scalar
    total = sp.simplify(m1 + m2)
    stationary = sp.solve(sp.diff(total, sy.lam), sy.lam)
    second = sp.lambdify(sy.lam, sp.diff(total, sy.lam, 2).subs(sy.s, 1), "numpy")
    curvature = float(np.min(second(np.linspace(-20, 20, 401))))
    star = []
    for ni, no in ((6, 2), (2, 6), (10, 3)):
        f = sp.lambdify(sy.lam, min(ni, no) * (no * m1 + ni * m2).subs(sy.s, s), "numpy")
        found = minimize_scalar(f, bounds=(-20, 20), method="bounded", options={"xatol": 1e-10}).x
        star.append(abs(found - s * (no - ni) / np.sqrt(ni * no)))
    return dict(stationary=stationary, curvature=curvature, unequal=float(max(star)))


def gd_balance_step_error(task, W1, W2, lr: float) -> float:
    """One GD step changes the balance by exactly lr^2 (W1 E^T E W1^T - W2^T E E^T W2): relative error."""
    E = task.syx - W2 @ W1 @ task.sxx
    W1n, W2n = W1 + lr * W2.T @ E, W2 + lr * E @ W1.T
    drift = balance(W1n, W2n) - balance(W1, W2)
    return rel_err(drift, lr ** 2 * (W1 @ E.T @ E @ W1.T - W2.T @ E @ E.T @ W2))


def noise_sweep(formula, kind: str, n_in: int, n_out: int, lams, sigma: float, draws: int, seed: int):
    """Monte Carlo of the noisy 1/2-mean loss of converged nets (W2W1 = Syx) at each lambda, against
    ``formula`` (Eq. 172 for ``kind`` "input", Eq. 173 for "weight"): (task, means, s.e., z-scores)."""
    from theory.lazy_rich import robustness as rb
    task = xp.noise_task(n_in, n_out)
    means, ses, z = [], [], []
    for k, lam in enumerate(lams):
        W1, W2 = xp.converged(task, lam, k)
        if kind == "input":
            losses = xp.input_noise_losses(task, W1, W2, sigma, draws, seed=seed + k)
            subs = {rb.c: task.loss_constant, rb.sigma: sigma, rb.norm_fn: float(np.sum(task.syx ** 2))}
        else:
            losses = xp.weight_noise_losses(task, W1, W2, sigma, draws, seed=seed + len(lams) + k)
            subs = weight_noise_subs(task, W1, W2, sigma)
        means.append(losses.mean())
        ses.append(losses.std() / np.sqrt(draws))
        z.append(noise_z(formula, subs, losses))
    return task, np.array(means), np.array(ses), np.array(z)


def weight_noise_curve(forms, task, lams, sigma: float):
    """Printed Eq. (173) along lambda for converged nets, with the per-mode norms of Eqs. (174)-(175)
    (``forms`` with parts loss, w1_sq, w2_sq)."""
    from theory.lazy_rich import robustness as rb
    f1, f2 = (sp.lambdify((sy.lam, sy.s), m, "numpy") for m in (forms.w1_sq, forms.w2_sq))
    n_in, n_out = task.svd.n_in, task.svd.n_out
    value = sp.lambdify((rb.loss_clean, rb.w1_sq, rb.w2_sq), forms.loss.subs(
        {rb.sigma: sigma, sy.n_in: n_in, sy.n_hid: min(n_in, n_out), sy.n_out: n_out}), "numpy")
    return np.array([value(task.loss_constant, np.sum(f1(v, task.svd.s)), np.sum(f2(v, task.svd.s))) for v in lams])


def alg1_error(init_fn, n_in: int, n_out: int, lam: float, scale: float, w1, w2, **_) -> float:
    """LR-Alg1: max(|W2^TW2 - W1W1^T - lambda I|, |W2W1 - target|) relative to max(|lambda|, s_max) for
    ``init_fn(lam, Ni, Nh, No, rng, syx=target)`` applied to the product of the drawn layers scale^2 W2 W1."""
    nh = min(n_in, n_out)
    target = scale ** 2 * np.reshape(w2, (n_out, nh)) @ np.reshape(w1, (nh, n_in))
    W1, W2 = init_fn(lam, n_in, nh, n_out, np.random.default_rng(0), syx=target)
    size = max(abs(lam), np.max(np.linalg.svd(target, compute_uv=False)), 1e-300)
    bal = np.max(np.abs(balance(W1, W2) - lam * np.eye(nh))) / size
    return float(max(bal, np.max(np.abs(W2 @ W1 - target)) / size))


def long_time_breakdown(plain, stable, emax: float = 400.0, seed: int = 8) -> tuple[float, bool]:
    """LR-Impl: at S_lam,max t/tau = ``emax`` on a square (4,4,4) net, lambda 1: the relative error of the
    ``plain`` closed form against the ``stable`` one (inf when it overflows or its solve fails), and
    whether the stable one is finite."""
    task, W1, W2 = xp.problem(4, 4, 1.0, seed=seed)
    t = np.array([emax / np.sqrt(task.svd.s.max() ** 2 + 0.25)])
    ref = stable(t, W1, W2, task.svd, 1.0)
    with np.errstate(all="ignore"):
        try:
            value = plain(t, W1, W2, task.svd, 1.0)
            err = rel_err(value, ref) if np.all(np.isfinite(value)) else np.inf
        except np.linalg.LinAlgError:
            err = np.inf
    return float(err), bool(np.all(np.isfinite(ref)))


def gd_deviation_from_theorem(solution, members, lrs, t_end: float = 2.0) -> list[float]:
    """Batched GD of (5,3,3) nets, P = 10, one per (lambda, seed) in ``members`` (one torch program), at each
    learning rate of ``lrs`` to t/tau = ``t_end``: the max rel deviation of QQ^T from ``solution`` per lr."""
    from numerics.lazy_rich.training import train_linear
    task = xp.problem(5, 3, 0.0, seed=200, n_samples=10)[0]
    inits = [xp.problem(5, 3, lam, seed=300 + seed, scale=0.3, n_samples=10)[1:] for lam, seed in members]
    W1s, W2s = np.stack([w[0] for w in inits]), np.stack([w[1] for w in inits])
    devs = []
    for lr in lrs:
        hist = train_linear(W1s, W2s, task.X, task.Y, lr=lr, steps=int(round(t_end / lr)),
                            record_every=int(round(0.25 / lr)))
        devs.append(max(rel_err(so.qq_from_weights(hist.records["W1"][:, k], hist.records["W2"][:, k]),
                                solution(hist.time, W1s[k], W2s[k], task.svd, lam))
                        for k, (lam, _) in enumerate(members)))
    return devs
