"""Hunting for counterexamples with hypothesis, with the outcome handed back as evidence.

:func:`search` runs ``prop`` over examples drawn from ``strategies`` under the active profile
(``ci``, ``dev`` or ``explore``).  ``prop`` returns ``(ok, error)``; the search records how many
examples ran and the worst error, and returns hypothesis' shrunk counterexample when one fails.
Counterexamples found while exploring are pinned by passing them in ``examples`` (each becomes an
``@example``, replayed in every profile).
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import example, given, settings


@dataclass
class SearchResult:
    ok: bool
    examples: int
    worst: float
    counterexample: str = ""

    def evidence(self, what: str) -> str:
        text = f"{what}: worst {self.worst:.3g} over {self.examples} hypothesis examples"
        return text + (f"; counterexample {self.counterexample}" if not self.ok else "")


class _Falsified(AssertionError):
    pass


def search(prop, examples=(), **strategies) -> SearchResult:
    """Run ``prop(**drawn) -> (ok, error)`` over hypothesis examples; see the module docstring."""
    if not strategies:
        raise ValueError("strategies is empty: name at least one argument strategy")
    stats = {"n": 0, "worst": 0.0}

    def body(**kwargs):
        ok, error = prop(**kwargs)
        stats["n"] += 1
        if error == error:  # skip NaN in the worst-case statistic; ok decides
            stats["worst"] = max(stats["worst"], float(error))
        if not ok:
            raise _Falsified(f"{kwargs} (error {error:.3g})")

    # One shrunk counterexample is the evidence we want, not a group of distinct failures.
    test = settings(report_multiple_bugs=False)(given(**strategies)(body))
    for pinned in examples:
        test = example(**pinned)(test)
    try:
        test()
    except _Falsified as exc:
        return SearchResult(False, stats["n"], stats["worst"], str(exc))
    return SearchResult(True, stats["n"], stats["worst"])
