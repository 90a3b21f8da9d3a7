"""Random instances of the bias papers' two-layer network and the reference gradients of its
1/2-sum loss by torch autograd, for the checks of the printed gradient formulas (BL-Eq(8)-(10),
BL-Eq(16-18), BL-Def-Aug, BL-Setting); the gradient of the linear flow's per-sample loss
(BL-Eq(19-20)); the harness's loss and one GD step of an instance (BL-Setting, BA-S2)."""
from __future__ import annotations

import numpy as np
import torch

from numerics.datasets import augment
from numerics.models import TwoLayerEnsemble
from numerics.train import ensemble_loss, gd_step
from numerics.validation import InvalidArgument, finite_array, number
from theory.conventions import SUM_HALF


def network_instance(n_in, n_hid, n_out, p, c, seed, *, activation="relu", scale=0.5):
    """Random weights, data and the harness's network (numerics.models) with bias strength c.

    Returns (values by symbol name, model).  Values include the per-sample ``x``/``x_aug``
    (first column), data X, X_aug, Y, H = act(Z), dsigma = act'(Z), ones, c, and the
    un-augmented correlations Syx, Sx.
    """
    for name, value in (("n_in", n_in), ("n_hid", n_hid), ("n_out", n_out), ("p", p)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be a positive integer")
    if not (np.isfinite(c) and np.isfinite(scale) and scale > 0):
        raise InvalidArgument(f"c={c!r} must be finite and scale={scale!r} positive")
    if isinstance(seed, bool) or int(seed) != seed:
        raise InvalidArgument(f"seed={seed!r} must be an integer")
    rng = np.random.default_rng(int(seed))
    W1 = rng.standard_normal((n_hid, n_in)) * scale
    b = rng.standard_normal((n_hid, 1)) * scale
    W2 = rng.standard_normal((n_out, n_hid)) * scale
    X = rng.standard_normal((n_in, p))
    Y = rng.standard_normal((n_out, p))
    W1_aug = np.hstack([b, W1])
    model = TwoLayerEnsemble(torch.tensor(W1_aug[None]), torch.tensor(W2[None]), activation,
                             bias_strength=float(c))
    Z = model.preactivation(torch.tensor(X))[0].numpy()
    X_aug = augment(X, c)
    values = dict(W1=W1, b=b, W2=W2, W1_aug=W1_aug, X=X, Y=Y, X_aug=X_aug, x=X[:, :1],
                  x_aug=X_aug[:, :1], H=np.maximum(Z, 0) if activation == "relu" else Z,
                  dsigma=(Z > 0).astype(float) if activation == "relu" else np.ones_like(Z),
                  ones=np.ones((p, 1)), ones_out=np.ones((n_out, 1)), c=float(c),
                  Syx=Y @ X.T / p, Sx=X @ X.T / p)
    return values, model


def autograd_rates(model, X, Y, lr) -> dict:
    """``-lr dL/dtheta`` of the 1/2-sum loss by torch autograd: W2, W1 (no bias column), b."""
    lr = number(lr, "lr")
    W1, W2 = model.W1.clone().requires_grad_(True), model.W2.clone().requires_grad_(True)
    probe = TwoLayerEnsemble(W1, W2, model.activation, model.bias_strength)
    loss = ensemble_loss(probe, torch.tensor(X), torch.tensor(Y), SUM_HALF).sum()
    g1, g2 = torch.autograd.grad(loss, [W1, W2])
    g1, g2 = -lr * g1[0].numpy(), -lr * g2[0].numpy()
    if model.bias_strength is None:
        return {"W1": g1, "W2": g2}
    return {"W1": g1[:, 1:], "b": g1[:, :1], "W2": g2}




def _one_member(model, X, Y):
    """``X``, ``Y`` as finite (rows, P) arrays with P shared, checked against a one-member
    ``model`` (``network_instance``'s)."""
    X, Y = finite_array(X, "X", ndim=2), finite_array(Y, "Y", ndim=2)
    if X.shape[1] != Y.shape[1]:
        raise InvalidArgument(f"X {X.shape} and Y {Y.shape} must have the same number of samples")
    if model.K != 1:
        raise InvalidArgument(f"model has {model.K} members; one (a network_instance) expected")
    return X, Y


def flow_loss_rates(W1, W2, Syx, Sx) -> tuple[np.ndarray, np.ndarray]:
    """``(-dl/dW1, -dl/dW2)`` of the linear flow's per-sample loss
    ``l(W1, W2) = -tr(W2 W1 Syx^T) + 1/2 tr(W2 W1 Sx W1^T W2^T)`` by torch autograd, as numpy
    arrays: the right-hand sides ``tau dW1/dt``, ``tau dW2/dt`` of the full flow (BL-Eq(18)),
    the reference that BL-Eq(19-20)'s reduced flow is checked against.  Time is the paper's t in
    units of tau (``theory.conventions.tau``): the rates are per unit of t/tau.

    ``W1`` (n_hid, n_in), ``W2`` (n_out, n_hid), ``Syx`` (n_out, n_in), ``Sx`` (n_in, n_in).
    """
    W1, W2 = finite_array(W1, "W1", ndim=2), finite_array(W2, "W2", ndim=2)
    n_hid, n_in = W1.shape
    if W2.shape[1] != n_hid:
        raise InvalidArgument(f"W2 {W2.shape} must have {n_hid} columns, the rows of W1 {W1.shape}")
    Syx = finite_array(Syx, "Syx", shape=(W2.shape[0], n_in))
    Sx = finite_array(Sx, "Sx", shape=(n_in, n_in))
    W1 = torch.tensor(W1, requires_grad=True)
    W2 = torch.tensor(W2, requires_grad=True)
    Syx, Sx = torch.tensor(Syx), torch.tensor(Sx)
    flow_loss = -torch.trace(W2 @ W1 @ Syx.T) + 0.5 * torch.trace(W2 @ W1 @ Sx @ W1.T @ W2.T)
    g1, g2 = torch.autograd.grad(flow_loss, [W1, W2])
    return -g1.numpy(), -g2.numpy()


def instance_loss(model, X, Y) -> float:
    """The harness's 1/2-sum loss ``1/2 sum_mu ||y_mu - model(x_mu)||^2``
    (``numerics.train.ensemble_loss`` under ``theory.conventions.SUM_HALF``) of a one-member
    network (``network_instance``'s model) on data ``X`` (n_in, P), ``Y`` (n_out, P): the loss
    BL-Setting and BA-S2 print."""
    X, Y = _one_member(model, X, Y)
    return float(ensemble_loss(model, torch.tensor(X), torch.tensor(Y), SUM_HALF)[0])


def gd_step_weights(model, X, Y, lr) -> tuple[np.ndarray, np.ndarray]:
    """``(W1, W2)`` of a one-member network (``network_instance``'s model; W1 with its bias
    column where it has one) after one step of the harness's full-batch GD
    (``numerics.train.gd_step``) on the 1/2-sum loss at learning rate ``lr``, on data ``X``
    (n_in, P), ``Y`` (n_out, P); ``model`` itself is left unchanged.  BA-S2: in the paper's
    time the step lasts ``1 / tau`` units of t (``theory.conventions.tau(lr, P, paper)``), the
    length of the Euler step it is compared with."""
    X, Y = _one_member(model, X, Y)
    lr = number(lr, "lr", positive=True)
    step = TwoLayerEnsemble(model.W1.clone(), model.W2.clone(), model.activation,
                            model.bias_strength)
    gd_step(step, torch.tensor(X), torch.tensor(Y), lr, SUM_HALF)
    return step.W1[0].numpy(), step.W2[0].numpy()
