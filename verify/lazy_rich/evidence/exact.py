"""Exact arithmetic behind the LR- checks: rational balanced inits, exact Riccati and eigen residuals,
table and series mismatches (sympy)."""
from __future__ import annotations


import mpmath
import numpy as np
import sympy as sp

from theory.lazy_rich import exact_solution as ex
from theory.lazy_rich import random_init as ri
from theory.lazy_rich import setting as su
from theory.lazy_rich import symbols as sy


# ------------------------------------------------------------------------- exact arithmetic
def cayley(K: sp.Matrix) -> sp.Matrix:
    """Rational orthogonal matrix (I - K)(I + K)^{-1} of a rational skew-symmetric K."""
    eye = sp.eye(K.shape[0])
    return (eye - K) * (eye + K).inv()


def rational_balanced(lam_value):
    """Exactly lambda-balanced rational 2x2x2 weights W1 = R S1 V^T, W2 = U S2 R^T, from the
    Pythagorean pairs (S2^2 - S1^2 = lam): S1 = (3/4, 4/3), S2 = (5/4, 5/3) for lam = 1, scaled by
    sqrt|lam| (rational for square |lam|), layers swapped for lam < 0."""
    q = sp.Rational(lam_value)
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
    values = {ex.F: sp.ImmutableMatrix(F), ex.QQ: sp.ImmutableMatrix(Q * Q.T), ex.n: 4}
    return sp.simplify(dQ * Q.T + Q * dQ.T - sp.Matrix(rhs.subs(values).doit()))


def mode_eigen_residual(F_mode, P_mode, Gamma_mode) -> float:
    """max |P^T P - I|, |F P - P Gamma| of the per-mode 2x2 block: 0 when sympy simplifies both to
    zero, else the worst entry at 60 digits over a grid of (s, lambda) (sympy cannot always clear
    the nested radicals)."""
    orth = (P_mode.T * P_mode - sp.eye(2)).applyfunc(sp.simplify)
    eig = (F_mode * P_mode - P_mode * Gamma_mode).applyfunc(sp.simplify)
    if orth.is_zero_matrix and eig.is_zero_matrix:
        return 0.0
    grid = [{sy.s: sp.Float(s_v, 60), sy.lam: sp.Float(l_v, 60)}
            for s_v in (0.01, 0.3, 1.0, 4.0) for l_v in (-50.0, -2.0, -0.1, 0.2, 3.0, 40.0)]
    return max(float(abs(sp.N(e.subs(vals), 60))) for vals in grid for e in list(orth) + list(eig))


def gamma_residual(trajectory, rhs, points) -> float:
    """max |ds/dt - rhs(s)| tau / (1 + |s~|) of ``trajectory`` at 50 digits, ``rhs`` the mode ODE's right-hand
    side (sympy in the network singular value ``sn``), at ``points`` = iterable of (lam, s~, s0, t, tau);
    plus |s(0) - s0|."""
    args = (sy.lam, sy.s, sy.s0, sy.t, sy.tau)
    f = sp.lambdify(args, trajectory, modules="mpmath")
    g = sp.lambdify(args, sp.diff(trajectory, sy.t), modules="mpmath")
    h = sp.lambdify(args + (sy.sn,), rhs, modules="mpmath")

    def residual(lam, s, s0, t, tau):
        res = tau * (g(lam, s, s0, t, tau) - h(lam, s, s0, t, tau, f(lam, s, s0, t, tau)))
        return max(float(abs(res) / (1 + s)), float(abs(f(lam, s, s0, mpmath.mpf(0), tau) - s0)))
    with mpmath.workdps(50):
        return max(residual(*(mpmath.mpf(float(v)) for v in p)) for p in points)


def rich_limit_residual(gamma, rich) -> sp.Expr:
    """gamma at lambda = 0 minus the printed sigmoid ``rich``, simplified in exp form (0 when equal)."""
    return sp.simplify((gamma.subs(sy.lam, 0) - rich).rewrite(sp.exp))


