"""The single-hidden-neuron linear network ``f(x) = a w^T x`` of "Get rich quick" (Sec 3, App A).

Time is the paper's gradient-flow time ``t`` (``theory.conventions`` entry ``rich_quick``: the
flow of the 1/2-sum loss with unit time constant, ``d theta/dt = -eta_theta grad L``), with
per-layer rates ``eta_a`` (readout ``a``) and ``eta_w`` (first layer ``w``).

Contents: the weight flow (Eqs. 11-12) integrated by ``numerics.ode.integrate_flow`` with the
conserved ``delta = eta_w a^2 - eta_a ||w||^2`` (Eq. 13) monitored; coordinates ``mu, phi``
(Eq. 2); the preconditioner ``M`` (Eqs. 3-4, 39) and the NTK (Eq. 1); kernel distance; the exact
``(mu, phi)`` solution for every sign of delta and general rates (App A.2, with the Riccati and
Bernoulli equations in their general-rate forms); the implicit-bias argmin (Thm 3.1) and the
closed form of Eq. (72).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import minimize

from numerics.metrics import kernel_distance
from numerics.ode import IntegrationFailed, integrate_flow
from numerics.train import descend
from numerics.validation import InvalidArgument, finite_array, integer, number, positive
from theory.conventions import SUM_HALF


def _rates(eta_a, eta_w):
    return float(positive(eta_a, "eta_a")), float(positive(eta_w, "eta_w"))


def weight_vector(X, w, name: str = "w0") -> np.ndarray:
    """``w`` as a finite weight vector (d,) that fits the d columns of ``X`` (a ValueError naming
    ``name`` otherwise)."""
    w = finite_array(w, name, ndim=1)
    if w.shape[0] != np.shape(X)[1]:
        raise InvalidArgument(f"{name} has {w.shape[0]} entries but X has {np.shape(X)[1]} columns")
    return w


def _target(beta_star, w, name: str = "w0"):
    """(beta_star, ||beta_star||) for a nonzero beta_star of ``w``'s length."""
    beta_star = finite_array(beta_star, "beta_star", ndim=1)
    b = float(np.linalg.norm(beta_star))
    if b == 0:
        raise InvalidArgument("beta_star must be nonzero (phi is undefined)")
    if np.shape(w)[0] != beta_star.size:
        raise InvalidArgument(f"{name} has {np.shape(w)[0]} entries but beta_star has {beta_star.size}")
    return beta_star, b


