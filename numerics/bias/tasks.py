"""The toy tasks of the bias papers that the text leaves to figures (BL §6, BA §3 reconstructions).

Columns are samples.  The hierarchical task is :func:`numerics.datasets.hierarchy`; the others are
the catalogue's +-1 codings (BL §6 items 2-4, BA R3/R4), stated here once:

* XOR (BL-Fig2C, BA-Fig1C): (1,1), (-1,-1) -> [1,0]; (1,-1), (-1,1) -> [0,1].
* XOR plus a linear feature of margin 2*delta (BL-Fig5A): x3 = +delta on class A, -delta on B.
* Parallel task (BL-Fig6A, BA-Fig3A): corners (1,1), (1,-1), (-1,1), (-1,-1); linear feature
  s = 1[x1 > 0] = [1,1,0,0], non-linear c = 1[x1 x2 > 0] = [1,0,0,1]; y = [s, 1-s, c, 1-c].
"""
from __future__ import annotations

import numpy as np

#: one-hot labels of the two XOR classes, samples as columns (BL App E, L654)
XOR_LABELS = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])
#: App D features of the parallel task (L636): the linear (simple) and the XOR (complex) feature
LINEAR_FEATURE = np.array([1.0, 1.0, 0.0, 0.0])
XOR_FEATURE = np.array([1.0, 0.0, 0.0, 1.0])


def xor():
    """(X, Y): the +-1 XOR task; X (2, 4), Y (2, 4)."""
    X = np.array([[1.0, -1.0, 1.0, -1.0], [1.0, -1.0, -1.0, 1.0]])
    return X, XOR_LABELS.copy()


def xor_margin(delta: float):
    """(X, Y): XOR in dims 1-2 and a linear feature x3 = +-delta (margin 2 delta); X (3, 4)."""
    if not np.isfinite(delta) or delta < 0:
        raise ValueError(f"delta={delta!r} must be finite and non-negative")
    X, Y = xor()
    return np.vstack([X, delta * np.array([1.0, 1.0, -1.0, -1.0])]), Y


def parallel():
    """(X, Y): linear and XOR task on the same 4 corners; X (2, 4), Y (4, 4) = [s; 1-s; c; 1-c]."""
    X = np.array([[1.0, 1.0, -1.0, -1.0], [1.0, -1.0, 1.0, -1.0]])
    s, c = LINEAR_FEATURE, XOR_FEATURE
    return X, np.vstack([s, 1 - s, c, 1 - c])
