"""The toy simulations of the bias papers, trained once per session and shared by every claim
that reads them (BL Figs 2-6, 9-12; BA Figs 1-3, 5, T7).

Each run trains linear and ReLU ensembles (seeds x bias strengths, one batched program per
activation) by full-batch GD on the 1/2-sum loss (``theory.conventions``, paper "bias") from
N(0, sigma^2) init with sigma^2 = 2e-4 (App E), hidden width 64, and records the weights on a grid.

Scales: ``full`` uses the paper's lr 2e-4; ``ci`` uses lr 5e-3 (25x) to fit the CI budget.  Both
record on the paper's clock t/tau = P * lr * steps (``Trajectory.time`` via
``theory.conventions.flow_time``), so curves, theory lines and thresholds are stated in t/tau and
compare across scales; the larger rate adds O(lr P s) <= 3% discretisation error per step.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics.bias import tasks
from numerics.bias.both_biases import BothBiasEnsemble
from numerics.datasets import hierarchy
from numerics.models import TwoLayerEnsemble, torch_threads
from numerics.train import train
from theory.conventions import tau

INIT_STD = float(np.sqrt(2e-4))      # App E, L648: sigma^2 = 2e-4
N_HID = 64                           # App E
PAPER = "bias"


@dataclass(frozen=True)
class Scale:
    name: str
    lr: float
    seeds: int
    records_per_tau: int = 5


SCALES = {"ci": Scale("ci", lr=5e-3, seeds=8), "full": Scale("full", lr=2e-4, seeds=10)}


def scale(name: str) -> Scale:
    try:
        return SCALES[name]
    except KeyError:
        raise ValueError(f"scale={name!r} is not one of {sorted(SCALES)}") from None


@dataclass
class Run:
    """One task, one activation: members are (c, seed) pairs; arrays are numpy float64.

    ``W1`` (T, K, n_hid, 1 + n_in) with the bias weight in column 0, ``W2`` (T, K, n_out, n_hid),
    ``loss`` (T, K), ``t`` (T,) in t/tau; ``b2`` (T, K, n_out, 1) only with output biases.
    """

    task: str
    activation: str
    X: np.ndarray          # (n_in, P) or (K, n_in, P)
    Y: np.ndarray
    c: np.ndarray          # (K,)
    seed: np.ndarray       # (K,)
    steps: np.ndarray
    t: np.ndarray
    loss: np.ndarray
    W1: np.ndarray
    W2: np.ndarray
    lr: float
    b2: np.ndarray | None = None

    def select(self, c) -> np.ndarray:
        """Indices of the members with bias strength c."""
        return np.flatnonzero(np.isclose(self.c, c))

    @property
    def P(self) -> int:
        return self.X.shape[-1]

    def Xa(self, k=None):
        """Augmented inputs [c; x] of member(s) k: (K, 1 + n_in, P) or (1 + n_in, P)."""
        X = self.X if self.X.ndim == 3 else np.broadcast_to(self.X, (len(self.c),) + self.X.shape)
        Xa = np.concatenate([self.c[:, None, None] * np.ones((len(self.c), 1, self.P)), X], 1)
        return Xa if k is None else Xa[k]

    def preactivation(self):
        """(T, K, n_hid, P)."""
        return self.W1 @ self.Xa()[None]

    def hidden(self):
        Z = self.preactivation()
        return np.maximum(Z, 0) if self.activation == "relu" else Z

    def outputs(self):
        out = self.W2 @ self.hidden()
        return out if self.b2 is None else out + self.c[None, :, None, None] * self.b2


def simulate(task, X, Y, *, activation, cs, seeds, lr, t_end, n_hid=N_HID, both_biases=False,
             records_per_tau=5) -> Run:
    """Train one ensemble whose member k has bias strength ``cs[k]`` and seed ``seeds[k]`` for
    ``t_end`` units of t/tau.  ``X`` may be (K, n_in, P): one input set per member (Delta sweep)."""
    cc, ss = np.asarray(cs, float), np.asarray(seeds, int)
    if cc.shape != ss.shape or cc.ndim != 1:
        raise ValueError(f"cs {cc.shape} and seeds {ss.shape} must be 1-d of equal length")
    P = X.shape[-1]
    steps_per_tau = tau(lr, P, PAPER)
    steps = int(round(t_end * steps_per_tau))
    every = max(1, int(round(steps_per_tau / records_per_tau)))
    cls = BothBiasEnsemble if both_biases else TwoLayerEnsemble
    model = cls.init(ss, X.shape[-2], n_hid, Y.shape[-2], activation=activation,
                     bias_strength=torch.as_tensor(cc), init_std=INIT_STD)

    def record(m):
        rec = {"W1": m.W1.clone(), "W2": m.W2.clone()}
        if both_biases:
            rec["b2"] = m.b2.clone()
        return rec
    with torch_threads(1):   # tiny tensors: one thread beats two under contention
        hist = train(model, X, Y, lr=lr, steps=steps, paper=PAPER, record_every=every, record=record)
    return Run(task, activation, np.asarray(X, float), np.asarray(Y, float), cc, ss, hist.steps,
               hist.time, hist.loss, hist.records["W1"], hist.records["W2"], lr,
               b2=hist.records.get("b2"))


def grid(*axes):
    """Flattened Cartesian product of the axes (first axis slowest)."""
    return [a.ravel() for a in np.meshgrid(*[np.asarray(x) for x in axes], indexing="ij")]


TASKS = {
    "hierarchy4": (lambda: hierarchy(2), 30.0),
    "hierarchy8": (lambda: hierarchy(3), 60.0),
    "xor": (tasks.xor, 30.0),
    "parallel": (tasks.parallel, 60.0),
}


@cache
def pair(task: str, scale_name: str = "ci", cs=(1.0, 0.0), both_biases: bool = False,
         n_seeds: int | None = None, lr: float | None = None) -> dict[str, Run]:
    """Linear and ReLU ensembles on a named task with the same seeds (so member k of both starts
    from the same weights), with (c = 1) and without (c = 0: the bias input is zero, so b gets no
    gradient and the networks have no bias) hidden bias, at the scale's learning rate or ``lr``
    (the same horizon in t/tau).  Cached: trained once per session."""
    sc = scale(scale_name)
    make, t_end = TASKS[task]
    X, Y = make()
    cc, ss = grid(cs, range(n_seeds or sc.seeds))
    return {act: simulate(task, X, Y, activation=act, cs=cc, seeds=ss, lr=lr or sc.lr, t_end=t_end,
                          both_biases=both_biases, records_per_tau=sc.records_per_tau)
            for act in ("linear", "relu")}


@cache
def margin_sweep(scale_name: str = "ci", deltas=(0.05, 0.1, 0.25, 0.5, 1.0), n_seeds: int = 5):
    """XOR + linear feature (BL-Fig5, Fig11) over margins Delta x (c = 1, 0) x seeds; returns
    (runs by activation, delta per member)."""
    sc = scale(scale_name)
    dd, cc, ss = grid(deltas, (1.0, 0.0), range(n_seeds))
    X = np.stack([tasks.xor_margin(d)[0] for d in dd])
    Y = tasks.xor()[1]
    runs = {act: simulate("xor_margin", X, Y, activation=act, cs=cc, seeds=ss, lr=sc.lr,
                          t_end=60.0, records_per_tau=sc.records_per_tau)
            for act in ("linear", "relu")}
    return runs, dd


@cache
def c_sweep(scale_name: str = "ci", cs=(0.0, 0.1, 0.5, 1.0, 2.0, 5.0), n_seeds: int = 5,
            lr: float | None = None):
    """Hierarchical task over bias strengths c (BL-Fig10), at the scale's learning rate or ``lr``."""
    return pair("hierarchy4", scale_name, cs=tuple(cs), n_seeds=n_seeds, lr=lr)


def no_dead_unit_pair(lr: float = 5e-3, steps: int = 4000, seeds=(0, 1, 2),
                      bias_shift: float = 1.0):
    """BL-Def-G's limiting case: linear and ReLU networks on the 4-item hierarchy (c = 1) from the
    same weights with every hidden bias raised by ``bias_shift``, so that no unit is dead (or
    gating): {activation: 1/2-sum loss (T, K)} and the smallest pre-activation over all records
    of the ReLU run (> 0: every unit active on every input throughout)."""
    X, Y = hierarchy(2)
    losses, zmin = {}, np.inf
    for act in ("linear", "relu"):
        m = TwoLayerEnsemble.init(list(seeds), X.shape[0], N_HID, Y.shape[0], activation=act,
                                  bias_strength=1.0, init_std=INIT_STD)
        with torch.no_grad():
            m.W1[:, :, 0] += bias_shift
        Xt = torch.as_tensor(X, device=m.W1.device)
        with torch_threads(1):
            h = train(m, X, Y, lr=lr, steps=steps, paper=PAPER, record_every=50,
                      record=lambda mm: {"z": mm.preactivation(Xt)})
        losses[act] = h.loss
        if act == "relu":
            zmin = float(h.records["z"].min())
    return losses, zmin
