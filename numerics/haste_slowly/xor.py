"""The XoR-with-margin experiment of Fig 2 (MHS-Fig2, App C): ReLU networks trained across Delta
and seeds as one batched program, and the two gated networks.

Conventions (Fig 2, L101): GD on the 1/(2N) mean loss Eq. (2) with lr 0.4 ("1/tau = .4"), so the
clock is t/tau = steps * lr (``numerics.haste_slowly.gated.paper_time``, trained on MEAN_HALF).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics.haste_slowly.configs import Xor
from numerics.haste_slowly.datasets import xor_margin
from numerics.haste_slowly.gated import GatedNet, init_weights, train
from numerics.ran import Ran
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument, integer, seed_list
from theory.conventions import MEAN_HALF

#: gates of the linear-gating (positives x2,x3 / negatives x1,x4) and XoR-gating GDLNs (App C)
LINEAR_GATES = np.array([[0, 1, 1, 0], [1, 0, 0, 1]], dtype=float)
XOR_GATES = np.eye(4)


@dataclass(frozen=True)
class XorRun:
    """The ReLU nets of a ``configs.Xor``, one member per (Delta, seed), Delta-major: the
    trajectory (time t/tau, loss every step), each member's ``delta``, and the final hidden
    ``patterns`` (K, hidden, 4) and unit ``mass`` (K, hidden)."""

    trajectory: Trajectory
    delta: np.ndarray
    patterns: np.ndarray
    mass: np.ndarray
    ran: Ran


def stacked_inputs(deltas, seeds):
    """(K, 3, 4) inputs and the (K,) Delta of each member, Delta-major."""
    seeds = seed_list(seeds)
    deltas = np.asarray(deltas, dtype=float)
    X = np.stack([xor_margin(dl)[0] for dl in deltas for _ in seeds])
    return torch.tensor(X), np.repeat(deltas, len(seeds))


@cache
def relu_sweep(cfg: Xor) -> XorRun:
    """Bias-free 3-``hidden``-1 ReLU nets, one per (Delta, seed) of ``cfg``, init variance
    ``cfg.variance``, GD at ``cfg.lr`` on the mean loss for ``cfg.steps`` steps."""
    if not isinstance(cfg, Xor):
        raise InvalidArgument(f"cfg must be a configs.Xor, got {type(cfg).__name__}")
    std = float(np.sqrt(cfg.variance))
    X, member_delta = stacked_inputs(cfg.deltas, cfg.seeds)
    seeds = [1000 * i + s for i in range(len(cfg.deltas)) for s in cfg.seeds]
    dt = getattr(torch, cfg.dtype)
    net = GatedNet(init_weights(seeds, [(cfg.hidden, 3), (1, cfg.hidden)], [std, std]), [None])
    net = net.astype(dt)
    traj = train(net, X.to(dt), torch.tensor(xor_margin(0.0)[1], dtype=dt), lr=cfg.lr,
                 steps=cfg.steps, loss=MEAN_HALF, record_every=1, clock="t/tau")
    with torch.no_grad():
        patterns = ((net.weights[0] @ X.to(dt)) > 0).numpy()
        mass = (net.weights[0].norm(dim=2) * net.weights[1].norm(dim=1)).numpy()
    ran = Ran.of(cfg, relu_sweep, **{
        "network": f"bias-free ReLU 3-{cfg.hidden}-1", "init variance": cfg.variance,
        "learning rate": cfg.lr, "loss": "1/(2N) mean squared error (Eq. 2)",
        "steps": cfg.steps, "Delta grid": cfg.deltas, "seeds": cfg.seeds, "dtype": cfg.dtype})
    return XorRun(traj, member_delta, patterns, mass, ran)


def train_gdln(delta, gates, *, width=8, lr=0.4, steps=300, std=None, seeds=(0,)) -> Trajectory:
    """A GDLN with one pathway per gate row (``width`` linear units each) on the XoR-margin data,
    GD on the mean loss; time t/tau."""
    std = np.sqrt(4e-8 / 128) if std is None else std
    width = integer(width, "width")
    gates = np.asarray(gates, dtype=float)
    if gates.ndim != 2 or gates.shape[1] != 4:
        raise InvalidArgument(f"gates must be (pathways, 4): one 0/1 row per pathway over the 4 points, "
                              f"got shape {gates.shape}")
    X, y = xor_margin(delta)
    unit_gates = np.repeat(gates, width, axis=0)
    net = GatedNet(init_weights(seeds, [(len(unit_gates), 3), (1, len(unit_gates))], [std, std]),
                   [unit_gates])
    return train(net, X, y, lr=lr, steps=steps, loss=MEAN_HALF, record_every=1, clock="t/tau")