def delta_of(a, w, eta_a=1.0, eta_w=1.0):
    """Conserved quantity (Eq. 13) ``eta_w a^2 - eta_a ||w||^2``; ``w`` has its vector on axis 0."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    a, w = finite_array(a, "a"), finite_array(w, "w")
    return eta_w * a ** 2 - eta_a * np.sum(w ** 2, axis=0)


def weight_rhs(X, y, eta_a=1.0, eta_w=1.0):
    """``rhs(t, {"a", "w"})`` of the weight flow Eqs. (11)-(12) on the 1/2-sum loss."""
    X = finite_array(X, "X", ndim=2)
    y = finite_array(y, "y", ndim=1)
    if X.shape[0] != y.shape[0]:
        raise InvalidArgument(f"X has {X.shape[0]} rows but y has {y.shape[0]} entries")
    eta_a, eta_w = _rates(eta_a, eta_w)
    G, r = X.T @ X, X.T @ y

    def rhs(t, p):
        grad_beta = G @ (p["a"] * p["w"]) - r
        return {"a": -eta_a * p["w"] @ grad_beta, "w": -eta_w * p["a"] * grad_beta}
    return rhs


def integrate(X, y, a0, w0, t_end, *, eta_a=1.0, eta_w=1.0, t_eval=None, rtol=1e-12,
              conservation_tol=1e-8, events=None, method="DOP853"):
    """The weight flow from ``(a0, w0)`` with ``delta`` monitored as a conserved quantity.

    rtol 1e-12 (DOP853): the closed forms are compared at ~1e-8, so the reference must be tighter.
    ``method="RK45", rtol=1e-6`` is the paper's own setting (App D.2 L972).
    """
    w0, a0 = weight_vector(X, w0), number(a0, "a0")
    atol = 1e-14 * max(1.0, abs(a0), float(np.linalg.norm(w0)))
    return integrate_flow(
        weight_rhs(X, y, eta_a, eta_w), {"a": np.asarray(float(a0)), "w": w0}, t_end,
        t_eval=t_eval, rtol=rtol, atol=atol, conservation_tol=conservation_tol, events=events,
        method=method,
        conserved={"delta": lambda p: delta_of(p["a"], p["w"], eta_a, eta_w)})


def integrate_with_a_sq_integral(X, y, a0, w0, t_end, *, eta_a=1.0, eta_w=1.0, t_eval=None):
    """The weight flow with ``A(t) = int_0^t a(s)^2 ds`` integrated beside it (state ``"A"``):
    on whitened data the part of ``w`` orthogonal to ``beta_*`` decays as ``exp(-eta_w A(t))``
    (Sec 3 L64).  Time is the gradient-flow time ``t``."""
    rhs = weight_rhs(X, y, eta_a, eta_w)
    w0, a0 = weight_vector(X, w0), number(a0, "a0")
    return integrate_flow(lambda t, p: {**rhs(t, p), "A": p["a"] ** 2},
                          {"a": np.asarray(a0), "w": w0, "A": np.asarray(0.0)}, t_end,
                          t_eval=t_eval, rtol=1e-12, atol=1e-14)


def gradient_descent(X, y, a0, w0, lr, steps):
    """Plain full-batch GD on the 1/2-sum loss with one step size ``lr`` for both layers (the loop
    of :func:`numerics.train.descend`); ``steps`` steps approximate the flow at gradient-flow time
    ``t = lr * steps``.  Returns (a, w); a FloatingPointError when they diverge (lr too large)."""
    X = finite_array(X, "X", ndim=2)
    y = finite_array(y, "y", ndim=1)
    positive(lr, "lr")
    p = {"a": number(a0, "a0"), "w": weight_vector(X, w0).copy()}
    steps = integer(steps, "steps", 0)

    def step(X, y, lr, loss):
        g = X.T @ (X @ (p["a"] * p["w"]) - y)
        p["a"], p["w"] = p["a"] - lr * p["w"] @ g, p["w"] - lr * p["a"] * g

    def losses(X, y, loss):
        return np.atleast_1d(loss.factor(len(y)) * np.sum((X @ (p["a"] * p["w"]) - y) ** 2))
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            descend(step, losses, X, y, lr=lr, loss=SUM_HALF, steps=steps,
                    record_every=max(steps, 1))
    except FloatingPointError:
        raise FloatingPointError(f"lr={lr!r} is too large: gradient descent diverged within "
                                 f"{steps} steps (take a smaller step)") from None
    return p["a"], p["w"]


def integrate_coordinates(rate, y0, t_eval, rtol=1e-12, atol=1e-14):
    """Integrate a small autonomous system ``y' = rate(y)`` (e.g. the (mu, phi) ODE, Eq. 2) on the
    grid ``t_eval`` (gradient-flow time, starting at ``t_eval[0]``); DOP853.  Returns (len(y0), T);
    an ``IntegrationFailed`` when the integrator stops early (a rate that blows up)."""
    if not callable(rate):
        raise InvalidArgument(f"rate must be callable (y -> y'), got {type(rate).__name__}")
    t_eval = finite_array(t_eval, "t_eval", ndim=1)
    if t_eval.size < 2 or np.any(np.diff(t_eval) <= 0):
        raise InvalidArgument(f"t_eval must be an increasing grid of at least two times, got {t_eval}")
    y0 = finite_array(y0, "y0", ndim=1)
    sol = solve_ivp(lambda t, y: rate(y), (t_eval[0], t_eval[-1]), list(y0), t_eval=t_eval,
                    method="DOP853", rtol=rtol, atol=atol)
    if not sol.success:
        raise IntegrationFailed(f"integrate_coordinates: the rate stopped at t={sol.t[-1]:.6g} "
                                f"before t={t_eval[-1]:.6g}: {sol.message}")
    return sol.y


def mu_phi(a, w, beta_star):
    """``mu = a ||w||`` and ``phi = w^T beta_* / (||w|| ||beta_*||)`` (Eq. 2); ``w`` (d, ...)."""
    beta_star, b = _target(beta_star, w, "w")
    a, w = np.asarray(a, float), np.asarray(w, float)
    nw = np.linalg.norm(w, axis=0)
    if not np.all(nw):
        raise InvalidArgument("w has a zero column: phi is undefined where w = 0")
    return a * nw, np.tensordot(beta_star, w, axes=(0, 0)) / (nw * b)


def preconditioner(a, w, eta_a=1.0, eta_w=1.0):
    """``M = eta_w a^2 I + eta_a w w^T`` (Eq. 3) from the weights."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    w = finite_array(w, "w", ndim=1)
    return eta_w * number(a, "a") ** 2 * np.eye(w.size) + eta_a * np.outer(w, w)


