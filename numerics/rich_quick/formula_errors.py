"""Errors of the single-neuron formulas of "Get rich quick" (Sec 3, App A) against numerics: 30-digit
residuals of rate equations, identities and closed-form solutions at drawn points, and closed
forms against integrated weight flows (``numerics.rich_quick.single_neuron``, gradient-flow time
t).  Every function takes the formula under test as an argument and returns a number; the
verify layer turns the numbers into measurements."""
from __future__ import annotations

from functools import cache

import mpmath
import numpy as np
import sympy as sp

from numerics.rich_quick import single_neuron as sn
from numerics.rich_quick import single_neuron_paths as sns
from numerics.rich_quick.checks import formula, numbers, size
from numerics.validation import InvalidArgument, finite_array, number, positive
from theory.rich_quick import single_neuron_implicit_bias as B
from theory.rich_quick import single_neuron_symbols as S

DPS = 30


HP_TOL = 1e-15


COORDS = {S.mu: S.MU_OF_WEIGHTS, S.phi: S.PHI_OF_WEIGHTS, S.delta: S.DELTA_OF_WEIGHTS,
          S.nu: S.NU_OF_WEIGHTS, S.omega: S.OMEGA_OF_WEIGHTS, S.v: S.V_OF_WEIGHTS}


def _inputs(point: dict, names, label: str = "point") -> list:
    """The values of ``names`` in ``point`` at DPS digits; a KeyError naming the ones missing."""
    try:
        return [mpmath.mpf(point[n]) for n in names]
    except KeyError:
        raise KeyError(f"{label} misses {sorted(set(names) - set(point))}: the formula reads "
                       f"{list(names)}") from None


def _finite_inputs(point: dict, names, label: str = "point"):
    """Called only on a non-finite value: a ValueError when an input caused it."""
    for n in names:
        if not mpmath.isfinite(mpmath.mpf(point[n])):
            raise InvalidArgument(f"{label}[{n!r}]={point[n]!r} must be finite")


@cache
def _compiled(expr: sp.Expr):
    symbols = tuple(sorted(expr.free_symbols, key=lambda s: s.name))
    f = sp.lambdify(symbols, expr, modules="mpmath")
    names = tuple(s.name for s in symbols)

    def evaluate(point: dict) -> mpmath.mpf:
        with mpmath.workdps(DPS):
            value = f(*_inputs(point, names))
            value = abs(value) if not isinstance(value, mpmath.mpc) else (
                abs(value.real) if abs(value.imag) < mpmath.mpf(10) ** (-DPS + 5) else mpmath.inf)
            if not mpmath.isfinite(value):
                _finite_inputs(point, names)
            return value
    return evaluate


def with_delta(point: dict) -> dict:
    """``point`` with delta = eta_w a^2 - eta_a (w1^2 + w2^2) computed at DPS digits: the float
    inputs are exact binary numbers, so delta carries no float64 rounding into a 30-digit check."""
    names = ("a", "w1", "w2", "eta_a", "eta_w")
    with mpmath.workdps(DPS):
        _inputs(point, names)
        _finite_inputs(point, names)
        a, w1, w2 = (mpmath.mpf(point[k]) for k in ("a", "w1", "w2"))
        delta = mpmath.mpf(point["eta_w"]) * a ** 2 - mpmath.mpf(point["eta_a"]) * (w1 ** 2 + w2 ** 2)
    return {**point, "delta": delta}


def hp_abs(expr, point: dict) -> float:
    """|expr| at ``point`` (symbol name -> float), 30 digits; inf for a complex value."""
    expr = sp.sympify(formula(expr))
    if not expr.free_symbols:
        return float(abs(sp.N(expr, DPS)))
    return float(_compiled(expr)(point))


def relative(residual, scale, point) -> float:
    return hp_abs(residual, point) / max(1.0, hp_abs(scale, point))


def flow_rate(quantity: sp.Expr) -> sp.Expr:
    """d quantity/dt along the whitened weight flow Eqs. (14)-(15) (chain rule)."""
    quantity = sp.sympify(formula(quantity, "quantity"))
    return sum(sp.diff(quantity, s) * f for s, f in S.WEIGHT_FLOW.items())


