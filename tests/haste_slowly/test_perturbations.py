"""Every exact MHS check rejects a perturbed version of the object it tests (the check functions
of ``verify.haste_slowly.evidence`` fed a perturbed formula, rule or dataset)."""
import numpy as np
import pytest
import sympy as sp

from numerics.haste_slowly import analysis as A
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import equivalence, lemma, race
from numerics.haste_slowly import graph as G
from theory.haste_slowly import contexts as tc
from theory.haste_slowly import gdln as tg
from theory.haste_slowly import xor_margin as tx
from verify.checks.symbolic import is_zero, ode_residual, solves
from verify.haste_slowly import evidence as E

CASE = G.random_case(0)


@pytest.mark.rejects("MHS-Eq(1)")
def test_forward_check_rejects_dropped_node_gates():
    def no_node_gates(g, W, x, ng, eg):
        return G.forward(g, W, x, np.ones_like(ng), eg)
    assert A.path_sum_error(G.forward, CASE) < 1e-12
    assert A.path_sum_error(no_node_gates, CASE) > 1e-3


@pytest.mark.rejects("MHS-Eq(3)", "MHS-Eq(2)", "MHS-Eq(4)", "MHS-Fig1")
def test_gradient_check_rejects_support_normalised_statistics():
    def per_support(graph, path, other, x, y, ng, eg):
        syx, sx = G.statistics(graph, path, other, x, y, ng, eg)
        n_on = max(G.path_gate(graph, path, ng, eg).sum(), 1.0)
        return syx * ng.shape[1] / n_on, sx * ng.shape[1] / n_on
    assert A.path_gradient_error(CASE) < 1e-10
    assert A.path_gradient_error(CASE, per_support) > 1e-2


@pytest.mark.rejects("MHS-Eq(3)")
def test_clock_check_rejects_the_printed_time_constant():
    def printed(e, n):
        return float(tg.TAU_PRINTED.subs({tg.N: n, tg.eps: e}))
    bad, good = (A.relative_error(*equivalence.gd_beside_flow(f, 2e-3, 1500)[::-1])
                 for f in (printed, lambda e, n: 1 / e))
    assert bad > 0.5 and good < 2e-2


@pytest.mark.rejects("MHS-Eq(6)", "MHS-F-Eq(race-overlap)")
def test_race_check_rejects_missing_overlaps():
    ones = np.ones((2, 2, 3))
    assert A.race_errors(*race.flow_and_race(race.two_pathway_case(-0.5), ones))[1] > 0.1
    assert A.relative_error(*race.contextual_race(3, np.ones((3, 3, 7)))[:2][::-1]) > 0.1
    assert A.relative_error(*race.contextual_race(3)[:2][::-1]) < 1e-6


@pytest.mark.rejects("MHS-Eq(5)")
def test_alignment_check_rejects_outputs_off_their_singular_vectors():
    case = race.two_pathway_case(1.0)
    assert A.race_errors(*race.flow_and_race(case))[0] < 1e-7
    # the statistics read in a wrong (rotated) output basis are not diagonal
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((3, 3)))[0]
    M = (case["U"][0] @ Q).T @ case["syx"][0] @ case["V"]
    assert np.abs(M - np.diag(np.diag(M))).max() > 0.1


@pytest.mark.rejects("MHS-C-Eq(13-16)")
def test_pathway_statistics_reject_a_wrong_constant():
    syx, sx = tx.pathway_statistics(tx.X, tx.Y, (0, 1, 1, 0), tx.N)
    assert (syx - tx.SYX_POS).is_zero_matrix and (sx - tx.SX_POS).is_zero_matrix
    assert not (syx - sp.Matrix([[0, 0, tx.Delta]])).is_zero_matrix
    assert not (sx - 2 * tx.SX_POS).is_zero_matrix


@pytest.mark.rejects("MHS-C-Eq(17-19)")
def test_trajectory_check_rejects_a_flipped_exponent():
    rhs = 2 * tx.a * (tx.S_LIN - tx.D_LIN * tx.a) / tx.tau
    flipped = tx.TRAJ_19.subs(sp.exp(-tx.Delta * tx.t / tx.tau), sp.exp(tx.Delta * tx.t / tx.tau))
    assert not solves(flipped, rhs, tx.t, tx.a)["residual"]
    assert solves(tx.TRAJ_19, rhs, tx.t, tx.a)["residual"]


