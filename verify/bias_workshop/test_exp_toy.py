"""Empirical claims of the workshop paper on its toy tasks (BA Figs 1-3, App B, contributions).

The workshop paper gives no hyperparameters; the suite takes 000's App E (BA-S2): hidden 64,
sigma^2 = 2e-4, full-batch GD on the 1/2-sum loss, with lr 5e-3 (25x the paper's 2e-4, for CI
time; time is t/tau = N lr steps through theory.conventions).  Tasks are the catalogue's
reconstructions R1 (4-item hierarchy), R2 (8-item tree), R3 (+-1 XOR), R4 (parallel task).
The simulations are shared with the long paper's tests (numerics.bias.experiments caches them);
the same measurements at the paper's rate are in ``test_exp_full.py``.
"""
import numpy as np
import pytest

from numerics.bias.experiments import pair
from numerics.datasets import correlations, modes
from verify.bias.exp_checks import DESIGNS, both_bias_alignment, both_bias_pairs, parallel_summary
from verify.bias.exp_plots import (COLOURS, both_bias_figure, figure, finish,
                                   hierarchy_loss_figure, mds_figure, parallel_figure,
                                   xor_loss_figure)
from verify.bias_workshop import toy_evidence as ev
from verify.measurement import reading

SCALE = "ci"


@pytest.fixture(scope="module")
def hier():
    return pair("hierarchy4", SCALE)


@pytest.fixture(scope="module")
def xor():
    return pair("xor", SCALE)


@pytest.fixture(scope="module")
def parallel():
    runs = pair("parallel", SCALE, n_seeds=10)
    return runs, parallel_summary(runs)


@pytest.mark.claim("BA-Fig1A")
def test_hierarchy_is_linearly_solvable(claim, hier):
    lin = hier["linear"]
    X, Y = lin.X, lin.Y
    offdiag = max(modes(*correlations(X, Y, c))[4] for c in (None, 1.0))
    final = lin.loss[-1, lin.select(1.0)].max()
    claim.defined(
        claim.measure("max off-diagonal of V^T Sigma_x V, with and without the bias row", offdiag,
                      "<=", 1e-12, source=reading("0/1 matrices up to float64 round-off")),
        claim.measure("final loss of linear networks with bias, every seed", final, "<", 1e-6,
                      source=reading("30 tau of GD on a linearly solvable task")),
        note="R1: X = I_4, Y = the 7 x 4 Saxe features")


@pytest.mark.claim("BA-Fig1B")
def test_bias_relu_tracks_linear_and_exact_solutions(claim, report_figure, hier):
    claim.reproduced(*ev.fig1b(hier), setup=ev.toy_setup(["hierarchy4"], SCALE))
    report_figure(hierarchy_loss_figure(hier), "BA Fig 1B reproduced on R1: seed-mean losses "
                  "(markers) of linear and ReLU networks with and without bias; line: Eq. (3) "
                  "over the (augmented) modes with a fitted a0.  lr 25x 000's; time in t/tau.")


@pytest.mark.claim("BA-Fig1C")
def test_xor_is_not_linearly_solvable(claim, xor):
    lin = xor["linear"]
    _, s, _, d, off = modes(*correlations(lin.X, lin.Y, 1.0))
    sxy_none = np.abs(correlations(lin.X, lin.Y)[0]).max()
    best_linear = 0.5 * np.sum((lin.Y - lin.Y.mean(1, keepdims=True)) ** 2)
    final = lin.loss[-1, lin.select(1.0)]
    exact_zero = reading("exact for +-1 inputs")
    claim.defined(
        claim.measure("modes of the augmented correlations", len(s), "==", 1, source=exact_zero),
        claim.measure("max |Sigma_yx| without bias", sxy_none, "==", 0, source=exact_zero),
        claim.measure("|final linear-bias loss - 1/2 sum ||y - ybar||^2|, every seed",
                      np.abs(final - best_linear), "<", 1e-3,
                      source=reading("30 tau of GD reach the linear optimum")),
        note="R3 +-1 XOR: not linearly solvable")


@pytest.mark.claim("BA-Fig1D")
def test_xor_transient_alignment_is_exact_early(claim, report_figure, xor):
    sensitivity = {"learning rate": ev.xor_rate_sensitivity(xor, ev.rate_pair("xor", SCALE, 0.5))}
    claim.reproduced(*ev.fig1d(xor), setup=ev.toy_setup(["xor"], SCALE, sensitivity=sensitivity))
    report_figure(xor_loss_figure(xor), "BA Fig 1D reproduced on R3 (+-1 XOR): seed-mean losses "
                  "(markers) with and without bias; dotted: linear optimum L = 1.")


