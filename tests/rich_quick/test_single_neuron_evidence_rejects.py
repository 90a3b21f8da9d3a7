"""Every exact single-neuron check (rich_quick Sec 3, App A) rejects a perturbed claim: a changed
constant, a flipped sign, a dropped factor or swapped rates."""
import numpy as np
import pytest
import sympy as sp

from numerics.ode import ConservationError, integrate_flow
from numerics.rich_quick import formula_errors as fe
from numerics.rich_quick import single_neuron as sn
from numerics.rich_quick import single_neuron_paths as sns
from numerics.rich_quick.single_neuron_paths import exact_path
from theory.registry import REGISTRY
from theory.rich_quick import single_neuron_exact as SNE
from theory.rich_quick import single_neuron_function_space as SNF
from theory.rich_quick import single_neuron_implicit_bias as B
from theory.rich_quick import single_neuron_symbols as S
from theory.rich_quick.single_neuron_model import ntk_expression
from verify.rich_quick.evidence.implicit_bias import D2_BETA0, D2_V, D2_X, D2_Y
from verify.rich_quick.evidence.model import as_ntk, gd_follows_the_flow, general_flow_in_plane

POINT = {"a": 0.7, "w1": 1.3, "w2": -0.4, "b": 1.7, "eta_a": 0.3, "eta_w": 2.5}
SOL_POINT = {"t": 0.8, "b": 1.7, "c_phi": 0.3, "mu0": 0.6, "nu0": 0.4, "delta": 0.9, "eta_a": 0.3,
             "eta_w": 2.5, "v0": 0.5}


@pytest.mark.rejects("GRQ-Eq(2)", "GRQ-Eq(16)-(18)", "GRQ-Eq(26)-(27)", "GRQ-Eq(28)",
                     "GRQ-Eq(31)-(32)", "GRQ-LemA.1")
@pytest.mark.parametrize("quantity, good, bad", [
    (S.MU_OF_WEIGHTS, SNE.MU_PHI_ODE[S.mu], SNE.MU_PHI_ODE[S.mu] * 1.01),
    (S.PHI_OF_WEIGHTS, SNE.MU_PHI_ODE[S.phi], SNE.MU_PHI_ODE[S.phi].subs(S.delta, -S.delta)),
    (S.NU_OF_WEIGHTS, SNE.NU_RATE_GENERAL, SNE.NU_RATE_GENERAL.subs({S.eta_a: S.eta_w, S.eta_w: S.eta_a},
                                                                 simultaneous=True)),
    (S.a, SNE.A_RATE_GENERAL, SNE.A_RATE),
    (S.V_OF_WEIGHTS, SNE.V_RATE_GENERAL, SNE.V_RATE),
    (S.a, SNE.LEMMA_ODE_GENERAL[S.a].subs(S.omega, S.OMEGA_OF_WEIGHTS),
     SNE.LEMMA_ODE[S.a].subs(S.omega, S.OMEGA_OF_WEIGHTS)),
])
def test_rate_check_rejects_perturbed_rates(quantity, good, bad):
    assert fe.rate_equation_error(quantity, good, POINT) < fe.HP_TOL
    assert fe.rate_equation_error(quantity, bad, POINT) > 1e-3


@pytest.mark.rejects("GRQ-Eq(16)-(18)")
def test_identity_check_rejects_a_changed_constant():
    lhs, rhs = SNE.KEY_IDENTITY.lhs, SNE.KEY_IDENTITY.rhs
    assert fe.identity_error(lhs, rhs, POINT) < fe.HP_TOL
    assert fe.identity_error(lhs, rhs.subs(4, 2), POINT) > 1e-3


@pytest.mark.rejects("GRQ-Eq(23)", "GRQ-Eq(24)-(25)", "GRQ-Eq(26)-(27)", "GRQ-Eq(31)-(32)")
@pytest.mark.parametrize("solution, rate, state", [
    (SNE.PHI_BALANCED, S.b * (1 - S.phi ** 2), S.phi),
    (SNE.MU_BALANCED_CORRECTED.subs(S.c_mu, SNE.C_MU_CORRECTED), SNE.MU_RATE_BALANCED, S.mu),
    (SNE.NU_SOLUTION_GENERAL, SNE.NU_RATE_GENERAL, S.nu),
    (SNE.V_SOLUTION_GENERAL, SNE.V_RATE_GENERAL, S.v),
])
def test_solution_check_rejects_a_perturbed_closed_form(solution, rate, state):
    assert fe.solution_residual(solution, rate, state, SOL_POINT) < fe.HP_TOL
    assert fe.solution_residual(solution.subs(S.t, 1.1 * S.t), rate, state, SOL_POINT) > 1e-3
    # the printed (unit-rate / unit-norm) form is rejected at general parameters
    printed = {SNE.MU_BALANCED_CORRECTED.subs(S.c_mu, SNE.C_MU_CORRECTED):
               SNE.MU_BALANCED.subs(S.c_mu, SNE.C_MU),
               SNE.NU_SOLUTION_GENERAL: SNE.NU_SOLUTION}
    if solution in printed:
        assert fe.solution_residual(printed[solution], rate, state, SOL_POINT) > 1e-3


