"""Synthetic scenarios for the rejection tests of the bias papers' empirical claims: ci runs of
``numerics.bias.experiments`` with their loss curves or weights rewritten to satisfy or to violate
a paper's statement, and image runs made from scratch."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from numerics.bias import configs
from numerics.bias.experiments import ToyPair, toy_pair
from numerics.bias.image_experiments import ImagePair, ImageRun
from numerics.ran import Config, Ran
from numerics.trajectory import Trajectory


def ci(name: str) -> ToyPair:
    """The ci runs of ``configs.<name>``."""
    return toy_pair(getattr(configs, name)["ci"])


def rewrite(pair: ToyPair, activation: str, *, loss=None, W1=None, W2=None) -> ToyPair:
    """``pair`` with the ``activation`` run's losses and/or weights replaced."""
    run = pair[activation]
    tr = run.trajectory
    records = dict(tr.records, **({"W1": W1} if W1 is not None else {}),
                   **({"W2": W2} if W2 is not None else {}))
    new = Trajectory(tr.steps, tr.time, tr.clock, run.loss if loss is None else loss, records)
    return replace(pair, **{activation: replace(run, trajectory=new)})


def members(pair: ToyPair, c: float, delta=None) -> np.ndarray:
    keep = np.isclose(pair.relu.c, c)
    if delta is not None:
        keep &= np.isclose(pair.delta, delta)
    return np.flatnonzero(keep)


def relu_loss(pair: ToyPair, k, curves) -> ToyPair:
    """The ReLU members ``k`` given the loss curves ``curves`` (T, len(k))."""
    loss = pair.relu.loss.copy()
    loss[:, k] = curves
    return rewrite(pair, "relu", loss=loss)


def shifted(curves, t, shift):
    """Curves (T, K) delayed by ``shift`` (t/tau; one per curve, or one for all), held at their
    start before it."""
    shifts = np.broadcast_to(np.asarray(shift, float), (curves.shape[1],))
    return np.stack([np.interp(t - d, t, c) for c, d in zip(curves.T, shifts)], 1)


def rescaled(curves, t, kappa):
    """Curves (T, K) slowed by the factor ``kappa``: c(t / kappa)."""
    return np.stack([np.interp(t / kappa, t, c) for c in curves.T], 1)


def bump(curves, t, height, start=0.5, end=None):
    """Curves (T, K) raised by ``height`` x their start on [start, end] (t/tau)."""
    window = (t >= start) & (t <= (t[-1] if end is None else end))
    return curves + height * curves[0] * window[:, None]


def tracks(pair, c=1.0, shift=0.0, jitter=0.0):
    """The ReLU members of bias strength ``c`` follow their linear twins, delayed by ``shift``
    plus a seed-to-seed jitter of up to ``jitter`` (t/tau)."""
    k = members(pair, c)
    delays = shift + jitter * np.linspace(-1, 1, len(k))
    return relu_loss(pair, k, shifted(pair.linear.loss[:, k], pair.linear.t, delays))


def diverges(pair, c=0.0, height=0.5, start=0.5):
    """The ReLU members of bias strength ``c`` leave their linear twins from ``start`` on."""
    k = members(pair, c)
    return relu_loss(pair, k, bump(pair.linear.loss[:, k], pair.linear.t, height, start))


def parallel_ok() -> ToyPair:
    """The ci parallel-task runs with the biased ReLU members on their linear twins to t = 8."""
    pair = ci("PARALLEL")
    k = members(pair, 1.0)
    loss = pair.relu.loss[:, k].copy()
    early = pair.linear.t <= 8
    loss[early] = pair.linear.loss[early][:, k]
    return relu_loss(pair, k, loss)


def with_relu_bias(pair, c, change):
    """The ReLU members of bias strength ``c`` with their bias weights b(t) -> change(b, t)."""
    W1 = pair.relu.W1.copy()
    k = members(pair, c)
    part = W1[:, k]
    part[..., 0] = change(part[..., 0], pair.relu.t[:, None, None])
    W1[:, k] = part
    return rewrite(pair, "relu", W1=W1)


