"""The Sec 6 depth experiment (MHS-S6-C1..C3, MHS-Fig6) after the released code
(CAandL-Lab/make-haste-slowly, ``depth/relu.py``, ``depth/gdln_off.py``, and the Sec 5
``diff_context_num/relu3.py`` for the single-hidden-layer control).

Three networks on the hierarchical C = 3 task (unit context scale, ``gen_data3(8)``), 1/2-sum
loss, full-batch GD, every seed of a network one member of a batched program:

* ``relu``: the 11-420-420-60 bias-free ReLU net, every weight N(0, 6e-4^2);
* ``gdln``: the released depth GDLN: seven modules of 60 units in both hidden layers, layer 1
  linear and fully connected to the input, layer 2 linear and fully connected to layer 1, the
  output reading hidden-2 units 0-239 (four modules: the common pathway, on for every datapoint)
  and units 240-299 / 300-359 / 360-419 only on contexts {1,2} / {2,3} / {1,3}.  It trains on the
  released schedule: frozen until epoch 500, the common pathway alone (its own loss) until epoch
  12000, then the split gradient: common units step on the common pathway's loss, contextual
  units on the joint loss, the shared first layer on the sum of both (MHS-E16: the GDLN's onsets
  are imposed, not emergent);
* ``shallow``: the single-hidden-layer ReLU net of Sec 5 on the same task (11-700-60, std
  0.005/700, 8001 epochs), the architecture the paper says showed no run-to-run variance (L164).

Weights are drawn as the released code draws them, ``np.random.seed(seed)`` then the layers (the
GDLN's blocks) in order, so the paper-scale run with run index ``i`` starts where the released
``python relu.py i`` does.  Time: the paper's clock is the epoch, one full-batch step at lr 1e-3;
a run at another ``lr`` covers the same epochs in ``epochs * 1e-3 / lr`` steps.  The loss is
recorded after the update of the recorded epoch (as the released ``losses[epoch]``), and at 0.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly.configs import Depth
from numerics.haste_slowly.gated import (
    DT,
    GatedNet,
    block_normal,
    init_weights,
    paper_time,
    train,
)
from numerics.models import default_device, intra_op_threads, trainer_backend
from numerics.ran import Ran
from numerics.train import descend
from numerics.trajectory import Trajectory
from theory.conventions import SUM_HALF
from numerics.validation import InvalidArgument

KINDS = ("relu", "gdln", "shallow")
N_COMMON_MODULES = 4      # hidden-2 units 0-239 of the released GDLN
#: released GDLN module order: 4 common, then the contexts {1,2}, {2,3}, {1,3} (0-based here)
CONTEXT_MODULES = ({0, 1}, {1, 2}, {0, 2})


@dataclass(frozen=True)
class DepthRun:
    """One network of a configuration, all seeds.

    ``trajectory``: time in epochs; loss (T, K) the joint 1/2-sum loss; records (T, K): ``lin`` and
    ``ctx``, the parts of the loss a linear map can fit and only gating can (they add up to the
    loss), ``align_lin`` / ``align_ctx``, the output's alignment with the task's linear and
    gating-only parts, and ``on1`` / ``on1_mass``, the share of layer 1's weight-carrying units
    (of its weight mass) on for every datapoint (:func:`_components`).  ``final``: the gates ``g1``, ``g2`` (K, units, 24) and
    unit masses ``m1``, ``m2`` (K, units) of each hidden layer at the end of training (``g2`` and
    ``m2`` for the two-layer networks).  ``ran``: what ran."""

    kind: str
    trajectory: Trajectory
    final: dict
    ran: Ran


def task():
    """(X (11, 24), Y (60, 24)): the depth code's gen_data3(8) (hierarchy in every context)."""
    return ds.contexts(3, 1.0)


def gdln_gates(module: int) -> np.ndarray:
    """(7 module, 24) 0/1 gates of hidden layer 2: common modules on everywhere, then the three
    2-of-3-context modules in the released order {1,2}, {2,3}, {1,3}."""
    N = task()[0].shape[1]
    rows = [np.ones(N)] * N_COMMON_MODULES + list(ds.context_gates(3, CONTEXT_MODULES))
    return np.repeat(np.array(rows), module, axis=0)


