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

A qualitative sentence with no number in the paper ("close agreement", "small", "most") is
decided over the plausible readings of its words (:mod:`verify.lexicon`), on a seed statistic
with an interval (:func:`estimate`): the seed spread is the uncertainty of the measurement, never
the bar for "close".  Every relative criterion records the absolute values it compares in
``details``.

**The interval, one method suite-wide:** the statistic on all seeds, its jackknife standard
error over seeds (leave one seed out; for conditions run on other seeds, the groups' variances
add) and the one-sided Student-t bounds at :data:`LEVEL` on either side.  For a seed mean it is
exactly the interval of the one-sided t-test that :func:`direction` uses, so the suite has one
statistic for a direction and for a magnitude.

Each helper returns measurements; the caller hands them to the claim's recorder.  The source
(``paper(...)`` for a stated direction, ``lexicon(...)`` for a qualitative word) says whose
sentence it is.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Estimate:
    """A measured quantity with its interval: ``value`` on all seeds, ``low`` / ``high`` its
    one-sided bounds at :data:`LEVEL` (module docstring), over ``seeds`` seeds (1 and a point
    interval for a deterministic computation)."""

    value: float
    low: float
    high: float
    seeds: int

    def __post_init__(self):
        if not all(np.isfinite([self.value, self.low, self.high])):
            raise ValueError(f"an estimate needs finite numbers, got {self.value!r} in "
                             f"[{self.low!r}, {self.high!r}]: did a run diverge?")
        if not self.low <= self.value <= self.high:
            raise ValueError(f"value {self.value!r} lies outside its interval [{self.low!r}, "
                             f"{self.high!r}]")

    @classmethod
    def point(cls, value: float) -> "Estimate":
        """A deterministic quantity (an integrated flow, a closed form): no seed uncertainty."""
        v = float(value)
        return cls(v, v, v, 1)

    def scaled(self, factor: float) -> "Estimate":
        """The same estimate in another unit (``factor`` > 0), e.g. over L(0)."""
        if not factor > 0:
            raise ValueError(f"factor={factor!r} must be positive")
        return Estimate(self.value * factor, self.low * factor, self.high * factor, self.seeds)

    def as_dict(self) -> dict:
        return {"value": self.value, "interval": [self.low, self.high], "seeds": self.seeds}


def estimate(statistic: Callable[..., float], *samples, paired: bool = True) -> Estimate:
    """``statistic(*samples)`` with its interval over seeds (module docstring).

    Each sample is an array with seeds first (a seed's loss curve, a seed's count).  ``paired``:
    the samples share their seeds (seed i of each ran together), so a seed is left out of all of
    them at once; otherwise each sample's seeds are left out in turn and the variances add.
    """
    if not callable(statistic):
        raise TypeError("statistic must be a function of the samples (seeds first)")
    if not samples:
        raise ValueError("samples is empty: give the per-seed values the statistic reads")
    arrays = [np.asarray(s, dtype=float) for s in samples]
    for k, a in enumerate(arrays):
        if a.ndim == 0 or a.shape[0] < 2:
            raise ValueError(f"samples[{k}] has {0 if a.ndim == 0 else a.shape[0]} seeds: an "
                             "interval needs at least 2 (use Estimate.point for a deterministic "
                             "quantity)")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"samples[{k}] holds a non-finite value: did a run diverge?")
    value = float(statistic(*arrays))
    if paired:
        n = arrays[0].shape[0]
        if any(a.shape[0] != n for a in arrays):
            raise ValueError("paired samples need as many seeds each, got "
                             f"{[a.shape[0] for a in arrays]}")
        groups = [list(range(len(arrays)))]
    else:
        groups = [[k] for k in range(len(arrays))]
    var, least = 0.0, min(a.shape[0] for a in arrays)
    for group in groups:
        n = arrays[group[0]].shape[0]
        loo = np.array([float(statistic(*[np.delete(a, i, axis=0) if k in group else a
                                          for k, a in enumerate(arrays)])) for i in range(n)])
        var += (n - 1) / n * float(np.sum((loo - loo.mean()) ** 2))
    half = float(stats.t.ppf(1 - LEVEL, least - 1)) * np.sqrt(var)
    return Estimate(value, float(value - half), float(value + half), least)


def mean_of(values) -> Estimate:
    """The seed mean of ``values`` (one per seed) with its interval."""
    return estimate(np.mean, values)


def seed_mean(values) -> Estimate:
    """:func:`mean_of` the seeds, or a point for one value (one deterministic flow)."""
    x = np.asarray(values, dtype=float).ravel()
    return Estimate.point(float(x[0])) if x.size == 1 else mean_of(x)