@cache
def _rate_residual(quantity, rate):
    chain = flow_rate(quantity)
    return chain - sp.sympify(rate).subs(COORDS), chain


def rate_equation_error(quantity: sp.Expr, rate: sp.Expr, point: dict) -> float:
    """Relative error of a printed rate ``d quantity/dt = rate(mu, phi, nu, omega, v, delta, ...)``
    against the chain rule along the weight flow, at a weight point (a, w1, w2, b, eta_a, eta_w)."""
    return relative(*_rate_residual(sp.sympify(formula(quantity, "quantity")),
                                    sp.sympify(formula(rate, "rate"))), point)


@cache
def _identity_residual(lhs, rhs):
    lhs, rhs = lhs.subs(COORDS), rhs.subs(COORDS)
    return lhs - rhs, lhs


def identity_error(lhs: sp.Expr, rhs: sp.Expr, point: dict) -> float:
    """Relative error of ``lhs = rhs`` at ``point`` (weights substituted for coordinates)."""
    return relative(*_identity_residual(sp.sympify(formula(lhs, "lhs")),
                                        sp.sympify(formula(rhs, "rhs"))), point)


@cache
def _solution_residual(solution, rate, state):
    d = sp.diff(solution, S.t)
    return d - rate.subs(state, solution), d


def solution_residual(solution: sp.Expr, rate: sp.Expr, state: sp.Symbol, point: dict) -> float:
    """Relative residual of a closed form ``state(t) = solution`` in ``state' = rate`` at ``point``
    (which carries t and the constants)."""
    if not isinstance(state, sp.Symbol):
        raise InvalidArgument(f"state must be a sympy Symbol, got {type(state).__name__}")
    return relative(*_solution_residual(sp.sympify(formula(solution, "solution")),
                                        sp.sympify(formula(rate, "rate")), state), point)


def rate_pair_preconditioner_gap(n: int = 8, seed: int = 0, factors=(2.0, 0.5)) -> float:
    """Largest relative gap between M = eta_w a^2 I + eta_a w w^T at rates (eta_a, eta_w) and at
    (f_a eta_a, f_w eta_w) (``factors``; the default keeps the product), for inits with the same
    beta = a w and delta (GRQ-Conv-WLOG)."""
    n, seed = size(n, "n"), size(seed, "seed", 0)
    numbers("factors", factors, positive=True, length=2)
    rng = np.random.default_rng(seed)
    gap = 0.0
    for _ in range(n):
        beta, delta = rng.standard_normal(3), rng.uniform(-2, 2)
        ea, ew = np.exp(rng.uniform(-1, 1, 2))
        M = [sn.preconditioner(*sn.balanced_init(beta, delta, x, y), x, y)
             for x, y in ((ea, ew), (factors[0] * ea, factors[1] * ew))]
        gap = max(gap, float(np.max(np.abs(M[0] - M[1])) / np.max(np.abs(M[0]))))
    return gap


def wlog_points(n=5, seed=0):
    """Fixed weight points at the paper's WLOG rates eta_a eta_w = 1 with eta_a != eta_w."""
    n, seed = size(n, "n"), size(seed, "seed", 0)
    rng = np.random.default_rng(seed)
    return [{"a": rng.uniform(0.3, 2), "w1": rng.uniform(0.3, 2), "w2": rng.uniform(-2, 2),
             "b": rng.uniform(0.5, 2), "eta_a": float(ea), "eta_w": float(1 / ea)}
            for ea in np.exp(rng.uniform(0.4, 1.5, n) * rng.choice([-1, 1], n))]


COORDS_UNIT = {s: e.subs({S.eta_a: 1, S.eta_w: 1}) for s, e in COORDS.items()}


_c = sp.sqrt(S.eta_a * S.eta_w)


RESCALED = {S.a: sp.sqrt(S.eta_w) * S.a, S.w1: sp.sqrt(S.eta_a) * S.w1,
            S.w2: sp.sqrt(S.eta_a) * S.w2, S.b: _c * S.b}


