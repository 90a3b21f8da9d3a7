"""Each paper's loss and clock, converted through one function."""
import numpy as np
import pytest

from theory.conventions import MEAN_HALF, SUM_HALF, LossNorm, flow_time, tau
from theory.papers import PAPERS


def test_tau_is_one_over_p_lr_for_the_sum_loss_papers():
    for paper in ("bias", "bias_workshop", "haste_slowly"):
        assert tau(2e-4, 4, paper) == pytest.approx(1250.0)   # BL App B: P = 4, lr = 2e-4


def test_training_on_the_mean_loss_gives_tau_one_over_lr():
    assert tau(0.4, 4, "haste_slowly", trained_on=MEAN_HALF) == pytest.approx(2.5)  # MHS Fig 2
    assert tau(0.1, 7, "lazy_rich") == pytest.approx(10.0)


def test_flow_time_is_linear_in_steps_and_vectorised():
    steps = np.array([0, 10, 20])
    assert np.allclose(flow_time(steps, 0.01, 5, "rich_quick"), 0.01 * steps)
    assert np.allclose(flow_time(steps, 0.01, 5, "bias"), steps * 0.01 * 5)


def test_dropping_the_half_doubles_the_clock():
    assert flow_time(1, 0.1, 3, "lazy_rich", LossNorm(mean=True, half=False)) == pytest.approx(
        2 * flow_time(1, 0.1, 3, "lazy_rich"))


def test_every_paper_has_a_convention_with_its_clock_in_words():
    assert PAPERS and all(p.convention.clock and p.convention.paper == key
                          for key, p in PAPERS.items())
    assert SUM_HALF.factor(4) == 0.5


@pytest.mark.parametrize("args, message", [
    ((1, -0.1, 4, "bias"), "lr=-0.1"), ((1, 0.1, 0, "bias"), "n_samples=0"),
    ((-1, 0.1, 4, "bias"), "steps must be"), ((1, 0.1, 4, "nope"), "paper='nope'"),
    ((np.nan, 0.1, 4, "bias"), "steps must be"),
])
def test_bad_input_names_the_argument(args, message):
    with pytest.raises(ValueError, match=message):
        flow_time(*args)
