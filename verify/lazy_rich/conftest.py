"""Fixtures of the LR- checks: each builds the cases of one check and calls a runner of
``numerics.lazy_rich`` on them (at the configuration of the test's scale where it has one,
``numerics/lazy_rich/configs.py``).  Runs are cached per configuration, so a claim's tests and its
figure share one run.  Time is t/tau (tau = 1/lr, 1/2-mean loss)."""
from functools import cache

import numpy as np
import pytest

from numerics.lazy_rich import configs, empirical, runs
from numerics.lazy_rich import experiments as xp
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import lambda_balanced_init, weights_from_product
from numerics.lazy_rich.tasks import Task, hierarchy_task, random_task
from numerics.lazy_rich.training import step_once

#: five shapes x five lambdas: the nets every closed form is checked on
SHAPES = [(4, 4), (5, 3), (3, 5), (6, 2), (2, 6)]
LAMS = [-3.0, -0.7, 0.0, 0.7, 3.0]
CONFIGS = [(ni, no, lam) for ni, no in SHAPES for lam in LAMS]


@cache
def _run(runner, config):
    return runner(config)


def _at_scale(runner, table):
    """A fixture: ``runner`` at the configuration ``table[scale]`` of the test's scale."""
    @pytest.fixture
    def run(scale):
        return _run(runner, table[scale])
    return run


def _session(runner, config):
    """A session fixture: ``runner`` at its one configuration ``config`` (the same at every scale)."""
    @pytest.fixture(scope="session")
    def run():
        return runner(config)
    return run


# ------------------------------------------------------------------------- empirical claims
framing = _at_scale(empirical.framing, configs.FRAMING)
lecun_balance = _at_scale(empirical.lecun_balance, configs.BALANCE)
architectures = _session(empirical.architectures, configs.ARCH)
architectures_alt = _session(empirical.architectures, configs.ARCH_ALT)
scale_map = _session(empirical.scale_map, configs.SCALE_MAP)
transfer = _session(empirical.transfer, configs.TRANSFER)
fine_tuning = _session(empirical.fine_tuning, configs.FINE_TUNING)


# ------------------------------------------------------------------------- flows and steps (exact claims)
@pytest.fixture(scope="session")
def gradient_step():
    """LR-Eq1: a (5,3,3) net on unwhitened inputs (P = 9, lambda 0.7) and one step of the suite's GD
    loop at lr 1e-2: (task, W1, W2, (loss before, W1 after, W2 after))."""
    task, W1, W2 = xp.problem(5, 3, 0.7, seed=1, n_samples=9)
    unwhitened = Task(task.X * np.linspace(0.5, 1.5, 5)[:, None], task.Y)
    return unwhitened, W1, W2, step_once(W1, W2, unwhitened.X, unwhitened.Y, 1e-2)


def _problem_flow(ni, no, lam, seed, **kwargs):
    """The flow of ``xp.problem`` at 9 times up to ``xp.horizon`` (S_lam,max t/tau <= 25, t/tau <= 8)."""
    task, W1, W2 = xp.problem(ni, no, lam, seed=seed, **kwargs)
    return runs.flow(task, W1, W2, lam, np.linspace(0, xp.horizon(task, lam), 9))


@pytest.fixture(scope="session")
def theorem_flows():
    """LR-Thm4.3: 25 random non-aligned nets, 9 times up to S_lam t/tau = 25."""
    return [_problem_flow(ni, no, lam, 100 + 5 * ni + no, scale=0.4) for ni, no, lam in CONFIGS]


@pytest.fixture(scope="session")
def fukumizu_flows():
    """LR-Eq7: four nets, two with lambda = 0 and Ni != No (F singular)."""
    return [_problem_flow(ni, no, lam, 11 + ni) for ni, no, lam in [(4, 4, 0.7), (5, 3, 0.0), (2, 6, 0.0), (3, 5, -2.0)]]


