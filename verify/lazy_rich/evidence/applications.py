"""Measurements of Sec 5-6 and App C.3, D.1-D.2: robustness to noise, continual learning, reversal."""
from __future__ import annotations


import numpy as np
import sympy as sp

from numerics.lazy_rich import solution as so
from numerics.lazy_rich.experiments import (
    reversal_problem,
)
from numerics.lazy_rich.runs import reversed_modes
from numerics.metrics import rel_err
from verify.measurement import (
    Measurement,
    exact,
    measure,
    paper,
    reading,
)
from verify.lazy_rich.evidence.errors import forgetting_error, noise_subs, noise_zs, reversal_curve, reversal_error, weight_noise_curve, weight_noise_minimiser
from verify.lazy_rich.evidence.random_init import Z_BAND


# ========================================================================= Sec 5, App C.3: robustness
def noise_level(formula, run) -> float:
    """The printed input-noise loss (Eq. 172) of a NoiseRun's task."""
    return float(sp.sympify(formula).subs(noise_subs(run)[0]))


def input_noise(formula, run) -> list[Measurement]:
    return [measure(f"z of the Monte Carlo mean vs c + sigma^2/2 ||Syx||^2 (no lambda) at lambda = {list(run.lams)}",
                    noise_zs(formula, run), "within", (-4, 4), source=Z_BAND)]


def weight_noise(printed, runs_) -> list[Measurement]:
    """LR-Robust-Param: Eq. 173 against Monte Carlo on three shapes; the minimiser of the per-mode norms."""
    mini = weight_noise_minimiser(printed.w1_sq, printed.w2_sq)
    return [
        measure("z of the Monte Carlo mean vs Eq. 173 for (4,4,4), (5,3,3), (2,2,6) at 7 lambdas",
                np.concatenate([noise_zs(printed.loss, r) for r in runs_]), "within", (-4, 4), source=Z_BAND),
        measure("Ni = No: stationary points of ||W1||^2 + ||W2||^2 in lambda", str(mini["stationary"]), "==", "[0]",
                source=paper("l.104", "under the assumption of equal input-output dimensions, networks initialized with "
                                      "weights such that , corresponding to the rich regime, converge to solutions that are "
                                      "most robust to parameter noise")),
        measure("Ni = No: min over lambda in [-20, 20] of d^2/dlambda^2 (||W1||^2 + ||W2||^2) at s~ = 1",
                mini["curvature"], ">", 0, source=exact("grid of the sympy second derivative")),
        measure("Ni != No: numeric argmin vs s~(No - Ni)/sqrt(NiNo) (derived), worst of (6,2), (2,6), (10,3)",
                mini["unequal"], "<=", 1e-6, source=reading("bounded minimisation, xatol 1e-10, of a smooth convex function"))]


def noise_against_lambda(input_formula, printed, noise_runs) -> list[Measurement]:
    """Fig. 4E: the Monte Carlo markers against the lines (Eq. 172; Eq. 173 with the per-mode norms)."""
    on_line = [(r.losses.mean(axis=1) - weight_noise_curve(printed, r.task, r.lams, r.sigma))
               / (r.losses.std(axis=1) / np.sqrt(r.losses.shape[1])) for r in noise_runs["weight"]]
    return [measure("input noise: z of the markers vs the line", noise_zs(input_formula, noise_runs["input"]), "within",
                    (-4, 4), source=Z_BAND),
            measure("weight noise: z of the markers vs the line from the per-mode norms", np.concatenate(on_line),
                    "within", (-4, 4), source=Z_BAND)]


