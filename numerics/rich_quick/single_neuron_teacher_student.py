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
and always in float64.  The training loop itself may run in float32 (``dtype``) for a large
grid of a quick look (the paper-scale configuration FIG1B_FULL trains in float64, as the released
code does): it moves S(0, t) by at most 2e-3 and the test MSE by 1e-3 relative (measured on a
small grid in tests/rich_quick/test_teacher_student_grid.py).  Runs on
``numerics.models.default_device()`` (CUDA when present).  Time is reported as the paper's flow
time via ``theory.conventions.flow_time``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import torch
from tqdm.auto import tqdm

from numerics.validation import finite_array, positive
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
        self.AB_flat = [torch.stack([A.flatten(), B.flatten()], 1) for A, B in self.AB]
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
                Kt = ntk(self.X[s], W[s, blk], a[s, blk]).flatten(1)
                AB = Kt @ self.AB_flat[s]                 # <A, K_t>, <B, K_t>: one pass over K_t
                inner = c1[blk] * AB[:, 0] + c2[blk] * AB[:, 1]
                S.append(1 - inner / (norm0[blk] * Kt.norm(dim=1)))
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


#: Fig. 1(b) at the paper's scale: D.1 (d = 100, h = 50, k = 3, n = 1000, 10,000 test points, 16
#: seeds, lr 5e-3/tau^2, tau log-spaced in [0.1, 2], delta linear in [-1, 1]) with the grid, step
#: count, checkpoints and precision of the authors' released code (allanraventos/getrichquick
#: two-layer-relu/plot_fig1b.ipynb and run_grid.py: 17 x 17 cells, np.logspace(-1, 0.3, 17),
#: 1e5 steps, checkpoints 0, 10, ..., 1e5, numpy float64).  4,624 runs.
FIG1B_FULL = dict(taus=tuple(np.logspace(-1, 0.3, 17)), deltas=tuple(np.linspace(-1, 1, 17)),
                  seeds=tuple(range(16)), d=100, h=50, k=3, n=1000, n_test=10_000, base_lr=5e-3,
                  steps=100_000, marks=(10, 100, 1000, 10_000), dtype="float64")
#: ci: the paper's d, n, h, k and test set on the grid's smallest and largest tau x three delta,
#: 2 seeds, a 4x larger step for 1/100 of the paper's flow time (the statements are settled by
#: then; the deviations are recorded in the verify test's Setup).  Mark: 1% of the run.
FIG1B_CI = dict(taus=(0.1, 2.0), deltas=(-1.0, 0.0, 1.0), seeds=(0, 1), d=100, h=50, k=3,
                n=1000, n_test=10_000, base_lr=2e-2, steps=250, marks=(2,), dtype="float64")


def fig1b_flop_per_step(cfg: dict) -> float:
    """FLOP of one GD step of one (seed, cell) run: the two (n x d) by (d x h) products, forward
    and backward, 2 n d h each (elementwise work, O(n h), is below 1%)."""
    return 4.0 * cfg["n"] * cfg["d"] * cfg["h"]


def fig1b_cost(cfg: dict) -> str:
    """Runs x steps x FLOP per step of a Fig. 1(b) configuration, as text."""
    runs = len(cfg["seeds"]) * len(cfg["taus"]) * len(cfg["deltas"])
    flop = runs * cfg["steps"] * fig1b_flop_per_step(cfg)
    return (f"{runs:,} runs x {cfg['steps']:,} steps x {fig1b_flop_per_step(cfg):.1e} FLOP = "
            f"{flop:.3g} FLOP ({cfg['dtype']})")


def fig1b_chunk(config: dict, cells, seeds) -> dict:
    """One chunk of the Fig. 1(b) sweep (``numerics.sweep`` chunk function): every (seed, cell)
    of ``seeds`` x ``cells`` (cells are (tau, delta) pairs) trained as one batched program.

    Each seed draws its own task (teacher, data, base student) from ``make_task(seed)``, the same
    in every chunk.  Returns arrays of shape (seeds, cells, records) at steps 0, ``marks`` and
    ``steps`` (GD steps at lr ``base_lr / tau^2`` on EXPERIMENT_LOSS): kernel distance S(0, t),
    test MSE and training loss."""
    cells = np.asarray(cells, dtype=float).reshape(-1, 2)
    steps = int(config["steps"])
    tasks = [make_task(int(s), d=config["d"], h=config["h"], k=config["k"], n=config["n"],
                       n_test=config["n_test"]) for s in seeds]
    run = train(tasks, cells[:, 0], cells[:, 1], lr=config["base_lr"] / cells[:, 0] ** 2,
                steps=steps, record_steps=[m for m in config["marks"] if m <= steps],
                dtype=getattr(torch, config["dtype"]))
    shape = (-1, len(seeds), len(cells))
    return {name: np.moveaxis(v.reshape(shape), 0, -1) for name, v in
            (("S", run.kernel_distance), ("test", run.test_loss), ("train", run.train_loss))}


