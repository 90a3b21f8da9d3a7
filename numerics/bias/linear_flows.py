"""Gradient flows of two-layer linear networks on given input-output statistics, in the paper's
time t/tau (tau = 1, the 1/2-sum loss of App B), integrated with ``numerics.ode.integrate_flow``;
and the scalar mode ODEs of BL Eqs. (20)-(21) for one balanced mode.  Runners only: the claims'
formulas are handed in by ``verify`` and compared there.
"""
from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

from numerics.datasets import augment
from numerics.linalg import random_orthogonal
from numerics.ode import IntegrationFailed, NonFiniteFlow, integrate_flow
from numerics.validation import InvalidArgument, finite_array, positive, time_grid


def _flow(syx, sx):
    """The gradient flow of the 1/2-sum loss in t/tau on statistics (Sigma~yx, Sigma~x)."""
    def rhs(t, q):
        err = syx - q["W2"] @ q["W1"] @ sx
        return {"W1": q["W2"].T @ err, "W2": err @ q["W1"].T}
    return rhs


def linear_flow_plateau(Y, c, a0=1e-8, seed=0, n_hid=16):
    """The linear network's outputs on its first plateau, by integrating its gradient flow
    (one-hot inputs with bias c, paper time t/tau) from a small random init.

    Mode alpha leaves a0 near t_alpha = ln(1/a0)/(2 s_alpha) (s_alpha the singular values of
    Sigma~yx); the first plateau is sampled at the geometric mean of t_0 and t_1.  Returns
    (t_plateau, loss there, outputs there (N_out x P)).
    """
    Y = finite_array(Y, "Y", ndim=2)
    if not (np.isfinite(a0) and 0 < a0 < 1):
        raise InvalidArgument(f"a0={a0!r} must lie in (0, 1)")
    if isinstance(n_hid, bool) or int(n_hid) != n_hid or n_hid < 1:
        raise InvalidArgument(f"n_hid={n_hid!r} must be a positive integer")
    P = Y.shape[1]
    Xa = augment(np.eye(P), c)
    syx, sx = Y @ Xa.T / P, Xa @ Xa.T / P
    s = np.linalg.svd(syx, compute_uv=False)
    if s.size < 2 or s[1] <= 1e-12 * s[0]:
        raise InvalidArgument(f"Y {Y.shape} must have at least two modes (nonzero singular values of "
                              "Sigma~yx): the first plateau lies between the first two")
    t_plateau = np.log(1 / a0) / (2 * np.sqrt(s[0] * s[1]))
    rng = np.random.default_rng(seed)
    std = np.sqrt(2 * a0 / n_hid)            # BA-D2: effective a0 ~ H std^2 / 2
    W1 = rng.standard_normal((n_hid, P + 1)) * std
    W2 = rng.standard_normal((Y.shape[0], n_hid)) * std
    flow = integrate_flow(_flow(syx, sx), {"W1": W1, "W2": W2}, t_plateau,
                          t_eval=np.array([t_plateau]))
    out = flow.states["W2"][..., -1] @ flow.states["W1"][..., -1] @ Xa
    return float(t_plateau), float(0.5 * ((out - Y) ** 2).sum()), out


def decoupled_flow(aligned: bool, n_in=5, n_hid=4, n_out=3, seed=0, a0=1e-3):
    """BA-Eq(2)'s setting: the matrix gradient flow (tau = 1) on statistics sharing V, from an
    aligned balanced init or a small random one of the same effective a0 (BA-D2: H std^2 / 2 =
    a0), over the whole learning curve.  Returns {"U", "V", "W1" (T, n_hid, n_in), "W2" (T, n_out,
    n_hid)}."""
    for name, value in (("n_in", n_in), ("n_hid", n_hid), ("n_out", n_out)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be a positive integer")
    if not (np.isfinite(a0) and 0 < a0 < 1):
        raise InvalidArgument(f"a0={a0!r} must lie in (0, 1)")
    rng = np.random.default_rng(seed)
    U, V, R = (random_orthogonal(n, rng) for n in (n_out, n_in, n_hid))
    r = min(n_in, n_out, n_hid)
    s_vals = np.sort(rng.uniform(0.3, 2.0, r))[::-1]
    S = np.zeros((n_out, n_in))
    S[np.arange(r), np.arange(r)] = s_vals
    D = np.diag(rng.uniform(0.5, 2.0, n_in))
    syx, sx = U @ S @ V.T, V @ D @ V.T
    if aligned:
        W1 = R[:, :r] @ np.diag(np.full(r, np.sqrt(a0))) @ V[:, :r].T
        W2 = U[:, :r] @ np.diag(np.full(r, np.sqrt(a0))) @ R[:, :r].T
    else:
        std = np.sqrt(2 * a0 / n_hid)
        W1 = rng.standard_normal((n_hid, n_in)) * std
        W2 = rng.standard_normal((n_out, n_hid)) * std
    t_end = 2 * np.log(1 / a0) / (2 * s_vals.min())
    flow = integrate_flow(_flow(syx, sx), {"W1": W1, "W2": W2}, t_end,
                          t_eval=np.linspace(0, t_end, 200))
    return {"U": U, "V": V, "W1": np.moveaxis(flow.states["W1"], -1, 0),
            "W2": np.moveaxis(flow.states["W2"], -1, 0)}


_TIGHT = dict(method="DOP853", rtol=1e-12, atol=1e-15)


def _solve(rate, y0, grid):
    """solve_ivp at rtol 1e-12 on ``grid``; a non-finite rate or a stalled solver is a named error
    (an adaptive solver would otherwise shrink its step for ever on a NaN)."""
    def f(t, y):
        dy = rate(t, y)
        if not np.all(np.isfinite(dy)):
            raise NonFiniteFlow(f"rate returned a non-finite derivative at t={t:.6g}: the mode "
                                "diverged before the end of grid; take a shorter grid")
        return dy
    sol = solve_ivp(f, (0, grid[-1]), y0, t_eval=grid, **_TIGHT)
    if not sol.success:
        raise IntegrationFailed(f"integration stopped at t={sol.t[-1]:.6g} before the end of grid "
                                f"({grid[-1]:g}): {sol.message}; the mode may blow up there")
    return sol.y


def balanced_mode_product(s, d, tau, w0, grid):
    """omega = w1 w2 on ``grid`` (t, in the units of ``tau``) for one mode's layer ODEs
    tau w1' = w2 (s - d w1 w2), tau w2' = w1 (s - d w1 w2) from w1 = w2 = ``w0`` (BL Eq. 20 for a
    diagonal mode), by solve_ivp at rtol 1e-12."""
    positive([s, d, tau], "s, d, tau")
    w0 = float(finite_array(w0, "w0"))
    y = _solve(lambda t, w: [w[1] * (s - d * w[0] * w[1]) / tau, w[0] * (s - d * w[0] * w[1]) / tau],
               [w0, w0], time_grid(grid))
    return y[0] * y[1]


def scalar_mode(rate, a0, grid):
    """a(t) on ``grid`` for a' = ``rate(a)`` from ``a0`` (a scalar mode ODE handed in as a
    callable), by solve_ivp at rtol 1e-12."""
    if not callable(rate):
        raise InvalidArgument("rate must be a callable a -> da/dt")
    a0 = float(finite_array(a0, "a0"))
    return _solve(lambda t, a: [rate(a[0])], [a0], time_grid(grid))[0]