@pytest.mark.rejects("GRQ-Eq(4)", "GRQ-Eq(36)-(39)")
def test_preconditioner_check_rejects_swapped_eigenvalues():
    def swapped(beta, delta, ea, ew):
        k = np.sqrt(delta ** 2 + 4 * ea * ew * beta @ beta)
        return (k - delta) / 2 * np.eye(beta.size) + (k + delta) / 2 * np.outer(beta, beta) / (beta @ beta)
    w = np.array([0.3, -1.1, 0.8])
    assert fe.preconditioner_error(sn.preconditioner_from_beta, 0.9, w, 0.3, 2.5) < 1e-13
    assert fe.preconditioner_error(swapped, 0.9, w, 0.3, 2.5) > 1e-2


@pytest.mark.rejects("GRQ-Eq(2)", "GRQ-Eq(28)", "GRQ-Eq(31)-(32)")
def test_exact_solution_comparison_rejects_wrong_rates():
    case = dict(a0=0.4, w0=[0.5, -1.2], beta_star=[0.3, 1.4], eta_a=0.3, eta_w=2.5)
    ref = sns.flow_coordinates(case, 10.0, 21)
    good = sn.exact_solution(ref["t"], case["a0"], case["w0"], case["beta_star"], 0.3, 2.5)
    bad = sn.exact_solution(ref["t"], case["a0"], case["w0"], case["beta_star"], 2.5, 0.3)
    assert sns.trajectory_error({"mu": good.mu, "phi": good.phi}, ref) < 1e-8
    assert sns.trajectory_error({"mu": bad.mu, "phi": bad.phi}, ref) > 1e-2


@pytest.mark.rejects("GRQ-Fn3", "GRQ-Eq(33)")
def test_basin_check_rejects_a_flipped_sign():
    cases = fe.downstream_inits(10, 0.3, 2.5, 7)
    good, n = fe.basin_mismatches(SNE.BASIN_GENERAL, cases)
    bad, _ = fe.basin_mismatches(-SNE.BASIN_GENERAL, cases)
    assert n > 0 and not good and len(bad) == n


@pytest.mark.rejects("GRQ-LemA.1")
def test_zero_crossing_counter_sees_a_crossing():
    case = dict(a0=0.4, w0=[0.5, -1.2], beta_star=[0.3, 1.4], eta_a=0.3, eta_w=2.5)
    assert sns.zero_crossings(case, 30.0, 2001) == 1


@pytest.mark.rejects("GRQ-Thm3.1")
def test_implicit_bias_check_rejects_a_doubled_linear_term():
    err, _ = fe.thm31_error(B.PSI_THM, B.PSI_SMALL_THM, D2_X, D2_Y, D2_BETA0, 1.0)
    bad, _ = fe.thm31_error(B.PSI_THM, 2 * B.PSI_SMALL_THM, D2_X, D2_Y, D2_BETA0, 1.0)
    assert err < 1e-6 and bad > 1e-2


@pytest.mark.rejects("GRQ-Eq(70)-(72)")
def test_eq72_check_rejects_a_flipped_delta():
    b_star = np.linalg.pinv(D2_X) @ D2_Y
    v = np.array([2.0, -1.0]) / np.sqrt(5)
    d = -1.0
    lim = sns.flow_limit(D2_X, D2_Y, D2_BETA0, d, t_end=400.0)
    k = np.sqrt(np.sqrt(D2_BETA0 @ D2_BETA0 + d ** 2 / 4) - d / 2) * D2_BETA0 @ v / np.linalg.norm(D2_BETA0)
    good = b_star + sn.eq72_alpha(k, d, np.linalg.norm(b_star)) * v
    bad = b_star + sn.eq72_alpha(k, -d, np.linalg.norm(b_star)) * v
    assert np.max(np.abs(good - lim)) < 1e-6 and np.max(np.abs(bad - lim)) > 1e-2


