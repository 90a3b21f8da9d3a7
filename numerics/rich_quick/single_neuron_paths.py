"""Paths of the whitened single-neuron model for GRQ Figs. 3, 4 (left) and 8 (App. D.2): the exact
solution (``single_neuron.exact_solution``, weights recovered by Eqs. 34-35) beside gradient flow
from the same initialisation, integrated with the suite's reference integrator and with D.2's
own.  Time is the paper's gradient-flow time t (1/2-sum loss, X^T X = I)."""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass

import numpy as np

from numerics.ran import Ran
from numerics.rich_quick import configs as C
from numerics.rich_quick import single_neuron as sn
from numerics.rich_quick.checks import numbers
from numerics.validation import InvalidArgument, finite_array, integer, number

REFERENCE = "DOP853 rtol 1e-12"
PAPER_INTEGRATOR = "RK45 rtol 1e-6"


#: the keys of a whitened case (an initial condition of the single neuron with its rates)
CASE_KEYS = ("a0", "w0", "beta_star", "eta_a", "eta_w")


def whitened_case(case: dict) -> dict:
    """``case`` (a0, w0, beta_star, eta_a, eta_w) checked: finite, w0 and beta_star of one
    length, beta_star nonzero, positive rates; a ValueError naming the entry otherwise."""
    if not isinstance(case, dict):
        raise InvalidArgument(f"case must be a dict with keys {CASE_KEYS}, got {type(case).__name__}")
    missing = sorted(set(CASE_KEYS) - set(case))
    if missing:
        raise InvalidArgument(f"case misses {missing}: a whitened case needs {CASE_KEYS}")
    number(case["a0"], "case['a0']")
    for name in ("eta_a", "eta_w"):
        number(case[name], f"case[{name!r}]", positive=True)
    w0 = finite_array(case["w0"], "case['w0']", ndim=1)
    bs = finite_array(case["beta_star"], "case['beta_star']", shape=w0.shape)
    if not np.any(bs):
        raise InvalidArgument("case['beta_star'] must be nonzero")
    return case


def whitened_data(beta_star, seed: int = 0):
    """X with orthonormal columns (n = d + 2 rows, so X^T X = I_d) and y with X^T y = beta_*."""
    beta_star = finite_array(beta_star, "beta_star", ndim=1, nonempty=True)
    d = beta_star.size
    X = np.linalg.qr(np.random.default_rng(integer(seed, "seed", 0)).standard_normal((d + 2, d)))[0]
    return X, X @ beta_star


def whitened_flow(case: dict, t_end: float, n_t: int = 81, paper_integrator: bool = False):
    """Weight flow of a whitened case (a0, w0, beta_star, eta_a, eta_w); returns (t, a (T,),
    w (d, T), drift of delta).  ``paper_integrator``: RK45 at rtol 1e-6 as App. D.2 (L972)."""
    whitened_case(case)
    t = np.linspace(0, _horizon(t_end), integer(n_t, "n_t", 2))
    X, y = whitened_data(case["beta_star"])
    how = dict(method="RK45", rtol=1e-6, conservation_tol=None) if paper_integrator else {}
    flow = sn.integrate(X, y, case["a0"], np.asarray(case["w0"], float), t_end,
                        eta_a=case["eta_a"], eta_w=case["eta_w"], t_eval=t, **how)
    return t, flow.states["a"], flow.states["w"], flow.drift["delta"]


def flow_coordinates(case: dict, t_end: float, n_t: int = 81, paper_integrator: bool = False) -> dict:
    """mu, phi, a, w, omega, nu = omega/a, ||w||, beta = a w and S(0, t) along the flow."""
    t, a, w, drift = whitened_flow(case, t_end, n_t, paper_integrator)
    bs = np.asarray(case["beta_star"], float)
    mu, phi = sn.mu_phi(a, w, bs)
    omega = bs @ w
    return {"t": t, "a": a, "w": w, "mu": mu, "phi": phi, "omega": omega, "nu": omega / a,
            "w_norm": np.linalg.norm(w, axis=0), "beta": a * w,
            "S": sn.kernel_distance_path(a, w, case["eta_a"], case["eta_w"]), "drift": drift}


