"""Evidence of the single-neuron claims (rich_quick Sec 3, App A).  Every function takes the formula
or object under test as an argument, so ``tests/rich_quick`` can show that it rejects a perturbed
version.  Symbolic identities are evaluated at 30 digits at drawn points (a full ``simplify`` of
the nested square roots is slow and not needed to refute); flows come from
``numerics.rich_quick.single_neuron`` and ``single_neuron_paths`` (nothing here integrates)."""
from __future__ import annotations

from functools import cache, partial

import numpy as np
import sympy as sp

from numerics.rich_quick import formula_errors as fe
from numerics.rich_quick import single_neuron as sn
from numerics.rich_quick import single_neuron_paths as sns
from theory.rich_quick import single_neuron_symbols as S
from verify.measurement import measure, paper, reading
from verify.rich_quick.evidence.searches import worst, worst_at
from verify.rich_quick.single_neuron_strategies import unit_points, weight_points

HP_WHY = "30-digit evaluation: far above its round-off (1e-25), far below any error of a form"
HP = fe.HP_TOL
HP_SRC = reading(HP_WHY)
#: closed form vs the integrated weight flow; why it is this size: FLOW_SRC
FLOW_TOL = 1e-8
FLOW_SRC = reading("solve_ivp DOP853 rtol 1e-12 reference over t = 15; room for cancellation near "
                   "a = 0")
#: the worst 30-digit error of a form over drawn points / over fixed points
hp_worst = partial(worst, criterion=("<=", HP), source=HP_SRC)
hp_worst_at = partial(worst_at, criterion=("<=", HP), source=HP_SRC)
#: the worst error of a closed form against weight flows (a fifth of the examples: each
#: integrates a flow)
flow_worst = partial(worst, criterion=("<=", FLOW_TOL), source=FLOW_SRC, fraction=0.2)


def s3_regimes(ts, limit_rate, mu_phi_ode) -> list:
    """GRQ-Claim-S3-regimes from the exact-solution timescales ``ts``
    (``single_neuron_paths.Timescales``): upstream time ~1/delta with small S, downstream delay
    ~|delta|, balanced alignment independent of mu0 -> 0 and fitting time ~ln(1/mu0); the printed
    downstream phi' (``limit_rate``, an Eq) against Eq. (17) (``mu_phi_ode[phi]``) at delta = -1e6."""
    ea, ew = ts.rates
    c, b = np.sqrt(ea * ew), ts.b
    slope = np.polyfit(np.log(1 / np.array(ts.mu0s)), ts.fits[:, 1], 1)[0]
    rate = limit_rate.rhs
    at = {"phi": 0.3, "b": b, "eta_a": ea, "eta_w": ew, "delta": -1e6}
    exact_rate = mu_phi_ode[S.phi].subs(S.mu, S.phi * S.b)
    ratio = float(exact_rate.subs({getattr(S, k): v for k, v in at.items()})
                  / rate.subs({s_: at[s_.name] for s_ in rate.free_symbols}))
    scaling = reading("a timescale law holds when the rescaled times agree within 20% over a "
                      "factor 10 in delta")
    return [measure("downstream: Eq. (17)'s phi' at mu = phi b over the printed limit "
                    "b^2 eta_a eta_w phi (1 - phi^2)/|delta|, delta = -1e6", ratio, "within",
                    (1 - 1e-4, 1 + 1e-4), source=reading("relative corrections O(mu^2/|delta|)")),
            measure(f"upstream: max/min of delta x t(|phi| > 0.99) over delta = {ts.deltas} (time "
                    "~1/delta)", ts.up[:, 0].max() / ts.up[:, 0].min(), "<", 1.2, source=scaling),
            measure(f"upstream: max S(0, t) at delta = {ts.deltas} (small, falling)", ts.up[:, 1],
                    "<", 0.05, source=reading("'minimal kernel movement'")),
            measure("upstream: max S at the largest delta minus at the smallest",
                    ts.up[-1, 1] - ts.up[0, 1], "<", 0, source=reading("S -> 0 as delta grows")),
            measure("downstream: max/min of t(S > 0.5)/|delta| (delay ~|delta|)",
                    ts.down.max() / ts.down.min(), "<", 1.2, source=scaling),
            measure(f"balanced: spread of the alignment times for mu0 = {ts.mu0s}",
                    np.ptp(ts.fits[:, 0]), "<", 0.05,
                    source=reading("alignment decouples from mu0 -> 0")),
            measure("balanced: fitting-time slope vs ln(1/mu0) times 2 sqrt(eta_a eta_w) b (= 1 for "
                    "time ~ ln(1/mu0))", slope * 2 * c * b, "within", (0.9, 1.1),
                    source=reading("Bernoulli fitting time ln(1/mu0)/(2 c b), 10%"))]


