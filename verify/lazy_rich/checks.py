"""Check functions for the LR- claims.  Each check takes the formula (sympy object or callable) under
test as its first argument(s), so tests/lazy_rich/test_perturbations.py can show that a perturbed version
is rejected (its PERTURBATION_TESTS table maps every exact claim to such a test).  The remaining
helpers (``problem``, ``integrate``, ``train_hierarchy``, the noise samplers) only build problems,
reference flows and samples."""
from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import balance, lambda_balanced_init
from numerics.lazy_rich.tasks import random_task
from numerics.ode import integrate_flow
from theory.lazy_rich import exact_solution as ex
from theory.lazy_rich import symbols as sy
from verify.checks.symbolic import compiled


# ---------------------------------------------------------------- problems with general parameters
def problem(n_in: int, n_out: int, lam: float, seed: int, scale: float = 0.5, n_samples: int | None = None,
            target_std: float = 1.0):
    """A whitened random task and a random (non-aligned) lambda-balanced init with Nh = min(Ni, No)."""
    rng = np.random.default_rng(seed)
    task = random_task(n_in, n_out, n_samples or max(n_in, n_out) + 4, rng, target_std)
    W1, W2 = lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, rng, scale=scale)
    return task, W1, W2


def integrate(task, W1, W2, t_eval):
    """Gradient flow of the weights (rtol 1e-12) with the balance monitored as a conserved quantity."""
    flow = integrate_flow(so.flow_rhs(task.syx, task.sxx), {"W1": W1, "W2": W2}, float(t_eval[-1]),
                          t_eval=t_eval, rtol=1e-12, atol=1e-14,
                          conserved={"balance": lambda p: balance(p["W1"], p["W2"])}, conservation_tol=1e-8)
    W1t, W2t = np.moveaxis(flow.states["W1"], -1, 0), np.moveaxis(flow.states["W2"], -1, 0)
    return W1t, W2t, flow.drift["balance"]


def rel_err(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(np.max(np.abs(b)), 1e-300))


# ---------------------------------------------------------------- Riccati equation (LR-Lem4.1)
def _subs_matrix(expr, values: dict) -> sp.Matrix:
    return sp.Matrix(expr.subs(values).doit())


def cayley(K: sp.Matrix) -> sp.Matrix:
    """Rational orthogonal matrix (I - K)(I + K)^{-1} of a rational skew-symmetric K."""
    eye = sp.eye(K.shape[0])
    return (eye - K) * (eye + K).inv()


def rational_balanced(lam_value):
    """Exactly lambda-balanced rational 2x2x2 weights W1 = R S1 V^T, W2 = U S2 R^T, from the
    Pythagorean pairs (S2^2 - S1^2 = lam): S1 = (3/4, 4/3), S2 = (5/4, 5/3) for lam = 1, scaled."""
    q = sp.Rational(lam_value)
    # scaling all singular values by sqrt(q) keeps rationality only for square q; use q = c^2 * sgn
    c = sp.sqrt(abs(q))
    s1, s2 = sp.diag(sp.Rational(3, 4), sp.Rational(4, 3)) * c, sp.diag(sp.Rational(5, 4), sp.Rational(5, 3)) * c
    if q < 0:
        s1, s2 = s2, s1
    R = cayley(sp.Matrix([[0, sp.Rational(1, 3)], [-sp.Rational(1, 3), 0]]))
    U = cayley(sp.Matrix([[0, sp.Rational(2, 5)], [-sp.Rational(2, 5), 0]]))
    V = cayley(sp.Matrix([[0, -sp.Rational(1, 7)], [sp.Rational(1, 7), 0]]))
    return R * s1 * V.T, U * s2 * R.T


def riccati_residual_exact(rhs, lam_value, syx: sp.Matrix) -> sp.Matrix:
    """tau d(QQ^T)/dt from the weight flow minus ``rhs`` (F, QQ^T substituted), in exact arithmetic."""
    W1, W2 = rational_balanced(lam_value)
    q = sp.Rational(lam_value)
    E = syx - W2 * W1
    dW1, dW2 = W2.T * E, E * W1.T
    Q, dQ = W1.T.col_join(W2), dW1.T.col_join(dW2)
    F = sp.diag(-q / 2 * sp.eye(2), q / 2 * sp.eye(2))
    F[2:, :2], F[:2, 2:] = syx, syx.T
    lhs = dQ * Q.T + Q * dQ.T
    n = 4
    values = {ex.F: sp.ImmutableMatrix(F), ex.QQ: sp.ImmutableMatrix(Q * Q.T), ex.n: n}
    return sp.simplify(lhs - _subs_matrix(rhs, values))


def riccati_residual(rhs, task, W1, W2, lam: float) -> float:
    """Float version: relative residual of tau d(QQ^T)/dt - rhs at the given weights."""
    E = task.syx - W2 @ W1 @ task.sxx
    Q = np.concatenate([W1.T, W2])
    dQ = np.concatenate([(W2.T @ E).T, E @ W1.T])
    lhs = dQ @ Q.T + Q @ dQ.T
    F, QQ = so.f_matrix(task.syx, lam), Q @ Q.T
    values = {ex.F: sp.ImmutableMatrix(F), ex.QQ: sp.ImmutableMatrix(QQ), ex.n: F.shape[0]}
    right = np.array(_subs_matrix(rhs, values).evalf(), dtype=float)
    return rel_err(lhs, right)