@pytest.mark.claim("BA-Fig2A")
def test_cka_between_linear_and_relu_is_higher_with_bias(claim, report_figure):
    runs = pair("hierarchy8", SCALE)
    lin = runs["linear"]
    measurements, cka = ev.fig2a(runs)
    claim.reproduced(*measurements, setup=ev.toy_setup(["hierarchy8"], SCALE))
    res = {"bias": cka[1.0], "no bias": cka[0.0]}
    fig, axes = figure(1, width=5.5, height=3.2)
    for name, marker in (("bias", "o"), ("no bias", "s")):
        m = res[name].mean(1)
        axes[0].plot(lin.t[1:][::3], m[::3], marker, ms=3, mfc="none", label=name)
    axes[0].set_xlabel("t / tau")
    axes[0].set_ylabel("linear CKA (linear vs ReLU)")
    axes[0].legend(fontsize=7)
    report_figure(finish(fig), "BA Fig 2A reproduced on the 8-item tree: linear CKA between the "
                  "hidden representations of linear and ReLU networks over training, with and "
                  "without bias (markers: seed means).")


@pytest.mark.claim("BA-Fig2B")
def test_mds_representations_with_bias_evolve_like_linear(claim, report_figure, hier):
    claim.reproduced(*ev.fig2b(hier), setup=ev.toy_setup(["hierarchy4"], SCALE))
    report_figure(mds_figure(hier), "BA Fig 2B reproduced on R1: classical MDS of linear and "
                  "ReLU hidden representations over training (markers; shade = item), the ReLU "
                  "embedding Procrustes-aligned to the linear one.")


@pytest.mark.claim("BA-Fig3A")
def test_parallel_task_has_a_linear_and_a_non_linear_half(claim, parallel):
    runs, out = parallel
    lin = runs["linear"]
    kb = lin.select(1.0)
    err = (lin.Y[None] - lin.outputs()[-1, kb]) ** 2
    lin_task, xor_task = 0.5 * err[:, :2].sum((-2, -1)), 0.5 * err[:, 2:].sum((-2, -1))
    relu_final = max(o["final"].max() for o in out.values())
    converged = reading("60 tau of GD converge to 1e-3")
    claim.defined(
        claim.measure("linear network with bias: linear-task loss, every seed", lin_task, "<",
                      1e-3, source=converged),
        claim.measure("linear network with bias: |XOR-task loss - 1| (the mean), every seed",
                      np.abs(xor_task - 1), "<", 1e-3, source=converged),
        claim.measure("ReLU networks: max final loss", relu_final, "<", 1e-3, source=converged),
        note="R4 on the 4 corners: a linear and a non-linear task on the same points")


@pytest.mark.claim("BA-Fig3B")
def test_linear_task_is_learned_first_with_a_pronounced_saddle(claim, report_figure, parallel):
    runs, out = parallel
    t = runs["relu"].t
    claim.reproduced(*ev.fig3b(runs, out), setup=ev.toy_setup(["parallel"], SCALE, 10))
    fig, axes = figure(2)
    for ax, key in zip(axes, out):
        k = slice(None)
        ax.plot(t, out[key]["lin_task"][:, k].mean(1), "o", ms=2, color=COLOURS["linear"],
                label="linear-task loss")
        ax.plot(t, out[key]["xor_task"][:, k].mean(1), "s", ms=2, color=COLOURS["relu"],
                label="XOR-task loss")
        ax.set_xlim(0, 25)
        ax.set_title(f"ReLU {key}", fontsize=9)
        ax.set_xlabel("t / tau")
        ax.legend(fontsize=7)
    report_figure(finish(fig), "BA Fig 3B on R4: per-task losses of ReLU networks with and "
                  "without bias (markers: seed means): with bias the XOR task waits for the "
                  "linear one.")


@pytest.mark.claim("BA-Fig3C")
def test_bias_over_represents_the_linear_task(claim, report_figure, parallel):
    runs, out = parallel
    claim.reproduced(*ev.fig3c(out), setup=ev.toy_setup(["parallel"], SCALE, 10))
    report_figure(parallel_figure(runs, out, DESIGNS), "BA Fig 3B/C reproduced on R4: losses "
                  "(markers; dotted: linear task solved) and centred R^2 of the final ReLU "
                  "representations (bars: mean, 95% t-CI, 10 seeds).")


@pytest.mark.claim("BA-AppB")
def test_both_layer_biases_preserve_dynamics_under_a_time_rescale(claim, report_figure):
    hier, xor = both_bias_pairs()
    r = both_bias_alignment(hier, xor)
    claim.reproduced(*ev.app_b(r), setup=ev.toy_setup(["hierarchy4", "xor"], SCALE))
    report_figure(both_bias_figure(hier, xor), "BA Fig 5 reproduced: losses (markers, seed "
                  "means) of linear and ReLU networks with biases in both layers on R1 and R3.")


@pytest.mark.claim("BA-C")
def test_contributions(claim, hier, parallel):
    runs, out = parallel
    claim.reproduced(*ev.contributions(hier, out, runs),
                     setup=ev.toy_setup(["hierarchy4", "parallel"], SCALE))
