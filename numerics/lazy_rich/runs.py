"""Runs behind the LR- checks of exact claims: gradient flows (``solve_ivp`` at rtol 1e-12 through
:func:`numerics.ode.integrate_flow`), batched GD, Monte Carlo samples of noisy losses and chains of
the closed form.  Each returns a typed result holding a :class:`numerics.trajectory.Trajectory`;
none decides anything.

Time is the paper's dimensionless ``t / tau`` (tau = 1/lr on the 1/2-mean loss; k GD steps at
learning rate lr are t/tau = k lr, ``theory.conventions.flow_time``).  A flow has no optimiser
steps: its trajectory counts the samples in ``steps``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.lazy_rich import solution as so
from numerics.lazy_rich._args import count, scalar, weights
from numerics.lazy_rich.configs import GradientDescent, Hierarchy, Noise
from numerics.lazy_rich.experiments import (
    aligned_problem,
    converged,
    input_noise_losses,
    invertible_b_init,
    noise_task,
    problem,
    reversal_problem,
    reversed_mode,
    weight_noise_losses,
)
from numerics.lazy_rich.init import balance, random_orthogonal, weights_from_product
from numerics.lazy_rich.tasks import Task, hierarchy_task, random_task
from numerics.lazy_rich.training import train_linear
from numerics.ode import integrate_flow
from numerics.train import descend
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument, finite_array
from theory.conventions import SUM_HALF


# ------------------------------------------------------------------------------ gradient flow
@dataclass(frozen=True)
class FlowRun:
    """A problem (task, initial W1, W2, balance lam) and its gradient flow sampled at ``trajectory.time``
    (records W1 (T, 1, Nh, Ni), W2 (T, 1, No, Nh)); ``drift``: max change of the balance."""

    task: Task
    W1: np.ndarray
    W2: np.ndarray
    lam: float
    trajectory: Trajectory
    drift: float

    @property
    def t(self) -> np.ndarray:
        return np.asarray(self.trajectory.time)

    @property
    def W1t(self) -> np.ndarray:
        return self.trajectory.records["W1"][:, 0]

    @property
    def W2t(self) -> np.ndarray:
        return self.trajectory.records["W2"][:, 0]

    @property
    def qq(self) -> np.ndarray:
        return so.qq_from_weights(self.W1t, self.W2t)


def integrate(task, W1, W2, t_eval):
    """Gradient flow of the weights (solve_ivp, rtol 1e-12) with the balance monitored:
    (W1(t), W2(t)) with a leading time axis, and the balance drift."""
    t_eval = finite_array(t_eval, "t_eval", ndim=1)
    if t_eval.size == 0 or np.any(t_eval < 0) or np.any(np.diff(t_eval) < 0):
        raise InvalidArgument("t_eval must be a non-empty, non-decreasing grid of t/tau >= 0")
    flow = integrate_flow(so.flow_rhs(task.syx, task.sxx), {"W1": W1, "W2": W2}, float(t_eval[-1]),
                          t_eval=t_eval, rtol=1e-12, atol=1e-14,
                          conserved={"balance": lambda p: balance(p["W1"], p["W2"])}, conservation_tol=1e-8)
    W1t, W2t = np.moveaxis(flow.states["W1"], -1, 0), np.moveaxis(flow.states["W2"], -1, 0)
    return W1t, W2t, flow.drift["balance"]


def flow(task, W1, W2, lam: float, t) -> FlowRun:
    """The gradient flow of (W1, W2) on ``task`` sampled at ``t`` (t/tau)."""
    if not isinstance(task, Task):
        raise InvalidArgument(f"task must be a numerics.lazy_rich.tasks.Task, got {type(task).__name__}")
    W1, W2 = weights(W1, W2)
    W1t, W2t, drift = integrate(task, W1, W2, t)
    t = np.asarray(t, dtype=float)
    loss = task.loss(W2t @ W1t)[:, None]
    trajectory = Trajectory(np.arange(t.size), t, "t/tau", loss, {"W1": W1t[:, None], "W2": W2t[:, None]})
    return FlowRun(task, np.asarray(W1), np.asarray(W2), float(lam), trajectory, float(drift))


def problem_flow(n_in: int, n_out: int, lam: float, seed: int, t, **kwargs) -> FlowRun:
    """The flow of :func:`numerics.lazy_rich.experiments.problem` (same arguments) sampled at ``t``."""
    task, W1, W2 = problem(n_in, n_out, lam, seed, **kwargs)
    return flow(task, W1, W2, lam, t)


def aligned_flow(n_in: int, n_out: int, s_task, s0, lam: float, t, seed: int) -> FlowRun:
    """The flow of a task-aligned init (:func:`numerics.lazy_rich.experiments.aligned_problem`)."""
    return flow(*aligned_problem(n_in, n_out, s_task, s0, lam, seed), lam, t)


def reversal_flow(lam: float, t) -> FlowRun:
    """The flow of the reversal problem of LR-D.2 at ``lam``."""
    return flow(*reversal_problem(lam), lam, t)


def no_invertibility_flows() -> dict:
    """LR-A.2-claims: the flows of a square lambda = 0 net with a reversed mode (B singular) and of the
    zero-function init W1 = 0, W2 = sqrt(1.5) O at lambda = 1.5, to t/tau = 6."""
    task = random_task(4, 4, 8, np.random.default_rng(20))
    U, V = task.svd.U, task.svd.V
    O = np.sqrt(1.5) * random_orthogonal(4, np.random.default_rng(21))
    t = np.linspace(0, 6, 7)
    return {"singular B": flow(task, 0.3 * V.T, U @ np.diag([-0.3, 0.3, 0.3, 0.3]), 0.0, t),
            "zero function": flow(task, np.zeros((4, 4)), O, 1.5, t)}


# ------------------------------------------------------------------------------ batched GD
@dataclass(frozen=True)
class BatchRun:
    """Batched GD of several inits on one task: initial W1s (K, ...), W2s, lambdas, the trajectory
    (records W1, W2 (T, K, ...))."""

    task: Task
    W1: np.ndarray
    W2: np.ndarray
    lams: tuple[float, ...]
    trajectory: Trajectory

    @property
    def W1t(self) -> np.ndarray:
        return self.trajectory.records["W1"]

    @property
    def W2t(self) -> np.ndarray:
        return self.trajectory.records["W2"]


def batch(task, W1s, W2s, lams, *, lr: float, steps: int, record_every: int, Y=None) -> BatchRun:
    """GD of every init of (W1s, W2s) on ``task`` (targets ``Y`` if given), one torch program."""
    if not len(W1s) or len(W1s) != len(W2s):
        raise InvalidArgument(f"W1s must hold at least one init and W2s one per init; got {len(W1s)} and "
                              f"{len(W2s)}")
    W1s, W2s = np.stack(W1s), np.stack(W2s)
    trajectory = train_linear(W1s, W2s, task.X, task.Y if Y is None else Y, lr=lr, steps=steps,
                              record_every=record_every)
    return BatchRun(task, W1s, W2s, tuple(float(v) for v in lams), trajectory)


def gradient_descent(config: GradientDescent) -> list[BatchRun]:
    """LR-Thm4.3: (5,3,3) nets on one task (P = 10), ``len(config.seeds)`` inits per lambda, one batch
    per learning rate, to t/tau = ``config.horizon``, records every t/tau = 0.25."""
    if not isinstance(config, GradientDescent):
        raise InvalidArgument(f"config must be a configs.GradientDescent, got {type(config).__name__}")
    task = problem(5, 3, 0.0, seed=200, n_samples=10)[0]
    members = [(lam, seed) for lam in config.lams for seed in config.seeds]
    inits = [problem(5, 3, lam, seed=300 + seed, scale=0.3, n_samples=10)[1:] for lam, seed in members]
    return [batch(task, [w[0] for w in inits], [w[1] for w in inits], [m[0] for m in members], lr=lr,
                  steps=int(round(config.horizon / lr)), record_every=int(round(0.25 / lr))) for lr in config.lrs]


def aligned_gd(s_task, s0, lams, *, lr: float, steps: int, record_every: int, seed: int = 40) -> BatchRun:
    """Fig. 3: batched GD of aligned (4,3,3) inits at each lambda on one task."""
    problems = [aligned_problem(4, 3, s_task, s0, lam, seed=seed) for lam in lams]
    return batch(problems[0][0], [p[1] for p in problems], [p[2] for p in problems], lams, lr=lr, steps=steps,
                 record_every=record_every)


def reversal_gd(lams, *, lr: float, horizon: float, record_every: int) -> BatchRun:
    """Fig. 12: batched GD of the LR-D.2 reversal problems."""
    problems = [reversal_problem(lam) for lam in lams]
    return batch(problems[0][0], [p[1] for p in problems], [p[2] for p in problems], lams, lr=lr,
                 steps=int(round(horizon / lr)), record_every=record_every)


def reversed_modes(run: BatchRun) -> np.ndarray:
    """(T, K): the reversed mode u~_1^T W2W1 v~_1 of each member of a :func:`reversal_gd` run."""
    return np.stack([reversed_mode(run.task, run.W1t[:, k], run.W2t[:, k]) for k in range(len(run.lams))], axis=1)


@dataclass(frozen=True)
class HierarchyRun:
    """LR-Sec5-Rep-claims: the hierarchy task, lambdas, initial and final weights of the lambda-balanced
    inits followed by the large Gaussian inits (each (K, 8, 8))."""

    task: Task
    lams: tuple[float, ...]
    W1: np.ndarray
    W2: np.ndarray
    W1_end: np.ndarray
    W2_end: np.ndarray


def hierarchy(config: Hierarchy) -> HierarchyRun:
    """Fig. 4B-D: lambda-balanced inits with B invertible at ``config.lams`` plus ``config.large_inits``
    N(0, 1) inits, batched GD on the hierarchy for ``config.steps`` steps."""
    if not isinstance(config, Hierarchy):
        raise InvalidArgument(f"config must be a configs.Hierarchy, got {type(config).__name__}")
    task = hierarchy_task()
    seed = config.seeds[0]
    W1s, W2s = map(list, zip(*[invertible_b_init(task, lam, seed=seed, scale=config.init_scale)
                               for lam in config.lams]))
    for k in range(config.large_inits):
        big = np.random.default_rng(seed + 1 + k)
        W1s.append(big.standard_normal((8, 8)))
        W2s.append(big.standard_normal((8, 8)))
    run = batch(task, W1s, W2s, config.lams, lr=config.lr, steps=config.steps, record_every=config.steps)
    return HierarchyRun(task, tuple(config.lams), run.W1, run.W2, run.W1t[-1], run.W2t[-1])


@dataclass(frozen=True)
class ContinualRun:
    """LR-D.1: GD through a task sequence: times (t/tau) and W2W1 at each record."""

    tasks: tuple[Task, ...]
    times: np.ndarray
    products: np.ndarray


def continual(tasks, W1, W2, *, horizon: float, lr: float, records: int = 8) -> ContinualRun:
    """GD through ``tasks``, ``horizon`` (t/tau) on each, restarting from the last weights."""
    if not len(tasks) or not all(isinstance(t, Task) for t in tasks):
        raise InvalidArgument("tasks must be a non-empty sequence of numerics.lazy_rich.tasks.Task")
    W1, W2 = weights(W1, W2)
    horizon, lr = scalar(horizon, "horizon", positive=True), scalar(lr, "lr", positive=True)
    steps = count(int(round(horizon / lr)), "horizon / lr")
    count(records, "records")
    if steps % records:
        raise InvalidArgument(f"records={records} must divide the {steps} steps per task")
    sims, w1, w2 = [], W1[None], W2[None]
    for task in tasks:
        trajectory = train_linear(w1, w2, task.X, task.Y, lr=lr, steps=steps, record_every=steps // records)
        sims.append(trajectory.records["W2"][:, 0] @ trajectory.records["W1"][:, 0])
        w1, w2 = trajectory.records["W1"][-1], trajectory.records["W2"][-1]
    t = np.concatenate([k * horizon + np.linspace(0, horizon, records + 1) for k in range(len(tasks))])
    return ContinualRun(tuple(tasks), t, np.concatenate(sims))


def chained(tasks, W1, W2, lam: float, durations, grid=None, solver=so.qq_exact) -> ContinualRun:
    """The closed form along a task sequence, restarted at each switch through the Thm 5.2 weights
    (QQ^T determines the dynamics; R is irrelevant): W2W1 on ``grid`` points per task (2: its ends)."""
    if len(tasks) != len(durations):
        raise InvalidArgument(f"durations has {len(durations)} entries for {len(tasks)} tasks")
    for T in durations:
        scalar(T, "durations", positive=True)
    products, times, t0 = [], [], 0.0
    for task, T in zip(tasks, durations):
        t = np.linspace(0, T, grid or 2)
        fn = so.blocks(solver(t, W1, W2, task.svd, lam), W1.shape[1])["W2W1"]
        products.append(fn)
        times.append(t0 + t)
        t0 += T
        W1, W2 = weights_from_product(fn[-1], lam)
    return ContinualRun(tuple(tasks), np.concatenate(times), np.concatenate(products))


def new_feature_row(W1, task, item: int = 0, y_new: float = 1.0, steps: int = 200) -> np.ndarray:
    """LR-D.3: a new output row w trained by GD from w = 0 on ``item`` alone (W1 frozen, lr
    0.5/|h|^2), read out on every item: w W1 X."""
    W1 = finite_array(W1, "W1", ndim=2)
    if not isinstance(task, Task):
        raise InvalidArgument(f"task must be a numerics.lazy_rich.tasks.Task, got {type(task).__name__}")
    if isinstance(item, bool) or int(item) != item or not 0 <= item < task.n_samples:
        raise InvalidArgument(f"item={item!r} must index one of the {task.n_samples} items")
    steps, y_new = count(steps, "steps"), scalar(y_new, "y_new")
    h0 = W1 @ task.X[:, int(item)]
    if not h0 @ h0 > 0:
        raise InvalidArgument(f"W1 maps item {item} to zero hidden activity: no output row can learn it")
    w = np.zeros(W1.shape[0])

    def step(h, y, lr, loss):
        nonlocal w
        w -= lr * (w @ h - y) * h
    # the 1/2-squared error of one item (the loop of numerics.train.descend)
    descend(step, lambda h, y, loss: np.atleast_1d(loss.factor(1) * (w @ h - y) ** 2), h0, y_new,
            lr=0.5 / (h0 @ h0), loss=SUM_HALF, steps=steps, record_every=steps)
    return w @ W1 @ task.X


def one_step(task, W1, W2, lr: float) -> tuple[np.ndarray, np.ndarray]:
    """One full-batch GD step on the 1/2-mean loss (any Sxx): (W1, W2) after it."""
    W1, W2 = weights(W1, W2)
    lr = scalar(lr, "lr", positive=True)
    E = task.syx - W2 @ W1 @ task.sxx
    return W1 + lr * W2.T @ E, W2 + lr * E @ W1.T


# ------------------------------------------------------------------------------ Monte Carlo
@dataclass(frozen=True)
class NoiseRun:
    """LR-Robust-Input / -Param: the task, lambdas, the converged nets (W2W1 = Syx) and the sampled
    noisy 1/2-mean losses (L, draws) under ``kind`` noise of s.d. ``sigma``."""

    kind: str
    task: Task
    lams: tuple[float, ...]
    W1: tuple[np.ndarray, ...]
    W2: tuple[np.ndarray, ...]
    sigma: float
    losses: np.ndarray


def noise(config: Noise, kind: str, n_in: int, n_out: int) -> NoiseRun:
    """Monte Carlo of the noisy loss of a converged net at each lambda of ``config.lams``: ``kind``
    'input' (X + sigma N(0, 1)) or 'weight' (every weight + sigma N(0, 1))."""
    if kind not in ("input", "weight"):
        raise InvalidArgument(f"kind={kind!r} must be 'input' or 'weight'")
    if not isinstance(config, Noise):
        raise InvalidArgument(f"config must be a configs.Noise, got {type(config).__name__}")
    task, seed, n = noise_task(n_in, n_out), config.seeds[0], len(config.lams)
    nets = [converged(task, lam, k) for k, lam in enumerate(config.lams)]
    if kind == "input":
        sigma = config.sigma_input
        losses = [input_noise_losses(task, W1, W2, sigma, config.draws, seed=seed + k) for k, (W1, W2) in enumerate(nets)]
    else:
        sigma = config.sigma_weight
        losses = [weight_noise_losses(task, W1, W2, sigma, config.draws, seed=seed + n + k)
                  for k, (W1, W2) in enumerate(nets)]
    return NoiseRun(kind, task, tuple(config.lams), tuple(w[0] for w in nets), tuple(w[1] for w in nets), sigma,
                    np.stack(losses))
