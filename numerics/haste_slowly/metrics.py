"""Comparisons of loss curves (MHS-S4-C1, MHS-Fig4, MHS-Fig5): time to reach loss levels."""
from __future__ import annotations

import numpy as np

from numerics.validation import finite_array
from numerics.metrics import crossing_time  # noqa: F401  (re-exported)

#: loss levels as fractions of L(0), spanning the common drop and the contextual staircase
LEVELS = (0.6, 0.4, 0.2, 0.1, 0.05, 0.02, 0.01)


def time_to_levels(loss, times, L0: float, levels=LEVELS) -> np.ndarray:
    """(len(levels),) first time at which ``loss`` (T,) drops below level x L0 (inf if never)."""
    loss = finite_array(loss, "loss", ndim=1)
    times = finite_array(times, "times", shape=loss.shape)
    return np.array([crossing_time(loss, times, lv * L0) for lv in levels])


def timing_gap(loss_a, loss_b, times, L0: float, levels=LEVELS) -> float:
    """Max relative difference of the times to the loss levels (inf when only one reaches one)."""
    ta, tb = time_to_levels(loss_a, times, L0, levels), time_to_levels(loss_b, times, L0, levels)
    both = np.isfinite(ta) & np.isfinite(tb)
    if np.any(np.isfinite(ta) != np.isfinite(tb)):
        return float("inf")
    return float(np.max(np.abs(ta[both] - tb[both]) / np.minimum(ta[both], tb[both])))
