"""Errors of the formulas at numbers: each function evaluates a form of ``theory.lazy_rich`` (the
formula under test first, so ``tests/lazy_rich`` can feed perturbed ones) against a reference
computed here, and returns the error; no decision."""
from __future__ import annotations

import functools

import mpmath
import numpy as np
import sympy as sp

from numerics.closed_forms import compiled
from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.configs import ARCHITECTURES
from numerics.lazy_rich.experiments import (
    problem,
    reversed_mode,
)
from numerics.lazy_rich.init import balance, lambda_balanced_init
from numerics.lazy_rich.tasks import random_task
from numerics.metrics import rel_err
from theory.lazy_rich import applications as ap
from theory.lazy_rich import exact_solution as ex
from theory.lazy_rich import random_init as ri
from theory.lazy_rich import robustness as rb
from theory.lazy_rich import symbols as sy
from verify.statements import each


# ------------------------------------------------------------------------- sympy forms at numbers
def evaluate(expr, values: dict):
    """A sympy (matrix) expression with its symbols replaced by ``values`` (numbers or numpy
    matrices): a float, or a float array for a matrix."""
    subs = {k: sp.ImmutableMatrix(np.atleast_2d(v)) if np.ndim(v) else v for k, v in values.items()}
    out = sp.block_collapse(sp.sympify(expr).subs(subs)).doit()
    return float(out) if out.is_number else np.array(sp.Matrix(out).evalf(), dtype=float)


def equation_residual(equation, values: dict) -> float:
    """max |lhs - rhs| of a sympy equation at ``values``."""
    return float(np.max(np.abs(np.asarray(evaluate(equation.lhs, values)) - evaluate(equation.rhs, values))))


def layer_values_error(S1, S2, layer_values) -> float:
    """LR-Alg1 / Thm 5.2: max relative distance of ``layer_values(s, lam)`` -> (S1, S2) from the printed
    forms (sympy in lambda and the network singular value, evaluated at 50 digits: the printed
    (sqrt(lam^2 + 4 s^2) - lam)/2 cancels in float64) over lambda in [-10, 10], s in [1e-3, 10]."""
    forms = [sp.lambdify((sy.lam, sy.sn), form, modules="mpmath") for form in (S1, S2)]
    s = np.geomspace(1e-3, 10, 30)

    def error(lam, f, value):
        want = np.array([float(f(mpmath.mpf(float(lam)), mpmath.mpf(float(v)))) for v in s])
        return float(np.max(np.abs(value - want) / want))
    with mpmath.workdps(50):
        return max(error(lam, f, value) for lam in np.linspace(-10, 10, 41)
                   for f, value in zip(forms, layer_values(s, lam)))


def _each_ratio(what, numerator, denominator, op, source, names=("numerator", "denominator")):
    """Unanimity over seeds of numerator / denominator <op> 1, with both absolute values kept."""
    num, den = np.asarray(numerator, dtype=float), np.asarray(denominator, dtype=float)
    return each(f"{what}: {names[0]} / {names[1]}", num / den, op, 1.0, source=source,
                details={names[0]: num, names[1]: den})


# ========================================================================= errors of the formulas
# Each takes the formula under test first and returns the distance to the reference (a flow, GD,
# a Monte Carlo sample, exact arithmetic): ``tests/lazy_rich`` feeds the same functions perturbed
# formulas.

def mode_function(expr):
    """Vectorised float evaluation of a per-mode sympy formula in (lam, s~, s0, t, tau), compiled once."""
    return compiled((sy.lam, sy.s, sy.s0, sy.t, sy.tau), expr)


@functools.lru_cache(maxsize=64)
def _riccati_function(rhs, size: int):
    """``rhs`` (sympy in the MatrixSymbols F, QQ^T of size n) compiled for n = ``size``."""
    F, QQ = sp.MatrixSymbol("F_", size, size), sp.MatrixSymbol("QQ_", size, size)
    return sp.lambdify([F, QQ], rhs.xreplace({ex.F: F, ex.QQ: QQ, ex.n: size}), "numpy")


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