def preconditioner_from_beta(beta, delta, eta_a=1.0, eta_w=1.0):
    """``M(beta, delta)`` of Eq. (4): ``(k+delta)/2 I + (k-delta)/2 bb^T/||b||^2``."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    beta, delta = finite_array(beta, "beta", ndim=1), number(delta, "delta")
    n2 = float(beta @ beta)
    if n2 == 0:
        raise InvalidArgument("beta must be nonzero: Eq. (4) needs ||beta|| > 0")
    kappa = np.sqrt(delta ** 2 + 4 * eta_a * eta_w * n2)
    return (kappa + delta) / 2 * np.eye(beta.size) + (kappa - delta) / 2 * np.outer(beta, beta) / n2


# --- exact solutions (App A.2), general rates --------------------------------------------------

def riccati(t, x0, P, Q, S):
    """Solution of ``x' = P + Q x - S x^2`` (the form of Eqs. 26 and 31), written with tanh so
    that it does not overflow: ``[2R x0 + (2P + Q x0) T] / [2R + (2S x0 - Q) T]``, ``T = tanh Rt``,
    ``R = sqrt(Q^2 + 4PS)/2``, real: ``Q^2 + 4PS >= 0``."""
    x0, P, Q, S = (number(v, n) for v, n in ((x0, "x0"), (P, "P"), (Q, "Q"), (S, "S")))
    if Q ** 2 + 4 * P * S < 0:
        raise InvalidArgument(f"Q^2 + 4 P S = {Q ** 2 + 4 * P * S!r} must be non-negative (a real R)")
    R = 0.5 * np.sqrt(Q ** 2 + 4 * P * S)
    T = np.tanh(R * finite_array(t, "t"))
    return (2 * R * x0 + (2 * P + Q * x0) * T) / (2 * R + (2 * S * x0 - Q) * T)


def _bernoulli_reciprocal(t, p0, delta, R, A, B, alpha, beta_, eta_w):
    """``p(t) = e^{-delta t} (2R/D)^2 [p0 + 2 eta_w/(4R^2) int_0^t e^{delta s} G(s)^2 ds]`` with
    ``D = A e^{Rs} + B e^{-Rs}``, ``G = alpha e^{Rs} + beta e^{-Rs}``, all scaled by
    ``e^{-(delta+2R)t}`` so that nothing overflows (``delta + 2R > 0 > delta - 2R``)."""
    t = np.asarray(t, float)
    lam = delta + 2 * R
    e_lam, e_2R, e_4R = np.exp(-lam * t), np.exp(-2 * R * t), np.exp(-4 * R * t)
    # e^{-2Rt}(1 - e^{-delta t})/delta, written so that neither sign of delta overflows
    if delta == 0:
        mid = t * e_2R
    elif delta > 0:
        mid = -e_2R * np.expm1(-delta * t) / delta
    else:
        mid = e_lam * np.expm1(delta * t) / delta
    integral = (alpha ** 2 * (-np.expm1(-lam * t)) / lam + 2 * alpha * beta_ * mid
                + beta_ ** 2 * (e_4R - e_lam) / (delta - 2 * R))
    D_scaled = A + B * e_2R
    return (2 * R) ** 2 / D_scaled ** 2 * (p0 * e_lam + eta_w / (2 * R ** 2) * integral)


@dataclass
class ExactSolution:
    """Closed-form trajectory: ``a, omega = w^T beta_*, ||w||, mu, phi`` on the grid ``t``."""

    t: np.ndarray
    a: np.ndarray
    omega: np.ndarray
    w_norm: np.ndarray
    mu: np.ndarray
    phi: np.ndarray
    route: str          # "nu" (a keeps its sign, Eqs. 26-28) or "v" (a changes sign, Eqs. 31-32)


def changes_sign(a0, omega0, b, delta, eta_a=1.0, eta_w=1.0) -> bool:
    """True when ``a`` crosses zero (App A.2.5 with general rates): the general-rate separating
    quantity ``eta_a omega0 + (a0/2)(delta + sqrt(delta^2 + 4 eta_a eta_w b^2))`` has the sign
    opposite to ``a0`` (or ``a0 = 0``)."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    a0, omega0, b, delta = (number(v, n) for v, n in ((a0, "a0"), (omega0, "omega0"), (b, "b"),
                                                      (delta, "delta")))
    s = eta_a * omega0 + a0 / 2 * (delta + np.sqrt(delta ** 2 + 4 * eta_a * eta_w * b ** 2))
    return bool(a0 == 0 or np.sign(s) != np.sign(a0))


