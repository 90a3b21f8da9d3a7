"""Hypothesis strategies shared by the papers' checks, composed from small named pieces.

Every strategy is built from drawn numbers only (signs, magnitudes, shapes, matrix entries,
angles, permutations), so hypothesis shrinks every part and a counterexample comes out simple.
Public hypothesis API only.  The objects the papers share:

- numbers: :func:`log_uniform`, :func:`signed_log_uniform`, :func:`zero_or_signed`;
- one mode of the sigmoidal mode law (BL Eq. (7), BA Eq. (3), MHS Eq. (7)), its hitting time and
  the delay caused by dead units: :class:`ModeParams`, :class:`HittingParams`,
  :class:`DelayParams` (:func:`mode_params`, :func:`hitting_params`, :func:`delay_params`);
- lambda-balanced problems (LR): :class:`BalancedProblem`, the numbers
  ``numerics.lazy_rich.experiments.problem_from_numbers`` turns into a whitened task and a
  lambda-balanced initialisation (:func:`balanced_problems`);
- label matrices Y (N_out x P) of the bias papers: general (:func:`label_matrices`), with the
  equal-overlap property Y^T Y 1 proportional to 1 (:func:`equal_overlap_labels`), and one-hot
  labels of unbalanced classes (:func:`unbalanced_classes`);
- bias strengths and network shapes of the bias papers (:data:`bias_strengths`,
  :data:`network_shapes`).

Factories raise ``ValueError`` naming the argument that is wrong; the parameter records check
their fields when built, so a hand-pinned ``@example`` with a typo fails loudly.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from hypothesis import strategies as st


# ---------------------------------------------------------------------------------- numbers
def _check_bounds(lo, hi):
    if not (isinstance(lo, numbers.Real) and lo > 0):
        raise ValueError(f"lo={lo!r} must be a positive number")
    if not (isinstance(hi, numbers.Real) and hi >= lo):
        raise ValueError(f"hi={hi!r} must be a number >= lo={lo!r}")


def _require_positive(record, *names):
    for name in names:
        value = getattr(record, name)
        if not value > 0:
            raise ValueError(f"{name}={value!r} must be > 0")


def log_uniform(lo: float, hi: float):
    """Floats spread evenly in log scale over [lo, hi], 0 < lo <= hi."""
    _check_bounds(lo, hi)
    return st.floats(math.log(lo), math.log(hi)).map(math.exp)


def signed_log_uniform(lo: float, hi: float):
    """A sign, then a magnitude from :func:`log_uniform` over [lo, hi]: never 0."""
    return st.tuples(st.sampled_from([-1.0, 1.0]), log_uniform(lo, hi)).map(
        lambda sign_size: sign_size[0] * sign_size[1])


def zero_or_signed(lo: float, hi: float):
    """Exactly 0, or a number of either sign with magnitude uniform in [lo, hi], 0 < lo <= hi
    (magnitudes far below ``lo`` only probe float underflow, not the claims)."""
    _check_bounds(lo, hi)
    return st.one_of(st.just(0.0), st.tuples(st.sampled_from([1.0, -1.0]), st.floats(lo, hi))
                     .map(lambda sign_size: sign_size[0] * sign_size[1]))


# ------------------------------------------------------------------------------- mode law
#: a singular value of Sigma_yx (a mode's input-output correlation)
singular_values = log_uniform(1e-3, 10.0)
#: an input variance along a mode, d = v^T Sigma_x v
input_variances = log_uniform(1e-3, 10.0)
#: a time constant tau
time_constants = log_uniform(1.0, 1e5)


@dataclass(frozen=True)
class ModeParams:
    """One mode of tau a' = 2a(s - d a): singular value ``s``, input variance ``d``, initial
    strength ``a0`` and time constant ``tau``, all > 0; the plateau is s/d.  Pass it on as
    ``**dataclasses.asdict(p)``."""
    s: float
    d: float
    a0: float
    tau: float

    def __post_init__(self):
        _require_positive(self, "s", "d", "a0", "tau")


@dataclass(frozen=True)
class HittingParams:
    """A :class:`ModeParams` mode with a threshold ``rho`` > 0 to reach."""
    s: float
    d: float
    a0: float
    rho: float
    tau: float

    def __post_init__(self):
        _require_positive(self, "s", "d", "a0", "rho", "tau")


@dataclass(frozen=True)
class DelayParams:
    """A :class:`HittingParams` mode with the alive fraction ``g`` of hidden units, 0 < g < 1."""
    s: float
    d: float
    a0: float
    rho: float
    tau: float
    g: float

    def __post_init__(self):
        _require_positive(self, "s", "d", "a0", "rho", "tau")
        if not 0 < self.g < 1:
            raise ValueError(f"g={self.g!r} must lie in (0, 1)")


def mode_params(decaying: bool = True):
    """:class:`ModeParams` with a0 below the plateau s/d or, ``decaying``, up to twice above it."""
    if not isinstance(decaying, bool):
        raise ValueError(f"decaying={decaying!r} must be True or False")
    return _mode_params(decaying)


@st.composite
def _mode_params(draw, decaying: bool):
    s, d, tau = draw(singular_values), draw(input_variances), draw(time_constants)
    hi = 2.0 if decaying else 0.99
    a0 = draw(log_uniform(1e-8, hi)) * s / d
    return ModeParams(s=s, d=d, a0=a0, tau=tau)


def _off_the_plateau(p: ModeParams) -> bool:
    return abs(p.a0 * p.d / p.s - 1) > 1e-6


@st.composite
def hitting_params(draw):
    """:class:`HittingParams` with rho between a0 and the plateau s/d, either side; a0 off the
    plateau (there the mode is stationary and every hitting-time formula is 0/0)."""
    p = draw(mode_params().filter(_off_the_plateau))
    plateau = p.s / p.d
    # rho at least 1e-6 of the way: closer, the reference event time (~1e-14) is below the
    # integrator's resolution; rho = a0 itself is pinned as an @example by the tests.
    frac = draw(st.floats(1e-6, 0.999))
    return HittingParams(s=p.s, d=p.d, a0=p.a0, rho=p.a0 + frac * (plateau - p.a0), tau=p.tau)


@st.composite
def delay_params(draw):
    """:class:`DelayParams` with 0 < a0 <= rho < s/d and alive fraction g in (0, 1)."""
    p = draw(mode_params(decaying=False))
    frac = draw(st.floats(0.0, 0.99))
    rho = p.a0 + frac * (p.s / p.d - p.a0)
    return DelayParams(s=p.s, d=p.d, a0=p.a0, rho=rho, tau=p.tau, g=draw(st.floats(0.01, 0.99)))


# ----------------------------------------------------------------- lambda-balanced problems
#: (Ni, No) up to 6, square, funnel and inverted funnel alike
shapes = st.tuples(st.integers(1, 6), st.integers(1, 6))
#: balances of both signs, including exactly 0
balances = zero_or_signed(1e-3, 10.0)
#: absolute scale of the initial weights
scales = log_uniform(1e-3, 10.0)
#: one matrix entry: exactly 0 (rank deficiency) or a standard-normal-sized number
entries = zero_or_signed(1e-3, 3.0)


def matrix_entries(rows: int, cols: int):
    """The ``rows * cols`` entries of a matrix, row by row, each from :data:`entries`."""
    return st.lists(entries, min_size=rows * cols, max_size=rows * cols)


@dataclass(frozen=True)
class BalancedProblem:
    """The numbers a lambda-balanced problem is built from, the arguments of
    ``numerics.lazy_rich.experiments.problem_from_numbers`` (``**dataclasses.asdict(p)``):
    shapes ``n_in``, ``n_out`` (hidden width min of the two), balance ``lam``, absolute scale
    ``scale`` > 0 of the initial weights, row-major entries ``w1`` (Nh x Ni), ``w2`` (No x Nh) and
    ``syx`` (No x Ni), and the angle ``rot`` of the hidden rotation."""
    n_in: int
    n_out: int
    lam: float
    scale: float
    w1: Sequence[float]
    w2: Sequence[float]
    syx: Sequence[float]
    rot: float

    def __post_init__(self):
        _require_positive(self, "n_in", "n_out", "scale")
        nh = min(self.n_in, self.n_out)
        for name, size in (("w1", nh * self.n_in), ("w2", self.n_out * nh),
                           ("syx", self.n_out * self.n_in)):
            if len(getattr(self, name)) != size:
                raise ValueError(f"{name} has {len(getattr(self, name))} entries; shapes "
                                 f"n_in={self.n_in}, n_out={self.n_out} need {size}")


@st.composite
def balanced_problems(draw):
    """:class:`BalancedProblem`: shapes, lambda, scale, entries of W1, W2 and Syx, an angle."""
    n_in, n_out = draw(shapes)
    nh = min(n_in, n_out)
    return BalancedProblem(n_in=n_in, n_out=n_out, lam=draw(balances), scale=draw(scales),
                           w1=draw(matrix_entries(nh, n_in)), w2=draw(matrix_entries(n_out, nh)),
                           syx=draw(matrix_entries(n_out, n_in)),
                           rot=draw(st.floats(0.0, 2 * math.pi)))


# --------------------------------------------------------------------------- label matrices
def label_matrices(nonnegative: bool = False):
    """Y (N_out x P, N_out <= 5, 2 <= P <= 8) with entries in [0, 2] (``nonnegative``) or
    [-2, 2], and ybar != 0 (the bias mode present)."""
    if not isinstance(nonnegative, bool):
        raise ValueError(f"nonnegative={nonnegative!r} must be True or False")
    return _label_matrices(nonnegative)


@st.composite
def _label_matrices(draw, nonnegative: bool):
    n_out, p = draw(st.integers(1, 5)), draw(st.integers(2, 8))
    lo = 0.0 if nonnegative else -2.0
    rows = draw(st.lists(st.lists(st.floats(lo, 2.0), min_size=p, max_size=p),
                         min_size=n_out, max_size=n_out))
    Y = np.array(rows)
    if np.linalg.norm(Y.mean(1)) < 1e-3:
        Y[0] += 0.5          # keep the bias mode present (ybar != 0)
    return Y


@st.composite
def equal_overlap_labels(draw):
    """Non-negative Y (2 <= P <= 8) with Y^T Y 1 proportional to 1 (BL-Prop1's condition):
    stacked circulant blocks of non-negative rows, items (columns) and features (rows) permuted."""
    p = draw(st.integers(2, 8))
    blocks = draw(st.integers(1, 3))
    rows = []
    for _ in range(blocks):
        base = np.array(draw(st.lists(st.floats(0.0, 2.0), min_size=p, max_size=p)))
        base[draw(st.integers(0, p - 1))] += 0.5        # not all zero
        keep = draw(st.integers(1, p))                   # a subset of the p shifts
        shifts = np.array([np.roll(base, k) for k in range(p)])
        rows.append(shifts if keep == p else _all_shifts_summed(shifts, keep))
    Y = np.vstack(rows)
    cols = draw(st.permutations(range(p)))
    return Y[:, list(cols)][np.argsort(draw(st.permutations(range(Y.shape[0]))))]


def _all_shifts_summed(shifts, keep):
    """Rows that are sums of ``keep`` consecutive shifts: still a circulant, so column overlaps
    stay equal while the number of label rows varies."""
    return np.array([shifts[np.arange(k, k + keep) % len(shifts)].sum(0)
                     for k in range(len(shifts))])


@st.composite
def unbalanced_classes(draw):
    """One-hot labels (K x P) of 2 <= K <= 4 classes with unequal class sizes (1 to 4 items
    each), a common case BL Prop. 1 misses."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=2, max_size=4).filter(
        lambda s: len(set(s)) > 1))
    Y = np.zeros((len(sizes), sum(sizes)))
    Y[np.repeat(np.arange(len(sizes)), sizes), np.arange(sum(sizes))] = 1.0
    return Y


# -------------------------------------------------------------------- bias networks (BL, BA)
#: a bias strength c != 0, either sign, from 1e-2 to 1e2
bias_strengths = signed_log_uniform(1e-2, 1e2)

#: shapes (n_in, n_hid, n_out, p) of a network and its data, square or not
network_shapes = st.tuples(st.integers(1, 5), st.integers(1, 6), st.integers(1, 4),
                           st.integers(1, 7))
