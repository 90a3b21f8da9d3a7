"""The Sec 4-5 and App E training runs (MHS-S4-*, MHS-S5-*, MHS-E-Six, MHS-Fig4, MHS-Fig5), each
computed once per process (functools.cache) for a ``configs.Sec45`` configuration and shared by
the checks that read it.  Hyper-parameters follow the paper (Table 1: lr 1e-3, 8000 epochs, 100
units per module, 700 ReLU units) and, where it is silent, the released code
(``3_context_diff/{relu,gdln,gdln_single}.py``, ``diff_context_num/{relu,gdln}{3,4,5}.py``):
1/2-sum loss, ReLU init std 0.005/H, GDLN init std 10 (common) / 20 (others, C = 3) or 10 (C = 4,
5) x 0.0005/(100 M), ReLU widths 500 / 600 for C = 4 / 5, the split-gradient update.

Every network of a run has one member per seed of the configuration.  Time: epochs (one step at
lr 1e-3); a configuration at another step size covers the same epochs in proportionally fewer
steps (``configs.Sec45.steps``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import reln
from numerics.haste_slowly.configs import Sec45
from numerics.haste_slowly.gated import GatedNet, train
from numerics.ran import Ran
from numerics.trajectory import Trajectory
from theory.conventions import SUM_HALF
from numerics.validation import InvalidArgument

#: ReLU width and ReLN module count per number of contexts (Table 1; released relu4/5.py)
RELU_WIDTH = {3: 700, 4: 500, 5: 600}
MODULES = {3: 7, 4: 5, 5: 6}
UNITS = 100                       # Table 1 "Num-Hidden (GDLN)": units per module


@dataclass(frozen=True)
class Sec45Run:
    """One network of a Sec 4-5 configuration, all seeds.  ``trajectory``: time in epochs, loss
    (T, K), records (T, K, ...): for a ReLU net ``patterns`` (binary gates), ``mass`` (unit
    masses), ``hidden`` (activities), ``out``; for a GDLN ``hidden``, ``out``, ``prod`` (each
    pathway's W2 W1) and ``sv`` (its singular values).  ``net`` the final network,
    ``unit_module`` (GDLNs) the pathway of every hidden unit, ``modules`` their contexts."""

    network: str
    C: int | None
    trajectory: Trajectory
    net: GatedNet
    ran: Ran
    unit_module: np.ndarray | None = None
    modules: tuple = ()


def task(C: int | None):
    """(X, Y): the Sec 4 task for C=None, else the hierarchical C-context task (code scale)."""
    return ds.section4() if C is None else ds.contexts(C)


def _check(cfg, C):
    if not isinstance(cfg, Sec45):
        raise InvalidArgument(f"cfg must be a configs.Sec45, got {type(cfg).__name__}")
    if C is not None and C not in RELU_WIDTH:
        raise InvalidArgument(f"C={C!r} must be None (the Sec 4 task) or one of {sorted(RELU_WIDTH)}")


def _data(C, X) -> str:
    name = ("Sec 4 task gen_data3(8, diff_struct=True) (H, Ring, Cross blocks)" if C is None else
            f"hierarchical {C}-context task (context scale {ds.CODE_CONTEXT_SCALE[C]:g})")
    return f"{name}: {X.shape[1]} datapoints, {len({tuple(c) for c in X.T})} distinct inputs"


def _settings(cfg: Sec45, C, X, network: str, std, **extra) -> dict:
    return {"data": _data(C, X), "network": network, "init std": std,
            "init": "np.random.seed(seed), then N(0, std^2) per weight",
            "loss": "1/2 sum of squared errors", "optimiser": "full-batch gradient descent",
            "learning rate": cfg.lr, "horizon (epochs)": cfg.epochs, "steps": cfg.steps,
            "dtype": cfg.dtype, "seeds": tuple(int(s) for s in cfg.seeds), **extra}


def _relu_record(X):
    Xt = torch.tensor(X)

    def record(net):
        x = Xt.to(net.weights[0].dtype)
        pre = net.preactivation(x)
        return {"patterns": (pre > 0), "mass": reln.unit_mass(net), "hidden": torch.relu(pre),
                "out": net(x)}
    return record


def _reln_record(X, Y, unit_module, modules):
    """Records of a GDLN; with pathways of several context counts (the six-module GDLN of App E)
    also ``without j`` for each count j: the joint loss with the j-context pathways removed."""
    Xt, Yt = torch.tensor(X), torch.tensor(Y)
    counts = np.array([0 if m.contexts is None else len(m.contexts) for m in modules])[unit_module]
    ablate = sorted(set(counts[counts > 0])) if len(set(counts[counts > 0])) > 1 else []

    def record(net):
        x, y = Xt.to(net.weights[0].dtype), Yt.to(net.weights[0].dtype)
        prods = reln.module_products(net, unit_module)
        out = {"hidden": net.hidden(x), "out": net(x), "prod": prods,
               "sv": torch.linalg.svdvals(prods)}
        for j in ablate:
            keep = torch.as_tensor(counts != j, dtype=x.dtype)
            pred = net.forward(x, keep=keep)[2]
            out[f"without {j}"] = SUM_HALF.factor(x.shape[1]) * ((pred - y) ** 2).sum(dim=(1, 2))
        return out
    return record


def _every(cfg: Sec45) -> int:
    return max(round(cfg.record_epochs * cfg.steps / cfg.epochs), 1)


@cache
def relu_run(cfg: Sec45, C: int | None = None) -> Sec45Run:
    """The bias-free one-hidden-layer ReLU net of Sec 4 (``C=None``) or Sec 5 (``C`` contexts),
    width 700 / 500 / 600, init std 0.005/H, one member per seed of ``cfg``."""
    _check(cfg, C)
    X, Y = task(C)
    width = RELU_WIDTH[3 if C is None else C]
    std = 0.005 / width
    net = reln.relu(cfg.seeds, (X.shape[0], width, Y.shape[0]), std).astype(getattr(torch, cfg.dtype))
    traj = train(net, X, Y, lr=cfg.lr, steps=cfg.steps, record_every=_every(cfg),
                 record=_relu_record(X))
    ran = Ran.of(cfg, relu_run, **_settings(cfg, C, X, f"bias-free ReLU {X.shape[0]}-{width}-"
                                                      f"{Y.shape[0]}", std))
    return Sec45Run("relu", C, traj, net, ran)


def reln_name(C: int, k: int, extra_k=()) -> str:
    ks = " and ".join(f"{kk}-of-{C}" for kk in (k, *extra_k))
    return f"GDLN: common pathway + every {ks}-context pathway, {UNITS} units each"


@cache
def reln_run(cfg: Sec45, C: int | None = None, k: int | None = None, extra_k: tuple = (),
             split: bool = True) -> Sec45Run:
    """A GDLN of a common pathway and every pathway active in exactly ``k`` (default C-1, the
    ReLN; 1: "GDLN Single") and each of ``extra_k`` contexts, 100 units each; ``split``: the
    released split-gradient update (else joint GD on the 1/2-sum loss)."""
    _check(cfg, C)
    X, Y = task(C)
    n_ctx = 3 if C is None else C
    k = n_ctx - 1 if k is None else int(k)
    n_modules = MODULES[n_ctx]
    base = 0.0005 / (UNITS * n_modules)
    stds = (10 * base, (20 if n_ctx == 3 else 10) * base)
    mods = reln.pathways(n_ctx, k, UNITS, *stds, tuple(extra_k))
    net, um = reln.build(n_ctx, mods, cfg.seeds, Y.shape[0])
    net = net.astype(getattr(torch, cfg.dtype))
    traj = train(net, X, Y, lr=cfg.lr, steps=cfg.steps, split=split, record_every=_every(cfg),
                 record=_reln_record(X, Y, um, mods))
    ran = Ran.of(cfg, reln_run, **_settings(cfg, C, X, reln_name(n_ctx, k, tuple(extra_k)), stds,
                                            update="split gradient: common pathway on its own "
                                                   "loss, the others on the residual" if split
                                            else "joint gradient of the 1/2-sum loss"))
    return Sec45Run("reln" if k == n_ctx - 1 and not extra_k else f"gdln k={k}{tuple(extra_k)}",
                    C, traj, net, ran, um, tuple(m.contexts for m in mods))
