"""The Sec 4-6 training runs, each computed once per process (functools.cache) and shared by
the verify tests that read them.  Hyper-parameters follow the released code (catalogue §10):
1/2-sum loss, ReLU init std 0.005/H, GDLN init std 10 (common) / 20 (others) x 0.0005/(100 M).

Two configurations of the Sec 4-5 runs.  ``SEC45_FULL`` is the paper's (Table 1, L805-L822: lr
1e-3, 8000 epochs = full-batch steps; float32 as the released Jax code).  ``SEC45_CI`` takes lr
2e-3 for 4000 steps in float64: the same paper time t/tau = steps * lr * N
(theory.conventions.flow_time) in half the steps.  "epoch" in evidence strings always means the
paper's epoch at lr 1e-3 (:func:`epochs`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import reln
from numerics.haste_slowly.gated import History, train

LR, STEPS, EVERY = 2e-3, 4000, 25
EPOCHS_PER_STEP = LR / 1e-3
#: the paper's step size (Table 1): one epoch is one full-batch step at this rate
PAPER_LR = 1e-3
SEC45_CI = dict(lr=LR, steps=STEPS, dtype="float64")
SEC45_FULL = dict(lr=PAPER_LR, steps=8000, dtype="float32")
#: records every 50 paper epochs, whatever the step size
RECORD_EPOCHS = EVERY * EPOCHS_PER_STEP


@dataclass
class Run:
    hist: History
    net: object
    unit_module: np.ndarray | None = None
    lr: float = LR

    @property
    def epochs(self) -> np.ndarray:
        """The paper's epochs (steps at lr 1e-3) of the recorded steps: same t/tau."""
        return self.hist.steps * (self.lr / PAPER_LR)


def _relu_record(X):
    Xt = torch.tensor(X)

    def record(net):
        x = Xt.to(net.weights[0].dtype)
        pre = net.preactivation(x)
        return {"patterns": (pre > 0), "mass": reln.unit_mass(net), "hidden": torch.relu(pre),
                "out": net(x)}
    return record


def _reln_record(X, unit_module):
    Xt = torch.tensor(X)

    def record(net):
        x = Xt.to(net.weights[0].dtype)
        prods = reln.module_products(net, unit_module)
        return {"hidden": net.hidden(x), "out": net(x), "prod": prods,
                "sv": torch.linalg.svdvals(prods)}
    return record


def task(C: int | None):
    """(X, Y): the Sec 4 task for C=None, else the hierarchical C-context task (code scale)."""
    return ds.section4() if C is None else ds.contexts(C)


def _record_every(lr: float) -> int:
    return max(int(round(RECORD_EPOCHS * PAPER_LR / lr)), 1)


def relu_run(C: int | None = None, seeds=(0,), steps: int = STEPS, lr: float = LR,
             dtype: str = "float64") -> Run:
    """Bias-free one-hidden-layer ReLU net, width 100 x (modules of the C-context ReLN);
    ``steps`` full-batch steps of size ``lr`` on the 1/2-sum loss, in ``dtype``."""
    # one cache entry per configuration, however the arguments are spelled
    return _relu_run(C, tuple(seeds), int(steps), float(lr), str(dtype))


@cache
def _relu_run(C, seeds, steps, lr, dtype) -> Run:
    X, Y = task(C)
    n_ctx = 3 if C is None else C
    width = {3: 700, 4: 500, 5: 600}[n_ctx]
    net = reln.relu(seeds, (X.shape[0], width, Y.shape[0]), 0.005 / width).astype(getattr(torch, dtype))
    hist = train(net, X, Y, lr=lr, steps=steps, record_every=_record_every(lr), record=_relu_record(X))
    return Run(hist, net, lr=lr)


def reln_run(C: int | None = None, k: int | None = None, extra_k=(), split: bool = True,
             seeds=(0,), steps: int = STEPS, lr: float = LR, dtype: str = "float64") -> Run:
    """Common pathway + all k-of-C contextual pathways (default k = C-1), 100 units each;
    steps, step size and dtype as :func:`relu_run`."""
    n_ctx = 3 if C is None else C
    return _reln_run(C, n_ctx - 1 if k is None else int(k), tuple(extra_k), bool(split),
                     tuple(seeds), int(steps), float(lr), str(dtype))


@cache
def _reln_run(C, k, extra_k, split, seeds, steps, lr, dtype) -> Run:
    X, Y = task(C)
    n_ctx = 3 if C is None else C
    n_modules = {3: 7, 4: 5, 5: 6}[n_ctx]
    base = 0.0005 / (100 * n_modules)
    ctx_scale = 20 if n_ctx == 3 else 10
    mods = reln.pathways(n_ctx, k, 100, 10 * base, ctx_scale * base, extra_k)
    net, um = reln.build(n_ctx, mods, seeds, Y.shape[0])
    net = net.astype(getattr(torch, dtype))
    hist = train(net, X, Y, lr=lr, steps=steps, split=split, record_every=_record_every(lr),
                 record=_reln_record(X, um))
    return Run(hist, net, um, lr=lr)


def epochs(steps) -> np.ndarray:
    """The paper's epochs (lr 1e-3) equivalent to ``steps`` at LR."""
    return np.asarray(steps) * EPOCHS_PER_STEP
