"""Checks and their aggregation into one verdict per claim (DESIGN.md, "A claim").

A verify test measures; it never writes a verdict in.  It records each condition it tested with
``claim.measure(name, value, op, threshold, source=...)`` (see :mod:`verify.measurement`) and
hands the measurements to one recorder method, which turns them into the verdict they imply:

* ``holds(*ms)`` / ``defined(*ms)``: a claim as stated, a definition's consistency;
* ``erratum(printed=..., corrected=...)``: both forms measured, neither fixed by construction;
* ``holds_if(condition, under=..., without=...)``: with and without the unstated condition;
* ``reproduced(*ms, setup=...)``: an empirical claim, under the verdict rule below;
* ``inconclusive(why, ...)``, ``untested(why, ...)``.

The verdict rule for empirical claims (DESIGN.md): the measurements whose criterion comes from
the paper (or the authors' code) decide.  When they all pass, the claim holds, whatever the
suite's own readings add.  When one fails, the claim is ``not-reproduced`` only if the setup is
faithful; otherwise ``inconclusive``, naming the deviations and what a faithful run costs.  A
failed reading alone never gives ``not-reproduced``.

The evidence text of a check is generated from its measurements and setup, never written
beside them.  :func:`aggregate` decides a claim by the strongest verdict among its checks
(``theory.verdicts.PRECEDENCE``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from theory import verdicts as V
from verify.measurement import Measurement, Setup, measure


@dataclass
class Check:
    verdict: str
    measurements: list[tuple[str, Measurement]]
    test: str = ""
    note: str = ""
    counterexample: str = ""
    condition: str = ""
    setup: Setup | None = None
    why: str = ""

    @property
    def evidence(self) -> str:
        parts = [self.note] if self.note else []
        parts += [self.why] if self.why else []
        parts += [(f"{role}: " if role else "") + m.text() for role, m in self.measurements]
        if self.setup is not None:
            parts.append(self.setup.text())
        return "; ".join(parts)


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
        full = [c for c in self.checks if c.setup is not None and c.setup.scale == "full"]
        if not full:
            return self.checks
        return [c for c in self.checks if c.setup is None or c.setup.scale == "full"]

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
    def deciding_measurements(self) -> list[Measurement]:
        """The measurements of the checks that decided the verdict (failed ones first)."""
        deciding = self.verdict
        ms = [m for c in self.deciding_checks if c.verdict == deciding for _, m in c.measurements]
        return sorted(ms, key=lambda m: m.passed)

    @property
    def measurements(self) -> list[dict]:
        return [dict(m.as_dict(), test=c.test, **({"role": role} if role else {}))
                for c in self._ordered() for role, m in c.measurements]

    @property
    def setup(self) -> Setup | None:
        """The setup of the deciding check (or of the first check that has one)."""
        with_setup = [c for c in self._ordered() if c.setup is not None]
        return with_setup[0].setup if with_setup else None

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

    def holds(self, *measurements, note: str = "", counterexample: str = "") -> str:
        """The claim as stated: ``holds`` if every measurement passed, else ``fails``."""
        ms = _group(list(measurements), "measurements")
        ok = all(m.passed for m in ms)
        return self._add(V.HOLDS if ok else V.FAILS, [("", m) for m in ms], note,
                         counterexample="" if ok else (counterexample or _failed_text(ms)))

    def defined(self, *measurements, note: str = "") -> str:
        """A definition's internal consistency: ``defined`` if every measurement passed, else ``fails``."""
        ms = _group(list(measurements), "measurements")
        ok = all(m.passed for m in ms)
        return self._add(V.DEFINED if ok else V.FAILS, [("", m) for m in ms], note,
                         counterexample="" if ok else _failed_text(ms))

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

    def reproduced(self, *measurements, setup: Setup, note: str = "") -> str:
        """An empirical claim, decided by the verdict rule of the module docstring."""
        if not isinstance(setup, Setup):
            raise TypeError("setup must be a verify.measurement.Setup: what ran beside the paper")
        ms = _group(list(measurements), "measurements")
        tagged = [("stated" if m.decisive else "reading", m) for m in ms]
        decisive = [m for m in ms if m.decisive]
        refuted = [m for m in decisive if not m.passed]
        if not refuted and (decisive or all(m.passed for m in ms)):
            return self._add(V.HOLDS, tagged, note, setup=setup)
        if refuted and setup.faithful:
            return self._add(V.NOT_REPRODUCED, tagged, note, setup=setup,
                             counterexample=_failed_text(refuted))
        if refuted:
            why = ("the paper's stated outcome is not seen, but the run is not faithful: missing "
                   + "; ".join(d.text() for d in setup.missing) + f"; a faithful run costs {setup.cost}")
        else:
            why = ("only the suite's own reading fails (no criterion from the paper decides), "
                   "which cannot alone overturn the claim")
        return self._add(V.INCONCLUSIVE, tagged, note, setup=setup, why=why)

    def inconclusive(self, why: str, *measurements, setup: Setup | None = None) -> str:
        if not isinstance(why, str) or not why.strip():
            raise ValueError("why must say what is missing to decide the claim")
        ms = _flatten(list(measurements), "measurements")
        return self._add(V.INCONCLUSIVE, [("", m) for m in ms], setup=setup, why=why)

    def untested(self, why: str, setup: Setup | None = None) -> str:
        if not isinstance(why, str) or not why.strip():
            raise ValueError("why must name what is absent (data set, hardware)")
        return self._add(V.UNTESTED, [], setup=setup, why=why)


def aggregate(results: dict[str, ClaimResult]) -> dict[str, tuple[str, str]]:
    """claim ID -> (verdict, evidence) for every claim with at least one check."""
    return {cid: (r.verdict, r.evidence) for cid, r in results.items() if r.checks}
