"""Errors of the wide and deep linear-network formulas of "Get rich quick" (Sec 4, App B) against
numerics (autograd, gradient flow at gradient-flow time t): each function takes the formula under
test (a sympy object of ``theory.rich_quick``) and returns a number; the verify layer measures."""
from __future__ import annotations

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from numerics.closed_forms import compiled
from numerics.rich_quick import linear_flows as lf
from numerics.rich_quick import linear_nets as ln
from numerics.rich_quick.checks import formula, parts
from numerics.validation import InvalidArgument, finite_array, integer, number
from theory.rich_quick import deep_linear as dl
from theory.rich_quick import wide_linear as wl


def _dims(W, A, X=None):
    dims = {wl.h: W.shape[0], wl.d: W.shape[1], wl.c: A.shape[1]}
    if X is not None:
        dims[wl.n] = X.shape[0]
    return dims


def matrix_formula(expr, W, A, X=None):
    """A numpy callable ``(A, W, X, eta_a, eta_w) -> matrix`` of a sympy matrix expression in the
    symbols of ``theory.rich_quick.wide_linear`` at the shapes of W, A, X."""
    formula(expr)
    ln.wide_shapes(W, A, X)
    concrete = expr.subs(_dims(W, A, X))
    return compiled((wl.A, wl.W, wl.X, wl.eta_a, wl.eta_w), concrete)


def scalar_formula(expr, *symbols):
    """A numpy callable of the scalar sympy ``expr`` in ``symbols``."""
    return compiled(symbols, formula(expr))


def rel(a, b) -> float:
    """``||a - b|| / ||b||`` of two finite arrays of one shape (``b = 0``: relative to 1e-300)."""
    a, b = finite_array(a, "a"), finite_array(b, "b")
    if a.shape != b.shape:
        raise InvalidArgument(f"a {a.shape} and b {b.shape} must have one shape")
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b)) / max(np.linalg.norm(b), 1e-300))


def conservation_drift(quantity, W, A, X, Y, eta_a, eta_w, t_end=4.0) -> float:
    """Max drift (relative to max(1, |initial|)) of ``quantity`` (sympy matrix in A, W, etas)
    along the wide-network gradient flow (rtol 1e-11)."""
    f = matrix_formula(quantity, W, A)
    return lf.wide_flow_drift(W, A, X, Y, eta_a, eta_w, t_end,
                              lambda W_, A_: np.asarray(f(A_, W_, None, eta_a, eta_w), dtype=float))


def ntk_error(K_expr, W, A, X, eta_a, eta_w) -> float:
    """Relative Frobenius error of the NTK formula against the autograd NTK."""
    K = matrix_formula(K_expr, W, A, X)(A, W, X, eta_a, eta_w)
    return rel(K, ln.wide_ntk_autograd(W, A, X, eta_a, eta_w))


def vec_flow_error(M_expr, W, A, X, Y, eta_a, eta_w) -> float:
    """``-M vec(X^T X beta - X^T Y)`` (M from the formula) against ``vec(W'^T A + W^T A')``."""
    M = np.asarray(matrix_formula(M_expr, W, A)(A, W, None, eta_a, eta_w), dtype=float)
    p = ln.wide_rhs(X, Y, eta_a, eta_w)(0.0, {"W": W, "A": A})
    beta_dot = p["W"].T @ A + W.T @ p["A"]
    beta = W.T @ A
    return rel(-M @ ln.vec(X.T @ X @ beta - X.T @ Y), ln.vec(beta_dot))


def neuron_sum_error(coefs, W, A, eta_a, eta_w) -> float:
    """``sum_i out_i P_i (+) in_i Q_i`` (Thm 4.1 with coefficient formulas ``coefs``) against M."""
    out, inn = (scalar_formula(f, wl.delta, wl.r2, wl.eta_a, wl.eta_w)
                for f in parts(coefs, ("out", "in"), "coefs"))
    betas, deltas = _live(*ln.neuron_terms(W, A, eta_a, eta_w))
    total = 0.0
    for B, dl_ in zip(betas, deltas):
        r2 = np.sum(B ** 2)
        total = total + ln.kron_sum(out(dl_, r2, eta_a, eta_w) * B.T @ B / r2,
                                    inn(dl_, r2, eta_a, eta_w) * B @ B.T / r2)
    return rel(total, ln.wide_M(W, A, eta_a, eta_w))


def _live(betas, deltas):
    """The per-neuron terms, each with beta_i != 0 (the formulas divide by ||beta_i||)."""
    for i, B in enumerate(betas):
        if not np.any(B):
            raise InvalidArgument(f"neuron {i} has beta_i = 0: its rank-one terms are undefined")
    return betas, deltas


