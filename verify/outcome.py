"""Checks and their aggregation into one verdict per claim (DESIGN.md, "A claim").

A verify test measures; it never writes a verdict in.  Each method of :class:`ClaimRecorder`
turns what a test computed (booleans, residuals, counterexamples) into the verdict those facts
imply, so the same facts always give the same verdict.  :func:`aggregate` then decides the claim
by the strongest verdict among its checks (``theory.verdicts.PRECEDENCE``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from theory import verdicts as V


@dataclass
class Check:
    verdict: str
    evidence: str
    test: str = ""
    counterexample: str = ""
    condition: str = ""


@dataclass
class ClaimResult:
    claim_id: str
    checks: list[Check] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def verdict(self) -> str:
        return V.strongest(c.verdict for c in self.checks)

    @property
    def evidence(self) -> str:
        """The deciding checks first, then the rest, each with its own evidence."""
        deciding = self.verdict
        ordered = sorted(self.checks, key=lambda c: (c.verdict != deciding,
                                                     V.PRECEDENCE.index(c.verdict)))
        return "; ".join(f"[{c.verdict}] {c.evidence}" for c in ordered)

    @property
    def counterexample(self) -> str:
        return "; ".join(c.counterexample for c in self.checks if c.counterexample)

    @property
    def condition(self) -> str:
        return "; ".join(sorted({c.condition for c in self.checks if c.condition}))


def _as_bool(value, argument: str) -> bool:
    try:
        import numpy as np
        if isinstance(value, np.ndarray):
            raise TypeError
        return bool(value)
    except (TypeError, ValueError):
        raise TypeError(f"{argument} must be a single truth value, got {type(value).__name__}") from None


class ClaimRecorder:
    """What a test hands its measurements to; bound to the claim IDs of the test's marker."""

    def __init__(self, results: dict[str, ClaimResult], claim_ids, test: str = ""):
        if not claim_ids:
            raise ValueError("claim_ids is empty: mark the test with @pytest.mark.claim('ID')")
        self._results = results
        self.ids = tuple(claim_ids)
        self.test = test

    def _add(self, verdict: str, evidence: str, **extra) -> str:
        if not isinstance(evidence, str) or not evidence.strip():
            raise ValueError("evidence must be a non-empty string saying what was measured")
        for claim_id in self.ids:
            result = self._results.setdefault(claim_id, ClaimResult(claim_id))
            result.checks.append(Check(verdict, evidence, test=self.test, **extra))
        return verdict

    def holds(self, ok, evidence: str, counterexample: str = "") -> str:
        """A check of the claim as stated: ``holds`` if ``ok`` else ``fails``."""
        ok = _as_bool(ok, "ok")
        return self._add(V.HOLDS if ok else V.FAILS, evidence,
                         counterexample="" if ok else counterexample)

    def defined(self, consistent, evidence: str) -> str:
        """A definition's internal consistency: ``defined`` if consistent else ``fails``."""
        return self._add(V.DEFINED if _as_bool(consistent, "consistent") else V.FAILS, evidence)

    def erratum(self, printed_ok, corrected_ok, evidence: str, counterexample: str = "") -> str:
        """Printed form against corrected form.

        ``erratum`` when the printed form fails and the corrected one holds; ``holds`` when the
        printed form holds (no erratum); ``fails`` when neither holds.
        """
        printed_ok = _as_bool(printed_ok, "printed_ok")
        corrected_ok = _as_bool(corrected_ok, "corrected_ok")
        if printed_ok:
            return self._add(V.HOLDS, evidence)
        if not counterexample:
            raise ValueError("counterexample is required when the printed form fails")
        return self._add(V.ERRATUM if corrected_ok else V.FAILS, evidence,
                         counterexample=counterexample)

    def holds_if(self, condition: str, ok_under, ok_without, evidence: str,
                 counterexample: str = "") -> str:
        """A claim tested with and without an extra condition the paper does not state.

        ``holds-if`` when it holds under the condition and fails without it; ``holds`` when it
        holds either way; ``fails`` when it fails even under the condition.
        """
        ok_under = _as_bool(ok_under, "ok_under")
        ok_without = _as_bool(ok_without, "ok_without")
        if not condition:
            raise ValueError("condition must name the extra hypothesis")
        if not ok_under:
            return self._add(V.FAILS, evidence, condition=condition)
        if ok_without:
            return self._add(V.HOLDS, evidence)
        if not counterexample:
            raise ValueError("counterexample is required when the claim fails without the condition")
        return self._add(V.HOLDS_IF, evidence, condition=condition, counterexample=counterexample)

    def reproduced(self, ok, evidence: str) -> str:
        """An empirical claim: ``holds`` if the reproduction shows it, else ``not-reproduced``."""
        return self._add(V.HOLDS if _as_bool(ok, "ok") else V.NOT_REPRODUCED, evidence)

    def inconclusive(self, why: str) -> str:
        return self._add(V.INCONCLUSIVE, why)

    def untested(self, why: str) -> str:
        return self._add(V.UNTESTED, why)


def aggregate(results: dict[str, ClaimResult]) -> dict[str, tuple[str, str]]:
    """claim ID -> (verdict, evidence) for every claim with at least one check."""
    return {cid: (r.verdict, r.evidence) for cid, r in results.items() if r.checks}
