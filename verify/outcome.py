"""Checks and their aggregation into one verdict per claim (docs/DESIGN.md, "A claim").

A verify test measures; it never writes a verdict in.  It records each condition it tested with
``claim.measure(name, value, op, threshold, source=...)`` (see :mod:`verify.measurement`) and
hands the measurements to one recorder method, which turns them into the verdict they imply:

* ``holds(*ms)`` / ``defined(*ms)``: a claim as stated, a definition's consistency;
* ``erratum(printed=..., corrected=...)``: both forms measured, neither fixed by construction;
* ``holds_if(condition, under=..., without=...)``: with and without the unstated condition;
* ``reproduced(*ms, setup=...)``: an empirical claim, under the verdict rule below;
* ``inconclusive(why, ...)``, ``untested(why, ...)``.

The verdict rule for empirical claims (docs/DESIGN.md), symmetric in its two directions: the
decisive measurements (criteria from the paper's words, the authors' code, an exact computation
or the lexicon's readings of a qualitative word; never the suite's own readings) decide, and only
a faithful run settles:

==========================  ====================  =====================
decisive measurements       faithful run          run not faithful
==========================  ====================  =====================
all pass                    ``holds``             ``supported``
one fails                   ``not-reproduced``    ``inconclusive``
none (readings only)        ``inconclusive``      ``inconclusive``
readings of an ambiguous    ``inconclusive``      ``inconclusive``
sentence disagree (an
undecided measurement)
==========================  ====================  =====================

A run is faithful when every deviation from the paper's settings, unknown settings included, is
shown harmless by a sensitivity measurement of the same run; a check decided by several runs is
faithful only if every one is.  ``supported`` and ``inconclusive`` name what is missing and what
a faithful run costs.

The evidence text of a check is generated from its measurements and setup, never written
beside them.  A claim's verdict is the strongest among its deciding checks
(``theory.verdicts.PRECEDENCE``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from theory import verdicts as V
from verify.measurement import Measurement, measure
from verify.setup import Setup


@dataclass
class Check:
    verdict: str
    measurements: list[tuple[str, Measurement]]
    test: str = ""
    note: str = ""
    counterexample: str = ""
    condition: str = ""
    setups: tuple[Setup, ...] = ()
    why: str = ""

    @property
    def evidence(self) -> str:
        return "; ".join([p for p in (self.note, self.why) if p]
                         + [(f"{role}: " if role else "") + m.text() for role, m in self.measurements]
                         + [s.text() for s in self.setups])

    @property
    def scale(self) -> str:
        """'full' when a run of this check was at paper scale, else 'ci'."""
        return "full" if any(s.scale == "full" for s in self.setups) else "ci"


@dataclass
class ClaimResult:
    claim_id: str
    checks: list[Check] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def deciding_checks(self) -> list[Check]:
        """The checks that decide the claim.  A faithful paper-scale run supersedes the reduced
        runs of the same claim: when a check ran at scale ``full``, the ci-scale empirical checks
        stay in the evidence but no longer decide."""
        if not any(c.scale == "full" for c in self.checks):
            return self.checks
        return [c for c in self.checks if not c.setups or c.scale == "full"]

    @property
    def verdict(self) -> str:
        return V.strongest(c.verdict for c in self.deciding_checks)

    def _ordered(self) -> list[Check]:
        deciding = self.verdict
        return sorted(self.checks, key=lambda c: (c.verdict != deciding,
                                                  V.PRECEDENCE.index(c.verdict)))

    @property
    def evidence(self) -> str:
        """The deciding checks first, then the rest, each with its own evidence."""
        return "; ".join(f"[{c.verdict}] {c.evidence}" for c in self._ordered())

    @property
    def measurements(self) -> list[dict]:
        return [dict(m.as_dict(), test=c.test, **({"role": role} if role else {}))
                for c in self._ordered() for role, m in c.measurements]

    @property
    def setups(self) -> list[tuple[str, Setup]]:
        """(test, setup) of every run behind the claim, the deciding checks' first."""
        return [(c.test, s) for c in self._ordered() for s in c.setups]

    @property
    def scale(self) -> str:
        """'full' when a paper-scale run decides the claim, else 'ci'."""
        return "full" if any(c.scale == "full" for c in self.deciding_checks) else "ci"

    @property
    def counterexample(self) -> str:
        return "; ".join(c.counterexample for c in self.checks if c.counterexample)

    @property
    def condition(self) -> str:
        return "; ".join(sorted({c.condition for c in self.checks if c.condition}))


