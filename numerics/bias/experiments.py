"""The toy simulations of the bias papers, trained once per session and shared by every claim
that reads them (BL Figs 2-6, 9-12; BA Figs 1-3, 5).

:func:`toy_pair` trains, for one :class:`numerics.bias.configs.ToyConfig`, a linear and a ReLU
ensemble of the same (c, seed[, Delta]) members from the same weights, by full-batch GD on the
1/2-sum loss (``theory.conventions``, paper "bias"), and returns them with the
:class:`numerics.ran.Ran` of what ran.  Time is the paper's t/tau = P lr steps
(``Trajectory.time`` through ``theory.conventions.flow_time``), so curves and thresholds compare
across learning rates.  :func:`toy_study` adds, at paper scale, the same run with each setting
the paper does not give varied on its own (``ToyConfig.sensitivity``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics.bias.both_biases import BothBiasEnsemble
from numerics.bias.configs import ToyConfig, variant
from numerics.bias.tasks import task as task_spec
from numerics.models import TwoLayerEnsemble, torch_threads
from numerics.ran import Ran
from numerics.train import train
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument, seed_list
from theory.conventions import tau

PAPER = "bias"
ACTIVATIONS = ("linear", "relu")


@dataclass(frozen=True)
class ToyRun:
    """One activation's ensemble: members are (c, seed[, Delta]); arrays are numpy float64.

    ``trajectory.records``: ``W1`` (T, K, n_hid, 1 + n_in) with the bias weight in column 0,
    ``W2`` (T, K, n_out, n_hid) and, with output biases, ``b2`` (T, K, n_out, 1).
    """

    activation: str
    X: np.ndarray          # (n_in, P) or (K, n_in, P): one input set per member
    Y: np.ndarray          # (n_out, P)
    c: np.ndarray          # (K,)
    seed: np.ndarray       # (K,)
    trajectory: Trajectory

    @property
    def t(self) -> np.ndarray:
        """Record times in t/tau."""
        return np.asarray(self.trajectory.time)

    @property
    def loss(self) -> np.ndarray:
        return np.asarray(self.trajectory.loss, dtype=float)

    @property
    def W1(self) -> np.ndarray:
        return np.asarray(self.trajectory.records["W1"], dtype=float)

    @property
    def W2(self) -> np.ndarray:
        return np.asarray(self.trajectory.records["W2"], dtype=float)

    @property
    def b2(self) -> np.ndarray | None:
        b2 = self.trajectory.records.get("b2")
        return None if b2 is None else np.asarray(b2, dtype=float)

    @property
    def P(self) -> int:
        return self.X.shape[-1]

    def select(self, c) -> np.ndarray:
        """Indices of the members with bias strength c."""
        return np.flatnonzero(np.isclose(self.c, c))

    def Xa(self):
        """Augmented inputs [c; x] of every member: (K, 1 + n_in, P)."""
        K = len(self.c)
        X = self.X if self.X.ndim == 3 else np.broadcast_to(self.X, (K,) + self.X.shape)
        return np.concatenate([self.c[:, None, None] * np.ones((K, 1, self.P)), X], 1)

    def preactivation(self):
        """(T, K, n_hid, P)."""
        return self.W1 @ self.Xa()[None]

    def hidden(self):
        Z = self.preactivation()
        return np.maximum(Z, 0) if self.activation == "relu" else Z

    def outputs(self):
        out = self.W2 @ self.hidden()
        return out if self.b2 is None else out + self.c[None, :, None, None] * self.b2

    def upto(self, time: float) -> ToyRun:
        """The run's records up to ``time`` (t/tau)."""
        return ToyRun(self.activation, self.X, self.Y, self.c, self.seed,
                      self.trajectory.upto(time))


@dataclass(frozen=True)
class ToyPair:
    """Linear and ReLU ensembles of one configuration, and what ran."""

    linear: ToyRun
    relu: ToyRun
    ran: Ran
    delta: np.ndarray | None = None     # (K,) the margin of each member of a margin task

    def __getitem__(self, activation: str) -> ToyRun:
        if activation not in ACTIVATIONS:
            raise KeyError(f"activation {activation!r} is not one of {ACTIVATIONS}")
        return getattr(self, activation)


@dataclass(frozen=True)
class ToyStudy:
    """A run and, at paper scale, the same run with one unknown setting changed per entry of
    ``variants`` (setting -> run)."""

    base: ToyPair
    variants: Mapping[str, ToyPair]


def grid(*axes):
    """Flattened Cartesian product of the axes (first axis slowest)."""
    if not axes:
        raise InvalidArgument("axes: grid needs at least one axis")
    return [a.ravel() for a in np.meshgrid(*[np.asarray(x) for x in axes], indexing="ij")]


def _data(config: ToyConfig, deltas):
    spec = task_spec(config.task)
    if not spec.margin:
        return spec.make()
    Y = spec.make(0.0)[1]
    return np.stack([spec.make(float(d))[0] for d in deltas]), Y


