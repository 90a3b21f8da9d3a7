"""Every LR- check of an exact claim rejects a perturbed formula (changed constant, flipped sign,
dropped factor).  Each test names the claims it covers with ``@pytest.mark.rejects``; the last test
asserts that every LR- claim whose kind is neither empirical nor a definition is covered."""
import numpy as np
import pytest
import sympy as sp

from numerics.closed_forms import compiled
from numerics.lazy_rich import configs, runs
from numerics.lazy_rich import experiments as xp
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import (
    lambda_balanced_init,
    layer_singular_values,
    weights_from_product,
)
from numerics.lazy_rich.tasks import random_task
from numerics.metrics import rel_err
from theory.lazy_rich import applications as ap
from theory.lazy_rich import exact_solution as exact_sol
from theory.lazy_rich import random_init as ri
from theory.lazy_rich import robustness as rb
from theory.lazy_rich import symbols as sy
from theory.registry import REGISTRY
from verify.lazy_rich import evidence as ev

SYX = sp.Matrix([[sp.Rational(3, 2), -sp.Rational(1, 3)], [sp.Rational(2, 7), 1]])


@pytest.fixture(scope="module")
def funnel():
    return xp.problem(5, 3, -0.7, seed=0)


@pytest.mark.rejects("LR-Lem4.1")
def test_riccati_check_rejects_a_doubled_quadratic_term(funnel):
    printed = exact_sol.RICCATI_RHS
    wrong = exact_sol.F * exact_sol.QQ + exact_sol.QQ * exact_sol.F - 2 * exact_sol.QQ * exact_sol.QQ
    assert ev.riccati_residual_exact(printed, 1, SYX).is_zero_matrix
    assert not ev.riccati_residual_exact(wrong, 1, SYX).is_zero_matrix
    assert ev.riccati_residual(printed, *funnel, -0.7) < 1e-12
    assert ev.riccati_residual(wrong, *funnel, -0.7) > 1e-2
    second_term_flipped = exact_sol.F * exact_sol.QQ - exact_sol.QQ * exact_sol.F - exact_sol.QQ * exact_sol.QQ
    assert ev.riccati_residual(second_term_flipped, *funnel, -0.7) > 1e-2


@pytest.mark.rejects("LR-Lem4.2")
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
    assert ev.eigen_error(so.spectrum, task, -0.7) < 1e-12
    assert ev.eigen_error(halved_h, task, -0.7) > 1e-3
    pr = REGISTRY["LR-Lem4.2"].printed
    assert ev.mode_eigen_residual(pr.F, pr.P, pr.Gamma) <= 1e-45
    assert ev.mode_eigen_residual(pr.F, pr.P.subs(sy.lam, -sy.lam), pr.Gamma) > 1e-3      # sign slip of thesis eq 3.45


@pytest.mark.rejects("LR-Eq10-12")
def test_init_variable_check_rejects_a_flipped_C(funnel):
    task, W1, W2 = funnel

    def flipped(W1, W2, spc):
        B, C, D = so.init_variables(W1, W2, spc)
        return B, -C, D
    assert ev.init_variable_error(so.init_variables, task, W1, W2, -0.7) < 1e-13
    assert ev.init_variable_error(flipped, task, W1, W2, -0.7) > 1e-2


@pytest.mark.rejects("LR-Thm4.3", "LR-ThmB.5")
@pytest.mark.parametrize("perturb", ["flip lambda", "double time", "halve lambda_perp side"])
def test_solution_check_rejects_perturbed_closed_forms(perturb):
    task, W1, W2 = xp.problem(2, 5, 1.3, seed=3)
    t = np.linspace(0, 4, 5)
    wrong = {"flip lambda": lambda tt, a, b, svd, lam: so.qq_exact(tt, a, b, svd, -lam),
             "double time": lambda tt, a, b, svd, lam: so.qq_exact(2 * tt, a, b, svd, lam),
             "halve lambda_perp side": lambda tt, a, b, svd, lam: so.qq_fukumizu(
                 tt, a, b, so.f_matrix(svd.U @ (svd.s[:, None] * svd.V.T), lam / 2))}[perturb]
    run = runs.flow(task, W1, W2, 1.3, t)
    assert ev.solution_error(so.qq_exact, run) < 1e-9
    assert ev.solution_error(so.qq_stable, run) < 1e-9
    assert ev.solution_error(wrong, run) > 1e-3