def rescaled_rate_error(quantity: sp.Expr, rate: sp.Expr, point: dict) -> float:
    """A unit-rate form ``d quantity/dt = rate`` read in the rescaled variables (RESCALED), against
    the chain rule along the weight flow at the point's (general) rates."""
    q = sp.sympify(formula(quantity, "quantity")).subs(RESCALED, simultaneous=True)
    r = sp.sympify(formula(rate, "rate")).subs(COORDS_UNIT).subs(RESCALED, simultaneous=True)
    return rate_equation_error(q, r, point)


def closed_form_in_t(expr: sp.Expr, constants: dict, t) -> np.ndarray:
    """A closed form of t evaluated on a grid at 30 digits (constants: symbol name -> value)."""
    f = _compiled_signed(sp.sympify(formula(expr)))
    return np.array([f({**constants, "t": float(s)}) for s in np.atleast_1d(finite_array(t, "t"))])


@cache
def _compiled_signed(expr):
    symbols = tuple(sorted(expr.free_symbols, key=lambda s: s.name))
    f = sp.lambdify(symbols, expr, modules="mpmath")

    names = tuple(s.name for s in symbols)

    def evaluate(point):
        with mpmath.workdps(DPS):
            value = f(*_inputs(point, names, "constants"))
            if isinstance(value, mpmath.mpc):
                return float(value.real) if abs(value.imag) < 1e-20 else float("nan")
            return float(value)
    return evaluate


def basin_prediction(basin_expr: sp.Expr, case: dict, rescaled: bool = False) -> float:
    """The printed/corrected basin quantity at an initial condition (its sign = sgn a(inf)).
    ``rescaled``: evaluate it in a0' = sqrt(eta_w) a0, omega0' = sqrt(eta_a) c omega0, b' = c b
    (c = sqrt(eta_a eta_w)), the variables of the unit-rate reading of the WLOG."""
    sns.whitened_case(case)
    bs = np.asarray(case["beta_star"], float)
    w0 = np.asarray(case["w0"], float)
    ea, ew = case["eta_a"], case["eta_w"]
    c = np.sqrt(ea * ew) if rescaled else 1.0
    sa, sw = (np.sqrt(ew), np.sqrt(ea)) if rescaled else (1.0, 1.0)
    point = {"a0": sa * case["a0"], "omega0": sw * c * float(w0 @ bs), "b": c * float(np.linalg.norm(bs)),
             "delta": float(sn.delta_of(case["a0"], w0, ea, ew)), "eta_a": ea, "eta_w": ew}
    return closed_form_in_t(basin_expr, point, [0.0])[0]


def basin_mismatches(basin_expr, cases, margin=0.05, rescaled=False):
    """Inits (delta < 0) whose predicted sign of a(inf) is wrong; those within ``margin``
    (relative) of the separating surface are skipped."""
    if not cases:
        raise InvalidArgument("cases is empty: no initial condition to check")
    margin = number(margin, "margin", nonnegative=True)
    bad, used = [], 0
    for case in cases:
        pred = basin_prediction(basin_expr, case, rescaled)
        scale = abs(case["a0"]) + float(np.linalg.norm(case["w0"]) * np.linalg.norm(case["beta_star"]))
        if rescaled:    # the rescaled quantity carries a factor sqrt(eta_w) and eta_a on omega0
            pred, scale = pred / np.sqrt(case["eta_w"]), scale * max(1.0, case["eta_a"])
        if abs(pred) < margin * scale:
            continue
        used += 1
        if np.sign(pred) != sns.final_sign_of_a(case):
            bad.append(case)
    return bad, used


def preconditioner_error(M_of_beta, a, w, eta_a, eta_w) -> float:
    """Relative Frobenius error of ``M_of_beta(beta, delta, eta_a, eta_w)`` against
    ``eta_w a^2 I + eta_a w w^T`` (Eq. 3)."""
    if not callable(M_of_beta):
        raise InvalidArgument(f"M_of_beta must be callable, got {type(M_of_beta).__name__}")
    M = sn.preconditioner(a, w, eta_a, eta_w)
    d = sn.delta_of(a, w, eta_a, eta_w)
    return float(np.linalg.norm(M_of_beta(a * np.asarray(w), d, eta_a, eta_w) - M) / np.linalg.norm(M))


