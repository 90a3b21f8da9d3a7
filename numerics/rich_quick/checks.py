"""Argument checks shared by the GRQ numerics (``numerics/rich_quick``): each names the argument
it refuses.  The Fig. 6 ensembles (LeNet-5, ResNets, the RHM MLP, the grokking transformer) are
(seed, alpha) members, alpha the D.3 rescaling factor."""
from __future__ import annotations

import numpy as np
import sympy as sp

from numerics.validation import InvalidArgument, finite_array, integer, number, seed_list


def alpha_of(value, name: str = "alpha") -> float:
    """One rescaling factor alpha (App. D.3: first layer / alpha): finite and > 0."""
    return number(value, name, positive=True)


def members(seeds, alphas) -> tuple[tuple[int, ...], np.ndarray]:
    """The members (seed, alpha) of an ensemble: non-negative integer seeds and finite positive
    alphas, as many of one as of the other (never silently truncated to the shorter)."""
    seeds = seed_list(seeds)
    alphas = finite_array(alphas, "alphas", ndim=1)
    if alphas.shape != (len(seeds),):
        raise InvalidArgument(f"seeds ({len(seeds)}) and alphas ({alphas.size}) must pair up: one alpha "
                              "per member")
    if np.any(alphas <= 0):
        raise InvalidArgument(f"alphas must be positive (a member's first layer is divided by alpha), "
                              f"got {alphas.tolist()}")
    return seeds, alphas


def size(value, name: str, least: int = 1) -> int:
    """A layer width, a count or a number of steps: an integer >= ``least``."""
    return integer(value, name, least)


def numbers(label: str, value, *, positive: bool = False, length: int | None = None) -> np.ndarray:
    """A non-empty tuple of finite numbers (> 0 with ``positive``; ``length`` of them)."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        arr = np.array([np.nan])
    if (arr.ndim != 1 or arr.size == 0 or (length is not None and arr.size != length)
            or not np.all(np.isfinite(arr)) or (positive and np.any(arr <= 0))):
        size_ = f"{length} " if length is not None else "a non-empty tuple of "
        raise InvalidArgument(f"{label}={value!r} must be {size_}finite "
                              f"{'positive ' if positive else ''}numbers")
    return arr


def formula(expr, name: str = "expr"):
    """A formula under test: a sympy expression or matrix, or a plain number (never text, which
    sympy would parse)."""
    if isinstance(expr, bool) or not isinstance(expr, (sp.Basic, sp.MatrixBase, int, float, np.number)):
        raise InvalidArgument(f"{name} must be a sympy expression, got {type(expr).__name__}")
    return expr


def parts(forms, names, label: str) -> list:
    """The parts ``names`` of a dict or ``theory.registry.Forms`` (read as the caller would read
    them); a KeyError naming the ones missing."""
    out, missing = [], []
    for name in names:
        try:
            out.append(forms[name])
        except (KeyError, AttributeError, TypeError):
            missing.append(name)
    if missing:
        raise KeyError(f"{label} must name {sorted(names)}; it misses {missing}")
    return out
