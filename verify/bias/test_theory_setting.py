"""The setting of the bias paper: notation, augmentation, Eqs. (1)-(4) and (6)."""
import numpy as np
import pytest
import torch
from hypothesis import strategies as st

from numerics.datasets import correlations, hierarchy
from numerics.train import ensemble_loss
from theory.bias import effective_rank_formula as eq1
from theory.bias import setting as st_
from theory.conventions import SUM_HALF, flow_time, tau
from theory.registry import REGISTRY
from verify.bias import checks as ck
from verify.bias.strategies import bias_strengths, equal_overlap_labels, label_matrices, \
    network_shapes, unbalanced_classes
from verify.properties import search

TOL = 1e-12   # float64 products of O(1) matrices of size <= 8: a few ulp per entry


@pytest.mark.claim("BL-Setting")
def test_setting_loss_correlations_and_clock_are_consistent(claim):
    X, Y = hierarchy(2)
    P, lr, c = X.shape[1], 2e-4, 1.0
    values, model = ck.network_instance(3, 5, 2, 6, c, seed=1)
    dims = ck.dims_of(n_in=3, n_hid=5, n_out=2, p=6)
    y_hat = model(torch.tensor(values["X"]))[0].numpy()
    printed_loss = ck.evaluate(st_.setting["loss"], dims, {**values, "Y_hat": y_hat}).item()
    harness_loss = float(ensemble_loss(model, torch.tensor(values["X"]), torch.tensor(values["Y"]),
                                       SUM_HALF)[0])
    loss_err = abs(printed_loss - harness_loss) / harness_loss
    d4 = ck.dims_of(n_in=4, p=4, n_out=7)
    syx, sx = correlations(X, Y, c)
    aug = {"Y": Y, "X_aug": np.vstack([np.full((1, P), c), X]), "P": P}
    corr_err = max(ck.rel_err(ck.evaluate(st_.setting["Syx_aug"], d4, aug), syx),
                   ck.rel_err(ck.evaluate(st_.setting["Sx_aug"], d4, aug), sx))
    printed_tau = float(st_.setting["tau"].subs({st_.m.P: P, st_.m.eps: lr}))
    clock_err = abs(printed_tau - tau(lr, P, "bias")) / printed_tau
    shapes = (X.shape, Y.shape, syx.shape, sx.shape) == ((4, 4), (7, 4), (7, 5), (5, 5))
    ok = loss_err <= TOL and corr_err <= TOL and clock_err <= TOL and shapes
    claim.defined(ok, f"printed 1/2-sum loss vs harness loss: rel err {loss_err:.1g}; Eq. (3) "
                      f"Sigma~ vs numerics.datasets.correlations: {corr_err:.1g}; tau = 1/(P eps) "
                      f"= {printed_tau:g} vs conventions.tau = {tau(lr, P, 'bias'):g} (P = 4, eps "
                      f"= 2e-4); hierarchy shapes X 4x4, Y 7x4, Sigma~yx 7x5, Sigma~x 5x5: {shapes}")


@pytest.mark.claim("BL-Setting", "BA-S3")
def test_one_gd_step_is_one_step_of_the_flow_with_tau_p_eps(claim):
    """-eps dL/dW of the 1/2-sum loss equals (1/tau) x the flow right-hand side, tau = 1/(P eps):
    the clock of App B (L558) and of the workshop's App A (L133)."""
    from theory.bias.linear_flow import app_b_corrected
    errs = []
    for shape, seed in (((3, 5, 2, 6), 0), ((5, 2, 4, 3), 1), ((1, 1, 1, 1), 2)):
        e = ck.linear_rate_errors({**app_b_corrected,
                                   "tau": 1 / (st_.m.P * st_.m.eps)}, *shape, seed=seed)
        errs.append(max(e["flow_W1"], e["flow_W2"]))
    t_steps = flow_time(np.array([1.0, 1000.0]), 2e-4, 4, "bias")
    ok = max(errs) <= 1e-10 and np.allclose(t_steps, [4 * 2e-4, 4 * 2e-4 * 1000])
    claim.holds(ok, f"-eps dL/dW (autograd) vs (1/tau) tau dW/dt with tau = 1/(P eps), 3 shapes: "
                    f"max rel err {max(errs):.1g} <= 1e-10 (float64 rounding); flow_time(1 step) "
                    f"= P eps = {t_steps[0]:g}")


