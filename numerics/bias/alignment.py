"""Loss-curve alignment statistics between ReLU and linear networks (BL Figs 1, 2, 5, 7-11; BA
Figs 1, 4, 5, T7).  Curves are (T, ...) arrays on a shared time grid ``t`` (T,), in t/tau.
"""
from __future__ import annotations

import numpy as np

from numerics.validation import InvalidArgument, finite_array, number


def _curves(a, b, t):
    a, b, t = finite_array(a, "a"), finite_array(b, "b"), finite_array(t, "t", ndim=1)
    if a.shape != b.shape or a.shape[0] != t.shape[0]:
        raise InvalidArgument(f"curves {a.shape}, {b.shape} and time grid {t.shape} do not match")
    if np.any(np.diff(t) <= 0):
        raise InvalidArgument("t must be strictly increasing")
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
        raise InvalidArgument(f"kind={kind!r} must be 'shift' or 'scale'")
    grid = finite_array(grid, "grid", ndim=1, nonempty=True)
    if kind == "scale" and np.any(grid <= 0):
        raise InvalidArgument("grid must be positive for kind='scale' (b(t / p))")
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
    if not np.isfinite(below):
        raise InvalidArgument(f"below={below!r} must be finite")
    hit = curve <= below
    return np.where(hit.any(0), t[hit.argmax(0)], np.inf)


def dwell_time(curve, t, level, rel: float):
    """Time spent with ``|curve - level| <= rel * level`` (uniform grid assumed), per curve."""
    curve, t = finite_array(curve, "curve"), finite_array(t, "t", ndim=1)
    level, rel = finite_array(level, "level"), finite_array(rel, "rel")
    dt = np.diff(t)
    if not np.allclose(dt, dt[0]):
        raise InvalidArgument("dwell_time needs a uniform time grid")
    return (np.abs(curve - level) <= rel * level).sum(axis=0) * dt[0]


def seed_spread(curves, t, until=None):
    """The seed-to-seed spread of one network: ``max_{t <= until} |a_k - a_k'|`` for every pair
    of members k < k' of ``curves`` (T, K); the baseline of the papers' "closely aligned"."""
    curves, t = finite_array(curves, "curves", ndim=2), finite_array(t, "t", ndim=1)
    if curves.shape[1] < 2:
        raise InvalidArgument("seed_spread needs at least two members")
    k, j = np.triu_indices(curves.shape[1], 1)
    return max_gap(curves[:, k], curves[:, j], t, until)


def plateaus(X, Y, c):
    """Landmark losses (1/2-sum) of a task with bias strength ``c`` (catalogue D3): the start
    ``1/2 ||Y||^2`` (outputs 0), the first plateau ``1/2 (||Y||^2 - P ||ybar||^2)`` (output ybar,
    the bias mode learned) and the linear optimum (the best affine map of the inputs).  ``X`` may
    be (K, n_in, P); the first member's inputs are used."""
    X, Y = finite_array(X, "X"), finite_array(Y, "Y", ndim=2)
    X = X[0] if X.ndim == 3 else X
    c = number(c, "c")
    if X.ndim != 2 or X.shape[1] != Y.shape[1]:
        raise InvalidArgument(f"X {X.shape} and Y {Y.shape} must share the sample axis")
    P = X.shape[1]
    Xa = np.vstack([np.full((1, P), float(c)), X]) if c else X
    fit = Y @ np.linalg.pinv(Xa) @ Xa
    return {"start": 0.5 * float(np.sum(Y ** 2)),
            "first plateau": 0.5 * float(np.sum(Y ** 2) - P * np.sum(Y.mean(1) ** 2)),
            "linear optimum": 0.5 * float(np.sum((Y - fit) ** 2))}


def half_rise_times(strengths, t, plateau):
    """First time each mode strength (T, K, M) reaches half its plateau (M,); inf where never."""
    strengths = finite_array(strengths, "strengths", ndim=3)
    half = 0.5 * finite_array(plateau, "plateau", shape=strengths.shape[-1:])
    hit = strengths >= half
    return np.where(hit.any(0), finite_array(t, "t", ndim=1)[hit.argmax(0)], np.inf)