@pytest.mark.rejects("GRQ-Eq(50)-(54)", "GRQ-Eq(55)-(58)", "GRQ-Eq(59)-(67)")
def test_hessian_checks_tell_hessians_from_non_hessians():
    rng = np.random.default_rng(0)
    beta, d = rng.standard_normal(3), 0.7
    g = float(sp.N(B.G_DELTA.subs({S.x: beta @ beta, S.delta: d})))
    minv = np.linalg.inv(sn.preconditioner_from_beta(beta, d))
    good = sp.lambdify([S.r, S.delta], B.Q_PRINTED)
    bad = sp.lambdify([S.r, S.delta], B.Q_PRINTED * sp.Rational(3, 2))
    H_good = fe.numeric_hessian(lambda b: good(np.linalg.norm(b), d), beta)
    H_bad = fe.numeric_hessian(lambda b: bad(np.linalg.norm(b), d), beta)
    assert np.max(np.abs(H_good - g * minv)) < 1e-6 and np.max(np.abs(H_bad - g * minv)) > 1e-2

    def warped(b):
        return float(sp.N(B.G_DELTA.subs({S.x: b @ b, S.delta: d}))) * np.linalg.inv(
            sn.preconditioner_from_beta(b, d))
    assert fe.curl_asymmetry(warped, beta) < 1e-6
    assert fe.curl_asymmetry(lambda b: np.linalg.inv(sn.preconditioner_from_beta(b, d)), beta) > 1e-3


@pytest.mark.rejects("GRQ-Cons-delta", "GRQ-Eq(13)")
def test_conservation_monitor_rejects_a_wrong_conserved_quantity():
    X, y = sns.whitened_data([0.4, 1.2])
    with pytest.raises(ConservationError):
        integrate_flow(sn.weight_rhs(X, y, 0.3, 2.5), {"a": np.asarray(0.5), "w": np.array([0.2, 0.9])},
                       5.0, conserved={"swapped": lambda p: 0.3 * p["a"] ** 2 - 2.5 * p["w"] @ p["w"]})


@pytest.mark.rejects("GRQ-Claim-Mlimits")
def test_m_limits_check_rejects_the_wrong_sign():
    lo = SNF.M_EIGS[0]
    assert sp.limit(lo / S.delta, S.delta, sp.oo) == 1
    assert sp.limit(lo / S.delta, S.delta, -sp.oo) != 1     # 'M ~ delta I' is not the -oo limit


@pytest.mark.rejects("GRQ-Eq(1)", "GRQ-Eq(10)-(12)")
def test_ntk_check_rejects_swapped_rates():
    rng = np.random.default_rng(0)
    X, a, w = rng.standard_normal((5, 3)), 1.3, rng.standard_normal(3)
    ref = sn.ntk_autograd(X, a, w, 0.3, 2.5)
    err = [np.linalg.norm(as_ntk(ntk_expression(5, 3)[0])(X, a, w, ea, ew) - ref) / np.linalg.norm(ref)
           for ea, ew in ((0.3, 2.5), (2.5, 0.3))]
    assert err[0] < 1e-12 < 1e-2 < err[1]


@pytest.mark.rejects("GRQ-Eq(10)-(12)")
def test_weight_flow_check_rejects_a_dropped_rate():
    rng = np.random.default_rng(1)
    X, y, w = rng.standard_normal((5, 3)), rng.standard_normal(5), rng.standard_normal(3)

    def dropped(X, y, ea, ew):
        return sn.weight_rhs(X, y, 1.0, ew)
    assert fe.weight_flow_error(sn.weight_rhs, X, y, 0.8, w, 0.3, 2.5) < 1e-12
    assert fe.weight_flow_error(dropped, X, y, 0.8, w, 0.3, 2.5) > 1e-2


@pytest.mark.rejects("GRQ-Claim-Minima")
def test_minima_check_rejects_a_scaled_hyperbola():
    rng = np.random.default_rng(2)
    X, y = rng.standard_normal((5, 3)), rng.standard_normal(5)
    beta_star = np.linalg.solve(X.T @ X, X.T @ y)

    def grad_norm(a, w):
        g = X.T @ (X @ (a * w) - y)
        return np.linalg.norm(np.concatenate([[w @ g], a * g]))
    assert grad_norm(-0.7, beta_star / -0.7) < 1e-10
    assert grad_norm(-0.7, 1.1 * beta_star / -0.7) > 1e-2


@pytest.mark.rejects("GRQ-Cons-delta")
def test_surface_counter_tells_one_sheet_from_two():
    assert sn.surface_components(-0.5, 2, 0.3, 2.5) == 1 and sn.surface_components(0.5, 2, 0.3, 2.5) == 2
    assert sn.surface_components(-0.5, 1, 0.3, 2.5) == 2


