"""The shared hypothesis strategies (verify.strategies): factories refuse bad arguments, naming
them, and every draw has the property its strategy states."""
from dataclasses import asdict

import numpy as np
import pytest
from hypothesis import given, settings

from numerics.lazy_rich.experiments import problem_from_numbers
from verify import strategies as strat

FEW = settings(max_examples=25, deadline=None, database=None)


@pytest.mark.parametrize("factory", [strat.log_uniform, strat.signed_log_uniform,
                                     strat.zero_or_signed])
@pytest.mark.parametrize("lo, hi, wrong", [(0.0, 1.0, "lo"), (-1.0, 1.0, "lo"), ("1", 2.0, "lo"),
                                           (2.0, 1.0, "hi"), (1.0, None, "hi")])
def test_number_factories_name_the_bad_bound(factory, lo, hi, wrong):
    with pytest.raises(ValueError, match=wrong):
        factory(lo, hi)


def test_flag_factories_name_the_bad_flag():
    with pytest.raises(ValueError, match="decaying"):
        strat.mode_params(decaying="yes")
    with pytest.raises(ValueError, match="nonnegative"):
        strat.label_matrices(nonnegative=1)


@pytest.mark.parametrize("record, fields, wrong", [
    (strat.ModeParams, dict(s=1.0, d=0.0, a0=0.1, tau=1.0), "d"),
    (strat.HittingParams, dict(s=1.0, d=1.0, a0=0.1, rho=-0.2, tau=1.0), "rho"),
    (strat.DelayParams, dict(s=1.0, d=1.0, a0=0.1, rho=0.2, tau=1.0, g=1.0), "g"),
    (strat.BalancedProblem, dict(n_in=2, n_out=3, lam=0.5, scale=1.0, w1=[1.0] * 3, w2=[1.0] * 6,
                                 syx=[0.0] * 6, rot=0.0), "w1"),
    (strat.BalancedProblem, dict(n_in=2, n_out=3, lam=0.5, scale=0.0, w1=[1.0] * 4, w2=[1.0] * 6,
                                 syx=[0.0] * 6, rot=0.0), "scale"),
])
def test_parameter_records_name_the_bad_field(record, fields, wrong):
    with pytest.raises(ValueError, match=f"^{wrong}"):
        record(**fields)


@FEW
@given(p=strat.mode_params(decaying=False), q=strat.mode_params())
def test_mode_params_start_below_the_plateau_or_decay_from_at_most_twice_it(p, q):
    assert 0 < p.a0 < p.s / p.d and 0 < q.a0 <= 2 * q.s / q.d * (1 + 1e-12)


@FEW
@given(p=strat.hitting_params())
def test_hitting_thresholds_lie_between_a0_and_the_plateau(p):
    lo, hi = sorted((p.a0, p.s / p.d))
    assert lo < p.rho < hi and abs(p.a0 * p.d / p.s - 1) > 1e-6


@FEW
@given(p=strat.delay_params())
def test_delay_params_rise_to_rho_below_the_plateau_with_an_alive_fraction(p):
    assert 0 < p.a0 <= p.rho < p.s / p.d and 0 < p.g < 1


@FEW
@given(p=strat.balanced_problems())
def test_balanced_problems_build_lambda_balanced_inits(p):
    _, W1, W2 = problem_from_numbers(**asdict(p))
    nh = min(p.n_in, p.n_out)
    assert W1.shape == (nh, p.n_in) and W2.shape == (p.n_out, nh)
    size = max(1.0, abs(p.lam), np.linalg.norm(W1, 2) ** 2, np.linalg.norm(W2, 2) ** 2)
    assert np.max(np.abs(W2.T @ W2 - W1 @ W1.T - p.lam * np.eye(nh))) <= 1e-10 * size


@FEW
@given(Y=strat.equal_overlap_labels())
def test_equal_overlap_labels_have_equal_column_overlaps(Y):
    overlaps = Y.T @ Y @ np.ones(Y.shape[1])
    assert Y.min() >= 0 and overlaps.min() > 0
    assert np.allclose(overlaps, overlaps.mean(), rtol=1e-12, atol=0)


@FEW
@given(Y=strat.unbalanced_classes())
def test_unbalanced_classes_are_one_hot_with_unequal_overlaps(Y):
    assert set(np.unique(Y)) == {0.0, 1.0} and np.all(Y.sum(0) == 1)
    assert len(set(Y.sum(1))) > 1
    overlaps = Y.T @ Y @ np.ones(Y.shape[1])
    assert not np.allclose(overlaps, overlaps.mean())


@FEW
@given(Y=strat.label_matrices(), Z=strat.label_matrices(nonnegative=True))
def test_label_matrices_keep_the_bias_mode(Y, Z):
    for M, lo in ((Y, -2.0), (Z, 0.0)):
        assert M.shape[1] >= 2 and lo <= M.min() and M.max() <= 2.5
        assert np.linalg.norm(M.mean(1)) >= 1e-3