@pytest.mark.rejects("MHS-C-Eq(23)")
def test_plateau_loss_check_rejects_the_printed_variance():
    bad = tx.loss_at_plateau(tx.LOSS_23, tx.S_XOR, tx.D_XOR_PRINTED, tx.a, tx.s, tx.d)
    good = tx.loss_at_plateau(tx.LOSS_23, tx.S_XOR, tx.D_XOR, tx.a, tx.s, tx.d)
    assert bad == sp.Rational(-3, 2) and good == 0


@pytest.mark.rejects("MHS-C-Eq(24-26)")
def test_crossover_check_rejects_a_wrong_constant_or_equation():
    assert A.crossover_check(tx.CROSSOVER_EQ, tx.CROSSOVER, tx.Delta)[0] < 1e-45
    assert A.crossover_check(tx.CROSSOVER_EQ, sp.sqrt(sp.Rational(3, 4)), tx.Delta)[0] > 1e-3
    wrong = sp.Eq(tx.Delta / 2, sp.sqrt(sp.Rational(1, 4) + tx.Delta ** 2 / 16))
    assert A.crossover_check(wrong, tx.CROSSOVER, tx.Delta)[1] != [tx.CROSSOVER]


@pytest.mark.rejects("MHS-C-Eq(11,12)")
def test_dataset_check_rejects_flipped_labels():
    _X, y = ds.xor_margin(0.7)
    assert (sp.Matrix(y.tolist()) - tx.Y).is_zero_matrix
    assert not (sp.Matrix((-y).tolist()) - tx.Y).is_zero_matrix


@pytest.mark.rejects("MHS-F-Overlap")
def test_overlap_check_rejects_the_printed_values():
    X, Y = ds.contexts(4)
    assert A.overlap_error(tc.OVERLAP_PRINTED[4], 4, X, Y) > 0.1
    assert A.overlap_error(tc.OVERLAP.subs(tc.C, 4), 4, X, Y) < 1e-12
    assert A.overlap_error(sp.Rational(-1, 3), 3, *ds.contexts(3)) > 0.1


@pytest.mark.rejects("MHS-F-Closed")
def test_closed_form_check_rejects_the_printed_form():
    rhs = tc.CONTEXTUAL_RHS / tc.tau
    assert not is_zero(ode_residual(tc.CLOSED_PRINTED, rhs, tc.t, tc.B))
    assert is_zero(ode_residual(tc.CLOSED_CORRECTED, rhs, tc.t, tc.B))
    assert not is_zero(ode_residual(tc.CLOSED_CORRECTED.subs(tc.C - 1, tc.C), rhs, tc.t, tc.B))


@pytest.mark.rejects("MHS-Fig5")
def test_closed_form_loss_vanishes_only_with_the_right_gains():
    """The closed-form ReLN loss (theory.haste_slowly.contexts COMMON_GAIN, CONTEXT_GAIN) is 0 at
    the fixed points of every mode on the C-context data; a dropped factor C or 1/(C-1) is not."""
    from numerics.datasets import modes

    def loss_at_fixed_points(gain_ctx, C):
        X, Y = ds.contexts(C)
        N = X.shape[1]
        _, S, _, D, _ = modes(Y @ X.T / N, X @ X.T / N)
        _, _, S0, D0 = ds.overlap_and_rho(X, Y, C)
        f = sp.lambdify((tc.N, tc.S, tc.D, tc.pi), tc.COMMON_GAIN)
        g = sp.lambdify((tc.N, tc.C, tc.S, tc.D, tc.B), gain_ctx)
        return ds.zero_output_loss(Y) - np.sum(f(N, S, D, S / D)) \
            - np.sum(g(N, C, S0, D0, (C - 1) * S0 / D0))
    for C in (3, 4, 5):
        assert abs(loss_at_fixed_points(tc.CONTEXT_GAIN, C)) < 1e-10
        assert abs(loss_at_fixed_points(tc.CONTEXT_GAIN / tc.C, C)) > 1
        no_overlap = tc.C * tc.N * (tc.S * tc.B - tc.D * tc.B ** 2 / 2)
        assert abs(loss_at_fixed_points(no_overlap, C)) > 1


