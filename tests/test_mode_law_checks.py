"""The mode-law checks reject perturbed claims (a changed constant, a flipped sign, a dropped
factor), so their 'holds' verdicts on the printed forms mean something."""
import numpy as np
import pytest
import sympy as sp

from numerics.closed_forms import mode_strength
from numerics.mode_flows import aligned_flow
from theory import mode_law as ml
from theory.bias.effective_rank import effective_rank_corrected, evaluate_effective_rank
from verify.checks import mode_law as mode_checks
from verify.checks.effective_rank import stated_properties
from verify.checks.symbolic import is_zero

t, s, d, a0, tau, rho = ml.t, ml.s, ml.d, ml.a0, ml.tau, ml.rho
PERTURBED_LAWS = {
    "rate 3s instead of 2s": (s / d) / (1 - (1 - s / (d * a0)) * sp.exp(-3 * s * t / tau)),
    "plateau s/(2d)": (s / (2 * d)) / (1 - (1 - s / (2 * d * a0)) * sp.exp(-2 * s * t / tau)),
    "flipped sign in the bracket": (s / d) / (1 - (1 + s / (d * a0)) * sp.exp(-2 * s * t / tau)),
    "dropped tau": (s / d) / (1 - (1 - s / (d * a0)) * sp.exp(-2 * s * t)),
}
S, D, A0, TAU = np.array([1.5, 0.6, 0.2]), np.array([0.8, 1.7, 0.3]), np.array([1e-3, 2e-2, 1.0]), 3.7


@pytest.mark.rejects("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")
def test_the_printed_law_passes_every_check():
    assert all(mode_checks.symbolic_solution(ml.trajectory).values())
    assert mode_checks.scalar_ode_error(ml.trajectory, 1.3, 0.7, 1e-3, 2.0) < 1e-8


@pytest.mark.rejects("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")
@pytest.mark.parametrize("name", PERTURBED_LAWS)
def test_the_symbolic_check_rejects_a_perturbed_law(name):
    assert not all(mode_checks.symbolic_solution(PERTURBED_LAWS[name]).values())


@pytest.mark.rejects("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")
@pytest.mark.parametrize("name", PERTURBED_LAWS)
def test_the_scalar_ode_check_rejects_a_perturbed_law(name):
    assert mode_checks.scalar_ode_error(PERTURBED_LAWS[name], 1.3, 0.7, 1e-3, 2.0) > 1e-3


@pytest.mark.rejects("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")
@pytest.mark.parametrize("name", PERTURBED_LAWS)
def test_the_matrix_flow_check_rejects_a_perturbed_law(name):
    times, modes, _ = aligned_flow(5, 3, 4, S, D, A0, TAU)
    assert mode_checks.matrix_flow_error(PERTURBED_LAWS[name], times, modes, S, D, A0, TAU) > 1e-3


@pytest.mark.rejects("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")
def test_the_training_comparison_rejects_a_law_with_the_wrong_rate():
    times = np.linspace(0, 20, 200)
    s_, d_ = np.array([1.0, 0.4]), np.array([1.0, 0.5])
    trained = mode_strength(times[:, None, None], s_, d_, 1e-3)   # (T, K=1, modes=2)
    ok, _ = mode_checks.training_error(mode_strength, times, trained, s_, d_)
    wrong, _ = mode_checks.training_error(lambda t_, s1, d1, a: mode_strength(1.5 * t_, s1, d1, a),
                                          times, trained, s_, d_)
    assert ok < 1e-3 and wrong > 0.05


PERTURBED_TIMES = {
    "tau/s instead of tau/2s": (tau / s) * sp.log(rho * (s - a0 * d) / (a0 * (s - rho * d))),
    "swapped rho and a0": (tau / (2 * s)) * sp.log(a0 * (s - rho * d) / (rho * (s - a0 * d))),
    "dropped d": (tau / (2 * s)) * sp.log(rho * (s - a0) / (a0 * (s - rho))),
}


@pytest.mark.rejects("BL-Eq(13)", "MHS-A-Time")
@pytest.mark.parametrize("name", PERTURBED_TIMES)
def test_the_hitting_time_checks_reject_a_perturbed_formula(name):
    formula = PERTURBED_TIMES[name]
    assert not mode_checks.hitting_time_solves(formula)
    assert mode_checks.hitting_time_error(formula, 1.3, 0.7, 1e-3, 1.0, 2.0) > 1e-3


def test_the_hitting_time_checks_accept_both_printed_forms():
    for formula in (ml.hitting_time_bl, ml.hitting_time_mhs):
        assert mode_checks.hitting_time_solves(formula)
        assert mode_checks.hitting_time_error(formula, 1.3, 0.7, 3.0, 2.0, 2.0) < 1e-8


@pytest.mark.rejects("MHS-A-Mode")
def test_the_balance_check_rejects_unbalanced_layer_odes():
    w1, w2 = ml.w1, ml.w2
    perturbed = (w2 * (s - w2 * w1 * d) / tau, 2 * w1 * (s - w2 * w1 * d) / tau)
    assert not is_zero(2 * w1 * perturbed[0] - 2 * w2 * perturbed[1])
    assert is_zero(2 * w1 * ml.layer_rhs[0] - 2 * w2 * ml.layer_rhs[1])


@pytest.mark.rejects("BL-Def-EffRank")
def test_the_effective_rank_check_rejects_a_perturbed_formula():
    assert all(stated_properties(lambda sv: evaluate_effective_rank(effective_rank_corrected,
                                                                    sv)).values())
    squared = lambda sv: evaluate_effective_rank(effective_rank_corrected, sv) ** 2  # noqa: E731
    assert not all(stated_properties(squared).values())