# ---------------------------------------------------------------- eigendecomposition (LR-Lem4.2)
def eigen_error(spectrum_fn, task, lam: float) -> float:
    """max(||P^T P - I||, ||F - P Gamma P^T|| / ||F||) for ``spectrum_fn(svd, lam)``."""
    sp_ = spectrum_fn(task.svd, lam)
    F = so.f_matrix(task.syx, lam)
    orth = np.max(np.abs(sp_.P.T @ sp_.P - np.eye(F.shape[0])))
    recon = np.max(np.abs(F - sp_.P @ np.diag(sp_.gamma) @ sp_.P.T)) / np.max(np.abs(F))
    return float(max(orth, recon))


def mode_eigen_residual(F_mode, P_mode, Gamma_mode) -> bool:
    """Symbolic: P^T P = I and F P = P Gamma for the per-mode 2x2 block (s > 0, lambda real, != 0)."""
    orth = (P_mode.T * P_mode - sp.eye(2)).applyfunc(sp.simplify)
    eig = (F_mode * P_mode - P_mode * Gamma_mode).applyfunc(sp.simplify)
    if orth.is_zero_matrix and eig.is_zero_matrix:
        return True
    # sympy cannot always clear the nested radicals; decide at 60 digits over a grid of (s, lam)
    worst = 0.0
    for s_v in (0.01, 0.3, 1.0, 4.0):
        for l_v in (-50.0, -2.0, -0.1, 0.2, 3.0, 40.0):
            vals = {sy.s: sp.Float(s_v, 60), sy.lam: sp.Float(l_v, 60)}
            worst = max(worst, max(abs(sp.N(e.subs(vals), 60)) for e in list(orth) + list(eig)))
    return worst < 1e-45


# ---------------------------------------------------------------- closed forms against the flow
def solution_error(solution, task, W1, W2, lam: float, t_eval) -> tuple[float, float]:
    """(max relative error of ``solution(t, W1, W2, svd, lam)`` vs the integrated flow, balance drift)."""
    W1t, W2t, drift = integrate(task, W1, W2, t_eval)
    return rel_err(solution(t_eval, W1, W2, task.svd, lam), so.qq_from_weights(W1t, W2t)), drift


def printed_theorem_value(expr, t: float, W1, W2, svd, lam: float) -> np.ndarray:
    """Evaluate the printed sympy Theorem 4.3 (matrix expression) by substitution, numerically."""
    spc = so.spectrum(svd, lam)
    m, k = len(svd.s), svd.U_perp.shape[1]
    mu = spc.s_lam
    lp = spc.lam_perp
    M = lambda a: sp.ImmutableMatrix(np.atleast_2d(a))  # noqa: E731
    values = {
        ex.Vt: M(svd.V), ex.Ut: M(svd.U), ex.W1_0: M(W1), ex.W2_0: M(W2),
        ex.Gm: M(np.diag(spc.g * (1 - spc.h))), ex.Gp: M(np.diag(spc.g * (1 + spc.h))),
        ex.Ep: M(np.diag(np.exp(mu * t))), ex.Em: M(np.diag(np.exp(-mu * t))),
        ex.Ap: M(np.diag(np.expm1(2 * mu * t) / (4 * mu))), ex.Am: M(np.diag(np.expm1(-2 * mu * t) / (4 * mu))),
        ex.ep: np.exp(lp * t), ex.ap: (np.expm1(2 * lp * t) / (2 * lp)) if lp != 0 else t,
        ex.Ni: svd.n_in, ex.No: svd.n_out, ex.Nh: m, ex.m: m, ex.k: max(k, 1),
    }
    if k:
        values[ex.Vp], values[ex.Up] = M(svd.V_perp), M(svd.U_perp)
    else:
        values[ex.Vp], values[ex.Up] = sp.zeros(svd.n_in, 1), sp.zeros(svd.n_out, 1)
    out = sp.Matrix(sp.block_collapse(expr.subs(values)).doit())
    return np.array(out.evalf(), dtype=float)


# ---------------------------------------------------------------- transition function (LR-Thm5.1)
def gamma_residual(trajectory, points) -> float:
    """max |tau s' - (lam^2 + 4 s^2)^{1/2}(s~ - s)| / (1 + |s~|) of ``trajectory`` at 50 digits,
    at ``points`` = iterable of (lam, s~, s0, t, tau); plus |s(0) - s0|."""
    s_of_t = trajectory
    ds = sp.diff(s_of_t, sy.t)
    args = (sy.lam, sy.s, sy.s0, sy.t, sy.tau)
    f = sp.lambdify(args, s_of_t, modules="mpmath")
    g = sp.lambdify(args, ds, modules="mpmath")
    worst = 0.0
    with mpmath.workdps(50):
        for p in points:
            lam, s, s0, t, tau = (mpmath.mpf(float(v)) for v in p)
            val, der = f(lam, s, s0, t, tau), g(lam, s, s0, t, tau)
            res = tau * der - mpmath.sqrt(lam ** 2 + 4 * val ** 2) * (s - val)
            res0 = f(lam, s, s0, mpmath.mpf(0), tau) - s0
            worst = max(worst, float(abs(res) / (1 + s)), float(abs(res0)))
    return worst


