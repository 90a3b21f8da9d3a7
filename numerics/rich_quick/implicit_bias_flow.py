"""The gradient flow of the Thm 3.1 validity map (GRQ-Thm3.1, Sec 3 / App D.2): beta(t) of the
single neuron's flow in function space, beta' = -M(beta) x (x.beta - y) with M of Eq. (4) at
rates whose product is ``c2``, one data point x (n = 1), for every grid point at once.  Time in
the paper's t (unit rates' clock)."""
from __future__ import annotations

import numpy as np

from numerics.ode import integrate_flow
from numerics.validation import finite_array


def gf_limit(c2, delta, x, y: float, beta0, t_end: float = 400.0) -> np.ndarray:
    """beta(t_end) (grid + (2,)) from ``beta0`` for every grid point of ``c2`` and ``delta`` (same
    shape), by :func:`numerics.ode.integrate_flow` (DOP853 at rtol 1e-11; a diverging or stalled
    flow is a named error)."""
    c2, delta = finite_array(c2, "c2"), finite_array(delta, "delta")
    x, beta0 = finite_array(x, "x", ndim=1), finite_array(beta0, "beta0", ndim=1)

    def rhs(_, params):
        beta = params["beta"]
        r2 = np.sum(beta ** 2, axis=-1)
        kappa = np.sqrt(delta ** 2 + 4 * c2 * r2)
        resid = beta @ x - y
        grad = x * resid[..., None]
        along = np.sum(beta * grad, axis=-1) / r2
        return {"beta": -((kappa + delta)[..., None] / 2 * grad
                          + ((kappa - delta) / 2 * along)[..., None] * beta)}

    start = np.broadcast_to(beta0, c2.shape + (2,))
    flow = integrate_flow(rhs, {"beta": start}, t_end, t_eval=[t_end], rtol=1e-11, atol=1e-13,
                          conservation_tol=None)
    return flow.states["beta"][..., -1]
