"""Per-unit mechanism diagnostics of ReLU networks (BL §5.3-5.4, Figs 3, 10, 12).

All functions take batched arrays with leading axes (..., K) and work in numpy float64.
"""
from __future__ import annotations

import numpy as np

from numerics.validation import InvalidArgument, finite_array, number


def unit_states(Z):
    """Boolean masks (on, off, gating) of shape (..., n_hid) from pre-activations (..., n_hid, P).

    Over the P training inputs a unit is always-on if z > 0 for every input, always-off (dead)
    if z <= 0 for every input, and gating otherwise (BL-Def-Dead, L175, L243).
    """
    Z = finite_array(Z, "Z")
    if Z.ndim < 2:
        raise InvalidArgument(f"Z must be (..., n_hid, P), got shape {Z.shape}")
    positive = Z > 0
    on, off = positive.all(axis=-1), (~positive).all(axis=-1)
    return on, off, ~(on | off)


def unit_fractions(Z):
    """(f_on, f_off, f_gate), each (...,): fractions of units in each state."""
    return tuple(m.mean(axis=-1) for m in unit_states(Z))


def kinks(W1, c, eps: float = 1e-300):
    """Signed kink positions ``k_j = -c b_j / ||w_j||`` (BL-Def-Kink), shape (..., n_hid).

    ``W1`` is the augmented first layer (..., n_hid, 1 + n_in) with the bias weight in column 0
    and ``c`` the bias strength (scalar or broadcastable to (...,)), so ``c b_j`` is the
    effective bias.  Rows with ``w_j = 0`` have no kink: they raise.
    """
    W1 = finite_array(W1, "W1")
    norms = np.linalg.norm(W1[..., 1:], axis=-1)
    if np.any(norms <= eps):
        raise InvalidArgument("W1 has a unit with zero input weights: its kink is undefined")
    c = finite_array(c, "c")[..., None]
    return -c * W1[..., 0] / norms


def linearisation_time(steps, f_on):
    """``t* = min{t : f_on(t) = max_s f_on(s)}`` on the recorded grid (BL-Def-tstar).

    ``steps`` (T,), ``f_on`` (T, ...) -> index array (...,) of the first maximum.
    """
    steps = finite_array(steps, "steps", ndim=1)
    f_on = finite_array(f_on, "f_on")
    if f_on.shape[0] != steps.shape[0]:
        raise InvalidArgument(f"f_on has {f_on.shape[0]} records but steps has {steps.shape[0]}")
    return np.argmax(f_on, axis=0)   # argmax returns the first maximum


def dead_at_init_probability(c, P: int, n: int = 400_001):
    """``E_u[Phi(-c u)^P]``: chance that a unit is dead at init on one-hot inputs (BL-Eq(14)
    catalogue, D6), independent of the init scale; by quadrature on a fine grid."""
    from scipy.stats import norm
    c = number(c, "c")
    if isinstance(P, bool) or int(P) != P or P < 1 or int(n) != n or n < 3:
        raise InvalidArgument(f"P={P!r} must be a positive integer and n={n!r} at least 3")
    u = np.linspace(-12, 12, int(n))
    return float(np.trapezoid(norm.pdf(u) * norm.cdf(-float(c) * u) ** int(P), u))
