"""Argument checks shared by the public functions of ``numerics.lazy_rich``: each raises a clear
error naming the argument (never a silent NaN, never a hang)."""
from __future__ import annotations

import numpy as np

from numerics.validation import finite_array


def count(value, name: str, least: int = 1) -> int:
    """An integer >= ``least`` (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise ValueError(f"{name}={value!r} must be an integer >= {least}")
    return int(value)


def generator(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def scalar(value, name: str, *, positive: bool = False, nonnegative: bool = False) -> float:
    """A finite real number (``positive``: > 0, ``nonnegative``: >= 0)."""
    if isinstance(value, bool):
        raise TypeError(f"{name}={value!r} must be a number, not a bool")
    v = finite_array(value, name)
    if v.ndim != 0:
        raise ValueError(f"{name} must be a scalar, got shape {v.shape}")
    if (positive and v <= 0) or (nonnegative and v < 0):
        raise ValueError(f"{name}={float(v)!r} must be {'positive' if positive else 'non-negative'}")
    return float(v)


def seeds(values, name: str = "seeds") -> tuple[int, ...]:
    """A non-empty tuple of non-negative integer seeds."""
    if not isinstance(values, (tuple, list)) or not values:
        raise ValueError(f"{name}={values!r} must be a non-empty tuple of seeds")
    return tuple(count(v, f"{name}[{i}]", 0) for i, v in enumerate(values))


def weights(W1, W2, name1: str = "W1", name2: str = "W2") -> tuple[np.ndarray, np.ndarray]:
    """Finite layer matrices W1 (..., Nh, Ni) and W2 (..., No, Nh) with a common hidden width."""
    W1, W2 = finite_array(W1, name1), finite_array(W2, name2)
    if W1.ndim < 2 or W2.ndim < 2 or W1.shape[-2] != W2.shape[-1]:
        raise ValueError(f"{name1} {W1.shape} and {name2} {W2.shape} must be (..., Nh, Ni) and (..., No, Nh)")
    return W1, W2
