"""Setups: what a run ran beside the paper's settings (docs/DESIGN.md, "Ran and Setup").

A :class:`Setup` is what an empirical run ran (a ``numerics.ran.Ran``, made by the runner)
beside the paper's value of every setting the claim depends on (:func:`stated`, :func:`released`
or :data:`UNKNOWN`).  What ran is recorded by what runs: ``ran`` comes from the runner, never
from the check, and its settings must be exactly the ones the paper side declares.  The
deviations (:class:`Deviation`) and ``faithful`` are computed by comparing the two, so no check
can declare itself faithful: a deviation counts as harmless only when a passed sensitivity
measurement of the same run shows it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from numerics.ran import Ran
from verify.measurement import Measurement, Source, _text, as_json, fmt


def _same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or isinstance(b, str):
        return a == b
    try:
        return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                                rtol=1e-9, atol=0.0)) and np.shape(a) == np.shape(b)
    except (TypeError, ValueError):
        return a == b


@dataclass(frozen=True)
class Stated:
    """The paper's value of one setting, and where it comes from (the paper, or the authors'
    released code where the paper is silent)."""

    value: Any
    source: Source

    def __post_init__(self):
        if self.source.kind not in ("paper", "code"):
            raise ValueError("a setting's value comes from the paper or the authors' code")


class _Unknown:
    """A setting the claim depends on that neither the paper nor the authors' code fixes."""

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __reduce__(self):
        return "UNKNOWN"


#: The paper's side of a setting it does not give (and no released code fixes): a run that
#: depends on it is not faithful unless a same-run sensitivity check shows it harmless.
UNKNOWN = _Unknown()


def stated(value, where: str) -> Stated:
    """A setting the paper gives: its ``value`` and ``where`` (line, table, figure)."""
    return Stated(value, Source("paper", _text(where, "where"), "setting"))


def released(value, where: str) -> Stated:
    """A setting the paper does not give but the authors' released code fixes (repo/file)."""
    return Stated(value, Source("code", _text(where, "where"), "setting"))


@dataclass(frozen=True)
class Deviation:
    setting: str
    ran: Any
    paper: Any
    shown_harmless_by: str = ""

    @property
    def unknown(self) -> bool:
        return self.paper is UNKNOWN

    def as_dict(self) -> dict:
        record = {"setting": self.setting, "ran": as_json(self.ran),
                  "paper": "unknown" if self.unknown else as_json(self.paper)}
        if self.shown_harmless_by:
            record["shown_harmless_by"] = self.shown_harmless_by
        return record

    def text(self) -> str:
        harmless = f", shown harmless by '{self.shown_harmless_by}'" if self.shown_harmless_by else ""
        paper_side = "the paper does not give it" if self.unknown else f"paper {fmt(self.paper)}"
        return f"{self.setting} {fmt(self.ran)} ({paper_side}{harmless})"


@dataclass(frozen=True)
class Setup:
    """What an empirical run ran, beside the paper's settings.

    ``ran`` is the :class:`numerics.ran.Ran` its runner returned.  ``paper`` declares every
    setting the claim depends on: :func:`stated` (the paper gives it), :func:`released` (the
    authors' code fixes it) or :data:`UNKNOWN`; its keys must be exactly the settings of ``ran``,
    so nothing the run used goes unlisted.  ``sensitivity`` maps a deviating setting to a
    measurement from the same run showing that the deviation does not move the deciding
    numbers (it counts only if it passed).  ``cost`` says what a faithful run needs and costs
    (runs x steps x size; minutes on 2 CPU cores or one GPU), required when the run is not
    faithful.  ``name`` tells the runs of a multi-run claim apart (a panel, a network).
    """

    ran: Ran
    paper: Mapping[str, Any]
    cost: str = ""
    sensitivity: Mapping[str, Measurement] = field(default_factory=dict)
    name: str = ""

    def __post_init__(self):
        if not isinstance(self.ran, Ran):
            raise TypeError("ran must be the numerics.ran.Ran its runner returned (what ran is "
                            f"recorded by what runs), got {type(self.ran).__name__}")
        if not isinstance(self.paper, Mapping) or not self.paper:
            raise ValueError("paper must declare every setting the claim depends on")
        for key, value in self.paper.items():
            if value is not UNKNOWN and not isinstance(value, Stated):
                raise TypeError(f"paper[{key!r}] must be stated(...), released(...) or UNKNOWN")
        missing, unlisted = sorted(set(self.paper) - set(self.ran.settings)), \
            sorted(set(self.ran.settings) - set(self.paper))
        if missing:
            raise ValueError(f"the run ({self.ran.runner}) does not report the settings {missing} "
                             "that paper declares")
        if unlisted:
            raise ValueError(f"paper does not declare the settings {unlisted} that the run "
                             f"({self.ran.runner}) used: give each as stated(), released() or "
                             "UNKNOWN")
        deviating = {d.setting for d in self.deviations}
        for key, m in self.sensitivity.items():
            if key not in deviating:
                raise ValueError(f"sensitivity[{key!r}]: {key!r} is not a deviation from the paper")
            if not isinstance(m, Measurement):
                raise ValueError(f"sensitivity[{key!r}] must be a Measurement from measure()")
        if not self.faithful and not self.cost.strip():
            raise ValueError("cost must say what a faithful run needs and costs (runs x steps x "
                             "size; minutes on 2 CPU cores or one GPU) when the run deviates")

    @property
    def scale(self) -> str:
        return self.ran.scale

    @property
    def deviations(self) -> list[Deviation]:
        """The settings that differ from the paper's (unknown ones included), each with the
        passed sensitivity measurement that shows it harmless, if any."""
        out = []
        for key, value in self.paper.items():
            ran, stated_value = self.ran.settings[key], UNKNOWN if value is UNKNOWN else value.value
            if value is UNKNOWN or not _same(ran, stated_value):
                m = self.sensitivity.get(key)
                harmless = m.name if isinstance(m, Measurement) and m.passed else ""
                out.append(Deviation(key, ran, stated_value, harmless))
        return out

    @property
    def unknown(self) -> list[str]:
        return [k for k, v in self.paper.items() if v is UNKNOWN]

    @property
    def faithful(self) -> bool:
        """True when every deviation (and unknown setting) is shown harmless by a passed
        sensitivity measurement of the same run."""
        return all(d.shown_harmless_by for d in self.deviations)

    @property
    def missing(self) -> list[Deviation]:
        """The deviations not shown harmless: what a faithful run would change."""
        return [d for d in self.deviations if not d.shown_harmless_by]

    def text(self) -> str:
        devs = "; ".join(d.text() for d in self.deviations) or "none"
        name = f"{self.name}: " if self.name else ""
        return (f"{name}{self.scale} run, {'faithful' if self.faithful else 'not faithful'}; "
                f"deviations: {devs}")

    def as_dict(self) -> dict:
        record = {"scale": self.scale, "faithful": self.faithful, "runner": self.ran.runner,
                  "deviations": [d.as_dict() for d in self.deviations],
                  "unknown": self.unknown,
                  "ran": as_json(dict(self.ran.settings)),
                  "paper": {k: "unknown" if v is UNKNOWN else as_json(v.value)
                            for k, v in self.paper.items()},
                  "paper_sources": {k: f"{v.source.kind} {v.source.where}" for k, v in self.paper.items()
                                    if v is not UNKNOWN}}
        if self.name:
            record["name"] = self.name
        if self.sensitivity:
            record["sensitivity"] = [m.as_dict() for m in self.sensitivity.values()]
        if self.cost:
            record["cost"] = self.cost
        return record
