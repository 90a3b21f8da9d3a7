"""Applications (Sec 6, App D): continual learning (LR-D.1), reversal learning (LR-D.2), transfer of
a new feature (LR-D.3), fine-tuning after re-balancing (LR-D.4) -- computed from the exact solution
and checked against simulation.  Time is t/tau = lr x steps (tau = 1/lr, 1/2-mean loss)."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp

from numerics.lazy_rich import comparisons as cmp
from numerics.lazy_rich import experiments as xp
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import weights_from_product
from numerics.lazy_rich.tasks import ITEMS, hierarchy_task
from numerics.metrics import rel_err
from theory.lazy_rich import applications as ap
from theory.lazy_rich import symbols as sy
from theory.registry import REGISTRY
from verify.lazy_rich import evidence, figures
from verify.measurement import paper, reading


@pytest.mark.claim("LR-D.1")
def test_forgetting_is_set_by_task_similarity(claim, report_figure):
    tasks = xp.continual_tasks()
    forget = REGISTRY["LR-D.1"].printed
    err_formula, finals = 0.0, {}
    for lam in (-2.0, 0.7, 3.0):
        W1, W2 = weights_from_product(1e-3 * np.eye(5), lam)
        _, fn = xp.chained_function(tasks, W1, W2, lam, [60 / min(abs(lam), 1.0)] * 4, solver=so.qq_stable)
        ends = fn[1::2]                                     # function at the end of each task
        err_formula = max(err_formula, cmp.forgetting_error(forget, tasks, ends, 5))
        for i in range(4):
            for j in range(3):
                finals.setdefault((i, j), []).append(tasks[i].loss(ends[j + 1]) - tasks[i].loss(ends[j]))
    spread = max(max(v) - min(v) for v in finals.values())
    lam, T, lr = 2.0, 8.0, 1e-2
    W1, W2 = weights_from_product(1e-3 * np.eye(5), lam)
    t_th, fn_th = xp.chained_function(tasks, W1, W2, lam, [T] * 4, grid=81)
    t_sim, fn_sim = xp.continual_gd(tasks, W1, W2, T, lr)
    idx = np.minimum(np.searchsorted(t_th, t_sim - 1e-12), len(t_th) - 1)
    dev = max(rel_err(fn_sim[m], fn_th[i]) for m, i in enumerate(idx))
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for i, task in enumerate(tasks):
        ax.plot(t_th, task.loss(fn_th), color=f"C{i}", label=f"task {i + 1} theory")
        ax.plot(t_sim, task.loss(fn_sim), "o", ms=3, color=f"C{i}", label=f"task {i + 1} GD" if i == 0 else None)
    ax.set_xlabel("t / tau (tasks switch every 8)")
    ax.set_ylabel("loss of each task")
    ax.legend(fontsize=6, ncol=2)
    report_figure(fig, "Continual learning on 4 random tasks (5,5,5), P = 25, lambda = 2: losses of all tasks from the "
                       "chained exact solution (lines) and GD, lr 1e-2 (markers). Training on a task overwrites the others; "
                       "the final forgetting is 1/2(||S_k - S_i||^2 - ||S_j - S_i||^2) for every lambda.")
    converged = reading("stable closed forms run for 60/min(|lambda|, 1): transients e^-30 or less")
    claim.holds(
        claim.measure("|measured forgetting - formula|, 12 (i, j -> k) per lambda at lambda = -2, 0.7, 3", err_formula,
                      "<=", 1e-12, source=converged),
        claim.measure("spread of the forgetting across lambda (lambda-independent)", spread, "<=", 1e-12, source=converged),
        claim.measure("chained closed form vs GD (lambda 2, lr 1e-2, 4 x 800 steps), max rel dev of W2W1", dev, "<=", 2e-2,
                      source=reading("O(lr) at lr 1e-2")))


@pytest.mark.claim("LR-D.2")
def test_reversal_learning_needs_nonzero_lambda(claim, report_figure):
    formula = REGISTRY["LR-D.2"].printed

    def curve(lam, t):
        return cmp.reversal_curve(formula, lam, 1.0, 0.5, t)
    finals = {lam: float(curve(lam, np.array([10.0]))[0]) for lam in (-1.0, 0.0, 0.3, 3.0)}
    task0, W10, W20 = xp.reversal_problem(0.0)
    sing = float(np.linalg.svd(so.init_variables(W10, W20, so.spectrum(task0.svd, 0.0))[0], compute_uv=False).min())
    lams = np.array([1e-2, 1e-3, 1e-4, 1e-5, 1e-6])
    tt = np.linspace(0, 40, 400001)
    halves = [tt[np.argmax(curve(v, tt) >= 0.5)] for v in lams]
    slope = float(np.polyfit(np.log(1 / lams ** 2), halves, 1)[0])
    fig_lams = (0.0, 0.1, -0.1, 1.0, -1.0, 10.0)
    t_gd, modes = xp.reversal_gd(fig_lams, lr=5e-3, T=8.0, every=100)
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    tf = np.linspace(0, 8.0, 300)
    gd_dev = 0.0
    for k, v in enumerate(fig_lams):
        ax.plot(tf, curve(v, tf), color=f"C{k}", label=f"lambda={v:g}")
        ax.plot(t_gd, modes[:, k], "o", ms=3, color=f"C{k}")
        gd_dev = max(gd_dev, float(np.max(np.abs(modes[:, k] - curve(v, t_gd)))))
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xlabel("t / tau")
    ax.set_ylabel("reversed mode u~_1^T W2W1 v~_1")
    ax.legend(fontsize=7)
    report_figure(fig, "Reversal learning (3,3,3), s~ = 1, s(0) = -0.5: the exact per-mode solution (lines) and batched GD, "
                       "lr 5e-3 (markers). lambda = 0 sits on the saddle at 0; any lambda != 0 reverses, faster for larger "
                       "|lambda|; +lambda and -lambda coincide (aligned square net: lambda enters through lambda^2).")
    stated = paper("L111", "reversal learning")
    claim.holds(
        claim.measure("per-mode D.2 formula (d = -1) vs the full matrix flow, lambda -1, 0, 0.3, 3, max |ds|",
                      cmp.reversal_error(formula), "<=", 1e-9, source=reading("solve_ivp at rtol 1e-12")),
        claim.measure("lambda = 0: |s(10 tau)| (stuck at the saddle)", abs(finals[0.0]), "<=", 1e-6, source=stated),
        claim.measure("lambda = -1, 0.3, 3: |s(10 tau) - s~| (reversed)", max(abs(v - 1) for k, v in finals.items() if k),
                      "<=", 1e-3, source=stated),
        claim.measure("lambda = 0: smallest singular value of B (singular)", sing, "<=", 1e-12, source=reading("round-off")),
        claim.measure("slope of the half-way time against ln(1/lambda^2), lambda 1e-2 .. 1e-6 (tau/2s~ = 0.5)", slope,
                      "within", (0.49, 0.51), source=reading("5 half-way times on a 1e-4 grid")),
        claim.measure("GD (lr 5e-3) vs the formula, max |ds|", gd_dev, "<", 2e-2, source=reading("O(lr) at lr 5e-3")))


@pytest.mark.claim("LR-D.3")
def test_transfer_of_a_new_feature_improves_with_lambda(claim, report_figure, transfer):
    claim.reproduced(*evidence.transfer(transfer, REGISTRY["LR-D.3"].printed), setup=evidence.transfer_setup(transfer))
    report_figure(*figures.transfer(transfer, evidence.TRUTHS))


@pytest.mark.claim("LR-D.4")
def test_fine_tuning_after_rebalancing(claim, report_figure, fine_tuning):
    claim.reproduced(*evidence.fine_tuning(fine_tuning), setup=evidence.fine_tuning_setup(fine_tuning))
    report_figure(*figures.fine_tuning(fine_tuning))
