"""Every exact MHS check rejects a perturbed version of the object it tests."""
import numpy as np
import pytest
import sympy as sp

from numerics.haste_slowly import graph as G
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import lemma
from theory.haste_slowly import contexts as tc
from theory.haste_slowly import gdln as tg
from theory.haste_slowly import xor_margin as tx
from verify.checks.symbolic import is_zero, ode_residual
from verify.haste_slowly import checks


@pytest.mark.rejects("MHS-Eq(3)")
def test_forward_check_rejects_dropped_node_gates():
    def no_node_gates(g, W, x, ng, eg):
        return G.forward(g, W, x, np.ones_like(ng), eg)
    assert checks.path_sum_error(G.forward) < 1e-12
    assert checks.path_sum_error(no_node_gates) > 1e-3


@pytest.mark.rejects("MHS-Eq(3)")
def test_gradient_check_rejects_support_normalised_statistics():
    def per_support(graph, path, other, x, y, ng, eg):
        syx, sx = G.statistics(graph, path, other, x, y, ng, eg)
        n_on = max(G.path_gate(graph, path, ng, eg).sum(), 1.0)
        return syx * ng.shape[1] / n_on, sx * ng.shape[1] / n_on
    assert checks.path_gradient_error(per_support) > 1e-2


@pytest.mark.rejects("MHS-Eq(3)")
def test_clock_check_rejects_the_printed_time_constant():
    printed = lambda e, n: float(tg.TAU_PRINTED.subs({tg.N: n, tg.eps: e}))
    assert checks.clock_error(printed) > 0.5
    assert checks.clock_error(lambda e, n: 1 / e) < 2e-2


@pytest.mark.rejects("MHS-Eq(6)", "MHS-F-Eq(race-overlap)")
def test_race_check_rejects_missing_overlaps():
    assert checks.race_errors(np.ones((2, 2, 3)), overlap=-0.5)[1] > 0.1
    assert checks.data_race_error(3, np.ones((3, 3, 7)))[0] > 0.1
    assert checks.data_race_error(3)[0] < 1e-6


@pytest.mark.rejects("MHS-C-Eq(13-16)")
def test_pathway_statistics_reject_a_wrong_constant():
    syx, sx = checks.pathway_statistics(tx.X, tx.Y, (0, 1, 1, 0), tx.N)
    assert not (syx - sp.Matrix([[0, 0, tx.Delta]])).is_zero_matrix
    assert not (sx - 2 * tx.SX_POS).is_zero_matrix


@pytest.mark.rejects("MHS-C-Eq(17-19)")
def test_trajectory_check_rejects_a_flipped_exponent():
    rhs = 2 * tx.a * (tx.S_LIN - tx.D_LIN * tx.a) / tx.tau
    flipped = tx.TRAJ_19.subs(sp.exp(-tx.Delta * tx.t / tx.tau), sp.exp(tx.Delta * tx.t / tx.tau))
    assert not checks.solves(flipped, rhs, tx.t, tx.a)["residual"]
    assert checks.solves(tx.TRAJ_19, rhs, tx.t, tx.a)["residual"]


@pytest.mark.rejects("MHS-C-Eq(23)")
def test_plateau_loss_check_rejects_the_printed_variance():
    bad = checks.loss_at_plateau(tx.LOSS_23, tx.S_XOR, tx.D_XOR_PRINTED, tx.a, tx.s, tx.d)
    good = checks.loss_at_plateau(tx.LOSS_23, tx.S_XOR, tx.D_XOR, tx.a, tx.s, tx.d)
    assert bad == sp.Rational(-3, 2) and good == 0


@pytest.mark.rejects("MHS-C-Eq(24-26)")
def test_crossover_check_rejects_a_wrong_constant():
    assert checks.crossover_check(tx.S_LIN, tx.S_XOR, tx.CROSSOVER, tx.Delta)[0] < 1e-45
    assert checks.crossover_check(tx.S_LIN, tx.S_XOR, sp.sqrt(sp.Rational(3, 4)), tx.Delta)[0] > 1e-3


@pytest.mark.rejects("MHS-F-Overlap")
def test_overlap_check_rejects_the_printed_values():
    X, Y = ds.contexts(4)
    assert checks.overlap_error(tc.OVERLAP_PRINTED, 4, X, Y) > 0.1
    assert checks.overlap_error({4: tc.OVERLAP.subs(tc.C, 4)}, 4, X, Y) < 1e-12
    assert checks.overlap_error({3: sp.Rational(-1, 3)}, 3, *ds.contexts(3)) > 0.1


