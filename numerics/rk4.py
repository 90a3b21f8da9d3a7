"""Classical fixed-step RK4 over a whole grid at once: the references of the validity maps
(``verify/<paper>/validity.py``) integrate one small flow per grid point, every point in one
array, where a step-size controller per point would cost more than the map.  Time in the flow's
own units."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from numerics.validation import InvalidArgument, finite_array, integer


def rk4(rhs: Callable[[float, np.ndarray], np.ndarray], y0, t_end: float, steps: int,
        every: int = 0) -> np.ndarray:
    """Classical RK4 of ``y' = rhs(t, y)`` from ``y0`` (any shape: the whole grid at once) to
    ``t_end`` in ``steps`` fixed steps; the final state, or the states every ``every`` steps
    (stacked on a leading axis, the initial one first)."""
    y = np.array(y0, dtype=float)
    if float(finite_array(t_end, "t_end")) <= 0:
        raise InvalidArgument(f"t_end={t_end!r} must be > 0")
    steps, every = integer(steps, "steps", 1), integer(every, "every", 0)
    h = t_end / steps
    out = [y.copy()] if every else None
    t = 0.0
    for i in range(steps):
        k1 = rhs(t, y)
        k2 = rhs(t + h / 2, y + h / 2 * k1)
        k3 = rhs(t + h / 2, y + h / 2 * k2)
        k4 = rhs(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t += h
        if every and (i + 1) % every == 0:
            out.append(y.copy())
    return np.stack(out) if every else y
