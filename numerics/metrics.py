"""Metrics of representations and spectra, and the suite's one relative error."""
from __future__ import annotations

import numpy as np

from numerics.validation import InvalidArgument, finite_array


def rel_err(a, b) -> float:
    """``max |a - b| / max |b|`` over all entries; ``inf`` when the shapes differ (a formula that
    does not conform is as wrong as it gets); NaN in either argument gives NaN, which compares
    false against every tolerance.  Empty arrays raise ``ValueError``."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        raise InvalidArgument(f"a and b are empty (shape {a.shape}): there is nothing to compare")
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


def effective_rank(A) -> float:
    """Roy-Vetterli effective rank ``exp(-sum sbar log sbar)`` of a matrix (BL-Def-EffRank,
    corrected form of BL Eq. (1); the printed leading minus sign is an erratum).

    Zero singular values contribute 0 (0 log 0 = 0).  The paper applies it to ``H.T @ H``.
    """
    A = finite_array(A, "A", ndim=2)
    if A.size == 0:
        raise InvalidArgument(f"A is empty (shape {A.shape}): its effective rank is undefined")
    sv = np.linalg.svd(A, compute_uv=False)
    total = sv.sum()
    if total == 0:
        raise InvalidArgument("A is the zero matrix: its effective rank is 0/0")
    p = sv[sv > 0] / total
    return float(np.exp(-np.sum(p * np.log(p))))


def kernel_distance(K1, K2):
    """Kernel distance ``S(K1, K2) = 1 - <K1, K2>_F / (||K1||_F ||K2||_F)`` (Fort et al. 2020;
    GRQ-Def-KD, LR App E.7), over the last two axes, broadcasting leading ones (a time axis)."""
    K1, K2 = finite_array(K1, "K1"), finite_array(K2, "K2")
    if K1.ndim < 2 or K2.ndim < 2:
        raise InvalidArgument(f"K1 and K2 must be matrices, got shapes {K1.shape} and {K2.shape}")
    if K1.shape[-2:] != K2.shape[-2:]:
        raise InvalidArgument(f"K1 {K1.shape} and K2 {K2.shape} must be kernels of one shape (last two axes)")
    num = np.sum(K1 * K2, axis=(-2, -1))
    den = np.linalg.norm(K1, axis=(-2, -1)) * np.linalg.norm(K2, axis=(-2, -1))
    if np.any(den == 0):
        raise InvalidArgument("K1 or K2 is identically zero: the kernel distance is undefined")
    return 1.0 - num / den


def crossing_time(series, times, level: float) -> float:
    """First time ``series`` crosses ``level`` (either direction), linearly interpolated between
    records; inf if it never does."""
    series = finite_array(series, "series", ndim=1, nonempty=True)
    times = finite_array(times, "times", shape=series.shape)
    level = finite_array(level, "level")
    if level.size != 1:
        raise InvalidArgument(f"level must be one number, got shape {level.shape}")
    level = float(level.ravel()[0])
    side = series > level
    change = np.flatnonzero(side[1:] != side[0])
    if not change.size:
        return float("inf")
    i = change[0]
    y0, y1 = series[i], series[i + 1]
    return float(times[i] + (level - y0) / (y1 - y0) * (times[i + 1] - times[i]))