def exact_solution(t, a0, w0, beta_star, eta_a=1.0, eta_w=1.0) -> ExactSolution:
    """The exact whitened (``X^T X = I``) single-neuron dynamics for any delta and rates.

    Route "nu" (``a`` keeps its sign): ``nu = omega/a`` solves the Riccati equation
    ``nu' = eta_w b^2 - delta nu - eta_a nu^2`` and ``p = a^{-2}`` a linear ODE solved in closed
    form.  Route "v" (``a`` crosses zero, delta < 0; Lemma A.1 keeps omega's sign):
    ``v = a/omega`` solves ``v' = eta_a + delta v - eta_w b^2 v^2`` and ``z = omega^{-2}`` a
    linear ODE.  With ``eta_a = eta_w = 1`` these are the paper's Eqs. (26)-(28), (31)-(32).
    Both routes are written so that nothing overflows: finite for every t >= 0 (gradient-flow
    time).
    """
    eta_a, eta_w = _rates(eta_a, eta_w)
    t = finite_array(t, "t")
    if np.any(t < 0):
        raise InvalidArgument(f"t must be non-negative (gradient-flow time from the init), got min {t.min()}")
    w0 = finite_array(w0, "w0", ndim=1)
    beta_star, b = _target(beta_star, w0)
    a0 = number(a0, "a0")
    omega0 = float(w0 @ beta_star)
    delta = float(eta_w * a0 ** 2 - eta_a * w0 @ w0)
    if changes_sign(a0, omega0, b, delta, eta_a, eta_w):
        if omega0 == 0:
            raise InvalidArgument("a0 = 0 and w0 orthogonal to beta_star: a saddle point")
        P, Q, S = eta_a, delta, eta_w * b ** 2
        x0 = a0 / omega0
        R = 0.5 * np.sqrt(Q ** 2 + 4 * P * S)
        E = 2 * S * x0 - Q
        A, B = (2 * R + E) / 2, (2 * R - E) / 2
        alpha, beta_ = (delta / 2 + R) * A / S, (delta / 2 - R) * B / S
        z = _bernoulli_reciprocal(t, omega0 ** -2, delta, R, A, B, alpha, beta_, eta_w)
        omega = np.sign(omega0) / np.sqrt(z)
        a = riccati(t, x0, P, Q, S) * omega
        route = "v"
    else:
        P, Q, S = eta_w * b ** 2, -delta, eta_a
        x0 = omega0 / a0
        R = 0.5 * np.sqrt(Q ** 2 + 4 * P * S)
        E = 2 * S * x0 - Q
        A, B = (2 * R + E) / 2, (2 * R - E) / 2
        p = _bernoulli_reciprocal(t, a0 ** -2, delta, R, A, B, A, B, eta_w)
        a = np.sign(a0) / np.sqrt(p)
        omega = riccati(t, x0, P, Q, S) * a
        route = "nu"
    w_norm = np.sqrt(np.maximum(eta_w * a ** 2 - delta, 0.0) / eta_a)
    return ExactSolution(t, a, omega, w_norm, a * w_norm, omega / (w_norm * b), route)


