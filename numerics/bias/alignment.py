"""Loss-curve alignment statistics between ReLU and linear networks (BL Figs 1, 2, 5, 7-11; BA
Figs 1, 4, 5, T7).  Curves are (T, ...) arrays on a shared time grid ``t`` (T,), in t/tau.
"""
from __future__ import annotations

import numpy as np

from numerics.validation import finite_array


def _curves(a, b, t):
    a, b, t = finite_array(a, "a"), finite_array(b, "b"), finite_array(t, "t", ndim=1)
    if a.shape != b.shape or a.shape[0] != t.shape[0]:
        raise ValueError(f"curves {a.shape}, {b.shape} and time grid {t.shape} do not match")
    if np.any(np.diff(t) <= 0):
        raise ValueError("t must be strictly increasing")
    return a, b, t


def max_gap(a, b, t, until=None):
    """``max_{t <= until} |a - b|`` per curve (G_raw before normalising by L(0))."""
    a, b, t = _curves(a, b, t)
    mask = np.ones_like(t, bool) if until is None else t <= until
    return np.abs(a[mask] - b[mask]).max(axis=0)


def warp(curve, t, new_t):
    """``curve`` (T, K) read at times ``new_t`` (T, K) by linear interpolation, clamped at ends."""
    return np.stack([np.interp(new_t[:, k], t, curve[:, k]) for k in range(curve.shape[1])], 1)


def best_warp(a, b, t, kind: str, grid, until=None):
    """``min_p max_t |a(t) - b(warp_p(t))|`` per curve, and the best p.

    ``kind='shift'``: ``b(t - p)`` (a global delay, 000's "time shift");
    ``kind='scale'``: ``b(t / p)`` (a global time constant, 001's "different time constants").
    ``a``, ``b`` (T, K).  Returns (gap (K,), p (K,)).
    """
    a, b, t = _curves(a, b, t)
    if kind not in ("shift", "scale"):
        raise ValueError(f"kind={kind!r} must be 'shift' or 'scale'")
    grid = finite_array(grid, "grid", ndim=1)
    mask = np.ones_like(t, bool) if until is None else t <= until
    gaps = []
    for p in grid:
        new_t = np.broadcast_to((t - p if kind == "shift" else t / p)[:, None], b.shape)
        gaps.append(np.abs(a - warp(b, t, new_t))[mask].max(axis=0))
    gaps = np.stack(gaps)
    best = gaps.argmin(axis=0)
    return gaps.min(axis=0), grid[best]


def first_time(curve, t, below):
    """First t at which ``curve`` (T, K) is <= ``below``; inf where it never is."""
    curve, t = finite_array(curve, "curve"), finite_array(t, "t", ndim=1)
    hit = curve <= below
    return np.where(hit.any(0), t[hit.argmax(0)], np.inf)


def dwell_time(curve, t, level, rel: float):
    """Time spent with ``|curve - level| <= rel * level`` (uniform grid assumed), per curve."""
    curve, t = finite_array(curve, "curve"), finite_array(t, "t", ndim=1)
    dt = np.diff(t)
    if not np.allclose(dt, dt[0]):
        raise ValueError("dwell_time needs a uniform time grid")
    return (np.abs(curve - level) <= rel * level).sum(axis=0) * dt[0]