@pytest.mark.rejects("LR-Thm4.3")
def test_printed_theorem_check_rejects_a_dropped_half():
    task, W1, W2 = xp.problem(2, 4, 1.3, seed=33)
    wrong = (2 * exact_sol.Z) * sp.Inverse(exact_sol.A) * exact_sol.Z.T                   # the 1/2 in front of Z dropped once
    ref = so.qq_exact(0.9, W1, W2, task.svd, 1.3)[0]
    assert rel_err(ev.printed_theorem_value(REGISTRY["LR-Thm4.3"].printed, 0.9, W1, W2, task.svd, 1.3), ref) < 1e-12
    assert rel_err(ev.printed_theorem_value(wrong, 0.9, W1, W2, task.svd, 1.3), ref) > 0.5


@pytest.mark.rejects("LR-Impl")
def test_long_time_check_rejects_a_plain_form_that_does_not_break_down():
    err, finite = ev.long_time_breakdown(so.qq_exact, so.qq_stable)
    assert err > 1e-6 and finite
    assert ev.long_time_breakdown(so.qq_stable, so.qq_stable)[0] <= 1e-6      # a stable "plain" form is rejected


@pytest.mark.rejects("LR-Thm5.1")
def test_transition_function_checks_reject_perturbations():
    pr = REGISTRY["LR-Thm5.1"].printed
    points = [(lam, 1.3, 0.2, 0.7, 2.0) for lam in (-3.0, 0.5, 4.0)]
    assert ev.gamma_residual(pr.trajectory, pr.mode_rhs, points) < 1e-40
    assert ev.gamma_residual(pr.trajectory.subs(sy.lam ** 2 / 2, sy.lam ** 2), pr.mode_rhs, points) > 1e-3   # constant
    assert ev.gamma_residual(pr.trajectory, 2 * pr.mode_rhs, points) > 1e-3                                # doubled rate
    t = np.linspace(0, 3, 7)
    s0 = [0.05, 0.4, 1.0]
    run = runs.aligned_flow(4, 3, [2.0, 1.1, 0.35], s0, 1.5, t, seed=0)
    assert ev.aligned_mode_error(pr.trajectory, run, s0)[0] < 1e-9
    assert ev.aligned_mode_error(pr.trajectory.subs(sy.lam, 2 * sy.lam), run, s0)[0] > 1e-3
    assert abs(ev.lazy_limit_slope(pr.gamma, pr.gamma_lazy) + 2) < 0.1
    assert ev.lazy_limit_slope(pr.gamma, 1 - sp.exp(-2 * sp.Abs(sy.lam) * sy.t / sy.tau)) > -0.5


@pytest.mark.rejects("LR-Thm5.1")
def test_rich_limit_check_rejects_an_inverted_saliency_ratio():
    pr = REGISTRY["LR-Thm5.1"].printed
    assert ev.rich_limit_residual(pr.gamma, pr.gamma_rich) == 0
    assert ev.rich_limit_residual(pr.gamma, pr.gamma_rich.subs(sy.s / sy.s0, sy.s0 / sy.s)) != 0     # s~/s0 inverted
    assert ev.rich_limit_residual(pr.gamma, pr.gamma_rich.subs(sy.t, 2 * sy.t)) != 0                # rate 2 s~ -> 4 s~


@pytest.mark.rejects("LR-ThmA.2")
def test_balance_rate_check_rejects_a_doubled_gradient():
    from theory.lazy_rich import setting as su
    assert ev.balance_rate_nonzero_entries(REGISTRY["LR-ThmA.2"].printed) == 0
    g1, g2 = 2 * su.GRAD_W1, su.GRAD_W2
    assert ev.balance_rate_nonzero_entries(g2.T * su.W2 + su.W2.T * g2 - g1 * su.W1.T - su.W1 * g1.T) > 0


@pytest.mark.rejects("LR-Thm5.2")
def test_weight_recovery_check_rejects_swapped_layers():
    pr = REGISTRY["LR-Thm5.2"].printed
    run = runs.problem_flow(4, 4, -1.3, 74, np.linspace(0, 2, 3), scale=0.6)
    assert ev.weight_recovery_error(pr.S1, pr.S2, run) < 1e-10
    assert ev.weight_recovery_error(pr.S2, pr.S1, run) > 1e-2


