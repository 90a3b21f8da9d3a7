"""Empirical claims of the bias paper on the XOR-type tasks and on output biases (BL Figs 2C/D,
5, 9, 11).

Tasks: +-1 XOR, (1,1),(-1,-1) -> [1,0], (1,-1),(-1,1) -> [0,1] (BL §6); XOR plus a linear third
input +-Delta (margin 2 Delta).  Hidden width 64, sigma^2 = 2e-4, full-batch GD on the 1/2-sum loss
at lr 5e-3 (25x the paper's 2e-4; time reported as t/tau through theory.conventions).
"""
import numpy as np
import pytest

from numerics.bias import alignment as al
from numerics.bias import stats
from numerics.bias.experiments import margin_sweep, pair
from verify.bias.exp_checks import (SHIFTS, both_bias_alignment, both_bias_pairs,
                                    xor_early_alignment)
from verify.bias.exp_plots import (COLOURS, both_bias_figure, figure, finish, loss_panel,
                                  xor_loss_figure)

SCALE = "ci"


def xor_reliance(run, k, c):
    """How much the trained network uses the XOR structure: with x3 = 0 (no linear evidence),
    mean class-A output on the class-A corners minus that on the class-B corners; 0 for any
    linear network (a linear function has equal means over the two XOR diagonals), 1 for a pure
    XOR solution."""
    corners = np.array([[1.0, -1.0, 1.0, -1.0], [1.0, -1.0, -1.0, 1.0], [0.0] * 4])
    Xa = np.vstack([np.full((1, 4), c), corners])
    H = run.W1[-1, k] @ Xa
    H = np.maximum(H, 0) if run.activation == "relu" else H
    out = run.W2[-1, k] @ H
    return out[..., 0, :2].mean(-1) - out[..., 0, 2:].mean(-1)


@pytest.mark.claim("BL-Fig2")
def test_xor_relu_with_bias_is_transiently_aligned_with_linear(claim, report_figure):
    runs = pair("xor", SCALE)
    x = xor_early_alignment(runs)
    after = x["relu_end"] < 1e-2 and x["lin_end_dev"] < 1e-2
    no_bias = x["lin_none_dev"] < 1e-2 and x["relu_none_end"] < 1e-2
    # 0.1 L0 after the best shift: the catalogue's tolerance for "matched in early training"
    ok = bool(np.all(x["shifted"] <= 0.1) and after and no_bias)
    claim.reproduced(ok, (
        f"2D XOR (lr 5e-3 = 25x paper, 8 seeds): up to t_lin (linear-bias within 5% of its "
        f"optimum L = 1, t_lin = {stats.summary(x['t_lin'])} tau) max|L_relu(t) - L_lin(t - "
        f"shift)| {stats.summary(x['shifted'])} L0 (<= 0.1 L0 every seed), best shift "
        f"{stats.summary(x['shift'])} tau, unshifted {stats.summary(x['raw'])} L0; after it ReLU "
        f"-> {x['relu_end']:.1g} while linear stays at 1 -> {after}.  Without bias the linear "
        f"network stays at L0 = 2 (max dev {x['lin_none_dev']:.1g}: Sigma_yx = 0) while the ReLU"
        f" falls to {x['relu_none_end']:.1g}: no aligned phase -> {no_bias}"))
    report_figure(xor_loss_figure(runs), "BL Fig 2D reproduced on +-1 XOR: seed-mean losses "
                  "(markers) of linear and ReLU networks with and without hidden bias; dotted: "
                  "the linear optimum L = 1 (output ybar).  lr 25x the paper's; time in t/tau.")


@pytest.fixture(scope="module")
def margins():
    """Per margin Delta: shift-aligned ReLU-linear gaps (whole run and bias phase) and XOR
    reliance with and without bias, from one batched sweep."""
    runs, deltas = margin_sweep(SCALE)
    lin, relu = runs["linear"], runs["relu"]
    t = lin.t
    rows = {}
    for d in sorted(set(deltas)):
        kb = np.flatnonzero((deltas == d) & (relu.c == 1))
        kn = np.flatnonzero((deltas == d) & (relu.c == 0))
        gap, sh = al.best_warp(relu.loss[:, kb], lin.loss[:, kb], t, "shift", SHIFTS)
        t_bias = float(al.first_time(lin.loss[:, kb], t, 1.1).max())   # bias mode learned
        early, _ = al.best_warp(relu.loss[:, kb], lin.loss[:, kb], t, "shift", SHIFTS,
                                until=t_bias)
        rows[float(d)] = dict(gap=gap / 2.0, shift=sh, early=early / 2.0, kb=kb,
                              rel_b=xor_reliance(relu, kb, 1.0), rel_n=xor_reliance(relu, kn, 0.0))
    return runs, rows


