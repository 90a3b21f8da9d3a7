"""Set-up of Sec 3: model and loss (LR-Eq1), QQ^T (LR-Eq3), RSMs (LR-Eq4), NTK (LR-Eq5), whitening (LR-A1).

"""
import numpy as np
import pytest
import sympy as sp
import torch

from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.tasks import Task, whitened_inputs
from numerics.lazy_rich.training import linear_ensemble
from numerics.train import ensemble_loss, gd_step
from theory.conventions import convention, flow_time
from theory.lazy_rich import setting as su
from theory.registry import REGISTRY
from verify.lazy_rich import checks as ch


def _subs(expr, ni, nh, no, P, **mats):
    vals = {su.Ni: ni, su.Nh: nh, su.No: no, su.P: P}
    vals.update({getattr(su, k): sp.ImmutableMatrix(v) for k, v in mats.items()})
    out = sp.block_collapse(expr.subs(vals)).doit()
    return float(out) if out.is_number else np.array(sp.Matrix(out).evalf(), dtype=float)


@pytest.mark.claim("LR-Eq1")
def test_gradient_step_is_the_paper_flow(claim):
    task, W1, W2 = ch.problem(5, 3, 0.7, seed=1, n_samples=9)
    X = task.X * np.linspace(0.5, 1.5, 5)[:, None]             # unwhitened: the gradient form is general
    tk = Task(X, task.Y)
    loss, g1, g2 = REGISTRY["LR-Eq1"].printed
    printed_loss = float(_subs(loss, 5, 3, 3, 9, X=tk.X, Y=tk.Y, W1=W1, W2=W2))
    model = linear_ensemble(W1[None], W2[None])
    conv = convention("lazy_rich")
    torch_loss = float(ensemble_loss(model, torch.tensor(tk.X), torch.tensor(tk.Y), conv.train)[0])
    lr = 1e-2
    gd_step(model, torch.tensor(tk.X), torch.tensor(tk.Y), lr, conv.train)
    step1 = (model.W1[0].numpy() - W1) / lr
    step2 = (model.W2[0].numpy() - W2) / lr
    e1 = ch.rel_err(step1, _subs(g1, 5, 3, 3, 9, X=tk.X, Y=tk.Y, W1=W1, W2=W2))
    e2 = ch.rel_err(step2, _subs(g2, 5, 3, 3, 9, X=tk.X, Y=tk.Y, W1=W1, W2=W2))
    clock = float(flow_time(250, lr, 9, "lazy_rich"))
    # 1e-12: loss and one step of 5x9 float64 products; the clock 250 x 0.01 is exact up to one rounding (1e-15)
    claim.defined(abs(printed_loss - torch_loss) < 1e-12 and max(e1, e2) < 1e-12 and abs(clock - 2.5) < 1e-15,
                  f"1/2-mean loss printed {printed_loss:.6f} = torch {torch_loss:.6f}; one GD step / lr = printed "
                  f"W2^T(Syx - W2W1Sxx), (Syx - W2W1Sxx)W1^T to {max(e1, e2):.1g} (unwhitened X); 250 steps at lr "
                  f"0.01 -> t/tau = {clock:g} (tau = 1/lr)")


@pytest.mark.claim("LR-Eq3")
def test_qq_blocks(claim):
    task, W1, W2 = ch.problem(2, 6, -1.0, seed=2)
    qq = so.qq_from_weights(W1, W2)
    b = so.blocks(qq, 2)
    printed = _subs(REGISTRY["LR-Eq3"].printed, 2, 2, 6, 1, W1=W1, W2=W2)
    eig = np.linalg.eigvalsh(qq)
    # 1e-14: the printed block form and Q Q^T are the same products in another order; -1e-12 / 1e-10: eigenvalue
    # round-off of an 8 x 8 PSD matrix of entries O(1), so "PSD" and "rank <= Nh" are decided at 1e-10
    ok = (ch.rel_err(printed, qq) < 1e-14 and np.allclose(qq, qq.T) and eig.min() > -1e-12
          and np.sum(eig > 1e-10) <= 2 and ch.rel_err(b["W2W1"], W2 @ W1) < 1e-15)
    claim.defined(ok, f"QQ^T for (2,2,6): printed block form = Q Q^T ({ch.rel_err(printed, qq):.1g}); symmetric; min "
                      f"eigenvalue {eig.min():.1g}; rank {np.sum(eig > 1e-10)} <= Nh = 2; bottom-left block = W2W1")


@pytest.mark.claim("LR-Eq4")
def test_rsm_definitions(claim):
    task, W1, W2 = ch.problem(4, 3, 0.5, seed=3, n_samples=6)
    ri, ro = REGISTRY["LR-Eq4"].printed
    pi = _subs(ri, 4, 3, 3, 6, X=task.X, W1=W1)
    po = _subs(ro, 4, 3, 3, 6, Y=task.Y, W2=W2)
    # 1e-12 for RSM_I (products), 1e-10 for RSM_O (pseudo-inverse of W2W2^T, condition number up to ~1e2)
    ok = ch.rel_err(pi, kn.rsm_in(W1, task.X)) < 1e-12 and ch.rel_err(po, kn.rsm_out(W2, task.Y)) < 1e-10
    claim.defined(ok, "RSM_I = X^T W1^T W1 X and RSM_O = Y^T (W2W2^T)^+ Y (P x P): printed forms equal numerics.kernels")


@pytest.mark.claim("LR-Eq5")
def test_ntk_equals_jacobian_gram(claim):
    task, W1, W2 = ch.problem(3, 4, -0.8, seed=4, n_samples=5)
    err = ch.ntk_jacobian_error(kn.ntk, W1, W2, task.X)
    err_p = ch.ntk_jacobian_error(lambda a, b, x: _subs(REGISTRY["LR-Eq5"].printed, 3, 3, 4, 5, X=x, W1=a, W2=b), W1, W2, task.X)
    # 1e-10: J J^T vs the Kronecker form sum O(Nh P) float64 products; sympy substitution adds its own rounding
    claim.holds(max(err, err_p) <= 1e-10, f"(3,3,4), P = 5: J J^T (torch.func.jacrev) vs the formula: numerics {err:.1g}, "
                                           f"printed Kronecker form {err_p:.1g} <= 1e-10")


@pytest.mark.claim("LR-A1")
def test_whitened_inputs(claim):
    errs = [np.max(np.abs(whitened_inputs(n, P, np.random.default_rng(n + P)) @ whitened_inputs(n, P, np.random.default_rng(n + P)).T / P - np.eye(n)))
            for n, P in [(2, 2), (5, 10), (8, 25), (6, 6)]]
    with pytest.raises(ValueError):
        whitened_inputs(5, 4, np.random.default_rng(0))
    # 1e-12: QR-based whitening is exact up to float64 round-off of P-term sums
    claim.defined(max(errs) < 1e-12, f"Sxx = XX^T/P = I to {max(errs):.1g} for (Ni, P) in (2,2), (5,10), (8,25), (6,6); P < Ni raises")
