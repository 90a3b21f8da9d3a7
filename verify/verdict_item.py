"""The verdict item ``claim[ID]`` that judges one claim after its last test, and the payloads a
test and a verdict item hand the controller with their reports (serialised by pytest-xdist)."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from verify.report import record as R

from verify.stash import SESSION, VERDICT


class VerdictRegression(Exception):
    pass


@dataclass(frozen=True)
class ChecksPayload(R.JsonRecord):
    """What a test tied to claims hands the controller with its report."""

    claims: tuple[str, ...]
    figures: tuple[dict, ...] = ()


@dataclass(frozen=True)
class VerdictPayload(R.JsonRecord):
    """What a verdict item hands the controller: its verdict and, when measured, the record."""

    id: str
    verdict: str | None
    expected: str
    record: dict | None = None


class VerdictItem(pytest.Item):
    """Compares one claim's aggregated verdict with its expected verdict, and hands the claim's
    record to the controller."""

    def __init__(self, *, claim_id: str, **kwargs):
        super().__init__(**kwargs)
        self.claim_id = claim_id

    def runtest(self):
        from theory.registry import REGISTRY
        session = self.config.stash[SESSION]
        claim = REGISTRY[self.claim_id]
        result = session.results.get(self.claim_id)
        if result is None or not result.checks:
            self.stash[VERDICT] = VerdictPayload(self.claim_id, None, claim.expected)
            raise VerdictRegression(
                f"{self.claim_id}: expected {claim.expected!r}, but no check recorded a verdict "
                "(did its tests error or skip?)")
        unread = claim.unread()
        record = R.ClaimRecord.of(claim, result, session.claim_tests.get(self.claim_id, ()))
        self.stash[VERDICT] = VerdictPayload(record.id, record.verdict, record.expected,
                                             record.as_json())
        if record.verdict != record.expected:
            raise VerdictRegression(
                f"{self.claim_id}: measured verdict {record.verdict!r} != expected "
                f"{record.expected!r}\n" + _moved(record, session.previous.get(self.claim_id))
                + f"evidence: {record.evidence}")
        if unread:
            raise VerdictRegression(
                f"{self.claim_id}: the registry holds encodings of this claim that no check "
                f"evaluated: {', '.join(unread)}; read each through the claim "
                f"(REGISTRY[{self.claim_id!r}].printed...) in a check, or drop it")
        undecided = [c for c, by in claim.clauses.items() if not by.startswith("not testable")
                     and not any(by in m["name"] for m in record.measurements)]
        if undecided:
            raise VerdictRegression(
                f"{self.claim_id}: the clauses {undecided} name a measurement that no check "
                "recorded: decide each clause of the sentence, or say why it is not testable")
        if claim.kind == "empirical" and record.verdict != "untested" and not record.setups:
            raise VerdictRegression(
                f"{self.claim_id}: an empirical claim must record its setup (what ran beside the "
                "paper's settings): pass setup=Setup(...) to the recorder")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, VerdictRegression):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"claim[{self.claim_id}]"


def _moved(record: R.ClaimRecord, previous: dict | None) -> str:
    """The conditions behind a changed verdict: those whose outcome moved since the last run's
    record, else the failed measurements."""
    before = {m["name"]: m["passed"] for m in (previous or {}).get("measurements", [])}
    outcome = {True: "passed", False: "failed"}
    lines = [f"moved: {m['name']}: {outcome[bool(before[m['name']])]} before, "
             f"{outcome[bool(m['passed'])]} now"
             for m in record.measurements if m["name"] in before and before[m["name"]] != m["passed"]]
    if not lines:
        from verify.measurement import measurement_line
        lines = [f"deciding: {measurement_line(m)}" for m in record.measurements
                 if not m["passed"]][:5]
    return "".join(line + "\n" for line in lines)