@pytest.fixture(scope="session")
def edge_flows():
    """LR-Thm4.3 edge cases: degenerate S~, lambda = 0 with Ni != No, a large init, a zero function."""
    W1, W2 = lambda_balanced_init(0.5, 8, 8, 8, np.random.default_rng(9), scale=0.1)
    t3, a3, b3 = xp.problem(4, 2, -1.5, seed=22, scale=3.0)
    t4 = xp.problem(3, 3, 0.0, seed=23)[0]
    O = np.linalg.qr(np.random.default_rng(1).standard_normal((3, 3)))[0]
    return {"hierarchy (degenerate S~), lambda 0.5": runs.flow(hierarchy_task(), W1, W2, 0.5, np.linspace(0, 6, 7)),
            "lambda = 0, Ni != No": runs.problem_flow(3, 5, 0.0, 21, np.linspace(0, 8, 7)),
            "init scale 3": runs.flow(t3, a3, b3, -1.5, np.linspace(0, 1.5, 7)),
            "zero function W1 = 0, W2 = sqrt2 O": runs.flow(t4, np.zeros((3, 3)), np.sqrt(2) * O, 2.0,
                                                             np.linspace(0, 6, 7))}


@pytest.fixture(scope="session")
def long_flow():
    """LR-ThmB.5: inverted funnel (2,2,5), lambda 4, to t/tau = 60."""
    return runs.problem_flow(2, 5, 4.0, 77, np.linspace(0, 60, 7))


@pytest.fixture(scope="session")
def unwhitened():
    """LR-ThmA.2: a (5,3,3) net on unwhitened inputs (Sxx != I): its flow to t/tau = 10 and one GD step."""
    task, W1, W2 = xp.problem(5, 3, 0.6, seed=12)
    tk = Task(task.X * np.random.default_rng(0).uniform(0.5, 2.0, size=(5, 1)), task.Y)
    return runs.flow(tk, W1, W2, 0.6, np.linspace(0, 10, 11)), runs.one_step(tk, W1, W2, 0.05)


@pytest.fixture(scope="session")
def aligned_flows():
    """LR-Thm5.1: task-aligned inits, shapes (5,3), (3,6), (4,3), (3,3), lambda -2, 0, 1.5, 6."""
    t = np.linspace(0, 6, 13)
    return [runs.aligned_flow(ni, no, [2.0, 1.1, 0.35], [0.05, 0.4, 1.0], lam, t, seed=k)
            for k, (ni, no, lam) in enumerate([(5, 3, -2.0), (3, 6, 0.0), (4, 3, 1.5), (3, 3, 6.0)])]


@pytest.fixture(scope="session")
def aligned_gd():
    """Fig. 3: aligned (4,3,3) inits, s0 = 1e-3, lambda -5, 0, 5, lr 2e-3, 3000 steps."""
    return runs.aligned_gd([2.0, 1.1, 0.35], np.full(3, 1e-3), (-5.0, 0.0, 5.0), lr=2e-3, steps=3000,
                           record_every=100)


@pytest.fixture(scope="session")
def recovery_flows():
    """LR-Thm5.2: five flows (square, funnels, lambda both signs and 0) to t/tau = 4."""
    return [runs.problem_flow(ni, no, lam, 70 + ni, np.linspace(0, 4, 5), scale=0.6)
            for ni, no, lam in [(4, 4, -1.3), (5, 3, 0.6), (3, 5, -2.2), (6, 2, 0.0), (2, 6, 3.0)]]


@pytest.fixture(scope="session")
def convergence_flow():
    """LR-ThmC.3: (5,3,3), lambda 1.5, to t/tau = 40."""
    return runs.problem_flow(5, 3, 1.5, 3, np.array([0.0, 40.0]))


@pytest.fixture(scope="session")
def ntk_flow():
    """LR-ThmC.5: (5,3,3), lambda -1.1, P = 7, to t/tau = 3."""
    return runs.problem_flow(5, 3, -1.1, 13, np.linspace(0, 3, 4), n_samples=7)


@pytest.fixture(scope="session")
def padded_flow():
    """LR-A3: the authors' padded init (3,4,3), Nh = 4 > Nm = 3, lambda 1.2, to t/tau = 5, and its
    padded hidden direction."""
    W1, W2, pad = xp.padded_init(3, 4, 3, [0.5, 0.3, 0.1], 1.2, seeds=(5, 3, 33))
    return runs.flow(random_task(3, 3, 6, np.random.default_rng(4)), W1, W2, 1.2, np.linspace(0, 5, 6)), pad


