"""Every exact LR- check rejects a perturbed formula (changed constant, flipped sign, dropped factor)."""
import numpy as np
import pytest
import sympy as sp

from numerics.lazy_rich import solution as so
from numerics.lazy_rich.tasks import random_task
from theory.lazy_rich import applications as ap
from theory.lazy_rich import exact_solution as ex
from theory.lazy_rich import random_init as ri
from theory.lazy_rich import robustness as rb
from theory.lazy_rich import symbols as sy
from theory.registry import REGISTRY
from verify.lazy_rich import checks as ch

SYX = sp.Matrix([[sp.Rational(3, 2), -sp.Rational(1, 3)], [sp.Rational(2, 7), 1]])


@pytest.fixture(scope="module")
def funnel():
    return ch.problem(5, 3, -0.7, seed=0)


def test_riccati_check_rejects_a_doubled_quadratic_term(funnel):
    printed, wrong = ex.RICCATI_RHS, ex.F * ex.QQ + ex.QQ * ex.F - 2 * ex.QQ * ex.QQ
    assert ch.riccati_residual_exact(printed, 1, SYX).is_zero_matrix
    assert not ch.riccati_residual_exact(wrong, 1, SYX).is_zero_matrix
    assert ch.riccati_residual(printed, *funnel, -0.7) < 1e-12
    assert ch.riccati_residual(wrong, *funnel, -0.7) > 1e-2
    assert ch.riccati_residual(ex.F * ex.QQ - ex.QQ * ex.F - ex.QQ * ex.QQ, *funnel, -0.7) > 1e-2


def test_eigen_check_rejects_the_thesis_factor_two_in_H(funnel):
    def halved_h(svd, lam):
        s = so.spectrum(svd, lam)
        h = s.h / 2                          # thesis eq. 3.49: ((lam^2/4 + S^2)^{1/2} - S)/lam = H/2
        g = 1 / np.sqrt(1 + h ** 2)
        P = s.P.copy()
        m = len(svd.s)
        P[:svd.n_in, :m] = svd.V * g * (1 - h) / np.sqrt(2)
        P[svd.n_in:, :m] = svd.U * g * (1 + h) / np.sqrt(2)
        return s.__class__(svd, lam, s.s_lam, h, g, s.lam_perp, P, s.gamma)
    task = funnel[0]
    assert ch.eigen_error(so.spectrum, task, -0.7) < 1e-12
    assert ch.eigen_error(halved_h, task, -0.7) > 1e-3
    F, P, G = REGISTRY["LR-Lem4.2"].printed[:3]
    assert ch.mode_eigen_residual(F, P, G)
    assert not ch.mode_eigen_residual(F, P.subs(sy.lam, -sy.lam), G)      # sign slip of thesis eq 3.45


def test_init_variable_check_rejects_a_flipped_C(funnel):
    task, W1, W2 = funnel

    def flipped(W1, W2, spc):
        B, C, D = so.init_variables(W1, W2, spc)
        return B, -C, D
    assert ch.init_variable_error(so.init_variables, task, W1, W2, -0.7) < 1e-13
    assert ch.init_variable_error(flipped, task, W1, W2, -0.7) > 1e-2


@pytest.mark.parametrize("perturb", ["flip lambda", "double time", "halve lambda_perp side"])
def test_solution_check_rejects_perturbed_closed_forms(perturb):
    task, W1, W2 = ch.problem(2, 5, 1.3, seed=3)
    t = np.linspace(0, 4, 5)
    wrong = {"flip lambda": lambda tt, a, b, svd, lam: so.qq_exact(tt, a, b, svd, -lam),
             "double time": lambda tt, a, b, svd, lam: so.qq_exact(2 * tt, a, b, svd, lam),
             "halve lambda_perp side": lambda tt, a, b, svd, lam: so.qq_fukumizu(tt, a, b, so.f_matrix(svd.U @ (svd.s[:, None] * svd.V.T), lam / 2))}[perturb]
    assert ch.solution_error(so.qq_exact, task, W1, W2, 1.3, t)[0] < 1e-9
    assert ch.solution_error(so.qq_stable, task, W1, W2, 1.3, t)[0] < 1e-9
    assert ch.solution_error(wrong, task, W1, W2, 1.3, t)[0] > 1e-3