@pytest.mark.rejects("MHS-A-Loss", "MHS-A-NonDiag", "MHS-A-CoV")
def test_learning_rule_check_rejects_ascent_and_missing_transposes():
    assert A.learning_rule_error(+1) > 1.0
    assert A.learning_rule_error(-1) < 1e-12
    no_t = A.nondiag_reduction_error(lambda w1, w2, M, D: w2 @ (M - w2 @ w1 @ D),
                                     lambda w1, w2, M, D: w1 @ (M - w2 @ w1 @ D))
    assert no_t > 0.1


@pytest.mark.rejects("MHS-Lem4.1")
def test_lemma_check_tells_xor_from_staircase():
    assert not lemma.realisable(np.array([[0, 1], [1, 0]]))
    assert lemma.realisable(np.array([[1, 1], [1, 0]]))
    assert lemma.has_xor_submatrix(np.array([[1, 0, 1], [0, 1, 1]]))
    assert not lemma.lemma_form(np.array([[1, 1], [1, 0]]))


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
    right = A.rise_time(mode_strength(tt, s, d, 1e-4), tt, s / d)
    wrong = A.rise_time(mode_strength(tt, s * N, d * N, 1e-4), tt, s / d)
    assert abs(wrong - right) / right > 0.9


@pytest.mark.rejects("MHS-E-Interlace")
def test_interlacing_check_rejects_a_larger_submatrix():
    M = np.array([[3.0, 1.0], [1.0, 2.0]])
    assert A.interlacing_violation((M, [0, 1], [0, 1])) <= 1e-12
    assert A.interlacing_violation((np.diag([1.0, 0.1]), [0, 1], [0])) <= 1e-12
    # a "submatrix" scaled up is no submatrix: its singular values exceed M's
    grown = np.linalg.svd(2 * M, compute_uv=False) - np.linalg.svd(M, compute_uv=False)
    assert grown.max() > 1


@pytest.mark.rejects("MHS-E-Nonneg")
def test_nonneg_check_rejects_signed_data():
    assert A.sigma1_increase(np.array([[1.0, -1.0]]), np.array([[1.0, 1.0]]), [0]) > 0.5
    assert A.sigma1_increase(np.array([[1.0, 1.0]]), np.array([[1.0, 1.0]]), [0]) <= 0


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
    syx, sx = correlations(*hierarchy(2))
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

    from numerics.haste_slowly.gated import GatedNet, init_weights
    rng = np.random.default_rng(3)
    X, Y = torch.tensor(rng.standard_normal((5, 10))), torch.tensor(rng.standard_normal((3, 10)))
    W = init_weights([0], [(16, 5), (3, 16)], [0.5, 0.5])
    ref = equivalence.relu_autograd_trajectory([w[0] for w in W], X, Y, 5e-3, 20)
    dynamic, _ = equivalence.step_gated_training(W, X, Y, 5e-3, 20, recompute=True)
    assert max(float((a[0] - b).abs().max()) for a, b in zip(dynamic, ref)) < 1e-12
    linear = GatedNet([w.clone() for w in W], [np.ones((16, 10))])
    for _ in range(20):
        linear.step(X, Y, 5e-3)
    assert max(float((a[0] - b).abs().max()) for a, b in zip(linear.weights, ref)) > 1e-3


@pytest.mark.rejects("MHS-AlgB1")
def test_gate_finder_rejects_single_context_patterns():
    from numerics.haste_slowly import gate_finder as gf
    want = A.reln_patterns()
    rng = np.random.default_rng(0)
    rows = np.repeat(np.array(sorted(want)), 30, axis=0)
    noisy = np.abs(rows - (rng.random(rows.shape) < 0.05))
    found = {4: gf.find_gates(noisy, 4), 2: gf.find_gates(noisy, 2)}
    assert all(m.passed for m in E.kmeans_recovers(found))
    single = np.repeat(ds.context_gates(3, ds.k_of_c(3, 1)), 40, axis=0)
    assert not E.kmeans_recovers({4: gf.find_gates(single, 4)})[0].passed


@pytest.mark.rejects("MHS-Prop4.2")
def test_race_gap_check_rejects_a_faster_alternative():
    t = np.linspace(0, 10, 201)
    fast, slow = 1 / (1 + np.exp(2 * (t - 3))), 1 / (1 + np.exp(2 * (t - 5)))
    won = A.race_gap(slow, fast, 1.0)
    assert won["min"] >= -0.01 and won["strict share"] > 0.3
    lost = A.race_gap(fast, slow, 1.0)
    assert lost["min"] < -0.01 and lost["strict share"] == 0
