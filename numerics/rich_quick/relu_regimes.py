"""Runs of two-layer bias-free ReLU networks for GRQ Fig. 5 (L158), the Sec. 5 regime claims
(L151-169) and the conclusion (L175): an XOR-like 2-D task, a near-zero symmetrised init at scale
tau with per-neuron delta in {downstream, 0, upstream}, full-batch GD on the 1/2-sum loss; time
is gradient-flow time t = lr x steps (``numerics.train``).  Configurations:
``numerics.rich_quick.configs.XOR`` and ``XOR_ALT``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from numerics.ran import Ran
from numerics.rich_quick import configs as C
from numerics.rich_quick import piecewise as pw
from numerics.rich_quick import relu_training as rt
from numerics.train import gd_step
from numerics.trajectory import Trajectory
from theory.conventions import convention
from numerics.validation import InvalidArgument


@dataclass(frozen=True)
class XorRun:
    """``trajectory``: time t (gradient-flow), loss and records ``S`` (kernel distance),
    ``hamming`` (activation patterns on 360 directions, from init), ``param_dist`` and ``max_f``
    (largest |f| on the data), members delta-major then seed; the data ``X`` (2, n) and ``y``;
    the weights at init and at the end; ``deltas``, ``seeds`` and the Ran."""

    trajectory: Trajectory
    X: np.ndarray
    y: np.ndarray
    W1: tuple          # (init, end), each (K, h, 2)
    W2: tuple          # (init, end), each (K, 1, h)
    deltas: tuple
    seeds: tuple
    ran: Ran


def xor(config) -> XorRun:
    """Fig. 5's regimes at ``config`` (``configs.Xor``)."""
    config = C.expect(config, C.Xor)
    dtype = getattr(torch, config.dtype)
    X, y = rt.xor_task(config.n, np.random.default_rng(config.data_seed), noise=config.noise)
    cells = [(config.tau, d) for d in config.deltas]
    model = rt.scaled_ensemble([rt.symmetrised_base(s, 2, config.h) for s in config.seeds], cells)
    model.W1, model.W2 = model.W1.to(dtype), model.W2.to(dtype)
    start = (model.W1.numpy().copy(), model.W2.numpy().copy())
    Xt = torch.as_tensor(X, dtype=dtype)
    f0 = float(model(Xt).abs().max())
    T = rt.run(model, X, y, rt.angle_grid(), lr=config.lr, steps=config.steps,
               record_every=config.record_every)
    ran = Ran.of(config, xor, **{
        "hidden units": int(model.W1.shape[1]), "task": "XOR-like 2-D",
        "f(x; theta0) ~ 0 (max |f| on the data < 1e-6 max |y|)": bool(f0 < 1e-6 * np.abs(y).max()),
        "data": f"4 clusters at (+-1, +-1), noise {config.noise:g}, {X.shape[1]} points",
        "scale tau": config.tau, "deltas": tuple(config.deltas), "seeds": tuple(config.seeds),
        "learning rate": config.lr, "horizon (gradient-flow time t)": float(T.time[-1]),
        "loss": str(convention("rich_quick").train), "dtype": config.dtype})
    return XorRun(T, X, y, (start[0], model.W1.numpy()), (start[1], model.W2.numpy()),
                  tuple(config.deltas), tuple(config.seeds), ran)


def one_step_delta_change(run: XorRun, member: int = 0):
    """One full-batch GD step (the run's learning rate, the 1/2-sum loss) from the initial
    weights of ``member``: the per-neuron delta_i = a_i^2 - ||w_i||^2 before and after, and the
    change ``lr^2 ((w_i . xi_i)^2 - a_i^2 ||xi_i||^2)`` a discrete step predicts (Eq. 8's xi)."""
    _xor_run(run)
    members = len(run.W1[0])
    if isinstance(member, bool) or not isinstance(member, (int, np.integer)) or not 0 <= member < members:
        raise InvalidArgument(f"member={member!r} must index one of the run's {members} members")
    W, a = run.W1[0][member].astype(float), run.W2[0][member, 0].astype(float)
    model = rt.scaled_ensemble([(W, a)], [(1.0, 0.0)])
    lr = run.ran["learning rate"]
    gd_step(model, torch.as_tensor(run.X), torch.as_tensor(run.y)[None, :], lr,
            convention("rich_quick").train)
    W1, a1 = model.W1[0].numpy(), model.W2[0, 0].numpy()
    _, _, _, xi = pw.two_layer_parts(W, a, run.X.T, run.y, 0.0)
    before, after = a ** 2 - np.sum(W ** 2, 1), a1 ** 2 - np.sum(W1 ** 2, 1)
    return before, after, lr ** 2 * (np.sum(W * xi, 1) ** 2 - a ** 2 * np.sum(xi ** 2, 1))


def _xor_run(run):
    if not isinstance(run, XorRun):
        raise InvalidArgument(f"run must be a numerics.rich_quick.relu_regimes.XorRun, got "
                              f"{type(run).__name__}")


def xor_numbers(run) -> dict:
    """Per delta (downstream, balanced, upstream), per seed: the time the loss first falls below
    10% of L(0) (``t_fit``), the Hamming distance then (``ham_at_fit``), the largest Hamming
    distance while max|f| < 0.1 (``ham_while_f_small``), the time the Hamming distance passes 0.1
    (``t_ham``, inf if never), the final kernel distance, parameter distance and relative loss."""
    _xor_run(run)
    T = run.trajectory
    t = np.asarray(T.time)
    n_s = len(run.seeds)
    out = {}
    for k, delta in enumerate(run.deltas):
        cols = slice(k * n_s, (k + 1) * n_s)
        loss, ham = np.asarray(T.loss)[:, cols], np.asarray(T.records["hamming"])[:, cols]
        rel = loss / loss[0]
        fit = np.argmax(rel < 0.1, 0)
        small = np.asarray(T.records["max_f"])[:, cols] < 0.1
        passed = ham > 0.1
        out[delta] = dict(
            t_fit=np.where((rel < 0.1).any(0), t[fit], np.inf), ham_at_fit=ham[fit, np.arange(n_s)],
            ham_while_f_small=np.array([ham[small[:, j], j].max() for j in range(n_s)]),
            t_ham=np.where(passed.any(0), t[np.argmax(passed, 0)], np.inf),
            S_end=np.asarray(T.records["S"])[-1, cols],
            pd_end=np.asarray(T.records["param_dist"])[-1, cols], loss_end=rel[-1])
    return out
