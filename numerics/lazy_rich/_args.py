"""Argument checks of ``numerics.lazy_rich``: the suite's one vocabulary
(:mod:`numerics.validation`, one error type naming the argument and the value) under the names
this package's modules use, and :func:`weights`, the one check of its own."""
from __future__ import annotations

import numpy as np

from numerics.validation import InvalidArgument, finite_array
from numerics.validation import generator  # noqa: F401 -- this package's name for it
from numerics.validation import integer as count  # noqa: F401
from numerics.validation import number as scalar  # noqa: F401
from numerics.validation import seed_list as seeds  # noqa: F401


def weights(W1, W2, name1: str = "W1", name2: str = "W2") -> tuple[np.ndarray, np.ndarray]:
    """Finite layer matrices W1 (..., Nh, Ni) and W2 (..., No, Nh) with a common hidden width."""
    W1, W2 = finite_array(W1, name1), finite_array(W2, name2)
    if W1.ndim < 2 or W2.ndim < 2 or W1.shape[-2] != W2.shape[-1]:
        raise InvalidArgument(f"{name1} {W1.shape} and {name2} {W2.shape} must be (..., Nh, Ni) and (..., No, Nh)")
    return W1, W2