# ---------------------------------------------------------------- aligned modes (LR-Thm5.1)
def mode_function(expr):
    """Vectorised float evaluation of a per-mode sympy formula in (lam, s~, s0, t, tau)."""
    return compiled((sy.lam, sy.s, sy.s0, sy.t, sy.tau), expr)


def aligned_problem(n_in: int, n_out: int, s_task, s0, lam: float, seed: int):
    """A whitened task with prescribed singular values and a task-aligned lambda-balanced init."""
    from numerics.lazy_rich.init import aligned_init, random_orthogonal
    from numerics.lazy_rich.tasks import Task
    rng = np.random.default_rng(seed)
    m, P = min(n_in, n_out), max(n_in, n_out) + 3
    U = random_orthogonal(n_out, rng)[:, :m]
    V = random_orthogonal(n_in, rng)[:, :m]
    X = np.sqrt(P) * np.linalg.qr(rng.standard_normal((P, n_in)))[0].T
    syx = (U * np.asarray(s_task)) @ V.T
    task = Task(X, syx @ X)                      # Y = Syx X gives Y X^T / P = Syx exactly
    W1, W2 = aligned_init(task.svd.U, task.svd.V, np.asarray(s0, dtype=float), lam, rng)
    return task, W1, W2


def aligned_mode_error(trajectory, n_in, n_out, s_task, s0, lam, t_eval, seed=0) -> tuple[float, float]:
    """(max rel err of the per-mode formula vs the full matrix flow, max off-diagonal of U~^T W2W1 V~)."""
    task, W1, W2 = aligned_problem(n_in, n_out, s_task, s0, lam, seed)
    W1t, W2t, _ = integrate(task, W1, W2, t_eval)
    M = np.swapaxes(task.svd.U, 0, 1) @ (W2t @ W1t) @ task.svd.V
    diag = np.diagonal(M, axis1=1, axis2=2)
    off = np.max(np.abs(M - np.einsum("ti,ij->tij", diag, np.eye(M.shape[1]))))
    f = mode_function(trajectory)
    pred = f(lam, task.svd.s[None], np.asarray(s0)[None], t_eval[:, None], 1.0)
    return rel_err(diag, pred), float(off)


def invertible_b_init(task, lam: float, seed: int, scale: float, max_draws: int = 20):
    """First Alg.-1 init (successive draws of one generator) whose B is invertible (cond < 1e6).

    At lambda = 0 a square even-dimensional random init has B singular with probability 1/2 (the
    relative rotation has det -1, hence an eigenvalue -1: a reversed mode, LR-D.2), and then the
    flow stalls at a saddle; Thm B.5 / C.3 assume B invertible."""
    rng = np.random.default_rng(seed)
    n_in, n_out = task.svd.n_in, task.svd.n_out
    for _ in range(max_draws):
        W1, W2 = lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, rng, scale=scale)
        if np.linalg.cond(so.init_variables(W1, W2, so.spectrum(task.svd, lam))[0]) < 1e6:
            return W1, W2
    raise RuntimeError(f"no init with invertible B in {max_draws} draws (lam={lam}, seed={seed})")


# ---------------------------------------------------------------- formula-level checks used by several claims
def init_variable_error(init_fn, task, W1, W2, lam: float) -> float:
    """LR-Eq10-12: || Q0^T P - [B/sqrt2, -C/sqrt2, D] || relative, for ``init_fn(W1, W2, spectrum)``."""
    spc = so.spectrum(task.svd, lam)
    B, C, D = init_fn(W1, W2, spc)
    Q0 = np.concatenate([W1.T, W2])
    return rel_err(Q0.T @ spc.P, np.concatenate([B / np.sqrt(2), -C / np.sqrt(2), D], axis=1))


def weight_recovery_error(S1, S2, W1t, W2t, lam: float) -> float:
    """LR-Thm5.2: with R := W1 V S1^{-1}, max(||R^T R - I||, ||W2 - U S2 R^T||) over the given weights."""
    f1, f2 = (sp.lambdify((sy.lam, sy.sn), e, "numpy") for e in (S1, S2))
    worst = 0.0
    for A, Bm in zip(W1t, W2t):
        U, s, Vt = np.linalg.svd(Bm @ A, full_matrices=False)
        R = A @ Vt.T / f1(lam, s)
        worst = max(worst, np.max(np.abs(R.T @ R - np.eye(len(s)))), rel_err(Bm, (U * f2(lam, s)) @ R.T))
    return float(worst)


def converged_gram_error(gram_in, gram_out, task, W1, W2, lam: float) -> float:
    """LR-ThmC.3: stable form far in time vs W2W1 -> Syx and the per-mode Gram limits given."""
    gi, go = mode_function(gram_in), mode_function(gram_out)
    spc = so.spectrum(task.svd, lam)
    t_end = 30 / np.min(spc.s_lam - spc.lam_perp)
    b = so.blocks(so.qq_stable([t_end], W1, W2, task.svd, lam)[0], task.svd.n_in)
    s = task.svd.s
    return max(rel_err(b["W2W1"], task.syx), rel_err(b["W1tW1"], (task.svd.V * gi(lam, s, 0, 0, 1)) @ task.svd.V.T),
               rel_err(b["W2W2t"], (task.svd.U * go(lam, s, 0, 0, 1)) @ task.svd.U.T))