@pytest.mark.claim("BL-Def-Aug")
def test_augmented_input_is_a_bias_of_strength_c(claim):
    def prop(shape, c, seed):
        n_in, n_hid, n_out, p = shape
        values, model = ck.network_instance(n_in, n_hid, n_out, p, c, seed)
        dims = ck.dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out, p=p)
        pre = ck.evaluate(st_.augmentation["preactivation"], dims, values)
        direct = values["W1"] @ values["x"] + c * values["b"]
        harness = model.preactivation(torch.tensor(values["X"]))[0, :, :1].numpy()
        # gradient wrt the bias column = c x gradient wrt the effective bias beta = c b
        rates = ck.autograd_rates(model, values["X"], values["Y"], 1.0)
        beta_rate = ((values["W2"].T @ (values["Y"] - values["W2"] @ values["H"]))
                     * values["dsigma"]).sum(1, keepdims=True)
        err = max(ck.rel_err(pre, direct), ck.rel_err(harness, direct),
                  ck.rel_err(rates["b"], c * beta_rate))
        return err <= 1e-10, err     # autograd vs closed form: float64 rounding, c up to 1e2

    import sympy as sp
    blocks = sp.block_collapse(st_.augmentation["W1_aug"] * st_.augmentation["x_aug"])
    symbolic = bool(sp.simplify(blocks - (st_.m.W1 * st_.m.x + st_.m.c * st_.m.b)).is_ZeroMatrix)
    res = search(prop, examples=[dict(shape=(3, 5, 2, 6), c=10.0, seed=0),
                                 dict(shape=(2, 4, 3, 5), c=-0.01, seed=1)],
                 shape=network_shapes, c=bias_strengths, seed=st.integers(0, 10_000))
    claim.defined(res.ok and symbolic,
                  f"sympy block product [b W1][c; x] = W1 x + c b: {symbolic}; "
                  + res.evidence("W~1 x~ = W1 x + c b (evaluated, harness) and dL/db = c dL/d(cb)"
                                 " by autograd, c both signs in [1e-2, 1e2], rel err <= 1e-10"))


@pytest.mark.claim("BL-Eq(2)")
def test_network_definitions_as_printed_and_corrected(claim):
    def errors(forms, c, shape=(3, 5, 2, 4), seed=0):
        n_in, n_hid, n_out, p = shape
        values, model = ck.network_instance(n_in, n_hid, n_out, p, c, seed)
        dims = ck.dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out, p=p)
        pre = model.preactivation(torch.tensor(values["X"]))[0, :, :1].numpy()
        lin = values["W2"] @ pre
        return (ck.form_error(forms["linear"], dims, values, lin),
                ck.form_error(forms["relu_preactivation"], dims, values, pre))

    printed = {c: errors(st_.networks_printed, c) for c in (1.0, 10.0)}
    corrected = {c: errors(st_.networks_corrected, c) for c in (1.0, 10.0, -0.3)}
    general = search(lambda shape, c, seed: (lambda e: (e <= TOL, e))(
                         max(errors(st_.networks_corrected, c, shape, seed))),
                     shape=network_shapes, c=bias_strengths, seed=st.integers(0, 10_000))
    corrected_ok = max(max(v) for v in corrected.values()) <= TOL and general.ok
    printed_ok = max(max(v) for v in printed.values()) <= TOL
    claim.erratum(printed_ok, corrected_ok,
                  f"printed (linear, ReLU argument) rel errs vs the harness: c=1 {printed[1.0]}, "
                  f"c=10 {printed[10.0]} (inf = shapes do not conform); corrected W1 x + c b: "
                  f"max {max(max(v) for v in corrected.values()):.1g} for c in (1, 10, -0.3); "
                  + general.evidence("corrected over shapes and c in +-[1e-2, 1e2]"),
                  counterexample="N_in=3, N_hid=5: W~1 (5x4) x_i (3x1) does not conform; read "
                                 "as W~1 x~_i + b it double-counts b")