def fig1b_steps(cfg: dict) -> np.ndarray:
    """The record steps of a Fig. 1(b) run: 0, the marks, the last step."""
    return np.union1d([0, cfg["steps"]], [m for m in cfg["marks"] if m <= cfg["steps"]])


def fig1b_sweep(cfg: dict, fraction: float = 1.0, *, out_dir=None, executor=None, address=None,
                chunk_seeds: int = 1, chunk_cells: int | None = None, progress=None):
    """Fig. 1(b) for ``cfg`` (FIG1B_CI / FIG1B_FULL) through ``numerics.sweep.run_sweep``:
    chunks of ``chunk_seeds`` seeds x ``chunk_cells`` (tau, delta) cells (default: one seed's
    whole grid, one wide network), written to ``out_dir`` as they finish (resumable), on
    ``executor`` (local, or Dask at ``address`` / $DASK_SCHEDULER_ADDRESS).

    ``fraction`` in (0, 1] runs only that share of the steps (for timing: every step costs the
    same).  Returns (steps, S, test, sweep) with S and test as (records, seeds, tau, delta)."""
    from numerics.sweep import run_sweep
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction={fraction} must lie in (0, 1]")
    run_cfg = dict(cfg, steps=max(int(round(cfg["steps"] * fraction)), 1))
    cells = [(t, d) for t in cfg["taus"] for d in cfg["deltas"]]
    sweep = run_sweep(fig1b_chunk, cells, cfg["seeds"], config=run_cfg, chunk_seeds=chunk_seeds,
                      chunk_cells=chunk_cells, out_dir=out_dir, executor=executor,
                      address=address, progress=progress, desc="Fig. 1(b) chunks")
    shape = (len(cfg["seeds"]), len(cfg["taus"]), len(cfg["deltas"]), -1)
    S, test = (np.moveaxis(sweep.arrays[k].reshape(shape), -1, 0) for k in ("S", "test"))
    return fig1b_steps(run_cfg), S, test, sweep


#: Fig. 1(a) (D.1): d = 2, h = 50, k = 3, n = 20, four (tau, delta) students of one base init.
FIG1A = dict(cells=((0.1, 0.0), (2.0, 0.0), (0.1, 1.0), (0.1, -1.0)), d=2, h=50, k=3, n=20,
             n_test=500)


def fig1a_run(seeds, lr: float, steps: int, records: int = 20):
    """The four Fig. 1(a) students for each seed's teacher, full-batch GD at ``lr`` for ``steps``
    steps (EXPERIMENT_LOSS), weights kept at ``records`` + 1 evenly spaced steps.  Returns (tasks
    per member, Run); members are seed-major."""
    c = FIG1A
    tasks = [make_task(s, d=c["d"], h=c["h"], k=c["k"], n=c["n"], n_test=c["n_test"]) for s in seeds]
    cells = np.asarray(c["cells"])
    run = train(tasks, cells[:, 0], cells[:, 1], lr=lr, steps=steps,
                record_steps=np.linspace(0, steps, records + 1).astype(int), keep_weights=True,
                progress=False)
    return [t for t in tasks for _ in cells], run


def angular_movement(W0, W1, a1):
    """Per member: the contribution-weighted mean angle (rad) between w_i(0) and w_i(T),
    weights ``|a_i(T)| ||w_i(T)||``; W (K, h, d), a (K, h)."""
    cos = np.einsum("khd,khd->kh", W0, W1) / (np.linalg.norm(W0, axis=-1) * np.linalg.norm(W1, axis=-1))
    weight = np.abs(a1) * np.linalg.norm(W1, axis=-1)
    return (np.arccos(np.clip(cos, -1, 1)) * weight).sum(-1) / weight.sum(-1)


def teacher_alignment(W, a, teacher_w, degrees: float = 5.0):
    """Per member: the share of the student's weight ``sum_i |a_i| ||w_i||`` carried by neurons
    within ``degrees`` of some teacher direction; W (K, h, d), a (K, h), teacher_w (K, k, d)."""
    W, a, teacher_w = np.asarray(W), np.asarray(a), np.asarray(teacher_w)
    norms = np.linalg.norm(W, axis=-1)
    cos = np.einsum("khd,kjd->khj", W / norms[..., None], teacher_w).max(-1)
    weight = np.abs(a) * norms
    return (weight * (cos >= np.cos(np.radians(degrees)))).sum(-1) / weight.sum(-1)