def ntk_formula_error(gram_in, gram_out, X, W1t, W2t, lam: float) -> float:
    """LR-ThmC.5 (1): NTK from the per-mode Grams of W2W1's SVD vs the NTK of the weights."""
    from numerics.lazy_rich import kernels as kn
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
    from theory.lazy_rich import applications as ap
    sig = [sp.ImmutableMatrix(t.syx) for t in tasks]
    worst = 0.0
    for i in range(len(tasks)):
        for j in range(len(ends) - 1):
            measured = tasks[i].loss(ends[j + 1]) - tasks[i].loss(ends[j])
            value = float(sp.sympify(formula).subs({ap.Si: sig[i], ap.Sj: sig[j], ap.Sk: sig[j + 1], ap.n: n}).doit())
            worst = max(worst, abs(measured - value))
    return worst


def rich_limit_matches(gamma, rich) -> bool:
    """LR-Thm5.1 / Eq. (17): gamma at lambda = 0 equals the printed sigmoid ``rich`` (sympy, exp form)."""
    return sp.simplify((gamma.subs(sy.lam, 0) - rich).rewrite(sp.exp)) == 0


def lazy_limit_slope(gamma, lazy, s=1.0, s0=0.05) -> float:
    """LR-Thm5.1 / Sec5-SV: log-log slope of sup_t |gamma - lazy| at |lambda| = 10, 100, 1000."""
    g, z = mode_function(gamma), mode_function(lazy)
    sups = []
    for lam in (10.0, 100.0, 1000.0):
        t = np.linspace(0, 12 / lam, 4001)
        sups.append(np.max(np.abs(g(lam, s, s0, t, 1.0) - z(lam, s, s0, t, 1.0))))
    return float(np.polyfit(np.log([10, 100, 1000]), np.log(sups), 1)[0])


def table_consistency(table1: dict, table2: dict) -> bool:
    """LR-Tab2: Table 1 with Nh = k Ni, No = r Ni simplifies to Table 2, entry by entry."""
    from theory.lazy_rich import random_init as ri
    return all(sp.simplify(a.subs({sy.n_hid: ri.k * sy.n_in, sy.n_out: ri.r * sy.n_in}) - b) == 0
               for name in table1 for a, b in zip(table1[name], table2[name]))


def table3_mismatches(table2: dict, table3: dict) -> list:
    """LR-Tab3: entries of Table 3 that are not the limits / substitutions of Table 2's E[lambda]."""
    from theory.lazy_rich import random_init as ri
    cases = [lambda e: e.subs({ri.r: 1, ri.k: 1}), lambda e: sp.limit(e, ri.r, 0), lambda e: sp.limit(e, ri.r, sp.oo),
             lambda e: sp.limit(e, ri.k, 0), lambda e: sp.limit(e, ri.k, sp.oo),
             lambda e: e.subs(ri.r, ri.a1 ** 2 / ri.a2 ** 2 * ri.k)]
    bad = []
    for name, row in table3.items():
        mean = table2[name][0]
        for j, (case, want) in enumerate(zip(cases, row)):
            if want is None:
                continue
            got = case(mean)
            if not (got == want or (want is not sp.oo and sp.simplify(got - want) == 0)):
                bad.append((name, j + 1, got, want))
    return bad


def balance_rate_is_zero(rate) -> bool:
    """LR-ThmA.2: the printed d/dt balance vanishes for rational unwhitened data (exact)."""
    from theory.lazy_rich import setting as su
    rng = np.random.default_rng(0)

    def rat(r, c):
        return sp.ImmutableMatrix(r, c, [sp.Rational(int(v), 7) for v in rng.integers(-9, 10, r * c)])
    vals = {su.X: rat(3, 5), su.Y: rat(4, 5), su.W1: rat(2, 3), su.W2: rat(4, 2), su.P: 5, su.Ni: 3, su.Nh: 2, su.No: 4}
    return sp.Matrix(sp.block_collapse(rate.subs(vals)).doit()).applyfunc(sp.nsimplify).is_zero_matrix


def reversal_problem(lam, s_task=(1.0, 0.8, 0.5), s0=0.5, seed=0):
    """Square (3,3,3) task-aligned init with the first left singular vector reversed (LR-D.2)."""
    from numerics.lazy_rich.init import aligned_init, random_orthogonal
    from numerics.lazy_rich.tasks import Task, whitened_inputs
    rng = np.random.default_rng(seed)
    U, V = random_orthogonal(3, rng), random_orthogonal(3, rng)
    X = whitened_inputs(3, 6, rng)
    task = Task(X, (U * np.asarray(s_task)) @ V.T @ X)
    W1, W2 = aligned_init(task.svd.U, task.svd.V, np.full(3, s0), lam, rng)
    return task, W1, task.svd.U @ np.diag([-1.0, 1.0, 1.0]) @ task.svd.U.T @ W2


