"""The XoR-with-margin experiment of Fig 2 (MHS-Fig2, App C): ReLU networks trained across Delta
and seeds as one batched program, the two gated networks, and time-to-criterion.

Conventions (Fig 2, L101): GD on the 1/(2N) mean loss Eq. (2) with lr 0.4 ("1/tau = .4"), so
t/tau = steps * lr (converted with theory.conventions.flow_time, trained_on=MEAN_HALF).
"""
from __future__ import annotations

import numpy as np
import torch

from numerics.haste_slowly.datasets import xor_margin
from numerics.haste_slowly.gated import GatedNet, init_weights, train
from theory.conventions import MEAN_HALF

#: gates of the linear-gating (positives x2,x3 / negatives x1,x4) and XoR-gating GDLNs (App C)
LINEAR_GATES = np.array([[0, 1, 1, 0], [1, 0, 0, 1]], dtype=float)
XOR_GATES = np.eye(4)


def stacked_inputs(deltas, seeds):
    """(K, 3, 4) inputs and the (K,) Delta of each member, Delta-major."""
    deltas = np.asarray(deltas, dtype=float)
    X = np.stack([xor_margin(dl)[0] for dl in deltas for _ in seeds])
    return torch.tensor(X), np.repeat(deltas, len(seeds))


def train_relu(deltas, seeds, *, hidden=128, lr=0.4, steps=300, std=None):
    """Bias-free 3-hidden-1 ReLU nets, one per (Delta, seed); init variance 4e-8/hidden (Fig 2).
    Returns (History with per-step loss, final net, (K,) Delta of each member)."""
    std = np.sqrt(4e-8 / hidden) if std is None else std
    X, member_delta = stacked_inputs(deltas, seeds)
    seeds_all = [1000 * i + s for i in range(len(deltas)) for s in seeds]
    net = GatedNet(init_weights(seeds_all, [(hidden, 3), (1, hidden)], [std, std]), [None])
    hist = train(net, X, torch.tensor(xor_margin(0.0)[1]), lr=lr, steps=steps, loss=MEAN_HALF,
                 record_every=1)
    return hist, net, X, member_delta


def train_gdln(delta, gates, *, width=8, lr=0.4, steps=300, std=None, seeds=(0,)):
    """A GDLN with one pathway per gate row (``width`` linear units each) on the XoR-margin data."""
    std = np.sqrt(4e-8 / 128) if std is None else std
    X, y = xor_margin(delta)
    unit_gates = np.repeat(gates, width, axis=0)
    net = GatedNet(init_weights(seeds, [(len(unit_gates), 3), (1, len(unit_gates))], [std, std]),
                   [unit_gates])
    return train(net, X, y, lr=lr, steps=steps, loss=MEAN_HALF, record_every=1), net


def first_below(loss, criterion: float) -> np.ndarray:
    """(K,) first recorded index with loss < criterion (inf where never)."""
    below = loss < criterion
    return np.where(below.any(0), below.argmax(0), np.inf)
