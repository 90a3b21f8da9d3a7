"""Batched full-batch GD of two-layer linear networks in numpy, for the theory checks of the
bias papers (BA-S3 tau = 1/(N eps), BA-D2 effective a_0, BL-Claim-ybar plateau output).

The gradient of the 1/2-sum loss ``L = 1/2 ||Y - W2 W1 X||_F^2`` is written out
(``-dL/dW1 = W2^T E X^T``, ``-dL/dW2 = E (W1 X)^T``, ``E = Y - W2 W1 X``); the verify suite checks
these against autograd (BL-Eq(16-18)).  ``X`` is already augmented where a bias is wanted
(``numerics.datasets.augment``).  Time is returned in steps; convert with
``theory.conventions.flow_time``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.validation import finite_array, positive


@dataclass
class LinearRun:
    steps: np.ndarray     # (T,) steps at which records were taken
    loss: np.ndarray      # (T, K) 1/2-sum loss
    modes: np.ndarray     # (T, K, r) mode strengths u_a^T W2 W1 v_a
    outputs: np.ndarray   # (T, K, N_out, P) network outputs W2 W1 X


def init_weights(seeds, n_in: int, n_hid: int, n_out: int, std: float):
    """i.i.d. N(0, std^2) weights, one ``numpy.random.default_rng(seed)`` per member."""
    positive(std, "std")
    W1, W2 = [], []
    for seed in np.atleast_1d(seeds):
        rng = np.random.default_rng(int(seed))
        W1.append(rng.standard_normal((n_hid, n_in)) * std)
        W2.append(rng.standard_normal((n_out, n_hid)) * std)
    return np.stack(W1), np.stack(W2)


def train_linear(X, Y, W1, W2, *, lr, steps: int, U, V, record_every: int = 10) -> LinearRun:
    """GD with rate ``lr`` for ``steps`` steps on every member of the (K, ...) weight stacks."""
    X = finite_array(X, "X", ndim=2)
    Y = finite_array(Y, "Y", ndim=2)
    W1 = finite_array(W1, "W1", ndim=3).copy()
    W2 = finite_array(W2, "W2", ndim=3).copy()
    U = finite_array(U, "U", ndim=2)
    V = finite_array(V, "V", ndim=2)
    lr = float(positive(lr, "lr"))
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X has {X.shape[1]} samples but Y has {Y.shape[1]}")
    if W1.shape[2] != X.shape[0] or W2.shape[1] != Y.shape[0] or W1.shape[1] != W2.shape[2]:
        raise ValueError(f"W1 {W1.shape} and W2 {W2.shape} do not fit X {X.shape}, Y {Y.shape}")
    if int(steps) != steps or steps < 1 or int(record_every) != record_every or record_every < 1:
        raise ValueError("steps and record_every must be positive integers")
    marks, losses, modes, outs = [], [], [], []

    def record(k):
        out = W2 @ W1 @ X
        marks.append(k)
        losses.append(0.5 * ((Y - out) ** 2).sum(axis=(1, 2)))
        modes.append(np.einsum("ia,kij,ja->ka", U, W2 @ W1, V))
        outs.append(out)

    record(0)
    for k in range(1, steps + 1):
        hidden = W1 @ X
        err = Y - W2 @ hidden
        grad1 = np.swapaxes(W2, 1, 2) @ err @ X.T
        W2 += lr * err @ np.swapaxes(hidden, 1, 2)
        W1 += lr * grad1
        if k % record_every == 0 or k == steps:
            record(k)
    return LinearRun(np.asarray(marks), np.stack(losses), np.stack(modes), np.stack(outs))


def logistic_rate(steps, a, plateau, window=(0.1, 0.9)) -> float:
    """Rate r of a sigmoidal rise, from a least-squares line through ``ln(plateau/a - 1)``
    (``= const - r * step`` for the exact mode law) where ``a`` lies in ``window`` x plateau."""
    steps = finite_array(steps, "steps", ndim=1)
    a = finite_array(a, "a", ndim=1)
    lo, hi = window
    sel = (a > lo * plateau) & (a < hi * plateau)
    if sel.sum() < 3:
        raise ValueError("a has fewer than 3 records inside the window; record more densely")
    return float(-np.polyfit(steps[sel], np.log(plateau / a[sel] - 1), 1)[0])


def half_rise_step(steps, a, plateau) -> float:
    """First (linearly interpolated) step at which ``a`` reaches half its plateau."""
    steps = finite_array(steps, "steps", ndim=1)
    a = finite_array(a, "a", ndim=1)
    above = np.nonzero(a >= plateau / 2)[0]
    if not above.size or above[0] == 0:
        raise ValueError("a never crosses half its plateau from below")
    k = above[0]
    frac = (plateau / 2 - a[k - 1]) / (a[k] - a[k - 1])
    return float(steps[k - 1] + frac * (steps[k] - steps[k - 1]))