def _flatten(measurements, argument: str) -> list[Measurement]:
    out = []
    for m in measurements:
        if isinstance(m, (list, tuple)):
            out += _flatten(m, argument)
        elif isinstance(m, Measurement):
            out.append(m)
        else:
            raise TypeError(f"{argument} must hold Measurements made by claim.measure(), got "
                            f"{type(m).__name__}")
    return out


def _group(value, argument: str) -> list[Measurement]:
    ms = _flatten(value if isinstance(value, (list, tuple)) else [value], argument)
    if not ms:
        raise ValueError(f"{argument} is empty: record at least one measurement")
    return ms


def _failed_text(ms) -> str:
    return "; ".join(m.text() for m in ms if not m.passed)


def _setups(setup, optional: bool = False) -> tuple[Setup, ...]:
    if setup is None and optional:
        return ()
    out = tuple(setup) if isinstance(setup, (list, tuple)) else (setup,)
    if not out or not all(isinstance(s, Setup) for s in out):
        raise TypeError("setup must be a verify.setup.Setup (or one per run): what ran "
                        "beside the paper")
    return out


def _ambiguities(decisive) -> dict[tuple[str, str], dict[str, bool]]:
    """(where, words) of each sentence measured under several readings -> reading -> whether
    every measurement under it passed."""
    out: dict[tuple[str, str], dict[str, bool]] = {}
    for m in decisive:
        if m.source.interpretation:
            readings = out.setdefault((m.source.where, m.source.text), {})
            readings[m.source.interpretation] = readings.get(m.source.interpretation, True) and m.passed
    return {k: v for k, v in out.items() if len(v) > 1}


def rule(measurements, faithful: bool) -> tuple[str, str, list[Measurement]]:
    """The verdict rule for empirical claims (module docstring): the verdict ``measurements``
    get from a run that is (or is not) faithful, why (empty where the verdict says it all, and
    for an unfaithful run, whose missing settings the caller names), and the refuting
    measurements."""
    ms = _group(list(measurements), "measurements")
    decisive = [m for m in ms if m.decisive]
    if not decisive:
        return V.INCONCLUSIVE, ("no criterion from the paper, its code, an exact computation or "
                                "the lexicon was measured; the suite's own readings decide "
                                "nothing on their own, in either direction"), []
    refuted = [m for m in decisive if m.refuted and not m.source.interpretation]
    ambiguous = _ambiguities(decisive)
    disagree = {k: r for k, r in ambiguous.items() if len(set(r.values())) > 1}
    undecided = [m for m in decisive if m.undecided]
    if not refuted and (disagree or undecided):
        return V.INCONCLUSIVE, "the verdict depends on the reading of the paper's words: " + \
            "; ".join([f"{where} under '{reading}' {'holds' if ok else 'fails'}"
                       for (where, _), readings in disagree.items()
                       for reading, ok in readings.items()]
                      + [f"{m.name} ({m.source.where}, '{m.source.against}'): {m.undecided}"
                         for m in undecided]), []
    refuted += [m for m in decisive if m.refuted and m.source.interpretation]
    if faithful:
        return (V.NOT_REPRODUCED if refuted else V.HOLDS), "", refuted
    return (V.INCONCLUSIVE if refuted else V.SUPPORTED), "", refuted


def decide(*measurements, faithful: bool = True) -> str:
    """The verdict the empirical rule gives ``measurements`` from a run that is (or is not)
    faithful: what a sensitivity check compares, and what rejection tests assert."""
    return rule(measurements, faithful)[0]


def _unfaithful(setups) -> str:
    missing = [(s.name, d) for s in setups for d in s.missing]
    costs = sorted({s.cost for s in setups if not s.faithful})
    return ("the run is not faithful: missing " + "; ".join(
        (f"{name}: " if name else "") + d.text() for name, d in missing)
        + "; a faithful run needs " + " / ".join(costs))


