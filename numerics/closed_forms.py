"""Vectorised evaluations of ``theory``'s closed forms: the mode law of ``theory.mode_law``
(cross-checked against the sympy forms in ``tests/``), and :func:`compiled`, the suite's one
cache of compiled sympy formulas.

Time units: every function takes the paper's time ``t`` and constant ``tau`` separately; only
``t / tau`` matters.  Convert training steps with ``theory.conventions.flow_time``.
"""
from __future__ import annotations

import functools

import mpmath
import numpy as np
import sympy as sp

from numerics.validation import InvalidArgument, finite_array, integer, number, positive


@functools.lru_cache(maxsize=4096)
def _lambdify_cached(symbols, expr, modules):
    return sp.lambdify(symbols, expr, modules=modules)


def compiled(symbols, expr, modules="numpy"):
    """``sympy.lambdify(symbols, expr, modules)``, compiled once per (symbols, expr, modules):
    the checks evaluate the same formulas at many hypothesis examples, and compiling was a
    measured hot spot of the suite (1380 lambdify calls, ~18 s of a profiled run)."""
    symbols = tuple(symbols) if isinstance(symbols, (list, tuple)) else symbols
    try:
        return _lambdify_cached(symbols, expr, modules)
    except TypeError:  # unhashable (a mutable Matrix): compile without the cache
        return sp.lambdify(symbols, expr, modules=modules)


def _one_minus_exp_over_x(x):
    """(1 - e^{-x}) / x, stable at x = 0."""
    x = np.asarray(x, dtype=float)
    small = np.abs(x) < 1e-8
    safe = np.where(small, 1.0, x)
    return np.where(small, 1.0 - x / 2, -np.expm1(-safe) / safe)


def mode_strength(t, s, d, a0, tau=1.0):
    """a(t) solving ``tau da/dt = 2 a (s - d a)``, a(0) = a0 (BL-Eq(7), BA-Eq(3), MHS-A-Eq(7)).

    Written as ``a0 / (e^{-x} + 2 d a0 (t/tau) (1 - e^{-x})/x)`` with ``x = 2 s t / tau``, which
    equals the printed form, never overflows for t -> inf (where ``x`` itself overflows, the limit
    ``a0 / (e^{-x} + d a0 / s)`` is used: the plateau s/d), and is continuous through s -> 0
    (``a0 / (1 + 2 d a0 t/tau)``) and d = 0 (``a0 e^x``).  With d = 0 the mode grows without
    bound: a time at which ``a0 e^x`` overflows float64 raises ``OverflowError`` naming t.
    Broadcasts over all arguments.
    """
    t = positive(t, "t", allow_zero=True)
    s = positive(s, "s", allow_zero=True)
    d = positive(d, "d", allow_zero=True)
    a0 = positive(a0, "a0")
    tau = positive(tau, "tau")
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        ratio = t / tau
        x = np.where(s == 0, 0.0, 2 * s * t / tau)
        growth = np.where(np.isfinite(x), 2 * d * a0 * ratio * _one_minus_exp_over_x(x),
                          d * a0 / np.where(s > 0, s, 1.0))
        a = a0 / (np.exp(-x) + np.where(d == 0, 0.0, growth))
    if not np.all(np.isfinite(a)):
        raise OverflowError(f"a(t) overflows float64 at t={np.max(t):g}: with d = 0 the mode grows "
                            "as a0 e^(2 s t/tau) without bound; take an earlier t")
    return a


def hitting_time(rho, s, d, a0, tau=1.0):
    """Time at which ``mode_strength`` reaches ``rho`` (BL-Eq(13), MHS-A-Time), on its domain.

    Raises ``ValueError`` naming ``rho`` where the target is never reached: rho must lie between
    a0 and the plateau s/d (either side of a0).
    """
    rho = positive(rho, "rho")
    s = positive(s, "s")
    d = positive(d, "d")
    a0 = positive(a0, "a0")
    tau = positive(tau, "tau")
    plateau = s / d
    reachable = ((a0 <= rho) & (rho < plateau)) | ((plateau < rho) & (rho <= a0))
    if not np.all(reachable):
        raise InvalidArgument("rho must lie between a0 and the plateau s/d, where the mode reaches it")
    return tau / (2 * s) * np.log(rho * (s - d * a0) / (a0 * (s - d * rho)))


def hitting_time_by_quadrature(rho, s, d, a0, tau=1.0, *, digits=30):
    """The time the mode ODE ``tau da/dt = 2a(s - da)`` takes from a0 to rho by quadrature,
    ``int_a0^rho tau da / (2a(s - da))`` (separation of variables) at ``digits`` significant
    digits (mpmath): the reference of the hitting-time closed forms (BL-Eq(13), MHS-A-Time;
    :func:`hitting_time`), exact even when rho is within 1e-7 of a0 or of the plateau, where an
    integrator's event is not.  The time is the paper's t, in the units of ``tau``.

    Arguments are scalars in :func:`hitting_time`'s order and domain: rho between a0 and the
    plateau s/d (either side of a0; rho = a0 gives 0).  Returns an ``mpmath.mpf`` carrying the
    quadrature's digits (not rounded to float64, so a comparison against it keeps them).
    """
    rho = number(rho, "rho", positive=True)
    s = number(s, "s", positive=True)
    d = number(d, "d", positive=True)
    a0 = number(a0, "a0", positive=True)
    tau = number(tau, "tau", positive=True)
    digits = integer(digits, "digits", least=15)
    plateau = s / d
    if not (a0 <= rho < plateau or plateau < rho <= a0):
        raise InvalidArgument("rho must lie between a0 and the plateau s/d, where the mode reaches it")
    with mpmath.workdps(digits):
        s_, d_, tau_ = mpmath.mpf(s), mpmath.mpf(d), mpmath.mpf(tau)
        return mpmath.quad(lambda a: tau_ / (2 * a * (s_ - d_ * a)),
                           [mpmath.mpf(a0), mpmath.mpf(rho)])


def loss_from_modes(a, s, d, y_norm2, n_samples):
    """``L = 1/2 ||Y||^2 - (P/2) sum_a (2 s a - d a^2)`` for the 1/2-sum loss (BL-Eq(7) catalogue).

    ``a``, ``s``, ``d`` carry modes on the last axis (``s`` and ``d`` one value per mode).
    """
    a = finite_array(a, "a")
    s = finite_array(s, "s", ndim=1)
    d = finite_array(d, "d", shape=s.shape)
    if a.ndim == 0 or a.shape[-1] != s.shape[0]:
        raise InvalidArgument(f"a {a.shape} and s {s.shape} must carry the same {s.shape[0]} modes on "
                              "their last axis")
    y_norm2 = number(y_norm2, "y_norm2", nonnegative=True)
    n_samples = integer(n_samples, "n_samples")
    return 0.5 * y_norm2 - 0.5 * n_samples * np.sum(2 * s * a - d * a ** 2, axis=-1)
