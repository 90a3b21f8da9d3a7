"""Each check of an exact BL- claim rejects a perturbed version of the claim (DESIGN.md,
"Checks that can fail"): a changed constant, a flipped sign, a dropped factor or transpose."""
import numpy as np
import pytest
import sympy as sp

from numerics.datasets import hierarchy
from theory import mode_law as ml
from theory.bias import bias_mode as bm
from theory.bias import effective_rank_formula as eq1
from theory.bias import hitting as h
from theory.bias import linear_flow as blf
from theory.bias import matrices as m
from theory.bias import relu_flow as rf
from theory.bias import setting as st_
from numerics.bias.linear_runs import gated_a0_ratio
from verify.bias import symbolic as sym
from verify.checks import mode_law as mode_checks

TOL = 1e-10


@pytest.mark.rejects("BL-Eq(1)")
def test_effective_rank_extremes_reject_a_doubled_exponent():
    assert sym.effective_rank_extremes(eq1.EQUATION_1.corrected) == (4.0, 1.0)
    assert sym.effective_rank_extremes(2 * eq1.EQUATION_1.corrected) != (4.0, 1.0)


def test_network_forms_reject_a_bias_without_its_strength():
    values, model = sym.network_instance(3, 5, 2, 4, 10.0, seed=0)
    dims = sym.dims_of(n_in=3, n_hid=5, n_out=2, p=4)
    pre = values["W1"] @ values["x"] + 10.0 * values["b"]
    assert sym.form_error(st_.networks_corrected["relu_preactivation"], dims, values, pre) <= TOL
    assert sym.form_error(m.W1 * m.x + m.b, dims, values, pre) > 0.1
    assert sym.form_error(m.W1_aug * m.x + m.b, dims, values, pre) == float("inf")


@pytest.mark.rejects("BL-Prop1")
def test_eigen_statements_reject_a_changed_eigenvalue_or_vector():
    assert all(sym.eigen_statements(bm.proposition, 3).values())
    wrong_value = {**bm.proposition, "eigenvalues": {bm.c ** 2 + 2 / bm.P_sym: 1,
                                                      1 / bm.P_sym: bm.P_sym - 1, sp.Integer(0): 1}}
    assert not sym.eigen_statements(wrong_value, 3)["spectrum"]
    wrong_vector = {**bm.proposition, "top_eigenvector":
                    lambda P, c=bm.c: sp.Matrix.vstack(sp.Matrix([[1]]), sp.ones(P, 1) / P)}
    assert not sym.eigen_statements(wrong_vector, 3)["top eigenvector"]


@pytest.mark.rejects("BL-Prop1")
def test_image_identity_rejects_a_changed_factor():
    assert sym.image_identity(bm.proposition, 3, 2)
    wrong = {**bm.proposition, "image_factor": sp.sqrt(bm.c ** 2 + 2 / bm.P_sym)}
    assert not sym.image_identity(wrong, 3, 2)


@pytest.mark.rejects("BL-Prop1", "BL-Claim-cIndep")
def test_top_singular_gap_rejects_a_dropped_term():
    Y = hierarchy(2)[1]
    assert sym.top_singular_gap(bm.proposition["s0"], Y, 1.0) <= TOL
    assert sym.top_singular_gap(sp.Abs(bm.c) * bm.ybar_norm, Y, 1.0) > 1e-3


@pytest.mark.rejects("BL-Claim-ybar")
def test_saturated_outputs_check_rejects_a_wrong_plateau():
    Y = sp.Matrix([[1, 2, 0], [0, 1, 3]])
    target = bm.mean_label(Y) * sp.ones(1, 3)
    good = bm.saturated_bias_mode_outputs(Y, 2)
    assert all(sym.is_zero(e) for e in good - target)
    doubled = 2 * good
    assert not all(sym.is_zero(e) for e in doubled - target)


@pytest.mark.rejects("BL-Def-SimDiag")
def test_commutator_detects_unequal_overlap_and_a_wrong_commutator():
    from theory.bias.setting import Sx_aug, Syx_aug, commutator
    assert sym.commutator_norm(commutator, hierarchy(2)[1], 1.0) <= 1e-14
    assert sym.commutator_norm(commutator, np.array([[1, 1, 1, 0], [0, 0, 0, 1.0]]), 1.0) > 0.1
    wrong = Syx_aug.T * Syx_aug * Sx_aug + Sx_aug * Syx_aug.T * Syx_aug
    assert sym.commutator_norm(wrong, hierarchy(2)[1], 1.0) > 0.1


@pytest.mark.rejects("BL-Eq(16-18)")
def test_linear_rates_reject_a_missing_transpose_or_factor():
    assert max(sym.linear_rate_errors(blf.app_b_corrected, 3, 5, 2, 6, seed=0).values()) <= TOL
    no_eps_p = {**blf.app_b_corrected, "step_W1": m.eps * m.W2.T * (m.Syx - m.W2 * m.W1 * m.Sx)}
    assert sym.linear_rate_errors(no_eps_p, 3, 5, 2, 6, seed=0)["step_W1"] > 0.1
    square = {**blf.app_b_corrected, "flow_W2": (m.Syx - m.W2 * m.W1 * m.Sx) * m.W1}
    assert sym.linear_rate_errors(square, 4, 4, 4, 6, seed=0)["flow_W2"] > 0.1


