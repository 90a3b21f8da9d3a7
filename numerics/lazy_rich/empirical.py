"""Runners of the six empirical LR- claims.  Each takes its configuration
(``numerics.lazy_rich.configs``), runs it and returns a typed result with the
:class:`numerics.ran.Ran` it built from what it actually used.  Nothing here decides: the
measurements are made in ``verify/lazy_rich/evidence/``.

Time is t/tau = lr x steps (tau = 1/lr on the 1/2-mean loss); the closed forms run in the same
clock.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.configs import (
    ARCHITECTURES,
    Architectures,
    Balance,
    FineTuning,
    Framing,
    ScaleMap,
    Transfer,
)
from numerics.lazy_rich.experiments import balanced_family, fine_tuning_tasks
from numerics.lazy_rich.init import lambda_balanced_init, weights_from_product
from numerics.lazy_rich.runs import integrate, new_feature_row
from numerics.lazy_rich.tasks import Task, hierarchy_task, random_task
from numerics.lazy_rich.training import linear_ensemble, train_linear
from numerics.models import torch_threads
from numerics.ran import Ran
from numerics.train import train
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument

RELEASED_TASK = "whitened (centred, PCA) N(0,1) inputs, independent Gaussian targets"
SUITE_TASK = "whitened (QR) N(0,1) inputs, independent N(0,1) targets"
HIERARCHY = "8-item hierarchy, Eq. (188) labels, X = sqrt(8) I (whitened)"
ALG1 = "Algorithm 1: Gaussian N(0, sigma^2) layers, SVD of W2W1, random rotation, rebalanced to lambda"


def _whitening_error(tasks) -> float:
    return float(max(np.max(np.abs(t.sxx - np.eye(t.X.shape[0]))) for t in tasks))


# ------------------------------------------------------------------------------ Fig. 1B
@dataclass(frozen=True)
class FramingRun:
    """Losses of every network along GD (``trajectory.loss`` (T, K)); members ordered (seed, target
    variance, lambda, draw) = ``shape``.  ``loss_constants`` (seed, variance) is the loss floor c;
    initial and final weights are (*shape, rows, cols)."""

    trajectory: Trajectory
    shape: tuple[int, int, int, int]
    lams: tuple[float, ...]
    loss_constants: np.ndarray
    X: np.ndarray
    W1: np.ndarray
    W2: np.ndarray
    W1_end: np.ndarray
    W2_end: np.ndarray
    whitening_error: float
    ran: Ran

    def excess(self) -> np.ndarray:
        """(T, seed, variance, lambda, draw) losses above the floor c."""
        loss = self.trajectory.loss.reshape((-1,) + self.shape)
        return loss - self.loss_constants[None, :, :, None, None]


def framing(config: Framing) -> FramingRun:
    """LR-Framing (Fig. 1B, App E.3): per seed one random task and ``draws`` Algorithm-1 inits per
    lambda at one absolute scale (sigma), each trained by full-batch GD on the task at every target
    variance; all members in one batch."""
    if not isinstance(config, Framing):
        raise InvalidArgument(f"config must be a configs.Framing, got {type(config).__name__}")
    ni, nh, no = config.dims
    tasks, members = [], []
    for seed in config.seeds:
        rng = np.random.default_rng(seed)
        base = random_task(ni, no, config.n_samples, rng, centred=True)
        inits = [lambda_balanced_init(lam, ni, nh, no, rng, scale=config.init_scale)
                 for lam in config.lams for _ in range(config.draws)]
        for variance in config.target_variances:
            task = Task(base.X, np.sqrt(variance) * base.Y)
            tasks.append(task)
            members += [(task, W1, W2) for W1, W2 in inits]
    model = linear_ensemble(np.stack([m[1] for m in members]), np.stack([m[2] for m in members]))
    with torch_threads(1):
        trajectory = train(model, np.stack([m[0].X for m in members]), np.stack([m[0].Y for m in members]),
                           lr=config.lr, steps=config.steps, paper="lazy_rich",
                           record_every=config.record_every, progress=False)
    shape = (len(config.seeds), len(config.target_variances), len(config.lams), config.draws)
    weights = [np.stack([m[i] for m in members]).reshape(shape + members[0][i].shape) for i in (1, 2)]
    ends = [w.numpy().reshape(shape + w.shape[1:]) for w in (model.W1, model.W2)]
    ran = Ran.of(config, framing, dims=config.dims, n_samples=config.n_samples, task=RELEASED_TASK,
                 target_variances=config.target_variances, lambdas=config.lams, init=ALG1,
                 init_scale=config.init_scale, lr=config.lr, steps=config.steps,
                 horizon=float(trajectory.time[-1]), optimiser="full-batch GD",
                 batch_size=config.n_samples, loss="1/2-mean squared error", dtype="float64",
                 seeds=config.seeds)
    return FramingRun(trajectory, shape, config.lams,
                      np.array([t.loss_constant for t in tasks]).reshape(shape[:2]),
                      np.stack([t.X for t in tasks[::len(config.target_variances)]]), *weights, *ends,
                      _whitening_error(tasks), ran)


# ------------------------------------------------------------------------------ Fig. 1C
@dataclass(frozen=True)
class BalanceRun:
    """One LeCun balance matrix per seed (S, Nh, Nh) and, per seed, the means of ``permutations``
    draws of Nh off-diagonal entries of the same matrix (with replacement: the permutation null)."""

    balances: np.ndarray
    null_means: np.ndarray
    ran: Ran


def lecun_balance(config: Balance) -> BalanceRun:
    """LR-Fig1C: W2^T W2 - W1 W1^T of a LeCun init, W1 ~ N(0, 1/Ni), W2 ~ N(0, 1/Nh), one per seed."""
    if not isinstance(config, Balance):
        raise InvalidArgument(f"config must be a configs.Balance, got {type(config).__name__}")
    ni, nh, no = config.dims
    balances, nulls = [], []
    rows, cols = np.triu_indices(nh, 1)
    for seed in config.seeds:
        rng = np.random.default_rng(seed)
        W1 = rng.standard_normal((nh, ni)) / np.sqrt(ni)
        W2 = rng.standard_normal((no, nh)) / np.sqrt(nh)
        bal = W2.T @ W2 - W1 @ W1.T
        off = bal[rows, cols]
        picks = rng.integers(0, off.size, (config.permutations, nh))
        balances.append(bal)
        nulls.append(off[picks].mean(axis=1))
    ran = Ran.of(config, lecun_balance, dims=config.dims, init="LeCun: N(0, 1/fan-in) per layer",
                 seeds=config.seeds, draws_per_seed=1)
    return BalanceRun(np.stack(balances), np.stack(nulls), ran)


# ------------------------------------------------------------------------------ Fig. 5B/C
@dataclass(frozen=True)
class ArchitectureRun:
    """Per seed and architecture (``names``): kernel distance S(NTK(0), NTK(t)) over ``lams`` at
    convergence (``converged``), at the horizon from the closed form (``at_horizon``) and from GD
    (``gd``), all (S, A, L); the time courses ``curves`` (S, A, 3, T) at lambda = -c, 0, c on
    ``times``; ``early``, the time of the "initial lazy phase"; and the 1%-residual times of the delayed-rich sides (S, 2, len(delay_lams)), the
    inverted funnel at +lambda and the funnel at -lambda."""

    names: tuple[str, ...]
    lams: np.ndarray
    converged: np.ndarray
    at_horizon: np.ndarray
    gd: np.ndarray
    times: np.ndarray
    curves: np.ndarray
    early: float
    delays: np.ndarray
    ran: Ran
    #: |lambda| of the time courses ``curves``
    curve_lam: float = 8.0


def _kernel_distance_at(task, W1, W2, lam, times) -> np.ndarray:
    b = so.blocks(so.qq_stable(times, W1, W2, task.svd, lam), task.svd.n_in)
    return kn.kernel_distance(kn.ntk(W1, W2, task.X), kn.ntk_from_grams(b["W1tW1"], b["W2W2t"], task.X))


def _long_time(task, lam, horizon) -> float:
    spc = so.spectrum(task.svd, lam)
    return float(horizon / np.min(spc.s_lam - spc.lam_perp))


def _residual_time(task, W1, W2, lam, tol=1e-2, t_max=400.0) -> float:
    """First t/tau (on a grid of t_max/4000) at which ||W2W1 - Syx|| / ||Syx|| < tol; the grid is
    doubled until it is reached."""
    while t_max < 1e6:
        t = np.linspace(0, t_max, 4001)
        fn = so.blocks(so.qq_stable(t, W1, W2, task.svd, lam), task.svd.n_in)["W2W1"]
        below = np.linalg.norm(fn - task.syx, axis=(1, 2)) / np.linalg.norm(task.syx) < tol
        if below.any():
            return float(t[np.argmax(below)])
        t_max *= 2
    raise RuntimeError(f"the residual stays above {tol} until t/tau = 1e6 (lam={lam})")


def architectures(config: Architectures) -> ArchitectureRun:
    """LR-Sec5-Arch: per seed a random task per architecture and one Gaussian draw rebalanced to
    every lambda (Algorithm 1, B invertible), the kernel distance from the closed form (Thm B.5)
    and from batched GD."""
    if not isinstance(config, Architectures):
        raise InvalidArgument(f"config must be a configs.Architectures, got {type(config).__name__}")
    lams = np.linspace(-config.lam_max, config.lam_max, config.n_lams)
    curve_lams = (-config.curve_lam, 0.0, config.curve_lam)
    times = np.linspace(0, config.curve_horizon, 151)
    steps = int(round(config.horizon / config.lr))
    out = {k: [] for k in ("converged", "at_horizon", "gd", "curves", "delays")}
    for seed in config.seeds:
        rows = {k: [] for k in out}
        for name, ni, no in config.nets:
            rng = np.random.default_rng(seed)
            task = random_task(ni, no, config.n_samples, rng)
            family = balanced_family(task, tuple(lams) + curve_lams, (config.init_scale,), rng)[0]
            grid = family[:len(lams)]
            rows["converged"].append([float(_kernel_distance_at(task, W1, W2, lam, [_long_time(task, lam, 40.0)])[0])
                                      for lam, (W1, W2) in zip(lams, grid)])
            rows["at_horizon"].append([float(_kernel_distance_at(task, W1, W2, lam, [config.horizon])[0])
                                       for lam, (W1, W2) in zip(lams, grid)])
            gd = train_linear(np.stack([w[0] for w in grid]), np.stack([w[1] for w in grid]), task.X, task.Y,
                              lr=config.lr, steps=steps, record_every=steps)
            rows["gd"].append([float(kn.kernel_distance(kn.ntk(*grid[k], task.X),
                                                        kn.ntk(gd.records["W1"][-1, k], gd.records["W2"][-1, k], task.X)))
                               for k in range(len(lams))])
            rows["curves"].append([_kernel_distance_at(task, W1, W2, lam, times)
                                   for lam, (W1, W2) in zip(curve_lams, family[len(lams):])])
            if ni != no:
                sign = 1.0 if no > ni else -1.0
                delayed = balanced_family(task, tuple(sign * v for v in config.delay_lams), (config.init_scale,), rng)[0]
                rows["delays"].append([_residual_time(task, W1, W2, sign * v)
                                       for v, (W1, W2) in zip(config.delay_lams, delayed)])
        for k in out:
            out[k].append(rows[k])
    ran = Ran.of(config, architectures, architectures=tuple(n for n, _, _ in config.nets),
                 n_samples=config.n_samples, task=SUITE_TASK, lambda_count=config.n_lams,
                 lambda_max=config.lam_max, init=ALG1, init_scale=config.init_scale, lr=config.lr,
                 horizon=config.horizon, curve_horizon=config.curve_horizon, early=config.early,
                 dtype="float64", seeds=config.seeds)
    return ArchitectureRun(tuple(n for n, _, _ in config.nets), lams,
                           *(np.array(out[k]) for k in ("converged", "at_horizon", "gd")), times,
                           np.array(out["curves"]), config.early,
                           np.array(out["delays"]), ran, config.curve_lam)


# ------------------------------------------------------------------------------ App A.4
@dataclass(frozen=True)
class ScaleMapRun:
    """Per seed and architecture, over (absolute scale, lambda) (S, A, scales, lams): the loss at
    t = 0 and at convergence, the kernel distance S(NTK(0), NTK(oo)), and the loss constant c (S, A)."""

    names: tuple[str, ...]
    scales: np.ndarray
    lams: np.ndarray
    initial_loss: np.ndarray
    final_loss: np.ndarray
    distance: np.ndarray
    loss_constants: np.ndarray
    ran: Ran


def scale_map(config: ScaleMap) -> ScaleMapRun:
    """LR-A.4: per seed, architecture and absolute scale, one Gaussian draw at that scale rebalanced
    to every lambda (the same network function, Algorithm 1), run to convergence by the stable
    closed form (Thm B.5)."""
    if not isinstance(config, ScaleMap):
        raise InvalidArgument(f"config must be a configs.ScaleMap, got {type(config).__name__}")
    scales, lams = np.geomspace(*config.scales), np.linspace(*config.lams)
    shape = (len(config.seeds), len(ARCHITECTURES), len(scales), len(lams))
    initial, final, distance = (np.zeros(shape) for _ in range(3))
    consts = np.zeros(shape[:2])
    for i, seed in enumerate(config.seeds):
        for a, (_, ni, no) in enumerate(ARCHITECTURES):
            rng = np.random.default_rng(seed)
            task = random_task(ni, no, config.n_samples, rng)
            consts[i, a] = task.loss_constant
            family = balanced_family(task, tuple(lams), tuple(scales), rng)
            for j, scale in enumerate(scales):
                for k, (lam, (W1, W2)) in enumerate(zip(lams, family[j])):
                    end = _long_time(task, lam, config.horizon)
                    b = so.blocks(so.qq_stable([end], W1, W2, task.svd, lam)[0], ni)
                    initial[i, a, j, k] = task.loss(W2 @ W1)
                    final[i, a, j, k] = task.loss(b["W2W1"])
                    distance[i, a, j, k] = kn.kernel_distance(kn.ntk(W1, W2, task.X),
                                                              kn.ntk_from_grams(b["W1tW1"], b["W2W2t"], task.X))
    ran = Ran.of(config, scale_map, architectures=tuple(n for n, _, _ in ARCHITECTURES),
                 n_samples=config.n_samples, task=SUITE_TASK, absolute_scales=config.scales,
                 lambdas=config.lams, init=ALG1 + " (one unit draw, its function scaled by scale^2, for every "
                 "scale and lambda)",
                 training="gradient flow, stable closed form (Thm B.5)",
                 horizon=f"{config.horizon:g} / slowest rate", dtype="float64", seeds=config.seeds)
    return ScaleMapRun(tuple(n for n, _, _ in ARCHITECTURES), scales, lams, initial, final, distance,
                       consts, ran)


# ------------------------------------------------------------------------------ App D.3
@dataclass(frozen=True)
class TransferRun:
    """Per lambda: the converged network's W1 (L, 8, 8) and the new feature predicted on every item
    after training the new output row on the trained item (L, 8)."""

    task: Task
    lams: np.ndarray
    trained_item: int
    W1: np.ndarray
    predictions: np.ndarray
    ran: Ran


def transfer(config: Transfer) -> TransferRun:
    """LR-D.3: the hierarchy network converged at each lambda (W2W1 = Syx with the Thm C.3 Grams,
    through the Thm 5.2 maps), then a new output row trained by GD from 0 on the trained item alone
    (everything else frozen), read out on every item."""
    if not isinstance(config, Transfer):
        raise InvalidArgument(f"config must be a configs.Transfer, got {type(config).__name__}")
    task = hierarchy_task()
    lams = np.linspace(*config.lams)
    W1s = np.stack([weights_from_product(task.syx, lam)[0] for lam in lams])
    predictions = np.stack([new_feature_row(W1, task, config.trained_item, steps=config.row_steps)
                            for W1 in W1s])
    ran = Ran.of(config, transfer, task=HIERARCHY, label_perturbation="none", lambdas=config.lams,
                 pretraining="converged (Thm C.3 Grams, closed form)", trained_item="fish1",
                 new_row_init="zero", new_row_training="GD on the trained item alone, W1 frozen",
                 dtype="float64")
    return TransferRun(task, lams, config.trained_item, W1s, predictions, ran)


# ------------------------------------------------------------------------------ App D.4
@dataclass(frozen=True)
class FineTuningRun:
    """Excess loss after the budget from the exact solution, per task and lambda_new
    (``excess``: name -> (L,)); the not-re-balanced vs re-balanced QQ^T flows (max relative
    difference to re-balancing to lambda_init, ``same``, and to lambda_init + neighbour,
    ``neighbour``); batched GD of task T3 (``gd``, (T, L)) against the exact excess loss (``exact``)."""

    lam_news: tuple[float, ...]
    excess: dict
    same: float
    neighbour: float
    gd_trajectory: Trajectory
    gd: np.ndarray
    exact: np.ndarray
    ran: Ran


def fine_tuning(config: FineTuning) -> FineTuningRun:
    """LR-D.4: the network converged on the hierarchy (W2W1 = Syx), re-balanced to each lambda_new
    by the Thm 5.2 maps (function kept), fine-tuned on three tasks for t/tau = budget."""
    if not isinstance(config, FineTuning):
        raise InvalidArgument(f"config must be a configs.FineTuning, got {type(config).__name__}")
    base = hierarchy_task()
    tasks = fine_tuning_tasks(base)
    inits = {ln: weights_from_product(base.syx, ln) for ln in config.lam_news}
    excess = {name: np.array([task.loss(so.blocks(so.qq_exact([config.budget], *inits[ln], task.svd, ln), 8)
                                        ["W2W1"][-1]) - task.loss_constant for ln in config.lam_news])
              for name, task in tasks.items()}
    t = np.linspace(*config.identity_times)
    pre_W1, pre_W2 = _pretrained(base, config.lam_init)
    target = tasks["T1 feature added"]
    qq = {}
    for key, lam in (("kept", None), ("same", config.lam_init), ("neighbour", config.lam_init + config.neighbour)):
        W1, W2 = (pre_W1, pre_W2) if lam is None else weights_from_product(
            pre_W2 @ pre_W1, lam, R=np.linalg.qr(np.random.default_rng(3).standard_normal((8, 8)))[0])
        qq[key] = so.qq_from_weights(*integrate(target, W1, W2, t)[:2])
    rel = {k: float(np.max(np.abs(qq[k] - qq["kept"])) / np.max(np.abs(qq["kept"]))) for k in ("same", "neighbour")}
    T3 = tasks["T3 singular values x2"]
    W1s, W2s = (np.stack([inits[ln][i] for ln in config.lam_news]) for i in (0, 1))
    gd = train_linear(W1s, W2s, base.X, T3.Y, lr=config.lr, steps=config.steps, record_every=config.record_every)
    exact = np.stack([T3.loss(so.blocks(so.qq_exact(gd.time, W1s[k], W2s[k], T3.svd, ln), 8)["W2W1"])
                      for k, ln in enumerate(config.lam_news)], axis=1) - T3.loss_constant
    ran = Ran.of(config, fine_tuning, task=HIERARCHY, fine_tuning_tasks=tuple(tasks),
                 pretraining="converged (W2W1 = Syx)", rebalancing="Thm 5.2 maps (function kept)",
                 lam_news=config.lam_news, budget=config.budget, lam_init=config.lam_init,
                 training="gradient flow, exact solution (Thm 4.3)", dtype="float64")
    return FineTuningRun(config.lam_news, excess, rel["same"], rel["neighbour"], gd, gd.loss - T3.loss_constant,
                         exact, ran)


def _pretrained(base, lam_init):
    """Pre-training on the hierarchy from a lambda_init-balanced init: gradient flow to t/tau = 40."""
    rng = np.random.default_rng(4)
    W1, W2 = balanced_family(base, (lam_init,), (0.05,), rng)[0][0]
    W1t, W2t, _ = integrate(base, W1, W2, np.array([0.0, 40.0]))
    return W1t[-1], W2t[-1]