@pytest.fixture(scope="session")
def braun_flows():
    """LR-Claim-Weaker: a zero-balanced Braun-type net (3,4,3) and a (2,3,5) net at lambda 0.8."""
    W1, W2, _ = xp.padded_init(3, 4, 3, [0.4, 0.2, 0.05], 0.0, seeds=(11, 12, 13))
    V1, V2, _ = xp.padded_init(2, 3, 5, [0.3, 0.1], 0.8, seeds=(15, 16, 17))
    return (runs.flow(random_task(3, 3, 6, np.random.default_rng(10)), W1, W2, 0.0, np.linspace(0, 8, 7)),
            runs.flow(random_task(2, 5, 7, np.random.default_rng(14)), V1, V2, 0.8, np.linspace(0, 6, 7)))


@pytest.fixture(scope="session")
def no_invertibility_flows():
    return runs.no_invertibility_flows()


@pytest.fixture(scope="session")
def reversal_flows():
    """LR-D.2: the reversal problem's flow at lambda -1, 0, 0.3, 3 to t/tau = 10."""
    return [runs.reversal_flow(lam, np.linspace(0, 10, 11)) for lam in (-1.0, 0.0, 0.3, 3.0)]


@pytest.fixture(scope="session")
def reversal_gd():
    """Fig. 12: batched GD of the reversal problem at lambda 0, +-0.1, +-1, 10, lr 5e-3 to t/tau = 8."""
    return runs.reversal_gd((0.0, 0.1, -0.1, 1.0, -1.0, 10.0), lr=5e-3, horizon=8.0, record_every=100)


@pytest.fixture(scope="session")
def continual():
    """LR-D.1: four random tasks; per lambda -2, 0.7, 3 the chained stable closed form (60/min(|lambda|, 1)
    per task); at lambda = 2 the chained closed form (t/tau = 8 per task) and GD at lr 1e-2."""
    tasks = xp.continual_tasks()
    chains = {}
    for lam in (-2.0, 0.7, 3.0):
        W1, W2 = weights_from_product(1e-3 * np.eye(5), lam)
        chains[lam] = runs.chained(tasks, W1, W2, lam, [60 / min(abs(lam), 1.0)] * 4, solver=so.qq_stable)
    W1, W2 = weights_from_product(1e-3 * np.eye(5), 2.0)
    return (chains, runs.chained(tasks, W1, W2, 2.0, [8.0] * 4, grid=81),
            runs.continual(tasks, W1, W2, horizon=8.0, lr=1e-2))


# ------------------------------------------------------------------------- batched GD and samples
def _noise(config):
    """LR-Robust-*: input noise on (5,3,3) and weight noise on (4,4,4), (5,3,3), (2,2,6)."""
    return {"input": runs.noise(config, "input", 5, 3),
            "weight": [runs.noise(config, "weight", ni, no) for ni, no in ((4, 4), (5, 3), (2, 6))]}


gradient_descent = _at_scale(runs.gradient_descent, configs.GRADIENT_DESCENT)
hierarchy = _at_scale(runs.hierarchy, configs.HIERARCHY)
noise = _at_scale(_noise, configs.NOISE)


@pytest.fixture(scope="session")
def noise_ci():
    """Fig. 4E: the ci noise runs (shared with the ci checks)."""
    return _run(_noise, configs.NOISE["ci"])


@pytest.fixture
def moments(scale):
    """LR-ThmA.3: LeCun balances at (40, 120, 250), and the off-diagonal spread at widths x1, x2, x4."""
    config = configs.MOMENTS[scale]
    return _run(_lecun_samples, config), xp.balance_spread()[0]


def _lecun_samples(config):
    return xp.sample_balance(40, 120, 250, 1 / 40, 1 / 120, config.draws, config.seeds[0])


@pytest.fixture(scope="session")
def table1_samples():
    """LR-Tab1: 300 balances at (30, 50, 70) per initialisation, alpha1 = 1.3, alpha2 = 0.8."""
    from verify.lazy_rich.evidence import table1_variances
    return {name: xp.sample_balance(30, 50, 70, v1, v2, 300, 30 + k)
            for k, (name, (v1, v2)) in enumerate(table1_variances().items())}
