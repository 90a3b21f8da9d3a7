"""The setting of the bias paper: notation, augmentation, Eqs. (1)-(4) and (6)."""
from functools import partial

import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import strategies as st

from theory.bias import effective_rank_formula as eq1
from theory.bias.linear_flow import app_b_corrected
from theory.bias import setting as st_
from theory.conventions import flow_time
from theory.registry import REGISTRY
from verify.bias import symbolic as sym
from verify.strategies import bias_strengths, equal_overlap_labels, label_matrices, \
    network_shapes, unbalanced_classes
from verify.measurement import exact, paper, reading
from verify.properties import search

TOL = 1e-12
FLOAT = reading("float64 products of O(1) matrices of size <= 8: a few ulp per entry")


@pytest.mark.claim("BL-Setting")
def test_setting_loss_correlations_and_clock_are_consistent(claim):
    loss_err = sym.loss_error(st_.SETTING.printed["loss"])
    corr_err, clock_err, shapes = sym.setting_errors(st_.SETTING.printed, lr=2e-4, c=1.0)
    claim.defined(
        claim.measure("printed 1/2-sum loss vs harness loss, rel err", loss_err, "<=", TOL,
                      source=FLOAT),
        claim.measure("Eq. (3) Sigma~yx, Sigma~x vs numerics.datasets.correlations, rel err",
                      corr_err, "<=", TOL, source=FLOAT),
        claim.measure("tau = 1/(P eps) vs theory.conventions.tau, rel err", clock_err, "<=", TOL,
                      source=FLOAT),
        claim.measure("hierarchy shapes X 4x4, Y 7x4, Sigma~yx 7x5, Sigma~x 5x5", shapes, "==",
                      True, source=exact("array shapes")),
        note="P = 4, eps = 2e-4, 4-item hierarchy")


@pytest.mark.claim("BL-Setting", "BA-S3")
def test_one_gd_step_is_one_step_of_the_flow_with_tau_p_eps(claim):
    """-eps dL/dW of the 1/2-sum loss equals (1/tau) x the flow right-hand side, tau = 1/(P eps):
    the clock of App B (L558) and of the workshop's App A (L133)."""
    forms = {**app_b_corrected, "tau": 1 / (st_.m.P * st_.m.eps)}
    errs = [max(e["flow_W1"], e["flow_W2"]) for e in (
        sym.linear_rate_errors(forms, *shape, seed=seed)
        for shape, seed in (((3, 5, 2, 6), 0), ((5, 2, 4, 3), 1), ((1, 1, 1, 1), 2)))]
    t_steps = flow_time(np.array([1.0, 1000.0]), 2e-4, 4, "bias")
    clock = float(np.max(np.abs(t_steps - [4 * 2e-4, 4 * 2e-4 * 1000]) / t_steps))
    claim.holds(
        claim.measure("-eps dL/dW (autograd) vs (1/tau) tau dW/dt, tau = 1/(P eps), max rel err",
                      max(errs), "<=", 1e-10, source=reading("autograd vs closed form in float64")),
        claim.measure("flow_time(1 and 1000 steps) vs P eps steps, rel err", clock, "<=", TOL,
                      source=FLOAT),
        note="3 shapes (N_in, N_hid, N_out, P) = (3,5,2,6), (5,2,4,3), (1,1,1,1); P = 4, eps = 2e-4")


@pytest.mark.claim("BL-Def-Aug")
def test_augmented_input_is_a_bias_of_strength_c(claim):
    prop = partial(sym.augmentation_error, st_.AUGMENTATION.printed["preactivation"])
    blocks = sp.block_collapse(st_.AUGMENTATION.printed["W1_aug"]
                              * st_.AUGMENTATION.printed["x_aug"])
    symbolic = bool(sp.simplify(blocks - (st_.m.W1 * st_.m.x + st_.m.c * st_.m.b)).is_ZeroMatrix)
    res = search(prop, ("<=", 1e-10), examples=[dict(shape=(3, 5, 2, 6), c=10.0, seed=0),
                                                dict(shape=(2, 4, 3, 5), c=-0.01, seed=1)],
                 shape=network_shapes, c=bias_strengths, seed=st.integers(0, 10_000))
    claim.defined(
        claim.measure("sympy block product [b W1][c; x] - (W1 x + c b) is the zero matrix",
                      symbolic, "==", True, source=exact("sympy block_collapse and simplify")),
        claim.measure("worst rel err of W~1 x~ = W1 x + c b (evaluated, harness) and dL/db = "
                      "c dL/d(cb) by autograd, c both signs in [1e-2, 1e2]", res,
                      source=reading("autograd vs closed form in float64, c up to 1e2")))


