"""Measurements: the data every verdict rests on (docs/DESIGN.md, "The record").

A :class:`Measurement` is one condition a check tested: what was measured (``name``), the
measured ``value``, the ``criterion`` it was held to (operator and threshold), whether it
``passed``, the ``source`` of the criterion, and ``details``: the absolute values behind a
relative criterion (the two means behind a p-value, the two gaps behind their ratio).
``passed`` is always computed here from the value and the criterion, never handed in.

A :class:`Source` says whose criterion it is, one of five kinds:

* :func:`paper` -- a direction or number the paper states, with its line and words (decides);
* :func:`code` -- the authors' released code, where the paper is silent (decides likewise);
* :func:`exact` -- an exact computation whose only criterion is equality (decides);
* :func:`lexicon_source` -- the paper's qualitative words ("close agreement", "small") decided
  over the plausible readings of the lexicon (:mod:`verify.lexicon`), which can pass, fail or
  depend on the reading (decides);
* :func:`reading` -- a comparison or number the suite built, even when it quotes the paper
  (never decides on its own, in either direction).

A measurement decided over several readings (:func:`measure_readings`) is ``passed`` when every
reading passes and ``undecided`` (with its flip points) when they disagree; the verdict rule
(``verify.outcome``) makes an undecided measurement's claim ``inconclusive``.  A ``paper``
criterion's number must be among the quoted words (a direction's 0 and the test level aside), so
no threshold the suite chose can pass as the paper's.

What an empirical run ran, beside the paper's settings, is a :class:`verify.setup.Setup`.
"""
from __future__ import annotations

import math
import operator
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

SOURCE_KINDS = ("paper", "code", "exact", "lexicon", "reading")
#: Source kinds whose criterion states what the paper claims (or does, in its code, or what the
#: lexicon's readings make of its words): only these decide an empirical claim.
DECISIVE_KINDS = ("paper", "code", "exact", "lexicon")


def _text(value, argument: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{argument}={value!r} must be a non-empty string")
    return value.strip()


@dataclass(frozen=True)
class Source:
    """Whose criterion a measurement is held to.  Make it with :func:`paper`, :func:`code`,
    :func:`exact`, :func:`lexicon_source` or :func:`reading`."""

    kind: str
    where: str = ""            # line, equation, figure; repository/file for code
    text: str = ""             # the paper's words (paper, lexicon); what (code, exact); why (reading)
    quote: str = ""            # reading: the paper's words it reads, with their line in ``where``
    against: str = ""          # lexicon: the phrase of the lexicon the words are decided by
    interpretation: str = ""   # paper: which reading of an ambiguous sentence

    def __post_init__(self):
        if self.kind not in SOURCE_KINDS:
            raise ValueError(f"kind={self.kind!r} is not one of {SOURCE_KINDS}")

    @property
    def decisive(self) -> bool:
        return self.kind in DECISIVE_KINDS

    def __str__(self) -> str:
        where = f" {self.where}" if self.where else ""
        if self.kind in ("paper", "lexicon"):
            body = f'"{self.text}"'
        elif self.kind == "reading" and self.quote:
            body = f'{self.text}; reads "{self.quote}"'
        else:
            body = self.text
        if self.against:
            body += f", read by the lexicon's '{self.against}'"
        if self.interpretation:
            body += f" [reading: {self.interpretation}]"
        return f"{self.kind}{where}: {body}"

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v}


def paper(where: str, words: str, interpretation: str = "") -> Source:
    """A direction or number the paper states: ``where`` (line, equation, figure), its ``words``.
    ``interpretation`` names the reading measured when the sentence is ambiguous."""
    return Source("paper", _text(where, "where"), _text(words, "words"),
                  interpretation=interpretation.strip())


def code(where: str, what: str) -> Source:
    """A setting or criterion from the authors' released code (repository/file), where the paper
    is silent."""
    return Source("code", _text(where, "where"), _text(what, "what"))


def exact(what: str) -> Source:
    """An exact computation: the criterion is equality (a residual that simplifies to 0)."""
    return Source("exact", text=_text(what, "what"))