def test_printed_theorem_check_rejects_a_dropped_half():
    task, W1, W2 = ch.problem(2, 4, 1.3, seed=31)
    printed = REGISTRY["LR-Thm4.3"].printed
    wrong = (2 * ex.Z) * sp.Inverse(ex.A) * ex.Z.T                   # the 1/2 in front of Z dropped once
    ref = so.qq_exact(0.9, W1, W2, task.svd, 1.3)[0]
    assert ch.rel_err(ch.printed_theorem_value(printed, 0.9, W1, W2, task.svd, 1.3), ref) < 1e-12
    assert ch.rel_err(ch.printed_theorem_value(wrong, 0.9, W1, W2, task.svd, 1.3), ref) > 0.5


def test_transition_function_checks_reject_perturbations():
    traj, gamma, rich, lazy, _ = REGISTRY["LR-Thm5.1"].printed
    points = [(lam, 1.3, 0.2, 0.7, 2.0) for lam in (-3.0, 0.5, 4.0)]
    assert ch.gamma_residual(traj, points) < 1e-40
    wrong = traj.subs(sy.lam ** 2 / 2, sy.lam ** 2)                   # changed constant inside Phi
    assert ch.gamma_residual(wrong, points) > 1e-3
    t = np.linspace(0, 3, 7)
    assert ch.aligned_mode_error(traj, 4, 3, [2.0, 1.1, 0.35], [0.05, 0.4, 1.0], 1.5, t)[0] < 1e-9
    assert ch.aligned_mode_error(traj.subs(sy.lam, 2 * sy.lam), 4, 3, [2.0, 1.1, 0.35], [0.05, 0.4, 1.0], 1.5, t)[0] > 1e-3
    assert abs(ch.lazy_limit_slope(gamma, lazy) + 2) < 0.1
    assert ch.lazy_limit_slope(gamma, 1 - sp.exp(-2 * sp.Abs(sy.lam) * sy.t / sy.tau)) > -0.5


def test_balance_rate_check_rejects_a_doubled_gradient():
    from theory.lazy_rich import setting as su
    assert ch.balance_rate_is_zero(REGISTRY["LR-ThmA.2"].printed)
    g1, g2 = 2 * su.GRAD_W1, su.GRAD_W2
    assert not ch.balance_rate_is_zero(g2.T * su.W2 + su.W2.T * g2 - g1 * su.W1.T - su.W1 * g1.T)


def test_weight_recovery_check_rejects_swapped_layers():
    S1, S2 = REGISTRY["LR-Thm5.2"].printed
    task, W1, W2 = ch.problem(4, 4, -1.3, seed=74, scale=0.6)
    W1t, W2t, _ = ch.integrate(task, W1, W2, np.linspace(0, 2, 3))
    assert ch.weight_recovery_error(S1, S2, W1t, W2t, -1.3) < 1e-10
    assert ch.weight_recovery_error(S2, S1, W1t, W2t, -1.3) > 1e-2


def test_converged_gram_and_ntk_checks_reject_a_flipped_lambda_term():
    gi, go = REGISTRY["LR-ThmC.3"].printed
    task, W1, W2 = ch.problem(5, 3, 1.5, seed=105)
    assert ch.converged_gram_error(gi, go, task, W1, W2, 1.5) < 1e-10
    assert ch.converged_gram_error(go, gi, task, W1, W2, 1.5) > 1e-2
    t2, a, b = ch.problem(5, 3, -1.1, seed=13, n_samples=7)
    W1t, W2t, _ = ch.integrate(t2, a, b, np.linspace(0, 2, 3))
    assert ch.ntk_formula_error(gi, go, t2.X, W1t, W2t, -1.1) < 1e-10
    assert ch.ntk_formula_error(go, gi, t2.X, W1t, W2t, -1.1) > 1e-2


def test_noise_checks_reject_a_dropped_half():
    task, _, _ = ch.problem(5, 3, 0.0, seed=0, n_samples=12)
    from numerics.lazy_rich.init import lambda_balanced_init
    W1, W2 = lambda_balanced_init(1.0, 5, 3, 3, np.random.default_rng(0), syx=task.syx)
    losses = ch.input_noise_losses(task, W1, W2, 0.3, 20000, seed=1)
    subs = {rb.c: task.loss_constant, rb.sigma: 0.3, rb.norm_fn: float(np.sum(task.syx ** 2))}
    assert abs(ch.noise_z(REGISTRY["LR-Robust-Input"].printed, subs, losses)) < 4
    assert abs(ch.noise_z(rb.c + rb.sigma ** 2 * rb.norm_fn, subs, losses)) > 10


