"""Robustness of the converged network to noise (Sec 5 l.100-104, App C.3; Fig. 4E)."""
import numpy as np
import pytest
import sympy as sp
from scipy.optimize import minimize_scalar

from numerics.lazy_rich.init import lambda_balanced_init
from numerics.lazy_rich.tasks import random_task
from theory.lazy_rich import robustness as rb
from theory.lazy_rich import symbols as sy
from theory.registry import REGISTRY
from verify.lazy_rich import checks as ch

DRAWS = 20000


def converged(task, lam, seed):
    """A converged lambda-balanced net: W2W1 = Syx (Alg. 1 from Syx; Thm C.3 Grams)."""
    n_in, n_out = task.svd.n_in, task.svd.n_out
    return lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, np.random.default_rng(seed), syx=task.syx)


@pytest.mark.claim("LR-Robust-Input")
def test_input_noise_loss_is_independent_of_lambda(claim):
    task = random_task(5, 3, 12, np.random.default_rng(0))
    sigma = 0.3
    subs = {rb.c: task.loss_constant, rb.sigma: sigma, rb.norm_fn: float(np.sum(task.syx ** 2))}
    predicted = float(REGISTRY["LR-Robust-Input"].printed.subs(subs))
    z = []
    for k, lam in enumerate((-3.0, 0.0, 3.0)):
        W1, W2 = converged(task, lam, k)
        noise = np.random.default_rng(10 + k).standard_normal((DRAWS,) + task.X.shape)
        err = W2 @ W1 @ (task.X + sigma * noise) - task.Y
        losses = 0.5 * np.sum(err ** 2, axis=(1, 2)) / task.n_samples
        z.append(ch.noise_z(REGISTRY["LR-Robust-Input"].printed, subs, losses))
    # CLT: |z| <= 4 standard errors for each of the three lambdas (2e4 draws each, seeds 10-12).
    claim.holds(max(abs(v) for v in z) <= 4,
                f"(5,3,3), P = 12, sigma = {sigma}: predicted E[L] = c + sigma^2/2 ||Syx||^2 = {predicted:.5f} (no lambda); "
                f"Monte Carlo ({DRAWS} draws) at lambda = -3, 0, 3 differs by z = {np.round(z, 2).tolist()} standard errors (<= 4)")


@pytest.mark.claim("LR-Robust-Param")
def test_weight_noise_loss_is_minimal_at_lambda_zero(claim):
    weight_noise, m1, m2 = REGISTRY["LR-Robust-Param"].printed
    task = random_task(4, 4, 9, np.random.default_rng(1))
    sigma = 0.1
    z = []
    for k, lam in enumerate((-2.0, 0.0, 2.0)):
        W1, W2 = converged(task, lam, k)
        rng = np.random.default_rng(20 + k)
        A = W1 + sigma * rng.standard_normal((DRAWS,) + W1.shape)
        B = W2 + sigma * rng.standard_normal((DRAWS,) + W2.shape)
        losses = 0.5 * np.sum((B @ A @ task.X - task.Y) ** 2, axis=(1, 2)) / task.n_samples
        z.append(ch.noise_z(weight_noise, {rb.loss_clean: task.loss(W2 @ W1), rb.sigma: sigma, sy.n_in: 4, sy.n_hid: 4,
                                           sy.n_out: 4, rb.w1_sq: np.sum(W1 ** 2), rb.w2_sq: np.sum(W2 ** 2)}, losses))
    # per-mode norms (Eqs. 174-175) and the unique minimiser for Ni = No
    total = sp.simplify(m1 + m2)
    stationary = sp.solve(sp.diff(total, sy.lam), sy.lam)
    convex = sp.simplify(sp.diff(total, sy.lam, 2)).subs({sy.s: 1}).is_positive
    # Ni != No with equal singular values: lambda* = s (No - Ni)/sqrt(Ni No) (derived), checked numerically
    star = {}
    for ni, no in ((6, 2), (2, 6), (10, 3)):
        m = min(ni, no)
        f = sp.lambdify(sy.lam, m * (no * m1 + ni * m2).subs(sy.s, 0.7), "numpy")
        star[(ni, no)] = (minimize_scalar(f, bounds=(-20, 20), method="bounded", options={"xatol": 1e-10}).x,
                          0.7 * (no - ni) / np.sqrt(ni * no))
    unequal = max(abs(a - b) for a, b in star.values())
    claim.holds(max(abs(v) for v in z) <= 4 and stationary == [0] and convex and unequal < 1e-6,
                f"(4,4,4), sigma = {sigma}: E[L] = L + sigma^2/2 (Ni||W2||^2 + No||W1||^2) + sigma^4/2 NiNhNo vs Monte Carlo "
                f"({DRAWS} draws, seeds 20-22) at lambda = -2, 0, 2: z = {np.round(z, 2).tolist()} (<= 4); Ni = No: "
                f"d/dlambda (||W1||^2 + ||W2||^2) = 0 only at lambda = {stationary}, second derivative > 0: {convex}; "
                f"Ni != No: numeric argmin = s~(No - Ni)/sqrt(NiNo) within {unequal:.1g} for (6,2), (2,6), (10,3)")
