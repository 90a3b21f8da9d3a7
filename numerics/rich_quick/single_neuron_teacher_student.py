"""Batched teacher-student training of two-layer bias-free ReLU networks (rich_quick Fig. 1,
App D.1): ``f(x) = sum_i a_i relu(w_i^T x)``, a whole (seed x (tau, delta)) grid in one program.

Initialisation (D.1): a symmetrised balanced base (``w_i ~ Unif(S^{d-1})``, ``a_i = +-1``, second
half copies ``w`` and flips ``a`` so that ``f = 0``), then ``w_i -> w_i tau/alpha`` and
``a_i -> a_i tau alpha`` with ``alpha^2 = (delta/tau^2 + sqrt(delta^2/tau^4 + 4))/2`` so that every
neuron has ``a_i^2 - ||w_i||^2 = delta``.  Training: full-batch GD with one learning rate per grid
point on ``theory.rich_quick.conventions_rich_quick.EXPERIMENT_LOSS``.

Why it is fast: a seed's grid points share their inputs (D.1 reuses the seed's data over the whole
grid), so the G students of one seed are one wide network of G*h neurons and a step is two GEMMs
per seed, batched over seeds; gradients are written out (no autograd) with the learning rate folded
into the residual, and both come from one product ``(relu' * r)^T X`` (in place, few passes over
the (n, G h) activations, which bound the CPU step); diagnostics (losses, the kernel distance) are computed only at ``record_steps``
and always in float64.  The training loop itself may run in float32 (``dtype``) for the paper-scale
grid: it moves S(0, t) by at most 2e-3 and the test MSE by 1e-3 relative (measured on the ci grid in
tests/rich_quick/test_teacher_student_grid.py).  Runs on
``numerics.models.default_device()`` (CUDA when present).  Time is reported as the paper's flow
time via ``theory.conventions.flow_time``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import torch
from tqdm.auto import tqdm

from numerics.checks import finite_array, positive
from numerics.models import default_device, torch_threads
from theory.conventions import flow_time
from theory.rich_quick.conventions_rich_quick import EXPERIMENT_LOSS

F64 = torch.float64


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
    """Records at ``steps`` (T,): flow times (T, K), per member (K = seeds x grid, seed-major)
    losses and kernel distance (T, K); ``seconds``: wall time of the GD loop and of the records."""

    steps: np.ndarray
    t: np.ndarray
    train_loss: np.ndarray
    test_loss: np.ndarray
    kernel_distance: np.ndarray
    W: np.ndarray = field(repr=False)     # (T, K, h, d) when kept, else final (K, h, d)
    a: np.ndarray = field(repr=False)
    seconds: dict = field(default_factory=dict)


def ntk(X, W, a):
    """Unweighted NTK (single learning rate) ``H H^T + (X X^T) * (D diag(a^2) D^T)``, batched:
    X (n, d), W (K, h, d), a (K, h) -> (K, n, n)."""
    pre = torch.einsum("nd,khd->knh", X, W)
    H, D = pre.clamp_min(0), (pre > 0).to(X.dtype)
    return H @ H.transpose(1, 2) + (X @ X.T)[None] * ((D * a[:, None, :] ** 2) @ D.transpose(1, 2))


def train(tasks, taus, deltas, *, lr, steps: int, record_steps, keep_weights=False,
          dtype=F64, progress=None) -> Run:
    """Train every (task, (tau, delta)) student: ``tasks`` one per seed, ``taus``, ``deltas``,
    ``lr`` arrays (G,) of the grid shared by all seeds; members are ordered seed-major.
    ``record_steps``: the steps (0 and ``steps`` included automatically) at which losses, the
    kernel distance S(0, t) and (with ``keep_weights``) the weights are recorded."""
    taus, deltas = positive(taus, "taus"), finite_array(deltas, "deltas")
    if taus.ndim != 1 or deltas.shape != taus.shape:
        raise ValueError(f"taus {taus.shape} and deltas {deltas.shape} must be equal 1-d grids")
    lr = positive(np.broadcast_to(lr, taus.shape), "lr")
    if int(steps) != steps or steps < 1:
        raise ValueError(f"steps={steps!r} must be a positive integer")
    marks = np.union1d(np.asarray(record_steps, dtype=int), [0, steps])
    if marks.min() < 0 or marks.max() > steps:
        raise ValueError(f"record_steps must lie in [0, steps={steps}]")
    if dtype not in (torch.float32, F64):
        raise TypeError(f"dtype={dtype} must be torch.float32 or torch.float64")
    small = (default_device().type == "cpu"
             and tasks[0].X.shape[0] * len(taus) * tasks[0].base_w.shape[0] < 1e6)
    with torch_threads(1 if small else None):  # small batched tensors: threading overhead dominates
        return _train(tasks, taus, deltas, lr, int(steps), marks, keep_weights, dtype, progress)


class _Diagnostics:
    """Losses and S(0, t) of every member in float64, one seed and a block of grid points at a
    time (bounds the memory of the (G, n, n) kernels and of the test predictions).

    K0 is not stored per member: scaling a base student by ``w -> s_w w``, ``a -> s_a a``
    (``s_w > 0`` keeps the activation pattern D) gives ``K0 = s_w^2 A + s_a^2 B`` with the seed's
    ``A = H H^T`` and ``B = (X X^T) * (D diag(a^2) D^T)`` of the base student (``ntk``'s two terms)."""

    BLOCK = 24

    def __init__(self, tasks, s_w, s_a, dev):
        T = lambda v: torch.as_tensor(v, dtype=F64, device=dev)  # noqa: E731
        self.X = [T(t.X) for t in tasks]
        self.y = [T(t.y) for t in tasks]
        self.Xt = [T(t.X_test) for t in tasks]
        self.yt = [T(t.y_test) for t in tasks]
        self.c = T(s_w ** 2), T(s_a ** 2)                                  # (G,) each
        self.AB = []
        for X, t in zip(self.X, tasks):
            A = ntk(X, T(t.base_w)[None], torch.zeros(1, len(t.base_a), dtype=F64, device=dev))[0]
            self.AB.append((A, ntk(X, T(t.base_w)[None], T(t.base_a)[None])[0] - A))
        self.factor = EXPERIMENT_LOSS.factor(tasks[0].X.shape[0])

    def __call__(self, W, a):
        W, a = W.to(F64), a.to(F64)
        train_l, test_l, S = [], [], []
        c1, c2 = self.c
        for s, (A, B) in enumerate(self.AB):
            train_l.append(self.factor * ((_predict(self.X[s], W[s], a[s]) - self.y[s][:, None]) ** 2).sum(0))
            test_l.append(((_predict(self.Xt[s], W[s], a[s]) - self.yt[s][:, None]) ** 2).mean(0))
            norm0 = (c1 ** 2 * (A * A).sum() + 2 * c1 * c2 * (A * B).sum() + c2 ** 2 * (B * B).sum()).sqrt()
            for g in range(0, W.shape[1], self.BLOCK):
                blk = slice(g, g + self.BLOCK)
                Kt = ntk(self.X[s], W[s, blk], a[s, blk])
                inner = c1[blk] * (A * Kt).sum((1, 2)) + c2[blk] * (B * Kt).sum((1, 2))
                S.append(1 - inner / (norm0[blk] * Kt.norm(dim=(1, 2))))
        return [torch.cat(v).cpu().numpy() for v in (train_l, test_l, S)]


def _predict(X, W, a):
    """X (n, d), W (G, h, d), a (G, h) -> (n, G)."""
    return torch.einsum("gnh,gh->ng", torch.einsum("nd,ghd->gnh", X, W).clamp_min(0), a)


def _train(tasks, taus, deltas, lr, steps, marks, keep_weights, dtype, progress):
    S_, G = len(tasks), len(taus)
    h, d = tasks[0].base_w.shape
    n = tasks[0].X.shape[0]
    dev = default_device()
    alpha = geometry_alpha(taus, deltas)
    T = lambda v: torch.as_tensor(np.asarray(v), dtype=dtype, device=dev)  # noqa: E731
    W = T(np.stack([t.base_w for t in tasks])[:, None] * (taus / alpha)[None, :, None, None])   # (S, G, h, d)
    a = T(np.stack([t.base_a for t in tasks])[:, None] * (taus * alpha)[None, :, None])        # (S, G, h)
    diag = _Diagnostics(tasks, taus / alpha, taus * alpha, dev)
    X, y = T(np.stack([t.X for t in tasks])), T(np.stack([t.y for t in tasks]))                # (S, n, d), (S, n)
    W = W.reshape(S_, G * h, d)            # the seed's students side by side: one wide network
    factor = EXPERIMENT_LOSS.factor(n)
    step_r = T(2 * factor * lr)            # dL/df with the learning rate folded in, per grid point
    records = {k: [] for k in ("train", "test", "S", "W", "a")}
    seconds = {"loop": 0.0, "records": 0.0}

    def snapshot():
        t0 = time.perf_counter()
        for k, v in zip(("train", "test", "S"), diag(W.reshape(S_, G, h, d), a)):
            records[k].append(v)
        if keep_weights:
            records["W"].append(W.reshape(S_ * G, h, d).to(F64, copy=True).cpu().numpy())
            records["a"].append(a.reshape(S_ * G, h).to(F64, copy=True).cpu().numpy())
        seconds["records"] += time.perf_counter() - t0

    show = steps * S_ * G * n * h * d >= 1e10 if progress is None else progress
    bar = tqdm(total=steps, disable=not show, desc="teacher-student grid", leave=False)
    done = 0
    with torch.no_grad():
        snapshot()
        for mark in marks[1:]:
            t0 = time.perf_counter()
            for _ in range(mark - done):
                H = torch.bmm(X, W.transpose(1, 2)).clamp_min_(0)                     # (S, n, G h)
                f = (H.view(S_, n, G, 1, h) @ a.view(S_, 1, G, h, 1)).view(S_, n, G)
                r = (f - y[:, :, None]) * step_r                                     # lr * dL/df
                # relu'(pre) * r in place of H; then P = (relu' r)^T X gives both gradients:
                # lr dL/dW = a P and lr dL/da = <w, P> (since relu(pre) = relu'(pre) w.x)
                P = torch.bmm(H.sign_().view(S_, n, G, h).mul_(r[..., None]).view(S_, n, G * h)
                              .transpose(1, 2), X)                                   # (S, G h, d)
                grad_a = (W * P).sum(-1).view(S_, G, h)
                W -= a.view(S_, G * h, 1) * P
                a -= grad_a
            if dev.type == "cuda":
                torch.cuda.synchronize()
            seconds["loop"] += time.perf_counter() - t0
            bar.update(mark - done)
            done = mark
            snapshot()
    bar.close()
    t = flow_time(marks, 1.0, n, "rich_quick", trained_on=EXPERIMENT_LOSS)[:, None] * np.tile(lr, S_)[None, :]
    final_W, final_a = W.reshape(S_ * G, h, d).to(F64).cpu().numpy(), a.reshape(S_ * G, h).to(F64).cpu().numpy()
    return Run(marks, t, np.stack(records["train"]), np.stack(records["test"]), np.stack(records["S"]),
               np.stack(records["W"]) if keep_weights else final_W,
               np.stack(records["a"]) if keep_weights else final_a, seconds)


#: Fig. 1(b) at the paper's scale (D.1): d = 100, h = 50, k = 3, n = 1000, 10,000 test points,
#: 16 seeds, lr 5e-3/tau^2, 1e5 steps (inferred from Fig. 10, catalogue E35); grid resolution is
#: not printed, 8 log-spaced tau x 9 linear delta.  float32 training (tolerance: module docstring).
FIG1B_FULL = dict(seeds=tuple(range(16)), taus=tuple(np.geomspace(0.1, 2.0, 8)),
                  deltas=tuple(np.linspace(-1, 1, 9)), d=100, n=1000, n_test=10_000, steps=100_000,
                  dtype="float32")
#: ci reduction: d = 10, n = 100, 2 seeds, 3 x 3 grid, 3000 steps, float64.
FIG1B_CI = dict(seeds=(0, 1), taus=(0.1, 0.45, 2.0), deltas=(-1.0, 0.0, 1.0), d=10, n=100,
                n_test=1000, steps=3000, dtype="float64")


def fig1b_marks(steps: int) -> np.ndarray:
    """Fig. 1(b)'s record steps after step 0: 1% of training (the "rises fastest" statement) and 20
    log-spaced steps up to the end (the loss and S curves are smooth on a log clock)."""
    return np.unique(np.r_[steps // 100, np.geomspace(1, steps, 20).astype(int)])


def fig1b_sweep(cfg: dict, fraction: float = 1.0, progress=None):
    """Fig. 1(b) for ``cfg`` (FIG1B_CI / FIG1B_FULL), all seeds x grid points as one program.

    ``fraction`` in (0, 1] runs only that share of the steps (for timing: the GD loop costs the
    same per step).  Records at step 0 and ``fig1b_marks``.  Returns (run, S, test) with S and test as
    (T, seeds, tau, delta)."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction={fraction} must lie in (0, 1]")
    taus, deltas = np.asarray(cfg["taus"]), np.asarray(cfg["deltas"])
    tg, dg = (g.ravel() for g in np.meshgrid(taus, deltas, indexing="ij"))
    steps = max(int(round(cfg["steps"] * fraction)), 1)
    tasks = [make_task(s, d=cfg["d"], h=50, k=3, n=cfg["n"], n_test=cfg["n_test"]) for s in cfg["seeds"]]
    marks = fig1b_marks(cfg["steps"])
    run = train(tasks, tg, dg, lr=5e-3 / tg ** 2, steps=steps, record_steps=marks[marks <= steps],
                dtype=getattr(torch, cfg["dtype"]), progress=progress)
    shape = (-1, len(cfg["seeds"]), len(taus), len(deltas))
    return run, run.kernel_distance.reshape(shape), run.test_loss.reshape(shape)


def teacher_alignment(W, a, teacher_w, degrees: float = 5.0):
    """Per member: the share of the student's weight ``sum_i |a_i| ||w_i||`` carried by neurons
    within ``degrees`` of some teacher direction; W (K, h, d), a (K, h), teacher_w (K, k, d)."""
    W, a, teacher_w = np.asarray(W), np.asarray(a), np.asarray(teacher_w)
    norms = np.linalg.norm(W, axis=-1)
    cos = np.einsum("khd,kjd->khj", W / norms[..., None], teacher_w).max(-1)
    weight = np.abs(a) * norms
    return (weight * (cos >= np.cos(np.radians(degrees)))).sum(-1) / weight.sum(-1)