def table_mismatches(table1: dict, table2: dict) -> list:
    """LR-Tab2: entries of Table 1 that, with Nh = k Ni and No = r Ni, do not simplify to Table 2's."""
    return [(name, j) for name in table1 for j, (a, b) in enumerate(zip(table1[name], table2[name]))
            if sp.simplify(a.subs({sy.n_hid: ri.k * sy.n_in, sy.n_out: ri.r * sy.n_in}) - b) != 0]


def table3_mismatches(table2: dict, table3: dict) -> list:
    """LR-Tab3: entries of Table 3 that are not the limits / substitutions of Table 2's E[lambda]."""
    cases = [lambda e: e.subs({ri.r: 1, ri.k: 1}), lambda e: sp.limit(e, ri.r, 0), lambda e: sp.limit(e, ri.r, sp.oo),
             lambda e: sp.limit(e, ri.k, 0), lambda e: sp.limit(e, ri.k, sp.oo),
             lambda e: e.subs(ri.r, ri.a1 ** 2 / ri.a2 ** 2 * ri.k)]
    entries = [(name, j + 1, case(table2[name][0]), want) for name, row in table3.items()
               for j, (case, want) in enumerate(zip(cases, row)) if want is not None]     # None: no entry printed
    return [(name, j, got, want) for name, j, got, want in entries
            if not (got == want or (want is not sp.oo and sp.simplify(got - want) == 0))]


def balance_rate_nonzero_entries(rate) -> int:
    """LR-ThmA.2: number of nonzero entries of the printed d/dt balance for rational unwhitened data (exact)."""
    rng = np.random.default_rng(0)

    def rat(r, c):
        return sp.ImmutableMatrix(r, c, [sp.Rational(int(v), 7) for v in rng.integers(-9, 10, r * c)])
    vals = {su.X: rat(3, 5), su.Y: rat(4, 5), su.W1: rat(2, 3), su.W2: rat(4, 2), su.P: 5, su.Ni: 3, su.Nh: 2, su.No: 4}
    out = sp.Matrix(sp.block_collapse(rate.subs(vals)).doit()).applyfunc(sp.nsimplify)
    return int(sum(1 for e in out if e != 0))


def series_mismatches(big, small, order: int = 5) -> int:
    """LR-ThmC.4 / C.2.4: how many of the two truncated expansions (in kappa = 1/lambda) differ from the
    Taylor series of (sqrt(lam^2 + 4 s^2) +- lam)/2 up to kappa^(order-1)."""
    kappa = sp.Symbol("kappa", positive=True)
    exact_root = sp.sqrt(sy.lam ** 2 + 4 * sy.s ** 2)
    bad = 0
    for sign, expansion in ((1, big), (-1, small)):
        series = sp.series(((exact_root + sign * sy.lam) / 2).subs(sy.lam, 1 / kappa), kappa, 0, order).removeO()
        bad += sp.simplify(series - sp.sympify(expansion).subs(sy.lam, 1 / kappa)) != 0
    return int(bad)


def layer_relation_failures(a, b) -> list[str]:
    """LR-C.2.4-relations: the relations that the layer singular values a(lam, s~), b(lam, s~) violate
    among b^2 - a^2 = lam, a b = s~, b^2 = lam + s~^2/lam + O(lam^-3) and a -> 0 as lam -> +oo (sympy)."""
    kappa = sp.Symbol("kappa", positive=True)          # kappa = 1/lambda
    bad = []
    if sp.simplify(b ** 2 - a ** 2 - sy.lam) != 0:
        bad.append("b^2 - a^2 = lambda")
    signs = [float((a * b).subs({sy.lam: lv, sy.s: 0.7})) > 0 for lv in (-3.0, 0.0, 2.0)]   # (ab)^2 = s~^2 misses -s~
    if sp.simplify((a * b) ** 2 - sy.s ** 2) != 0 or not all(signs):
        bad.append("a b = s~")
    series = sp.series((b ** 2).subs(sy.lam, 1 / kappa), kappa, 0, 3).removeO()
    if sp.simplify(series - (1 / kappa + sy.s ** 2 * kappa)) != 0:
        bad.append("b^2 = lambda + s~^2/lambda + ...")
    if sp.limit(a.subs(sy.lam, 1 / kappa), kappa, 0) != 0:
        bad.append("a -> 0")
    return bad
