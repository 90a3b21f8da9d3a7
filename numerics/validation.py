"""Argument validation shared by every public function: errors name the argument and say what is
wrong (never a silent NaN, never a raw library error from deep inside)."""
from __future__ import annotations

import numpy as np


def finite_array(value, name: str, *, ndim: int | None = None, shape=None,
                 nonempty: bool = False) -> np.ndarray:
    """``value`` as a float array, finite, of ``ndim`` dimensions / ``shape`` where given, with at
    least one entry where ``nonempty``."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be numeric, got {type(value).__name__}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimensions, got shape {arr.shape}")
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}, got {arr.shape}")
    if nonempty and arr.size == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}): it needs at least one value")
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


def number(value, name: str, *, positive: bool = False, nonnegative: bool = False) -> float:
    """A finite real scalar (booleans and text refused) as a float, > 0 where ``positive``,
    >= 0 where ``nonnegative``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)) \
            and not (isinstance(value, np.ndarray) and value.ndim == 0):
        raise TypeError(f"{name}={value!r} must be a number, got {type(value).__name__}")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name}={v!r} must be finite")
    if (positive and v <= 0) or (nonnegative and v < 0):
        raise ValueError(f"{name}={v!r} must be {'positive' if positive else 'non-negative'}")
    return v


def integer(value, name: str, least: int = 1) -> int:
    """An integer >= ``least`` (a float only where it is integral; booleans refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)) \
            or not np.isfinite(value) or int(value) != value or value < least:
        raise ValueError(f"{name}={value!r} must be an integer >= {least}")
    return int(value)


def seed_list(values, name: str = "seeds") -> tuple[int, ...]:
    """A non-empty sequence of non-negative integer seeds (one integer counts as one seed); a
    fraction is refused, never truncated."""
    if isinstance(values, (int, np.integer)) and not isinstance(values, (bool, np.bool_)):
        values = (values,)
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"{name}={values!r} must be a sequence of integer seeds") from None
    if not items:
        raise ValueError(f"{name}={values!r} must be a non-empty sequence of seeds")
    return tuple(integer(v, f"{name}[{i}]", 0) for i, v in enumerate(items))


def time_grid(value, name: str = "grid") -> np.ndarray:
    """A non-empty, non-decreasing 1-d array of finite times >= 0."""
    grid = finite_array(value, name, ndim=1)
    if grid.size == 0 or grid[0] < 0 or np.any(np.diff(grid) < 0):
        raise ValueError(f"{name} must be a non-empty, non-decreasing array of times >= 0")
    return grid
