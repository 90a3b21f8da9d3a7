"""App A's linear-network background (MHS-A-SVD, MHS-A-C1, MHS-Fig7): a two-layer linear net
(a GDLN with every gate on) trained on the 4-item hierarchy of Saxe et al. (2019), its map
W2 W1 recorded.  Time: t/tau (tau = 1/(P lr) steps on the 1/2-sum loss, App A)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics.datasets import hierarchy
from numerics.haste_slowly.configs import Linear
from numerics.haste_slowly.gated import GatedNet, init_weights, train
from numerics.ran import Ran
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument


@dataclass(frozen=True)
class LinearRun:
    """``trajectory``: time t/tau, loss, record ``prod`` (T, K, 7, 4) the map W2 W1."""

    trajectory: Trajectory
    ran: Ran


@cache
def linear_run(cfg: Linear) -> LinearRun:
    """The 4-``width``-7 linear net of ``cfg`` on the 4-item hierarchy (X = I)."""
    if not isinstance(cfg, Linear):
        raise InvalidArgument(f"cfg must be a configs.Linear, got {type(cfg).__name__}")
    X, Y = hierarchy(2)
    sizes = (X.shape[0], cfg.width, Y.shape[0])
    W = init_weights(cfg.seeds, list(zip(sizes[1:], sizes[:-1])), [cfg.std, cfg.std],
                     dtype=getattr(torch, cfg.dtype))
    net = GatedNet(W, [np.ones((cfg.width, X.shape[1]))])
    traj = train(net, X, Y, lr=cfg.lr, steps=cfg.steps, record_every=cfg.record_every,
                 record=lambda n: {"prod": n.weights[1] @ n.weights[0]}, clock="t/tau")
    ran = Ran.of(cfg, linear_run, **{
        "data": f"4-item hierarchy: {X.shape[1]} one-hot items, {Y.shape[0]} features",
        "network": f"two-layer linear, {sizes[0]} in, {sizes[2]} out", "hidden units": cfg.width,
        "init std": cfg.std,
        "learning rate": cfg.lr, "horizon t/tau": float(traj.time[-1]), "dtype": cfg.dtype,
        "seeds": cfg.seeds})
    return LinearRun(traj, ran)
