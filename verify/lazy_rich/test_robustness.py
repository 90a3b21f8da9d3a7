"""Robustness of the converged network to noise (Sec 5 l.100-104, App C.3; Fig. 4E): LR-Robust-Input,
LR-Robust-Param.  Converged nets are built exactly (Alg. 1 from Syx: W2W1 = Syx, Thm C.3 Grams); the
expected losses are checked against Monte Carlo means by z-scores.

Full scale (``--scale=full``, the ``[full]`` variants of ``verify.lazy_rich.sizes``), cost: FULL
draws 10x the ci samples (200,000 noise draws, 16 GD seeds x 16,000 steps of networks with <= 12
units a layer, 2,000 moment draws, 8 framing seeds), < 1e10 FLOP per test: seconds on 2 CPU cores
(measured 0.3-4.2 s), well under a minute on one H100.
"""
from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np
import pytest

from numerics.lazy_rich import comparisons as cmp
from theory.lazy_rich import robustness as rb
from theory.registry import REGISTRY
from verify.measurement import exact, paper, reading
from numerics.lazy_rich import configs

LAMS = (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)
SIGMA_IN, SIGMA_W = 0.3, 0.1
#: |z| <= 4: a 4-standard-error band (false alarm ~6e-5 per comparison under the CLT, seeds fixed)
Z_BAND = reading("4 standard errors of the Monte Carlo mean")


@lru_cache(maxsize=None)
def sweep(kind: str, n_in: int, n_out: int, scale: str):
    """Cached: the claim tests and the Fig. 4E figure share the Monte Carlo runs."""
    config = configs.NOISE[scale]
    if kind == "input":
        return cmp.noise_sweep(REGISTRY["LR-Robust-Input"].printed, kind, n_in, n_out, LAMS, SIGMA_IN, config.draws,
                               config.seeds[0])
    return cmp.noise_sweep(REGISTRY["LR-Robust-Param"].printed.loss, kind, n_in, n_out, LAMS, SIGMA_W, config.draws,
                           config.seeds[0])


@pytest.mark.claim("LR-Robust-Input")
def test_input_noise_loss_is_independent_of_lambda(claim, scale):
    _, _, _, z = sweep("input", 5, 3, scale)
    claim.holds(claim.measure(f"z of the Monte Carlo mean vs c + sigma^2/2 ||Syx||^2 (no lambda) at lambda = {list(LAMS)}",
                              z, "within", (-4, 4), source=Z_BAND),
                note=f"(5,3,3), P = 12, sigma = {SIGMA_IN}, {configs.NOISE[scale].draws} draws per lambda")


@pytest.mark.claim("LR-Robust-Param")
def test_weight_noise_loss_is_minimal_at_lambda_zero(claim, scale):
    forms = REGISTRY["LR-Robust-Param"].printed
    z = np.concatenate([sweep("weight", *shape, scale)[3] for shape in ((4, 4), (5, 3), (2, 6))])
    mini = cmp.weight_noise_minimiser(forms.w1_sq, forms.w2_sq)
    claim.holds(
        claim.measure("z of the Monte Carlo mean vs Eq. 173 for (4,4,4), (5,3,3), (2,2,6) at 7 lambdas", z, "within", (-4, 4),
                      source=Z_BAND),
        claim.measure("Ni = No: stationary points of ||W1||^2 + ||W2||^2 in lambda", str(mini["stationary"]), "==", "[0]",
                      source=paper("L103-104", "minimised only at lambda = 0")),
        claim.measure("Ni = No: min over lambda in [-20, 20] of d^2/dlambda^2 (||W1||^2 + ||W2||^2) at s~ = 1",
                      mini["curvature"], ">", 0, source=exact("grid of the sympy second derivative")),
        claim.measure("Ni != No: numeric argmin vs s~(No - Ni)/sqrt(NiNo) (derived), worst of (6,2), (2,6), (10,3)",
                      mini["unequal"], "<=", 1e-6, source=reading("bounded minimisation, xatol 1e-10, of a smooth convex function")),
        note=f"sigma = {SIGMA_W}, {configs.NOISE[scale].draws} draws per lambda")


@pytest.mark.claim("LR-Robust-Input", "LR-Robust-Param")
def test_noise_loss_against_lambda_figure(claim, report_figure):
    """Fig. 4E: expected loss under input and weight noise against lambda (theory lines, Monte Carlo markers)."""
    fine = np.linspace(LAMS[0], LAMS[-1], 121)
    forms = REGISTRY["LR-Robust-Param"].printed
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.6))
    task, means, ses, z_in = sweep("input", 5, 3, "ci")
    level = float(REGISTRY["LR-Robust-Input"].printed.subs(
        {rb.c: task.loss_constant, rb.sigma: SIGMA_IN, rb.norm_fn: float(np.sum(task.syx ** 2))}))
    left.plot(fine, np.full_like(fine, level), "-", color="C0", label="theory c + sigma^2/2 ||Syx||^2")
    left.errorbar(LAMS, means, yerr=2 * ses, fmt="o", ms=4, color="C0", label="Monte Carlo (2 s.e.)")
    left.set_title(f"input noise, sigma = {SIGMA_IN}, (5,3,3)", fontsize=8)
    on_line = []
    for (ni, no), col in zip(((4, 4), (5, 3), (2, 6)), ("C1", "C2", "C3")):
        t_w, m_w, s_w, _ = sweep("weight", ni, no, "ci")
        right.plot(fine, cmp.weight_noise_curve(forms, t_w, fine, SIGMA_W), "-", color=col, label=f"theory ({ni},{min(ni, no)},{no})")
        right.errorbar(LAMS, m_w, yerr=2 * s_w, fmt="o", ms=4, color=col, label=f"Monte Carlo ({ni},{min(ni, no)},{no})")
        on_line.append((m_w - cmp.weight_noise_curve(forms, t_w, LAMS, SIGMA_W)) / s_w)
    right.set_title(f"weight noise, sigma = {SIGMA_W}", fontsize=8)
    for ax in (left, right):
        ax.set_xlabel("lambda")
        ax.legend(fontsize=6)
    left.set_ylabel("expected loss (1/2-mean)")
    fig.tight_layout()
    report_figure(fig, "Fig. 4E: loss of converged nets under noise against lambda. Left: iid input noise, flat in lambda "
                       "(Eq. 172). Right: iid weight noise, Eq. (173) with the per-mode norms of Eqs. (174)-(175) (lines), "
                       "minimal at lambda = 0 for the square net and shifted for funnel / inverted funnel; Monte Carlo "
                       f"markers ({configs.NOISE['ci'].draws} draws, 2 s.e. bars).")
    claim.holds(claim.measure("input noise: z of the markers vs the line", z_in, "within", (-4, 4), source=Z_BAND),
                claim.measure("weight noise: z of the markers vs the line from the per-mode norms", np.concatenate(on_line),
                              "within", (-4, 4), source=Z_BAND))
