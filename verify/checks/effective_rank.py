"""Checks of BL-Def-EffRank: the stated properties of an effective-rank formula.

``rank_fn(singular_values) -> float`` is the formula under test, so tests can pass a perturbed
formula and see it rejected.
"""
from __future__ import annotations

import numpy as np


def stated_properties(rank_fn, n: int = 4, seed: int = 0) -> dict[str, bool]:
    """BL L90-L94 and the catalogue: maximal (= n) at a flat spectrum, minimal (= 1) at a single
    dominant value, 1 <= rho <= rank in between, invariant to scaling, zeros contribute 0."""
    rng = np.random.default_rng(seed)
    flat, single = rank_fn([1.0] * n), rank_fn([1.0] + [0.0] * (n - 1))
    spectra = [np.sort(rng.uniform(0, 3, n))[::-1] * rng.choice([0.3, 1, 7]) for _ in range(20)]
    values = [rank_fn(list(sv)) for sv in spectra]
    tol = 1e-12  # float64 rounding of exp/log sums of n terms
    return {
        "flat is the maximum n": abs(flat - n) < tol and all(v <= flat + tol for v in values),
        "single value is the minimum 1": abs(single - 1) < tol
        and all(v >= single - tol for v in values),
        "1 <= rho <= rank": all(1 - tol <= v <= np.count_nonzero(sv) + tol
                                for v, sv in zip(values, spectra)),
        "scale invariant": all(abs(rank_fn(list(3.7 * sv)) - v) < 1e-9 * abs(v)
                               for v, sv in zip(values[:5], spectra[:5])),
        "zeros contribute 0": abs(rank_fn([2.0, 1.0, 0.0]) - rank_fn([2.0, 1.0])) < tol,
    }
