"""Set-up of Sec 3: model and loss (LR-Eq1), QQ^T (LR-Eq3), RSMs (LR-Eq4), NTK (LR-Eq5), whitening
(LR-A1).  Time is t/tau (tau = 1/lr on the 1/2-mean loss)."""
import numpy as np
import pytest
import sympy as sp
import torch

from numerics.lazy_rich import comparisons as cmp
from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.experiments import problem
from numerics.metrics import rel_err
from numerics.lazy_rich.tasks import Task, whitened_inputs
from numerics.lazy_rich.training import linear_ensemble
from numerics.train import ensemble_loss, gd_step
from theory.conventions import convention, flow_time
from theory.lazy_rich import setting as su
from theory.registry import REGISTRY
from verify.lazy_rich import evidence
from verify.measurement import paper, reading

ROUNDOFF = reading("float64 round-off of products of O(1) matrices")


def _subs(expr, ni, nh, no, P, **mats):
    vals = {su.Ni: ni, su.Nh: nh, su.No: no, su.P: P}
    vals.update({getattr(su, k): sp.ImmutableMatrix(v) for k, v in mats.items()})
    out = sp.block_collapse(expr.subs(vals)).doit()
    return float(out) if out.is_number else np.array(sp.Matrix(out).evalf(), dtype=float)


@pytest.mark.claim("LR-Eq1")
def test_gradient_step_is_the_paper_flow(claim):
    task, W1, W2 = problem(5, 3, 0.7, seed=1, n_samples=9)
    tk = Task(task.X * np.linspace(0.5, 1.5, 5)[:, None], task.Y)   # unwhitened: the gradient form is general
    printed = REGISTRY["LR-Eq1"].printed
    mats = dict(X=tk.X, Y=tk.Y, W1=W1, W2=W2)
    printed_loss = _subs(printed.loss, 5, 3, 3, 9, **mats)
    model = linear_ensemble(W1[None], W2[None])
    conv = convention("lazy_rich")
    torch_loss = float(ensemble_loss(model, torch.tensor(tk.X), torch.tensor(tk.Y), conv.train)[0])
    lr = 1e-2
    gd_step(model, torch.tensor(tk.X), torch.tensor(tk.Y), lr, conv.train)
    e1 = rel_err((model.W1[0].numpy() - W1) / lr, _subs(printed.grad_w1, 5, 3, 3, 9, **mats))
    e2 = rel_err((model.W2[0].numpy() - W2) / lr, _subs(printed.grad_w2, 5, 3, 3, 9, **mats))
    clock = float(flow_time(250, lr, 9, "lazy_rich"))
    claim.defined(
        claim.measure("|printed 1/2-mean loss - torch training loss|", abs(printed_loss - torch_loss), "<=", 1e-12,
                      source=ROUNDOFF),
        claim.measure("one GD step / lr vs printed tau dW1/dt, tau dW2/dt, max rel err", max(e1, e2), "<=", 1e-12,
                      source=ROUNDOFF),
        claim.measure("t/tau after 250 steps at lr 0.01 (tau = 1/lr)", clock, "within", (2.5 - 1e-15, 2.5 + 1e-15),
                      source=reading("t/tau = steps x lr exactly, up to one rounding")),
        note="(5,3,3), P = 9, unwhitened X (Sxx != I), lambda 0.7")


@pytest.mark.claim("LR-Eq3")
def test_qq_blocks(claim):
    _, W1, W2 = problem(2, 6, -1.0, seed=2)
    qq = so.qq_from_weights(W1, W2)
    printed = _subs(REGISTRY["LR-Eq3"].printed, 2, 2, 6, 1, W1=W1, W2=W2)
    eig = np.linalg.eigvalsh(qq)
    claim.defined(
        claim.measure("printed block form vs Q Q^T, max rel err", rel_err(printed, qq), "<=", 1e-14, source=ROUNDOFF),
        claim.measure("|QQ^T - (QQ^T)^T|", float(np.max(np.abs(qq - qq.T))), "<=", 1e-14, source=ROUNDOFF),
        claim.measure("smallest eigenvalue of QQ^T (PSD)", float(eig.min()), ">=", -1e-12,
                      source=reading("eigenvalue round-off of an 8 x 8 PSD matrix")),
        claim.measure("eigenvalues above 1e-10 (rank <= Nh = 2)", int(np.sum(eig > 1e-10)), "<=", 2,
                      source=paper("L30 (reconstructed, catalogue)", "QQ^T ... Q = [W1^T; W2]")),
        claim.measure("bottom-left block vs W2W1, max rel err", rel_err(so.blocks(qq, 2)["W2W1"], W2 @ W1), "<=", 1e-15,
                      source=ROUNDOFF),
        note="inverted funnel (2,2,6), lambda -1")


@pytest.mark.claim("LR-Eq4")
def test_rsm_definitions(claim):
    task, W1, W2 = problem(4, 3, 0.5, seed=3, n_samples=6)
    printed = REGISTRY["LR-Eq4"].printed
    pi = _subs(printed.rsm_in, 4, 3, 3, 6, X=task.X, W1=W1)
    po = _subs(printed.rsm_out, 4, 3, 3, 6, Y=task.Y, W2=W2)
    claim.defined(
        claim.measure("printed RSM_I = X^T W1^T W1 X vs numerics, max rel err", rel_err(pi, kn.rsm_in(W1, task.X)),
                      "<=", 1e-12, source=ROUNDOFF),
        claim.measure("printed RSM_O = Y^T (W2W2^T)^+ Y vs numerics, max rel err", rel_err(po, kn.rsm_out(W2, task.Y)),
                      "<=", 1e-10, source=reading("pseudo-inverse of W2W2^T, condition number up to ~1e2")),
        note="(4,3,3), P = 6, lambda 0.5")


@pytest.mark.claim("LR-Eq5")
def test_ntk_equals_jacobian_gram(claim):
    task, W1, W2 = problem(3, 4, -0.8, seed=4, n_samples=5)
    printed = REGISTRY["LR-Eq5"].printed
    err = cmp.ntk_jacobian_error(kn.ntk, W1, W2, task.X)
    err_p = cmp.ntk_jacobian_error(lambda a, b, x: _subs(printed, 3, 3, 4, 5, X=x, W1=a, W2=b), W1, W2, task.X)
    tol = reading("J J^T vs the Kronecker form: sums of O(Nh P) float64 products")
    claim.holds(claim.measure("numerics NTK vs J J^T (torch.func.jacrev), max rel err", err, "<=", 1e-10, source=tol),
                claim.measure("printed Kronecker form vs J J^T, max rel err", err_p, "<=", 1e-10, source=tol),
                note="(3,3,4), P = 5, lambda -0.8, output-major ordering")


@pytest.mark.claim("LR-A1")
def test_whitened_inputs(claim):
    errs = []
    for n, P in [(2, 2), (5, 10), (8, 25), (6, 6)]:
        X = whitened_inputs(n, P, np.random.default_rng(n + P))
        errs.append(evidence.equation_residual(REGISTRY["LR-A1"].printed, {su.X: X, su.P: P, su.Ni: n}))
    with pytest.raises(ValueError):
        whitened_inputs(5, 4, np.random.default_rng(0))
    claim.defined(claim.measure("printed XX^T/P = I: max |lhs - rhs| over (Ni, P) = (2,2), (5,10), (8,25), (6,6)", max(errs), "<=", 1e-12,
                                source=reading("QR-based whitening: round-off of P-term sums")),
                  note="P < Ni raises (A1 needs P >= Ni)")
