"""Evidence of the single-neuron claims (rich_quick Sec 3, App A).  Every function takes the formula
or object under test as an argument, so ``tests/rich_quick`` can show that it rejects a perturbed
version.  Symbolic identities are evaluated at 30 digits at drawn points (a full ``simplify`` of
the nested square roots is slow and not needed to refute); flows come from
``numerics.rich_quick.single_neuron`` and ``single_neuron_paths`` (nothing here integrates)."""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import sympy as sp
from hypothesis import settings

from numerics.rich_quick import formula_errors as fe
from numerics.rich_quick import single_neuron as sn
from numerics.rich_quick import single_neuron_paths as sns
from theory.rich_quick import single_neuron_symbols as S
from verify.measurement import Criterion, fmt, measure, paper, reading
from verify.properties import SearchResult

HP_WHY = "30-digit evaluation: far above its round-off (1e-25), far below any error of a form"


@contextmanager
def fewer_examples(fraction: float):
    """Run hypothesis searches inside with ``fraction`` of the active profile's examples (at
    least 4): for properties that integrate a flow per example."""
    previous = settings.get_current_profile_name()
    current = settings.get_profile(previous)
    name = f"{previous}-x{fraction:g}"
    settings.register_profile(name, parent=current,
                              max_examples=max(4, int(current.max_examples * fraction)))
    settings.load_profile(name)
    try:
        yield
    finally:
        settings.load_profile(previous)


def fixed_search(prop, points, criterion) -> SearchResult:
    """``prop`` over a fixed list of points, reported like a search: for forms expected to fail,
    where a hypothesis search would spend its time shrinking the counterexample."""
    crit = Criterion(*criterion)
    values = [prop(p) for p in points]
    bad = [(p, v) for p, v in zip(points, values) if not crit.test(v)]
    worst = max(values) if crit.op in ("<=", "<") else min(values)
    return SearchResult(not bad, len(points), worst, crit,
                        f"{bad[0][0]} (value {fmt(bad[0][1])})" if bad else "")


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
                    source=paper("L448", "This is true for all initializations with delta >= 0 ... "
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
                    source=paper("L96", "When delta >> 0, M ~ delta I_d, and the dynamics of beta "
                                        "converge to the trajectory of linear regression")),
            measure("log-log slope of that deviation vs delta (O(1/delta^2))", slope, "within",
                    (-2.15, -1.85), source=reading("first correction of M ~ delta I is O(1/delta) "
                                                   "in the rate, O(1/delta^2) on the path"))]
