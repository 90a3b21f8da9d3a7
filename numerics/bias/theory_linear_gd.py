"""Batched full-batch GD of two-layer linear networks in numpy, for the theory checks of the
bias papers (BA-S3 tau = 1/(N eps), BA-D2 effective a_0, BL-Claim-ybar plateau output).

The gradient of the 1/2-sum loss ``L = 1/2 ||Y - W2 W1 X||_F^2`` is written out
(``-dL/dW1 = W2^T E X^T``, ``-dL/dW2 = E (W1 X)^T``, ``E = Y - W2 W1 X``); the verify suite checks
these against autograd (BL-Eq(16-18)); on a loss ``f ||Y - W2 W1 X||_F^2`` of another
``LossNorm`` the step scales by ``2 f``.  ``X`` is already augmented where a bias is wanted
(``numerics.datasets.augment``).  Time is returned in steps; convert with
``theory.conventions.flow_time``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.train import descend
from numerics.validation import InvalidArgument, finite_array, integer, number, positive, seed_list
from theory.conventions import SUM_HALF, LossNorm


@dataclass
class LinearRun:
    steps: np.ndarray     # (T,) steps at which records were taken
    loss: np.ndarray      # (T, K) loss (the 1/2-sum loss unless told otherwise)
    modes: np.ndarray     # (T, K, r) mode strengths u_a^T W2 W1 v_a
    outputs: np.ndarray   # (T, K, N_out, P) network outputs W2 W1 X


def init_weights(seeds, n_in: int, n_hid: int, n_out: int, std: float):
    """i.i.d. N(0, std^2) weights, one ``numpy.random.default_rng(seed)`` per member."""
    positive(std, "std")
    n_in, n_hid, n_out = (integer(v, n) for v, n in ((n_in, "n_in"), (n_hid, "n_hid"), (n_out, "n_out")))
    W1, W2 = [], []
    for seed in seed_list(seeds):
        rng = np.random.default_rng(seed)
        W1.append(rng.standard_normal((n_hid, n_in)) * std)
        W2.append(rng.standard_normal((n_out, n_hid)) * std)
    return np.stack(W1), np.stack(W2)


def train_linear(X, Y, W1, W2, *, lr, steps: int, U, V, record_every: int = 10,
                 loss: LossNorm = SUM_HALF, progress: bool | None = None) -> LinearRun:
    """GD with rate ``lr`` for ``steps`` steps on every member of the (K, ...) weight stacks, on
    ``loss`` (the bias papers' 1/2-sum by default), through the one loop
    :func:`numerics.train.descend`; loss, modes and outputs at step 0, every ``record_every``
    steps and at the end."""
    X = finite_array(X, "X", ndim=2)
    Y = finite_array(Y, "Y", ndim=2)
    W1 = finite_array(W1, "W1", ndim=3).copy()
    W2 = finite_array(W2, "W2", ndim=3).copy()
    U = finite_array(U, "U", ndim=2)
    V = finite_array(V, "V", ndim=2)
    lr = float(positive(lr, "lr"))
    if X.shape[1] != Y.shape[1]:
        raise InvalidArgument(f"X has {X.shape[1]} samples but Y has {Y.shape[1]}")
    if W1.shape[2] != X.shape[0] or W2.shape[1] != Y.shape[0] or W1.shape[1] != W2.shape[2]:
        raise InvalidArgument(f"W1 {W1.shape} and W2 {W2.shape} do not fit X {X.shape}, Y {Y.shape}")
    if int(steps) != steps or steps < 1:
        raise InvalidArgument(f"steps={steps!r} must be a positive integer")

    def step(X, Y, lr, loss):
        # -dL/dW = 2 f (...) for L = f ||Y - W2 W1 X||^2; 2 f = 1 exactly for the 1/2-sum loss
        rate = lr * (2 * loss.factor(X.shape[1]))
        hidden = W1 @ X
        err = Y - W2 @ hidden
        grad1 = np.swapaxes(W2, 1, 2) @ err @ X.T
        W2[...] += rate * err @ np.swapaxes(hidden, 1, 2)
        W1[...] += rate * grad1

    def losses(X, Y, loss):
        return loss.factor(X.shape[1]) * ((Y - W2 @ W1 @ X) ** 2).sum(axis=(1, 2))

    def record():
        return {"modes": np.einsum("ia,kij,ja->ka", U, W2 @ W1, V), "outputs": W2 @ W1 @ X}

    trace = descend(step, losses, X, Y, lr=lr, loss=loss, steps=steps, record_every=record_every,
                    record=record, progress=progress, desc="linear GD")
    return LinearRun(trace.steps, trace.loss, trace.records["modes"], trace.records["outputs"])


def logistic_rate(steps, a, plateau, window=(0.1, 0.9)) -> float:
    """Rate r of a sigmoidal rise, from a least-squares line through ``ln(plateau/a - 1)``
    (``= const - r * step`` for the exact mode law) where ``a`` lies in ``window`` x plateau."""
    steps = finite_array(steps, "steps", ndim=1)
    a = finite_array(a, "a", ndim=1)
    plateau = number(plateau, "plateau", positive=True)
    lo, hi = window
    sel = (a > lo * plateau) & (a < hi * plateau)
    if sel.sum() < 3:
        raise InvalidArgument("a has fewer than 3 records inside the window; record more densely")
    return float(-np.polyfit(steps[sel], np.log(plateau / a[sel] - 1), 1)[0])


def half_rise_step(steps, a, plateau) -> float:
    """First (linearly interpolated) step at which ``a`` reaches half its plateau."""
    steps = finite_array(steps, "steps", ndim=1)
    a = finite_array(a, "a", ndim=1)
    plateau = number(plateau, "plateau", positive=True)
    above = np.nonzero(a >= plateau / 2)[0]
    if not above.size or above[0] == 0:
        raise InvalidArgument("a never crosses half its plateau from below")
    k = above[0]
    frac = (plateau / 2 - a[k - 1]) / (a[k] - a[k - 1])
    return float(steps[k - 1] + frac * (steps[k] - steps[k - 1]))
