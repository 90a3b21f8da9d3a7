"""Measurements and setups: the data every verdict rests on (DESIGN.md, "reports/claims.json").

A :class:`Measurement` is one condition a check tested: what was measured (``name``), the
measured ``value``, the ``criterion`` it was held to (operator and threshold), whether it
``passed``, and the ``source`` of the criterion.  ``passed`` is always computed here from the
value and the criterion, never handed in, so a tolerance is written once, at the call of
:func:`measure`, and every text that quotes it (evidence, reports, regression messages) is
generated from the record.

Sources say who chose the criterion, one of four kinds:

* :func:`paper` -- the paper's own words, with their line (decides an empirical claim);
* :func:`code` -- the authors' released code, where the paper is silent (decides likewise);
* :func:`exact` -- an exact computation whose only criterion is equality (a sympy residual 0);
* :func:`reading` -- a number the suite had to choose, with why (a float tolerance, a ratio).

A :class:`Setup` is what an empirical check ran beside the paper's settings; the deviations
and ``faithful`` are computed by comparing the two, so no check can declare itself faithful.
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SOURCE_KINDS = ("paper", "code", "exact", "reading")
#: Source kinds that state what the paper claims (or does, in its code): only these decide an
#: empirical claim against the paper (DESIGN.md, "The verdict rule for empirical claims").
DECISIVE_KINDS = ("paper", "code", "exact")
SCALES = ("ci", "full")


def paper(where: str, words: str) -> str:
    """A criterion taken from the paper: ``where`` (line, equation or figure) and its ``words``."""
    return _source("paper", where, words, "where", "words", quote=True)


def code(where: str, what: str) -> str:
    """A setting or criterion from the authors' released code (repository/file), where the paper is silent."""
    return _source("code", where, what, "where", "what")


def exact(what: str) -> str:
    """An exact computation: the criterion is equality (a residual that simplifies to 0)."""
    return _source("exact", "", what, "", "what")


def reading(why: str) -> str:
    """A number the suite chose: say ``why`` (e.g. 'integrator rtol 1e-10 x 100')."""
    return _source("reading", "", why, "", "why")


def _source(kind, where, text, where_arg, text_arg, quote=False) -> str:
    if where_arg and (not isinstance(where, str) or not where.strip()):
        raise ValueError(f"{where_arg}={where!r} must say where in the paper or code")
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{text_arg}={text!r} must be a non-empty string")
    body = f'"{text}"' if quote else text
    return f"{kind} {where}: {body}" if where else f"{kind}: {body}"


def source_kind(source: str) -> str:
    """The kind of a source string made by :func:`paper`, :func:`code`, :func:`exact` or :func:`reading`."""
    if isinstance(source, str):
        head = source.split(":", 1)[0].split(" ", 1)[0]
        if head in SOURCE_KINDS and ":" in source:
            return head
    raise ValueError(f"source={source!r} must be made by paper(), code(), exact() or reading() "
                     f"(one of {SOURCE_KINDS})")


def _within(value, bounds):
    lo, hi = bounds
    return np.logical_and(np.asarray(value) >= lo, np.asarray(value) <= hi)


OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt,
       "==": operator.eq, "!=": operator.ne, "within": _within}


@dataclass(frozen=True)
class Criterion:
    """``value <op> threshold``; ``within`` takes ``(low, high)``, both ends included.

    An array value passes when every element does.
    """

    op: str
    threshold: Any

    def __post_init__(self):
        if self.op not in OPS:
            raise ValueError(f"op={self.op!r} is not one of {sorted(OPS)}")
        if self.op == "within":
            if not (isinstance(self.threshold, (tuple, list)) and len(self.threshold) == 2
                    and self.threshold[0] <= self.threshold[1]):
                raise ValueError(f"threshold={self.threshold!r}: 'within' takes (low, high), low <= high")
        _check_finite(self.threshold, "threshold")

    def test(self, value) -> bool:
        return bool(np.all(OPS[self.op](value, self.threshold)))

    def __str__(self) -> str:
        if self.op == "within":
            return f"within [{fmt(self.threshold[0])}, {fmt(self.threshold[1])}]"
        return f"{self.op} {fmt(self.threshold)}"


