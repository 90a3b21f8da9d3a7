"""Checks of the sigmoidal mode law (BL-Eq(7), BA-Eq(3), MHS-A-Eq(7), MHS-A-Mode, BL-Eq(13),
MHS-A-Time).  Every function takes the formula under test as its first argument."""
from __future__ import annotations

import numpy as np
import sympy as sp

from numerics.closed_forms import hitting_time_by_quadrature
from numerics.metrics import crossing_time
from numerics.mode_flows import scalar_mode_flow
from theory import mode_law as ml
from verify.checks.symbolic import high_precision, is_zero, solves

MODE_SYMBOLS = (ml.t, ml.s, ml.d, ml.a0, ml.tau)


def symbolic_solution(traj: sp.Expr) -> dict[str, bool]:
    """The closed form against ``tau da/dt = 2a(s - da)``: residual, a(0), a(inf), s -> 0 limit."""
    return {
        **solves(traj, ml.rhs, ml.t, ml.a, ml.a0),
        "t->inf": is_zero(sp.limit(traj, ml.t, sp.oo) - ml.s / ml.d),
        "s->0": is_zero(sp.limit(traj, ml.s, 0) - ml.trajectory_s0),
    }


def scalar_ode_error(traj: sp.Expr, s, d, a0, tau, t_end_rates: float = 12.0) -> float:
    """Max relative error of ``traj`` (50-digit evaluation) against the integrator (rtol 1e-12) of the
    scalar mode ODE over ``t in [0, t_end]``, ``t_end`` = ``t_end_rates`` characteristic times."""
    rate = 2 * max(s, d * a0) / tau
    grid = np.linspace(0.0, t_end_rates / rate, 60)
    reference = scalar_mode_flow(s, d, a0, tau, grid)
    formula = high_precision(traj, MODE_SYMBOLS)(grid, s, d, a0, tau)
    err = np.abs(formula - reference) / np.abs(reference)
    return float(np.nanmax(err)) if np.all(np.isfinite(formula)) else float("inf")


def matrix_flow_error(traj: sp.Expr, flow_times, flow_modes, s, d, a0, tau) -> float:
    """Max relative error between the formula (50 digits) and the flow's mode strengths."""
    f = high_precision(traj, MODE_SYMBOLS)
    pred = np.stack([f(flow_times, s_a, d_a, a_a, tau) for s_a, d_a, a_a in zip(s, d, a0)])
    return float(np.max(np.abs(pred - flow_modes) / np.abs(flow_modes)))


def hitting_time_error(t_hat: sp.Expr, s, d, a0, rho, tau) -> float:
    """Relative error of a hitting-time formula against the time the mode ODE takes from a0 to
    rho, ``int_a0^rho tau da / (2a(s - da))`` by 30-digit quadrature
    (:func:`numerics.closed_forms.hitting_time_by_quadrature`; unlike an integrator's event,
    exact even when rho is within 1e-7 of a0 or of the plateau).
    ``inf`` when the formula is not a finite real number."""
    value = high_precision(t_hat, (ml.s, ml.d, ml.a0, ml.rho, ml.tau))(s, d, a0, rho, tau)
    if not np.isfinite(value):
        return float("inf")
    reference = hitting_time_by_quadrature(rho, s, d, a0, tau, digits=30)
    if reference == 0:
        return float(abs(value))
    return float(abs(value - reference) / abs(reference))


def hitting_time_solves(t_hat: sp.Expr) -> bool:
    """Symbolically: the trajectory evaluated at ``t_hat`` equals rho."""
    return is_zero(ml.trajectory.subs(ml.t, t_hat) - ml.rho)


def fit_a0_from_half_rise(times, a, s, d, tau) -> float:
    """Effective a0 of a sigmoidal trajectory from its half-rise time (the first crossing of
    s/(2d), :func:`numerics.metrics.crossing_time`):
    ``t_half = tau/(2s) ln(s/(d a0) - 1)``  =>  ``a0 = s / (d (1 + exp(2 s t_half / tau)))``."""
    if a[0] >= s / (2 * d):
        raise ValueError("the trajectory starts above half of its plateau; no half-rise to fit")
    t_half = crossing_time(a, times, s / (2 * d))
    if not np.isfinite(t_half):
        raise ValueError("the trajectory never reaches half of its plateau; no half-rise to fit")
    return float(s / (d * (1 + np.exp(2 * s * t_half / tau))))


def mode_trajectories(products, U, s, V, decimals: int = 9):
    """Mode strengths of recorded network maps ``products`` (T, K, n_out, n_in).

    Modes with equal s share a subspace whose basis the data does not fix, so within each group
    the strengths are the singular values of the projected block ``U_g^T W V_g`` (for a single
    mode, the signed projection u^T W v).  Returns (T, K, modes) in the order of ``s``.
    """
    out = np.empty(products.shape[:2] + (len(s),))
    for value in np.unique(np.round(s, decimals)):
        idx = np.flatnonzero(np.round(s, decimals) == value)
        block = np.einsum("oa,tkoi,ib->tkab", U[:, idx], products, V[:, idx])
        if len(idx) == 1:
            out[..., idx[0]] = block[..., 0, 0]
        else:
            out[..., idx] = np.linalg.svd(block, compute_uv=False)
    return out


def training_error(law, time, strengths, s, d):
    """Compare trained mode strengths (T, K, modes) with ``law(time, s, d, a0)``, a0 fitted
    per seed and mode from the half-rise time.  Returns (max error relative to the plateau s/d,
    fitted a0 of shape (K, modes))."""
    K, M = strengths.shape[1:]
    a0 = np.array([[fit_a0_from_half_rise(time, strengths[:, k, m], s[m], d[m], 1.0)
                    for m in range(M)] for k in range(K)])
    worst = max(float(np.max(np.abs(law(time, s[m], d[m], a0[k, m]) - strengths[:, k, m]))
                      / (s[m] / d[m])) for k in range(K) for m in range(M))
    return worst, a0
