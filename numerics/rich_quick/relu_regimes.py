"""Cached runs of two-layer bias-free ReLU networks for GRQ Fig. 5 (L158), the Sec. 5 regime
claims and the conclusion.

Setting: XOR-like 2-D task with 40 points (clusters at (+-1, +-1), noise 0.15, label
sign(x1 x2)); h = 20 (Fig. 5); scale tau = 1e-2; delta in {-1, 0, +1}; 4 seeds; full-batch GD on
the 1/2-sum loss at lr 1e-3 for 800 steps (gradient-flow time t = 0.8, rich_quick clock); metrics
every 4 steps.
"""
from __future__ import annotations

import functools

import numpy as np

import torch

from numerics.rich_quick import relu_training as rt
from numerics.train import gd_step
from theory.conventions import convention

CONFIGS = ((1e-2, -1.0), (1e-2, 0.0), (1e-2, 1.0))
SEEDS = (0, 1, 2, 3)
NAMES = {-1.0: "downstream", 0.0: "balanced", 1.0: "upstream"}
#: the settings of the run, keyed like the paper's (theory.rich_quick.experiments.PAPER_SETTINGS)
RAN = {"hidden units": 20, "task": "XOR-like 2-D", "init": "near-zero output f(x; theta0) ~ 0",
       "data": "4 clusters at (+-1, +-1), noise 0.15, 40 points", "scale tau": 1e-2,
       "delta": (-1.0, 0.0, 1.0), "seeds": len(SEEDS), "learning rate": 1e-3,
       "horizon (gradient-flow time t)": 0.8, "loss": "1/2-sum squared error", "dtype": "float64"}


def initial_model():
    """The untrained ensemble (members config-major)."""
    return rt.scaled_ensemble([rt.symmetrised_base(s, 2, 20) for s in SEEDS], CONFIGS)


@functools.cache
def xor_runs():
    """History of the ensemble (members config-major), the trained model, data and angle grid."""
    X, y = rt.xor_task(40, np.random.default_rng(0))
    model = initial_model()
    grid = rt.angle_grid()
    hist = rt.run(model, X, y, grid, lr=1e-3, steps=800, record_every=4)
    return hist, model, X, y, grid


def per_config(hist, name):
    """(T, seeds) array of record ``name`` (or the loss) for each config."""
    arr = hist.loss if name == "loss" else hist.records[name]
    return {delta: arr[:, k * len(SEEDS):(k + 1) * len(SEEDS)] for k, (_, delta) in enumerate(CONFIGS)}


def first_time(t, mask):
    """First time where ``mask`` (T, seeds) holds, per seed (inf if never)."""
    idx = np.argmax(mask, 0)
    return np.where(mask.any(0), t[idx], np.inf)


def summary():
    """Per config: time loss < 10% L0, Hamming at that time, max Hamming while max|f| < 0.1,
    time Hamming > 0.1, final S, final parameter distance (each per seed)."""
    hist, *_ = xor_runs()
    t = hist.time
    loss, ham, S, pd, mf = (per_config(hist, k) for k in ("loss", "hamming", "S", "param_dist",
                                                          "max_f"))
    out = {}
    for _, delta in CONFIGS:
        rel = loss[delta] / loss[delta][0]
        fit = np.argmax(rel < 0.1, 0)
        small = mf[delta] < 0.1
        out[delta] = dict(
            t_fit=t[fit], ham_at_fit=ham[delta][fit, np.arange(len(SEEDS))],
            ham_while_f_small=np.array([ham[delta][small[:, k], k].max() for k in range(len(SEEDS))]),
            t_ham=first_time(t, ham[delta] > 0.1), S_end=S[delta][-1], pd_end=pd[delta][-1],
            loss_end=rel[-1])
    return out


def one_gd_step(member: int = 0):
    """One full-batch GD step (lr of :data:`RAN`, rich_quick 1/2-sum loss) of one untrained member
    of the XOR ensemble: its (W, a) before and after, the data and the step size."""
    _, _, X, y, _ = xor_runs()
    m = initial_model().member(member)
    before = m.W1[0].numpy().copy(), m.W2[0, 0].numpy().copy()
    gd_step(m, torch.as_tensor(X), torch.as_tensor(y)[None, :], RAN["learning rate"],
            convention("rich_quick").train)
    return before, (m.W1[0].numpy(), m.W2[0, 0].numpy()), X, y, RAN["learning rate"]