def conserved_surfaces(flows) -> list:
    """GRQ-Cons-delta on the Fig. 2 flows (``single_neuron_paths.conserved_surface_flows``)."""
    return [measure(f"max drift of delta on the {len(flows)} plotted trajectories",
                    max(f["drift"] for f in flows.values()), "<=", 1e-9,
                    source=reading("integrator rtol 1e-12 over t = 15"))]


def potential_limits(potential) -> list:
    """GRQ-Eq(59)-(67): Phi_delta (``potential`` in r, delta) is l2-like as delta -> +oo and
    l1-like as delta -> -oo."""
    q = sp.lambdify([S.r, S.delta], potential, "numpy")
    big = 1e6
    lim = reading("relative corrections O(r^2/|delta|) ~ 3e-6 at |delta| = 1e6")
    return [measure("Phi(r) sqrt(2 delta)/r^2 at delta = 1e6, r = 1.7 (l2 limit)",
                    q(1.7, big) * np.sqrt(2 * big) / 1.7 ** 2, "within", (1 - 1e-3, 1 + 1e-3),
                    source=lim),
            measure("Phi(r)/(sqrt(2|delta|) r) at delta = -1e6, r = 1.7 (l1 limit)",
                    q(1.7, -big) / (np.sqrt(2 * big) * 1.7), "within", (1 - 1e-3, 1 + 1e-3),
                    source=lim)]


def a_keeps_away_from_zero(basin) -> list:
    """GRQ-Eq(36)-(39): min_t |a(t)| > 0 on whitened flows with delta > 0, = 0, and < 0 in the
    basin (``basin``, the general-rate Eq. 33) where a does not change sign."""
    mins = []
    for k, sign in enumerate([1, 1, 0, -1]):
        rng = np.random.default_rng(40 + k)
        w0 = rng.standard_normal(3)
        bs = rng.standard_normal(3) * 1.5
        a0 = np.sqrt(0.3 * (w0 @ w0) / 2.5 * (1 + 0.5 * sign))
        case = {"a0": a0, "w0": w0, "beta_star": bs, "eta_a": 0.3, "eta_w": 2.5}
        if sign < 0 and fe.basin_prediction(basin, case) < 0:
            case["a0"] = -a0
        _, a, _, _ = sns.whitened_flow(case, 30.0, 601)
        mins.append(float(np.min(np.abs(a))))
    return [measure("min_t |a(t)| per flow (delta > 0 twice, = 0, < 0 in the no-flip basin)",
                    np.array(mins), ">", 1e-3,
                    source=reading("a above 1e-3 in absolute value: no sign change", "L448",
                                   "This is true for all initializations with delta >= 0 ... "
                                   "also true for all initializations with delta < 0 where "
                                   "the sign of a does not switch"))]