def image_pair(*, gap_bias=0.01, gap_none=0.3, rank=(3.0, 6.0), error=(0.1, 0.2), seeds=5,
               n_train=500) -> ImagePair:
    """Synthetic image runs: linear losses L0 e^{-t/5}; the ReLU ones equal them plus a bump of
    ``gap_bias`` / ``gap_none`` x L0 from t = 1 with (c = 10) / without bias; effective rank and
    test error (bias, no bias) at every record; seed-to-seed noise of 3% of L0."""
    rng = np.random.default_rng(0)
    t = np.linspace(0, 20, 41)
    cs = np.repeat([10.0, 0.0], seeds)
    base = 0.5 * n_train * np.exp(-t / 5)[:, None] * (1 + 0.03 * rng.standard_normal(2 * seeds))
    runs = {}
    for act in ("linear", "relu"):
        loss = base.copy()
        if act == "relu":
            loss += base[0] * (t[:, None] >= 1) * np.where(cs == 10.0, gap_bias, gap_none)
        b = cs == 10.0
        records = {"test error": np.where(b, error[0], error[1]) + 0.01 * rng.random(loss.shape),
                   "gram rank": np.where(b, rank[0], rank[1]) + 0.1 * rng.random(loss.shape)}
        runs[act] = ImageRun(act, cs, np.tile(np.arange(seeds), 2), n_train,
                             Trajectory(np.arange(len(t)), t, "t/tau", loss, records))
    ran = Ran.of(Config(scale="ci"), "synthetic image runs", synthetic=True)
    return ImagePair(runs["linear"], runs["relu"], ran)


def on_linear(pair, c=1.0) -> ToyPair:
    """The ReLU members of bias strength ``c`` given exactly their linear twins' losses."""
    k = members(pair, c)
    return relu_loss(pair, k, pair.linear.loss[:, k])


def on_closed_form(pair, jitter=0.003) -> ToyPair:
    """The members with bias on the linear closed form (Eq. 7, a0 fitted to the linear seed
    mean): the ReLU ones exactly, the linear ones scaled by 1 +- ``jitter`` across seeds (a seed
    spread that is not the closed form's error)."""
    from numerics.bias.mode_fit import fit_a0, theory_loss
    lin = pair.linear
    k = members(pair, 1.0)
    a0, _ = fit_a0(lin.t, lin.loss[:, k].mean(1), lin.X, lin.Y, 1.0)
    theory = theory_loss(lin.t, lin.X, lin.Y, 1.0, a0)[:, None]
    loss = lin.loss.copy()
    loss[:, k] = theory * (1 + jitter * np.linspace(-1, 1, len(k)))
    pair = rewrite(pair, "linear", loss=loss)
    return relu_loss(pair, k, np.repeat(theory, len(k), 1))


def ybar_phase(pair, start=0.2, end=2.0) -> ToyPair:
    """Both networks' members with bias compute exactly ybar on every input between ``start`` and
    ``end`` (t/tau): every hidden unit's bias 1 and weights 0, the readout ybar / n_hid (the bias
    mode learned first, every unit always on, biases grown fastest at the start)."""
    for act in ("linear", "relu"):
        run = pair[act]
        k = members(pair, 1.0)
        window = (run.t >= start) & (run.t <= end)
        W1, W2 = run.W1.copy(), run.W2.copy()
        n_hid = W1.shape[-2]
        part1, part2 = W1[:, k], W2[:, k]
        part1[window] = 0.0
        part1[window, ..., 0] = 1.0
        part2[window] = run.Y.mean(1)[:, None] / n_hid
        W1[:, k], W2[:, k] = part1, part2
        pair = rewrite(pair, act, W1=W1, W2=W2)
    return pair


def xor_waits(pair) -> ToyPair:
    """The ReLU members with bias (parallel task) read out nothing on the XOR outputs (rows 2, 3)
    until every one of them has learned 90% of the linear task (rows 0, 1): linear before
    non-linear learning, whatever the run did."""
    relu = pair.relu
    k = members(pair, 1.0)
    Y = relu.Y
    out = relu.outputs()[:, k]
    lin_task = 0.5 * ((Y[None, None, :2] - out[:, :, :2]) ** 2).sum((-2, -1))
    plateau = 0.5 * float(np.sum((Y[:2] - Y[:2].mean(1, keepdims=True)) ** 2))
    until = relu.t[np.argmax(lin_task <= 0.1 * plateau, axis=0).max()]
    W2 = relu.W2.copy()
    part = W2[:, k]
    part[relu.t <= until, :, 2:] = 0.0
    W2[:, k] = part
    return rewrite(pair, "relu", W2=W2)
