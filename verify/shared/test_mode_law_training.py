"""The mode law against batched GD training of linear networks from small random init on the
hierarchical task with a hidden bias (BL setting, Sec 5.1 / App B): BL-Eq(7), BA-Eq(3),
MHS-A-Eq(7)."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from numerics.closed_forms import mode_strength
from numerics.datasets import correlations, hierarchy, modes
from numerics.models import TwoLayerEnsemble
from numerics.train import train
from theory.conventions import tau
from verify.checks.mode_law import mode_trajectories, training_error

SEEDS = range(8)
C, N_HID, INIT_STD = 1.0, 32, 2e-4 ** 0.5     # sigma^2 = 2e-4 as in App E
LR = 1e-3      # 5x the paper's 2e-4 for speed: lr P s_max = 0.006, so GD tracks the flow to <1%
STEPS = 4000   # 16 tau: every mode of the 4-item tree has reached its plateau
# 1.5% of the plateau (3x the deviation measured at these settings): the fitted a0 pins the half-rise time; the residual is the early alignment
# transient of a random init (absent from the aligned-init law) plus O(lr P s) discretisation.
TOLERANCE = 0.015


@pytest.fixture(scope="module")
def run():
    X, Y = hierarchy(2)
    U, s, V, d, offdiag = modes(*correlations(X, Y, c=C))
    net = TwoLayerEnsemble.init(SEEDS, X.shape[0], N_HID, Y.shape[0], activation="linear",
                                bias_strength=C, init_std=INIT_STD)
    history = train(net, X, Y, lr=LR, steps=STEPS, paper="bias", record_every=20,
                    record=lambda m: {"W": m.product()})
    strengths = mode_trajectories(history.records["W"], U, s, V)
    return history, strengths, s, d, offdiag, tau(LR, X.shape[1], "bias")


@pytest.mark.claim("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")
def test_trained_linear_networks_follow_the_mode_law(claim, report_figure, run):
    history, strengths, s, d, offdiag, tau_steps = run
    err, a0 = training_error(mode_strength, history.t_over_tau, strengths, s, d)
    claim.holds(err <= TOLERANCE,
                f"{len(SEEDS)} seeds, linear 4-{N_HID}-7 net with hidden bias c={C} on the 4-item "
                f"hierarchy (Eq. 4 off-diagonal {offdiag:.1g}), GD lr {LR} on the 1/2-sum loss, "
                f"tau = 1/(P lr) = {tau_steps:g} steps, {STEPS} steps; a0 fitted per seed and mode "
                f"from the half-rise time (range {a0.min():.2g}-{a0.max():.2g}); max deviation "
                f"{err:.3f} of the plateau s/d (tolerance {TOLERANCE})")
    fig, ax = plt.subplots(figsize=(7, 4))
    grid = np.linspace(0, history.t_over_tau[-1], 400)
    for m, colour in zip(range(len(s)), plt.cm.viridis(np.linspace(0, 0.85, len(s)))):
        ax.plot(grid, mode_strength(grid, s[m], d[m], np.median(a0[:, m])), color=colour,
                label=f"Eq. (7): s={s[m]:.3f}, d={d[m]:.2f}")
        ax.plot(history.t_over_tau[::6], strengths[::6, :, m], "o", ms=2.5, color=colour,
                alpha=0.5)
    ax.set_xlabel("t / tau  (tau = 1/(P lr) steps)")
    ax.set_ylabel("mode strength a(t)")
    ax.set_title("Linear network with hidden bias, 4-item hierarchy")
    ax.legend(fontsize=7)
    report_figure(fig, f"Mode strengths of {len(SEEDS)} trained linear networks (markers, all "
                       "seeds) against the closed form with the median fitted a0 (lines). "
                       "The top mode is the bias mode of Prop. 1.")