def _gdln_weights(cfg: Depth, n_in: int, n_out: int) -> list:
    """The released ``init_random_params_gated`` with num_modules (1, 7, 7, 1): per seed, layer 1
    as 7 blocks (60, 11), layer 2 as 7 x 7 blocks (60, 60), the output as 7 blocks (60, 60), the
    last three at the contextual std."""
    M, w = 7, cfg.module
    s1, s2, s_common, s_ctx = cfg.gdln_std
    out_std = [[s_common if p < N_COMMON_MODULES else s_ctx] for p in range(M)]
    layers = [[], [], []]
    for seed in cfg.seeds:
        rng = np.random.RandomState(int(seed))
        layers[0].append(block_normal(rng, [w] * M, [n_in], [[s1] * M]))
        layers[1].append(block_normal(rng, [w] * M, [w] * M, [[s2] * M] * M))
        layers[2].append(block_normal(rng, [n_out], [w] * M, out_std))
    return [torch.as_tensor(np.stack(W), dtype=DT) for W in layers]


def depth_net(kind: str, cfg: Depth, device=None) -> GatedNet:
    """The network ``kind`` of ``cfg``, one member per seed, in ``cfg.dtype``."""
    if not isinstance(cfg, Depth):
        raise InvalidArgument(f"cfg must be a configs.Depth, got {type(cfg).__name__}")
    X, Y = task()
    d, m = X.shape[0], Y.shape[0]
    dt = getattr(torch, cfg.dtype)
    if kind == "shallow":
        sizes = (d, cfg.shallow_width, m)
        std = cfg.shallow_std
    elif kind == "relu":
        sizes = (d, cfg.width, cfg.width, m)
        std = cfg.relu_std
    elif kind == "gdln":
        W = _gdln_weights(cfg, d, m)
        H = W[0].shape[1]
        common = torch.arange(H) < N_COMMON_MODULES * cfg.module
        net = GatedNet([w.to(device or "cpu") for w in W], [np.ones((H, X.shape[1])),
                                                             gdln_gates(cfg.module)],
                       common=common.to(device or "cpu"))
        return net.astype(dt)
    else:
        raise InvalidArgument(f"kind={kind!r} must be one of {KINDS}")
    shapes = list(zip(sizes[1:], sizes[:-1]))
    W = init_weights(cfg.seeds, shapes, [std] * len(shapes), device, dtype=dt)
    return GatedNet(W, [None] * (len(shapes) - 1))