@pytest.mark.rejects("LR-ThmC.3", "LR-ThmC.5")
def test_converged_gram_and_ntk_checks_reject_a_flipped_lambda_term():
    gi, go = REGISTRY["LR-ThmC.3"].printed.gram_in, REGISTRY["LR-ThmC.3"].printed.gram_out
    task, W1, W2 = xp.problem(5, 3, 1.5, seed=105)
    assert ev.converged_gram_error(gi, go, task, W1, W2, 1.5) < 1e-10
    assert ev.converged_gram_error(go, gi, task, W1, W2, 1.5) > 1e-2
    run = runs.problem_flow(5, 3, -1.1, 13, np.linspace(0, 2, 3), n_samples=7)
    assert ev.ntk_formula_error(gi, go, run) < 1e-10
    assert ev.ntk_formula_error(go, gi, run) > 1e-2


@pytest.mark.rejects("LR-Robust-Input")
def test_noise_checks_reject_a_dropped_half():
    task = xp.problem(5, 3, 0.0, seed=0, n_samples=12)[0]
    W1, W2 = lambda_balanced_init(1.0, 5, 3, 3, np.random.default_rng(0), syx=task.syx)
    losses = xp.input_noise_losses(task, W1, W2, 0.3, 20000, seed=1)
    subs = {rb.c: task.loss_constant, rb.sigma: 0.3, rb.norm_fn: float(np.sum(task.syx ** 2))}
    assert abs(ev.noise_z(REGISTRY["LR-Robust-Input"].printed, subs, losses)) < 4
    assert abs(ev.noise_z(rb.c + rb.sigma ** 2 * rb.norm_fn, subs, losses)) > 10


@pytest.mark.rejects("LR-D.1")
def test_forgetting_check_rejects_a_missing_half():
    tasks = xp.continual_tasks()
    W1, W2 = weights_from_product(1e-3 * np.eye(5), 2.0)
    fn = runs.chained(tasks, W1, W2, 2.0, [30.0] * 4, solver=so.qq_stable).products
    printed = REGISTRY["LR-D.1"].printed
    assert ev.forgetting_error(printed, tasks, fn[1::2], 5) < 1e-12
    assert ev.forgetting_error(2 * printed, tasks, fn[1::2], 5) > 1e-2


@pytest.mark.rejects("LR-D.2")
def test_reversal_check_rejects_a_dropped_cross_term():
    printed = REGISTRY["LR-D.2"].printed
    flows = [runs.reversal_flow(lam, np.linspace(0, 10, 11)) for lam in (0.3, 0.0)]
    assert ev.reversal_error(printed, flows) < 1e-9
    assert ev.reversal_error(printed.subs(sy.lam * ap.b * ap.c, 0), flows[:1]) > 1e-3


@pytest.mark.rejects("LR-Tab2", "LR-Tab3")
def test_table_checks_reject_changed_entries():
    assert ev.table_mismatches(ri.TABLE1, ri.TABLE2) == []
    wrong2 = dict(ri.TABLE2, LeCun=(ri.r / ri.k + 1, ri.TABLE2["LeCun"][1]))
    assert ev.table_mismatches(ri.TABLE1, wrong2) == [("LeCun", 0)]
    assert ev.table3_mismatches(ri.TABLE2, ri.TABLE3) == []
    wrong3 = dict(ri.TABLE3, Glorot=(0, -2 / (ri.k + 1), 2 * ri.k / (ri.k + 1), 0, 2, None))
    assert len(ev.table3_mismatches(ri.TABLE2, wrong3)) == 1


@pytest.mark.rejects("LR-ThmC.4")
def test_series_check_rejects_a_wrong_coefficient():
    pr = REGISTRY["LR-ThmC.4"].printed
    assert ev.series_mismatches(pr.series_big, pr.series_small) == 0
    assert ev.series_mismatches(pr.series_big + sy.s ** 2 / sy.lam, pr.series_small) == 1