def _horizon(t_end) -> float:
    """A gradient-flow horizon: finite and > 0."""
    return number(t_end, "t_end", positive=True)


def trajectory_error(predicted: dict, reference: dict) -> float:
    """Largest error of predicted coordinates against the reference: relative to each
    coordinate's range (phi and S, bounded by 1, absolute); inf when a prediction is not finite
    (a closed form that overflows or leaves its domain)."""
    if not predicted:
        raise InvalidArgument("predicted is empty: name at least one coordinate to compare")
    unknown = sorted(set(predicted) - set(reference))
    if unknown:
        raise InvalidArgument(f"predicted names {unknown}, not in the reference ({sorted(reference)})")
    errs = []
    for name, value in predicted.items():
        ref = np.asarray(reference[name], float)
        value = np.asarray(value, float)
        if value.shape != ref.shape:
            raise InvalidArgument(f"predicted[{name!r}] {value.shape} and the reference {ref.shape} "
                                  "must have one shape")
        if not np.all(np.isfinite(value)):
            return float("inf")
        scale = 1.0 if name in ("phi", "S") else max(1e-300, float(np.max(np.abs(ref))))
        errs.append(float(np.max(np.abs(value - ref)) / scale))
    return max(errs)


@functools.cache
def _final_sign(key: str, t_end: float) -> float:
    _, a, _, _ = whitened_flow(json.loads(key), t_end, n_t=3)
    return float(np.sign(a[-1]))


def final_sign_of_a(case: dict, t_end: float = 80.0) -> float:
    """sgn a(t_end) of the whitened flow of ``case``, t_end long enough for the (single, Lemma
    A.1) crossing (each initial condition is integrated once per process)."""
    whitened_case(case)
    return _final_sign(json.dumps({k: (list(map(float, v)) if np.ndim(v) else float(v))
                                   for k, v in case.items()}, sort_keys=True), t_end)


def zero_crossings(case: dict, t_end: float, n_t: int = 4001) -> int:
    """Sign changes of a(t) w(t)^T beta_* on a fine grid of the whitened flow of ``case``."""
    t, a, w, _ = whitened_flow(case, t_end, n_t)
    s = np.sign(a * (np.asarray(case["beta_star"]) @ w))
    s = s[s != 0]
    return int(np.sum(s[1:] != s[:-1]))


@dataclass(frozen=True)
class PathRun:
    """``paths[(i, delta)]`` for initial beta0 number i: ``exact`` (the closed forms on
    ``points`` times), ``flow`` (gradient flow, the reference integrator) and ``paper_flow``
    (D.2's integrator), each a dict of coordinates (t, a, w, mu, phi, omega, nu, beta, S) on
    its times; the ``deltas`` and the Ran."""

    paths: dict
    deltas: tuple
    beta0s: tuple
    ran: Ran


def paths(config) -> PathRun:
    """The exact and simulated paths of ``config`` (``configs.Paths``)."""
    config = C.expect(config, C.Paths)
    eta_a, eta_w = config.rates
    bs = np.asarray(config.beta_star, float)
    t = np.linspace(0, config.t_end, config.points)
    out = {}
    for i, beta0 in enumerate(config.beta0s):
        for delta in config.deltas:
            a0, w0 = sn.balanced_init(np.asarray(beta0, float), delta, eta_a, eta_w, config.sign)
            ex = sn.exact_solution(t, a0, w0, bs, eta_a, eta_w)
            a, w = sn.recover_weights(ex.mu, ex.phi, w0, bs, delta, eta_a, eta_w)
            exact = {"t": t, "a": a, "w": w, "mu": ex.mu, "phi": ex.phi, "omega": ex.omega,
                     "nu": ex.omega / ex.a, "beta": a * w,
                     "S": sn.kernel_distance_path(a, w, eta_a, eta_w)}
            case = {"a0": a0, "w0": w0, "beta_star": bs, "eta_a": eta_a, "eta_w": eta_w}
            out[(i, delta)] = {"exact": exact,
                               "flow": flow_coordinates(case, config.t_end, config.ref_points),
                               "paper_flow": flow_coordinates(case, config.t_end,
                                                              config.ref_points, True)}
    X, _ = whitened_data(bs)
    ran = Ran.of(config, paths, **{
        "X^T X": (X.T @ X).round(12).tolist(), "beta_*": [float(v) for v in bs],
        "beta0": [list(map(float, b)) for b in config.beta0s], "sgn a0": config.sign,
        "deltas": tuple(config.deltas), "rates (eta_a, eta_w)": tuple(config.rates),
        "integrator": REFERENCE, "horizon": config.t_end})
    return PathRun(out, tuple(config.deltas), tuple(config.beta0s), ran)