@pytest.mark.claim("BL-Eq(6)")
def test_svd_mapping_as_printed_and_corrected(claim):
    def chain_errors(forms, c, n_in=3, n_hid=6, n_out=2, seed=0):
        rng = np.random.default_rng(seed)
        U, V = ck.random_orthogonal(n_out, rng), ck.random_orthogonal(n_in + 1, rng)
        R = ck.random_orthogonal(n_hid, rng)
        r = min(n_out, n_in + 1)
        a = rng.uniform(0.2, 2.0, r)
        A = np.zeros((n_out, n_in + 1))
        A[np.arange(r), np.arange(r)] = a
        W2 = U[:, :r] @ np.diag(np.sqrt(a)) @ R[:, :r].T        # aligned: W2 W~1 = U A V^T
        W1_aug = R[:, :r] @ np.diag(np.sqrt(a)) @ V[:, :r].T
        x = rng.standard_normal((n_in, 1))
        x_aug = np.vstack([[[c]], x])
        values = dict(U=U, V_aug=V, A=A, W2=W2, W1_aug=W1_aug, W1=W1_aug[:, 1:],
                      b=W1_aug[:, :1], x=x, x_aug=x_aug, c=c)
        ref = W2 @ W1_aug @ x_aug
        dims = ck.dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out)
        return [ck.form_error(f, dims, values, ref) for f in forms]

    printed = chain_errors(st_.svd_mapping_printed, 2.0)
    corrected = max(max(chain_errors(st_.svd_mapping_corrected, c, seed=s))
                    for c, s in ((1.0, 0), (2.0, 1), (-0.5, 2)))
    general = search(lambda shape, c, seed: (lambda e: (e <= TOL, e))(
                         max(chain_errors(st_.svd_mapping_corrected, c, *shape, seed=seed))),
                     shape=st.tuples(st.integers(1, 5), st.integers(6, 8), st.integers(1, 4)),
                     c=bias_strengths, seed=st.integers(0, 10_000))
    claim.erratum(max(printed) <= TOL, corrected <= TOL and general.ok,
                  f"aligned W2 W~1 = U A V~^T (N_in 3, N_hid 6, N_out 2): printed chain rel errs "
                  f"{[f'{e:.2g}' for e in printed]} at c = 2 (inf = does not conform); corrected "
                  f"(x~_i, c b) max {corrected:.1g} for c in (1, 2, -0.5); "
                  + general.evidence("corrected over (N_in, N_hid, N_out) and c"),
                  counterexample="W~1 x_i and V^T x_i do not conform (N_in+1 vs N_in); at c = 2 "
                                 "W2(W1 x + b) misses the bias by a factor 2")


@pytest.mark.claim("BL-Def-SimDiag")
def test_one_hot_inputs_share_v_only_with_equal_overlap_labels(claim):
    tol = 1e-12   # relative commutator norm; float64 products of entries O(1)
    under = search(lambda Y, c: (lambda e: (e <= tol, e))(ck.commutator_norm(Y, c)),
                   examples=[dict(Y=hierarchy(2)[1], c=1.0), dict(Y=hierarchy(3)[1], c=-0.1)],
                   Y=equal_overlap_labels(), c=bias_strengths)
    without = search(lambda Y, c: (lambda e: (e <= tol, e))(ck.commutator_norm(Y, c)),
                     examples=[dict(Y=np.array([[1, 1, 1, 0], [0, 0, 0, 1.0]]), c=1.0)],
                     Y=st.one_of(unbalanced_classes(), label_matrices()), c=bias_strengths)
    no_bias = max(ck.commutator_norm(Y, 0.0) for Y in (np.array([[1, 1, 1, 0], [0, 0, 0, 1.0]]),
                                                        np.random.default_rng(0).normal(size=(3, 5))))
    claim.holds_if(REGISTRY["BL-Def-SimDiag"].condition, under.ok and no_bias <= tol, without.ok,
                   under.evidence("relative ||[Syx~^T Syx~, Sx~]|| for X = I_P, equal-overlap "
                                  "labels (circulant blocks, trees)") + "; "
                   + without.evidence("the same for unbalanced classes / general labels")
                   + f"; c = 0 (no bias row): {no_bias:.1g}",
                   counterexample=without.counterexample or "")


@pytest.mark.claim("BL-Eq(1)")
def test_effective_rank_extremes(claim):
    printed = ck.effective_rank_extremes(eq1.EQUATION_1.printed)
    corrected = ck.effective_rank_extremes(eq1.EQUATION_1.corrected)
    claim.erratum(printed[0] > printed[1], corrected == (4.0, 1.0),
                  f"rho(flat spectrum of 4) = {printed[0]:g}, rho(rank one) = {printed[1]:g} as "
                  f"printed; corrected: {corrected[0]:g} and {corrected[1]:g}",
                  counterexample="A = I_4: printed rho = -4 < -1 = rho(rank one), a minimum at the "
                                 "flat spectrum")
