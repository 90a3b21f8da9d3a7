"""Gradient-flow integration over named parameter sets (docs/DESIGN.md, "Simulation").

``integrate_flow(rhs, params, t_end)`` packs a dict of named arrays into one state vector,
integrates with ``solve_ivp`` (DOP853, rtol 1e-10 by default, dense output) and unpacks again;
``rhs(t, params) -> dict`` sees and returns the named arrays.  Conserved quantities are monitored
on the output grid; a drift beyond ``conservation_tol`` raises :class:`ConservationError`, since it
means the integration (or the claimed conservation law) is wrong.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

from numerics.validation import InvalidArgument, affordable, finite_array, positive


class ConservationError(RuntimeError):
    pass


class NonFiniteFlow(FloatingPointError):
    """The right-hand side returned NaN or inf: the flow diverged (or the model is wrong), and
    an adaptive integrator would shrink its step forever."""


class IntegrationFailed(RuntimeError):
    """``solve_ivp`` stopped before ``t_end`` (its step size collapsed: typically a flow that
    blows up in finite time)."""


class _Packing:
    def __init__(self, params: dict):
        if not params:
            raise InvalidArgument("params is empty: name at least one parameter array")
        self.names = list(params)
        self.shapes = [np.shape(params[k]) for k in self.names]
        self.sizes = [int(np.prod(s)) for s in self.shapes]
        self.offsets = np.cumsum([0] + self.sizes)

    def pack(self, params: dict) -> np.ndarray:
        return np.concatenate([np.asarray(params[k], dtype=float).ravel() for k in self.names])

    def conform(self, value) -> np.ndarray:
        """What ``rhs`` returned, packed, after checking it names every parameter with its shape."""
        if not isinstance(value, dict) or set(value) != set(self.names):
            got = sorted(value) if isinstance(value, dict) else type(value).__name__
            raise InvalidArgument(f"rhs must return a dict of the arrays {self.names}, got {got}")
        wrong = {k: np.shape(value[k]) for k, s in zip(self.names, self.shapes)
                 if np.shape(value[k]) != tuple(s)}
        if wrong:
            raise InvalidArgument("rhs returned " + ", ".join(f"{k!r} of shape {v}" for k, v in wrong.items())
                                  + f"; the parameters have shapes {dict(zip(self.names, self.shapes))}")
        return self.pack(value)

    def unpack(self, y: np.ndarray) -> dict:
        """y of shape (n,) or (n, T) -> dict of arrays of shape s or (*s, T)."""
        tail = y.shape[1:]
        return {k: y[a:b].reshape(tuple(s) + tail) for k, s, a, b in
                zip(self.names, self.shapes, self.offsets[:-1], self.offsets[1:])}


@dataclass
class Flow:
    """The integrated flow: ``t`` grid, ``states`` (dict of (*shape, T) arrays), dense ``at``."""

    t: np.ndarray
    states: dict
    drift: dict
    _packing: _Packing
    _sol: object

    def at(self, t) -> dict:
        """Parameters at time(s) ``t`` from the dense output (same units as the integration)."""
        return self._packing.unpack(self._sol.sol(np.asarray(t, dtype=float)))

    @property
    def events(self):
        return self._sol.t_events


#: how many of its initial time scales a flow may be integrated over unasked: the suite's flows
#: need at most about 1e5; an adaptive solver takes at least one step per time scale of a flow
#: that keeps moving, so far beyond that a call would not end in any useful time
MAX_TIME_SCALES = 1e8


def _initial_time_scales(rhs, params, packing, y0, t_end) -> float:
    """``t_end`` in units of the flow's initial time scale ``max(|y0|, 1) / |rhs(0, y0)|`` (the
    cost estimate of :func:`integrate_flow`; a flow at rest costs nothing)."""
    rate = packing.conform(rhs(0.0, params))
    speed = float(np.max(np.abs(rate)))
    if not np.isfinite(speed):
        return 0.0  # the integration itself reports a non-finite derivative, by name
    return float(t_end) * speed / max(float(np.max(np.abs(y0))), 1.0)


def integrate_flow(rhs, params: dict, t_end: float, *, t_eval=None, conserved=None,
                   rtol: float = 1e-10, atol: float = 1e-13, method: str = "DOP853",
                   conservation_tol: float | None = 1e-7, events=None) -> Flow:
    """Integrate ``d params/dt = rhs(t, params)`` from 0 to ``t_end``.

    A ``t_end`` beyond :data:`MAX_TIME_SCALES` of the flow's initial time scales is refused with
    :class:`numerics.validation.TooCostly` (the estimate and the override), not run for ever.

    A right-hand side that returns NaN or inf stops the integration with :class:`NonFiniteFlow`;
    one that returns other names or shapes than ``params`` raises ``ValueError``; a solver that
    stops before ``t_end`` raises :class:`IntegrationFailed`.
    ``conserved``: name -> f(params) returning an array; its maximum drift relative to
    ``max(1, |initial value|)`` over ``t_eval`` is reported in ``Flow.drift`` and checked against
    ``conservation_tol`` (None: monitor only).  ``events``: functions ``(t, params) -> float``.
    """
    if not callable(rhs):
        raise InvalidArgument(f"rhs must be callable as rhs(t, params) -> dict, got {type(rhs).__name__}")
    positive(t_end, "t_end")
    positive(rtol, "rtol")
    positive(atol, "atol", allow_zero=True)
    params = {k: finite_array(v, f"params[{k!r}]") for k, v in params.items()}
    packing = _Packing(params)
    y0 = packing.pack(params)
    t_eval = (np.linspace(0.0, t_end, 201) if t_eval is None
              else finite_array(t_eval, "t_eval", ndim=1, nonempty=True))
    if t_eval.min() < 0 or t_eval.max() > t_end:
        raise InvalidArgument("t_eval must lie in [0, t_end]")
    affordable(_initial_time_scales(rhs, params, packing, y0, t_end), MAX_TIME_SCALES,
               f"integrating to t_end={float(t_end):g}", "of the flow's initial time scales")

    checked = False

    def f(t, y):
        nonlocal checked
        value = rhs(t, packing.unpack(y))
        # names and shapes are checked on the first call, the size (cheap) on every call
        out = packing.pack(value) if checked else packing.conform(value)
        checked = True
        if out.size != y.size:
            packing.conform(value)
        if not np.all(np.isfinite(out)):
            bad = [k for k, v in packing.unpack(out).items() if not np.all(np.isfinite(v))]
            raise NonFiniteFlow(f"rhs returned a non-finite derivative for {bad} at t={t:.6g} "
                                f"(state finite: {bool(np.all(np.isfinite(y)))}): the flow "
                                "diverged before t_end; integrate to an earlier t_end or check rhs")
        return out

    wrapped = None
    if events:
        wrapped = []
        for ev in events:
            def g(t, y, ev=ev):
                return ev(t, packing.unpack(y))
            g.terminal = getattr(ev, "terminal", False)
            g.direction = getattr(ev, "direction", 0)
            wrapped.append(g)
    sol = solve_ivp(f, (0.0, float(t_end)), y0, method=method, t_eval=t_eval, rtol=rtol,
                    atol=atol, dense_output=True, events=wrapped)
    if not sol.success:
        raise IntegrationFailed(f"integration stopped at t={sol.t[-1]:.6g} before t_end={float(t_end):g} "
                                f"(solve_ivp: {sol.message}): the flow may blow up there; integrate "
                                "to an earlier t_end or check rhs")
    states = packing.unpack(sol.y)
    drift = {}
    for name, fn in (conserved or {}).items():
        values = np.stack([np.asarray(fn(packing.unpack(sol.y[:, k])), dtype=float)
                           for k in range(sol.y.shape[1])])
        scale = np.maximum(1.0, np.abs(values[0]))
        drift[name] = float(np.max(np.abs(values - values[0]) / scale))
        if conservation_tol is not None and drift[name] > conservation_tol:
            raise ConservationError(f"conserved quantity {name!r} drifted by {drift[name]:.3g} "
                                    f"> conservation_tol={conservation_tol:g}")
    return Flow(sol.t, states, drift, packing, sol)
