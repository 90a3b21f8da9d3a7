"""Seed statistics for the empirical claims: every comparison of two conditions is a one-sided
Welch t-test over seeds at level 0.05 (DESIGN.md, "Checks that can fail")."""
from __future__ import annotations

import numpy as np
from scipy import stats

from numerics.validation import finite_array

ALPHA = 0.05


def less(a, b):
    """(holds, p): one-sided Welch test that mean(a) < mean(b); needs >= 2 values each."""
    a, b = finite_array(a, "a", ndim=1), finite_array(b, "b", ndim=1)
    if a.size < 2 or b.size < 2:
        raise ValueError("a and b need at least two seeds each")
    if np.ptp(a) <= 1e-12 * max(1.0, np.abs(a).max()) and \
            np.ptp(b) <= 1e-12 * max(1.0, np.abs(b).max()):
        return bool(a[0] < b[0]), 0.0 if a[0] < b[0] else 1.0
    p = float(stats.ttest_ind(a, b, equal_var=False, alternative="less").pvalue)
    return p < ALPHA, p


def paired_less(a, b):
    """(holds, p): one-sided paired t-test that a < b seed by seed."""
    a, b = finite_array(a, "a", ndim=1), finite_array(b, "b", ndim=1)
    if a.shape != b.shape or a.size < 2:
        raise ValueError("a and b need the same number (>= 2) of seeds")
    diff = a - b
    if np.ptp(diff) <= 1e-12 * max(1.0, np.abs(diff).max()):   # constant: t is undefined
        return bool(diff[0] < 0), 0.0 if diff[0] < 0 else 1.0
    p = float(stats.ttest_rel(a, b, alternative="less").pvalue)
    return p < ALPHA, p


def summary(x) -> str:
    """'mean +- 95% t-CI half-width (n)' for evidence strings."""
    x = finite_array(x, "x", ndim=1)
    half = stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size) if x.size > 1 else 0.0
    return f"{x.mean():.3g} +- {half:.2g} (n={x.size})"