# ========================================================================= Sec 6, App D.1-D.2
def forgetting(formula, chains, closed, sim) -> list[Measurement]:
    """LR-D.1: the forgetting formula against the chained stable closed form at three lambdas, its
    independence of lambda, and the chained closed form against GD (lambda = 2)."""
    ends = [chain.products[1::2] for chain in chains.values()]          # function at the end of each task
    err = max(forgetting_error(formula, chain.tasks, e, 5) for chain, e in zip(chains.values(), ends))
    # L_i(end of task j + 1) - L_i(end of task j) per lambda (rows), task i and step j
    forgotten = [[[t.loss(e[j + 1]) - t.loss(e[j]) for j in range(3)] for t in chain.tasks]
                 for chain, e in zip(chains.values(), ends)]
    spread = float(np.max(np.ptp(forgotten, axis=0)))
    idx = np.minimum(np.searchsorted(closed.times, sim.times - 1e-12), len(closed.times) - 1)
    dev = max(rel_err(sim.products[m], closed.products[i]) for m, i in enumerate(idx))
    converged = reading("stable closed forms run for 60/min(|lambda|, 1): transients e^-30 or less")
    return [measure("|measured forgetting - formula|, 12 (i, j -> k) per lambda at lambda = -2, 0.7, 3", err, "<=", 1e-12,
                    source=converged),
            measure("spread of the forgetting across lambda (lambda-independent)", spread, "<=", 1e-12, source=converged),
            measure("chained closed form vs GD (lambda 2, lr 1e-2, 4 x 800 steps), max rel dev of W2W1", dev, "<=", 2e-2,
                    source=reading("O(lr) at lr 1e-2"))]


def reversal(formula, flows, gd) -> list[Measurement]:
    """LR-D.2: the per-mode formula against the matrix flow; stuck at lambda = 0 (B singular), reversed
    for lambda != 0 with a half-way time growing like ln(1/lambda^2); GD on the formula."""
    def curve(lam, t):
        return reversal_curve(formula, lam, 1.0, 0.5, t)
    finals = {lam: float(curve(lam, np.array([10.0]))[0]) for lam in (-1.0, 0.0, 0.3, 3.0)}
    task0, W10, W20 = reversal_problem(0.0)
    sing = float(np.linalg.svd(so.init_variables(W10, W20, so.spectrum(task0.svd, 0.0))[0], compute_uv=False).min())
    lams = np.array([1e-2, 1e-3, 1e-4, 1e-5, 1e-6])
    tt = np.linspace(0, 40, 400001)
    slope = float(np.polyfit(np.log(1 / lams ** 2), [tt[np.argmax(curve(v, tt) >= 0.5)] for v in lams], 1)[0])
    t_gd, modes = np.asarray(gd.trajectory.time), reversed_modes(gd)
    gd_dev = max(float(np.max(np.abs(modes[:, k] - curve(v, t_gd)))) for k, v in enumerate(gd.lams))
    stuck = reading("|s| below 1e-6 at 10 tau", "App D.2 l.653", "for each reversed singular vector, the dynamics vanish to zero")
    succeed = reading("within 1e-3 of s~ at 10 tau", "Sec 6 l.111",
                      "when [lambda] is non-zero, reversal learning dynamics consistently succeed")
    return [
        measure("per-mode D.2 formula (d = -1) vs the full matrix flow, lambda -1, 0, 0.3, 3, max |ds|",
                reversal_error(formula, flows), "<=", 1e-9, source=reading("solve_ivp at rtol 1e-12")),
        measure("lambda = 0: |s(10 tau)| (stuck at the saddle)", abs(finals[0.0]), "<=", 1e-6, source=stuck),
        measure("lambda = -1, 0.3, 3: |s(10 tau) - s~| (reversed)", max(abs(v - 1) for k, v in finals.items() if k),
                "<=", 1e-3, source=succeed),
        measure("lambda = 0: smallest singular value of B (singular)", sing, "<=", 1e-12, source=reading("round-off")),
        measure("slope of the half-way time against ln(1/lambda^2), lambda 1e-2 .. 1e-6 (tau/2s~ = 0.5)", slope,
                "within", (0.49, 0.51), source=reading("5 half-way times on a 1e-4 grid")),
        measure("GD (lr 5e-3) vs the formula, max |ds|", gd_dev, "<", 2e-2, source=reading("O(lr) at lr 5e-3"))]
