"""Whether an expression is identically zero, decided rather than guessed.

``sympy.simplify(expr) == 0`` is no decision: ``simplify`` leaves many true identities as they
are (``atan(x) + atan(1/x) - pi/2`` for x > 0, ``asinh(x) - log(x + sqrt(x^2 + 1))``), and the
pattern then reports a true identity as false.  :func:`decide` tries sympy first
(:func:`verify.checks.symbolic.is_zero`: a zero sympy reaches is a proof); where sympy cannot
reach zero it evaluates the expression at random points at high precision (mpmath,
:func:`verify.checks.symbolic.high_precision`).  A point where it is not zero refutes the
identity -- confirmed at twice the precision, and kept as the counterexample with its value --
and an expression that is zero to ``digits`` digits (relative to the size of its terms) at
every one of ``points`` points holds numerically, which the decision says.  :func:`measure_zero`
makes a decision a measurement whose ``exact(...)`` source names how it was decided
(docs/adding-a-paper.md, "Identities").

Points are real: a symbol declared ``positive`` (``negative``, ``nonnegative``, ``integer``) is
drawn accordingly, any other symbol from both signs, magnitudes 0.1 to 10 (log-uniform), and
``ranges`` overrides a symbol's interval (a claim's condition, ``0 < eta < 2``).  A point where
the expression is undefined or not real is drawn again; an expression that is real at too few
points is ``undecided``, which does not hold.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import sympy as sp

from verify.checks.symbolic import high_precision, is_zero
from verify.measurement import Measurement, exact, fmt, measure

PROVEN, NUMERICAL, REFUTED, UNDECIDED = "proven", "holds numerically", "refuted", "undecided"
#: draws per required point before an expression real at too few points is undecided
TRIES_PER_POINT = 10


@dataclass(frozen=True)
class Decision:
    """How ``expr == 0`` was decided: ``status`` is :data:`PROVEN` (sympy reached 0),
    :data:`NUMERICAL` (0 to ``digits`` digits at ``points`` random points), :data:`REFUTED` (not 0
    at ``counterexample``, where it is ``residual``) or :data:`UNDECIDED`; ``how`` says it in
    words."""

    status: str
    how: str
    points: int = 0
    digits: int = 0
    counterexample: Mapping[str, float] = field(default_factory=dict)
    residual: float | None = None

    @property
    def holds(self) -> bool:
        return self.status in (PROVEN, NUMERICAL)

    @property
    def at(self) -> str:
        """The counterexample as text (empty unless refuted)."""
        return _point_text(self.counterexample)

    def details(self) -> dict:
        out = {"decided": self.status}
        if self.status != PROVEN:
            out |= {"points": self.points, "digits": self.digits}
        if self.status == REFUTED:
            out |= {"residual": self.residual, "at": dict(self.counterexample)}
        return out


def _point_text(point: Mapping[str, float]) -> str:
    return ", ".join(f"{k} = {v:.6g}" for k, v in point.items())


def _checked(ranges: Mapping | None) -> dict:
    """``ranges`` with each interval as two floats, low < high, both finite."""
    out = {}
    for key, interval in dict(ranges or {}).items():
        try:
            low, high = (float(v) for v in interval)
        except (TypeError, ValueError):
            low = high = float("nan")
        if not (np.isfinite(low) and np.isfinite(high) and low < high):
            raise ValueError(f"ranges[{str(key)!r}]={interval!r} must be (low, high), finite, "
                             "low < high")
        out[key] = (low, high)
    return out


def _interval(symbol: sp.Symbol, ranges: Mapping) -> tuple[float, float] | None:
    return next((ranges[key] for key in (symbol, symbol.name) if key in ranges), None)


def _draw(symbol: sp.Symbol, rng: np.random.Generator, ranges: Mapping) -> float:
    """One real value of ``symbol`` within its assumptions (or its interval in ``ranges``)."""
    interval = _interval(symbol, ranges)
    if interval is not None:
        value = rng.uniform(*interval)
        return float(round(value)) if symbol.is_integer else float(value)
    if symbol.is_positive or symbol.is_nonnegative:
        sign = 1.0
    elif symbol.is_negative or symbol.is_nonpositive:
        sign = -1.0
    else:
        sign = float(rng.choice((-1.0, 1.0)))
    if symbol.is_integer:
        return sign * float(rng.integers(1, 7))
    return sign * float(10 ** rng.uniform(-1.0, 1.0))


def _terms(expr: sp.Expr) -> tuple:
    return expr.args if expr.is_Add else (expr,)


def _value(expr: sp.Expr, symbols, point, dps: int) -> float:
    """``expr`` at ``point`` at ``dps`` digits; NaN where undefined or not real."""
    if symbols:
        return float(high_precision(expr, symbols, dps)(*point))
    value = sp.N(expr, dps)
    return float(value) if value.is_real and value.is_finite else float("nan")


def _residual(expr, symbols, point, dps) -> tuple[float, float]:
    """(expr, sum of |terms|) at ``point`` at ``dps`` digits; NaN where undefined or not real."""
    return (_value(expr, symbols, point, dps),
            sum(abs(_value(t, symbols, point, dps)) for t in _terms(expr)))


def _decide_one(expr: sp.Expr, points: int, digits: int, dps: int, seed: int,
                ranges: Mapping) -> Decision:
    if is_zero(expr):
        return Decision(PROVEN, "sympy simplifies it to 0")
    symbols = sorted(expr.free_symbols, key=lambda s: s.name)
    rng = np.random.default_rng(seed)
    wanted = points if symbols else 1
    where = (f"at {wanted} random real points" if symbols else "as a constant")
    good = tries = 0
    while good < wanted and tries < TRIES_PER_POINT * wanted:
        tries += 1
        point = [_draw(s, rng, ranges) for s in symbols]
        value, size = _residual(expr, symbols, point, dps)
        if not (np.isfinite(value) and np.isfinite(size)):
            continue  # undefined or not real here: draw again
        good += 1
        tolerance = 10.0 ** -digits * max(1.0, size)
        if abs(value) <= tolerance:
            continue
        again, _ = _residual(expr, symbols, point, 2 * dps)
        if np.isfinite(again) and abs(again) > tolerance:  # not a loss of precision
            counterexample = {s.name: v for s, v in zip(symbols, point)}
            at = _point_text(counterexample)
            return Decision(REFUTED, f"not 0: {again:.6g}{' at ' + at if at else ''} ({dps}-digit mpmath, "
                            f"confirmed at {2 * dps} digits)", good, digits, counterexample,
                            float(again))
    if good < wanted:
        return Decision(UNDECIDED, f"sympy does not reach 0, and the expression is real at only "
                        f"{good} of {tries} random real points", good, digits)
    return Decision(NUMERICAL, f"sympy does not reach 0; 0 to {digits} digits {where} "
                    f"({dps}-digit mpmath, seed {seed})", good, digits)


def decide(expr, *, points: int = 24, digits: int = 30, dps: int = 50, seed: int = 0,
           ranges: Mapping | None = None) -> Decision:
    """Whether ``expr`` (a sympy expression or matrix) is identically zero: proven by sympy,
    refuted at a point, or zero to ``digits`` digits at ``points`` random real points evaluated
    at ``dps`` digits (module docstring).  ``ranges`` maps a symbol (or its name) to the
    ``(low, high)`` its values are drawn from.  A matrix is decided entry by entry: refuted by
    its first refuted entry, proven when every entry is."""
    for name, value in (("points", points), ("digits", digits), ("dps", dps), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < (0 if name == "seed" else 1):
            raise ValueError(f"{name}={value!r} must be a positive integer")
    if dps < digits + 10:
        raise ValueError(f"dps={dps} must exceed digits={digits} by at least 10: the working "
                         "precision must outlast the cancellation it measures")
    ranges = _checked(ranges)
    try:
        expr = sp.sympify(expr)
    except (sp.SympifyError, TypeError) as exc:
        raise TypeError(f"expr must be a sympy expression or matrix, got {type(expr).__name__}") from exc
    if not isinstance(expr, sp.MatrixBase):
        return _decide_one(expr, points, digits, dps, seed, ranges)
    decisions = {index: _decide_one(entry, points, digits, dps, seed, ranges)
                 for index, entry in np.ndenumerate(np.array(expr.tolist(), dtype=object))}
    for status in (REFUTED, UNDECIDED):
        for index, d in decisions.items():
            if d.status == status:
                return replace(d, how=f"entry {index}: {d.how}")
    numerical = [d for d in decisions.values() if d.status == NUMERICAL]
    if not numerical:
        return Decision(PROVEN, f"sympy simplifies each of its {len(decisions)} entries to 0")
    return replace(numerical[0], how=f"{len(decisions) - len(numerical)} of {len(decisions)} "
                   f"entries proven by sympy, the others: {numerical[0].how}")


def measure_zero(name: str, expr, **options) -> Measurement:
    """The measurement ``expr == 0`` (``options`` as :func:`decide`): passes when proven or when
    it holds numerically; its ``exact`` source says which, and a refuted identity carries its
    counterexample."""
    d = decide(expr, **options)
    m = measure(name, d.holds, "==", True, source=exact(d.how), details=d.details())
    return replace(m, counterexample=f"{d.at}: {fmt(d.residual, 6)}") if d.status == REFUTED else m


__all__ = ["Decision", "NUMERICAL", "PROVEN", "REFUTED", "UNDECIDED", "decide", "measure_zero"]