@pytest.mark.claim("BL-Fig5")
def test_xor_with_margin_bias_relu_follows_linear_and_uses_the_linear_feature(
        claim, report_figure, margins):
    runs, rows = margins
    r5 = rows[0.5]
    uses_linear, p5 = stats.less(r5["rel_b"], r5["rel_n"])
    claim.reproduced(bool(uses_linear and np.all(r5["gap"] <= 0.05)), (
        f"Delta = 0.5, 5 seeds, lr 25x paper: ReLU-bias vs linear-bias max loss gap after the "
        f"best shift {stats.summary(r5['gap'])} L0 (<= 0.05 L0 every seed; shift "
        f"{stats.summary(r5['shift'])} tau); XOR reliance (x3 = 0: class-A output on A corners "
        f"minus B corners; 0 linear, 1 pure XOR) bias {stats.summary(r5['rel_b'])} < no bias "
        f"{stats.summary(r5['rel_n'])} (Welch p = {p5:.2g} < 0.05)"))
    lin, relu = runs["linear"], runs["relu"]
    kb = r5["kb"]
    fig, axes = figure(1, width=5, height=3.2)
    loss_panel(axes[0], lin.t, {"linear bias": (lin.loss[:, kb], COLOURS["linear"], "o"),
                                "ReLU bias": (relu.loss[:, kb], COLOURS["relu"], "s")},
               title="XOR + linear feature, Delta = 0.5")
    report_figure(finish(fig), "BL Fig 5B reproduced: seed-mean losses (markers) of linear and "
                  "ReLU networks with hidden bias on XOR + linear feature (margin 2 Delta = 1).")


@pytest.mark.claim("BL-Fig11")
def test_margin_sweep_diverges_only_for_small_delta(claim, report_figure, margins):
    _, rows = margins
    grid = sorted(rows)
    gaps = np.array([rows[d]["gap"].mean() for d in grid])
    small, large = [d for d in grid if d < 0.5], [d for d in grid if d >= 0.5]
    diverge_small = all(rows[d]["gap"].min() > 0.1 for d in small)
    agree_large = all(np.all(rows[d]["gap"] <= 0.05) for d in large)
    bias_phase = all(np.all(rows[d]["early"] <= 0.05) for d in grid)
    robust = all(stats.less(rows[d]["rel_b"], rows[d]["rel_n"])[0] for d in grid if d >= 0.1)
    claim.reproduced(diverge_small and agree_large and bias_phase and robust, (
        f"Delta in {grid} (5 seeds each, lr 25x paper): ReLU-linear gap (bias) after the best "
        f"shift {np.round(gaps, 3).tolist()} L0: > 0.1 L0 for every Delta < 0.5 -> "
        f"{diverge_small}, <= 0.05 L0 for Delta >= 0.5 -> {agree_large}; shift-aligned gap "
        f"while the bias mode is learned (until linear L <= 1.1) <= 0.05 L0 for every Delta -> "
        f"{bias_phase} (max {max(rows[d]['early'].max() for d in grid):.3f}); XOR reliance lower"
        f" with bias than without for every Delta >= 0.1 (Welch p < 0.05) -> {robust}: "
        + ", ".join(f"{d}: {rows[d]['rel_b'].mean():.2f} vs {rows[d]['rel_n'].mean():.2f}"
                    for d in grid)))
    fig, axes = figure(2)
    axes[0].plot(grid, [rows[d]["rel_b"].mean() for d in grid], "o", color="tab:red",
                 label="ReLU bias")
    axes[0].plot(grid, [rows[d]["rel_n"].mean() for d in grid], "s", color="grey",
                 label="ReLU no bias")
    axes[0].set_ylabel("XOR reliance (0 linear, 1 XOR)")
    axes[1].plot(grid, gaps, "o", color="tab:purple", label="whole run")
    axes[1].plot(grid, [rows[d]["early"].mean() for d in grid], "^", color="tab:green",
                 label="bias phase")
    axes[1].set_ylabel("shift-aligned max gap / L0")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("Delta")
        ax.legend(fontsize=7)
    report_figure(finish(fig), "BL Fig 11 reproduced: reliance of the trained ReLU networks on "
                  "the XOR structure with and without bias, and the ReLU-linear loss gap (bias) "
                  "after the best time shift, over the margin Delta (markers: seed means).")


@pytest.mark.claim("BL-Fig9")
def test_biases_in_both_layers(claim, report_figure):
    hier, xor = both_bias_pairs()
    r = both_bias_alignment(hier, xor)
    ok = bool(r["shift_gap"].mean() <= 0.1 and np.all(r["xor_early"] <= 0.1))
    claim.reproduced(ok, (
        f"both-layer biases (8 seeds, lr 25x paper). A, hierarchy: after the best global time "
        f"shift ({stats.summary(r['shift'])} tau) max|L_relu - L_lin| = "
        f"{stats.summary(r['shift_gap'])} L0 (mean <= 0.1 L0 required); a global time rescale "
        f"t -> t/kappa (kappa {stats.summary(r['kappa'])}) fits better: "
        f"{stats.summary(r['scale_gap'])} L0.  B, XOR: unshifted gap until linear reaches its "
        f"optimum {stats.summary(r['xor_early'])} L0 (<= 0.1 every seed)"))
    report_figure(both_bias_figure(hier, xor), "BL Fig 9 reproduced: losses (markers, seed "
                  "means) of linear and ReLU networks with hidden and output biases (b2 = "
                  "readout of a constant unit c = 1) on the hierarchy and on XOR.")