def _train(config: ToyConfig, X, Y, activation, cs, member_seeds):
    steps_per_tau = tau(config.lr, X.shape[-1], PAPER)
    steps = int(round(config.horizon * steps_per_tau))
    every = max(1, int(round(steps_per_tau / config.records_per_tau)))
    dtype = getattr(torch, config.dtype)
    cls = BothBiasEnsemble if config.biases == "hidden and output" else TwoLayerEnsemble
    model = cls.init(member_seeds, X.shape[-2], config.n_hid, Y.shape[-2], activation=activation,
                     bias_strength=torch.as_tensor(cs, dtype=dtype),
                     init_std=float(np.sqrt(config.init_var)), dtype=dtype)
    if config.bias_init == "zero":
        with torch.no_grad():
            model.W1[:, :, 0] = 0.0
            if config.biases == "hidden and output":
                model.b2.zero_()

    def record(m):
        rec = {"W1": m.W1.clone(), "W2": m.W2.clone()}
        if config.biases == "hidden and output":
            rec["b2"] = m.b2.clone()
        return rec
    with torch_threads(1):   # tiny tensors: one thread beats two under contention
        trajectory = train(model, X, Y, lr=config.lr, steps=steps, paper=PAPER,
                           record_every=every, record=record, progress=False)
    return trajectory, steps


@cache
def toy_pair(config: ToyConfig) -> ToyPair:
    """Linear and ReLU ensembles of ``config`` with the same seeds (member k of both starts from
    the same weights), with (c > 0) and without (c = 0: the bias input is zero, so b gets no
    gradient and the networks have no bias) hidden bias.  Cached: trained once per session."""
    if not isinstance(config, ToyConfig):
        raise InvalidArgument(f"config must be a numerics.bias.configs.ToyConfig, got "
                              f"{type(config).__name__}")
    if config.deltas:
        dd, cc, ss = grid(config.deltas, config.cs, config.seeds)
    else:
        (cc, ss), dd = grid(config.cs, config.seeds), None
    X, Y = _data(config, dd if dd is not None else ())
    runs, steps = {}, 0
    for activation in ACTIVATIONS:
        trajectory, steps = _train(config, X, Y, activation, cc, ss)
        runs[activation] = ToyRun(activation, np.asarray(X, float), np.asarray(Y, float),
                                  np.asarray(cc, float), np.asarray(ss, int), trajectory)
    spec = task_spec(config.task)
    ran = Ran.of(config, toy_pair, **{
        "task": spec.text, "biases": config.biases, "hidden width": config.n_hid,
        "init": "i.i.d. normal", "init variance sigma^2": config.init_var,
        "bias init": "i.i.d. normal, as the weights" if config.bias_init == "normal" else "zero",
        "bias strengths c": tuple(config.cs), "optimiser": "full-batch GD",
        "learning rate": config.lr, "loss": "1/2-sum squared error",
        "horizon t/tau": config.horizon, "GD steps": steps, "seeds": tuple(config.seeds),
        "dtype": config.dtype,
        **({"margins Delta": tuple(config.deltas)} if config.deltas else {})})
    return ToyPair(runs["linear"], runs["relu"], ran, dd)


def toy_study(config: ToyConfig) -> ToyStudy:
    """:func:`toy_pair` of ``config`` and of each of its sensitivity variants."""
    return ToyStudy(toy_pair(config), {s: toy_pair(variant(config, s)) for s in config.sensitivity})


def no_dead_unit_pair(lr: float = 5e-3, steps: int = 4000, seeds=(0, 1, 2),
                      bias_shift: float = 1.0):
    """BL-Def-G's limiting case: linear and ReLU networks on the 4-item hierarchy (c = 1) from the
    same weights with every hidden bias raised by ``bias_shift``, so that no unit is dead (or
    gating): {activation: 1/2-sum loss (T, K)} and the smallest pre-activation over all records
    of the ReLU run (> 0: every unit active on every input throughout)."""
    if not (np.isfinite(lr) and lr > 0):
        raise InvalidArgument(f"lr={lr!r} must be positive and finite")
    if isinstance(steps, bool) or int(steps) != steps or steps < 1:
        raise InvalidArgument(f"steps={steps!r} must be a positive integer")
    if not np.isfinite(bias_shift):
        raise InvalidArgument(f"bias_shift={bias_shift!r} must be finite")
    seeds = seed_list(seeds)
    X, Y = task_spec("hierarchy4").make()
    losses, zmin = {}, np.inf
    for act in ACTIVATIONS:
        m = TwoLayerEnsemble.init(list(seeds), X.shape[0], 64, Y.shape[0], activation=act,
                                  bias_strength=1.0, init_std=float(np.sqrt(2e-4)))
        with torch.no_grad():
            m.W1[:, :, 0] += bias_shift
        Xt = torch.as_tensor(X, device=m.W1.device)
        with torch_threads(1):
            h = train(m, X, Y, lr=lr, steps=int(steps), paper=PAPER, record_every=50,
                      record=lambda mm: {"z": mm.preactivation(Xt)}, progress=False)
        losses[act] = h.loss
        if act == "relu":
            zmin = float(h.records["z"].min())
    return losses, zmin