def numeric_hessian(fun, beta, h=1e-4):
    """Central-difference Hessian (error O(h^2) ~ 1e-8 relative at h = 1e-4)."""
    beta, h = _step(beta, h)
    d = beta.size
    H = np.empty((d, d))
    E = np.eye(d) * h
    for i in range(d):
        for j in range(d):
            H[i, j] = (fun(beta + E[i] + E[j]) - fun(beta + E[i] - E[j]) - fun(beta - E[i] + E[j])
                       + fun(beta - E[i] - E[j])) / (4 * h * h)
    return H


def _step(beta, h):
    """A finite point beta (d,) and a finite-difference step h > 0."""
    return finite_array(beta, "beta", ndim=1), number(h, "h", positive=True)


def curl_asymmetry(H_of_beta, beta, h=1e-6) -> float:
    """max_{ijk} |dH_ij/dbeta_k - dH_ik/dbeta_j| (Eq. 50) by central differences."""
    beta, h = _step(beta, h)
    d = beta.size
    dH = np.stack([(H_of_beta(beta + h * e) - H_of_beta(beta - h * e)) / (2 * h) for e in np.eye(d)])
    return float(np.max(np.abs(dH.transpose(1, 2, 0) - dH.transpose(1, 0, 2))))


def implicit_bias_minimiser(potential, linear_coeff, X, y, beta0, guess):
    """argmin ``potential(beta) - linear_coeff * beta0_hat^T beta`` s.t. ``X beta = y``."""
    beta0 = finite_array(beta0, "beta0", ndim=1)
    if not np.any(beta0):
        raise InvalidArgument("beta0 must be nonzero: its direction beta0_hat is undefined")
    b0 = beta0 / np.linalg.norm(beta0)
    return sn.interpolant_argmin(lambda beta: potential(beta) - linear_coeff * b0 @ beta, X, y, guess)


def downstream_inits(n, eta_a, eta_w, seed):
    """``n`` whitened cases (a0, w0, beta_*, rates) with delta < 0, drawn from ``seed``."""
    n, seed = size(n, "n"), size(seed, "seed", 0)
    positive(eta_a, "eta_a"), positive(eta_w, "eta_w")
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        d = int(rng.integers(2, 4))
        w0 = rng.standard_normal(d)
        a0 = rng.choice([-1, 1]) * np.sqrt(eta_a * (w0 @ w0) / eta_w * rng.uniform(0.05, 0.9))
        cases.append({"a0": float(a0), "w0": w0.tolist(), "beta_star": (rng.standard_normal(d) * 1.5).tolist(),
                      "eta_a": eta_a, "eta_w": eta_w})
    return cases


def eq71_residuals(eq71, run, deltas) -> np.ndarray:
    """|Eq. (71)| (``eq71`` in alpha, k, delta, b) at the gradient-flow alpha of the low-rank
    limits ``run`` (``single_neuron_paths.LimitRun``) for ``deltas``."""
    missing = [d for d in deltas if d not in run.deltas]
    if missing:
        raise InvalidArgument(f"deltas {missing} were not run (the run has {list(run.deltas)})")
    f = sp.lambdify([S.alpha, S.k, S.delta, S.b], eq71)
    b_star = np.linalg.pinv(run.X) @ run.y
    v = np.linalg.svd(run.X)[2][-1]
    v = v * np.sign(v[0])
    unit = run.beta0 / np.linalg.norm(run.beta0)
    out = []
    for d in deltas:
        alpha = float(v @ (run.limits[list(run.deltas).index(d)] - b_star))
        k = float(np.sqrt(np.sqrt(run.beta0 @ run.beta0 + d ** 2 / 4) - d / 2) * unit @ v)
        out.append(abs(f(alpha, k, d, float(np.linalg.norm(b_star)))))
    return np.array(out)


def radial_potential(q_expr):
    """``(beta, delta, c) -> q(c ||beta||, delta)`` of a sympy ``q_expr`` in r and delta."""
    f = sp.lambdify([S.r, S.delta], formula(q_expr, "q_expr"), "numpy")
    return lambda beta, delta, c=1.0: f(c * np.linalg.norm(beta), delta)


