"""Image-classification runs of BL Figs 1, 7, 8 and BA-T6/T7: linear vs ReLU one-hidden-layer
networks, with a constant input pixel c = 10 (the paper's bias, L88) or without, trained on the
1/2-sum squared error from N(0, 2e-4) init.

Reduction for CPU (stated in every evidence string that uses it): full-batch GD instead of
minibatch SGD (batch 64), a narrower hidden layer, a few seeds, float32 training (loss curves
and ranks are compared at the 1e-2 level, far above float32 round-off), and a fixed horizon in
t/tau instead of "until the average loss is 0.025"; rank and test error are read at the first
record where each run's mean per-sample loss is below ``stop_loss``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics.bias import image_data
from numerics.bias.experiments import INIT_STD, PAPER, grid
from numerics.metrics import effective_rank
from numerics.models import TwoLayerEnsemble, torch_threads
from numerics.train import train
from theory.conventions import tau

BIAS_PIXEL = 10.0     # L88: "a constant pixel c = 10"


@dataclass
class ImageRun:
    activation: str
    c: np.ndarray                 # (K,) 10 (bias pixel) or 0 (none)
    seed: np.ndarray
    t: np.ndarray                 # (T,) t/tau
    loss: np.ndarray              # (T, K) 1/2-sum training loss
    test_error: np.ndarray        # (T, K)
    gram_rank: np.ndarray         # (T, K) effective rank of H^T H on the test images
    n_train: int

    def at_stop(self, stop_loss):
        """Index (K,) of the first record with mean per-sample loss <= stop_loss (last if never)."""
        per_sample = self.loss / self.n_train
        hit = per_sample <= stop_loss
        return np.where(hit.any(0), hit.argmax(0), len(self.t) - 1)


def run_images(Xtr, ytr, Xte, yte, *, activation, seeds, n_hid, lr_times_p, t_end,
               n_records=40, dtype=torch.float32, cs=(BIAS_PIXEL, 0.0)) -> ImageRun:
    """Train with (c = 10) and without (c = 0) bias pixel (``cs``), every seed, as one ensemble."""
    Y = image_data.one_hot(ytr)
    P = Xtr.shape[1]
    lr = lr_times_p / P
    steps = int(round(t_end * tau(lr, P, PAPER)))
    cc, ss = grid(cs, seeds)
    model = TwoLayerEnsemble.init(ss, Xtr.shape[0], n_hid, 10, activation=activation,
                                  bias_strength=torch.as_tensor(cc), init_std=INIT_STD,
                                  dtype=dtype)
    Xte_t = torch.as_tensor(Xte, dtype=dtype, device=model.W1.device)
    yte_t = torch.as_tensor(yte, device=model.W1.device)

    def record(m):
        H = m.hidden(Xte_t)
        err = (m.W2 @ H).argmax(dim=1) != yte_t
        return {"test_error": err.double().mean(-1), "H": H}

    ranks = []

    def record_with_rank(m):
        rec = record(m)
        H = rec.pop("H").cpu().double().numpy()
        # H H^T (n_hid x n_hid) has the nonzero eigenvalues of the paper's H^T H (n_test x
        # n_test), so the same effective rank, at a fraction of the cost
        ranks.append([effective_rank(h @ h.T) for h in H])
        return rec
    with torch_threads(1):   # measured faster than two threads for these sizes
        hist = train(model, Xtr, Y, lr=lr, steps=steps, paper=PAPER,
                     record_every=max(1, steps // n_records), record=record_with_rank)
    return ImageRun(activation, cc, ss, hist.t_over_tau, hist.loss, hist.records["test_error"],
                    np.asarray(ranks), P)


@cache
def digits_runs(prep: str, scale_name: str = "ci"):
    """Linear and ReLU runs on the digits stand-in with preprocessing ``prep`` (BL-Def-Prep)."""
    Xtr, ytr, Xte, yte = image_data.load_digits_split()
    Xtr, Xte = image_data.preprocess(Xtr, Xte, prep)
    seeds, n_hid, t_end = (range(3), 64, 30.0) if scale_name == "ci" else (range(5), 512, 200.0)
    return {act: run_images(Xtr, ytr, Xte, yte, activation=act, seeds=seeds, n_hid=n_hid,
                            lr_times_p=0.04, t_end=t_end)
            for act in ("linear", "relu")}