@pytest.mark.rejects("LR-Eq5")
def test_ntk_check_rejects_swapped_kronecker_factors():
    from numerics.lazy_rich import kernels as kn
    task, W1, W2 = xp.problem(3, 4, -0.8, seed=4, n_samples=5)
    assert ev.ntk_jacobian_error(kn.ntk, W1, W2, task.X) < 1e-10

    def swapped(a, b, X):     # sample-major ordering instead of the paper's output-major one
        gi, go = a.T @ a, b @ b.T
        return np.kron(X.T @ gi @ X, np.eye(go.shape[0])) + np.kron(X.T @ X, go)
    assert ev.ntk_jacobian_error(swapped, W1, W2, task.X) > 1e-2


@pytest.mark.rejects("LR-ThmA.3")
def test_balance_moment_check_rejects_a_flipped_sign():
    pr = REGISTRY["LR-ThmA.3"].printed
    args = (xp.sample_balance(20, 30, 40, 1 / 20, 1 / 30, 100, 0), (20, 30, 40), 1 / 20, 1 / 30)
    good = ev.balance_moments(pr.mean, pr.var_prefactor, *args)
    bad = ev.balance_moments(sy.n_out * ri.var2 + sy.n_in * ri.var1, pr.var_prefactor, *args)
    assert abs(good["z_mean"]) < 4 and abs(bad["z_mean"]) > 10
    assert abs(good["off_ratio"] - 1) < 0.05
    assert abs(ev.balance_moments(pr.mean, 2 * pr.var_prefactor, *args)["off_ratio"] - 1) > 0.3


@pytest.mark.rejects("LR-ThmC.6")
def test_late_rate_check_rejects_a_halved_lambda_perp():
    def err(rate):
        fitted, predicted = ev.late_rate(rate, 2, 5, 10.0)
        return abs(fitted - predicted) / predicted
    assert err(REGISTRY["LR-ThmC.6"].printed.slow_rate) < 0.02
    assert err(sy.S_LAM - sp.Abs(sy.lam) / 4) > 0.5


@pytest.mark.rejects("LR-Thm5.2", "LR-C.2.4-relations")
def test_layer_relation_check_rejects_perturbed_layer_singular_values():
    pr = REGISTRY["LR-C.2.4-relations"].printed
    a, b = pr.a, pr.b
    assert ev.layer_relation_failures(a, b) == []
    assert "b^2 - a^2 = lambda" in ev.layer_relation_failures(b, a)                     # layers swapped
    quarter = sp.sqrt((sp.sqrt(sy.lam ** 2 + 4 * sy.s ** 2) - sy.lam) / 4)                # changed constant 2 -> 4
    assert "a b = s~" in ev.layer_relation_failures(quarter, b)
    assert "a b = s~" in ev.layer_relation_failures(-a, b)                              # flipped sign
    no_four = sp.sqrt((sp.sqrt(sy.lam ** 2 + sy.s ** 2) + sy.lam) / 2)                   # dropped factor 4
    assert "b^2 = lambda + s~^2/lambda + ..." in ev.layer_relation_failures(a, no_four)


@pytest.mark.rejects("LR-A.2-claims")
def test_no_invertibility_check_rejects_a_wrong_clock_and_a_form_needing_B_inverse():
    flows = runs.no_invertibility_flows()
    good = ev.no_invertibility_errors(so.qq_exact, flows)
    assert good["singular B"] < 1e-9 and good["zero function"] < 1e-9 and good["learns"] < 1e-9
    slow = ev.no_invertibility_errors(lambda t, a, b, svd, lam: so.qq_exact(t / 2, a, b, svd, lam), flows)
    assert slow["singular B"] > 1e-2 and slow["zero function"] > 1e-2
    assert np.isinf(ev.no_invertibility_errors(so.qq_stable, flows)["singular B"])


@pytest.fixture(scope="module")
def hierarchy_nets():
    return runs.hierarchy(configs.HIERARCHY["ci"])


def _structured_grams(v) -> bool:
    """The criteria of verify's LR-Sec5-Rep-claims check under its reading (the weight Grams)."""
    return (v["sim_err"] <= 1e-2 and v["struct"] < 0.05 and np.all(v["lazy_big"] < v["rich_small"])
            and np.all(v["to_task"] > v["to_task_rich"]) and v["gram_out_to_eye"] < 0.1)