@pytest.mark.rejects("GRQ-Claim-Span")
def test_span_decay_check_rejects_the_wrong_rate():
    bs = np.array([1.2, -0.4, 0.9])
    X, y = sns.whitened_data(bs)
    w0 = np.array([0.3, 1.1, -0.6])
    flow = sn.integrate_with_a_sq_integral(X, y, 0.8, w0, 5.0, eta_a=0.3, eta_w=2.5,
                                           t_eval=np.linspace(0, 5, 11))
    P = np.eye(3) - np.outer(bs, bs) / (bs @ bs)
    errs = [np.max(np.abs(P @ flow.states["w"] - (P @ w0)[:, None] * np.exp(-eta * flow.states["A"])))
            for eta in (2.5, 0.3)]
    assert errs[0] < 1e-10 < 1e-2 < errs[1]


@pytest.mark.rejects("GRQ-Eq(14)-(15)")
def test_whitened_flow_check_rejects_a_dropped_rate():
    general = general_flow_in_plane()
    assert fe.hp_abs(S.WEIGHT_FLOW[S.a] - general[S.a], POINT) < 1e-25
    assert fe.hp_abs(S.WEIGHT_FLOW[S.a] / S.eta_a - general[S.a], POINT) > 1e-2


@pytest.mark.rejects("GRQ-Conv-WLOG", "GRQ-Eq(26)-(27)", "GRQ-Eq(28)", "GRQ-Eq(31)-(32)")
def test_rescaled_reading_rejects_a_perturbed_rate_and_the_literal_reading():
    assert fe.rescaled_rate_error(S.NU_OF_WEIGHTS, SNE.NU_RATE, POINT) < fe.HP_TOL
    assert fe.rescaled_rate_error(S.NU_OF_WEIGHTS, SNE.NU_RATE.subs(S.delta, -S.delta), POINT) > 1e-3
    assert fe.rescaled_rate_error(S.a, SNE.A_RATE * 1.1, POINT) > 1e-3
    wlog = {**POINT, "eta_a": 2.0, "eta_w": 0.5}
    assert fe.rate_equation_error(S.V_OF_WEIGHTS, SNE.V_RATE, wlog) > 1e-3


@pytest.mark.rejects("GRQ-Eq(19)-(20)", "GRQ-Conv-WLOG")
def test_rescaling_check_rejects_the_wrong_power_of_c():
    c = sp.sqrt(S.eta_a * S.eta_w)
    for power, ok in ((1, True), (2, False)):
        scale = {S.mu: c ** power * S.mu, S.b: c ** power * S.b}
        err = fe.rate_equation_error(c ** power * S.MU_OF_WEIGHTS,
                                      SNE.MU_PHI_ODE_UNIT[S.mu].subs(scale, simultaneous=True), POINT)
        assert (err < fe.HP_TOL) == ok and (ok or err > 1e-3)


@pytest.mark.rejects("GRQ-Eq(21)-(22)")
def test_balanced_check_rejects_a_dropped_sign():
    point = {**POINT, "a": -1.0, "eta_a": 2.0, "eta_w": 0.5}
    point["a"] = -np.sqrt(point["eta_a"] / point["eta_w"] * (point["w1"] ** 2 + point["w2"] ** 2))
    good = SNE.MU_PHI_ODE_BALANCED[S.phi]
    assert fe.rate_equation_error(S.PHI_OF_WEIGHTS, good, point) < fe.HP_TOL
    assert fe.rate_equation_error(S.PHI_OF_WEIGHTS, good.subs(sp.sign(S.mu), 1), point) > 1e-3


@pytest.mark.rejects("GRQ-Eq(34)-(35)")
def test_recover_check_rejects_swapped_rates():
    case = dict(a0=0.9, w0=[0.4, -0.9, 0.3], beta_star=[1.0, 1.2, -0.5], eta_a=0.3, eta_w=2.5)
    swapped = tuple(e.subs({S.eta_a: S.eta_w, S.eta_w: S.eta_a}, simultaneous=True)
                    for e in SNE.RECOVER_GENERAL)
    assert fe.recover_error(SNE.RECOVER_GENERAL, case) < 1e-8
    assert fe.recover_error(swapped, case) > 1e-2


