"""Random instances of the bias papers' two-layer network and the reference gradients of its
1/2-sum loss by torch autograd, for the checks of the printed gradient formulas (BL-Eq(8)-(10),
BL-Eq(16-18), BL-Def-Aug, BL-Setting)."""
from __future__ import annotations

import numpy as np
import torch

from numerics.datasets import augment
from numerics.models import TwoLayerEnsemble
from numerics.train import ensemble_loss
from numerics.validation import InvalidArgument, number
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