def upstream_path_to_regression() -> list:
    """GRQ-Claim-Mlimits: for delta >> 0 beta(t) approaches the linear-regression gradient-flow
    path, the deviation falling as 1/delta^2."""
    bs, beta0 = np.array([0.0, 1.4]), np.array([-0.8, 0.3])
    devs = []
    deltas = np.array([10.0, 30.0, 100.0])
    for d in deltas:
        a0, w0 = sn.balanced_init(beta0, d, 0.5, 1.6)
        case = {"a0": a0, "w0": w0, "beta_star": bs, "eta_a": 0.5, "eta_w": 1.6}
        t, a, w, _ = sns.whitened_flow(case, 8.0 / d, 201)
        line = bs[:, None] + (beta0 - bs)[:, None] * np.exp(-d * t)[None, :]
        devs.append(np.max(np.linalg.norm(a * w - line, axis=0)))
    slope = np.polyfit(np.log(deltas), np.log(devs), 1)[0]
    return [measure("max_t ||beta(t) - linear-regression GF path|| at delta = 10, 30, 100 "
                    "(decreasing)", np.diff(devs), "<", 0,
                    source=paper("L96", r"When $\delta \gg 0$, $M \approx \delta \mathbf{I}_d$, and the "
                                        r"dynamics of β converge to the trajectory of linear regression")),
            measure("log-log slope of that deviation vs delta (O(1/delta^2))", slope, "within",
                    (-2.15, -1.85), source=reading("first correction of M ~ delta I is O(1/delta) "
                                                   "in the rate, O(1/delta^2) on the path"))]


# ---- the exact whitened solution (App. A.2): rate equations, closed forms, basins ----------

def rate_equation(what, quantity, rate, points=None, rescaled=False):
    """``what``: the worst |d quantity/dt along the weight flow (chain rule) - ``rate``| over
    ``points`` (default: weight points at general rates), 30 digits; ``rescaled``: ``rate`` read
    in a' = sqrt(eta_w) a, w' = sqrt(eta_a) w, beta_*' = sqrt(eta_a eta_w) beta_*."""
    error = fe.rescaled_rate_error if rescaled else fe.rate_equation_error
    return hp_worst(what, error, quantity, rate, p=weight_points() if points is None else points)


def unit_rate_reading(quantity, printed, what) -> tuple[list, object]:
    """(under, without) of the unit-rate reading of a printed rate equation (the "WLOG eta_a eta_w
    = 1" of L324): at eta_a = eta_w = 1 and in the rescaled variables at general rates (under);
    in a, w at eta_a eta_w = 1, eta_a != eta_w, the literal reading (without)."""
    under = [rate_equation(f"{what} as printed, eta_a = eta_w = 1", quantity, printed, unit_points),
             rate_equation(f"{what} as printed in a', w', beta_*', general rates", quantity, printed,
                           rescaled=True)]
    without = hp_worst_at(f"{what} as printed in a, w, eta_a eta_w = 1, eta_a != eta_w",
                          fe.rate_equation_error, quantity, printed, points=fe.wlog_points())
    return under, without


def flow_error(what, error, *forms, case, tail=()):
    """``what``: ``error(*forms, case, *tail)`` of a closed form against the flow of one ``case``."""
    return measure(what, error(*forms, case, *tail), "<=", FLOW_TOL, source=FLOW_SRC)


def bernoulli_residual(mu_expr, c_mu_expr, rate, point) -> float:
    """The residual of mu(t) = ``mu_expr`` (c_mu = ``c_mu_expr``) in mu' = ``rate`` and its miss
    of mu(0) = mu0 at ``point``, 30 digits (GRQ-Eq(24)-(25))."""
    sol = mu_expr.subs(S.c_mu, c_mu_expr)
    return max(fe.solution_residual(sol, rate, S.mu, point),
               fe.hp_abs(sol.subs(S.t, 0) - S.mu0, point))


BASIN_WORDS = reading("the basin S+ as the catalogue reconstructs it (L401 is blank in the text)", "L401",
                      "S+ = {a0 > 0 if delta >= 0; w0^T beta_* > -a0/2 (delta + sqrt(delta^2 + "
                      "4||beta_*||^2)) if delta < 0}")


@cache
def basin_inits():
    """Downstream inits at unit rates, at the WLOG rates 0.2/5 and at general rates 0.3/2.5; and
    upstream inits (delta > 0) at 0.3/2.5."""
    upstream = fe.downstream_inits(12, 0.3, 2.5, 3)
    for c in upstream:
        c["a0"] = float(np.sign(c["a0"]) * np.sqrt(c["eta_a"] * np.sum(np.square(c["w0"])) / c["eta_w"] * 2.0))
    return {"unit": fe.downstream_inits(16, 1.0, 1.0, 0), "wlog": fe.downstream_inits(24, 0.2, 5.0, 1),
            "general": fe.downstream_inits(16, 0.3, 2.5, 2), "upstream": upstream}