def thm31_error(q_expr, psi_expr, X, y, beta0, delta, eta_a=1.0, eta_w=1.0, rescale=False):
    """|GF limit - argmin Psi(c beta) - c psi beta0_hat^T beta| (c = 1 unless ``rescale``)."""
    c = np.sqrt(eta_a * eta_w) if rescale else 1.0
    psi = float(sp.lambdify([B.n0, S.delta, B.c], psi_expr)(np.linalg.norm(beta0), delta,
                                                            np.sqrt(eta_a * eta_w)))
    q = radial_potential(q_expr)
    limit = sns.flow_limit(X, y, beta0, delta, eta_a, eta_w,
                           t_end=sns.limit_time(delta) * (2 if eta_a * eta_w < 1 else 1))
    arg = implicit_bias_minimiser(lambda b: q(b, delta, c), c * psi, X, y, beta0, limit)
    return float(np.max(np.abs(arg - limit))), limit


@cache
def _numeric(expr, symbols):
    return sp.lambdify(list(symbols), expr, "numpy")


def beta_flow_error(M_of_weights, X, y, a, w, eta_a, eta_w) -> float:
    """Relative error of ``beta' = a w' + a' w`` (weight flow Eqs. 11-12) against
    ``-M(a, w, eta_a, eta_w) X^T rho`` (Eq. 3/36)."""
    if not callable(M_of_weights):
        raise InvalidArgument(f"M_of_weights must be callable, got {type(M_of_weights).__name__}")
    w = sn.weight_vector(X, w, "w")
    rhs = sn.weight_rhs(X, y, eta_a, eta_w)(0.0, {"a": np.asarray(a), "w": np.asarray(w, float)})
    beta_dot = a * rhs["w"] + rhs["a"] * np.asarray(w, float)
    pred = -M_of_weights(a, w, eta_a, eta_w) @ (X.T @ (X @ (a * np.asarray(w, float)) - y))
    return float(np.max(np.abs(beta_dot - pred)) / np.max(np.abs(pred)))


def sherman_morrison_error(f_expr, h_expr, beta, delta) -> float:
    """``max |M (f I - h beta beta^T) - I|`` for Eqs. (46)-(49) at rates with product 1."""
    f, h = _numeric(f_expr, (S.x, S.delta)), _numeric(h_expr, (S.x, S.delta))
    beta = np.asarray(beta, float)
    x = float(beta @ beta)
    M = sn.preconditioner_from_beta(beta, delta, 2.0, 0.5)
    Minv = f(x, delta) * np.eye(beta.size) - h(x, delta) * np.outer(beta, beta)
    return float(np.max(np.abs(M @ Minv - np.eye(beta.size))))


def mirror_flow_residuals(dq_expr, g_expr, X, y, beta0, null_dir, delta, t_end=40.0, n_t=8001):
    """Along the unit-rate flow from a balanced init with a0 w0 = beta0 (App A.4.1): the drift of
    grad Phi out of range(X^T), the relative error of ``d/dt grad Phi = -g X^T rho``, and of the
    KKT condition with ``nu = +int g rho`` (printed) and ``nu = -int g rho`` (corrected).
    ``dq_expr`` = q'(r), ``g_expr`` = g(x = r^2); n_t >= 201 (100 points at each end are left
    out of the derivative)."""
    n_t, t_end = size(n_t, "n_t", 201), number(t_end, "t_end", positive=True)
    a0, w0 = sn.balanced_init(beta0, delta)
    t = np.linspace(0, t_end, n_t)
    flow = sn.integrate(X, y, a0, w0, t_end, t_eval=t, rtol=1e-12)
    beta = flow.states["a"] * flow.states["w"]
    dq = sp.lambdify([S.r, S.delta], dq_expr, "numpy")
    g = sp.lambdify([S.x, S.delta], g_expr, "numpy")
    nrm = np.linalg.norm(beta, axis=0)
    grad_phi = dq(nrm, delta) * beta / nrm
    rho = (X @ beta - y[:, None])[0]
    gr = g(nrm ** 2, delta) * rho
    dgrad = np.gradient(grad_phi, t, axis=1, edge_order=2)[:, 100:-100]
    warped = -(X.T * gr)[:, 100:-100]
    lhs = grad_phi[:, -1] - grad_phi[:, 0]
    integral = np.trapezoid(gr, t)
    scale = np.max(np.abs(lhs))
    return {"null": float(np.max(np.abs(null_dir @ (grad_phi - grad_phi[:, :1])))),
            "deriv": float(np.max(np.abs(dgrad - warped)) / np.max(np.abs(warped))),
            "kkt_plus": float(np.max(np.abs(lhs - X[0] * integral)) / scale),
            "kkt_minus": float(np.max(np.abs(lhs + X[0] * integral)) / scale)}


