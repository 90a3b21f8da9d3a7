"""One rule per kind of sentence: the measurements that decide the shapes of claim that recur
across the papers (docs/DESIGN.md, "Statements over seeds").

The suite decides every statement over seeds with one of two statistics, chosen by what the
sentence is about:

* **about the population of trained networks** (a mean, a direction between two conditions,
  "on average"): a one-sided t-test at level :data:`LEVEL` (Welch's for independent runs, the
  paired test when the two conditions share seeds).  A bare seed-mean sign, a single seed or a
  strict argmin over noisy cells never decides.
* **about each trained network** ("the network does not use ...", "units die"): unanimity over
  a stated number of seeds; one seed that disagrees refutes.

A qualitative sentence with no number in the paper ("close agreement", "similar", "inactive")
is decided against a baseline measured in the same run (:func:`within_baseline`), which can
fail both ways.  Every relative criterion records the absolute values it compares in
``details``.

Each helper returns measurements; the caller hands them to the claim's recorder.  The source
(``paper(...)`` for a stated direction, ``baseline(...)`` for a same-run baseline) says whose
sentence it is.
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from verify.measurement import Criterion, Measurement, Source, measure

#: the level of every one-sided test over seeds in the suite
LEVEL = 0.05


def _seeds(values, argument: str, least: int = 2) -> np.ndarray:
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size < least:
        raise ValueError(f"{argument} has {arr.size} seeds: a statement over seeds needs at "
                         f"least {least}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{argument} holds a non-finite value: did a run diverge?")
    return arr


def _constant(x: np.ndarray) -> bool:
    return bool(np.ptp(x) <= 1e-12 * max(1.0, float(np.abs(x).max())))


def one_sided_p(smaller, larger, paired: bool = False) -> float:
    """p-value of the one-sided t-test that mean(smaller) < mean(larger) (paired: seed by seed).

    Where the compared values do not vary (a t statistic is undefined), the p-value is 0 when
    the direction holds for every seed and 1 otherwise.
    """
    a, b = _seeds(smaller, "smaller"), _seeds(larger, "larger")
    if paired:
        if a.shape != b.shape:
            raise ValueError(f"a paired test needs as many seeds on both sides, got {a.size} and "
                             f"{b.size}")
        diff = a - b
        if _constant(diff):
            return 0.0 if diff[0] < 0 else 1.0
        return float(stats.ttest_rel(a, b, alternative="less").pvalue)
    if _constant(a) and _constant(b):
        return 0.0 if a[0] < b[0] else 1.0
    return float(stats.ttest_ind(a, b, equal_var=False, alternative="less").pvalue)


def direction(what: str, smaller, larger, *, source: Source, paired: bool = False,
              names: tuple[str, str] = ("smaller", "larger"),
              details: dict | None = None) -> Measurement:
    """The stated direction mean(smaller) < mean(larger) over seeds: a one-sided t-test at
    :data:`LEVEL`, with both seed means, spreads and counts in ``details``."""
    a, b = _seeds(smaller, names[0]), _seeds(larger, names[1])
    p = one_sided_p(a, b, paired)
    test = "paired" if paired else "Welch"
    return measure(f"{what}: one-sided {test} t-test p over {a.size} + {b.size} seeds", p, "<",
                   LEVEL, source=source,
                   details={f"{names[0]} mean": float(a.mean()), f"{names[0]} sd": float(a.std(ddof=1)),
                            f"{names[1]} mean": float(b.mean()), f"{names[1]} sd": float(b.std(ddof=1)),
                            "seeds": [int(a.size), int(b.size)], **(details or {})})


def exceeds(what: str, values, threshold: float, *, source: Source,
            details: dict | None = None) -> Measurement:
    """A population mean above ``threshold`` (e.g. 'most units' on average: 1/2): a one-sided
    one-sample t-test at :data:`LEVEL`, with the mean, spread and count in ``details``."""
    x = _seeds(values, "values")
    if _constant(x):
        p = 0.0 if x[0] > threshold else 1.0
    else:
        p = float(stats.ttest_1samp(x, threshold, alternative="greater").pvalue)
    return measure(f"{what}: one-sided one-sample t-test p of a mean above {threshold:g} over "
                   f"{x.size} seeds", p, "<", LEVEL, source=source,
                   details={"mean": float(x.mean()), "sd": float(x.std(ddof=1)),
                            "seeds": int(x.size), **(details or {})})


def each(what: str, values, op: str, threshold, *, source: Source, least: int = 2,
         details: dict | None = None) -> Measurement:
    """A statement about each trained network: every one of the (at least ``least``) seeds
    passes ``value <op> threshold``; how many did is in ``details``, beside the absolute values
    the caller adds (``details``) when the value is relative."""
    x = _seeds(values, "values", least)
    passing = int(sum(Criterion(op, threshold).test(v) for v in x))
    return measure(f"{what}, every one of {x.size} seeds", x, op, threshold, source=source,
                   details={"seeds passing": passing, "seeds": int(x.size),
                            "min": float(x.min()), "max": float(x.max()), **(details or {})})


def ratio(what: str, numerator, denominator, op: str, threshold: float, *,
          source: Source, names: tuple[str, str] = ("numerator", "denominator")) -> Measurement:
    """A relative criterion ``numerator / denominator <op> threshold`` with both absolute values
    recorded beside it (a timing ratio, a ratio of gaps or spreads)."""
    num, den = float(numerator), float(denominator)
    if not (np.isfinite(num) and np.isfinite(den)) or den == 0:
        raise ValueError(f"{what}: the ratio {num!r} / {den!r} is undefined")
    return measure(f"{what}: {names[0]} / {names[1]}", num / den, op, threshold, source=source,
                   details={names[0]: num, names[1]: den})


def within_baseline(what: str, value, baseline_value, *, source: Source,
                    names: tuple[str, str] = ("measured", "baseline")) -> Measurement:
    """A qualitative sentence ("close agreement", "inactive") decided against a baseline of the
    same run: passes when ``value <= baseline_value`` (e.g. the distance between two networks
    within the seed-to-seed spread of one).  ``source`` must be ``baseline(...)``."""
    if source.kind != "baseline":
        raise ValueError("within_baseline decides against a same-run baseline: source must be "
                         "made by verify.measurement.baseline()")
    v, b = float(value), float(baseline_value)
    return measure(f"{what}: {names[0]} against {names[1]}", v, "<=", b, source=source,
                   details={names[0]: v, names[1]: b})
