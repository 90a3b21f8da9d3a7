"""Cached reduced runs behind GRQ Fig. 6 (App. D.3); each returns its measurements and a
sentence saying what was reduced.  ``scale='full'`` selects the larger versions used by the
``@pytest.mark.full`` tests."""
from __future__ import annotations

import functools

import numpy as np
import torch

from numerics.rich_quick import grokking as gk
from numerics import image_data as idata
from numerics.rich_quick import image_nets as inet
from numerics.rich_quick import rhm
from numerics.rich_quick.relu_training import kernel_distance

ALPHAS = (0.3, 1.0, 3.0)
SEEDS = (0, 1)
SIZES = {"ci": dict(lenet=(600, 3, (0, 1, 3)), resnet=(600, 4), rhm=((128, 256), 40),
                    grok=(13, 16, 32, 300)),
         "full": dict(lenet=(1400, 20, (0, 1, 3, 20)), resnet=(1400, 20), rhm=((64, 128, 256, 384), 150),
                      grok=(23, 32, 64, 4000))}


def _members():
    return [(a, s) for a in ALPHAS for s in SEEDS]


def _images(source):
    """(X, y) of 'digits' (stand-in) or of the real 'mnist' / 'cifar10' under CLAIMS_DATA_DIR."""
    if source == "digits":
        return idata.digits()
    folder = idata.data_dir()
    if folder is None:
        raise FileNotFoundError(f"{idata.DATA_DIR_ENV} is unset: no folder with {source} files")
    return idata.load_mnist(folder) if source == "mnist" else idata.load_cifar10(folder)


def _split(n_train, seed=0, source="digits"):
    X, y = _images(source)
    perm = np.random.default_rng(seed).permutation(len(X))
    held_out = perm[1400:] if source == "digits" else perm[n_train:n_train + 2000]
    return X, y, perm[:n_train], held_out


@functools.cache
def lenet_run(scale="ci", source="digits"):
    """Fig. 6(a) on digits: S(0,t) of the summed-logit NTK on 60 held-out images, Hamming distance
    of all hidden ReLU activations, parameter distance; per checkpoint epoch, per member."""
    n_train, epochs, checkpoints = SIZES[scale]["lenet"]
    X, y, tr, ev = _split(n_train, source=source)
    params = inet.stack([inet.lenet_init(s, a, in_ch=X.shape[1], side=X.shape[-1])
                         for a, s in _members()])
    Xe = torch.as_tensor(X[ev[:60]], dtype=torch.float32)
    rec = {}

    def checkpoint(epoch, p):
        with torch.no_grad():
            _, H = inet.lenet_forward(p, Xe, return_hidden=True)
        rec[epoch] = (H > 0, inet.scalar_ntk(inet.lenet_forward, p, Xe),
                      torch.cat([v.detach().flatten(1) for v in p.values()], 1))
    out = inet.train_ensemble(inet.lenet_forward, params, X[tr], y[tr], lr=0.05, epochs=epochs,
                              batch=64, seed=0, checkpoints=checkpoints, on_checkpoint=checkpoint)
    H0, K0, th0 = rec[0]
    metrics = {e: dict(S=kernel_distance(K0, K).numpy(), hamming=(H != H0).float().mean((1, 2)).numpy(),
                       param=(th - th0).norm(dim=1).numpy())
               for e, (H, K, th) in rec.items() if e}
    acc = inet.accuracy(inet.lenet_forward, out, X[ev], y[ev])
    data = "sklearn digits 8x8 stand-in for MNIST" if source == "digits" else f"real {source}"
    reduction = (f"{data} ({n_train} train images, LeNet-like conv6-conv16-"
                 f"fc32-fc10 without biases, He init), alpha in {ALPHAS} x seeds {SEEDS}, SGD lr 0.05 "
                 f"batch 64 for {epochs} epochs (paper: MNIST, 500 epochs, lr 1e-4, batch 512), float32, "
                 "scalar NTK of the summed logits on 60 held-out images")
    return metrics, acc, reduction


LAPLACIAN_PRINTED = np.array([[-0.25, -0.5, -0.25], [-0.5, 2.0, -0.5], [-0.25, -0.5, -0.25]])