class ClaimRecorder:
    """What a test hands its measurements to; bound to the claim IDs of the test's marker."""

    def __init__(self, results: dict[str, ClaimResult], claim_ids, test: str = ""):
        if not claim_ids:
            raise ValueError("claim_ids is empty: mark the test with @pytest.mark.claim('ID')")
        self._results = results
        self.ids = tuple(claim_ids)
        self.test = test

    measure = staticmethod(measure)

    def _add(self, verdict: str, measurements, note: str = "", **extra) -> str:
        if note and not isinstance(note, str):
            raise TypeError("note must be a string saying what case was computed")
        for claim_id in self.ids:
            result = self._results.setdefault(claim_id, ClaimResult(claim_id))
            result.checks.append(Check(verdict, list(measurements), test=self.test, note=note,
                                       **extra))
        return verdict

    def _all_pass(self, verdict: str, measurements, note: str, counterexample: str = "") -> str:
        """``verdict`` if every measurement passed, else ``fails``."""
        ms = _group(list(measurements), "measurements")
        ok = all(m.passed for m in ms)
        return self._add(verdict if ok else V.FAILS, [("", m) for m in ms], note,
                         counterexample="" if ok else (counterexample or _failed_text(ms)))

    def holds(self, *measurements, note: str = "", counterexample: str = "") -> str:
        """The claim as stated: ``holds`` if every measurement passed, else ``fails``."""
        return self._all_pass(V.HOLDS, measurements, note, counterexample)

    def defined(self, *measurements, note: str = "") -> str:
        """A definition's internal consistency: ``defined`` if every measurement passed, else ``fails``."""
        return self._all_pass(V.DEFINED, measurements, note)

    def erratum(self, *, printed, corrected, counterexample: str = "", note: str = "") -> str:
        """Printed form against corrected form, both measured.

        ``erratum`` when the printed form fails and the corrected one holds; ``holds`` when the
        printed form holds (no erratum); ``fails`` when neither holds.
        """
        p, c = _group(printed, "printed"), _group(corrected, "corrected")
        p_ok, c_ok = all(m.passed for m in p), all(m.passed for m in c)
        tagged = [("printed", m) for m in p] + [("corrected", m) for m in c]
        if p_ok:
            return self._add(V.HOLDS, tagged, note)
        return self._add(V.ERRATUM if c_ok else V.FAILS, tagged, note,
                         counterexample=counterexample or _failed_text(p))

    def holds_if(self, condition: str, *, under, without, counterexample: str = "",
                 note: str = "") -> str:
        """A claim measured with and without an extra condition the paper does not state.

        ``holds-if`` when it holds under the condition and fails without it; ``holds`` when it
        holds either way; ``fails`` when it fails even under the condition.
        """
        if not isinstance(condition, str) or not condition.strip():
            raise ValueError("condition must name the extra hypothesis")
        u, w = _group(under, "under"), _group(without, "without")
        u_ok, w_ok = all(m.passed for m in u), all(m.passed for m in w)
        tagged = [("under the condition", m) for m in u] + [("without it", m) for m in w]
        if not u_ok:
            return self._add(V.FAILS, tagged, note, condition=condition,
                             counterexample=_failed_text(u))
        if w_ok:
            return self._add(V.HOLDS, tagged, note)
        return self._add(V.HOLDS_IF, tagged, note, condition=condition,
                         counterexample=counterexample or _failed_text(w))

    def reproduced(self, *measurements, setup, note: str = "") -> str:
        """An empirical claim, decided by the verdict rule of the module docstring.  ``setup``
        is a :class:`Setup`, or one per run when several runs decide the claim."""
        setups = _setups(setup)
        ms = _group(list(measurements), "measurements")
        tagged = [("stated" if m.decisive else "reading", m) for m in ms]
        verdict, why, refuted = rule(ms, faithful=all(s.faithful for s in setups))
        if verdict in (V.SUPPORTED, V.INCONCLUSIVE) and not why:
            why = ("every stated criterion passes, but " if verdict == V.SUPPORTED else
                   "the paper's stated outcome is not seen, but ") + _unfaithful(setups)
        return self._add(verdict, tagged, note, setups=setups, why=why,
                         counterexample=_failed_text(refuted) if verdict == V.NOT_REPRODUCED
                         else "")

    def inconclusive(self, why: str, *measurements, setup=None) -> str:
        if not isinstance(why, str) or not why.strip():
            raise ValueError("why must say what is missing to decide the claim")
        ms = _flatten(list(measurements), "measurements")
        return self._add(V.INCONCLUSIVE, [("", m) for m in ms], setups=_setups(setup, optional=True),
                         why=why)

    def untested(self, why: str, setup=None) -> str:
        if not isinstance(why, str) or not why.strip():
            raise ValueError("why must name what is absent (data set, hardware)")
        return self._add(V.UNTESTED, [], setups=_setups(setup, optional=True), why=why)