def reversal_curve(formula, lam, s, s0, t):
    """A per-mode reversal formula (d = -1) in (lam, s~, t, tau, s1, s2, d) evaluated from s(0) = -s0."""
    from theory.lazy_rich import applications as ap
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
        task, W1, W2 = reversal_problem(lam)
        W1t, W2t, _ = integrate(task, W1, W2, t)
        sim = np.einsum("i,tij,j->t", task.svd.U[:, 0], W2t @ W1t, task.svd.V[:, 0])
        worst = max(worst, float(np.max(np.abs(sim - reversal_curve(formula, lam, 1.0, 0.5, t)))))
    return worst


def series_matches(big, small, order: int = 5) -> bool:
    """LR-ThmC.4 / C.2.4: the Taylor series in kappa = 1/lambda of (sqrt(lam^2 + 4 s^2) +- lam)/2
    equals the given truncated expansions (up to kappa^(order-1))."""
    kappa = sp.Symbol("kappa", positive=True)
    exact = sp.sqrt(sy.lam ** 2 + 4 * sy.s ** 2)
    ok = True
    for sign, expansion in ((1, big), (-1, small)):
        series = sp.series(((exact + sign * sy.lam) / 2).subs(sy.lam, 1 / kappa), kappa, 0, order).removeO()
        ok &= sp.simplify(series - sp.sympify(expansion).subs(sy.lam, 1 / kappa)) == 0
    return bool(ok)


def ntk_jacobian_error(ntk_fn, W1, W2, X) -> float:
    """LR-Eq5: ``ntk_fn(W1, W2, X)`` vs J J^T of the explicit Jacobian (torch.func.jacrev), output-major."""
    import torch
    Xt = torch.tensor(X)

    def f(w1, w2):
        return (w2 @ w1 @ Xt).reshape(-1)
    J1, J2 = torch.func.jacrev(f, argnums=(0, 1))(torch.tensor(W1), torch.tensor(W2))
    J = torch.cat([J1.reshape(J1.shape[0], -1), J2.reshape(J2.shape[0], -1)], dim=1).numpy()
    return rel_err(ntk_fn(W1, W2, X), J @ J.T)


def balance_moments(mean_expr, pref_expr, dims, var1: float, var2: float, draws: int, seed: int) -> dict:
    """LR-ThmA.3 / Tab1: Monte Carlo of W2^T W2 - W1 W1^T for Gaussian layers: z-score of the mean
    diagonal against ``mean_expr`` and the pooled diagonal / off-diagonal variances over ``pref_expr``."""
    n_in, n_hid, n_out = dims
    rng = np.random.default_rng(seed)
    bal = balance(np.sqrt(var1) * rng.standard_normal((draws, n_hid, n_in)),
                  np.sqrt(var2) * rng.standard_normal((draws, n_out, n_hid)))
    from theory.lazy_rich import random_init as ri
    subs = {sy.n_in: n_in, sy.n_hid: n_hid, sy.n_out: n_out, ri.var1: var1, ri.var2: var2}
    mean, pref = float(sp.sympify(mean_expr).subs(subs)), float(sp.sympify(pref_expr).subs(subs))
    diag = np.einsum("kii->ki", bal)
    iu = np.triu_indices(n_hid, 1)
    off = bal[:, iu[0], iu[1]]
    return {"z_mean": float((diag.mean() - mean) / (diag.std() / np.sqrt(diag.size))), "mean": float(diag.mean()),
            "predicted_mean": mean, "diag_ratio": float(diag.var(axis=0, ddof=1).mean() / pref),
            "off_ratio": float(off.var(axis=0, ddof=1).mean() / pref)}


def late_rate_error(rate_expr, n_in: int, n_out: int, lam: float, seed: int = 8) -> tuple[float, float]:
    """LR-ThmC.6: fitted late decay rate of ||W2W1 - Syx|| (stable form) vs min_i rate_expr(s~_i, lam).
    Returns (relative error, fitted rate)."""
    from numerics.lazy_rich.tasks import random_task
    task = random_task(n_in, n_out, 8, np.random.default_rng(seed))
    W1, W2 = lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, np.random.default_rng(seed + 1), scale=0.2)
    spc = so.spectrum(task.svd, lam)
    slow = np.min(spc.s_lam - spc.lam_perp)
    t = np.linspace(8 / slow, 14 / slow, 7)
    fn = so.blocks(so.qq_stable(t, W1, W2, task.svd, lam), n_in)["W2W1"]
    fitted = -np.polyfit(t, np.log(np.linalg.norm(fn - task.syx, axis=(1, 2))), 1)[0]
    predicted = float(np.min(sp.lambdify((sy.lam, sy.s), rate_expr, "numpy")(lam, task.svd.s)))
    return abs(fitted - predicted) / predicted, float(fitted)


# ---------------------------------------------------------------- converged Grams and representations (Sec 5, App C.2)
#: the three architectures of Fig. 5 (Ni, No) with Nh = min(Ni, No)
ARCHS = {"funnel (6,2,2)": (6, 2), "square (4,4,4)": (4, 4), "inverted funnel (2,2,6)": (2, 6)}


