"""The mode law against batched GD training of linear networks from small random init on the
hierarchical task with a hidden bias (BL setting, Sec 5.1 / App B): BL-Eq(7), BA-Eq(3),
MHS-A-Eq(7), the hitting times BL-Eq(13) / MHS-A-Time, and balance (MHS-A-Mode)."""
import numpy as np
import pytest

from numerics.closed_forms import hitting_time, mode_strength
from numerics.mode_flows import trained_linear_modes
from theory.conventions import tau
from verify.checks.mode_law import mode_trajectories, training_error
from verify.shared import evidence as ev
from verify.shared import figures
from verify.measurement import reading

SEEDS = range(8)
C, N_HID, INIT_STD = 1.0, 32, 2e-4 ** 0.5     # sigma^2 = 2e-4 as in App E
LR = 1e-3      # 5x the paper's 2e-4 for speed: lr P s_max = 0.006, so GD tracks the flow to <1%
STEPS = 5000   # 20 tau: every mode of the 4-item tree has reached its plateau
TOLERANCE = reading("3x the deviation measured at these settings: the fitted a0 pins the "
                    "half-rise time; the residual is the early alignment transient of a random "
                    "init (absent from the aligned-init law) plus O(lr P s) discretisation")


@pytest.fixture(scope="module")
def run():
    history, (U, s, V, d, offdiag) = trained_linear_modes(SEEDS, n_hid=N_HID, init_std=INIT_STD,
                                                          lr=LR, steps=STEPS, c=C)
    strengths = mode_trajectories(history.records["W"], U, s, V)
    return history, strengths, s, d, offdiag, tau(LR, 4, "bias")


LEVELS = (0.25, 0.5, 0.9)   # thresholds rho as fractions of each mode's plateau s/d
HIT_TOLERANCE = reading("a0 is fitted at the half-rise, so the 25% and 90% crossings test the "
                        "shape; the init's alignment transient and GD's discretisation shift them "
                        "by 0.3% (measured), a wrong rate or plateau by tens of percent")


@pytest.mark.claim("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")
def test_trained_linear_networks_follow_the_mode_law(claim, report_figure, run):
    history, strengths, s, d, offdiag, tau_steps = run
    err, a0 = training_error(mode_strength, history.time, strengths, s, d)
    claim.holds(
        claim.measure("max |a_trained(t) - Eq.(t)| / (s/d) over seeds, modes and time, a0 fitted "
                      "per seed and mode from the half-rise", err, "<=", 0.015, source=TOLERANCE),
        claim.measure("off-diagonal of V^T Sigma_x V (Eq. 4)", offdiag, "<=", 1e-12,
                      source=reading("0/1 data up to float64 round-off")),
        note=f"{len(SEEDS)} seeds, linear 4-{N_HID}-7 net with hidden bias c={C} on the 4-item "
             f"hierarchy, GD lr {LR} on the 1/2-sum loss, tau = 1/(P lr) = {tau_steps:g} steps, "
             f"{STEPS} steps")
    fig = figures.mode_law_figure(mode_strength, history.time, strengths, s, d, a0)
    report_figure(fig, f"Mode strengths of {len(SEEDS)} trained linear networks (markers, all "
                       "seeds) against the closed form with the median fitted a0 (lines). "
                       "The top mode is the bias mode of Prop. 1.")


@pytest.mark.claim("BL-Eq(13)", "MHS-A-Time")
def test_trained_networks_reach_each_threshold_when_the_formula_says(claim, report_figure, run):
    history, strengths, s, d, _, _ = run
    _, a0 = training_error(mode_strength, history.time, strengths, s, d)
    observed, predicted = ev.threshold_crossings(strengths, history.time, s, d, a0, LEVELS)
    err = float(np.nanmax(np.abs(observed - predicted) / predicted))
    claim.holds(
        claim.measure("max |first crossing - t_hat| / t_hat, a0 fitted at the half-rise", err,
                      "<=", 0.02, source=HIT_TOLERANCE),
        claim.measure("thresholds not reached within the run", int((~np.isfinite(observed)).sum()),
                      "==", 0, source=reading("20 tau: every mode reaches its plateau")),
        note=f"{len(SEEDS)} seeds x {len(s)} modes x thresholds {LEVELS} of s/d")
    fig = figures.hitting_figure(hitting_time, observed, LEVELS, s, d, a0)
    report_figure(fig, "Time at which each mode of the trained linear networks first reaches "
                       "25%, 50% and 90% of its plateau (markers, 8 seeds) against Eq. (13) with "
                       "the median fitted a0 (lines).")


@pytest.mark.claim("MHS-A-Mode")
def test_small_random_init_stays_nearly_balanced_under_gd(claim, run):
    history = run[0]
    balance = history.records["balance"]                            # (T, K, hid, hid)
    drift = np.abs(balance - balance[:1]).max(axis=(2, 3))          # (T, K)
    scale = np.abs(history.records["W"]).max(axis=(2, 3))           # size of W2 W1
    rel = float((drift[-1] / scale[-1]).max())
    claim.holds(
        claim.measure("max drift of W2'W2 - W~1 W~1' over max|W2 W~1|", rel, "<=", 1e-3,
                      source=reading("GD conserves the balance matrix up to O(lr^2) per step; "
                                     "5000 steps of lr 1e-3 leave a drift far below the product")),
        note=f"{len(SEEDS)} seeds, GD lr {LR}, {STEPS} steps from a small random init")
