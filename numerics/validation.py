"""The one vocabulary of argument checks for every public function and configuration of
``numerics/`` and ``theory/`` (as hypothesis keeps ``check_type`` and ``InvalidArgument``).

Every check raises :class:`theory.validation.InvalidArgument` (imported here), whose message names the argument and the value and
says what is wrong (never a silent NaN, never a raw library error from deep inside).  It is a
``ValueError`` and a ``TypeError`` both, so a caller that catches either, as callers did before
there was one type, still does.  The rules are the same everywhere: a number is a finite real
(booleans and text refused); an integer is an integral number (``3.0`` is 3, ``3.5`` is refused,
never truncated); a configuration's annotated fields obey the same rules (:func:`check_fields`).

A long computation estimates its cost first and refuses one beyond its limit
(:func:`affordable`, :class:`TooCostly`): the error gives the estimate and the override
(``CLAIMS_COST_FACTOR``), instead of a run that never ends.
"""
from __future__ import annotations

import dataclasses
import os
import typing

import numpy as np

from theory.validation import InvalidArgument

#: the environment variable that scales every cost limit (2 allows twice the default work)
COST_FACTOR = "CLAIMS_COST_FACTOR"


class TooCostly(InvalidArgument):
    """A computation whose estimated cost exceeds its limit (see :func:`affordable`)."""


def affordable(estimate: float, limit: float, what: str, unit: str) -> float:
    """``estimate`` if it is within ``limit`` times ``$CLAIMS_COST_FACTOR`` (default 1), else
    :class:`TooCostly` naming ``what``, the estimate and the override."""
    text = os.environ.get(COST_FACTOR, "1")
    try:
        factor = float(text)
    except ValueError:
        factor = float("nan")
    if not np.isfinite(factor) or factor <= 0:
        raise InvalidArgument(f"{COST_FACTOR}={text!r} must be a positive number")
    if not estimate <= limit * factor:
        raise TooCostly(f"{what} would take about {estimate:.3g} {unit}, beyond the limit of "
                        f"{limit * factor:.3g}; set {COST_FACTOR}={estimate / limit:.3g} (or more) "
                        "to run it anyway")
    return estimate


def finite_array(value, name: str, *, ndim: int | None = None, shape=None,
                 nonempty: bool = False) -> np.ndarray:
    """``value`` as a float array, finite, of ``ndim`` dimensions / ``shape`` where given, with at
    least one entry where ``nonempty``."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidArgument(f"{name} must be numeric, got {type(value).__name__}") from None
    if ndim is not None and arr.ndim != ndim:
        raise InvalidArgument(f"{name} must have {ndim} dimensions, got shape {arr.shape}")
    if shape is not None and arr.shape != tuple(shape):
        raise InvalidArgument(f"{name} must have shape {tuple(shape)}, got {arr.shape}")
    if nonempty and arr.size == 0:
        raise InvalidArgument(f"{name} is empty (shape {arr.shape}): it needs at least one value")
    if not np.all(np.isfinite(arr)):
        raise InvalidArgument(f"{name} contains non-finite values (nan or inf)")
    return arr


def positive(value, name: str, *, allow_zero: bool = False) -> np.ndarray:
    arr = finite_array(value, name)
    bad = arr < 0 if allow_zero else arr <= 0
    if np.any(bad):
        raise InvalidArgument(f"{name} must be {'non-negative' if allow_zero else 'positive'}, "
                              f"got {arr if arr.size < 6 else arr[bad][:5]}")
    return arr


def _real(value) -> bool:
    return not isinstance(value, (bool, np.bool_)) and (
        isinstance(value, (int, float, np.number))
        or isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf")


def number(value, name: str, *, positive: bool = False, nonnegative: bool = False) -> float:
    """A finite real scalar (booleans and text refused) as a float, > 0 where ``positive``,
    >= 0 where ``nonnegative``."""
    if not _real(value):
        raise InvalidArgument(f"{name}={value!r} must be a number, got {type(value).__name__}")
    v = float(value)
    shown = value if isinstance(value, (int, float)) else v  # as given, not as numpy shows it
    if not np.isfinite(v):
        raise InvalidArgument(f"{name}={shown!r} must be finite")
    if (positive and v <= 0) or (nonnegative and v < 0):
        raise InvalidArgument(f"{name}={shown!r} must be {'positive' if positive else 'non-negative'}")
    return v


def integer(value, name: str, least: int | None = 1) -> int:
    """An integer >= ``least`` (None: any): an integral number (``3.0`` is 3; a fraction and a
    boolean are refused)."""
    if not _real(value) or not np.isfinite(value) or int(value) != value \
            or least is not None and value < least:
        raise InvalidArgument(f"{name}={value!r} must be an integer"
                              + ("" if least is None else f" >= {least}"))
    return int(value)


def choice(value, name: str, options) -> object:
    """``value`` if it is one of ``options``."""
    if not isinstance(value, typing.Hashable) or value not in tuple(options):
        raise InvalidArgument(f"{name}={value!r} is not one of {tuple(options)}")
    return value


def generator(rng, name: str = "rng") -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise InvalidArgument(f"{name} must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def seed_list(values, name: str = "seeds") -> tuple[int, ...]:
    """A non-empty sequence of non-negative integer seeds (one integer counts as one seed); a
    fraction is refused, never truncated."""
    if isinstance(values, (int, np.integer)) and not isinstance(values, (bool, np.bool_)):
        values = (values,)
    try:
        items = list(values)
    except TypeError:
        raise InvalidArgument(f"{name}={values!r} must be a sequence of integer seeds") from None
    if not items:
        raise InvalidArgument(f"{name}={values!r} must be a non-empty sequence of seeds")
    return tuple(integer(v, f"{name}[{i}]", 0) for i, v in enumerate(items))


def time_grid(value, name: str = "grid") -> np.ndarray:
    """A non-empty, non-decreasing 1-d array of finite times >= 0."""
    grid = finite_array(value, name, ndim=1)
    if grid.size == 0 or grid[0] < 0 or np.any(np.diff(grid) < 0):
        raise InvalidArgument(f"{name} must be a non-empty, non-decreasing array of times >= 0")
    return grid


def _field(value, kind, name: str):
    """``value`` checked against the annotation ``kind``: int, float, bool, str, ``X | None``
    and ``tuple[X, ...]`` are checked; other annotations are the configuration's own business."""
    args = typing.get_args(kind)
    if type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return None if value is None else _field(value, rest[0] if len(rest) == 1 else object, name)
    if typing.get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis:
        if not isinstance(value, (tuple, list)):
            raise InvalidArgument(f"{name}={value!r} must be a tuple")
        return tuple(_field(v, args[0], f"{name}[{i}]") for i, v in enumerate(value))
    if kind is bool:
        if not isinstance(value, (bool, np.bool_)):
            raise InvalidArgument(f"{name}={value!r} must be True or False")
        return bool(value)
    if kind is int:
        return integer(value, name, least=None)
    if kind is float:
        number(value, name)
        return value
    if kind is str and not isinstance(value, str):
        raise InvalidArgument(f"{name}={value!r} must be text, got {type(value).__name__}")
    return value


def check_fields(config) -> None:
    """Check every annotated field of the dataclass ``config`` with the rules above, in place
    (an integral float in an ``int`` field becomes an int): a configuration's own checks of
    ranges and relations follow."""
    hints = typing.get_type_hints(type(config))
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        checked = _field(value, hints.get(f.name, object), f"{type(config).__name__}.{f.name}")
        if checked is not value:
            object.__setattr__(config, f.name, checked)