@functools.cache
def resnet_run(scale="ci", source="digits"):
    """Fig. 6(b)/11 on digits: accuracy and Eq. (128) smoothness of the 5x5 first-layer filters."""
    n_train, epochs = SIZES[scale]["resnet"]
    X, y, tr, ev = _split(n_train, seed=1, source=source)
    params = inet.stack([inet.resnet_init(s, a, in_ch=X.shape[1], side=X.shape[-1], width=8)
                         for a, s in _members()])
    f0 = params["c0"].numpy().copy()
    out = inet.train_ensemble(inet.resnet_forward, params, X[tr], y[tr], lr=0.1, epochs=epochs,
                              batch=50, seed=0)
    acc = inet.accuracy(inet.resnet_forward, out, X[ev], y[ev])
    f1 = out["c0"].numpy()
    smooth = {"init": inet.smoothness(f0, LAPLACIAN_PRINTED).mean((1, 2)),
              "end": inet.smoothness(f1, LAPLACIAN_PRINTED).mean((1, 2))}
    data = "sklearn digits stand-in for CIFAR-10" if source == "digits" else f"real {source}"
    reduction = (f"{data} ({n_train} train images), ResNet-like net (5x5 "
                 f"conv 8 filters / alpha, one residual block of 3x3 convs, max-pool, fc; paper: "
                 f"DAWNBench ResNet, 15x15 filters), alpha in {ALPHAS} x seeds {SEEDS}, SGD lr 0.1 "
                 f"batch 50 for {epochs} epochs, float32")
    return acc, smooth, reduction


@functools.cache
def rhm_run(scale="ci"):
    """Fig. 6(c): test accuracy per (training size, alpha), seed-averaged."""
    sizes, epochs = SIZES[scale]["rhm"]
    alphas = (0.1, 1.0, 10.0)
    top, levels = rhm.rhm_rules(2, 8, 4, 2, 8, np.random.default_rng(0))
    X, y = rhm.rhm_all_data(top, levels)
    acc = {}
    for n in sizes:
        perm = np.random.default_rng(1).permutation(len(X))
        tr, te = perm[:n], perm[n:]
        mem = [(s, a) for a in alphas for s in SEEDS]
        Ws = rhm.mlp_init([s for s, _ in mem], [a for _, a in mem], X.shape[1], 64, 3, 8)
        Ws = rhm.train_mlp(Ws, X[tr], y[tr], lr=0.1, epochs=epochs, batch=32, momentum=0.9, seed=0)
        acc[n] = rhm.mlp_accuracy(Ws, X[te], y[te]).reshape(len(alphas), len(SEEDS)).mean(1)
    reduction = (f"RHM with L=2 (paper L=3), n_c=8, m=4, s=2, v=8: all {len(X)} inputs, training sizes "
                 f"{sizes}, test on the rest; bias-free MLP width 64 x 3 hidden layers, alpha in "
                 f"{alphas} x seeds {SEEDS}; SGD momentum 0.9, lr 0.1 cosine to 0, batch 32, {epochs} "
                 "epochs (paper: 250 epochs, lr 6.4), float32")
    return alphas, acc, reduction


@functools.cache
def grok_run(scale="ci"):
    """Fig. 6(d): steps to 99% train / test accuracy and final test accuracy per alpha."""
    p, d, mlp, steps = SIZES[scale]["grok"]
    tr, te = gk.modular_addition(p, 0.5, 0)
    mem = _members()
    P = gk.init([s for _, s in mem], [a for a, _ in mem], p + 1, d=d, mlp=mlp)
    frac = gk.embedding_fraction(P)
    hit_tr, hit_te, acc_tr, acc_te = gk.train(P, tr, te, tau=np.ones(len(mem)), lr=3e-3, wd=1.0,
                                              steps=steps, eval_every=25)
    shape = (len(ALPHAS), len(SEEDS))
    reduction = (f"(a+b) mod {p}, half the pairs for training; 1-layer single-head transformer d={d}, "
                 f"MLP {mlp}; full-batch AdamW lr 3e-3, wd 1, tau=1, <= {steps} steps (paper: Power et "
                 f"al. task via an unnamed repo, tau x alpha grid, 30k steps); alpha in {ALPHAS} x "
                 f"seeds {SEEDS}, float32")
    return (hit_tr.reshape(shape), hit_te.reshape(shape), acc_te.reshape(shape).mean(1), frac,
            reduction)
