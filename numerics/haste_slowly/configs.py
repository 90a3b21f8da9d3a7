"""The ci and paper-scale configurations of every Make haste slowly experiment (MHS-), one
``numerics.ran.Scales`` pair each; a verify test picks ``configs.X[scale]``.

Times are epochs, the paper's clock (one full-batch step at the released lr 1e-3 on the 1/2-sum
loss); a run at another step size covers the same epochs in ``epochs * 1e-3 / lr`` steps.

* :data:`SEC45` -- the Sec 4-5 and App E runs (Table 1, L805-L822: lr 1e-3, 8000 epochs; the
  released Jax code trains in float32).  ci: lr 2e-3 in float64, the same 8000 epochs in half the
  steps.
* :data:`GATES` -- App B (Algorithm B.1, Figs 8-9): the Sec 4 ReLU runs pooled for k-means, and the
  GDLNs built from the k centroids.
* :data:`DEPTH` -- Sec 6 (MHS-S6-C1..C3, MHS-Fig6) at the released depth recipe
  (``depth/relu.py``, ``depth/gdln_off.py``): width 420, lr 1e-3, 30001 epochs, float32, the
  released run indices as init seeds (``np.random.seed(run)``).  ci: 112-unit layers with every
  std scaled by sqrt(420/112) (the per-layer pre-activation scale of the released init), lr 8e-3.
* :data:`XOR` -- Fig 2 (App C): the 3-128-1 ReLU nets across the margin Delta (one configuration:
  the paper states its settings).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.ran import Config, Scales, seeds
from numerics.validation import InvalidArgument, choice, number, seed_list

#: the released code's step size (Table 1): one full-batch step is one epoch
PAPER_LR = 1e-3
#: Sec 4-5 horizon (Table 1 "Num-Epochs 8000")
SEC45_EPOCHS = 8000


def _name(config, name: str) -> str:
    return f"{type(config).__name__}.{name}"


def _positive(config, *names):
    for name in names:
        number(getattr(config, name), _name(config, name), positive=True)


def _positive_all(config, name, count=None):
    """A tuple field of finite positive numbers (``count`` of them where given)."""
    values = getattr(config, name)
    if not values or (count is not None and len(values) != count):
        raise InvalidArgument(f"{_name(config, name)}={values!r} must be "
                              f"{f'{count} ' if count else ''}positive finite numbers")
    for i, v in enumerate(values):
        number(v, f"{_name(config, name)}[{i}]", positive=True)


def _dtype(config):
    choice(config.dtype, _name(config, "dtype"), ("float32", "float64"))


def _seeds(config):
    seed_list(config.seeds, _name(config, "seeds"))


@dataclass(frozen=True, kw_only=True)
class Sec45(Config):
    """The Sec 4-5 runs: step size, horizon in epochs, dtype and the init seeds (one network per
    seed, batched)."""

    lr: float
    epochs: int = SEC45_EPOCHS
    dtype: str
    seeds: tuple
    record_epochs: int = 50           # epochs between records

    def __post_init__(self):
        super().__post_init__()
        _positive(self, "lr", "epochs", "record_epochs")
        _seeds(self)
        _dtype(self)

    @property
    def steps(self) -> int:
        return round(self.epochs * PAPER_LR / self.lr)


SEC45 = Scales(ci=Sec45(scale="ci", lr=2e-3, dtype="float64", seeds=seeds("ci", 2)),
               full=Sec45(scale="full", lr=PAPER_LR, dtype="float32", seeds=seeds("full", 5)))


@dataclass(frozen=True, kw_only=True)
class Gates(Config):
    """App B: the ReLU runs pooled for k-means (``sec45``'s seeds), the pattern sampling interval
    (L420: every 100 epochs), the k swept, and the GDLNs built from the centroids (``width``
    units per module, Table 1; init stds, one batched run per std)."""

    sec45: Sec45
    every: int = 100
    ks: tuple = (2, 3, 4, 5, 6)
    width: int = 100
    #: the Sec 4 GDLN init of the released code (3_context_diff/gdln.py: 20 x 0.0005 / 700 for
    #: every module but the common one); App B gives none, so a second, halved scale is run too
    stds: tuple = (2e1 * 0.0005 / 700, 1e1 * 0.0005 / 700)
    gdln_seeds: tuple

    def __post_init__(self):
        super().__post_init__()
        if self.sec45.scale != self.scale:
            raise InvalidArgument("Gates.sec45 must be a configuration of the same scale")
        _positive(self, "every", "width")
        _positive_all(self, "stds")
        if not self.ks or any(isinstance(k, bool) or int(k) != k or k < 1 for k in self.ks):
            raise InvalidArgument(f"Gates.ks={self.ks!r} must be positive integers (numbers of clusters)")
        _seeds(self)

    @property
    def seeds(self) -> tuple:
        return self.sec45.seeds + self.gdln_seeds


GATES = Scales(ci=Gates(scale="ci", sec45=SEC45.ci, gdln_seeds=seeds("ci", 1, offset=50)),
               full=Gates(scale="full", sec45=SEC45.full, gdln_seeds=seeds("full", 2, offset=50)))


@dataclass(frozen=True, kw_only=True)
class Depth(Config):
    """Sec 6: the 2-hidden-layer ReLU net, the released depth GDLN and the single-hidden-layer
    control (the Sec 5 ReLU, ``diff_context_num/relu3.py``), all seeds of a network batched."""

    width: int = 420                  # relu.py num_hidden = 60 * 7
    relu_std: float = 6e-4            # relu.py param_scale_relu
    module: int = 60                  # gdln_off.py num_hidden (units per module)
    #: gdln_off.py: layer 1, layer 2, output from common units, output from contextual units
    gdln_std: tuple = (1.15 * 5e-4, 1.1 * 5e-4, 1.1 * 5e-4, 8 * 5e-4)
    start: int = 500                  # gdln_off.py start_epoch: frozen before
    switch: int = 12000               # gdln_off.py switch_epoch1: common pathway alone before
    epochs: int = 30001               # relu.py / gdln_off.py num_epochs
    shallow_width: int = 700          # relu3.py num_hidden
    shallow_std: float = 0.005 / 700  # relu3.py param_scale_relu = 0.005 / num_hidden
    shallow_epochs: int = 8001        # relu3.py num_epochs
    lr: float = PAPER_LR
    seeds: tuple
    record_epochs: int = 50
    dtype: str = "float32"

    def __post_init__(self):
        super().__post_init__()
        _positive(self, "width", "relu_std", "module", "epochs", "shallow_width", "shallow_std",
                  "shallow_epochs", "lr", "record_epochs")
        _positive_all(self, "gdln_std", count=4)
        if not 0 <= self.start <= self.switch <= self.epochs:
            raise InvalidArgument(f"Depth: need 0 <= start ({self.start}) <= switch ({self.switch}) "
                                  f"<= epochs ({self.epochs})")
        _seeds(self)
        _dtype(self)

    def steps(self, epochs) -> int:
        """GD steps at ``lr`` that cover ``epochs`` of the paper's clock."""
        return round(epochs * PAPER_LR / self.lr)


_CI_SCALE = float(np.sqrt(420 / 112))
#: paper scale: the released recipe; the released run indices 1-32 as seeds (relu.py and
#: gdln_off.py: np.random.seed(run index); replot.py reads runs 1-99).  32 runs decide a claim
#: about each trained network by unanimity; the spread claims state their power.
DEPTH = Scales(
    ci=Depth(scale="ci", width=112, relu_std=6e-4 * _CI_SCALE, module=16,
             gdln_std=tuple(s * _CI_SCALE for s in Depth.gdln_std), shallow_width=112,
             shallow_std=0.005 / 112, lr=8e-3, dtype="float64",
             seeds=seeds("ci", 4, offset=100)),
    full=Depth(scale="full", seeds=tuple(range(1, 33))))


@dataclass(frozen=True, kw_only=True)
class Xor(Config):
    """Fig 2: 3-``hidden``-1 bias-free ReLU nets on the XoR-with-margin data, one per (Delta,
    seed), GD at ``lr`` = 1/tau on the mean loss Eq. (2) for ``steps``."""

    deltas: tuple = tuple(float(d) for d in np.round(np.linspace(0.0, 2.0, 21), 3))
    hidden: int = 128                 # Fig 2 "N_h = 128"
    variance: float = 4e-8 / 128      # Fig 2 "initialization variance 4e-8 / N_h"
    lr: float = 0.4                   # Fig 2 "learning rate 1/tau = .4"
    steps: int = 250
    criterion: float = 0.2            # Fig 2d "loss = .2"
    seeds: tuple
    dtype: str = "float64"

    def __post_init__(self):
        super().__post_init__()
        _positive(self, "hidden", "variance", "lr", "steps", "criterion")
        if not self.deltas or any(isinstance(d, bool) or not np.isfinite(d) or d < 0
                                  for d in self.deltas):
            raise InvalidArgument(f"Xor.deltas={self.deltas!r} must be finite non-negative margins")
        _seeds(self)
        _dtype(self)


#: Fig 2 states its settings (no released code for App C), so the one configuration is the
#: paper's, with the settings it leaves open (steps, seeds, Delta grid, dtype) checked for
#: sensitivity in the same run
XOR = Xor(scale="ci", seeds=seeds("ci", 3))


@dataclass(frozen=True, kw_only=True)
class Linear(Config):
    """App A, Fig 7: a two-layer linear net on the 4-item hierarchy of Saxe et al. (2019), GD at
    ``lr`` on the 1/2-sum loss (tau = 1/(4 lr) steps) for ``steps``, recording every
    ``record_every`` steps."""

    width: int = 16
    std: float = 1e-4
    lr: float = 0.01
    steps: int = 2000
    record_every: int = 5
    seeds: tuple = (1,)
    dtype: str = "float64"

    def __post_init__(self):
        super().__post_init__()
        _positive(self, "width", "std", "lr", "steps", "record_every")
        _seeds(self)
        _dtype(self)


#: Fig 7 gives no settings ("the exact setting and dynamics are from Saxe et al. 2019"), so the
#: one configuration is checked for sensitivity to each in the same run (``FIG7_VARIANTS``)
FIG7 = Linear(scale="ci")
FIG7_VARIANTS = {"hidden units": {"width": 32}, "init std": {"std": 1e-5}, "learning rate": {"lr": 0.005,
                                                                                       "steps": 4000,
                                                                                       "record_every": 10},
                 "seeds": {"seeds": (2,)}, "dtype": {"dtype": "float32"}}


@dataclass(frozen=True, kw_only=True)
class Tasks(Config):
    """The datasets of Sec 4-6 (MHS-Asm2.1 checks their statistics): the Sec 4 task and the
    hierarchical tasks with ``contexts`` contexts at the unit and the released context scales."""

    contexts: tuple = (3, 4, 5)

    def __post_init__(self):
        super().__post_init__()
        if not self.contexts or any(isinstance(C, bool) or int(C) != C or C < 2
                                    for C in self.contexts):
            raise InvalidArgument(f"Tasks.contexts={self.contexts!r} must be integers >= 2 (numbers of "
                                  "contexts)")


TASKS = Tasks(scale="ci")