def test_forgetting_check_rejects_a_missing_half():
    from verify.lazy_rich.test_applications import chained_function, continual_tasks
    from numerics.lazy_rich.init import weights_from_product
    tasks = continual_tasks()
    W1, W2 = weights_from_product(1e-3 * np.eye(5), 2.0)
    _, fn = chained_function(tasks, W1, W2, 2.0, [30.0] * 4, solver=so.qq_stable)
    printed = REGISTRY["LR-D.1"].printed
    assert ch.forgetting_error(printed, tasks, fn[1::2], 5) < 1e-12
    assert ch.forgetting_error(2 * printed, tasks, fn[1::2], 5) > 1e-2


def test_reversal_check_rejects_a_dropped_cross_term():
    printed = REGISTRY["LR-D.2"].printed
    b, c = ap.b, ap.c
    assert ch.reversal_error(printed, lams=(0.3, 0.0)) < 1e-9
    assert ch.reversal_error(printed.subs(sy.lam * b * c, 0), lams=(0.3,)) > 1e-3


def test_table_checks_reject_changed_entries():
    assert ch.table_consistency(ri.TABLE1, ri.TABLE2)
    wrong2 = dict(ri.TABLE2, LeCun=(ri.r / ri.k + 1, ri.TABLE2["LeCun"][1]))
    assert not ch.table_consistency(ri.TABLE1, wrong2)
    assert ch.table3_mismatches(ri.TABLE2, ri.TABLE3) == []
    wrong3 = dict(ri.TABLE3, Glorot=(0, -2 / (ri.k + 1), 2 * ri.k / (ri.k + 1), 0, 2, None))
    assert len(ch.table3_mismatches(ri.TABLE2, wrong3)) == 1


def test_series_check_rejects_a_wrong_coefficient():
    big, small, _ = REGISTRY["LR-ThmC.4"].printed
    assert ch.series_matches(big, small)
    assert not ch.series_matches(big + sy.s ** 2 / sy.lam, small)


def test_ntk_check_rejects_swapped_kronecker_factors():
    from numerics.lazy_rich import kernels as kn
    task, W1, W2 = ch.problem(3, 4, -0.8, seed=4, n_samples=5)
    assert ch.ntk_jacobian_error(kn.ntk, W1, W2, task.X) < 1e-10

    def swapped(a, b, X):     # sample-major ordering instead of the paper's output-major one
        gi, go = a.T @ a, b @ b.T
        return np.kron(X.T @ gi @ X, np.eye(go.shape[0])) + np.kron(X.T @ X, go)
    assert ch.ntk_jacobian_error(swapped, W1, W2, task.X) > 1e-2


def test_balance_moment_check_rejects_a_flipped_sign():
    mean, pref, _ = REGISTRY["LR-ThmA.3"].printed
    good = ch.balance_moments(mean, pref, (20, 30, 40), 1 / 20, 1 / 30, 100, seed=0)
    bad = ch.balance_moments(sy.n_out * ri.var2 + sy.n_in * ri.var1, pref, (20, 30, 40), 1 / 20, 1 / 30, 100, seed=0)
    assert abs(good["z_mean"]) < 4 and abs(bad["z_mean"]) > 10
    assert abs(good["off_ratio"] - 1) < 0.05
    assert abs(ch.balance_moments(mean, 2 * pref, (20, 30, 40), 1 / 20, 1 / 30, 100, seed=0)["off_ratio"] - 1) > 0.3


def test_late_rate_check_rejects_a_halved_lambda_perp():
    rate = REGISTRY["LR-ThmC.6"].printed[0]
    assert ch.late_rate_error(rate, 2, 5, 10.0)[0] < 0.02
    assert ch.late_rate_error(sy.S_LAM - sp.Abs(sy.lam) / 4, 2, 5, 10.0)[0] > 0.5