@pytest.mark.claim("BL-Eq(2)")
def test_network_definitions_as_printed_and_corrected(claim):
    def errors(forms, c, shape=(3, 5, 2, 4), seed=0):
        n_in, n_hid, n_out, p = shape
        values, model = sym.network_instance(n_in, n_hid, n_out, p, c, seed)
        dims = sym.dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out, p=p)
        pre = model.preactivation(torch.tensor(values["X"]))[0, :, :1].numpy()
        lin = values["W2"] @ pre
        return (sym.form_error(forms["linear"], dims, values, lin),
                sym.form_error(forms["relu_preactivation"], dims, values, pre))

    printed = {c: errors(st_.NETWORKS.printed, c) for c in (1.0, 10.0)}
    corrected = {c: errors(st_.NETWORKS.corrected, c) for c in (1.0, 10.0, -0.3)}
    general = search(lambda shape, c, seed: max(errors(st_.NETWORKS.corrected, c, shape, seed)),
                     ("<=", TOL), shape=network_shapes, c=bias_strengths,
                     seed=st.integers(0, 10_000))
    claim.erratum(
        printed=[claim.measure(f"printed (linear, ReLU argument) vs harness at c = {c:g}, max "
                               "rel err (inf: shapes do not conform)", min(max(v), 1e300), "<=",
                               TOL, source=FLOAT) for c, v in printed.items()],
        corrected=[claim.measure("corrected W1 x + c b vs harness, c in (1, 10, -0.3), max rel err",
                                 max(max(v) for v in corrected.values()), "<=", TOL, source=FLOAT),
                   claim.measure("corrected over shapes and c in +-[1e-2, 1e2], worst rel err",
                                 general, source=FLOAT)],
        counterexample="N_in=3, N_hid=5: W~1 (5x4) x_i (3x1) does not conform; read as "
                       "W~1 x~_i + b it double-counts b")


@pytest.mark.claim("BL-Eq(6)")
def test_svd_mapping_as_printed_and_corrected(claim):
    printed = sym.svd_chain_errors(st_.SVD_MAPPING.printed, 2.0)
    corrected = max(max(sym.svd_chain_errors(st_.SVD_MAPPING.corrected, c, seed=s).values())
                    for c, s in ((1.0, 0), (2.0, 1), (-0.5, 2)))
    general = search(lambda shape, c, seed: max(
                         sym.svd_chain_errors(st_.SVD_MAPPING.corrected, c, *shape, seed=seed).values()),
                     ("<=", TOL),
                     shape=st.tuples(st.integers(1, 5), st.integers(6, 8), st.integers(1, 4)),
                     c=bias_strengths, seed=st.integers(0, 10_000))
    claim.erratum(
        printed=[claim.measure(f"printed {name} vs W2 W~1 x~ at c = 2, rel err (inf: does not "
                               "conform)", min(e, 1e300), "<=", TOL, source=FLOAT)
                 for name, e in printed.items()],
        corrected=[claim.measure("corrected chain (x~_i, c b), c in (1, 2, -0.5), max rel err",
                                 corrected, "<=", TOL, source=FLOAT),
                   claim.measure("corrected over (N_in, N_hid, N_out) and c, worst rel err",
                                 general, source=FLOAT)],
        counterexample="W~1 x_i and V^T x_i do not conform (N_in+1 vs N_in); at c = 2 "
                       "W2(W1 x + b) misses the bias by a factor 2",
        note="aligned W2 W~1 = U A V~^T, N_in 3, N_hid 6, N_out 2")


@pytest.mark.claim("BL-Def-SimDiag")
def test_one_hot_inputs_share_v_only_with_equal_overlap_labels(claim, tree_labels):
    tol = reading("relative commutator norm; float64 products of entries O(1)")
    norm = partial(sym.commutator_norm, REGISTRY["BL-Def-SimDiag"].printed)
    under = search(norm, ("<=", 1e-12),
                   examples=[dict(Y=tree_labels[4], c=1.0), dict(Y=tree_labels[8], c=-0.1)],
                   Y=equal_overlap_labels(), c=bias_strengths)
    without = search(norm, ("<=", 1e-12),
                     examples=[dict(Y=np.array([[1, 1, 1, 0], [0, 0, 0, 1.0]]), c=1.0)],
                     Y=st.one_of(unbalanced_classes(), label_matrices()), c=bias_strengths)
    no_bias = max(norm(Y, 0.0) for Y in (np.array([[1, 1, 1, 0], [0, 0, 0, 1.0]]),
                                                        np.random.default_rng(0).normal(size=(3, 5))))
    claim.holds_if(
        REGISTRY["BL-Def-SimDiag"].condition,
        under=[claim.measure("relative ||[Syx~^T Syx~, Sx~]||, X = I_P, equal-overlap labels "
                             "(circulant blocks, trees)", under, source=tol),
               claim.measure("the same at c = 0 (no bias row), unbalanced and general labels",
                             no_bias, "<=", 1e-12, source=tol)],
        without=claim.measure("the same for unbalanced classes / general labels", without,
                              source=tol))


@pytest.mark.claim("BL-Eq(1)")
def test_effective_rank_extremes(claim):
    printed = sym.effective_rank_extremes(eq1.EQUATION_1.printed)
    corrected = sym.effective_rank_extremes(eq1.EQUATION_1.corrected)
    stated = paper("L94", "The measure is maximized when all singular values are equal and "
                           "is minimized when a only a single singular value dominates")
    claim.erratum(
        printed=claim.measure("printed rho(flat spectrum of 4) - rho(rank one)",
                              printed[0] - printed[1], ">", 0, source=stated),
        corrected=[claim.measure("corrected rho(flat spectrum of 4) - rho(rank one)",
                                 corrected[0] - corrected[1], ">", 0, source=stated),
                   claim.measure("corrected (rho(flat 4), rho(rank one)) vs (4, 1), max abs err",
                                 max(abs(corrected[0] - 4), abs(corrected[1] - 1)), "<=", 1e-12,
                                 source=reading("float64 exp/log of 4 numbers"))],
        counterexample="A = I_4: printed rho = -4 < -1 = rho(rank one), a minimum at the flat "
                       "spectrum")
