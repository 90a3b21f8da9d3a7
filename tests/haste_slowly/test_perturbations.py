"""Every exact MHS check rejects a perturbed version of the object it tests."""
import numpy as np
import sympy as sp

from numerics.haste_slowly import graph as G
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import lemma
from theory.haste_slowly import contexts as tc
from theory.haste_slowly import gdln as tg
from theory.haste_slowly import xor_margin as tx
from verify.checks.symbolic import is_zero, ode_residual
from verify.haste_slowly import checks


def test_forward_check_rejects_dropped_node_gates():
    def no_node_gates(g, W, x, ng, eg):
        return G.forward(g, W, x, np.ones_like(ng), eg)
    assert checks.path_sum_error(G.forward) < 1e-12
    assert checks.path_sum_error(no_node_gates) > 1e-3


def test_gradient_check_rejects_support_normalised_statistics():
    def per_support(graph, path, other, x, y, ng, eg):
        syx, sx = G.statistics(graph, path, other, x, y, ng, eg)
        n_on = max(G.path_gate(graph, path, ng, eg).sum(), 1.0)
        return syx * ng.shape[1] / n_on, sx * ng.shape[1] / n_on
    assert checks.path_gradient_error(per_support) > 1e-2


def test_clock_check_rejects_the_printed_time_constant():
    printed = lambda e, n: float(tg.TAU_PRINTED.subs({tg.N: n, tg.eps: e}))
    assert checks.clock_error(printed) > 0.5
    assert checks.clock_error(lambda e, n: 1 / e) < 2e-2


def test_race_check_rejects_missing_overlaps():
    assert checks.race_errors(np.ones((2, 2, 3)), overlap=-0.5)[1] > 0.1
    assert checks.data_race_error(3, np.ones((3, 3, 7)))[0] > 0.1
    assert checks.data_race_error(3)[0] < 1e-6


def test_pathway_statistics_reject_a_wrong_constant():
    syx, sx = checks.pathway_statistics(tx.X, tx.Y, (0, 1, 1, 0), tx.N)
    assert not (syx - sp.Matrix([[0, 0, tx.Delta]])).is_zero_matrix
    assert not (sx - 2 * tx.SX_POS).is_zero_matrix


def test_trajectory_check_rejects_a_flipped_exponent():
    rhs = 2 * tx.a * (tx.S_LIN - tx.D_LIN * tx.a) / tx.tau
    flipped = tx.TRAJ_19.subs(sp.exp(-tx.Delta * tx.t / tx.tau), sp.exp(tx.Delta * tx.t / tx.tau))
    assert not checks.solves(flipped, rhs, tx.t, tx.a)["residual"]
    assert checks.solves(tx.TRAJ_19, rhs, tx.t, tx.a)["residual"]


def test_plateau_loss_check_rejects_the_printed_variance():
    bad = checks.loss_at_plateau(tx.LOSS_23, tx.S_XOR, tx.D_XOR_PRINTED, tx.a, tx.s, tx.d)
    good = checks.loss_at_plateau(tx.LOSS_23, tx.S_XOR, tx.D_XOR, tx.a, tx.s, tx.d)
    assert bad == sp.Rational(-3, 2) and good == 0


def test_crossover_check_rejects_a_wrong_constant():
    assert checks.crossover_check(tx.S_LIN, tx.S_XOR, tx.CROSSOVER, tx.Delta)[0] < 1e-45
    assert checks.crossover_check(tx.S_LIN, tx.S_XOR, sp.sqrt(sp.Rational(3, 4)), tx.Delta)[0] > 1e-3


def test_overlap_check_rejects_the_printed_values():
    X, Y = ds.contexts(4)
    assert checks.overlap_error(tc.OVERLAP_PRINTED, 4, X, Y) > 0.1
    assert checks.overlap_error({4: tc.OVERLAP.subs(tc.C, 4)}, 4, X, Y) < 1e-12
    assert checks.overlap_error({3: sp.Rational(-1, 3)}, 3, *ds.contexts(3)) > 0.1


def test_closed_form_check_rejects_the_printed_form():
    rhs = tc.CONTEXTUAL_RHS / tc.tau
    assert not is_zero(ode_residual(tc.CLOSED_PRINTED, rhs, tc.t, tc.B))
    assert is_zero(ode_residual(tc.CLOSED_CORRECTED, rhs, tc.t, tc.B))
    wrong_k = tc.CLOSED_CORRECTED.subs(tc.C - 1, tc.C)
    assert not is_zero(ode_residual(wrong_k, rhs, tc.t, tc.B))


def test_learning_rule_check_rejects_ascent_and_missing_transposes():
    assert checks.learning_rule_error(+1) > 1.0
    assert checks.learning_rule_error(-1) < 1e-12
    no_t = checks.nondiag_reduction_error(lambda w1, w2, M, D: w2 @ (M - w2 @ w1 @ D),
                                          lambda w1, w2, M, D: w1 @ (M - w2 @ w1 @ D))
    assert no_t > 0.1


def test_lemma_check_tells_xor_from_staircase():
    assert not lemma.realisable(np.array([[0, 1], [1, 0]]))
    assert lemma.realisable(np.array([[1, 1], [1, 0]]))
    assert lemma.has_xor_submatrix(np.array([[1, 0, 1], [0, 1, 1]]))
    assert not lemma.lemma_form(np.array([[1, 1], [1, 0]]))