def _n_common(net: GatedNet) -> int:
    """Number of common units, which the depth GDLN puts first (a prefix slice, not a copy)."""
    n = int(net.common.sum())
    if not bool(net.common[:n].all()):
        raise InvalidArgument("the common units must come first (units 0..n-1)")
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
                    record_every: int, record=None) -> tuple:
    """``steps`` loop passes of the released schedule (gdln_off.py's ``update_gated``): at pass
    ``k`` no update while ``k < start``, the common pathway alone while ``k < switch``, the split
    gradient after.  The joint loss and ``record(net) -> {name: tensor}`` at 0 and after every
    ``record_every``-th pass and the last.  Returns (steps recorded (T,), losses (T, K), records)."""
    if any(m is not None for m in net.masks):
        raise InvalidArgument("net has input masks; the depth GDLN has none")
    for name, value in (("steps", steps), ("record_every", record_every)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be a positive integer")
    if not 0 <= start <= switch:
        raise InvalidArgument(f"start={start} and switch={switch} must satisfy 0 <= start <= switch")
    if not (np.isfinite(lr) and lr > 0):
        raise InvalidArgument(f"lr={lr!r} must be positive and finite")
    dev, dt = net.weights[0].device, net.weights[0].dtype
    X, Y = (torch.as_tensor(a, dtype=dt, device=dev) for a in (X, Y))
    passes = itertools.count()

    def step(X, Y, lr, loss):
        k = next(passes)
        if k >= start:
            for W, g in zip(net.weights, split_grads(net, X, Y, contextual=k >= switch)[1]):
                W -= g.mul_(lr)     # lr * g in the fresh gradient's storage: no temporary

    # threads: see numerics.haste_slowly.gated.train
    with trainer_backend(intra_op_threads()), torch.no_grad():
        trace = descend(step, net.losses, X, Y, lr=lr, loss=SUM_HALF, steps=steps,
                        record_every=record_every,
                        record=(lambda: record(net)) if record else None, desc="depth gdln")
    return trace.steps, trace.loss, trace.records


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
        _, gates, out = net.forward(Xt.to(device=dev, dtype=dt))
        err = out - Yt.to(device=dev, dtype=dt)
        f = SUM_HALF.factor(X.shape[1])
        lin_out, ctx_out = out @ P_, out - out @ P_
        top_lin = torch.linalg.svd(lin_out, full_matrices=False)[0][..., 0]
        top_ctx = torch.linalg.svd(ctx_out, full_matrices=False)[0][..., 0]
        # layer 1's gating over training (MHS-S6-C1 is about the trained network, not only its
        # last epoch): of the units carrying weight (mass > 1% of the largest), the share on for
        # every datapoint, and the share of the layer's weight mass on such units
        always = (gates[0] > 0).all(dim=-1)
        mass = net._w(0).norm(dim=2) * net._w(1).norm(dim=1)
        big = mass > 0.01 * mass.amax(dim=1, keepdim=True)
        return {"lin": f * ((err @ P_) ** 2).sum(dim=(1, 2)),
                "ctx": f * ((err - err @ P_) ** 2).sum(dim=(1, 2)),
                "align_lin": (top_lin @ u_).abs(), "align_ctx": (top_ctx @ U_).norm(dim=-1),
                "on1": (always & big).sum(dim=1) / big.sum(dim=1),
                "on1_mass": (mass * big * always).sum(dim=1) / (mass * big).sum(dim=1)}
    return record


def _final(net: GatedNet, X) -> dict:
    """Gate patterns and unit masses ||W_in[j]|| ||W_out[:, j]|| of each hidden layer."""
    _, gates, _ = net.forward(X)
    out = {"g1": gates[0] > 0, "m1": net._w(0).norm(dim=2) * net._w(1).norm(dim=1)}
    if len(gates) > 1:
        out.update(g2=gates[1] > 0, m2=net._w(1).norm(dim=2) * net._w(2).norm(dim=1))
    return {k: v.cpu().numpy() for k, v in out.items()}


def _settings(kind: str, cfg: Depth, X, epochs: int, steps: int) -> dict:
    """What one network of ``cfg`` ran, for its :class:`Ran`."""
    common = {"data": f"hierarchical 3-context task gen_data3(8): {X.shape[1]} datapoints, "
                      f"{len({tuple(c) for c in X.T})} distinct inputs",
              "loss": "1/2 sum of squared errors", "optimiser": "full-batch gradient descent",
              "learning rate": cfg.lr, "horizon (epochs)": epochs, "steps": steps,
              "dtype": cfg.dtype, "seeds": tuple(int(s) for s in cfg.seeds),
              "init": "np.random.seed(seed), then N(0, std^2) per layer in order"}
    if kind == "relu":
        return dict(common, network=f"bias-free ReLU 11-{cfg.width}-{cfg.width}-60",
                    **{"init std": cfg.relu_std})
    if kind == "shallow":
        return dict(common, network=f"bias-free ReLU 11-{cfg.shallow_width}-60",
                    **{"init std": cfg.shallow_std})
    return dict(common, network=f"depth GDLN, 7 x {cfg.module} units in each hidden layer, "
                                "4 common modules and the contexts {1,2}, {2,3}, {1,3} in layer 2",
                **{"init std": cfg.gdln_std, "init": "np.random.seed(seed), then N(0, std^2) "
                                                    "blocks per layer in order",
                   "schedule (epochs): frozen until, common pathway alone until":
                       (cfg.start, cfg.switch),
                   "update": "split gradient: common units on the common loss, contextual units "
                             "on the joint loss"})


def seed_blocks(cfg: Depth, device=None) -> list[Depth]:
    """``cfg`` cut into the configurations trained as one program each: all seeds on CUDA; one
    seed at a time on a CPU, where a 420 x 420 float32 layer (705 kB) stays in the core's 1 MB L2
    cache through its step, while 32 seeds side by side stream 22 MB each pass (the batched step
    took 1.5 ms per network, the one-seed step 0.94 ms; numerics.bench, ``mhs_depth_relu``).
    Every seed draws its weights from its own ``RandomState``, so the blocks give the batched
    program's numbers bit for bit (tests/haste_slowly/test_depth_runs.py)."""
    if not isinstance(cfg, Depth):
        raise InvalidArgument(f"cfg must be a configs.Depth, got {type(cfg).__name__}")
    if torch.device(device or default_device()).type == "cuda":
        return [cfg]
    return [cfg.replace(seeds=(s,)) for s in cfg.seeds]


def _train(kind: str, cfg: Depth, device, X, Y) -> tuple:
    """(trajectory, final) of network ``kind`` of ``cfg`` as one batched program."""
    net = depth_net(kind, cfg, device)
    epochs = cfg.shallow_epochs if kind == "shallow" else cfg.epochs
    steps, every = cfg.steps(epochs), max(cfg.steps(cfg.record_epochs), 1)
    record = _components(X, Y)
    if kind == "gdln":
        marks, loss, recs = train_scheduled(net, X, Y, lr=cfg.lr, steps=steps,
                                            start=cfg.steps(cfg.start),
                                            switch=cfg.steps(cfg.switch), record_every=every,
                                            record=record)
        traj = Trajectory(marks, paper_time(marks, cfg.lr, X.shape[1], "epochs"), "epochs", loss,
                          recs)
    else:
        traj = train(net, X, Y, lr=cfg.lr, steps=steps, record_every=every, record=record)
    Xt = torch.as_tensor(X, dtype=net.weights[0].dtype, device=net.weights[0].device)
    return traj, _final(net, Xt)


def _join(parts: list) -> Trajectory:
    """The trajectories of :func:`seed_blocks` side by side: one schedule, so the same steps and
    times (in epochs); loss and records joined along the member axis."""
    first = parts[0]
    return Trajectory(first.steps, first.time, first.clock,
                      np.concatenate([p.loss for p in parts], axis=1),
                      {k: np.concatenate([p.records[k] for p in parts], axis=1)
                       for k in first.records})


@cache
def depth_run(kind: str, cfg: Depth, blocks: bool = True) -> DepthRun:
    """All seeds of network ``kind`` of ``cfg`` trained to its horizon (``cfg.epochs``;
    ``cfg.shallow_epochs`` for the control) on ``numerics.models.default_device()``, recording
    every ``cfg.record_epochs`` epochs: in the :func:`seed_blocks` of the device (``blocks``;
    False: all seeds as one batched program, the same numbers)."""
    if kind not in KINDS:
        raise InvalidArgument(f"kind={kind!r} must be one of {KINDS}")
    if not isinstance(cfg, Depth):
        raise InvalidArgument(f"cfg must be a configs.Depth, got {type(cfg).__name__}")
    X, Y = task()
    device = default_device()
    parts = [_train(kind, block, device, X, Y)
             for block in (seed_blocks(cfg, device) if blocks else [cfg])]
    final = {k: np.concatenate([p[1][k] for p in parts]) for k in parts[0][1]}
    epochs = cfg.shallow_epochs if kind == "shallow" else cfg.epochs
    ran = Ran.of(cfg, depth_run, **_settings(kind, cfg, X, epochs, cfg.steps(epochs)))
    return DepthRun(kind, _join([p[0] for p in parts]), final, ran)
