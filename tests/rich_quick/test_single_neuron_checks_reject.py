"""Every exact single-neuron check (rich_quick Sec 3, App A) rejects a perturbed claim: a changed
constant, a flipped sign, a dropped factor or swapped rates."""
import numpy as np
import pytest
import sympy as sp

from numerics.ode import ConservationError, integrate_flow
from numerics.rich_quick import single_neuron as sn
from theory.rich_quick import single_neuron_exact as E
from theory.rich_quick import single_neuron_function_space as F
from theory.rich_quick import single_neuron_implicit_bias as B
from theory.rich_quick import single_neuron_symbols as S
from verify.rich_quick import single_neuron_checks as chk
from verify.rich_quick.test_single_neuron_implicit_bias import D2_BETA0, D2_X, D2_Y

POINT = {"a": 0.7, "w1": 1.3, "w2": -0.4, "b": 1.7, "eta_a": 0.3, "eta_w": 2.5}
SOL_POINT = {"t": 0.8, "b": 1.7, "c_phi": 0.3, "mu0": 0.6, "nu0": 0.4, "delta": 0.9, "eta_a": 0.3,
             "eta_w": 2.5, "v0": 0.5}


@pytest.mark.parametrize("quantity, good, bad", [
    (S.MU_OF_WEIGHTS, E.MU_PHI_ODE[S.mu], E.MU_PHI_ODE[S.mu] * 1.01),
    (S.PHI_OF_WEIGHTS, E.MU_PHI_ODE[S.phi], E.MU_PHI_ODE[S.phi].subs(S.delta, -S.delta)),
    (S.NU_OF_WEIGHTS, E.NU_RATE_GENERAL, E.NU_RATE_GENERAL.subs({S.eta_a: S.eta_w, S.eta_w: S.eta_a},
                                                                 simultaneous=True)),
    (S.a, E.A_RATE_GENERAL, E.A_RATE),
    (S.V_OF_WEIGHTS, E.V_RATE_GENERAL, E.V_RATE),
    (S.a, E.LEMMA_ODE_GENERAL[S.a].subs(S.omega, S.OMEGA_OF_WEIGHTS),
     E.LEMMA_ODE[S.a].subs(S.omega, S.OMEGA_OF_WEIGHTS)),
])
def test_rate_check_rejects_perturbed_rates(quantity, good, bad):
    assert chk.rate_equation_error(quantity, good, POINT) < chk.HP_TOL
    assert chk.rate_equation_error(quantity, bad, POINT) > 1e-3


def test_identity_check_rejects_a_changed_constant():
    lhs, rhs = E.KEY_IDENTITY.lhs, E.KEY_IDENTITY.rhs
    assert chk.identity_error(lhs, rhs, POINT) < chk.HP_TOL
    assert chk.identity_error(lhs, rhs.subs(4, 2), POINT) > 1e-3


@pytest.mark.parametrize("solution, rate, state", [
    (E.PHI_BALANCED, S.b * (1 - S.phi ** 2), S.phi),
    (E.MU_BALANCED_CORRECTED.subs(S.c_mu, E.C_MU_CORRECTED), E.MU_RATE_BALANCED, S.mu),
    (E.NU_SOLUTION_GENERAL, E.NU_RATE_GENERAL, S.nu),
    (E.V_SOLUTION_GENERAL, E.V_RATE_GENERAL, S.v),
])
def test_solution_check_rejects_a_perturbed_closed_form(solution, rate, state):
    assert chk.solution_residual(solution, rate, state, SOL_POINT) < chk.HP_TOL
    assert chk.solution_residual(solution.subs(S.t, 1.1 * S.t), rate, state, SOL_POINT) > 1e-3
    # the printed (unit-rate / unit-norm) form is rejected at general parameters
    printed = {E.MU_BALANCED_CORRECTED.subs(S.c_mu, E.C_MU_CORRECTED): E.MU_BALANCED.subs(S.c_mu, E.C_MU),
               E.NU_SOLUTION_GENERAL: E.NU_SOLUTION}
    if solution in printed:
        assert chk.solution_residual(printed[solution], rate, state, SOL_POINT) > 1e-3


def test_preconditioner_check_rejects_swapped_eigenvalues():
    def swapped(beta, delta, ea, ew):
        k = np.sqrt(delta ** 2 + 4 * ea * ew * beta @ beta)
        return (k - delta) / 2 * np.eye(beta.size) + (k + delta) / 2 * np.outer(beta, beta) / (beta @ beta)
    w = np.array([0.3, -1.1, 0.8])
    assert chk.preconditioner_error(sn.preconditioner_from_beta, 0.9, w, 0.3, 2.5) < 1e-13
    assert chk.preconditioner_error(swapped, 0.9, w, 0.3, 2.5) > 1e-2