@pytest.mark.rejects("MHS-F-Closed")
def test_closed_form_check_rejects_the_printed_form():
    rhs = tc.CONTEXTUAL_RHS / tc.tau
    assert not is_zero(ode_residual(tc.CLOSED_PRINTED, rhs, tc.t, tc.B))
    assert is_zero(ode_residual(tc.CLOSED_CORRECTED, rhs, tc.t, tc.B))
    wrong_k = tc.CLOSED_CORRECTED.subs(tc.C - 1, tc.C)
    assert not is_zero(ode_residual(wrong_k, rhs, tc.t, tc.B))


@pytest.mark.rejects("MHS-A-Loss", "MHS-A-NonDiag", "MHS-A-CoV")
def test_learning_rule_check_rejects_ascent_and_missing_transposes():
    assert checks.learning_rule_error(+1) > 1.0
    assert checks.learning_rule_error(-1) < 1e-12
    no_t = checks.nondiag_reduction_error(lambda w1, w2, M, D: w2 @ (M - w2 @ w1 @ D),
                                          lambda w1, w2, M, D: w1 @ (M - w2 @ w1 @ D))
    assert no_t > 0.1


@pytest.mark.rejects("MHS-Lem4.1")
def test_lemma_check_tells_xor_from_staircase():
    assert not lemma.realisable(np.array([[0, 1], [1, 0]]))
    assert lemma.realisable(np.array([[1, 1], [1, 0]]))
    assert lemma.has_xor_submatrix(np.array([[1, 0, 1], [0, 1, 1]]))
    assert not lemma.lemma_form(np.array([[1, 1], [1, 0]]))


@pytest.mark.rejects("MHS-Eq(5)")
def test_alignment_check_rejects_outputs_off_their_singular_vectors():
    off, _ = checks.race_errors(None, overlap=1.0)
    assert off < 1e-7
    # the statistics read in a wrong (rotated) output basis are not diagonal
    c = checks.race_setup(1.0)
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((3, 3)))[0]
    M = (c["U"][0] @ Q).T @ c["syx"][0] @ c["V"]
    assert np.abs(M - np.diag(np.diag(M))).max() > 0.1


@pytest.mark.rejects("MHS-F-Balanced")
def test_balanced_product_check_rejects_a_flipped_sign():
    b0, b1 = sp.symbols("b_0 b_1", positive=True)
    bracket = tc.S - tc.kappa * b1 * b0 * tc.D
    product = sp.expand(bracket * b0 * b0 + b1 * (b1 * bracket))
    flipped = tc.BALANCED_RHS.subs(tc.S, -tc.S)
    assert is_zero(product.subs(b1, b0) - tc.BALANCED_RHS.subs(tc.B, b0 ** 2))
    assert not is_zero(product.subs(b1, b0) - flipped.subs(tc.B, b0 ** 2))


@pytest.mark.rejects("MHS-F-Coef")
def test_coefficient_check_rejects_the_printed_overlaps():
    good = tc.COEF_FROM_RACE.subs({tc.rho: sp.Rational(2, 3), tc.O: tc.OVERLAP.subs(tc.C, 4), tc.C: 4})
    bad = tc.COEF_FROM_RACE.subs({tc.rho: sp.Rational(2, 3), tc.O: tc.OVERLAP_PRINTED[4], tc.C: 4})
    assert good == tc.COEF_PRINTED[4] and bad != tc.COEF_PRINTED[4]


@pytest.mark.rejects("MHS-F-Common")
def test_rise_time_check_rejects_the_unnormalised_statistics():
    from numerics.closed_forms import mode_strength
    tt = np.linspace(0, 400, 4001)
    s, d, N = 0.8, 0.4, 24
    plateau = s / d
    right = checks.rise_time(mode_strength(tt, s, d, 1e-4), tt, plateau)
    wrong = checks.rise_time(mode_strength(tt, s * N, d * N, 1e-4), tt, plateau)
    assert abs(wrong - right) / right > 0.9


@pytest.mark.rejects("MHS-E-Interlace")
def test_interlacing_check_rejects_a_larger_submatrix():
    M = np.array([[3.0, 1.0], [1.0, 2.0]])
    assert checks.interlacing_violation((M, [0, 1], [0, 1])) <= 1e-12
    # a "submatrix" scaled up is no submatrix: the check sees its singular values exceed M's
    assert checks.interlacing_violation((np.diag([1.0, 0.1]), [0, 1], [0])) <= 1e-12
    big = lambda case: max(float(np.max(np.linalg.svd(2 * case[0][np.ix_(case[1], case[2])],
                                                       compute_uv=False)
                                        - np.linalg.svd(case[0], compute_uv=False)[:1])), 0)
    assert big((M, [0, 1], [0, 1])) > 1


@pytest.mark.rejects("MHS-E-Nonneg")
def test_nonneg_check_rejects_signed_data():
    assert checks.sigma1_increase(np.array([[1.0, -1.0]]), np.array([[1.0, 1.0]]), [0]) > 0.5
    assert checks.sigma1_increase(np.array([[1.0, 1.0]]), np.array([[1.0, 1.0]]), [0]) <= 0