def limit_time(delta) -> float:
    """A horizon at which the low-rank flow has converged (slow downstream, 1/|delta| rates)."""
    delta = number(delta, "delta")
    return 400.0 if delta < 0 else 60.0


def flow_limit(X, y, beta0, delta, eta_a=1.0, eta_w=1.0, paper_integrator=False, sign=1.0,
               t_end=None):
    """beta(t_end) (default :func:`limit_time`) of the weight flow from the init with a0 w0 =
    beta0 and conserved delta (``paper_integrator``: D.2's RK45 at rtol 1e-6, else DOP853 at
    rtol 1e-11)."""
    a0, w0 = sn.balanced_init(np.asarray(beta0, float), delta, eta_a, eta_w, sign)
    t_end = limit_time(delta) if t_end is None else _horizon(t_end)
    how = (dict(method="RK45", rtol=1e-6, conservation_tol=None) if paper_integrator
           else dict(rtol=1e-11))
    flow = sn.integrate(np.asarray(X, float), np.asarray(y, float), a0, w0, t_end, eta_a=eta_a,
                        eta_w=eta_w, t_eval=np.array([0.0, t_end]), **how)
    return flow.states["a"][-1] * flow.states["w"][:, -1]


@dataclass(frozen=True)
class LimitRun:
    """Per delta (rows): the limits with the reference integrator and with D.2's; the data."""

    limits: np.ndarray
    paper_limits: np.ndarray
    deltas: tuple
    X: np.ndarray
    y: np.ndarray
    beta0: np.ndarray
    ran: Ran


def lowrank_limits(config) -> LimitRun:
    """The limits of ``config`` (``configs.Lowrank``)."""
    config = C.expect(config, C.Lowrank)
    X, y, b0 = (np.asarray(v, float) for v in (config.X, config.y, config.beta0))
    eta_a, eta_w = config.rates
    lims = [[flow_limit(X, y, b0, d, eta_a, eta_w, paper) for d in config.deltas]
            for paper in (False, True)]
    ran = Ran.of(config, lowrank_limits, **{
        "X^T X": (X.T @ X).tolist(), "beta_* (min-norm)": (np.linalg.pinv(X) @ y).tolist(),
        "beta0": b0.tolist(), "deltas": tuple(config.deltas),
        "rates (eta_a, eta_w)": tuple(config.rates), "integrator": REFERENCE,
        "horizon": "t = 400 (delta < 0), 60 (delta >= 0)"})
    return LimitRun(np.array(lims[0]), np.array(lims[1]), tuple(config.deltas), X, y, b0, ran)


def exact_path(beta0, beta_star, delta, t, eta_a=1.0, eta_w=1.0, sign=1.0):
    """The exact whitened path from a0 w0 = beta0 with conserved ``delta``: the
    ``ExactSolution``, the recovered weights a (T,), w (d, T) and the init (a0, w0)."""
    a0, w0 = sn.balanced_init(np.asarray(beta0, float), delta, eta_a, eta_w, sign)
    ex = sn.exact_solution(t, a0, w0, np.asarray(beta_star, float), eta_a, eta_w)
    a, w = sn.recover_weights(ex.mu, ex.phi, w0, np.asarray(beta_star, float), delta, eta_a, eta_w)
    return ex, a, w, (a0, w0)


def _first_time(t, mask) -> float:
    return float(t[np.argmax(mask)]) if mask.any() else np.inf