def converged_grams(task, lam: float, gram_in, gram_out):
    """W1^T W1 -> V~ gram_in(s~, lam) V~^T and W2 W2^T -> U~ gram_out(s~, lam) U~^T (per-mode formulas)."""
    gi, go = mode_function(gram_in), mode_function(gram_out)
    s = task.svd.s
    return ((task.svd.V * gi(lam, s, 0, 0, 1)) @ task.svd.V.T, (task.svd.U * go(lam, s, 0, 0, 1)) @ task.svd.U.T)


def layer_relation_failures(a, b) -> list[str]:
    """LR-C.2.4-relations: the relations that the layer singular values a(lam, s~), b(lam, s~) violate
    among b^2 - a^2 = lam, a b = s~, b^2 = lam + s~^2/lam + O(lam^-3) and a -> 0 as lam -> +oo (sympy)."""
    kappa = sp.Symbol("kappa", positive=True)          # kappa = 1/lambda
    bad = []
    if sp.simplify(b ** 2 - a ** 2 - sy.lam) != 0:
        bad.append("b^2 - a^2 = lambda")
    signs = [float((a * b).subs({sy.lam: l, sy.s: 0.7})) > 0 for l in (-3.0, 0.0, 2.0)]   # (ab)^2 = s~^2 misses -s~
    if sp.simplify((a * b) ** 2 - sy.s ** 2) != 0 or not all(signs):
        bad.append("a b = s~")
    series = sp.series((b ** 2).subs(sy.lam, 1 / kappa), kappa, 0, 3).removeO()
    if sp.simplify(series - (1 / kappa + sy.s ** 2 * kappa)) != 0:
        bad.append("b^2 = lambda + s~^2/lambda + ...")
    if sp.limit(a.subs(sy.lam, 1 / kappa), kappa, 0) != 0:
        bad.append("a -> 0")
    return bad


def gram_limit_distances(gram_in, gram_out, lams=(20.0, 80.0), seed=1) -> dict:
    """LR-ThmC.4: for each architecture and lambda, the converged Grams' distances
    (||W2W2^T/lam - I||, ||W1^TW1/lam - I|| at -lam, ||W2W2^T/lam - U~U~^T||, ||W1^TW1/lam - V~V~^T|| at -lam)."""
    dist = {}
    for name, (ni, no) in ARCHS.items():
        task = random_task(ni, no, 8, np.random.default_rng(seed))
        for lam in lams:
            _, go = converged_grams(task, lam, gram_in, gram_out)
            gi, _ = converged_grams(task, -lam, gram_in, gram_out)
            dist[name, lam] = (np.linalg.norm(go / lam - np.eye(no)), np.linalg.norm(gi / lam - np.eye(ni)),
                               np.linalg.norm(go / lam - task.svd.U @ task.svd.U.T),
                               np.linalg.norm(gi / lam - task.svd.V @ task.svd.V.T))
    return dist


def kernel_movement(gram_in, gram_out, ni, no, lams, t_end=None, seed=5):
    """Kernel distance S(NTK(0), NTK(t_end)) over lambdas on one task: t_end None uses the converged
    per-mode Grams ``gram_in``/``gram_out`` (Thm C.3), a finite t_end the stable closed form (Thm B.5)."""
    from numerics.lazy_rich import kernels as kn
    task = random_task(ni, no, 8, np.random.default_rng(seed))
    out = []
    for lam in lams:
        W1, W2 = lambda_balanced_init(lam, ni, min(ni, no), no, np.random.default_rng(seed + 1), scale=0.2)
        if t_end is None:
            gi, go = converged_grams(task, lam, gram_in, gram_out)
        else:
            b = so.blocks(so.qq_stable([t_end], W1, W2, task.svd, lam)[0], ni)
            gi, go = b["W1tW1"], b["W2W2t"]
        out.append(float(kn.kernel_distance(kn.ntk(W1, W2, task.X), kn.ntk_from_grams(gi, go, task.X))))
    return task, np.array(out)


def train_hierarchy(lams, steps: int, lr: float = 5e-3, seed: int = 2, scale: float = 0.03):
    """Hierarchy task, lambda-balanced inits with B invertible for ``lams`` plus one large unbalanced
    Gaussian init (Fig. 4D), trained by batched GD: (task, initial W1s, W2s, final W1s, W2s)."""
    from numerics.lazy_rich.tasks import hierarchy_task
    from numerics.lazy_rich.training import train_linear
    task = hierarchy_task()
    W1s, W2s = map(list, zip(*[invertible_b_init(task, lam, seed=seed, scale=scale) for lam in lams]))
    big = np.random.default_rng(seed + 1)
    W1s.append(big.standard_normal((8, 8)))
    W2s.append(big.standard_normal((8, 8)))
    hist = train_linear(np.stack(W1s), np.stack(W2s), task.X, task.Y, lr=lr, steps=steps, record_every=steps)
    return task, W1s, W2s, hist.records["W1"][-1], hist.records["W2"][-1]