@pytest.mark.rejects("MHS-E-Resid")
def test_residual_check_rejects_an_unconverged_common_pathway():
    X, Y = ds.section4()
    R = Y - Y @ np.linalg.pinv(X) @ X
    assert np.abs(R @ X[8:].T).max() < 1e-10
    half = Y - 0.5 * Y @ np.linalg.pinv(X) @ X
    assert np.abs(half @ X[8:].T).max() > 0.1


@pytest.mark.rejects("MHS-A-C2")
def test_time_course_check_rejects_a_delta_free_time():
    from theory import mode_law as ml
    from theory.haste_slowly import linear_background as tl
    assert sp.simplify(tl.T_FRACTION.diff(ml.d)) != 0
    free = ml.tau / (2 * ml.s) * sp.log(tl.f / (1 - tl.f) / ml.a0)
    assert sp.simplify(free.diff(ml.d)) == 0


@pytest.mark.rejects("MHS-A-SVD", "MHS-A-C1")
def test_fixed_point_check_rejects_a_plateau_without_delta():
    from numerics.datasets import correlations, hierarchy, modes
    X, Y = hierarchy(2)
    syx, sx = correlations(X, Y)
    U, S, V, D, _ = modes(syx, sx)
    right = sum(S[a] / D[a] * np.outer(U[:, a], V[:, a]) for a in range(len(S)))
    wrong = sum(S[a] * np.outer(U[:, a], V[:, a]) for a in range(len(S)))
    assert np.abs(syx - right @ sx).max() < 1e-10
    assert np.abs(syx - wrong @ sx).max() > 0.1


@pytest.mark.rejects("MHS-C-Eq(20-22)")
def test_loss_check_rejects_a_dropped_factor():
    assert sp.simplify(2 * tx.LOSS_21 - tx.LOSS_22) == 0
    assert sp.simplify(tx.LOSS_21 - tx.LOSS_22) != 0
    assert tx.LOSS_22.subs(tx.a, 1 / tx.Delta) == 0
    assert sp.simplify((tx.LOSS_22 + tx.Delta * tx.a / 2).subs(tx.a, 1 / tx.Delta)) != 0


@pytest.mark.rejects("MHS-C3.1")
def test_relu_equivalence_check_rejects_gates_fixed_at_one():
    import torch
    from numerics.haste_slowly import equivalence as eq
    from numerics.haste_slowly.gated import GatedNet, init_weights
    rng = np.random.default_rng(3)
    X, Y = torch.tensor(rng.standard_normal((5, 10))), torch.tensor(rng.standard_normal((3, 10)))
    W = init_weights([0], [(16, 5), (3, 16)], [0.5, 0.5])
    ref = eq.relu_autograd_trajectory([w[0] for w in W], X, Y, 5e-3, 20)
    dynamic, _ = eq.step_gated_training(W, X, Y, 5e-3, 20, recompute=True)
    assert max(float((a[0] - b).abs().max()) for a, b in zip(dynamic, ref)) < 1e-12
    linear = GatedNet([w.clone() for w in W], [np.ones((16, 10))])
    for _ in range(20):
        linear.step(X, Y, 5e-3)
    assert max(float((a[0] - b).abs().max()) for a, b in zip(linear.weights, ref)) > 1e-3


@pytest.mark.rejects("MHS-AlgB1")
def test_gate_finder_rejects_xor_patterns():
    from numerics.haste_slowly import gate_finder as gf
    want = {tuple(np.ones(24))} | {tuple(r) for r in ds.context_gates(3, ds.k_of_c(3, 2))}
    rng = np.random.default_rng(0)
    rows = np.repeat(np.array(sorted(want)), 30, axis=0)
    flips = rng.random(rows.shape) < 0.05
    found = {tuple(r) for r in gf.binarise(gf.find_gates(np.abs(rows - flips), 4))}
    assert found == want
    single = np.repeat(ds.context_gates(3, ds.k_of_c(3, 1)), 40, axis=0)
    assert {tuple(r) for r in gf.binarise(gf.find_gates(single, 4))} != want


@pytest.mark.rejects("MHS-Prop4.2")
def test_race_gap_check_rejects_a_faster_alternative():
    t = np.linspace(0, 10, 201)
    fast, slow = 1 / (1 + np.exp(2 * (t - 3))), 1 / (1 + np.exp(2 * (t - 5)))
    won = checks.race_gap(slow, fast, 1.0)
    assert won["min"] >= -0.01 and won["strict share"] > 0.3
    lost = checks.race_gap(fast, slow, 1.0)
    assert lost["min"] < -0.01 and lost["strict share"] == 0