@pytest.mark.rejects("BL-Eq(19-20)")
def test_reduced_flow_rejects_a_flipped_sign():
    forms = {**blf.change_of_variables, **blf.reduced_corrected}
    assert max(sym.reduced_flow_errors(forms, 5, 4, 3, seed=0).values()) <= TOL
    flipped = {**forms, "flow_W2_bar": -blf.reduced_corrected["flow_W2_bar"]}
    assert sym.reduced_flow_errors(flipped, 5, 4, 3, seed=0)["flow_W2_bar"] > 1.0


@pytest.mark.rejects("BL-Eq(21)")
def test_mode_ode_check_rejects_a_changed_constant():
    assert sym.mode_ode_matches(blf.mode_ode_corrected)
    assert not sym.mode_ode_matches(3 * ml.a * (ml.s - ml.d * ml.a) / ml.tau)


@pytest.mark.rejects("BL-Eq(8)-(10)")
def test_relu_rates_reject_a_flipped_residual():
    good = sym.relu_rate_errors(rf.relu_flow_corrected, 3, 5, 2, 6, c=-2.0, seed=0)
    assert max(good.values()) <= TOL
    flipped = {**rf.relu_flow_corrected, "W2": m.eps * (m.Y + m.W2 * m.H) * m.H.T}
    assert sym.relu_rate_errors(flipped, 3, 5, 2, 6, c=-2.0, seed=0)["W2"] > 0.1


@pytest.mark.rejects("BL-Eq(8)-(10)")
def test_init_forms_at_c_reject_a_bias_rate_without_c():
    assert sym.init_approximation(rf.relu_flow_corrected, c=10.0).passed
    assert not sym.init_approximation(rf.relu_flow_printed, c=10.0).passed


@pytest.mark.rejects("BL-Eq(11)")
def test_early_bias_rate_rejects_a_doubled_term():
    Y = hierarchy(2)[1]
    exact, formula, _, _, _ = sym.early_bias_rates(rf.second_order, Y, 0, readout="one step")
    assert sym.rel_err(formula, exact) <= 1e-2
    doubled = {**rf.second_order, "b": 2 * rf.second_order["b"]}
    _, doubled, _, _, _ = sym.early_bias_rates(doubled, Y, 0, readout="one step")
    assert sym.rel_err(doubled, exact) > 0.5


@pytest.mark.rejects("BL-Eq(11)")
def test_early_rate_error_rejects_a_doubled_w1_term_or_readout():
    Y = hierarchy(2)[1]
    assert sym.early_rate_error(rf.second_order, Y, 0) <= 1e-2
    # a doubled readout doubles the exact rates: the printed terms then miss them by 1/2
    for name in ("W1", "W2_substituted"):
        doubled = {**rf.second_order, name: 2 * rf.second_order[name]}
        assert sym.early_rate_error(doubled, Y, 0) > 0.4, name


@pytest.mark.rejects("BL-Eq(12)")
def test_kink_check_rejects_a_wrong_power():
    assert sym.kink_rate_matches(rf.kink, 2)
    wrong = {**rf.kink, "k_dot": -rf.b_dot / rf.norm_w
             + sp.Sum(rf.b_j * rf.w[rf.k] * rf.w_dot[rf.k] / rf.norm_w ** 2, (rf.k, 1, rf.n))}
    assert not sym.kink_rate_matches(wrong, 2)
    assert sym.kink_rate_matches(rf.kink_c, 2, c_value=3)
    c_dropped_in_rate = {"k": rf.kink_c["k"], "k_dot": rf.kink["k_dot"]}
    assert not sym.kink_rate_matches(c_dropped_in_rate, 2, c_value=3)


@pytest.mark.rejects("BL-Eq(14)")
def test_delay_facts_reject_a_squared_g():
    assert all(sym.delay_facts(h.delay_corrected).values())
    facts = sym.delay_facts(h.delay_corrected.subs(h.g, h.g ** 2))
    assert not facts["= Eq.(27) - Eq.(26)"] and not facts["= corrected form"]


@pytest.mark.rejects("BL-Eq(14)")
def test_gated_a0_ratio_is_the_alive_fraction():
    assert abs(gated_a0_ratio(64, 0.25, seed=1) - 0.75) < 0.01
    assert abs(gated_a0_ratio(64, 0.25, seed=1) - 0.25) > 0.4


@pytest.mark.rejects("BL-Eq(6)")
def test_svd_chain_rejects_a_bias_without_its_strength():
    assert max(sym.svd_chain_errors(st_.SVD_MAPPING.corrected, 2.0).values()) <= TOL
    dropped_c = m.W2 * (m.W1 * m.x + m.b)
    assert sym.svd_chain_errors({"with_bias": dropped_c}, 2.0)["with_bias"] > 0.01


@pytest.mark.rejects("BL-Eq(7)")
def test_mode_law_check_rejects_a_changed_rate():
    law = ml.trajectory
    assert mode_checks.scalar_ode_error(law, 1.3, 0.7, 1e-3, 2.0) < 1e-8
    assert mode_checks.scalar_ode_error(law.subs(ml.t, 1.5 * ml.t), 1.3, 0.7, 1e-3, 2.0) > 1e-3


@pytest.mark.rejects("BL-Eq(13)")
def test_hitting_time_check_rejects_a_dropped_factor():
    from theory.registry import REGISTRY
    t_hat = REGISTRY["BL-Eq(13)"].printed
    args = dict(s=1.0, d=1.0, a0=1e-3, rho=0.3, tau=2.0)
    assert mode_checks.hitting_time_error(t_hat, **args) < 1e-8
    assert mode_checks.hitting_time_error(2 * t_hat, **args) > 0.1
    assert not mode_checks.hitting_time_solves(2 * t_hat)