def neuron_gram_error(formulas, W, A, eta_a, eta_w) -> float:
    """``||a_i||^2``, ``||w_i||^2`` and the outer products ``a_i a_i^T``, ``w_i w_i^T`` from the
    formulas (Eqs. 83-86) against the parameters; also Eqs. (81)-(82)."""
    fa, fw = (scalar_formula(f, wl.delta, wl.r2, wl.eta_a, wl.eta_w)
              for f in parts(formulas, ("a_norm2", "w_norm2"), "formulas"))
    betas, deltas = _live(*ln.neuron_terms(W, A, eta_a, eta_w))
    err = 0.0
    for B, dl_, a, w in zip(betas, deltas, A, W):
        r2 = np.sum(B ** 2)
        err = max(err,
                  rel(B.T @ B, (w @ w) * np.outer(a, a)), rel(B @ B.T, (a @ a) * np.outer(w, w)),
                  abs(r2 - (a @ a) * (w @ w)) / r2,
                  abs(fa(dl_, r2, eta_a, eta_w) - a @ a) / (a @ a),
                  abs(fw(dl_, r2, eta_a, eta_w) - w @ w) / (w @ w),
                  rel(fa(dl_, r2, eta_a, eta_w) * B.T @ B / r2, np.outer(a, a)),
                  rel(fw(dl_, r2, eta_a, eta_w) * B @ B.T / r2, np.outer(w, w)))
    return err


def numerical_rank(M, rel_tol=1e-9) -> int:
    """Singular values above ``rel_tol`` times the largest: 0 for the zero matrix."""
    M, rel_tol = finite_array(M, "M", ndim=2, nonempty=True), number(rel_tol, "rel_tol", positive=True)
    sv = np.linalg.svd(M, compute_uv=False)
    return int(np.sum(sv > rel_tol * sv[0]))


def lazy_limit_ranks(d, h, c, rng, sign=+1):
    """Ranks in the limit ``delta_i -> sign*oo`` (Lemma B.2): of the limiting M, of
    ``sum_i beta_i^T beta_i/||beta_i||^2`` (sign +) or ``sum_i beta_i beta_i^T/||beta_i||^2``
    (sign -), and the sum of the ranks of the h rank-one terms."""
    d, h, c = integer(d, "d"), integer(h, "h"), integer(c, "c")
    _sign(sign)
    ln.generator(rng)
    W, A = rng.standard_normal((h, d)), rng.standard_normal((h, c))
    betas, _ = ln.neuron_terms(W, A, 1.0, 1.0)
    grams = [B.T @ B / np.sum(B ** 2) if sign > 0 else B @ B.T / np.sum(B ** 2) for B in betas]
    S = sum(grams)
    M = np.kron(S, np.eye(d)) if sign > 0 else np.kron(np.eye(c), S)
    return numerical_rank(M), numerical_rank(S), sum(numerical_rank(G) for G in grams)


def _sign(sign):
    if sign not in (1, -1):
        raise InvalidArgument(f"sign={sign!r} must be +1 or -1 (the direction of the limit)")


def limit_convergence(d, h, c, D, rng, eta_a=0.6, eta_w=1.7):
    """Relative distance of ``M / D`` (all delta_i = +-D) from the Lemma B.2 limit
    ``sum_i P_i kron I_d`` (+) or ``I_c kron sum_i Q_i`` (-)."""
    if number(D, "D") == 0:
        raise InvalidArgument(f"D={D!r} must be nonzero: M / |D| has no limit at D = 0")
    W, A = ln.init_wide(d, h, c, D, 1.0, eta_a, eta_w, rng)
    betas, _ = ln.neuron_terms(W, A, eta_a, eta_w)
    if D > 0:
        lim = np.kron(sum(B.T @ B / np.sum(B ** 2) for B in betas), np.eye(d))
    else:
        lim = np.kron(np.eye(c), sum(B @ B.T / np.sum(B ** 2) for B in betas))
    return rel(ln.wide_M(W, A, eta_a, eta_w) / abs(D), lim)


def balanced_form_error(W, A, eta_a, eta_w) -> float:
    """L718 corrected: at delta_i = 0, ``M = sqrt(eta_a eta_w) sum_i ||beta_i|| (P_i (+) Q_i)``."""
    betas, _ = _live(*ln.neuron_terms(W, A, eta_a, eta_w))
    total = sum(np.sqrt(eta_a * eta_w) * np.linalg.norm(B)
                * ln.kron_sum(B.T @ B / np.sum(B ** 2), B @ B.T / np.sum(B ** 2)) for B in betas)
    return rel(total, ln.wide_M(W, A, eta_a, eta_w))


