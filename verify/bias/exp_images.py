"""Image-claim statistics shared by the bias papers' tests (BL Figs 1, 7, 8; BA-T6/T7): the early
loss gap between ReLU and linear networks, and rank / test error at equal training loss."""
from __future__ import annotations

import numpy as np

from numerics.bias import alignment as al
from numerics import image_data as shared_images
from numerics.bias import image_data
from numerics.bias.image_experiments import BIAS_PIXEL, run_images

EARLY = 15.0     # t/tau: the first half of the CI horizon, "early training"


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


def real_data(kind: str, prep: str):
    """Real MNIST / CIFAR-10 from ``$CLAIMS_DATA_DIR``, reduced to 10,000 training and 500 test
    images and preprocessed with ``prep`` (BL-Def-Prep): (Xtr, ytr, Xte, yte), or None when absent."""
    folder = shared_images.data_dir()
    if folder is None:
        return None
    load = {"mnist": image_data.load_mnist, "cifar10": image_data.load_cifar10}[kind]
    try:
        Xtr, ytr = load(folder, "train")
        Xte, yte = load(folder, "test")
    except FileNotFoundError:
        return None
    Xtr, ytr, Xte, yte = Xtr[:, :10_000], ytr[:10_000], Xte[:, :500], yte[:500]
    Xtr, Xte = image_data.preprocess(Xtr, Xte, prep)
    return Xtr, ytr, Xte, yte


def real_runs(kind: str, prep: str):
    """Reduced runs on :func:`real_data` (None when absent): hidden 64, 3 seeds, full-batch GD,
    30 tau."""
    data = real_data(kind, prep)
    if data is None:
        return None
    return {act: run_images(*data, activation=act, seeds=range(3), n_hid=64,
                            lr_times_p=0.04, t_end=30.0) for act in ("linear", "relu")}


NO_DATA = (f"real {{}} not available: no ${shared_images.DATA_DIR_ENV} folder with the files "
           "(set it to run the reduced real-data check)")
BIAS = BIAS_PIXEL