def representation_verdict(gram_in, gram_out, task, lams, W1s, W2s, W1T, W2T) -> dict:
    """LR-Sec5-Rep-claims on trained hierarchy nets (``lams`` balanced, then a large Gaussian one):
    printed_ok -- the Eq. (4) output RSM becomes identity-like at lambda = max(lams);
    corrected_ok -- the weight Gram W2W2^T does, lambda W1^TW1 -> V~S~^2V~^T, the trained Grams match the
    per-mode formulas (rel err <= 1e-2: GD at lr 5e-3 is O(lr) from the flow), and the large
    Gaussian init keeps an unstructured representation: its final W1^TW1 is at least 2x closer (kernel
    distance) to its random initial Gram than to the task structure V~S~V~^T.  (The NTK movement of the
    large init is reported too but not thresholded: it keeps growing with training, 0.085 at t/tau = 20,
    0.10 at 80, against 0.18 for the lambda = 0 init, so "less than half" held only before convergence.)"""
    from numerics.lazy_rich import kernels as kn
    n = task.svd.n_in
    sim_err, rsm_gap, out_to_eye, struct = [], [], {}, {}
    for k, lam in enumerate(lams):
        gi, go = converged_grams(task, lam, gram_in, gram_out)
        sim_err.append(max(rel_err(W1T[k].T @ W1T[k], gi), rel_err(W2T[k] @ W2T[k].T, go)))
        ri, ro = kn.rsm_in(W1T[k], task.X), kn.rsm_out(W2T[k], task.Y)
        rsm_gap.append(rel_err(ro, ri))
        out_to_eye[lam] = (np.linalg.norm(ro / (np.trace(ro) / n) - np.eye(n)),
                           np.linalg.norm(go / (np.trace(go) / n) - np.eye(n)))
        struct[lam] = (np.linalg.norm(lam * gi - (task.svd.V * task.svd.s ** 2) @ task.svd.V.T)
                       / np.linalg.norm(task.svd.s ** 2)) if lam else 0.0
    k0, big = list(lams).index(0.0), len(lams)
    lazy_big = float(kn.kernel_distance(kn.ntk(W1s[big], W2s[big], task.X), kn.ntk(W1T[big], W2T[big], task.X)))
    rich_small = float(kn.kernel_distance(kn.ntk(W1s[k0], W2s[k0], task.X), kn.ntk(W1T[k0], W2T[k0], task.X)))
    final_gram = W1T[big].T @ W1T[big]
    keep = float(kn.kernel_distance(final_gram, W1s[big].T @ W1s[big]))
    to_task = float(kn.kernel_distance(final_gram, (task.svd.V * task.svd.s) @ task.svd.V.T))
    top = max(lams)
    # 0.1: normalised Frobenius distance to I of an 8 x 8 matrix; the hierarchy's own structure sits at ~2
    # 0.05: lambda W1^TW1 differs from V~S~^2V~^T by O(s~^2/lambda^2) = 1% at lambda = 10
    return dict(sim_err=sim_err, rsm_gap=rsm_gap, out_to_eye=out_to_eye, struct=struct, lazy_big=lazy_big,
                rich_small=rich_small, keep=keep, to_task=to_task, top=top,
                printed_ok=bool(out_to_eye[top][0] < 0.1),
                corrected_ok=bool(out_to_eye[top][1] < 0.1 and struct[top] < 0.05 and max(sim_err) <= 1e-2
                                  and 2 * keep < to_task))


# ---------------------------------------------------------------- exact solution without invertibility (App A.2)
def no_invertibility_errors(solution) -> dict:
    """LR-A.2-claims for a closed form ``solution(t, W1, W2, svd, lam)`` of QQ^T:
    'singular B' -- rel err vs the ODE for a square lambda = 0 net with a reversed mode (B singular);
    'zero function' -- rel err vs the ODE from W1 = 0, W2 = sqrt(1.5) O (lambda = 1.5);
    'learns' -- rel distance of its W2W1 at t/tau = 20 from Syx (S_lam t <= 23: the plain form stays
    well conditioned, LR-Impl; the transient has decayed by e^{-2 x 0.78 x 20} ~ 3e-14);
    'fixed point' -- max |QQ^T(t)| from W1 = W2 = 0 at lambda = 0.
    A form that needs B^{-1} (raises LinAlgError) scores inf."""
    from numerics.lazy_rich.init import random_orthogonal
    task = random_task(4, 4, 8, np.random.default_rng(20))
    U, V = task.svd.U, task.svd.V
    W1, W2 = 0.3 * V.T, U @ np.diag([-0.3, 0.3, 0.3, 0.3])
    Z2 = np.sqrt(1.5) * random_orthogonal(4, np.random.default_rng(21))
    zero = np.zeros((4, 4))
    out = {}
    try:
        out["singular B"] = solution_error(solution, task, W1, W2, 0.0, np.linspace(0, 6, 7))[0]
        out["zero function"] = solution_error(solution, task, zero, Z2, 1.5, np.linspace(0, 6, 7))[0]
        out["learns"] = rel_err(so.blocks(solution(np.array([20.0]), zero, Z2, task.svd, 1.5)[0], 4)["W2W1"], task.syx)
        out["fixed point"] = float(np.max(np.abs(solution(np.linspace(0, 10, 5), zero, zero, task.svd, 0.0))))
    except np.linalg.LinAlgError:
        return {k: np.inf for k in ("singular B", "zero function", "learns", "fixed point")}
    out["cond B"] = float(np.linalg.cond(so.init_variables(W1, W2, so.spectrum(task.svd, 0.0))[0]))
    return out