def rescaling_error(X, y, beta0, eta_a, eta_w, delta, y_factor=None, t_end=5.0) -> float:
    """App A.3 L450: ``c beta(t)`` at rates (eta_a, eta_w) against ``beta'(t)`` of the unit-rate
    model on ``y' = y_factor y`` (``c = sqrt(eta_a eta_w)``, the claim's ``y_factor``), same delta."""
    t_end = number(t_end, "t_end", positive=True)
    c = np.sqrt(eta_a * eta_w)
    y_factor = c if y_factor is None else y_factor
    a0, w0 = sn.balanced_init(beta0, delta, eta_a, eta_w)
    ap, wp = sn.balanced_init(c * np.asarray(beta0, float), delta, 1.0, 1.0)
    t = np.linspace(0, t_end, 51)
    f1 = sn.integrate(X, y, a0, w0, t_end, eta_a=eta_a, eta_w=eta_w, t_eval=t)
    f2 = sn.integrate(X, y_factor * y, ap, wp, t_end, t_eval=t)
    b1, b2 = c * f1.states["a"] * f1.states["w"], f2.states["a"] * f2.states["w"]
    return float(np.max(np.abs(b1 - b2)) / np.max(np.abs(b2)))


def weight_flow_error(rhs_factory, X, y, a, w, eta_a, eta_w) -> float:
    """Max abs error of ``rhs_factory(X, y, eta_a, eta_w)`` (Eqs. 11-12) against ``-eta * grad`` of
    the 1/2-sum loss by torch autograd (float64)."""
    import torch
    if not callable(rhs_factory):
        raise InvalidArgument(f"rhs_factory must be callable, got {type(rhs_factory).__name__}")
    at = torch.tensor(float(a), dtype=torch.float64, requires_grad=True)
    wt = torch.as_tensor(np.asarray(w, float)).clone().requires_grad_(True)
    loss = 0.5 * ((torch.as_tensor(X) @ (at * wt) - torch.as_tensor(y)) ** 2).sum()
    ga, gw = torch.autograd.grad(loss, (at, wt))
    printed = rhs_factory(X, y, eta_a, eta_w)(0.0, {"a": np.asarray(float(a)), "w": np.asarray(w, float)})
    return float(max(abs(printed["a"] + eta_a * ga.item()),
                     np.max(np.abs(printed["w"] + eta_w * gw.numpy()))))


FLOW_T_END = 15.0


def mu_phi_ode_error(rhs, case):
    """Eq. (2) integrated by solve_ivp (``rhs(mu, phi, b, delta, eta_a, eta_w)``) against the
    weight flow of ``case`` (mu relative to its range, phi absolute), t <= FLOW_T_END."""
    ref = sns.flow_coordinates(case, FLOW_T_END, 61)
    bn = float(np.linalg.norm(case["beta_star"]))
    dl = float(sn.delta_of(case["a0"], np.asarray(case["w0"]), case["eta_a"], case["eta_w"]))
    mu, phi = sn.integrate_coordinates(lambda y: rhs(y[0], y[1], bn, dl, case["eta_a"], case["eta_w"]),
                                       [ref["mu"][0], ref["phi"][0]], ref["t"])
    return sns.trajectory_error({"mu": mu, "phi": phi}, ref)


