"""The workshop paper's setting (§2) and App A: models, loss, clock, Eqs. (1)-(2)."""
import numpy as np
import pytest

from theory.bias_workshop import setting as ws
from theory.conventions import MEAN_HALF, flow_time
from theory.registry import REGISTRY
from verify.bias_workshop import figures
from verify.bias import symbolic as sym
from verify.measurement import paper, reading

TOL = 1e-12
FLOAT64 = reading("float64 forward passes and products of O(1) matrices")


@pytest.mark.claim("BA-S1")
def test_models_match_the_harness_and_coincide_when_always_on(claim):
    err_lin, err_relu, err_on, dead_zero = sym.model_checks(ws.MODELS.printed)
    claim.defined(
        claim.measure("rel err, printed linear W2(W1 x + b) vs harness", err_lin, "<=", TOL,
                      source=FLOAT64),
        claim.measure("rel err, printed ReLU (W~1 read as W1) vs harness", err_relu, "<=", TOL,
                      source=FLOAT64),
        claim.measure("rel err, ReLU vs linear gradients with every pre-activation > 0", err_on,
                      "<=", TOL, source=FLOAT64),
        claim.measure("dead unit: zero gradient in its W1 row, b and W2 column", bool(dead_zero),
                      "==", True, source=reading("exact zeros: ReLU'(x < 0) = 0")),
        note="3 in, 6 hidden, 2 out, 5 samples, c = 1")


@pytest.mark.claim("BA-S2")
def test_loss_and_one_gd_step_follow_the_stated_convention(claim):
    lr, N = 1e-3, 5
    loss_err = sym.loss_error(ws.LOSS.printed["loss"], 3, 6, 2, N, seed=4)
    step_err = sym.gd_step_error(lr, N)
    mean_ratio = float(flow_time(1.0, lr, N, "bias_workshop")
                       / flow_time(1.0, lr, N, "bias_workshop", trained_on=MEAN_HALF))
    claim.defined(
        claim.measure("rel err, printed 1/2-sum loss vs harness", loss_err, "<=", TOL,
                      source=FLOAT64),
        claim.measure("rel err, one GD step (lr 1e-3, N = 5) vs Euler step of tau W' = "
                      "W2^T(Syx - W2W1Sx) etc. with conventions.tau", step_err, "<=", 1e-10,
                      source=reading("float64 differences of O(lr) updates")),
        claim.measure("flow time of a 1/2-sum run over a 1/2-mean run at equal steps / N",
                      mean_ratio / N, "within", (1 - 1e-12, 1 + 1e-12), source=FLOAT64),
        claim.measure("hidden size", ws.LOSS.printed["hidden"], "==", 64,
                      source=paper("000 L654", "The network hidden size is set to 64")))


@pytest.mark.claim("BA-Eq(1)")
def test_correlations_and_shared_v_on_the_hierarchies(claim):
    errs, offdiag = sym.tree_correlation_errors(ws.CORRELATIONS.printed)
    claim.defined(
        claim.measure("max rel err, printed (1/N) YX^T, (1/N) XX^T, U S V^T and V D V^T vs numerics",
                      max(errs), "<=", TOL, source=FLOAT64),
        claim.measure("V^T Sx V off-diagonal / max d", max(offdiag), "<=", 1e-12, source=FLOAT64),
        note="4- and 8-item trees, without and with the bias row")


@pytest.mark.claim("BA-Eq(2)")
def test_product_stays_diagonal_only_from_a_decoupled_init(claim, decoupled_flows):
    forms = REGISTRY["BA-Eq(2)"].printed
    aligned = max(sym.off_diagonal_ratio(forms, f) for f in decoupled_flows[True])
    random = min(sym.off_diagonal_ratio(forms, f) for f in decoupled_flows[False])
    tol = reading("solve_ivp at rtol 1e-10 over the whole learning curve")
    name = "max_t ||offdiag(U^T W2W1 V)|| / max_t ||diag||"
    claim.holds_if(
        REGISTRY["BA-Eq(2)"].condition,
        under=claim.measure(f"aligned balanced init: {name}", aligned, "<=", 1e-8, source=tol),
        without=claim.measure(f"small random init, same effective a0 = 1e-3: {name}", random,
                              "<=", 1e-8, source=tol),
        counterexample="random init N(0, 2 a0/H): the product leaves the diagonal form",
        note="matrix gradient flow (tau = 1) on statistics sharing V, shapes (N_in, N_hid, N_out)"
             " = (5, 4, 3), (3, 6, 4)")


@pytest.mark.claim("BA-S3")
def test_tau_is_one_over_n_eps_in_trained_networks(claim, report_figure, trained_linear):
    tau_form = REGISTRY["BA-S3"].printed
    fitted, printed, conv, half = sym.fitted_time_constants(trained_linear["clock"], tau_form)
    _, printed2, _, half_dup = sym.fitted_time_constants(trained_linear["clock, data twice"],
                                                         tau_form)
    _, _, _, half_lr = sym.fitted_time_constants(trained_linear["clock, lr 4e-3"], tau_form)
    report_figure(figures.trained_modes_figure(trained_linear["clock"]), "BA-S3: mode strengths "
                  "of a trained linear network (4-item tree + bias, seed 0; markers) against Eq. "
                  "(3) with tau = 1/(N eps) and a0 fitted from each mode's half-rise (lines); time "
                  "in t/tau via theory.conventions.flow_time")
    fit_err = float(np.max(np.abs(fitted / printed - 1)))
    dup = float(np.max(np.abs(half_dup / half - 0.5))) / 0.5
    dbl = float(np.max(np.abs(half_lr / half - 0.5))) / 0.5
    gd = reading("GD vs flow differs by O(eps N s) ~ 1 %, and the degenerate modes mix slightly")
    claim.holds(
        claim.measure("max |tau_fit / (1/(N eps)) - 1|, logistic rate 2s/tau of modes 0-2",
                      fit_err, "<=", 0.02, source=gd),
        claim.measure("duplicated data (N = 8): max |half-rise ratio / 0.5 - 1|", dup, "<=", 0.02,
                      source=gd),
        claim.measure("doubled eps: max |half-rise ratio / 0.5 - 1|", dbl, "<=", 0.02, source=gd),
        claim.measure("rel diff of 1/(N eps) and conventions.tau", abs(printed - conv) / conv,
                      "<=", 1e-12, source=FLOAT64),
        claim.measure("1/(N eps) at N = 8 over N = 4", printed2 / printed, "within",
                      (0.5 - 1e-12, 0.5 + 1e-12), source=FLOAT64),
        note="linear networks, 4-item tree + bias, H = 32, 6 seeds, numpy GD, eps = 2e-3")