def test_exact_solution_comparison_rejects_wrong_rates():
    case = dict(a0=0.4, w0=[0.5, -1.2], beta_star=[0.3, 1.4], eta_a=0.3, eta_w=2.5)
    ref = chk.flow_coordinates(case, 10.0, 21)
    good = sn.exact_solution(ref["t"], case["a0"], case["w0"], case["beta_star"], 0.3, 2.5)
    bad = sn.exact_solution(ref["t"], case["a0"], case["w0"], case["beta_star"], 2.5, 0.3)
    assert chk.trajectory_error({"mu": good.mu, "phi": good.phi}, ref) < 1e-8
    assert chk.trajectory_error({"mu": bad.mu, "phi": bad.phi}, ref) > 1e-2


def test_basin_check_rejects_a_flipped_sign():
    cases = chk.downstream_inits(10, 0.3, 2.5, 7)
    good, n = chk.basin_mismatches(E.BASIN_GENERAL, cases)
    bad, _ = chk.basin_mismatches(-E.BASIN_GENERAL, cases)
    assert n > 0 and not good and len(bad) == n


def test_zero_crossing_counter_sees_a_crossing():
    case = dict(a0=0.4, w0=[0.5, -1.2], beta_star=[0.3, 1.4], eta_a=0.3, eta_w=2.5)
    assert chk.zero_crossings(case, 30.0, 2001) == 1


def test_implicit_bias_check_rejects_a_doubled_linear_term():
    err, _ = chk.thm31_error(B.PSI_THM, B.PSI_SMALL_THM, D2_X, D2_Y, D2_BETA0, 1.0)
    bad, _ = chk.thm31_error(B.PSI_THM, 2 * B.PSI_SMALL_THM, D2_X, D2_Y, D2_BETA0, 1.0)
    assert err < 1e-6 and bad > 1e-2


def test_eq72_check_rejects_a_flipped_delta():
    b_star = np.linalg.pinv(D2_X) @ D2_Y
    v = np.array([2.0, -1.0]) / np.sqrt(5)
    d = -1.0
    lim = chk.gf_limit(D2_X, D2_Y, D2_BETA0, d, t_end=400.0)
    k = np.sqrt(np.sqrt(D2_BETA0 @ D2_BETA0 + d ** 2 / 4) - d / 2) * D2_BETA0 @ v / np.linalg.norm(D2_BETA0)
    good = b_star + sn.eq72_alpha(k, d, np.linalg.norm(b_star)) * v
    bad = b_star + sn.eq72_alpha(k, -d, np.linalg.norm(b_star)) * v
    assert np.max(np.abs(good - lim)) < 1e-6 and np.max(np.abs(bad - lim)) > 1e-2


def test_hessian_checks_tell_hessians_from_non_hessians():
    rng = np.random.default_rng(0)
    beta, d = rng.standard_normal(3), 0.7
    g = float(sp.N(B.G_DELTA.subs({S.x: beta @ beta, S.delta: d})))
    minv = np.linalg.inv(sn.preconditioner_from_beta(beta, d))
    good = sp.lambdify([S.r, S.delta], B.Q_PRINTED)
    bad = sp.lambdify([S.r, S.delta], B.Q_PRINTED * sp.Rational(3, 2))
    H_good = chk.numeric_hessian(lambda b: good(np.linalg.norm(b), d), beta)
    H_bad = chk.numeric_hessian(lambda b: bad(np.linalg.norm(b), d), beta)
    assert np.max(np.abs(H_good - g * minv)) < 1e-6 and np.max(np.abs(H_bad - g * minv)) > 1e-2

    def warped(b):
        return float(sp.N(B.G_DELTA.subs({S.x: b @ b, S.delta: d}))) * np.linalg.inv(
            sn.preconditioner_from_beta(b, d))
    assert chk.curl_asymmetry(warped, beta) < 1e-6
    assert chk.curl_asymmetry(lambda b: np.linalg.inv(sn.preconditioner_from_beta(b, d)), beta) > 1e-3


def test_conservation_monitor_rejects_a_wrong_conserved_quantity():
    X, y = chk.whitened_data([0.4, 1.2])
    with pytest.raises(ConservationError):
        integrate_flow(sn.weight_rhs(X, y, 0.3, 2.5), {"a": np.asarray(0.5), "w": np.array([0.2, 0.9])},
                       5.0, conserved={"swapped": lambda p: 0.3 * p["a"] ** 2 - 2.5 * p["w"] @ p["w"]})


def test_m_limits_check_rejects_the_wrong_sign():
    lo = F.M_EIGS[0]
    assert sp.limit(lo / S.delta, S.delta, sp.oo) == 1
    assert sp.limit(lo / S.delta, S.delta, -sp.oo) != 1     # 'M ~ delta I' is not the -oo limit
