"""The toy tasks of the bias papers, which the texts show only as figures (BL Figs 2A, 2C, 5A, 6A;
BA Figs 1A, 1C, 3A): the catalogue's reconstructions and, for each, one alternative coding that
fits the same words, so a run can show whether the unknown coding moves its outcome.

Columns are samples.  The reconstructions (catalogue BL §6, BA R1-R4):

* ``hierarchy4``: X = I_4, Y the 7 x 4 Saxe tree (grow, move, roots, fly, swim, leaves, petals);
  alternative ``hierarchy8``: X = I_8 and the 15 x 8 tree (also "similar to Saxe et al. 2019").
* ``xor``: corners (1,1), (-1,-1) -> [1,0]; (1,-1), (-1,1) -> [0,1] (labels: App E L654);
  alternative ``xor01``: the same on {0,1}^2 corners.
* ``xor_margin``: XOR in dims 1-2 and x3 = +Delta (class A), -Delta (class B): margin 2 Delta
  (L277); alternative ``xor_margin01``: the XOR dims on {0,1}^2.
* ``parallel``: corners (1,1), (1,-1), (-1,1), (-1,-1); y = [s, 1-s, c, 1-c] with the App D
  features s = [1,1,0,0] (linear), c = [1,0,0,1] (XOR); alternative ``parallel01`` on {0,1}^2.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from numerics.datasets import hierarchy
from numerics.validation import InvalidArgument, finite_array

#: one-hot labels of the two XOR classes, samples as columns (BL App E, L654)
XOR_LABELS = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])
#: App D features of the parallel task (L636): the linear (simple) and the XOR (complex) feature
LINEAR_FEATURE = np.array([1.0, 1.0, 0.0, 0.0])
XOR_FEATURE = np.array([1.0, 0.0, 0.0, 1.0])
#: corner codings of the XOR inputs: class A (1,1), (lo,lo); class B (1,lo), (lo,1)
_XOR_CORNERS = {"+-1": np.array([[1.0, -1.0, 1.0, -1.0], [1.0, -1.0, -1.0, 1.0]]),
                "0/1": np.array([[1.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0]])}
#: corners of the parallel task, ordered so that s = x1 > lo and c pairs the diagonal corners
_PARALLEL_CORNERS = {"+-1": np.array([[1.0, 1.0, -1.0, -1.0], [1.0, -1.0, 1.0, -1.0]]),
                     "0/1": np.array([[1.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0]])}


def _coding(coding: str) -> str:
    if coding not in _XOR_CORNERS:
        raise InvalidArgument(f"coding={coding!r} must be one of {sorted(_XOR_CORNERS)}")
    return coding


def xor(coding: str = "+-1"):
    """(X, Y): the XOR task; X (2, 4), Y (2, 4) one-hot."""
    return _XOR_CORNERS[_coding(coding)].copy(), XOR_LABELS.copy()


def xor_margin(delta: float, coding: str = "+-1"):
    """(X, Y): XOR in dims 1-2 and a linear feature x3 = +-delta (margin 2 delta); X (3, 4)."""
    if isinstance(delta, bool) or not np.isfinite(delta) or delta < 0:
        raise InvalidArgument(f"delta={delta!r} must be finite and non-negative")
    X, Y = xor(coding)
    return np.vstack([X, delta * np.array([1.0, 1.0, -1.0, -1.0])]), Y


def parallel(coding: str = "+-1"):
    """(X, Y): linear and XOR task on the same 4 corners; X (2, 4), Y (4, 4) = [s; 1-s; c; 1-c]."""
    s, c = LINEAR_FEATURE, XOR_FEATURE
    return _PARALLEL_CORNERS[_coding(coding)].copy(), np.vstack([s, 1 - s, c, 1 - c])


@dataclass(frozen=True)
class Task:
    """A toy task: how to make it, what it is in words, and its alternative coding."""

    make: Callable[..., tuple]     # () -> (X, Y), or (delta) -> (X, Y) for a margin task
    text: str
    alternative: str
    margin: bool = False           # one input set per member (its Delta)


TASKS = {
    "hierarchy4": Task(lambda: hierarchy(2), "4-item Saxe tree: X = I_4, Y the 7 x 4 features "
                       "(grow, move, roots, fly, swim, leaves, petals)", "hierarchy8"),
    "hierarchy8": Task(lambda: hierarchy(3), "8-item Saxe tree: X = I_8, Y the 15 x 8 features",
                       "hierarchy4"),
    "xor": Task(xor, "XOR on the +-1 corners, one-hot labels", "xor01"),
    "xor01": Task(lambda: xor("0/1"), "XOR on the {0,1} corners, one-hot labels", "xor"),
    "xor_margin": Task(xor_margin, "XOR on the +-1 corners plus x3 = +-Delta (margin 2 Delta), "
                       "one-hot labels", "xor_margin01", margin=True),
    "xor_margin01": Task(lambda d: xor_margin(d, "0/1"), "XOR on the {0,1} corners plus x3 = "
                         "+-Delta, one-hot labels", "xor_margin", margin=True),
    "parallel": Task(parallel, "parallel task on the +-1 corners, y = [s, 1-s, c, 1-c]",
                     "parallel01"),
    "parallel01": Task(lambda: parallel("0/1"), "parallel task on the {0,1} corners, "
                       "y = [s, 1-s, c, 1-c]", "parallel"),
}


def task(name: str) -> Task:
    try:
        return TASKS[name]
    except KeyError:
        raise InvalidArgument(f"task={name!r} is not one of {sorted(TASKS)}") from None


def data_facts(X, Y) -> dict:
    """What a generated data set is, for its validation against the paper's description: the
    number of samples and of distinct inputs, inputs carrying more than one label, and the
    samples per distinct label vector (class balance)."""
    X, Y = finite_array(X, "X"), finite_array(Y, "Y")
    if X.ndim != 2 or Y.ndim != 2 or X.shape[1] != Y.shape[1]:
        raise InvalidArgument(f"X {X.shape} and Y {Y.shape} must be (features, samples) with equal "
                              "sample counts")
    inputs = {tuple(col) for col in X.T}
    conflicts = sum(len({tuple(Y[:, i]) for i in range(X.shape[1]) if tuple(X[:, i]) == x}) > 1
                    for x in inputs)
    _, counts = np.unique(Y.T, axis=0, return_counts=True)
    return {"samples": X.shape[1], "distinct inputs": len(inputs), "label conflicts": conflicts,
            "samples per label": sorted(int(n) for n in counts)}


def equal_overlap(Y, tol=1e-9) -> bool:
    """BL-Prop1's condition: Y^T Y 1 = lambda 1 with lambda the top eigenvalue of Y^T Y."""
    Y = finite_array(Y, "Y", ndim=2)
    G = Y.T @ Y
    r = G.sum(1)
    lam = np.linalg.eigvalsh(G)[-1]
    return bool(np.allclose(r, r.mean(), atol=tol * max(1, lam))
                and r.mean() >= lam * (1 - 1e-9))