def recover_weights(mu, phi, w0, beta_star, delta, eta_a=1.0, eta_w=1.0):
    """(a, w) from (mu, phi) (App A.2.6, Eqs. 34-35, general rates): ``a^2 = (k+delta)/(2 eta_w)``,
    ``||w||^2 = (k-delta)/(2 eta_a)``, ``k = sqrt(delta^2 + 4 eta_a eta_w mu^2)``;
    ``w = c1 beta_*/b + c2 P_perp w0/||P_perp w0||`` with ``c1 = ||w|| phi``, ``c2 >= 0``."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    mu, phi, delta = finite_array(mu, "mu"), finite_array(phi, "phi"), number(delta, "delta")
    # a rounding error above 1 is harmless (c2 is clipped at 0); more is not a direction cosine
    if np.any(np.abs(phi) > 1 + 1e-9):
        raise InvalidArgument(f"phi must lie in [-1, 1] (a cosine), got max |phi| {np.abs(phi).max()}")
    w0 = finite_array(w0, "w0", ndim=1)
    beta_star, b = _target(beta_star, w0)
    kappa = np.sqrt(delta ** 2 + 4 * eta_a * eta_w * mu ** 2)
    a = np.sign(mu) * np.sqrt((kappa + delta) / (2 * eta_w))
    nw = np.sqrt(np.maximum(kappa - delta, 0) / (2 * eta_a))
    u = beta_star / b
    perp = w0 - (u @ w0) * u
    n_perp = np.linalg.norm(perp)
    e2 = perp / n_perp if n_perp > 0 else np.zeros_like(u)
    c1 = nw * phi
    c2 = np.sqrt(np.maximum(nw ** 2 - c1 ** 2, 0))
    return a, np.multiply.outer(u, c1) + np.multiply.outer(e2, c2)


# --- implicit bias (Thm 3.1, App A.4) ----------------------------------------------------------

def interpolant_argmin(objective, X, y, beta_guess):
    """``argmin objective(beta) s.t. X beta = y`` over the affine solution set, parametrised by a
    null-space basis of ``X`` (BFGS, gtol 1e-12)."""
    if not callable(objective):
        raise InvalidArgument(f"objective must be callable (beta -> float), got {type(objective).__name__}")
    X = finite_array(X, "X", ndim=2)
    y = finite_array(y, "y", ndim=1)
    if X.shape[0] != y.shape[0]:
        raise InvalidArgument(f"X has {X.shape[0]} rows but y has {y.shape[0]} entries")
    if not np.any(X):
        raise InvalidArgument("X is the zero matrix: X beta = y has no solution set to search")
    beta_guess = weight_vector(X, beta_guess, "beta_guess")
    beta_min_norm = np.linalg.pinv(X) @ y
    _, s, vt = np.linalg.svd(X)
    rank = int(np.sum(s > 1e-12 * s[0]))
    N = vt[rank:].T
    if N.shape[1] == 0:
        return beta_min_norm
    c0 = N.T @ (beta_guess - beta_min_norm)
    res = minimize(lambda c: objective(beta_min_norm + N @ c), c0, method="BFGS",
                   options={"gtol": 1e-12, "maxiter": 2000})
    return beta_min_norm + N @ res.x


def eq72_alpha(k, delta, b):
    """Eq. (72): ``alpha = k sqrt((k^2+delta)/2 + sqrt(((k^2+delta)/2)^2 + b^2))``, ``b`` a norm."""
    k, delta, b = finite_array(k, "k"), finite_array(delta, "delta"), finite_array(b, "b")
    if np.any(b < 0):
        raise InvalidArgument(f"b must be non-negative (it is ||beta_*||), got {b}")
    h = (k ** 2 + delta) / 2
    return k * np.sqrt(h + np.sqrt(h ** 2 + b ** 2))


def balanced_init(beta0, delta, eta_a=1.0, eta_w=1.0, sign=1.0):
    """``(a0, w0)`` with ``a0 w0 = beta0``, conserved ``delta`` and ``sgn(a0) = sign`` (Eq. 37)."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    beta0, delta = finite_array(beta0, "beta0", ndim=1), number(delta, "delta")
    if sign not in (1, -1):
        raise InvalidArgument(f"sign={sign!r} must be +1 or -1 (the sign of a0)")
    n = np.linalg.norm(beta0)
    a0 = sign * np.sqrt((np.sqrt(delta ** 2 + 4 * eta_a * eta_w * n ** 2) + delta) / (2 * eta_w))
    if a0 == 0:
        raise InvalidArgument("beta0 = 0 with delta <= 0 gives a0 = 0: no such init")
    return float(a0), beta0 / a0