def basin_mismatches(expr, which, label, rescaled=False):
    """GRQ-Fn3, GRQ-Eq(33): the basin ``expr`` against the sign of a(80) on the ``which`` inits of
    :func:`basin_inits` (``rescaled``: read in a0', w0', beta_*')."""
    bad, used = fe.basin_mismatches(expr, basin_inits()[which], rescaled=rescaled)
    return measure(f"{label}: wrong signs of a(80) among {used} delta < 0 inits (5% margin "
                   f"around the surface skipped)", len(bad), "==", 0, source=BASIN_WORDS)


def upstream_mismatches():
    """GRQ-Fn3, GRQ-Eq(33): delta > 0 keeps the sign of a0."""
    cases = basin_inits()["upstream"]
    bad = sum(np.sign(c["a0"]) != sns.final_sign_of_a(c) for c in cases)
    return measure(f"delta > 0: sgn(a0) wrong among {len(cases)} inits, eta 0.3/2.5", int(bad),
                   "==", 0, source=BASIN_WORDS)


# ---- function space (Sec. 3 Eqs. 3-4, App. A.3) ---------------------------------------------

def hp_abs_max(exprs, point) -> float:
    """The largest |expr| over ``exprs`` at ``point``, 30 digits."""
    return max(fe.hp_abs(e, point) for e in exprs)


def beta_flow_error(forms, X, y, aw) -> float:
    """GRQ-Eq(3): the worst rel. error of a w' + a' w against -M X^T rho at ``aw`` = (a, w,
    (eta_a, eta_w)): numerics' M with w zero-padded to X's columns, and each printed d = 2 form in
    ``forms`` (callables of a, w1, w2, delta, eta_a, eta_w) on X's first two columns."""
    d = X.shape[1]
    a, w, (ea, ew) = aw[0], np.array(aw[1][:d] + [0.0] * (d - len(aw[1][:d]))), aw[2]
    err = fe.beta_flow_error(sn.preconditioner, X, y, a, w, ea, ew)
    for form in forms:
        err = max(err, fe.beta_flow_error(_in_weights(form), X[:, :2], y, a, w[:2], ea, ew))
    return err


def _in_weights(form):
    """A d = 2 form in (a, w1, w2, delta, eta_a, eta_w) written in the weights (delta unused) as
    M(a, w, eta_a, eta_w)."""
    return lambda a, w, ea, ew: np.asarray(form(a, *w, 0.0, ea, ew), float)


def preconditioner_forms_error(forms, aw) -> float:
    """GRQ-Eq(4): the rel. error of numerics' M from (beta, delta) against eta_w a^2 I + eta_a w w^T
    at ``aw`` = (a, w, (eta_a, eta_w)); at d = 2 also of the printed form ``forms[0]`` against each
    other form (callables of a, w1, w2, delta, eta_a, eta_w)."""
    a, w, (ea, ew) = aw[0], np.array(aw[1]), aw[2]
    err = fe.preconditioner_error(sn.preconditioner_from_beta, a, w, ea, ew)
    if w.size == 2:
        dl = sn.delta_of(a, w, ea, ew)
        M = np.asarray(forms[0](a, *w, dl, ea, ew), float)
        for other in forms[1:]:
            err = max(err, np.linalg.norm(M - other(a, *w, dl, ea, ew)) / np.linalg.norm(M))
    return err


def rate_rescaling(X, y, rng) -> list:
    """GRQ-Claim-A3-rescale: c beta(t) at rates (eta_a, eta_w) against beta'(t) of the unit-rate
    model on y' = c y with the same delta, three rate pairs, beta0 drawn from ``rng``."""
    errs = [fe.rescaling_error(X, y, rng.standard_normal(X.shape[1]), ea, ew, d)
            for ea, ew, d in [(0.3, 2.5, 0.7), (4.0, 0.5, -1.2), (0.2, 0.3, 0.0)]]
    return [measure("max rel err, c beta(t) (rates eta_a, eta_w) vs beta'(t) of the unit-rate model "
                    "on y' = c y, same delta", max(errs), "<=", 1e-9,
                    source=reading("two independent rtol-1e-12 integrations over t = 5"))]
