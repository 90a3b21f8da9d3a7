"""Hypothesis strategies for the theory checks of the bias papers (BL-, BA-), composed from
small named pieces: bias strengths, label matrices (general, equal-overlap, unbalanced
classes), network shapes and delay parameters."""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from verify.strategies import log_uniform, mode_params

#: a bias strength c != 0, either sign, from 1e-2 to 1e2
bias_strengths = st.tuples(st.sampled_from([-1.0, 1.0]), log_uniform(1e-2, 1e2)).map(
    lambda sc: sc[0] * sc[1])

#: shapes (n_in, n_hid, n_out, p) of a network and its data, square or not
network_shapes = st.tuples(st.integers(1, 5), st.integers(1, 6), st.integers(1, 4),
                           st.integers(1, 7))


@st.composite
def label_matrices(draw, nonnegative: bool = False, max_p: int = 8):
    """Y (N_out x P) with entries in [0, 2] (``nonnegative``) or [-2, 2], ybar != 0."""
    n_out, p = draw(st.integers(1, 5)), draw(st.integers(2, max_p))
    lo = 0.0 if nonnegative else -2.0
    rows = draw(st.lists(st.lists(st.floats(lo, 2.0), min_size=p, max_size=p),
                         min_size=n_out, max_size=n_out))
    Y = np.array(rows)
    if np.linalg.norm(Y.mean(1)) < 1e-3:
        Y[0] += 0.5          # keep the bias mode present (ybar != 0)
    return Y


@st.composite
def equal_overlap_labels(draw, max_p: int = 8):
    """Non-negative Y with Y^T Y 1 proportional to 1 (BL-Prop1's condition): stacked circulant
    blocks of non-negative rows, with items (columns) and features (rows) permuted."""
    p = draw(st.integers(2, max_p))
    blocks = draw(st.integers(1, 3))
    rows = []
    for _ in range(blocks):
        base = np.array(draw(st.lists(st.floats(0.0, 2.0), min_size=p, max_size=p)))
        base[draw(st.integers(0, p - 1))] += 0.5        # not all zero
        keep = draw(st.integers(1, p))                   # a subset of the p shifts
        shifts = np.array([np.roll(base, k) for k in range(p)])
        rows.append(shifts if keep == p else _all_shifts_summed(shifts, keep))
    Y = np.vstack(rows)
    cols = draw(st.permutations(range(p)))
    return Y[:, list(cols)][np.argsort(draw(st.permutations(range(Y.shape[0]))))]


def _all_shifts_summed(shifts, keep):
    """Rows that are sums of ``keep`` consecutive shifts: still a circulant, so column overlaps
    stay equal while the number of label rows varies."""
    return np.array([shifts[np.arange(k, k + keep) % len(shifts)].sum(0)
                     for k in range(len(shifts))])


@st.composite
def unbalanced_classes(draw):
    """One-hot labels of K classes with unequal class sizes (a common case Prop. 1 misses)."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=2, max_size=4).filter(
        lambda s: len(set(s)) > 1))
    Y = np.zeros((len(sizes), sum(sizes)))
    Y[np.repeat(np.arange(len(sizes)), sizes), np.arange(sum(sizes))] = 1.0
    return Y


@st.composite
def delay_params(draw):
    """(s, d, a0, rho, tau, g) with 0 < a0 <= rho < s/d and alive fraction g in (0, 1)."""
    p = draw(mode_params(decaying=False))
    frac = draw(st.floats(0.0, 0.99))
    p["rho"] = p["a0"] + frac * (p["s"] / p["d"] - p["a0"])
    p["g"] = draw(st.floats(0.01, 0.99))
    return p