def map_modes(outputs, Xa, U, V):
    """Mode strengths ``u_a^T M v_a`` (T, K, M) of the map ``M = Yhat X~^+`` that a network
    realises on its training inputs: ``outputs`` (T, K, n_out, P), augmented inputs ``Xa``
    (K, n_in [+1], P), modes ``U`` (n_out, M), ``V`` (n_in [+1], M).  For a linear network it is
    the projection of ``W2 W~1`` (on the inputs' span); for a ReLU network, of what it computes."""
    outputs, Xa = finite_array(outputs, "outputs", ndim=4), finite_array(Xa, "Xa", ndim=3)
    U, V = finite_array(U, "U", ndim=2), finite_array(V, "V", ndim=2)
    if U.shape[0] != outputs.shape[2] or V.shape[0] != Xa.shape[1] or U.shape[1] != V.shape[1]:
        raise InvalidArgument(f"modes U {U.shape} and V {V.shape} do not fit outputs {outputs.shape} and "
                              f"inputs Xa {Xa.shape} (U: (n_out, M), V: (n_in [+1], M))")
    M = outputs @ np.linalg.pinv(Xa)[None]
    return np.einsum("oa,tkoi,ia->tka", U, M, V)


def mode_losses(strengths, s, d, n_samples):
    """Each mode's share of the loss, ``-(P/2) (2 s a - d a^2)`` (T, K, M), of mode strengths
    ``strengths`` (T, K, M) (``numerics.closed_forms.loss_from_modes`` before its sum)."""
    strengths = finite_array(strengths, "strengths", ndim=3)
    s = finite_array(s, "s", ndim=1)
    d = finite_array(d, "d", shape=s.shape)
    if strengths.shape[-1] != s.shape[0]:
        raise InvalidArgument(f"strengths {strengths.shape} and s {s.shape} must carry the same modes")
    return -0.5 * n_samples * (2 * s * strengths - d * strengths ** 2)


def best_modewise_shift(a, b, b_modes, s, d, n_samples, t, grid, until=None, sweeps: int = 2):
    """``min over per-mode delays p_m of max_t |a(t) - b_p(t)|`` per curve, where ``b_p`` is the
    loss ``b`` with each mode of its map delayed by its own ``p_m``: ``b(t) + sum_m [e_m(t - p_m)
    - e_m(t)]``, ``e_m`` the mode's share of the loss (:func:`mode_losses` of ``b_modes``
    (T, K, M)).  BL L181's "mode-wise time shift" (Eq. 14: a delay per mode through its initial
    strength).  Found by coordinate descent over ``grid`` from the best global shift (so never
    worse than it up to the modes' share of the loss).  Returns (gap (K,), delays (K, M))."""
    a, b, t = _curves(a, b, t)
    grid = finite_array(grid, "grid", ndim=1, nonempty=True)
    e = mode_losses(b_modes, s, d, n_samples)
    if e.shape[:2] != b.shape:
        raise InvalidArgument(f"b_modes {b_modes.shape} must be (T, K, M) for curves {b.shape}")
    mask = np.ones_like(t, bool) if until is None else t <= until
    _, start = best_warp(a, b, t, "shift", grid, until)
    gaps, delays = np.empty(b.shape[1]), np.empty((b.shape[1], e.shape[-1]))
    for k in range(b.shape[1]):
        shifted = {(m, p): np.interp(t - p, t, e[:, k, m]) - e[:, k, m]
                   for m in range(e.shape[-1]) for p in grid}
        p = np.full(e.shape[-1], start[k])

        def gap_of(p):
            curve = b[:, k] + sum(shifted[(m, pm)] for m, pm in enumerate(p))
            return float(np.abs(a[mask, k] - curve[mask]).max())
        best = gap_of(p)
        for _ in range(sweeps):
            for m in range(e.shape[-1]):
                for q in grid:
                    trial = p.copy()
                    trial[m] = q
                    g = gap_of(trial)
                    if g < best:
                        best, p = g, trial
        gaps[k], delays[k] = best, p
    return gaps, delays
