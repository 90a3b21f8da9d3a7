"""Batched teacher-student training of two-layer bias-free ReLU networks (rich_quick Fig. 1,
App D.1): ``f(x) = sum_i a_i relu(w_i^T x)``, many (seed, tau, delta) students in one program.

Initialisation (D.1): a symmetrised balanced base (``w_i ~ Unif(S^{d-1})``, ``a_i = +-1``, second
half copies ``w`` and flips ``a`` so that ``f = 0``), then ``w_i -> w_i tau/alpha`` and
``a_i -> a_i tau alpha`` with ``alpha^2 = (delta/tau^2 + sqrt(delta^2/tau^4 + 4))/2`` so that every
neuron has ``a_i^2 - ||w_i||^2 = delta``.  Training: full-batch GD with one learning rate per
member on ``theory.rich_quick.conventions_rich_quick.EXPERIMENT_LOSS``; gradients are written out
(no autograd) and everything runs in float64, on CUDA when present.  Time is reported as the
paper's flow time via ``theory.conventions.flow_time``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch
from tqdm.auto import tqdm

from numerics.checks import finite_array, positive
from numerics.models import default_device
from theory.conventions import flow_time
from theory.rich_quick.conventions_rich_quick import EXPERIMENT_LOSS


def geometry_alpha(tau, delta):
    """alpha with ``tau^2 (alpha^2 - alpha^-2) = delta`` (Fig. 1 caption)."""
    tau = positive(tau, "tau")
    delta = finite_array(delta, "delta")
    return np.sqrt((delta / tau ** 2 + np.sqrt(delta ** 2 / tau ** 4 + 4)) / 2)


def unit_sphere(rng, n, d):
    x = rng.standard_normal((n, d))
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@dataclass
class Task:
    """One seed's teacher, training inputs, test inputs and base student (D.1)."""

    X: np.ndarray
    y: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    teacher_w: np.ndarray
    base_w: np.ndarray
    base_a: np.ndarray


def relu_net(X, W, a):
    return np.maximum(X @ W.T, 0) @ a


