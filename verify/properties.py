"""Hunting for counterexamples with hypothesis, with the outcome handed back as a measurement.

:func:`search` runs ``prop`` over examples drawn from ``strategies`` under the active profile
(``ci``, ``dev`` or ``explore``).  ``prop`` returns the measured value of one example (an error,
a margin, or a truth value); ``criterion`` ``(op, threshold)`` is the condition every example
must meet, stated once.  The result records how many examples ran, the worst value and
hypothesis' shrunk counterexample when one fails; hand it to ``claim.measure(name, result,
source=...)``.  Counterexamples found while exploring are pinned by passing them in
``examples`` (each becomes an ``@example``, replayed in every profile).

What each search tried reaches the run record through its measurement (``examples``, worst
value, ``counterexample``): ``claims.json``'s ``exploration`` lists them.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
from hypothesis import example, given, settings
from hypothesis.database import ExampleDatabase

from verify.measurement import Criterion, fmt


@dataclass
class SearchResult:
    ok: bool
    examples: int
    worst: object
    criterion: Criterion
    counterexample: str = ""


class _Falsified(AssertionError):
    pass


def _plain(value):
    """Drawn arguments as plain Python, exact enough to pin as an @example: arrays as nested lists
    (never summarised, unlike a record's ``as_json``), tuples kept, other objects as drawn."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


class _PropertyDatabase(ExampleDatabase):
    """The profile's example database, with keys set apart per property.

    Every :func:`search` runs the same inner test function, so hypothesis would file the examples
    of all properties under one key; prefixing the key with the property's code location makes a
    counterexample found once replay for its own property.
    """

    def __init__(self, inner: ExampleDatabase, prop):
        super().__init__()
        self._inner = inner
        code = getattr(prop, "__code__", None)
        where = (f"{code.co_filename}:{code.co_firstlineno}:{prop.__qualname__}" if code is not None
                 else repr(prop))
        self._prefix = hashlib.sha256(where.encode()).digest()[:16]

    def save(self, key: bytes, value: bytes) -> None:
        self._inner.save(self._prefix + key, value)

    def fetch(self, key: bytes):
        return self._inner.fetch(self._prefix + key)

    def delete(self, key: bytes, value: bytes) -> None:
        self._inner.delete(self._prefix + key, value)


def _worse(op: str, new, old) -> bool:
    """Whether ``new`` lies further on the failing side of the criterion than ``old``."""
    return old is None or (op in ("<=", "<") and new > old) or (op in (">=", ">") and new < old)


def search(prop, criterion, examples=(), **strategies) -> SearchResult:
    """Run ``prop(**drawn) -> value`` over hypothesis examples against ``criterion = (op, threshold)``."""
    if not strategies:
        raise ValueError("strategies is empty: name at least one argument strategy")
    if not (isinstance(criterion, tuple) and len(criterion) == 2):
        raise ValueError(f"criterion={criterion!r} must be (op, threshold), e.g. ('<=', 1e-8)")
    crit = Criterion(*criterion)
    stats = {"n": 0, "worst": None}

    def body(**kwargs):
        value = prop(**kwargs)
        if isinstance(value, (np.bool_, np.floating, np.integer)):
            value = value.item()
        if isinstance(value, float) and value != value:
            # a NaN is the worst value there is: recorded as text, never compared
            stats["worst"] = "NaN"
            raise _Falsified(f"{_plain(kwargs)} (value NaN)")
        stats["n"] += 1
        ok = crit.test(value)
        if stats["worst"] is None or (stats["worst"] != "NaN" and _worse(crit.op, value, stats["worst"])) \
                or not ok:
            stats["worst"] = value
        if not ok:
            raise _Falsified(f"{_plain(kwargs)} (value {fmt(value)})")

    # One shrunk counterexample is the evidence we want, not a group of distinct failures.
    database = settings().database
    local = dict(database=_PropertyDatabase(database, prop)) if database is not None else {}
    test = settings(report_multiple_bugs=False, **local)(given(**strategies)(body))
    for pinned in examples:
        test = example(**pinned)(test)
    try:
        test()
    except _Falsified as exc:
        return SearchResult(False, stats["n"], stats["worst"], crit, str(exc))
    return SearchResult(True, stats["n"], stats["worst"], crit)
