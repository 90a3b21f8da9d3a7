"""Vectorised closed forms against their sympy originals, limits, and bad input."""
import numpy as np
import pytest
import sympy as sp

from numerics.closed_forms import hitting_time, loss_from_modes, mode_strength
from numerics.datasets import correlations, hierarchy, modes
from theory import mode_law as ml

PRINTED = sp.lambdify((ml.t, ml.s, ml.d, ml.a0, ml.tau), ml.trajectory, "numpy")


@pytest.mark.parametrize("s, d, a0, tau", [(1.3, 0.7, 1e-3, 2.0), (0.2, 3.0, 0.5, 10.0),
                                           (2.0, 0.5, 4.0, 1.0)])
def test_stable_form_equals_the_printed_form_on_a_time_grid(s, d, a0, tau):
    t = np.linspace(0, 30, 301)
    assert np.allclose(mode_strength(t, s, d, a0, tau), PRINTED(t, s, d, a0, tau), rtol=1e-12)


def test_limits_without_overflow_or_nan():
    assert mode_strength(1e6, 1.0, 2.0, 1e-3) == pytest.approx(0.5, rel=1e-15)
    assert mode_strength(3.0, 0.0, 2.0, 0.1, 1.5) == pytest.approx(0.1 / (1 + 2 * 2 * 0.1 * 2))
    assert mode_strength(3.0, 1e-12, 2.0, 0.1, 1.5) == pytest.approx(0.1 / 1.8, rel=1e-9)
    assert mode_strength(2.0, 0.5, 0.0, 0.1) == pytest.approx(0.1 * np.e ** 2)
    grid = mode_strength(np.linspace(0, 10, 4)[:, None], np.array([1.0, 2.0]), 1.0, 0.01)
    assert grid.shape == (4, 2)


def test_hitting_time_inverts_the_trajectory_on_both_sides_of_the_plateau():
    for a0, rho in [(1e-3, 0.3), (2.0, 0.9)]:
        t_hat = hitting_time(rho, 1.2, 1.5, a0, 3.0)
        assert mode_strength(t_hat, 1.2, 1.5, a0, 3.0) == pytest.approx(rho, rel=1e-10)


def test_loss_from_modes_steps_down_by_p_s_squared_over_2d_per_learned_mode():
    X, Y = hierarchy(2)
    U, s, V, d, _ = modes(*correlations(X, Y))
    final = loss_from_modes(s / d, s, d, np.sum(Y ** 2), 4)
    assert final == pytest.approx(0.5 * np.sum(Y ** 2) - 2 * np.sum(s ** 2 / d))
    assert final == pytest.approx(0.0, abs=1e-12)  # X = I: every mode learned fits Y exactly


@pytest.mark.parametrize("kwargs, message", [
    (dict(a0=-0.1), "a0 must be positive"), (dict(d=-1.0), "d must be non-negative"),
    (dict(tau=0.0), "tau must be positive"), (dict(t=-1.0), "t must be non-negative"),
    (dict(s=np.nan), "s contains non-finite"),
])
def test_mode_strength_bad_input_names_the_argument(kwargs, message):
    args = dict(t=1.0, s=1.0, d=1.0, a0=0.1, tau=1.0) | kwargs
    with pytest.raises(ValueError, match=message):
        mode_strength(**args)


def test_a_threshold_beyond_the_plateau_is_rejected_by_name():
    with pytest.raises(ValueError, match="rho must lie between a0 and the plateau"):
        hitting_time(0.9, 1.0, 2.0, 0.01)


def test_hierarchy_has_the_saxe_spectrum_and_shares_v_with_its_input_correlation():
    X, Y = hierarchy(2)
    assert np.allclose(np.linalg.svd(Y, compute_uv=False) ** 2, [7, 3, 1, 1])
    U, s, V, d, offdiag = modes(*correlations(X, Y, c=1.0))
    assert np.allclose(s, [1.47901995, 0.4330127, 0.25, 0.25]) and offdiag < 1e-12
    assert hierarchy(3)[1].shape == (15, 8)
    with pytest.raises(ValueError, match="depth=0"):
        hierarchy(0)
    with pytest.raises(ValueError, match="X has 4 samples but Y has 3"):
        correlations(X, Y[:, :3])