# ---------------------------------------------------------------- gaps closed: C.2.4, A.2, Sec5-Rep, Robust-Param, ...
def test_layer_relation_check_rejects_perturbed_layer_singular_values():
    a, b = REGISTRY["LR-C.2.4-relations"].printed
    assert ch.layer_relation_failures(a, b) == []
    assert "b^2 - a^2 = lambda" in ch.layer_relation_failures(b, a)                     # layers swapped
    quarter = sp.sqrt((sp.sqrt(sy.lam ** 2 + 4 * sy.s ** 2) - sy.lam) / 4)                # changed constant 2 -> 4
    assert "a b = s~" in ch.layer_relation_failures(quarter, b)
    assert "a b = s~" in ch.layer_relation_failures(-a, b)                              # flipped sign
    no_four = sp.sqrt((sp.sqrt(sy.lam ** 2 + sy.s ** 2) + sy.lam) / 2)                   # dropped factor 4
    assert "b^2 = lambda + s~^2/lambda + ..." in ch.layer_relation_failures(a, no_four)


def test_no_invertibility_check_rejects_a_wrong_clock_and_a_form_needing_B_inverse():
    good = ch.no_invertibility_errors(so.qq_exact)
    assert good["singular B"] < 1e-9 and good["zero function"] < 1e-9 and good["learns"] < 1e-9
    slow = ch.no_invertibility_errors(lambda t, a, b, svd, lam: so.qq_exact(t / 2, a, b, svd, lam))
    assert slow["singular B"] > 1e-2 and slow["zero function"] > 1e-2
    assert np.isinf(ch.no_invertibility_errors(so.qq_stable)["singular B"])


@pytest.fixture(scope="module")
def hierarchy_nets():
    lams = (-10.0, 0.0, 10.0)
    return (lams,) + ch.train_hierarchy(lams, steps=4000)


def test_representation_check_rejects_perturbed_gram_limits(hierarchy_nets):
    lams, task, *nets = hierarchy_nets
    gi, go = REGISTRY["LR-Sec5-Rep-claims"].printed
    v = ch.representation_verdict(gi, go, task, lams, *nets)
    assert v["corrected_ok"] and not v["printed_ok"]
    assert not ch.representation_verdict(go, gi, task, lams, *nets)["corrected_ok"]            # layers swapped
    flipped = sy.S_LAM + sy.lam / 2, sy.S_LAM - sy.lam / 2
    assert not ch.representation_verdict(*flipped, task, lams, *nets)["corrected_ok"]          # sign of lam/2
    assert not ch.representation_verdict(2 * gi, go, task, lams, *nets)["corrected_ok"]        # changed constant


def test_weight_noise_check_rejects_perturbed_formulas():
    from verify.lazy_rich.test_robustness import converged
    task = random_task(5, 3, 12, np.random.default_rng(0))
    W1, W2 = converged(task, 1.5, 0)
    sigma = 0.2
    losses = ch.weight_noise_losses(task, W1, W2, sigma, 20000, seed=1)
    subs = ch.weight_noise_subs(task, W1, W2, sigma)
    printed = REGISTRY["LR-Robust-Param"].printed[0]
    assert abs(ch.noise_z(printed, subs, losses)) < 4
    swapped = printed.subs({sy.n_in: sy.n_out, sy.n_out: sy.n_in}, simultaneous=True)      # Ni <-> No
    no_half = printed + rb.sigma ** 2 / 2 * (sy.n_in * rb.w2_sq + sy.n_out * rb.w1_sq)       # 1/2 -> 1
    no_quartic = printed - rb.sigma ** 4 / 2 * sy.n_in * sy.n_hid * sy.n_out                 # dropped sigma^4 term
    for wrong in (swapped, no_half, no_quartic):
        assert abs(ch.noise_z(wrong, subs, losses)) > 8


def test_weight_noise_minimiser_check_rejects_perturbed_mode_norms():
    _, m1, m2 = REGISTRY["LR-Robust-Param"].printed
    good = ch.weight_noise_minimiser(m1, m2)
    assert good["stationary"] == [0] and good["convex"] and good["unequal"] < 1e-6
    assert ch.weight_noise_minimiser(m2, m2)["stationary"] != [0]                            # sign of lam/2 flipped
    assert ch.weight_noise_minimiser(m1, m2 + sy.lam / 2)["stationary"] != [0]               # changed constant
    assert ch.weight_noise_minimiser(2 * m1, m2)["unequal"] > 1e-2                          # changed constant


