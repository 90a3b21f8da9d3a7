"""Trained two-layer linear networks on the 4-item hierarchy with a hidden bias, for the theory
checks of the bias papers: the clock tau = 1/(N eps) (BA-S3), the effective a_0 (BA-D2, BA-X1)
and F.4's gated linear model of a ReLU network with dead units (BL-Eq(14)).

Numpy full-batch GD on the 1/2-sum loss (``numerics.bias.theory_linear_gd``), from i.i.d.
N(0, std^2) weights, recording the mode strengths ``u_a^T W2 W~1 v_a`` of the augmented
statistics; time in steps (convert with ``theory.conventions.flow_time``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.bias.theory_linear_gd import LinearRun, init_weights, train_linear
from numerics.datasets import augment, correlations, hierarchy, modes
from numerics.validation import InvalidArgument, integer, positive


def hierarchy_modes(c: float = 1.0, depth: int = 2):
    """One-hot hierarchy with bias c: (X~, Y, U, s, V, d) of its augmented statistics."""
    X, Y = hierarchy(depth)
    U, s, V, d, _ = modes(*correlations(X, Y, c))
    return augment(X, c), Y, U, s, V, d


@dataclass(frozen=True)
class LinearModes:
    """A trained ensemble with the data's modes: ``run.modes`` (T, K, modes) in the order of
    ``s``; ``W1``, ``W2`` the initial weights (K, ...); ``samples`` the training-set size."""

    run: LinearRun
    s: np.ndarray
    d: np.ndarray
    U: np.ndarray
    V: np.ndarray
    W1: np.ndarray
    W2: np.ndarray
    lr: float
    samples: int


def linear_modes(*, seeds, n_hid: int = 64, std: float = float(np.sqrt(2e-4)), lr: float = 2e-3,
                 steps: int = 2500, duplicate: int = 1, dead: int = 0,
                 record_every: int = 5) -> LinearModes:
    """Train linear networks on the 4-item tree + bias (data repeated ``duplicate`` times; the
    first ``dead`` hidden units gated off for good: their W1 rows and W2 columns are zero, so
    they stay zero, F.4's model of units dead at init)."""
    for name, value in (("n_hid", n_hid), ("steps", steps), ("duplicate", duplicate),
                        ("record_every", record_every)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be a positive integer")
    if isinstance(dead, bool) or int(dead) != dead or not 0 <= dead < n_hid:
        raise InvalidArgument(f"dead={dead!r} must be an integer in [0, n_hid)")
    positive(lr, "lr")
    Xa, Y, U, s, V, d = hierarchy_modes()
    Xa, Y = np.tile(Xa, duplicate), np.tile(Y, duplicate)
    W1, W2 = init_weights(seeds, Xa.shape[0], n_hid, Y.shape[0], std)
    gate = np.r_[np.zeros(dead), np.ones(n_hid - dead)]
    W1, W2 = W1 * gate[None, :, None], W2 * gate[None, None, :]
    run = train_linear(Xa, Y, W1, W2, lr=lr, steps=steps, U=U, V=V, record_every=record_every)
    return LinearModes(run, s, d, U, V, W1, W2, lr, Xa.shape[1])


def gated_a0_ratio(n_hid, dead_fraction, seed, trials=2000) -> float:
    """F.4's step a_0 -> a_0 sum_j g_j r_j^2: the mean of sum_j g_j r_j^2 over random unit
    vectors r (isotropic init) with a fixed set of dead units (g_j = 0).  The mean is the
    fraction of units that are NOT dead."""
    n_hid, trials = integer(n_hid, "n_hid"), integer(trials, "trials")
    if not (np.isfinite(dead_fraction) and 0 <= dead_fraction <= 1):
        raise InvalidArgument(f"dead_fraction={dead_fraction!r} must lie in [0, 1]")
    rng = np.random.default_rng(integer(seed, "seed", 0))
    n_dead = int(round(dead_fraction * n_hid))
    g = np.r_[np.zeros(n_dead), np.ones(n_hid - n_dead)]
    r = rng.standard_normal((trials, n_hid))
    r /= np.linalg.norm(r, axis=1, keepdims=True)
    return float(np.mean((r ** 2) @ g))
