"""Linear-network theory curves for the toy tasks: the loss implied by Eq. (7) (BL) / Eq. (3)
(BA) for every mode of the augmented correlations, with one common initial strength a_0.

The paper does not say how a_0 was chosen (BA-E15); the suite fits one a_0 per curve by
minimising the max abs loss error (a one-parameter fit, reported in the evidence).
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

from numerics.closed_forms import loss_from_modes, mode_strength
from numerics.datasets import correlations, modes
from numerics.validation import InvalidArgument, finite_array


def theory_loss(t, X, Y, c, a0):
    """Loss on the grid ``t`` (t/tau) of a linear network with modes of the (augmented, if c)
    correlations, all starting at ``a0``."""
    if not (np.isfinite(a0) and a0 > 0):
        raise InvalidArgument(f"a0={a0!r} must be positive and finite")
    t = finite_array(t, "t", ndim=1)
    _, s, _, d, offdiag = modes(*correlations(X, Y, c))
    if offdiag > 1e-10:
        raise InvalidArgument(f"the task violates Eq. (4) (off-diagonal {offdiag:.2g}): no closed form")
    a = mode_strength(np.asarray(t, float)[:, None], s, d, a0)
    return loss_from_modes(a, s, d, float(np.sum(Y ** 2)), X.shape[1])


def fit_a0(t, loss, X, Y, c, bounds=(1e-6, 0.5)):
    """(a0, max abs error) of the best common a0 for one loss curve (T,)."""
    loss = finite_array(loss, "loss", ndim=1)
    if not 0 < bounds[0] < bounds[1] < np.inf:
        raise InvalidArgument(f"bounds={bounds!r} must be 0 < low < high")
    def err(log_a0):
        return float(np.max(np.abs(theory_loss(t, X, Y, c, np.exp(log_a0)) - loss)))
    res = minimize_scalar(err, bounds=np.log(bounds), method="bounded",
                          options={"xatol": 1e-4})
    return float(np.exp(res.x)), float(res.fun)