def test_fukumizu_check_rejects_a_doubled_integral():
    task, W1, W2 = ch.problem(5, 3, 0.0, seed=16)
    F = so.f_matrix(task.syx, 0.0)
    t = np.linspace(0, 4, 5)

    def doubled(tt, a, b, svd, lam):     # e^{Ft}Q0[I + 2 Q0^T (int e^{2Fs}) Q0]^{-1}Q0^T e^{Ft}
        return so.qq_fukumizu(tt, np.sqrt(2) * a, np.sqrt(2) * b, F) / 2
    assert ch.solution_error(lambda tt, a, b, svd, lam: so.qq_fukumizu(tt, a, b, F), task, W1, W2, 0.0, t)[0] < 1e-9
    assert ch.solution_error(doubled, task, W1, W2, 0.0, t)[0] > 1e-2


def test_closed_form_riccati_check_rejects_perturbed_rhs_and_solution():
    task, W1, W2 = ch.problem(5, 3, 1.2, seed=605)
    rhs = REGISTRY["LR-B.5.1"].printed
    assert ch.closed_form_riccati_error(rhs, so.qq_exact, task, W1, W2, 1.2) < 1e-7
    assert ch.closed_form_riccati_error(ex.F * ex.QQ + ex.QQ * ex.F - ex.QQ * ex.QQ / 2, so.qq_exact, task, W1, W2, 1.2) > 1e-2
    assert ch.closed_form_riccati_error(rhs, lambda t, a, b, svd, lam: so.qq_exact(t, a, b, svd, -lam), task, W1, W2, 1.2) > 1e-2


def test_rich_lazy_checks_reject_perturbed_transition_functions():
    gamma = REGISTRY["LR-Thm5.1"].printed[1]
    s_task = np.array([2.0, 1.1, 0.35])
    good = ch.rich_lazy_stats(gamma, s_task)
    assert good["ordered"] and good["close"] <= 0.15 and good["rate_err"] <= 0.05
    assert ch.rich_lazy_stats(gamma.subs(sy.lam, 2 * sy.lam), s_task)["rate_err"] > 0.5      # changed constant
    assert ch.rich_lazy_stats(gamma.subs(sy.s0, sy.s0 ** 2), s_task)["close"] > 0.5         # wrong rise time
    slope = lambda e: np.polyfit(np.log(list(e)), np.log(list(e.values())), 1)[0]  # noqa: E731
    assert slope(ch.shallow_limit_errors(sp.exp(-sp.Abs(sy.lam) * sy.t / sy.tau))) <= -1.8
    wrong = ch.shallow_limit_errors(sp.exp(-2 * sp.Abs(sy.lam) * sy.t / sy.tau))              # doubled rate
    assert slope(wrong) > -0.5 and min(wrong.values()) > 1e-2


def test_gram_limit_check_rejects_a_flipped_lambda_half():
    gi, go = REGISTRY["LR-ThmC.3"].printed
    good = ch.gram_limit_distances(gi, go)
    assert max(d[2] for d in good.values()) < 1e-2 and max(d[3] for d in good.values()) < 1e-2
    bad = ch.gram_limit_distances(go, gi)                                                    # sign of lam/2 flipped
    assert min(d[2] for d in bad.values()) > 0.5


def test_kernel_movement_check_rejects_swapped_grams():
    gi, go = REGISTRY["LR-ThmC.3"].printed
    lams = np.array([5.0, 20.0, 80.0])
    _, good = ch.kernel_movement(gi, go, 6, 2, lams)       # funnel, lambda -> +oo: the lazy side
    _, bad = ch.kernel_movement(go, gi, 6, 2, lams)
    assert np.polyfit(np.log(lams), np.log(good), 1)[0] <= -1.8
    assert bad.min() > 0.1


def test_table1_moment_check_rejects_a_changed_entry():
    mean, var = ri.TABLE1["LeCun"]
    v1, v2 = (float(sp.sympify(v).subs({sy.n_in: 30, sy.n_hid: 50, sy.n_out: 70})) for v in ri.INITS["LeCun"])
    good = ch.balance_moments(mean, var, (30, 50, 70), v1, v2, 300, seed=30)
    assert abs(good["z_mean"]) < 4 and abs(good["off_ratio"] - 1) < 0.05
    # E[lambda] shifted by 1/Nh = 0.02 (5% of No/Nh - 1): rejected beyond the check's 4-s.e. band
    assert abs(ch.balance_moments(mean + 1 / sy.n_hid, var, (30, 50, 70), v1, v2, 300, seed=30)["z_mean"]) > 5
    assert abs(ch.balance_moments(mean, var / 2, (30, 50, 70), v1, v2, 300, seed=30)["off_ratio"] - 1) > 0.5