def solution_error(solution, run) -> float:
    """Max relative error of ``solution(t, W1, W2, svd, lam)`` against the flow ``run`` (FlowRun)."""
    return rel_err(solution(run.t, run.W1, run.W2, run.task.svd, run.lam), run.qq)


def printed_theorem_value(expr, t: float, W1, W2, svd, lam: float) -> np.ndarray:
    """A printed sympy matrix expression of Theorem 4.3 (Z, A, B, C, D, Z A^-1 Z^T) evaluated by
    substitution at one time (a matrix)."""
    spc = so.spectrum(svd, lam)
    m, k = len(svd.s), svd.U_perp.shape[1]
    mu, lp = spc.s_lam, spc.lam_perp
    # V_perp, U_perp; with no perpendicular modes (k = 0) their terms vanish: zero columns stand in
    perp = (svd.V_perp, svd.U_perp) if k else (sp.zeros(svd.n_in, 1), sp.zeros(svd.n_out, 1))
    return np.atleast_2d(evaluate(expr, {
        ex.Vt: svd.V, ex.Ut: svd.U, ex.W1_0: W1, ex.W2_0: W2,
        ex.Gm: np.diag(spc.g * (1 - spc.h)), ex.Gp: np.diag(spc.g * (1 + spc.h)),
        ex.Ep: np.diag(np.exp(mu * t)), ex.Em: np.diag(np.exp(-mu * t)),
        ex.Ap: np.diag(np.expm1(2 * mu * t) / (4 * mu)), ex.Am: np.diag(np.expm1(-2 * mu * t) / (4 * mu)),
        ex.ep: np.exp(lp * t), ex.ap: (np.expm1(2 * lp * t) / (2 * lp)) if lp != 0 else t,
        ex.Ni: svd.n_in, ex.No: svd.n_out, ex.Nh: m, ex.m: m, ex.k: max(k, 1),
        ex.Vp: perp[0], ex.Up: perp[1]}))


def aligned_mode_error(trajectory, run, s0) -> tuple[float, float]:
    """(max rel err of the per-mode formula vs the full matrix flow of an aligned ``run``, max
    off-diagonal of U~^T W2W1 V~)."""
    M = np.swapaxes(run.task.svd.U, 0, 1) @ (run.W2t @ run.W1t) @ run.task.svd.V
    diag = np.diagonal(M, axis1=1, axis2=2)
    off = np.max(np.abs(M - np.einsum("ti,ij->tij", diag, np.eye(M.shape[1]))))
    pred = mode_function(trajectory)(run.lam, run.task.svd.s[None], np.asarray(s0)[None], run.t[:, None], 1.0)
    return rel_err(diag, pred), float(off)


def init_variable_error(init_fn, task, W1, W2, lam: float) -> float:
    """LR-Eq10-12: || Q0^T P - [B/sqrt2, -C/sqrt2, D] || relative, for ``init_fn(W1, W2, spectrum)``."""
    spc = so.spectrum(task.svd, lam)
    B, C, D = init_fn(W1, W2, spc)
    Q0 = np.concatenate([W1.T, W2])
    return rel_err(Q0.T @ spc.P, np.concatenate([B / np.sqrt(2), -C / np.sqrt(2), D], axis=1))


def _product_svds(run):
    """Per time of the flow ``run``: (W1, W2, U, s, V^T), U diag(s) V^T the SVD of W2W1."""
    return [(A, Bm, *np.linalg.svd(Bm @ A, full_matrices=False)) for A, Bm in zip(run.W1t, run.W2t)]


def weight_recovery_error(S1, S2, run) -> float:
    """LR-Thm5.2: with R := W1 V S1^{-1}, max(||R^T R - I||, ||W2 - U S2 R^T||) along the flow ``run``."""
    f1, f2 = (compiled((sy.lam, sy.sn), e) for e in (S1, S2))

    def error(A, Bm, U, s, Vt):
        R = A @ Vt.T / f1(run.lam, s)
        return max(np.max(np.abs(R.T @ R - np.eye(len(s)))), rel_err(Bm, (U * f2(run.lam, s)) @ R.T))
    return float(max(error(*at) for at in _product_svds(run)))


