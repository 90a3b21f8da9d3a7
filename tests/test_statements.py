"""The project-wide statement rules (verify.statements): each can fail, records the absolute
values beside its criterion, and refuses too few seeds or a non-finite value."""
import numpy as np
import pytest

from verify.measurement import baseline, paper
from verify.statements import LEVEL, direction, each, exceeds, one_sided_p, ratio, within_baseline

WORDS = paper("L1", "bias lowers the loss")


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


def test_ratio_and_baseline_record_the_absolute_values():
    m = ratio("gap", 2.0, 4.0, "<", 1, source=WORDS, names=("bias", "no bias"))
    assert m.passed and m.details == {"bias": 2.0, "no bias": 4.0}
    source = baseline("L171", "close agreement", "ReLU seed spread")
    assert within_baseline("distance", 0.1, 0.2, source=source).passed
    assert not within_baseline("distance", 0.3, 0.2, source=source).passed
    with pytest.raises(ValueError, match="source must be made by"):
        within_baseline("distance", 0.1, 0.2, source=WORDS)


@pytest.mark.parametrize("call, message", [
    (lambda: direction("x", [1.0], [2.0, 3.0], source=WORDS), "at least 2"),
    (lambda: direction("x", [1.0, np.nan], [2.0, 3.0], source=WORDS), "non-finite"),
    (lambda: each("x", [0.6], ">", 0.5, source=WORDS), "at least 2"),
    (lambda: ratio("x", 1.0, 0.0, "<", 1, source=WORDS), "undefined"),
])
def test_bad_input_names_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()