@dataclass(frozen=True)
class Timescales:
    """GRQ Sec. 3 (L71-77) timescales from the exact solution at rates (eta_a, eta_w) and
    ||beta_*|| = b: per upstream delta, delta x t(|phi| > 0.99) and max S; per downstream delta,
    t(S > 0.5)/|delta|; per balanced mu0, the alignment time t(phi > 0.99) and the fitting time
    t(mu > b/2); and, for the figure, S(0, t) against t/|delta| downstream (exact and gradient
    flow)."""

    deltas: tuple
    up: np.ndarray
    down: np.ndarray
    mu0s: tuple
    fits: np.ndarray
    rates: tuple
    b: float
    curves: dict


def timescales(deltas=(10.0, 30.0, 100.0), mu0s=(1e-2, 1e-4, 1e-6), rates=(0.5, 1.6),
               beta_star=(0.0, 1.3), beta0=(0.5, 0.2)) -> Timescales:
    """The :class:`Timescales` at ``deltas`` (> 0: each is run upstream and downstream),
    balanced scales ``mu0s`` (> 0) and ``rates``."""
    numbers("deltas", deltas, positive=True)
    numbers("mu0s", mu0s, positive=True)
    ea, ew = numbers("rates", rates, positive=True, length=2)
    if not np.any(numbers("beta_star", beta_star)):
        raise InvalidArgument(f"beta_star={beta_star!r} must be nonzero")
    bs, b0 = np.asarray(beta_star, float), np.asarray(beta0, float)
    up, down = [], []
    for D in deltas:
        t = np.linspace(0, 5 / D ** 0.5, 4001)
        ex, a, w, _ = exact_path(b0, bs, D, t, ea, ew)
        up.append((_first_time(t, np.abs(ex.phi) > 0.99) * D, sn.kernel_distance_path(a, w).max()))
        t = np.linspace(0, 8 * D, 8001)
        ex, a, w, _ = exact_path(b0, bs, -D, t, ea, ew)
        down.append(_first_time(t, sn.kernel_distance_path(a, w) > 0.5) / D)
    fits = []
    for mu0 in mu0s:
        t = np.linspace(0, 40, 8001)
        ex, *_ = exact_path(b0 / np.linalg.norm(b0) * mu0, bs, 0.0, t, ea, ew)
        fits.append((_first_time(t, ex.phi > 0.99), _first_time(t, ex.mu > np.linalg.norm(bs) / 2)))
    curves = {}
    for D in deltas[:2]:
        t = np.linspace(0, 3 * D, 601)
        ex, a, w, (a0, w0) = exact_path(b0, bs, -D, t, ea, ew)
        ref = flow_coordinates({"a0": a0, "w0": w0, "beta_star": bs, "eta_a": ea, "eta_w": ew},
                               3 * D, 31)
        curves[D] = {"t": t, "S": sn.kernel_distance_path(a, w), "flow_t": ref["t"],
                     "flow_S": sn.kernel_distance_path(ref["a"], ref["w"])}
    return Timescales(tuple(deltas), np.array(up), np.array(down), tuple(mu0s), np.array(fits),
                      tuple(rates), float(np.linalg.norm(bs)), curves)


def conserved_surface_flows(deltas=(-1.0, 0.0, 1.0), t_end=15.0, points=61):
    """GRQ Fig. 2: gradient flow from a0 w0 = 0.6 [-1, 0] (beta_* = [0, 1], unit rates) with
    both signs of a0 at each delta: {(delta, sign): flow coordinates (with the drift of
    delta)}."""
    numbers("deltas", deltas)
    t_end, points = _horizon(t_end), integer(points, "points", 2)
    bs, beta0 = np.array([0.0, 1.0]), np.array([-1.0, 0.0]) * 0.6
    out = {}
    for d in deltas:
        for sign in (1.0, -1.0):
            a0, w0 = sn.balanced_init(beta0, d, sign=sign)
            out[(d, sign)] = flow_coordinates({"a0": a0, "w0": w0, "beta_star": bs, "eta_a": 1.0,
                                               "eta_w": 1.0}, t_end, points)
    return out
