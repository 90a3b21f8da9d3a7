"""Argument validation shared by every public function: errors name the argument."""
from __future__ import annotations

import numpy as np


def finite_array(value, name: str, *, ndim: int | None = None, shape=None) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be numeric, got {type(value).__name__}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimensions, got shape {arr.shape}")
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}, got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains non-finite values (nan or inf)")
    return arr


def positive(value, name: str, *, allow_zero: bool = False) -> np.ndarray:
    arr = finite_array(value, name)
    bad = arr < 0 if allow_zero else arr <= 0
    if np.any(bad):
        raise ValueError(f"{name} must be {'non-negative' if allow_zero else 'positive'}, "
                         f"got {arr if arr.size < 6 else arr[bad][:5]}")
    return arr