def _check_finite(value, argument):
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return
    if np.any(np.isnan(arr)):
        raise ValueError(f"{argument} is NaN: a measurement needs a number (did the computation diverge?)")


def fmt(value, digits: int = 3, items: int = 8) -> str:
    """A value as text: numbers to ``digits`` significant figures, arrays as short lists."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.{digits}g}"
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {fmt(v, digits, items)}" for k, v in value.items()) + "}"
    arr = np.asarray(value, dtype=object) if not isinstance(value, np.ndarray) else value
    if arr.ndim == 0:
        return fmt(arr.item(), digits, items)
    flat = list(arr) if arr.ndim == 1 else [list(row) for row in arr]
    shown = [fmt(v, digits, items) for v in flat[:items]]
    more = f", ... ({len(flat)} in all)" if len(flat) > items else ""
    return "[" + ", ".join(shown) + more + "]"


def as_json(value, limit: int = 200):
    """A JSON-ready copy of ``value``: arrays as lists (or a summary past ``limit`` elements)."""
    if hasattr(value, "detach"):  # torch tensor
        value = value.detach().cpu().numpy()
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return v if math.isfinite(v) else str(v)
    if isinstance(value, str) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): as_json(v, limit) for k, v in value.items()}
    arr = np.asarray(value)
    if arr.dtype == object:
        return [as_json(v, limit) for v in value]
    if arr.size > limit:
        return {"shape": list(arr.shape), "min": float(np.min(arr)), "max": float(np.max(arr))}
    return as_json_list(arr.tolist())


def as_json_list(items):
    if isinstance(items, list):
        return [as_json_list(v) for v in items]
    return as_json(items)


def measurement_line(m: dict, with_source: bool = True) -> str:
    """One measurement record: role, name, value against its criterion, passed or FAILED, source."""
    role = f"{m['role']}: " if m.get("role") else ""
    over = f" over {m['examples']} examples" if m.get("examples") is not None else ""
    mark = "passed" if m.get("passed") else "FAILED"
    text = f"{role}{m['name']}: {fmt(m.get('value'))}{over} {m.get('criterion', '')} {mark}"
    if with_source and m.get("source"):
        text += f" ({m['source']})"
    if m.get("counterexample"):
        text += f"; counterexample {m['counterexample']}"
    return text


@dataclass(frozen=True)
class Measurement:
    """One condition a check tested.  Make it with :func:`measure`, never by hand."""

    name: str
    value: Any
    criterion: str
    passed: bool
    source: str
    examples: int | None = None
    counterexample: str = ""

    @property
    def decisive(self) -> bool:
        """Whether the criterion states the paper's claim (not a number the suite chose)."""
        return source_kind(self.source) in DECISIVE_KINDS

    def text(self) -> str:
        return measurement_line(self.as_dict())

    def as_dict(self) -> dict:
        record = {"name": self.name, "value": as_json(self.value), "criterion": self.criterion,
                  "passed": self.passed, "source": self.source}
        if self.examples is not None:
            record["examples"] = self.examples
        if self.counterexample:
            record["counterexample"] = self.counterexample
        return record