def converged_grams(task, lam: float, gram_in, gram_out):
    """W1^T W1 -> V~ gram_in(s~, lam) V~^T and W2 W2^T -> U~ gram_out(s~, lam) U~^T (per-mode formulas)."""
    gi, go = mode_function(gram_in), mode_function(gram_out)
    s = task.svd.s
    return ((task.svd.V * gi(lam, s, 0, 0, 1)) @ task.svd.V.T, (task.svd.U * go(lam, s, 0, 0, 1)) @ task.svd.U.T)


def converged_gram_error(gram_in, gram_out, task, W1, W2, lam: float) -> float:
    """LR-ThmC.3: stable form far in time vs W2W1 -> Syx and the per-mode Gram limits given."""
    spc = so.spectrum(task.svd, lam)
    t_end = 30 / np.min(spc.s_lam - spc.lam_perp)
    b = so.blocks(so.qq_stable([t_end], W1, W2, task.svd, lam)[0], task.svd.n_in)
    gi, go = converged_grams(task, lam, gram_in, gram_out)
    return max(rel_err(b["W2W1"], task.syx), rel_err(b["W1tW1"], gi), rel_err(b["W2W2t"], go))


def ntk_formula_error(gram_in, gram_out, run) -> float:
    """LR-ThmC.5 (1): NTK from the per-mode Grams of W2W1's SVD vs the NTK of the weights along ``run``."""
    gi, go = mode_function(gram_in), mode_function(gram_out)

    def error(A, Bm, U, s, Vt):
        grams = (Vt.T * gi(run.lam, s, 0, 0, 1)) @ Vt, (U * go(run.lam, s, 0, 0, 1)) @ U.T
        return rel_err(kn.ntk_from_grams(*grams, run.task.X), kn.ntk(A, Bm, run.task.X))
    return float(max(error(*at) for at in _product_svds(run)))


def kernel_movement(gram_in, gram_out, ni, no, lams, seed=5) -> np.ndarray:
    """LR-ThmC.5: kernel distance S(NTK(0), NTK(oo)) over lambdas on one task, NTK(oo) from the
    converged per-mode Grams ``gram_in``/``gram_out`` (Thm C.3)."""
    task = random_task(ni, no, 8, np.random.default_rng(seed))

    def moved(lam):
        W1, W2 = lambda_balanced_init(lam, ni, min(ni, no), no, np.random.default_rng(seed + 1), scale=0.2)
        converged = kn.ntk_from_grams(*converged_grams(task, lam, gram_in, gram_out), task.X)
        return float(kn.kernel_distance(kn.ntk(W1, W2, task.X), converged))
    return np.array([moved(lam) for lam in lams])


def noise_z(formula, subs: dict, losses) -> float:
    """Monte Carlo z-score of ``formula`` (sympy, evaluated with ``subs``) against sampled losses."""
    losses = np.asarray(losses)
    predicted = float(sp.sympify(formula).subs(subs))
    return float((losses.mean() - predicted) / (losses.std() / np.sqrt(losses.size)))


def forgetting_error(formula, tasks, ends, n) -> float:
    """LR-D.1: max |L_i(end of k) - L_i(end of j) - formula(S_i, S_j, S_k)| over i and consecutive j -> k."""
    sig = [sp.ImmutableMatrix(t.syx) for t in tasks]

    def value(i, j):
        return float(sp.sympify(formula).subs({ap.Si: sig[i], ap.Sj: sig[j], ap.Sk: sig[j + 1], ap.n: n}).doit())
    return max(abs(task.loss(ends[j + 1]) - task.loss(ends[j]) - value(i, j))
               for i, task in enumerate(tasks) for j in range(len(ends) - 1))


def lazy_limit_sups(gamma, lazy, lams, s=1.0, s0=0.05) -> np.ndarray:
    """sup_t |gamma - lazy| over 12 e-folds of |lambda| t, per lambda."""
    g, z = mode_function(gamma), mode_function(lazy)
    ts = [np.linspace(0, 12 / abs(lam), 4001) for lam in lams]
    return np.array([np.max(np.abs(g(lam, s, s0, t, 1.0) - z(lam, s, s0, t, 1.0))) for lam, t in zip(lams, ts)])