@pytest.mark.rejects("GRQ-Eq(40)-(45)")
def test_mirror_flow_check_rejects_a_scaled_potential():
    good = fe.mirror_flow_residuals(B.DQ_PRINTED, B.G_DELTA, D2_X, D2_Y, D2_BETA0, D2_V, 1.0,
                                     t_end=10.0, n_t=2001)
    bad = fe.mirror_flow_residuals(1.5 * B.DQ_PRINTED, B.G_DELTA, D2_X, D2_Y, D2_BETA0, D2_V, 1.0,
                                    t_end=10.0, n_t=2001)
    assert good["deriv"] < 1e-4 < 1e-2 < bad["deriv"]
    assert good["kkt_plus"] > 1e-2      # the printed sign of nu is rejected by the same check


@pytest.mark.rejects("GRQ-Eq(46)-(49)")
def test_sherman_morrison_check_rejects_a_doubled_h():
    beta = np.array([0.7, -1.2, 0.4])
    assert fe.sherman_morrison_error(B.F_DELTA, B.H_DELTA, beta, -1.3) < 1e-12
    assert fe.sherman_morrison_error(B.F_DELTA, 2 * B.H_DELTA, beta, -1.3) > 1e-2


@pytest.mark.rejects("GRQ-ThmA.2", "GRQ-Eq(70)-(72)")
def test_azulay_equivalence_check_rejects_a_changed_constant():
    point = {"r": 1.3, "delta": -0.8}
    assert fe.hp_abs(B.EQ69.lhs - B.EQ69.rhs, point) < fe.HP_TOL
    assert fe.hp_abs(B.EQ69.lhs - B.EQ69.rhs.subs(sp.sqrt(2), sp.sqrt(3)), point) > 1e-3
    assert fe.hp_abs(sp.diff(B.Q_AZULAY, S.r) - 1.1 * B.DQ_AZULAY, point) > 1e-3


@pytest.mark.rejects("GRQ-Eq(3)", "GRQ-Eq(36)-(39)")
def test_beta_flow_check_rejects_swapped_rates():
    rng = np.random.default_rng(3)
    X, y, w = rng.standard_normal((6, 4)), rng.standard_normal(6), rng.standard_normal(4)

    def swapped(a, w, ea, ew):
        return sn.preconditioner(a, w, ew, ea)
    assert fe.beta_flow_error(sn.preconditioner, X, y, 0.9, w, 0.3, 2.5) < 1e-12
    assert fe.beta_flow_error(swapped, X, y, 0.9, w, 0.3, 2.5) > 1e-2


@pytest.mark.rejects("GRQ-Claim-A3-rescale")
def test_rescaling_check_rejects_an_unscaled_target():
    rng = np.random.default_rng(4)
    X, y, beta0 = rng.standard_normal((6, 4)), rng.standard_normal(6), rng.standard_normal(4)
    assert fe.rescaling_error(X, y, beta0, 0.3, 2.5, 0.7) < 1e-9
    assert fe.rescaling_error(X, y, beta0, 0.3, 2.5, 0.7, y_factor=1.0) > 1e-2


@pytest.mark.rejects("GRQ-Claim-S3-regimes")
def test_balanced_fitting_time_check_rejects_a_halved_rate():
    ea, ew, bs, b = 0.5, 1.6, np.array([0.0, 1.3]), 1.3
    c = np.sqrt(ea * ew)
    beta0 = np.array([1.0, 0.4]) * 0.5
    mu0s = np.array([1e-2, 1e-4, 1e-6])
    t = np.linspace(0, 40, 8001)
    fit = [t[np.argmax(exact_path(beta0 / np.linalg.norm(beta0) * m, bs, 0.0, t, ea, ew)[0].mu > b / 2)]
           for m in mu0s]
    slope = np.polyfit(np.log(1 / mu0s), fit, 1)[0]
    assert abs(slope * 2 * c * b - 1) < 0.1 < abs(slope * c * b - 1)


@pytest.mark.rejects("GRQ-Conv-WLOG")
def test_rate_pair_check_rejects_a_changed_product():
    """GRQ-Conv-WLOG's beta-dynamics check: rate pairs with one product give one M; a pair with
    another product does not."""
    assert fe.rate_pair_preconditioner_gap() < 1e-12
    assert fe.rate_pair_preconditioner_gap(factors=(2.0, 1.0)) > 1e-3


@pytest.mark.rejects("GRQ-Conv-GF")
def test_loss_convention_check_rejects_a_sum_of_squared_sums():
    printed = REGISTRY["GRQ-Conv-GF"].printed
    y_i = next(s for s in printed.atoms(sp.Symbol) if s.name == "y_i")
    assert gd_follows_the_flow(printed, np.random.default_rng(0))[0].passed
    assert not gd_follows_the_flow(printed.subs(y_i, -y_i), np.random.default_rng(0))[0].passed