@pytest.mark.rejects("LR-Sec5-Rep-claims")
def test_representation_check_rejects_perturbed_gram_limits(hierarchy_nets):
    pr = REGISTRY["LR-Sec5-Rep-claims"].printed
    v = ev.representation_stats(pr.gram_in, pr.gram_out, hierarchy_nets)
    assert _structured_grams(v) and not v["rsm_out_to_eye"] < 0.1
    assert not _structured_grams(ev.representation_stats(pr.gram_out, pr.gram_in, hierarchy_nets))         # swapped
    flipped = sy.S_LAM + sy.lam / 2, sy.S_LAM - sy.lam / 2
    assert not _structured_grams(ev.representation_stats(*flipped, hierarchy_nets))                    # sign of lam/2
    assert not _structured_grams(ev.representation_stats(2 * pr.gram_in, pr.gram_out, hierarchy_nets))      # constant


@pytest.mark.rejects("LR-Robust-Param")
def test_weight_noise_check_rejects_perturbed_formulas():
    task = random_task(5, 3, 12, np.random.default_rng(0))
    W1, W2 = xp.converged(task, 1.5, 0)
    sigma = 0.2
    losses = xp.weight_noise_losses(task, W1, W2, sigma, 20000, seed=1)
    subs = ev.weight_noise_subs(task, W1, W2, sigma)
    printed = REGISTRY["LR-Robust-Param"].printed.loss
    assert abs(ev.noise_z(printed, subs, losses)) < 4
    swapped = printed.subs({sy.n_in: sy.n_out, sy.n_out: sy.n_in}, simultaneous=True)      # Ni <-> No
    no_half = printed + rb.sigma ** 2 / 2 * (sy.n_in * rb.w2_sq + sy.n_out * rb.w1_sq)       # 1/2 -> 1
    no_quartic = printed - rb.sigma ** 4 / 2 * sy.n_in * sy.n_hid * sy.n_out                 # dropped sigma^4 term
    for wrong in (swapped, no_half, no_quartic):
        assert abs(ev.noise_z(wrong, subs, losses)) > 8


@pytest.mark.rejects("LR-Robust-Param")
def test_weight_noise_minimiser_check_rejects_perturbed_mode_norms():
    pr = REGISTRY["LR-Robust-Param"].printed
    good = ev.weight_noise_minimiser(pr.w1_sq, pr.w2_sq)
    assert good["stationary"] == [0] and good["curvature"] > 0 and good["unequal"] < 1e-6
    assert ev.weight_noise_minimiser(pr.w2_sq, pr.w2_sq)["stationary"] != [0]                 # sign of lam/2 flipped
    assert ev.weight_noise_minimiser(pr.w1_sq, pr.w2_sq + sy.lam / 2)["stationary"] != [0]    # changed constant
    assert ev.weight_noise_minimiser(2 * pr.w1_sq, pr.w2_sq)["unequal"] > 1e-2               # changed constant


@pytest.mark.rejects("LR-Eq7")
def test_fukumizu_check_rejects_a_doubled_integral():
    task, W1, W2 = xp.problem(5, 3, 0.0, seed=16)
    F = so.f_matrix(task.syx, 0.0)
    t = np.linspace(0, 4, 5)

    def doubled(tt, a, b, svd, lam):     # e^{Ft}Q0[I + 2 Q0^T (int e^{2Fs}) Q0]^{-1}Q0^T e^{Ft}
        return so.qq_fukumizu(tt, np.sqrt(2) * a, np.sqrt(2) * b, F) / 2
    run = runs.flow(task, W1, W2, 0.0, t)
    assert ev.solution_error(lambda tt, a, b, svd, lam: so.qq_fukumizu(tt, a, b, F), run) < 1e-9
    assert ev.solution_error(doubled, run) > 1e-2


