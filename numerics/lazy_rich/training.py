"""Batched full-batch GD of two-layer linear networks from given initial weights (one torch program,
leading ensemble axis K), on the paper's 1/2-mean loss; time converted by theory.conventions."""
from __future__ import annotations

import numpy as np
import torch

from numerics.models import TwoLayerEnsemble, torch_threads
from numerics.train import train
from numerics.lazy_rich._args import scalar, weights
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument, finite_array


def linear_ensemble(W1s, W2s) -> TwoLayerEnsemble:
    """An ensemble of linear networks with weights W1s (K, Nh, Ni), W2s (K, No, Nh), float64."""
    W1s, W2s = finite_array(W1s, "W1s"), finite_array(W2s, "W2s")
    if W1s.ndim != 3 or W2s.ndim != 3:
        raise InvalidArgument(f"W1s and W2s must be (K, rows, cols); got {W1s.shape}, {W2s.shape}")
    # torch.tensor copies: training updates in place and must not touch the caller's arrays
    return TwoLayerEnsemble(torch.tensor(W1s, dtype=torch.float64),
                            torch.tensor(W2s, dtype=torch.float64), activation="linear")


def train_linear(W1s, W2s, X, Y, *, lr, steps: int, record_every: int) -> Trajectory:
    """GD of every member on (X, Y) (Y may be (K, No, P)); records W1 and W2 (T, K, ...)."""
    model = linear_ensemble(W1s, W2s)
    # one thread: for <= 10 x 10 matrices threading only adds overhead (measured 15x slower
    # under concurrent load on 2 cores)
    with torch_threads(1):
        return train(model, X, Y, lr=lr, steps=steps, paper="lazy_rich", record_every=record_every,
                     record=lambda m: {"W1": m.W1.clone(), "W2": m.W2.clone()}, progress=False)


def step_once(W1, W2, X, Y, lr: float) -> tuple[float, np.ndarray, np.ndarray]:
    """One step of the suite's GD loop (``numerics.train.gd_step``) on one network: (the training loss
    before it, W1 after, W2 after)."""
    from numerics.train import as_data, ensemble_loss, gd_step
    from theory.conventions import convention
    W1, W2 = weights(W1, W2)
    lr = scalar(lr, "lr", positive=True)
    model = linear_ensemble(W1[None], W2[None])
    X, Y = as_data(X, Y, dtype=torch.float64, device="cpu")
    norm = convention("lazy_rich").train
    loss = float(ensemble_loss(model, X, Y, norm)[0])
    gd_step(model, X, Y, lr, norm)
    return loss, model.W1[0].numpy(), model.W2[0].numpy()