def test_rich_limit_check_rejects_an_inverted_saliency_ratio():
    _, gamma, rich, _, _ = REGISTRY["LR-Thm5.1"].printed
    assert ch.rich_limit_matches(gamma, rich)
    assert not ch.rich_limit_matches(gamma, rich.subs(sy.s / sy.s0, sy.s0 / sy.s))          # s~/s0 inverted
    assert not ch.rich_limit_matches(gamma, rich.subs(sy.t, 2 * sy.t))                     # rate 2 s~ -> 4 s~


#: which test above shows that the check of each exact LR- claim rejects a perturbed formula
PERTURBATION_TESTS = {
    "LR-Eq5": ["test_ntk_check_rejects_swapped_kronecker_factors"],
    "LR-A.2-claims": ["test_no_invertibility_check_rejects_a_wrong_clock_and_a_form_needing_B_inverse"],
    "LR-Lem4.1": ["test_riccati_check_rejects_a_doubled_quadratic_term"],
    "LR-Eq7": ["test_fukumizu_check_rejects_a_doubled_integral"],
    "LR-Lem4.2": ["test_eigen_check_rejects_the_thesis_factor_two_in_H"],
    "LR-Eq10-12": ["test_init_variable_check_rejects_a_flipped_C"],
    "LR-Thm4.3": ["test_solution_check_rejects_perturbed_closed_forms", "test_printed_theorem_check_rejects_a_dropped_half"],
    "LR-ThmB.5": ["test_solution_check_rejects_perturbed_closed_forms"],
    "LR-B.5.1": ["test_closed_form_riccati_check_rejects_perturbed_rhs_and_solution"],
    "LR-Thm5.1": ["test_transition_function_checks_reject_perturbations", "test_rich_limit_check_rejects_an_inverted_saliency_ratio"],
    "LR-Sec5-SV-claims": ["test_rich_lazy_checks_reject_perturbed_transition_functions"],
    "LR-Thm5.2": ["test_weight_recovery_check_rejects_swapped_layers", "test_layer_relation_check_rejects_perturbed_layer_singular_values"],
    "LR-ThmC.3": ["test_converged_gram_and_ntk_checks_reject_a_flipped_lambda_term"],
    "LR-ThmC.4": ["test_series_check_rejects_a_wrong_coefficient", "test_gram_limit_check_rejects_a_flipped_lambda_half"],
    "LR-Sec5-Rep-claims": ["test_representation_check_rejects_perturbed_gram_limits"],
    "LR-ThmC.5": ["test_converged_gram_and_ntk_checks_reject_a_flipped_lambda_term", "test_kernel_movement_check_rejects_swapped_grams"],
    "LR-C.2.4-relations": ["test_layer_relation_check_rejects_perturbed_layer_singular_values"],
    "LR-ThmC.6": ["test_late_rate_check_rejects_a_halved_lambda_perp"],
    "LR-Robust-Input": ["test_noise_checks_reject_a_dropped_half"],
    "LR-Robust-Param": ["test_weight_noise_check_rejects_perturbed_formulas", "test_weight_noise_minimiser_check_rejects_perturbed_mode_norms"],
    "LR-ThmA.2": ["test_balance_rate_check_rejects_a_doubled_gradient"],
    "LR-ThmA.3": ["test_balance_moment_check_rejects_a_flipped_sign"],
    "LR-Tab1": ["test_table1_moment_check_rejects_a_changed_entry"],
    "LR-Tab2": ["test_table_checks_reject_changed_entries"],
    "LR-Tab3": ["test_table_checks_reject_changed_entries"],
    "LR-D.1": ["test_forgetting_check_rejects_a_missing_half"],
    "LR-D.2": ["test_reversal_check_rejects_a_dropped_cross_term"],
}


def test_every_exact_claim_has_a_perturbation_test():
    exact = {"identity", "ode-solution", "conserved", "limit", "bound", "constant"}
    claims = {c.id for c in REGISTRY if c.paper == "lazy_rich" and c.kind in exact}
    assert claims == set(PERTURBATION_TESTS), claims ^ set(PERTURBATION_TESTS)
    missing = [name for names in PERTURBATION_TESTS.values() for name in names if name not in globals()]
    assert not missing