def lazy_limit_slope(gamma, lazy, s=1.0, s0=0.05) -> float:
    """Log-log slope of sup_t |gamma - lazy| at |lambda| = 10, 100, 1000."""
    sups = lazy_limit_sups(gamma, lazy, (10.0, 100.0, 1000.0), s, s0)
    return float(np.polyfit(np.log([10, 100, 1000]), np.log(sups), 1)[0])


def balance_moments(mean_expr, pref_expr, balances, dims, var1: float, var2: float) -> dict:
    """LR-ThmA.3 / Tab1: of sampled balances (draws, Nh, Nh) of Gaussian layers, the z-score of the
    mean diagonal against ``mean_expr`` and the pooled diagonal / off-diagonal variances over ``pref_expr``."""
    n_in, n_hid, n_out = dims
    subs = {sy.n_in: n_in, sy.n_hid: n_hid, sy.n_out: n_out, ri.var1: var1, ri.var2: var2}
    mean, pref = float(sp.sympify(mean_expr).subs(subs)), float(sp.sympify(pref_expr).subs(subs))
    diag = np.einsum("kii->ki", balances)
    iu = np.triu_indices(n_hid, 1)
    off = balances[:, iu[0], iu[1]]
    return {"z_mean": float((diag.mean() - mean) / (diag.std() / np.sqrt(diag.size))),
            "diag_ratio": float(diag.var(axis=0, ddof=1).mean() / pref),
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


def reversal_error(formula, runs) -> float:
    """LR-D.2: max |formula - reversed mode| over the reversal flows ``runs`` (s~ = 1, s(0) = -0.5)."""
    return max(float(np.max(np.abs(reversed_mode(r.task, r.W1t, r.W2t) - reversal_curve(formula, r.lam, 1.0, 0.5, r.t))))
               for r in runs)


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
    for name, ni, no in ARCHITECTURES:
        task = random_task(ni, no, 8, np.random.default_rng(seed))
        for lam in lams:
            _, go = converged_grams(task, lam, gram_in, gram_out)
            gi, _ = converged_grams(task, -lam, gram_in, gram_out)
            dist[name, lam] = (np.linalg.norm(go / lam - np.eye(no)), np.linalg.norm(gi / lam - np.eye(ni)),
                               np.linalg.norm(go / lam - task.svd.U @ task.svd.U.T),
                               np.linalg.norm(gi / lam - task.svd.V @ task.svd.V.T))
    return dist


def representation_stats(gram_in, gram_out, run) -> dict:
    """LR-Sec5-Rep-claims on trained hierarchy nets (``run.lams`` balanced, then a large Gaussian one):
    sim_err -- trained Grams vs the per-mode formulas; rsm_out_to_eye, gram_out_to_eye -- normalised
    distance to I at lambda = max(lams) of RSM_O (Eq. 4) and W2W2^T; struct -- ||lam W1^TW1 - V~S~^2V~^T|| /
    ||S~^2|| at max(lams); to_task, to_task_rich -- kernel distance of the final W1^TW1 to V~S~V~^T, per large
    init and of the lambda = 0 net; lazy_big, rich_small -- NTK movement of the same nets."""
    task, lams, W1s, W2s, W1T, W2T = run.task, run.lams, run.W1, run.W2, run.W1_end, run.W2_end
    n = task.svd.n_in
    grams = [converged_grams(task, lam, gram_in, gram_out) for lam in lams]
    sim_err = max(max(rel_err(W1T[k].T @ W1T[k], gi), rel_err(W2T[k] @ W2T[k].T, go)) for k, (gi, go) in enumerate(grams))
    top = max(lams)
    k_top, k0, big = list(lams).index(top), list(lams).index(0.0), range(len(lams), len(W1s))
    gi, go = grams[k_top]
    ro = kn.rsm_out(W2T[k_top], task.Y)
    structure = (task.svd.V * task.svd.s) @ task.svd.V.T

    def moved(k):
        return float(kn.kernel_distance(kn.ntk(W1s[k], W2s[k], task.X), kn.ntk(W1T[k], W2T[k], task.X)))
    return dict(
        sim_err=sim_err, rsm_out_to_eye=float(np.linalg.norm(ro / (np.trace(ro) / n) - np.eye(n))),
        gram_out_to_eye=float(np.linalg.norm(go / (np.trace(go) / n) - np.eye(n))),
        struct=float(np.linalg.norm(top * gi - (task.svd.V * task.svd.s ** 2) @ task.svd.V.T) / np.linalg.norm(task.svd.s ** 2)),
        to_task=np.array([kn.kernel_distance(W1T[k].T @ W1T[k], structure) for k in big]),
        to_task_rich=float(kn.kernel_distance(W1T[k0].T @ W1T[k0], structure)),
        lazy_big=np.array([moved(k) for k in big]), rich_small=moved(k0))


def no_invertibility_errors(solution, flows) -> dict:
    """LR-A.2-claims for a closed form ``solution(t, W1, W2, svd, lam)`` of QQ^T, against ``flows``:
    'singular B' -- a square lambda = 0 net with a reversed mode (B singular); 'zero function' -- from
    W1 = 0, W2 = sqrt(1.5) O (lambda = 1.5); 'learns' -- rel distance of its W2W1 at t/tau = 20 from Syx
    (the transient has decayed by e^{-2 x 0.78 x 20} ~ 3e-14); 'fixed point' -- max |QQ^T(t)| from
    W1 = W2 = 0 at lambda = 0.  A form that needs B^{-1} (raises LinAlgError) scores inf."""
    singular, zero = flows["singular B"], flows["zero function"]
    out = {"cond B": float(np.linalg.cond(so.init_variables(singular.W1, singular.W2,
                                                            so.spectrum(singular.task.svd, 0.0))[0]))}
    try:
        out["singular B"] = solution_error(solution, singular)
        out["zero function"] = solution_error(solution, zero)
        end = solution(np.array([20.0]), zero.W1, zero.W2, zero.task.svd, 1.5)[0]
        out["learns"] = rel_err(so.blocks(end, 4)["W2W1"], zero.task.syx)
        nothing = np.zeros_like(zero.W1)
        out["fixed point"] = float(np.max(np.abs(solution(np.linspace(0, 10, 5), nothing, nothing, zero.task.svd, 0.0))))
    except np.linalg.LinAlgError:
        out.update({k: np.inf for k in ("singular B", "zero function", "learns", "fixed point")})
    return out


def closed_form_riccati_error(rhs, solution, task, W1, W2, lam: float, times=(0.3, 1.1, 2.5), h=1e-5) -> float:
    """LR-B.5.1: central difference of ``solution`` (QQ^T(t)) against ``rhs`` (sympy in F, QQ^T), relative."""
    F = so.f_matrix(task.syx, lam)
    right = _riccati_function(rhs, F.shape[0])
    qqs = [solution(np.array([t - h, t, t + h]), W1, W2, task.svd, lam) for t in times]
    return max(rel_err((qq[2] - qq[0]) / (2 * h), right(F, qq[1])) for qq in qqs)


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
    return dict(ordered=bool(salient_first), close=max(abs(h - p) / p for h, p in zip(half, pred)),
                rate_err=max(abs(r - lam_lazy) / lam_lazy for r in rates))


def shallow_limit_errors(decay, lams=(5.0, 20.0, 80.0), seed=55) -> dict:
    """Shallow limit: max |W2W1(t) - (Syx + (W2W1(0) - Syx) decay(lam, t))| / max|Syx| of a square
    non-aligned net (stable closed form), per lambda; ``decay`` is sympy in (lambda, t, tau)."""
    f = compiled((sy.lam, sy.t, sy.tau), decay)

    def error(lam):
        task, W1, W2 = problem(4, 4, lam, seed=seed, scale=0.3)
        tt = np.linspace(0, 3 / lam, 40)
        fn = so.blocks(so.qq_stable(tt, W1, W2, task.svd, lam), 4)["W2W1"]
        approx = task.syx + (W2 @ W1 - task.syx)[None] * np.asarray(f(lam, tt, 1.0))[:, None, None]
        return float(np.max(np.abs(fn - approx)) / np.max(np.abs(task.syx)))
    return {lam: error(lam) for lam in lams}


def weight_noise_subs(task, W1, W2, sigma: float) -> dict:
    """Values of the symbols of Eq. (173) for a network (W1, W2) on ``task``."""
    return {rb.loss_clean: float(task.loss(W2 @ W1)), rb.sigma: sigma, sy.n_in: W1.shape[1], sy.n_hid: W1.shape[0],
            sy.n_out: W2.shape[0], rb.w1_sq: float(np.sum(W1 ** 2)), rb.w2_sq: float(np.sum(W2 ** 2))}


def noise_subs(run) -> list[dict]:
    """Per lambda of a NoiseRun, the values of the symbols of its formula (Eq. 172 or 173)."""
    if run.kind == "input":
        return [{rb.c: run.task.loss_constant, rb.sigma: run.sigma, rb.norm_fn: float(np.sum(run.task.syx ** 2))}
                for _ in run.lams]
    return [weight_noise_subs(run.task, W1, W2, run.sigma) for W1, W2 in zip(run.W1, run.W2)]


def noise_zs(formula, run) -> np.ndarray:
    """z-scores of ``formula`` against the Monte Carlo losses of a NoiseRun, per lambda."""
    return np.array([noise_z(formula, subs, losses) for subs, losses in zip(noise_subs(run), run.losses)])


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

    def miss(ni, no):
        f = sp.lambdify(sy.lam, min(ni, no) * (no * m1 + ni * m2).subs(sy.s, s), "numpy")
        found = minimize_scalar(f, bounds=(-20, 20), method="bounded", options={"xatol": 1e-10}).x
        return abs(found - s * (no - ni) / np.sqrt(ni * no))
    return dict(stationary=stationary, curvature=curvature, unequal=float(max(miss(6, 2), miss(2, 6), miss(10, 3))))


def weight_noise_curve(forms, task, lams, sigma: float):
    """Printed Eq. (173) along lambda for converged nets, with the per-mode norms of Eqs. (174)-(175)
    (``forms`` with parts loss, w1_sq, w2_sq)."""
    f1, f2 = (sp.lambdify((sy.lam, sy.s), m, "numpy") for m in (forms.w1_sq, forms.w2_sq))
    n_in, n_out = task.svd.n_in, task.svd.n_out
    value = sp.lambdify((rb.loss_clean, rb.w1_sq, rb.w2_sq), forms.loss.subs(
        {rb.sigma: sigma, sy.n_in: n_in, sy.n_hid: min(n_in, n_out), sy.n_out: n_out}), "numpy")
    return np.array([value(task.loss_constant, np.sum(f1(v, task.svd.s)), np.sum(f2(v, task.svd.s))) for v in lams])


def balance_step_error(task, W1, W2, stepped, lr: float) -> float:
    """One GD step (``stepped`` = (W1, W2) after it) changes the balance by exactly
    lr^2 (W1 E^T E W1^T - W2^T E E^T W2): relative error."""
    E = task.syx - W2 @ W1 @ task.sxx
    drift = balance(*stepped) - balance(W1, W2)
    return rel_err(drift, lr ** 2 * (W1 @ E.T @ E @ W1.T - W2.T @ E @ E.T @ W2))


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
    task, W1, W2 = problem(4, 4, 1.0, seed=seed)
    t = np.array([emax / np.sqrt(task.svd.s.max() ** 2 + 0.25)])
    ref = stable(t, W1, W2, task.svd, 1.0)
    with np.errstate(all="ignore"):
        try:
            value = plain(t, W1, W2, task.svd, 1.0)
            err = rel_err(value, ref) if np.all(np.isfinite(value)) else np.inf
        except np.linalg.LinAlgError:
            err = np.inf
    return float(err), bool(np.all(np.isfinite(ref)))