def lexicon_source(where: str, words: str, phrase: str) -> Source:
    """The paper's qualitative ``words`` at ``where``, decided by the lexicon entry of ``phrase``
    over its plausible readings (made by :func:`verify.lexicon.decide`)."""
    return Source("lexicon", _text(where, "where"), _text(words, "words"),
                  against=_text(phrase, "phrase"))


def reading(why: str, where: str = "", words: str = "") -> Source:
    """A comparison or number the suite built: say ``why``; ``where`` and ``words`` quote the
    paper's sentence it reads, if any.  A reading never decides an empirical claim."""
    if bool(where) != bool(words):
        raise ValueError("where and words go together: the line and the words the reading quotes")
    return Source("reading", where.strip(), _text(why, "why"),
                  quote=_text(words, "words") if words else "")


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
    if value is None:
        return "none"
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
    items = arr.tolist()  # nested lists of Python numbers, each made JSON-ready in turn
    return [as_json(v, limit) for v in items] if isinstance(items, list) else as_json(items, limit)


def measurement_line(m: dict, with_source: bool = True) -> str:
    """One measurement record: role, name, value against its criterion, passed or FAILED, source."""
    role = f"{m['role']}: " if m.get("role") else ""
    over = f" over {m['examples']} examples" if m.get("examples") is not None else ""
    mark = ("passed" if m.get("passed") else
            f"DEPENDS ON THE READING ({m['undecided']})" if m.get("undecided") else "FAILED")
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
    source: Source
    examples: int | None = None
    counterexample: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)
    #: why a measurement decided over several readings neither passes nor fails (its readings
    #: disagree, or the interval straddles a bound), with the flip points; empty otherwise
    undecided: str = ""

    @property
    def refuted(self) -> bool:
        """Failed under every reading (an undecided measurement is not refuted)."""
        return not self.passed and not self.undecided

    @property
    def decisive(self) -> bool:
        """Whether the criterion states the paper's claim (not a comparison the suite built)."""
        return self.source.decisive

    def text(self) -> str:
        return measurement_line(self.as_dict())

    def as_dict(self) -> dict:
        record = {"name": self.name, "value": as_json(self.value), "criterion": self.criterion,
                  "passed": self.passed, "source": str(self.source),
                  "source_kind": self.source.kind}
        if self.source.interpretation:
            record["interpretation"] = self.source.interpretation
        if self.details:
            record["details"] = as_json(dict(self.details))
        if self.examples is not None:
            record["examples"] = self.examples
        if self.counterexample:
            record["counterexample"] = self.counterexample
        if self.undecided:
            record["undecided"] = self.undecided
        return record


def _numbers_in(words: str) -> set[float]:
    """Every number written in ``words`` (a percentage also as its fraction)."""
    out = set()
    for match in re.finditer(r"(\d+(?:[.,]\d+)*(?:\.\d+)?)\s*(%|percent)?", words):
        try:
            v = float(match.group(1).replace(",", ""))
        except ValueError:
            continue
        out.add(v)
        if match.group(2):
            out.add(v / 100)
    return out


#: the criterion numbers a paper-sourced direction may use without the paper writing them: zero
#: (a sign), one (a ratio's direction, "all") and the suite's test level (a p-value's bar)
DIRECTION_NUMBERS = (0.0, 1.0)


def _paper_number(source: Source, op: str, threshold) -> None:
    """A ``paper`` criterion's number must be written in the quoted words (module docstring)."""
    from verify.statements import LEVEL  # statements builds on this module
    ends = threshold if op == "within" else (threshold,)
    for t in ends:
        if isinstance(t, (bool, np.bool_, str)) or t is None:
            continue
        try:
            v = float(t)
        except (TypeError, ValueError):
            continue
        if v in DIRECTION_NUMBERS or (v == LEVEL and op == "<"):
            continue
        if not any(math.isclose(v, w, rel_tol=1e-9) for w in _numbers_in(source.text)):
            raise ValueError(
                f"threshold={t!r} is not a number the paper states: a 'paper' criterion's "
                f"number must be in its quoted words ({source.text!r}); a qualitative word goes "
                "through verify.lexicon.decide, a setting the suite chose is a reading()")


