"""Comparisons of loss curves (MHS-S4-C1, MHS-Fig4, MHS-Fig5): time to reach loss levels."""
from __future__ import annotations

import numpy as np

from numerics.checks import finite_array

#: loss levels as fractions of L(0), spanning the common drop and the contextual staircase
LEVELS = (0.6, 0.4, 0.2, 0.1, 0.05, 0.02, 0.01)


def crossing_time(series, times, level: float) -> float:
    """First time ``series`` crosses ``level`` (either direction), linearly interpolated between
    records; inf if it never does."""
    series = finite_array(series, "series", ndim=1)
    times = finite_array(times, "times", shape=series.shape)
    side = series > level
    change = np.flatnonzero(side[1:] != side[0])
    if not change.size:
        return float("inf")
    i = change[0]
    y0, y1 = series[i], series[i + 1]
    return float(times[i] + (level - y0) / (y1 - y0) * (times[i + 1] - times[i]))


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