def measure(name: str, value, op: str | None = None, threshold=None, *, source: str) -> Measurement:
    """Record ``value`` against ``value <op> threshold``; ``passed`` is computed here.

    ``value`` may be a number, a bool, a string (with ``==``), an array (every element must
    pass) or a :class:`verify.properties.SearchResult`, which carries its own criterion, worst
    value and example count.  A NaN value is an error, never a silent pass or fail.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name={name!r} must say what was measured")
    source_kind(source)
    from verify.properties import SearchResult
    if isinstance(value, SearchResult):
        if op is not None or threshold is not None:
            raise ValueError("op/threshold: a SearchResult carries its own criterion; pass neither")
        return Measurement(name, value.worst, str(value.criterion), value.ok, source,
                           examples=value.examples, counterexample=value.counterexample)
    if op is None:
        raise ValueError("op is required: the criterion's operator, one of " + str(sorted(OPS)))
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    if isinstance(value, (list, tuple)):
        value = np.asarray(value)
    _check_finite(value, f"value of {name!r}")
    criterion = Criterion(op, threshold)
    return Measurement(name, as_json(value), str(criterion), criterion.test(value), source)


def _same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or isinstance(b, str):
        return a == b
    try:
        return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                                rtol=1e-9, atol=0.0)) and np.shape(a) == np.shape(b)
    except (TypeError, ValueError):
        return a == b


@dataclass(frozen=True)
class Deviation:
    setting: str
    ran: Any
    paper: Any
    shown_harmless_by: str = ""

    def as_dict(self) -> dict:
        record = {"setting": self.setting, "ran": as_json(self.ran), "paper": as_json(self.paper)}
        if self.shown_harmless_by:
            record["shown_harmless_by"] = self.shown_harmless_by
        return record

    def text(self) -> str:
        harmless = f", shown harmless by '{self.shown_harmless_by}'" if self.shown_harmless_by else ""
        return f"{self.setting} {fmt(self.ran)} (paper {fmt(self.paper)}{harmless})"


@dataclass(frozen=True)
class Setup:
    """What an empirical check ran, beside the paper's settings.

    ``ran`` and ``paper`` map each setting the claim depends on (data set, sizes, init scale,
    learning rate, horizon in the paper's own clock, seeds, dtype) to its value; every key of
    ``paper`` must appear in ``ran``.  ``paper_source`` says where the paper's values come from
    (the paper's lines; the authors' released code where the paper is silent).  ``sensitivity``
    maps a deviating setting to a measurement from the same run showing that the deviation does
    not move the outcome (it counts only if it passed).  ``cost`` says what a faithful run costs
    (runs x steps x size; minutes on one GPU) and is required when the run is not faithful.
    """

    scale: str
    ran: dict
    paper: dict
    paper_source: str
    sensitivity: dict = field(default_factory=dict)
    cost: str = ""

    def __post_init__(self):
        if self.scale not in SCALES:
            raise ValueError(f"scale={self.scale!r} is not one of {SCALES}")
        if not isinstance(self.paper, dict) or not self.paper:
            raise ValueError("paper must map at least one setting the claim depends on to its value")
        if not isinstance(self.ran, dict):
            raise ValueError("ran must be a dict of the settings that ran")
        missing = sorted(set(self.paper) - set(self.ran))
        if missing:
            raise ValueError(f"ran lacks the settings {missing} that paper names: say what ran")
        if not isinstance(self.paper_source, str) or not self.paper_source.strip():
            raise ValueError("paper_source must say where the paper's settings come from")
        deviating = {d.setting for d in self._raw_deviations()}
        for key, m in self.sensitivity.items():
            if key not in deviating:
                raise ValueError(f"sensitivity[{key!r}]: {key!r} is not a deviation from the paper")
            if not isinstance(m, Measurement):
                raise ValueError(f"sensitivity[{key!r}] must be a Measurement from measure()")
        if not self.faithful and not self.cost.strip():
            raise ValueError("cost must say what a faithful run costs (runs x steps x size; "
                             "minutes on one GPU) when the run deviates from the paper")

    def _raw_deviations(self):
        return [Deviation(k, self.ran[k], v) for k, v in self.paper.items()
                if not _same(self.ran[k], v)]

    @property
    def deviations(self) -> list[Deviation]:
        out = []
        for d in self._raw_deviations():
            m = self.sensitivity.get(d.setting)
            out.append(Deviation(d.setting, d.ran, d.paper, m.name if m is not None and m.passed else ""))
        return out

    @property
    def faithful(self) -> bool:
        """True when every deviation is shown harmless by a passed sensitivity measurement."""
        return all(d.shown_harmless_by for d in self.deviations)

    @property
    def missing(self) -> list[Deviation]:
        """The deviations not shown harmless: what a faithful run would change."""
        return [d for d in self.deviations if not d.shown_harmless_by]

    def text(self) -> str:
        devs = "; ".join(d.text() for d in self.deviations) or "none"
        return (f"{self.scale} run, {'faithful' if self.faithful else 'not faithful'}; "
                f"deviations: {devs}")

    def as_dict(self) -> dict:
        record = {"scale": self.scale, "faithful": self.faithful,
                  "deviations": [d.as_dict() for d in self.deviations],
                  "ran": as_json(self.ran), "paper": as_json(self.paper),
                  "paper_source": self.paper_source}
        if self.sensitivity:
            record["sensitivity"] = [m.as_dict() for m in self.sensitivity.values()]
        if self.cost:
            record["cost"] = self.cost
        return record