def coefficient_limit(coefs, direction) -> dict:
    """``lim M-coefficient / |delta|`` as delta -> direction (+-oo), per coefficient, symbolic."""
    if direction not in (sp.oo, -sp.oo):
        raise InvalidArgument(f"direction={direction!r} must be sympy.oo or -sympy.oo")
    return {k: sp.limit(v / sp.Abs(wl.delta), wl.delta, direction) for k, v in coefs.items()}


def gram_kron(spec, beta, eta_a, eta_w, delta):
    """Evaluate a Kronecker sum of Gram functions (``wide_linear.gram_kron`` Forms):
    ``left(G1) kron I + I kron right(G2)`` with ``G = beta^T beta`` ('btb') or ``beta beta^T`` ('bbt')."""
    grams = {"btb": beta.T @ beta, "bbt": beta @ beta.T}
    for slot in ("left_gram", "right_gram"):
        _gram_name(getattr(spec, slot), f"spec.{slot}")
    F1 = ln.gram_function(grams[spec.left_gram], lambda ev: _vector(spec.left, ev, eta_a, eta_w, delta))
    F2 = ln.gram_function(grams[spec.right_gram], lambda ev: _vector(spec.right, ev, eta_a, eta_w, delta))
    return ln.kron_sum(F1, F2)


def _vector(expr, ev, eta_a, eta_w, delta):
    f = scalar_formula(expr, wl.x, wl.eta_a, wl.eta_w, wl.delta)
    return np.broadcast_to(np.asarray(f(ev, eta_a, eta_w, delta), dtype=float), ev.shape)


def _gram_name(value, label):
    if value not in wl.GRAMS:
        raise InvalidArgument(f"{label}={value!r} must be 'btb' (beta^T beta) or 'bbt' (beta beta^T)")


def _square(W, A):
    if np.ndim(W) != 2 or len({*np.shape(W), *np.shape(A)}) != 1 or np.ndim(A) != 2:
        raise InvalidArgument(f"W {np.shape(W)} and A {np.shape(A)} must be square and of one size "
                              "(d = h = c)")


def square_M_error(spec, W, A, eta_a, eta_w, delta) -> float:
    """Lemma B.3 / Eq. (102) form ``spec`` against the parameter M of a square network."""
    _square(W, A)
    return rel(gram_kron(spec, W.T @ A, eta_a, eta_w, delta), ln.wide_M(W, A, eta_a, eta_w))


def square_gram_error(form, W, A, eta_a, eta_w, delta) -> float:
    """Eq. (98) (W^T W as a function of beta beta^T) or Eq. (99) (A^T A of beta^T beta); ``form`` is
    a ``wide_linear.gram_function`` Forms."""
    _square(W, A)
    _gram_name(form.gram, "form.gram")
    beta = W.T @ A
    G = beta @ beta.T if form.gram == "bbt" else beta.T @ beta
    target = W.T @ W if form.gram == "bbt" else A.T @ A
    return rel(ln.gram_function(G, lambda ev: _vector(form.f, ev, eta_a, eta_w, delta)), target)


def potential_curvature_error(q, eta_a, eta_w, delta, lams) -> float:
    """Max relative error of ``q''(lambda)`` against ``1/sqrt(4 eta_a eta_w lambda^2 + delta^2)``
    (the mirror-flow Hessian ``M_Lambda^{-1}``, Eqs. 112-115)."""
    lams = finite_array(lams, "lams", nonempty=True)
    q2 = sp.lambdify([wl.lam, wl.eta_a, wl.eta_w, wl.delta], sp.diff(q, wl.lam, 2), "numpy")
    target = 1 / np.sqrt(4 * eta_a * eta_w * lams ** 2 + delta ** 2)
    return float(np.max(np.abs(q2(lams, eta_a, eta_w, delta) - target) / target))


def mode_ode_error(rhs_expr, modes, D, s, eta_a, eta_w, delta) -> float:
    """Relative residual of ``lambda_i' = rhs(lambda_i)`` along the simulated modes, with
    ``lambda_i'`` taken from the exact parameter-space velocity (``modes = (lambda, lambda')``)."""
    lams, deriv = modes
    if np.ndim(lams) != 2 or np.shape(lams) != np.shape(deriv):
        raise InvalidArgument(f"modes {np.shape(lams)}, {np.shape(deriv)} must be two (modes, T) arrays "
                              "of one shape: lambda and lambda'")
    f = sp.lambdify([wl.lam, sp.Symbol("s"), sp.Symbol("d_i"), wl.eta_a, wl.eta_w, wl.delta],
                    formula(rhs_expr, "rhs_expr"), "numpy")
    pred = f(lams, s[:, None], D[:, None], eta_a, eta_w, delta)
    return float(np.max(np.abs(deriv - pred)) / np.max(np.abs(deriv)))