def closed_form_riccati_error(rhs, solution, task, W1, W2, lam: float, times=(0.3, 1.1, 2.5), h=1e-5) -> float:
    """LR-B.5.1: central difference of ``solution`` (QQ^T(t)) against ``rhs`` (sympy in F, QQ^T), relative."""
    F = so.f_matrix(task.syx, lam)
    worst = 0.0
    for t in times:
        qq = solution(np.array([t - h, t, t + h]), W1, W2, task.svd, lam)
        values = {ex.F: sp.ImmutableMatrix(F), ex.QQ: sp.ImmutableMatrix(qq[1]), ex.n: F.shape[0]}
        right = np.array(_subs_matrix(rhs, values).evalf(), dtype=float)
        worst = max(worst, rel_err((qq[2] - qq[0]) / (2 * h), right))
    return worst


# ---------------------------------------------------------------- rich and lazy singular-value dynamics (Sec 5)
def rich_lazy_stats(gamma, s_task, s0: float = 1e-3, lam_lazy: float = 40.0) -> dict:
    """LR-Sec5-SV-claims from a transition function ``gamma``: half-rise times at lambda = 0 against
    (tau/2s~) ln(s~/s0) and their order, and the fitted decay rates of 1 - gamma at lambda = lam_lazy."""
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
    """LR-Sec5-SV-claims shallow limit: max |W2W1(t) - (Syx + (W2W1(0) - Syx) decay(lam, t))| / max|Syx| of
    a square non-aligned net (stable closed form), per lambda; ``decay`` is sympy in (lambda, t, tau)."""
    f = sp.lambdify((sy.lam, sy.t, sy.tau), decay, "numpy")
    out = {}
    for lam in lams:
        task, W1, W2 = problem(4, 4, lam, seed=seed, scale=0.3)
        tt = np.linspace(0, 3 / lam, 40)
        fn = so.blocks(so.qq_stable(tt, W1, W2, task.svd, lam), 4)["W2W1"]
        approx = task.syx + (W2 @ W1 - task.syx)[None] * np.asarray(f(lam, tt, 1.0))[:, None, None]
        out[lam] = float(np.max(np.abs(fn - approx)) / np.max(np.abs(task.syx)))
    return out


# ---------------------------------------------------------------- noise robustness (App C.3)
def input_noise_losses(task, W1, W2, sigma: float, draws: int, seed: int) -> np.ndarray:
    """Sampled 1/2-mean losses of W2W1 on X + sigma N(0, 1) (iid input noise)."""
    noise = np.random.default_rng(seed).standard_normal((draws,) + task.X.shape)
    err = W2 @ W1 @ (task.X + sigma * noise) - task.Y
    return 0.5 * np.sum(err ** 2, axis=(1, 2)) / task.n_samples


def weight_noise_losses(task, W1, W2, sigma: float, draws: int, seed: int) -> np.ndarray:
    """Sampled 1/2-mean losses with iid N(0, sigma^2) noise on every entry of W1 and W2."""
    rng = np.random.default_rng(seed)
    A = W1 + sigma * rng.standard_normal((draws,) + W1.shape)
    B = W2 + sigma * rng.standard_normal((draws,) + W2.shape)
    return 0.5 * np.sum((B @ A @ task.X - task.Y) ** 2, axis=(1, 2)) / task.n_samples


def weight_noise_subs(task, W1, W2, sigma: float) -> dict:
    """Values of the symbols of Eq. (173) for a network (W1, W2) on ``task``."""
    from theory.lazy_rich import robustness as rb
    return {rb.loss_clean: float(task.loss(W2 @ W1)), rb.sigma: sigma, sy.n_in: W1.shape[1], sy.n_hid: W1.shape[0],
            sy.n_out: W2.shape[0], rb.w1_sq: float(np.sum(W1 ** 2)), rb.w2_sq: float(np.sum(W2 ** 2))}


def weight_noise_minimiser(m1, m2, s=0.7) -> dict:
    """LR-Robust-Param for per-mode norms m1 = ||W1||^2, m2 = ||W2||^2 (sympy in lambda, s~):
    stationary points of m1 + m2 (Ni = No) and convexity, and for Ni != No the numeric argmin of
    Nm(No m1 + Ni m2) against lambda* = s~(No - Ni)/sqrt(Ni No) (derived)."""
    from scipy.optimize import minimize_scalar
    total = sp.simplify(m1 + m2)
    stationary = sp.solve(sp.diff(total, sy.lam), sy.lam)
    convex = bool(sp.simplify(sp.diff(total, sy.lam, 2)).subs({sy.s: 1}).is_positive)
    star = {}
    for ni, no in ((6, 2), (2, 6), (10, 3)):
        f = sp.lambdify(sy.lam, min(ni, no) * (no * m1 + ni * m2).subs(sy.s, s), "numpy")
        star[(ni, no)] = (minimize_scalar(f, bounds=(-20, 20), method="bounded", options={"xatol": 1e-10}).x,
                          s * (no - ni) / np.sqrt(ni * no))
    return dict(stationary=stationary, convex=convex, unequal=max(abs(a - b) for a, b in star.values()))
