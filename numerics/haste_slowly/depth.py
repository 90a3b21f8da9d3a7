"""The Sec 6 depth experiment (MHS-S6-C1..C3, MHS-Fig6) after the released code
(CAandL-Lab/make-haste-slowly, ``depth/relu.py`` and ``depth/gdln_off.py``).

Three networks on the hierarchical C = 3 task (unit context scale), 1/2-sum loss, full-batch GD:

* ``relu``: the 11-420-420-60 bias-free ReLU net, every weight N(0, 6e-4^2);
* ``gdln``: the released depth GDLN: seven modules of 60 units in both hidden layers, layer 1
  linear and fully connected to the input, layer 2 linear and fully connected to layer 1, the
  output reading hidden-2 units 0-239 (four modules: the common pathway, on for every
  datapoint) and units 240-299 / 300-359 / 360-419 only on contexts {1,2} / {2,3} / {1,3}.
  Init std 5.75e-4 (layer 1), 5.5e-4 (layer 2), 5.5e-4 (output from common units) and 4e-3
  (output from contextual units).  Training follows the released schedule: frozen until epoch
  500, the common pathway alone (its own loss) until epoch 12000, then the split gradient:
  common units step on the common pathway's loss, contextual units on the joint loss, the
  shared first layer on the sum of both (MHS-E16: the GDLN's onsets are imposed, not emergent);
* ``shallow``: the single-hidden-layer ReLU net of Sec 4/5 on the same task (700 units, init std
  0.005/700), the architecture the paper says showed no run-to-run variance (L164).

Time: the paper's clock is the epoch, one full-batch step at lr 1e-3; a run at another ``lr``
covers ``steps * lr / 1e-3`` epochs (``theory.conventions.flow_time``: same t/tau).  The horizon
is 45,000 epochs: at the released 30,001 both networks are still inside their last loss drop
(full width, lr 1e-3, 2 seeds: ReLU loss 1.2-1.7 of L(0) = 96), so each run is snapshotted there
as well (``released_*`` records).  ``DEPTH_FULL`` is the released recipe at 100 seeds;
``DEPTH_CI`` a narrow, few-seed, larger-step version for the ci suite.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import numpy as np
import torch

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import reln
from numerics.haste_slowly.gated import SMALL_NET, GatedNet, History, init_weights, train
from numerics.models import default_device, torch_threads
from theory.conventions import SUM_HALF, flow_time

PAPER = "haste_slowly"
PAPER_LR = 1e-3           # the released code's step size: one step is one epoch
KINDS = ("relu", "gdln", "shallow")
N_COMMON_MODULES = 4      # hidden-2 units 0-239 of the released GDLN


@dataclass(frozen=True)
class DepthConfig:
    """One scale of the Sec 6 experiment; every time in epochs (the paper's clock)."""

    width: int = 420                  # ReLU units per hidden layer (relu.py: 60 * 7)
    relu_std: float = 6e-4            # relu.py param_scale_relu
    module: int = 60                  # GDLN units per module (gdln_off.py num_hidden)
    #: layer 1, layer 2, output from common units, output from contextual units
    gdln_std: tuple = (5.75e-4, 5.5e-4, 5.5e-4, 4e-3)
    shallow_width: int = 700          # Sec 4/5 ReLU width for C = 3
    shallow_std: float = 0.005 / 700  # Sec 4/5 code: 0.005 / H
    start: int = 500                  # gdln_off.py start_epoch: frozen before
    switch: int = 12000               # gdln_off.py switch_epoch1: common pathway alone before
    epochs: int = 45000               # both networks finish (the released 30001 cuts the GDLN off)
    released: int = 30001             # relu.py / gdln_off.py num_epochs
    lr: float = PAPER_LR
    seeds: tuple = tuple(range(100))
    record_every: int = 100           # epochs between loss records
    dtype: str = "float64"

    @property
    def steps_per_epoch(self) -> float:
        """GD steps at ``lr`` per epoch: the same t/tau as one step at the released lr 1e-3."""
        return float(flow_time(1, PAPER_LR, 1, PAPER) / flow_time(1, self.lr, 1, PAPER))

    def steps(self, epochs) -> int:
        """GD steps at ``lr`` that cover ``epochs`` of the paper's clock."""
        return int(round(epochs * self.steps_per_epoch))

    def epochs_of(self, steps) -> np.ndarray:
        """The paper's epochs covered by ``steps`` GD steps at ``lr``."""
        return np.asarray(steps) / self.steps_per_epoch


@dataclass
class DepthRun:
    """One network of a config, all seeds: its training history and final weights."""

    hist: History
    net: GatedNet


def task():
    """(X (11, 24), Y (60, 24)): the depth code's gen_data3(8) (hierarchy in every context)."""
    return ds.contexts(3, 1.0)


def gdln_gates(module: int) -> np.ndarray:
    """(7 module, 24) 0/1 gates of hidden layer 2: common modules on everywhere, then the three
    2-of-3-context modules in the released order {1,2}, {2,3}, {1,3}."""
    N = task()[0].shape[1]
    rows = [np.ones(N)] * N_COMMON_MODULES + list(ds.context_gates(3, [{0, 1}, {1, 2}, {0, 2}]))
    return np.repeat(np.array(rows), module, axis=0)


def depth_net(kind: str, cfg: DepthConfig, device=None) -> GatedNet:
    """Weights drawn in float64 (one generator per seed) and cast to ``cfg.dtype``."""
    X, Y = task()
    dt = getattr(torch, cfg.dtype)
    if kind == "shallow":
        return reln.relu(cfg.seeds, (X.shape[0], cfg.shallow_width, Y.shape[0]), cfg.shallow_std,
                         device).astype(dt)
    if kind == "relu":
        return reln.relu(cfg.seeds, (X.shape[0], cfg.width, cfg.width, Y.shape[0]), cfg.relu_std,
                         device).astype(dt)
    if kind == "gdln":
        gates = gdln_gates(cfg.module)
        H = len(gates)
        n_common = N_COMMON_MODULES * cfg.module
        s1, s2, s_common, s_ctx = cfg.gdln_std
        out_std = np.r_[np.full(n_common, s_common), np.full(H - n_common, s_ctx)]
        W = init_weights(cfg.seeds, [(H, X.shape[0]), (H, H), (Y.shape[0], H)],
                         [s1, s2, out_std], device)
        common = torch.arange(H, device=W[0].device) < n_common
        return GatedNet(W, [np.ones((H, X.shape[1])), gates], common=common).astype(dt)
    raise ValueError(f"kind={kind!r} must be one of {KINDS}")


def _n_common(net: GatedNet) -> int:
    """Number of common units, which the depth GDLN puts first (a prefix slice, not a copy)."""
    n = int(net.common.sum())
    if not bool(net.common[:n].all()):
        raise ValueError("the common units must come first (units 0..n-1)")
    return n


def split_grads(net: GatedNet, X, Y, contextual: bool):
    """(joint losses (K,), dL/dW per layer) of the released depth GDLN's update: the common units
    (``net.common``) carry the error of the common pathway alone, the contextual units the joint
    error (or none while ``contextual`` is False); both are back-propagated into the shared
    layers, so layer 1 steps on the sum, as gdln_off.py's grads_common + grads_context."""
    acts, gates, out = net.forward(X)
    n = _n_common(net)
    f2 = 2 * SUM_HALF.factor(X.shape[-1])
    W_out, top = net.weights[-1], acts[-1]
    err = out - Y
    err_common = f2 * (W_out[:, :, :n] @ top[:, :n] - Y)
    delta = torch.zeros_like(top)
    g_out = torch.zeros_like(W_out)
    delta[:, :n] = W_out[:, :, :n].transpose(1, 2) @ err_common
    g_out[:, :, :n] = err_common @ top[:, :n].transpose(1, 2)
    if contextual:
        delta[:, n:] = W_out[:, :, n:].transpose(1, 2) @ (f2 * err)
        g_out[:, :, n:] = f2 * err @ top[:, n:].transpose(1, 2)
    grads = [None] * len(net.weights)
    grads[-1] = g_out
    for l in range(len(net.weights) - 2, -1, -1):
        delta = delta * gates[l]
        grads[l] = delta @ acts[l].transpose(1, 2)
        if l:
            delta = net.weights[l].transpose(1, 2) @ delta
    return f2 / 2 * (err ** 2).sum(dim=(1, 2)), grads


def train_scheduled(net: GatedNet, X, Y, *, lr: float, steps: int, start: int, switch: int,
                    record_every: int, record=None, first: int = 0) -> History:
    """GD steps ``first`` .. ``steps`` of the released schedule (all in steps from the start of
    training): none before ``start``, the common pathway alone before ``switch``, the split
    gradient after; the joint loss and ``record(net) -> {name: tensor}`` at every multiple of
    ``record_every`` and at both ends."""
    if any(m is not None for m in net.masks):
        raise ValueError("net has input masks; the depth GDLN has none")
    if not 0 <= start <= switch:
        raise ValueError(f"start={start} and switch={switch} must satisfy 0 <= start <= switch")
    dev, dt = net.weights[0].device, net.weights[0].dtype
    X, Y = (torch.as_tensor(a, dtype=dt, device=dev) for a in (X, Y))
    rec, losses, recs = [], [], {}
    threads = 1 if sum(W.numel() for W in net.weights) < SMALL_NET else None
    with torch_threads(threads), torch.no_grad():
        for step in range(first, steps + 1):
            if step % record_every == 0 or step in (first, steps):
                rec.append(step)
                losses.append(SUM_HALF.factor(X.shape[-1])
                              * ((net(X) - Y) ** 2).sum(dim=(1, 2)).cpu().numpy())
                for k, v in (record(net) if record else {}).items():
                    recs.setdefault(k, []).append(v.cpu().numpy())
            if start <= step < steps:
                grads = split_grads(net, X, Y, contextual=step >= switch)[1]
                for W, g in zip(net.weights, grads):
                    W -= lr * g
    return History(np.array(rec), np.array(losses), {k: np.array(v) for k, v in recs.items()})


def _components(X, Y):
    """Record of the two parts of the loss and of the output's alignment with the task.

    ``P`` projects onto the row space of X: the output's part ``Yhat P`` is what a linear map (the
    common pathway) can fit, ``Yhat (I - P)`` what only gating (the contextual pathways) can.  The
    1/2-sum loss splits exactly into ``lin`` + ``ctx``.  ``align_lin``: |cos| of the top left
    singular vectors of ``Yhat P`` and ``Y P``; ``align_ctx``: norm of the projection of the top
    left singular vector of ``Yhat (I - P)`` onto the top-2 left singular subspace of
    ``Y (I - P)`` (its top singular value is double)."""
    Xt = torch.as_tensor(X, dtype=torch.float64)
    P = torch.linalg.pinv(Xt) @ Xt
    Yt = torch.as_tensor(Y, dtype=torch.float64)
    u_lin = torch.linalg.svd(Yt @ P)[0][:, 0]
    U_ctx = torch.linalg.svd(Yt - Yt @ P)[0][:, :2]

    def record(net):
        dev, dt = net.weights[0].device, net.weights[0].dtype
        P_, u_, U_ = (t.to(device=dev, dtype=dt) for t in (P, u_lin, U_ctx))
        out = net(Xt.to(device=dev, dtype=dt))
        err = out - Yt.to(device=dev, dtype=dt)
        f = SUM_HALF.factor(X.shape[1])
        lin_out, ctx_out = out @ P_, out - out @ P_
        top_lin = torch.linalg.svd(lin_out, full_matrices=False)[0][..., 0]
        top_ctx = torch.linalg.svd(ctx_out, full_matrices=False)[0][..., 0]
        return {"lin": f * ((err @ P_) ** 2).sum(dim=(1, 2)),
                "ctx": f * ((err - err @ P_) ** 2).sum(dim=(1, 2)),
                "align_lin": (top_lin @ u_).abs(), "align_ctx": (top_ctx @ U_).norm(dim=-1)}
    return record


def _final_record(net: GatedNet, X) -> dict:
    """Final gate patterns and unit masses of each hidden layer (MHS-S6-C1 reads the end of
    training only), shape (1, K, ...)."""
    _, gates, _ = net.forward(X)
    out = {"g1": gates[0] > 0, "m1": net._w(0).norm(dim=2) * net._w(1).norm(dim=1)}
    if len(gates) > 1:
        out.update(g2=gates[1] > 0, m2=net._w(1).norm(dim=2) * net._w(2).norm(dim=1))
    return {k: v.cpu().numpy()[None] for k, v in out.items()}


def _segment(kind, net, X, Y, cfg: DepthConfig, first: int, last: int, record) -> History:
    every = max(cfg.steps(cfg.record_every), 1)
    if kind == "gdln":
        return train_scheduled(net, X, Y, lr=cfg.lr, steps=last, start=cfg.steps(cfg.start),
                               switch=cfg.steps(cfg.switch), record_every=every, record=record,
                               first=first)
    hist = train(net, X, Y, lr=cfg.lr, steps=last - first, record_every=every, record=record)
    hist.steps = hist.steps + first
    return hist


def _join(a: History, b: History) -> History:
    """``b`` continues ``a``: its first record (``a``'s last) is dropped."""
    return History(np.r_[a.steps, b.steps[1:]], np.concatenate([a.loss, b.loss[1:]]),
                   {k: np.concatenate([a.records[k], b.records[k][1:]]) for k in a.records})


@cache
def depth_run(kind: str, cfg: DepthConfig) -> DepthRun:
    """All seeds of one network of ``cfg`` trained for ``cfg.epochs`` as one batched program on
    ``numerics.models.default_device()``.  ``hist.steps`` in GD steps (``cfg.epochs_of``
    converts); ``hist.loss`` (T, K) the joint loss every ``cfg.record_every`` epochs;
    ``hist.records``: the loss parts and alignments of :func:`_components` (T, K), and the gates
    and unit masses at the end (``g1``, ``m1``, ``g2``, ``m2``; shape (1, K, ...)) and at the
    released code's last epoch ``cfg.released`` (``released_g1`` ...) when the horizon passes it."""
    X, Y = task()
    net = depth_net(kind, cfg, default_device())
    Xt = torch.as_tensor(X, dtype=net.weights[0].dtype, device=net.weights[0].device)
    record, steps, cut = _components(X, Y), cfg.steps(cfg.epochs), cfg.steps(cfg.released)
    snapshot = {}
    if 0 < cut < steps:
        hist = _segment(kind, net, X, Y, cfg, 0, cut, record)
        snapshot = {f"released_{k}": v for k, v in _final_record(net, Xt).items()}
        hist = _join(hist, _segment(kind, net, X, Y, cfg, cut, steps, record))
    else:
        hist = _segment(kind, net, X, Y, cfg, 0, steps, record)
    hist.records.update(_final_record(net, Xt), **snapshot)
    return DepthRun(hist, net)


def depth_runs(cfg: DepthConfig, fraction: float = 1.0, kinds=KINDS) -> dict:
    """{kind: DepthRun} of ``cfg``; ``fraction`` in (0, 1] trains only that share of the horizon
    (for timing: a step costs the same throughout), on the same record schedule."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction={fraction} must lie in (0, 1]")
    part = replace(cfg, epochs=max(int(round(cfg.epochs * fraction)), 1))
    return {kind: depth_run(kind, part) for kind in kinds}


#: Paper scale: the released recipe, 100 seeds per network (paper L164 "100 runs"), in the
#: released Jax code's float32.
DEPTH_FULL = DepthConfig(dtype="float32")
#: ci: 7 x 16 GDLN units and 112 ReLU units per layer with every std scaled by sqrt(420/112)
#: (the per-layer pre-activation scale of the released init; the loss plateaus and drop epochs
#: of the full width are kept), the shallow control at 112 units with the Sec 4/5 rule 0.005/H,
#: 4 seeds, lr 8e-3 (same epochs: 1/8 the steps).
_CI_SCALE = np.sqrt(420 / 112)
DEPTH_CI = DepthConfig(width=112, relu_std=6e-4 * _CI_SCALE, module=16,
                       gdln_std=tuple(s * _CI_SCALE for s in DEPTH_FULL.gdln_std),
                       shallow_width=112, shallow_std=0.005 / 112, lr=8e-3, seeds=(0, 1, 2, 3))
