"""BL Eq. (15) / Fig 4: the ReLU network continued from its linearisation time t* as a gated
linear network ``P(t) = W2 G W~1`` whose modes follow the linear closed form (Eq. 7).

``G = diag(g)``, ``g_j = 1[unit j is active on every input at t*]``; the mode strengths start at
``a_alpha(t*) = (U^T P(t*) V)_{alpha alpha}`` (L266) and evolve by Eq. (7) with ``t -> t - t*``;
the loss follows from the modes (valid under Eq. 4): ``L = 1/2 ||Y||^2 - P/2 sum(2 s a - d a^2)``.
"""
from __future__ import annotations

import numpy as np

from numerics.closed_forms import loss_from_modes, mode_strength
from numerics.datasets import correlations, modes
from numerics.validation import InvalidArgument, finite_array


def gated_linear_loss(t, t_star, W1, W2, always_on, X, Y, c):
    """Predicted loss on the grid ``t`` (t/tau) for t >= t_star, NaN before.

    ``W1`` (n_hid, 1 + n_in) and ``W2`` (n_out, n_hid) at t*, ``always_on`` (n_hid,) bool.
    Returns (loss (T,), a(t*) per mode).  Raises where a mode starts at a(t*) <= 0, for which
    Eq. (7) is not valid (BL-Eq(7) catalogue edge cases).
    """
    t = finite_array(t, "t", ndim=1)
    W1, W2 = finite_array(W1, "W1", ndim=2), finite_array(W2, "W2", ndim=2)
    always_on = np.asarray(always_on)
    if always_on.dtype != bool or always_on.shape != (W1.shape[0],):
        raise InvalidArgument(f"always_on must be a boolean mask of the {W1.shape[0]} hidden units")
    if not np.isfinite(t_star):
        raise InvalidArgument(f"t_star={t_star!r} must be finite")
    U, s, V, d, _ = modes(*correlations(X, Y, c))
    Pmat = W2 @ np.diag(always_on.astype(float)) @ W1
    a_star = np.diag(U.T @ Pmat @ V).copy()
    if np.any(a_star <= 0):
        raise InvalidArgument(f"a(t*) = {a_star} has a non-positive mode: Eq. (7) does not apply")
    after = t >= t_star
    a = mode_strength((t[after] - t_star)[:, None], s, d, a_star)
    loss = np.full(t.shape, np.nan)
    loss[after] = loss_from_modes(a, s, d, float(np.sum(Y ** 2)), X.shape[1])
    return loss, a_star