def exact_vs_flow(case):
    ref = sns.flow_coordinates(case, FLOW_T_END, 61)
    ex = sn.exact_solution(ref["t"], case["a0"], case["w0"], case["beta_star"], case["eta_a"], case["eta_w"])
    return sns.trajectory_error({"mu": ex.mu, "phi": ex.phi, "a": ex.a}, ref)


def sign_flips_of_a(case):
    _, a, _, _ = sns.whitened_flow(case, FLOW_T_END, 301)
    return int(np.sum(np.sign(a[1:]) != np.sign(a[:-1])))


def balanced_closed_form_error(phi_expr, mu_expr, c_mu_expr, case, which):
    """Printed balanced (phi, mu)(t) vs the flow; eta_a eta_w = 1 as the paper assumes, a0 > 0."""
    if which not in ("phi", "mu"):
        raise InvalidArgument(f"which={which!r} must be 'phi' or 'mu'")
    ref = sns.flow_coordinates(case, FLOW_T_END, 41)
    consts = {"b": float(np.linalg.norm(case["beta_star"])), "c_phi": float(np.arctanh(ref["phi"][0])),
              "mu0": float(ref["mu"][0])}
    consts["c_mu"] = closed_form_in_t(c_mu_expr, consts, [0.0])[0]
    expr = {"phi": phi_expr, "mu": mu_expr}[which]
    return sns.trajectory_error({which: closed_form_in_t(expr, consts, ref["t"])}, ref)


def nu_closed_form_error(solution, case, rescaled=False):
    """A closed form nu(t) vs the flow's nu = w^T beta_*/a; ``rescaled``: the form is read in the
    rescaled variables, where nu' = eta_a nu and b' = sqrt(eta_a eta_w) b."""
    ref = sns.flow_coordinates(case, FLOW_T_END, 41)
    ea, ew = case["eta_a"], case["eta_w"]
    k, c = (ea, np.sqrt(ea * ew)) if rescaled else (1.0, 1.0)
    consts = {"b": c * float(np.linalg.norm(case["beta_star"])), "nu0": k * float(ref["nu"][0]),
              "delta": float(sn.delta_of(case["a0"], np.asarray(case["w0"]), ea, ew)),
              "eta_a": ea, "eta_w": ew}
    return sns.trajectory_error({"nu": closed_form_in_t(solution, consts, ref["t"]) / k}, ref)


def recover_error(recover_pair, case, rescaled=False):
    """(a, ||w||) from mu by ``recover_pair`` vs the flow; ``rescaled``: the pair is read in
    mu' = c mu and returns a' = sqrt(eta_w) a, ||w'|| = sqrt(eta_a) ||w||."""
    if len(recover_pair) != 2:
        raise InvalidArgument(f"recover_pair must be two formulas (a, ||w||) of mu, got {len(recover_pair)}")
    ref = sns.flow_coordinates(case, FLOW_T_END, 41)
    ea, ew = case["eta_a"], case["eta_w"]
    dl = float(sn.delta_of(case["a0"], np.asarray(case["w0"]), ea, ew))
    c, sa, sw = (np.sqrt(ea * ew), np.sqrt(ew), np.sqrt(ea)) if rescaled else (1.0, 1.0, 1.0)
    a_f, n_f = (sp.lambdify([S.mu, S.delta, S.eta_a, S.eta_w], e, "numpy") for e in recover_pair)
    pred_a = a_f(c * ref["mu"], dl, ea, ew) / sa
    pred_n = n_f(c * ref["mu"], dl, ea, ew) / sw
    return sns.trajectory_error({"a": pred_a, "w_norm": pred_n}, ref)


def w_vector_error(case):
    ref = sns.flow_coordinates(case, FLOW_T_END, 41)
    dl = float(sn.delta_of(case["a0"], np.asarray(case["w0"]), case["eta_a"], case["eta_w"]))
    a, w = sn.recover_weights(ref["mu"], ref["phi"], case["w0"], case["beta_star"], dl,
                              case["eta_a"], case["eta_w"])
    return max(np.max(np.abs(a - ref["a"])), np.max(np.abs(w - ref["w"]))) / max(1, np.max(np.abs(ref["w"])))