def make_task(seed: int, d: int, h: int, k: int, n: int, n_test: int) -> Task:
    if h % 2:
        raise ValueError(f"h={h} must be even for the symmetrised initialisation")
    rng = np.random.default_rng(seed)
    tw, ta = unit_sphere(rng, k, d), rng.choice([-1.0, 1.0], k)
    X, X_test = unit_sphere(rng, n, d), unit_sphere(rng, n_test, d)
    half_w, half_a = unit_sphere(rng, h // 2, d), rng.choice([-1.0, 1.0], h // 2)
    return Task(X, relu_net(X, tw, ta), X_test, relu_net(X_test, tw, ta), tw,
                np.vstack([half_w, half_w]), np.concatenate([half_a, -half_a]))


@dataclass
class Run:
    """Training records: flow times (T,), per member (K,) losses and records (T, K, ...)."""

    steps: np.ndarray
    t: np.ndarray
    train_loss: np.ndarray
    test_loss: np.ndarray
    kernel_distance: np.ndarray
    W: np.ndarray = field(repr=False)     # (T, K, h, d) when kept, else final (K, h, d)
    a: np.ndarray = field(repr=False)


def ntk(X, W, a):
    """Unweighted NTK (single learning rate) ``H H^T + (X X^T) * (D diag(a^2) D^T)``, batched:
    X (n, d), W (K, h, d), a (K, h) -> (K, n, n)."""
    pre = torch.einsum("nd,khd->knh", X, W)
    H, D = pre.clamp_min(0), (pre > 0).to(X.dtype)
    return H @ H.transpose(1, 2) + (X @ X.T)[None] * ((D * a[:, None, :] ** 2) @ D.transpose(1, 2))


def train(tasks, taus, deltas, *, lr, steps: int, record_every: int, keep_weights=False,
          progress=None) -> Run:
    """Train one student per (task, tau, delta) triple, all at once.

    ``tasks``: list of :class:`Task` (one per member), ``taus``, ``deltas``, ``lr``: arrays (K,).
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)   # small batched tensors: threading overhead dominates on CPU
    try:
        return _train(tasks, taus, deltas, lr, steps, record_every, keep_weights, progress)
    finally:
        torch.set_num_threads(threads)


def _train(tasks, taus, deltas, lr, steps, record_every, keep_weights, progress):
    K = len(tasks)
    taus, deltas = positive(taus, "taus"), finite_array(deltas, "deltas")
    lr = positive(np.broadcast_to(lr, (K,)), "lr")
    if taus.shape != (K,) or deltas.shape != (K,):
        raise ValueError(f"taus and deltas must have shape ({K},) like tasks")
    dev, dt = default_device(), torch.float64
    alpha = geometry_alpha(taus, deltas)
    T = lambda v: torch.as_tensor(np.array(v), dtype=dt, device=dev)  # noqa: E731
    X, y = T(np.stack([t.X for t in tasks])), T(np.stack([t.y for t in tasks]))
    Xt, yt = T(np.stack([t.X_test for t in tasks])), T(np.stack([t.y_test for t in tasks]))
    W = T(np.stack([t.base_w for t in tasks]) * (taus / alpha)[:, None, None])
    a = T(np.stack([t.base_a for t in tasks]) * (taus * alpha)[:, None])
    lr_t = T(lr)
    n = X.shape[1]
    factor = EXPERIMENT_LOSS.factor(n)
    K0 = torch.stack([ntk(X[k], W[k:k + 1], a[k:k + 1])[0] for k in range(K)])
    marks, train_l, test_l, S, Ws, As = [], [], [], [], [], []

    def loss(Xb, yb):
        return factor * ((torch.einsum("knh,kh->kn", torch.einsum("knd,khd->knh", Xb, W).clamp_min(0), a)
                          - yb) ** 2).sum(1)

    def snapshot(step):
        marks.append(step)
        train_l.append(loss(X, y).cpu().numpy())
        test_l.append((loss(Xt, yt) / factor / Xt.shape[1]).cpu().numpy())   # test MSE (mean)
        Kt = torch.stack([ntk(X[k], W[k:k + 1], a[k:k + 1])[0] for k in range(K)])
        inner = (K0 * Kt).sum((1, 2))
        S.append((1 - inner / (K0.norm(dim=(1, 2)) * Kt.norm(dim=(1, 2)))).cpu().numpy())
        if keep_weights:
            Ws.append(W.cpu().numpy().copy())
            As.append(a.cpu().numpy().copy())

    show = steps * K >= 200_000 if progress is None else progress
    snapshot(0)
    for step in tqdm(range(1, steps + 1), disable=not show, desc="teacher-student", leave=False):
        pre = torch.einsum("knd,khd->knh", X, W)
        H = pre.clamp_min(0)
        r = 2 * factor * (torch.einsum("knh,kh->kn", H, a) - y)       # dL/df
        grad_a = torch.einsum("knh,kn->kh", H, r)
        grad_W = torch.einsum("knh,knd->khd", (pre > 0).to(dt) * r[:, :, None] * a[:, None, :], X)
        a -= lr_t[:, None] * grad_a
        W -= lr_t[:, None, None] * grad_W
        if step % record_every == 0 or step == steps:
            snapshot(step)
    steps_arr = np.asarray(marks)
    t = flow_time(steps_arr, 1.0, n, "rich_quick", trained_on=EXPERIMENT_LOSS)[:, None] * lr[None, :]
    return Run(steps_arr, t, np.stack(train_l), np.stack(test_l), np.stack(S),
               np.stack(Ws) if keep_weights else W.cpu().numpy(),
               np.stack(As) if keep_weights else a.cpu().numpy())


def teacher_alignment(W, a, teacher_w, degrees: float = 5.0):
    """Per member: the share of the student's weight ``sum_i |a_i| ||w_i||`` carried by neurons
    within ``degrees`` of some teacher direction; W (K, h, d), a (K, h), teacher_w (K, k, d)."""
    W, a, teacher_w = np.asarray(W), np.asarray(a), np.asarray(teacher_w)
    norms = np.linalg.norm(W, axis=-1)
    cos = np.einsum("khd,kjd->khj", W / norms[..., None], teacher_w).max(-1)
    weight = np.abs(a) * norms
    return (weight * (cos >= np.cos(np.radians(degrees)))).sum(-1) / weight.sum(-1)
