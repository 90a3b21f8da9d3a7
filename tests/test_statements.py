"""The project-wide statement rules (verify.statements): each can fail, records the absolute
values beside its criterion, and refuses too few seeds or a non-finite value."""
import numpy as np
import pytest

from scipy import stats

from verify.measurement import paper
from verify.statements import (LEVEL, Estimate, direction, each, estimate, exceeds, mean_of,
                               one_sided_p, ratio, seed_mean)

WORDS = paper("L1", "bias lowers the loss; more than 0.5 of the units")


def test_a_stated_direction_is_a_one_sided_test_over_seeds():
    rng = np.random.default_rng(0)
    lower, higher = rng.normal(0, 0.1, 8), rng.normal(1, 0.1, 8)
    assert direction("loss", lower, higher, source=WORDS).passed
    m = direction("loss", higher, lower, source=WORDS)
    assert not m.passed and m.details["smaller mean"] > m.details["larger mean"]
    same = rng.normal(0, 1, 8)
    assert one_sided_p(same, same + 1e-3 * rng.normal(size=8), paired=False) > LEVEL


def test_a_bare_sign_over_noise_does_not_pass():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0, 1, 4), rng.normal(0.05, 1, 4)
    assert not direction("noise", a, b, source=WORDS).passed


def test_paired_and_constant_cases():
    assert direction("x", [1, 2, 3], [2, 3, 4], source=WORDS, paired=True).passed
    assert not direction("x", [2, 3, 4], [1, 2, 3], source=WORDS, paired=True).passed
    with pytest.raises(ValueError, match="as many seeds"):
        direction("x", [1, 2, 3], [2, 3], source=WORDS, paired=True)


def test_each_network_is_unanimity():
    assert each("share", [0.6, 0.7], ">", 0.5, source=WORDS).passed
    m = each("share", [0.6, 0.4, 0.7], ">", 0.5, source=WORDS)
    assert not m.passed and m.details["seeds passing"] == 2


def test_a_population_mean_above_a_threshold():
    assert exceeds("share", [0.8, 0.9, 0.85], 0.5, source=WORDS).passed
    assert not exceeds("share", [0.4, 0.6, 0.5], 0.5, source=WORDS).passed


def test_ratio_records_the_absolute_values():
    m = ratio("gap", 2.0, 4.0, "<", 1, source=WORDS, names=("bias", "no bias"))
    assert m.passed and m.details == {"bias": 2.0, "no bias": 4.0}


def test_the_interval_of_a_seed_mean_is_the_one_sided_t_tests():
    x = np.array([0.3, 0.5, 0.4, 0.7, 0.6])
    e = mean_of(x)
    half = stats.t.ppf(1 - LEVEL, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size)
    assert np.isclose(e.value, x.mean()) and np.isclose(e.high - e.value, half)
    assert np.isclose(e.value - e.low, half) and e.seeds == 5
    # the bound the interval gives is where the one-sample t-test turns significant
    assert np.isclose(stats.ttest_1samp(x, e.high, alternative="less").pvalue, LEVEL)


def test_a_seed_mean_of_one_deterministic_flow_is_a_point():
    assert seed_mean([0.25]) == Estimate.point(0.25)
    assert seed_mean([[0.3], [0.5], [0.4]]) == mean_of([0.3, 0.5, 0.4])


def test_the_interval_of_any_statistic_over_paired_and_independent_seeds():
    rng = np.random.default_rng(2)
    a = rng.normal(0, 1, (6, 20))
    gap = estimate(lambda x, y: float(np.abs(x.mean(0) - y.mean(0)).max()), a, a + 0.5)
    assert np.isclose(gap.value, 0.5) and gap.high - gap.low < 1e-9  # paired seeds: no noise
    diff = estimate(lambda x, y: x.mean() - y.mean(), [1.0, 2, 3], [2.0, 3, 4, 5], paired=False)
    welch_se = np.sqrt(np.var([1, 2, 3], ddof=1) / 3 + np.var([2, 3, 4, 5], ddof=1) / 4)
    assert np.isclose(diff.high - diff.value, stats.t.ppf(1 - LEVEL, 2) * welch_se)
    assert Estimate.point(0.2).low == Estimate.point(0.2).high == 0.2
    assert mean_of([1.0, 2.0]).scaled(2).value == 3.0


@pytest.mark.parametrize("call, message", [
    (lambda: direction("x", [1.0], [2.0, 3.0], source=WORDS), "at least 2"),
    (lambda: direction("x", [1.0, np.nan], [2.0, 3.0], source=WORDS), "non-finite"),
    (lambda: each("x", [0.6], ">", 0.5, source=WORDS), "at least 2"),
    (lambda: ratio("x", 1.0, 0.0, "<", 1, source=WORDS), "undefined"),
    (lambda: mean_of([1.0]), "at least 2"),
    (lambda: mean_of([1.0, np.inf]), "non-finite"),
    (lambda: estimate(np.mean), "samples is empty"),
    (lambda: estimate("mean", [1.0, 2.0]), "statistic must be"),
    (lambda: estimate(lambda a, b: 0.0, [1.0, 2], [1.0, 2, 3]), "as many seeds"),
    (lambda: Estimate(1.0, 2.0, 3.0, 2), "outside its interval"),
    (lambda: Estimate(np.nan, 0.0, 1.0, 2), "finite"),
    (lambda: Estimate.point(1.0).scaled(0), "factor="),
])
def test_bad_input_names_the_problem(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()