@pytest.mark.rejects("LR-B.5.1")
def test_closed_form_riccati_check_rejects_perturbed_rhs_and_solution():
    task, W1, W2 = xp.problem(5, 3, 1.2, seed=605)
    rhs = REGISTRY["LR-B.5.1"].printed
    assert ev.closed_form_riccati_error(rhs, so.qq_exact, task, W1, W2, 1.2) < 1e-7
    halved_square = exact_sol.F * exact_sol.QQ + exact_sol.QQ * exact_sol.F - exact_sol.QQ * exact_sol.QQ / 2
    assert ev.closed_form_riccati_error(halved_square, so.qq_exact, task, W1, W2, 1.2) > 1e-2
    def flipped(t, a, b, svd, lam):
        return so.qq_exact(t, a, b, svd, -lam)
    assert ev.closed_form_riccati_error(rhs, flipped, task, W1, W2, 1.2) > 1e-2


@pytest.mark.rejects("LR-Sec5-SV-claims")
def test_rich_lazy_checks_reject_perturbed_transition_functions():
    gamma = REGISTRY["LR-Thm5.1"].printed.gamma
    s_task = np.array([2.0, 1.1, 0.35])
    good = ev.rich_lazy_stats(gamma, s_task)
    assert good["ordered"] and good["close"] <= 0.15 and good["rate_err"] <= 0.05
    assert ev.rich_lazy_stats(gamma.subs(sy.lam, 2 * sy.lam), s_task)["rate_err"] > 0.5      # changed constant
    assert ev.rich_lazy_stats(gamma.subs(sy.s0, sy.s0 ** 2), s_task)["close"] > 0.5         # wrong rise time

    def slope(e):
        return np.polyfit(np.log(list(e)), np.log(list(e.values())), 1)[0]
    assert slope(ev.shallow_limit_errors(sp.exp(-sp.Abs(sy.lam) * sy.t / sy.tau))) <= -1.8
    wrong = ev.shallow_limit_errors(sp.exp(-2 * sp.Abs(sy.lam) * sy.t / sy.tau))              # doubled rate
    assert slope(wrong) > -0.5 and min(wrong.values()) > 1e-2


@pytest.mark.rejects("LR-ThmC.4")
def test_gram_limit_check_rejects_a_flipped_lambda_half():
    pr = REGISTRY["LR-ThmC.3"].printed
    good = ev.gram_limit_distances(pr.gram_in, pr.gram_out)
    assert max(max(d[2], d[3]) for d in good.values()) < 1e-2
    bad = ev.gram_limit_distances(pr.gram_out, pr.gram_in)                                  # sign of lam/2 flipped
    assert min(d[2] for d in bad.values()) > 0.5


@pytest.mark.rejects("LR-ThmC.5")
def test_kernel_movement_check_rejects_swapped_grams():
    pr = REGISTRY["LR-ThmC.3"].printed
    lams = np.array([5.0, 20.0, 80.0])
    good = ev.kernel_movement(pr.gram_in, pr.gram_out, 6, 2, lams)          # funnel, lambda -> +oo: the lazy side
    bad = ev.kernel_movement(pr.gram_out, pr.gram_in, 6, 2, lams)
    assert np.polyfit(np.log(lams), np.log(good), 1)[0] <= -1.8
    assert bad.min() > 0.1


@pytest.mark.rejects("LR-Tab1")
def test_table1_moment_check_rejects_a_changed_entry():
    mean, var = ri.TABLE1["LeCun"]
    v1, v2 = (float(sp.sympify(v).subs({sy.n_in: 30, sy.n_hid: 50, sy.n_out: 70})) for v in ri.INITS["LeCun"])
    samples = xp.sample_balance(30, 50, 70, v1, v2, 300, 30)
    good = ev.balance_moments(mean, var, samples, (30, 50, 70), v1, v2)
    assert abs(good["z_mean"]) < 4 and abs(good["off_ratio"] - 1) < 0.05
    # E[lambda] shifted by 1/Nh = 0.02 (5% of No/Nh - 1): rejected beyond the check's 4-s.e. band
    assert abs(ev.balance_moments(mean + 1 / sy.n_hid, var, samples, (30, 50, 70), v1, v2)["z_mean"]) > 5
    assert abs(ev.balance_moments(mean, var / 2, samples, (30, 50, 70), v1, v2)["off_ratio"] - 1) > 0.5