def gram_poly(poly, G, s, delta, l):
    f = sp.lambdify([dl.x, dl.s, dl.delta], sp.expand(poly.subs(dl.l, l).doit()), "numpy")
    return ln.gram_function(G, lambda ev: np.broadcast_to(f(ev, s, delta), ev.shape))


def deep_identity_errors(formulas, Ws, a, delta, l) -> dict:
    """Eqs. (116)-(117) and Lemma B.8 against the parameters: norm2, outer, M."""
    unknown = sorted(set(formulas) - {"norm2", "outer", "M"}) if isinstance(formulas, dict) else []
    if unknown:
        raise InvalidArgument(f"formulas names {unknown}: only 'norm2', 'outer' and 'M' are checked")
    beta = ln.deep_beta(Ws, a)
    G = Ws[0].T @ Ws[0]
    s = a @ a
    out = {}
    if "norm2" in formulas:
        f = sp.lambdify([dl.s, dl.delta], formulas["norm2"].subs(dl.l, l), "numpy")
        out["norm2"] = abs(f(s, delta) - beta @ beta) / (beta @ beta)
    if "outer" in formulas:
        out["outer"] = rel(gram_poly(formulas["outer"], G, s, delta, l), np.outer(beta, beta))
    if "M" in formulas:
        out["M"] = rel(gram_poly(formulas["M"], G, s, delta, l), ln.deep_M_autograd(Ws, a))
    return out


def rank_one_update(coefs, beta, l):
    """``identity I + outer beta beta^T`` from the coefficient formulas (Forms) in ``r = ||beta||``
    and ``l``."""
    try:
        identity, outer = coefs.identity, coefs.outer
    except AttributeError:
        raise InvalidArgument(f"coefs must be Forms with identity and outer, got {type(coefs).__name__}") from None
    r = np.linalg.norm(finite_array(beta, "beta", ndim=1))
    c0, c1 = (float(sp.sympify(cf).subs({dl.l: l, dl.r: r})) for cf in (identity, outer))
    return c0 * np.eye(beta.size) + c1 * np.outer(beta, beta)


def implicit_bias_minimiser(objective, X, y, beta0, l):
    """argmin of ``objective(beta; beta0, l)`` on ``{X beta = y}`` (null-space parametrisation,
    BFGS from the min-norm point)."""
    if not callable(objective):
        raise InvalidArgument(f"objective must be callable, got {type(objective).__name__}")
    X, y = finite_array(X, "X", ndim=2), finite_array(y, "y", ndim=1)
    if X.shape[0] != y.shape[0]:
        raise InvalidArgument(f"X has {X.shape[0]} rows but y has {y.shape[0]} entries")
    pinv = np.linalg.pinv(X)
    base = pinv @ y
    _, _, Vt = np.linalg.svd(X)
    N = Vt[X.shape[0]:].T
    res = minimize(lambda z: objective(base + N @ z, beta0, l), np.zeros(N.shape[1]),
                   method="BFGS", options={"gtol": 1e-12, "maxiter": 2000})
    return base + N @ res.x


def deep_objective(expr):
    """Numerical Q(beta; beta0, l) from a sympy form in ``r = ||beta||``, ``r0 = ||beta0||`` and
    ``b0_dot_beta = beta0^T beta`` (GRQ-Claim-DeepQ)."""
    f = sp.lambdify([dl.r, sp.Symbol("r0"), sp.Symbol("b0_dot_beta"), dl.l], formula(expr), "numpy")
    return lambda beta, beta0, l: f(np.linalg.norm(beta), np.linalg.norm(beta0), beta0 @ beta, l)


def theorem_b9_data(seed, l, h=3, n=1, scale=0.7):
    """Data and an exactly balanced rank-one chain (delta = 0) for Thm B.9's checks."""
    seed, n = integer(seed, "seed", 0), integer(n, "n")
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, h)), rng.standard_normal(n) + 1.0
    Ws, a = ln.deep_balanced_chain(h, l, scale, rng)
    return X, y, Ws, a


DEPTHS = (1, 2, 4, 8, 16, 32)


def depth_alignment(corrected) -> dict:
    """GRQ-Claim-DeepQ (depth): cos(beta(inf), beta0) of the Eq. (119) minimisers (``corrected``)
    over depth l, when the ray through beta0 meets the interpolating set (y = 1) and when it
    misses it (y = -1): {name: cosines}."""
    X = np.array([[1.0, 0.5, -0.3]])
    beta0 = np.array([0.2, 0.6, 0.1])
    cos = {}
    for name, y in (("ray meets solutions", np.array([1.0])),
                    ("ray misses solutions", np.array([-1.0]))):
        cos[name] = []
        for l in DEPTHS:
            b = implicit_bias_minimiser(deep_objective(corrected), X, y, beta0, l)
            cos[name].append(b @ beta0 / (np.linalg.norm(b) * np.linalg.norm(beta0)))
    return cos