def measure(name: str, value, op: str | None = None, threshold=None, *, source: Source,
            details: Mapping | None = None) -> Measurement:
    """Record ``value`` against ``value <op> threshold``; ``passed`` is computed here.

    ``value`` may be a number, a bool, a string (with ``==``), an array (every element must
    pass: unanimity) or a :class:`verify.properties.SearchResult`, which carries its own
    criterion, worst value and example count.  ``details`` holds the absolute values behind a
    relative criterion.  A NaN value is an error, never a silent pass or fail.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name={name!r} must say what was measured")
    if not isinstance(source, Source):
        raise TypeError(f"source must be made by paper(), code(), exact(), lexicon_source() or "
                        f"reading(), got {type(source).__name__}")
    if details is not None and not isinstance(details, Mapping):
        raise TypeError("details must map names to the absolute values behind the criterion")
    details = dict(details or {})
    from verify.properties import SearchResult
    if isinstance(value, SearchResult):
        if op is not None or threshold is not None:
            raise ValueError("op/threshold: a SearchResult carries its own criterion; pass neither")
        return Measurement(name, value.worst, str(value.criterion), value.ok, source,
                           examples=value.examples, counterexample=value.counterexample,
                           details=details)
    if op is None:
        raise ValueError("op is required: the criterion's operator, one of " + str(sorted(OPS)))
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    if isinstance(value, (list, tuple)):
        value = np.asarray(value)
    _check_finite(value, f"value of {name!r}")
    criterion = Criterion(op, threshold)
    if source.kind == "paper":
        _paper_number(source, op, threshold)
    return Measurement(name, as_json(value), str(criterion), criterion.test(value), source,
                       details=details)


def _outcome(est, op: str, bound: float) -> str:
    """'passes', 'fails' or 'straddles': where the interval of ``est`` lies against ``bound``."""
    good, bad = (est.high <= bound, est.low > bound) if op == "<=" else \
        (est.low >= bound, est.high < bound)
    return "passes" if good else "fails" if bad else "straddles"


def measure_readings(name: str, alternatives: Mapping[str, Any], op: str,
                     bounds: Mapping[str, float], *, source: Source, unit: str,
                     details: Mapping | None = None) -> Measurement:
    """One sentence decided over every reading: each alternative of the quantity (an estimate
    with ``value``, ``low``, ``high``, ``seeds``) against each bound of the word.  ``passed``
    when every pair passes; undecided, with the flip points, unless every pair fails.  Made by
    :func:`verify.lexicon.decide`."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name={name!r} must say what was measured")
    if source.kind != "lexicon":
        raise ValueError("source must be made by lexicon_source(): the readings are the lexicon's")
    if op not in ("<=", ">="):
        raise ValueError(f"op={op!r}: a reading bounds the quantity with '<=' or '>='")
    if not alternatives or not bounds:
        raise ValueError("alternatives and bounds must each name at least one reading")
    for b in bounds.values():
        _check_finite(b, "bound")
    outcomes = {(" / ".join(p for p in (alt, r) if p)): _outcome(est, op, b)
                for alt, est in alternatives.items() for r, b in bounds.items()}
    passed = all(o == "passes" for o in outcomes.values())
    failed = all(o == "fails" for o in outcomes.values())
    lows = [e.low for e in alternatives.values()]
    highs = [e.high for e in alternatives.values()]
    # the bound at which the sentence flips: it passes every reading from one end of the
    # intervals on, fails every reading beyond the other
    flips = ({"passes for bounds from": max(highs), "fails for bounds below": min(lows)}
             if op == "<=" else
             {"passes for bounds up to": min(lows), "fails for bounds above": max(highs)})
    undecided = "" if passed or failed else (
        "; ".join(f"{k} {v}" for k, v in outcomes.items()) + "; flips: "
        + ", ".join(f"{k} {fmt(v)}" for k, v in flips.items()))
    values = {alt: e.value for alt, e in alternatives.items()}
    value = next(iter(values.values())) if list(values) == [""] else values
    record = {"unit": unit, "readings": {r: b for r, b in bounds.items()},
              "intervals": {alt or "measured": [e.low, e.high] for alt, e in alternatives.items()},
              "seeds": min(e.seeds for e in alternatives.values()), "flip points": flips,
              **dict(details or {})}
    criterion = f"{op} {' | '.join(fmt(b) for b in bounds.values())} ({', '.join(bounds)})"
    return Measurement(name, as_json(value), criterion, passed, source, details=record,
                       undecided=undecided)