@pytest.mark.rejects("LR-Alg1")
def test_algorithm1_check_rejects_the_missing_square():
    """One public code version takes sqrt(lam^2 + 4 S) instead of sqrt(lam^2 + 4 S^2): still balanced,
    but W2 W1 is no longer the drawn product."""
    def missing_square(lam, n_in, n_hid, n_out, rng, syx):
        U, s, Vt = np.linalg.svd(syx, full_matrices=False)
        root = np.sqrt(lam ** 2 + 4 * s)
        s1, s2 = np.sqrt((root - lam) / 2), np.sqrt((root + lam) / 2)
        return np.diag(s1) @ Vt, (U * s2)
    p = dict(n_in=4, n_out=3, lam=0.8, scale=1.3, w1=list(np.linspace(-1, 1, 12)), w2=list(np.linspace(2, -1, 9)))
    assert ev.alg1_error(lambda_balanced_init, **p) <= 1e-12
    assert ev.alg1_error(missing_square, **p) > 1e-2


@pytest.mark.rejects("LR-Alg1", "LR-Thm5.2")
def test_layer_value_check_rejects_swapped_layers():
    pr = REGISTRY["LR-Alg1"].printed
    assert ev.layer_values_error(pr.S1, pr.S2, layer_singular_values) <= 1e-12
    assert ev.layer_values_error(pr.S2, pr.S1, layer_singular_values) > 1e-2


@pytest.mark.rejects("LR-Eq10-12", "LR-ThmB.5")
def test_printed_matrix_forms_reject_swapped_mode_factors():
    task, W1, W2 = xp.problem(2, 4, 1.3, seed=35)
    B = so.init_variables(W1, W2, so.spectrum(task.svd, 1.3))[0]
    pr = REGISTRY["LR-Eq10-12"].printed
    swapped = pr.B.xreplace({exact_sol.Gp: exact_sol.Gm, exact_sol.Gm: exact_sol.Gp})
    assert rel_err(ev.printed_theorem_value(pr.B, 0.0, W1, W2, task.svd, 1.3), B) < 1e-12
    assert rel_err(ev.printed_theorem_value(swapped, 0.0, W1, W2, task.svd, 1.3), B) > 1e-2
    stable = REGISTRY["LR-ThmB.5"].printed
    qq = so.qq_stable(0.9, W1, W2, task.svd, 1.3)[0]
    for Z, A in ((stable.Z, stable.A), (stable.Z, stable.A.subs(exact_sol.ap, 2 * exact_sol.ap))):
        err = rel_err(ev.printed_theorem_value(Z * sp.Inverse(A) * Z.T, 0.9, W1, W2, task.svd, 1.3), qq)
        assert (err < 1e-12) == (A is stable.A)


@pytest.mark.rejects("LR-Lem4.2")
def test_eigenvalue_check_rejects_a_halved_lambda():
    pr = REGISTRY["LR-Lem4.2"].printed
    task = xp.problem(5, 3, -0.7, seed=38)[0]
    s_lam = so.spectrum(task.svd, -0.7).s_lam
    for form, good in ((pr.S_lam, True), (pr.S_lam.subs(sy.lam, sy.lam / 2), False)):
        f = compiled((sy.lam, sy.s), form)
        assert (rel_err(s_lam, f(-0.7, task.svd.s)) < 1e-14) == good


def test_every_claim_with_a_refutable_kind_has_a_rejects_test():
    covered = {cid for f in globals().values() if callable(f) and hasattr(f, "pytestmark")
               for mark in f.pytestmark if mark.name == "rejects" for cid in mark.args}
    claims = {c.id for c in REGISTRY if c.paper == "lazy_rich" and c.kind not in ("empirical", "definition")}
    assert claims == covered, claims ^ covered


@pytest.mark.rejects("LR-ThmC.4")
def test_layer_limit_check_reads_the_limit_each_form_names():
    """The erratum's two sides differ only in the limit they name: the check measures each form
    against its own limit, so naming the projector passes and naming the identity fails."""
    c, grams = REGISTRY["LR-ThmC.4"], REGISTRY["LR-ThmC.3"].printed
    sides = ev.layer_limits(c.printed, c.corrected, grams)
    assert not all(m.passed for m in sides["printed"]) and all(m.passed for m in sides["corrected"])
    swapped = ev.layer_limits(c.corrected, c.printed, grams)
    assert all(m.passed for m in swapped["printed"]) and not all(m.passed for m in swapped["corrected"])