def kernel_distance_path(a, w, eta_a=1.0, eta_w=1.0):
    """``S(0, t)`` along a path ``a (T,)``, ``w (d, T)`` with whitened data, from ``M`` alone
    (``<X M0 X^T, X Mt X^T> = tr(M0 Mt)`` when ``X^T X = I``)."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    a, w = finite_array(a, "a"), finite_array(w, "w")
    if a.ndim != 1 or w.ndim != 2 or w.shape[1] != a.size:
        raise InvalidArgument(f"a {a.shape} and w {w.shape} must be (T,) and (d, T)")
    d = w.shape[0]
    M = eta_w * a[:, None, None] ** 2 * np.eye(d) + eta_a * np.einsum("it,jt->tij", w, w)
    return kernel_distance(M[0], M)


def ntk_autograd(X, a, w, eta_a=1.0, eta_w=1.0) -> np.ndarray:
    """Theta(x_i, x_j) = sum_p eta_p d_p f(x_i) d_p f(x_j) of f = a w^T x by torch autograd
    (float64), for the rows x_i of ``X``."""
    import torch
    eta_a, eta_w = _rates(eta_a, eta_w)
    X = finite_array(X, "X", ndim=2)
    Xt = torch.as_tensor(X, dtype=torch.float64)
    at = torch.tensor(number(a, "a"), dtype=torch.float64, requires_grad=True)
    wt = torch.as_tensor(weight_vector(X, w, "w"), dtype=torch.float64).clone().requires_grad_(True)
    rows = []
    for i in range(Xt.shape[0]):
        ga, gw = torch.autograd.grad(at * (wt @ Xt[i]), (at, wt))
        rows.append(torch.cat([ga.reshape(1) * np.sqrt(eta_a), gw * np.sqrt(eta_w)]))
    J = torch.stack(rows)
    return (J @ J.T).numpy()


def flow_end(X, y, seed: int, t_end: float, eta_a=1.0, eta_w=1.0) -> np.ndarray:
    """beta(t_end) of the flow from a0 ~ N(0, 1), w0 ~ N(0, I) drawn from ``seed`` (rtol 1e-10)."""
    rng = np.random.default_rng(integer(seed, "seed", 0))
    flow = integrate(X, y, rng.standard_normal(), rng.standard_normal(np.shape(X)[1]), t_end,
                     eta_a=eta_a, eta_w=eta_w, t_eval=[0, t_end], rtol=1e-10)
    return flow.states["a"][-1] * flow.states["w"][:, -1]


def flow_drift(X, y, seed: int, t_end: float, eta_a=1.0, eta_w=1.0) -> float:
    """The drift of delta (relative to max(1, |delta0|)) along the flow from a0 ~ 2 N(0, 1),
    w0 ~ N(0, I) drawn from ``seed``."""
    rng = np.random.default_rng(integer(seed, "seed", 0))
    flow = integrate(X, y, rng.standard_normal() * 2, rng.standard_normal(np.shape(X)[1]), t_end,
                     eta_a=eta_a, eta_w=eta_w, conservation_tol=None)
    return float(flow.drift["delta"])


def surface_components(delta, d, eta_a=1.0, eta_w=1.0, n=80) -> int:
    """Connected components of a dense grid sample of {eta_w a^2 - eta_a ||w||^2 = delta} in
    R^{1+d}, d in {1, 2} (w = rho u, u on a grid of the unit sphere; a = +-sqrt((delta +
    eta_a rho^2)/eta_w)), linking points closer than 0.2 (grid spacing <= 0.17)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components
    from scipy.spatial import cKDTree
    if d not in (1, 2):
        raise InvalidArgument(f"d={d!r} must be 1 or 2")
    eta_a, eta_w = _rates(eta_a, eta_w)
    delta, n = number(delta, "delta"), integer(n, "n", 2)
    rho = np.sqrt(max(-delta, 0) / eta_a) + np.linspace(0, 0.8, n)
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    u = np.array([[1.0], [-1.0]]) if d == 1 else np.column_stack([np.cos(ang), np.sin(ang)])
    R, U = np.repeat(rho, len(u)), np.tile(u, (n, 1))
    a_abs = np.sqrt(np.maximum(delta + eta_a * R ** 2, 0) / eta_w)
    pts = np.vstack([np.column_stack([s * a_abs, R[:, None] * U]) for s in (1, -1)])
    pairs = cKDTree(pts).query_pairs(r=0.2, output_type="ndarray")
    adj = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(len(pts),) * 2)
    return int(connected_components(adj, directed=False)[0])
