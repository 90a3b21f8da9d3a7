"""Full-batch gradient descent of an ensemble, all members in one batched program.

The loss normalisation comes from ``theory.conventions`` (a :class:`LossNorm`), and the time axis
of the returned :class:`History` is converted to the paper's ``t / tau`` through
``theory.conventions.flow_time`` only.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch
from tqdm.auto import tqdm

from numerics.models import as_tensor
from theory.conventions import LossNorm, convention, flow_time


@dataclass
class History:
    steps: np.ndarray            # (T,) steps at which records were taken
    t_over_tau: np.ndarray       # (T,) the paper's time
    loss: np.ndarray             # (T, K)
    records: dict = field(default_factory=dict)   # name -> (T, K, ...)


def ensemble_loss(model, X, Y, loss: LossNorm) -> torch.Tensor:
    """(K,) losses ``factor * sum ||Y - model(X)||^2``."""
    err = model(X) - Y
    return loss.factor(X.shape[-1]) * (err ** 2).sum(dim=(-2, -1))


def gd_step(model, X, Y, lr, loss: LossNorm) -> torch.Tensor:
    """One gradient step on every member; ``lr`` scalar or (K,). Returns the (K,) losses before.

    Uses the model's own ``gradients(X, Y, factor)`` where it has one, autograd otherwise.
    """
    params = model.params
    if hasattr(model, "gradients"):
        losses, grads = model.gradients(X, Y, loss.factor(X.shape[-1]))
    else:
        for p in params:
            p.requires_grad_(True)
        losses = ensemble_loss(model, X, Y, loss)
        # members are independent, so the gradient of the sum is each member's own gradient
        grads = torch.autograd.grad(losses.sum(), params)
        for p in params:
            p.requires_grad_(False)
    with torch.no_grad():
        for p, g in zip(params, grads):
            p -= lr.reshape(-1, *([1] * (p.ndim - 1))) * g if torch.is_tensor(lr) else lr * g
    return losses.detach()


def train(model, X, Y, *, lr, steps: int, paper: str, loss: LossNorm | None = None,
          record_every: int = 100, record=None, progress: bool | None = None) -> History:
    """Train ``model`` (in place) for ``steps`` full-batch GD steps on the paper's loss.

    ``lr``: float or (K,) array (one rate per member).  ``record(model) -> dict of tensors`` is
    called every ``record_every`` steps and at the end.  ``X`` is (n_in, P), ``Y`` (n_out, P) or
    (K, n_out, P).  Times are returned in steps and as the paper's ``t / tau``.
    """
    device, dtype = model.W1.device, model.W1.dtype
    X = as_tensor(X, "X", ndim=(2, 3), dtype=dtype, device=device)
    Y = as_tensor(Y, "Y", ndim=(2, 3), dtype=dtype, device=device)
    if X.shape[-1] != Y.shape[-1]:
        raise ValueError(f"X has {X.shape[-1]} samples but Y has {Y.shape[-1]}")
    if int(steps) != steps or steps < 0:
        raise ValueError(f"steps={steps!r} must be a non-negative integer")
    if int(record_every) != record_every or record_every < 1:
        raise ValueError(f"record_every={record_every!r} must be a positive integer")
    lr_arr = np.asarray(lr, dtype=float)
    if not np.all(np.isfinite(lr_arr)) or np.any(lr_arr <= 0):
        raise ValueError(f"lr={lr!r} must be positive and finite")
    if lr_arr.ndim == 1 and lr_arr.shape != (model.K,):
        raise ValueError(f"lr must be a scalar or have shape ({model.K},)")
    lr_t = torch.as_tensor(lr_arr, dtype=dtype, device=device) if lr_arr.ndim else float(lr_arr)
    loss = convention(paper).train if loss is None else loss
    n = X.shape[-1]

    marks, losses, recs = [], [], {}

    def snapshot(k):
        marks.append(k)
        with torch.no_grad():
            losses.append(ensemble_loss(model, X, Y, loss).cpu().numpy())
            for name, value in (record(model) if record else {}).items():
                recs.setdefault(name, []).append(value.detach().cpu().numpy())

    show = steps * model.K >= 200_000 if progress is None else progress
    snapshot(0)
    for k in tqdm(range(1, steps + 1), disable=not show, desc="train", leave=False):
        gd_step(model, X, Y, lr_t, loss)
        if k % record_every == 0 or k == steps:
            snapshot(k)
    steps_arr = np.asarray(marks)
    lr_clock = float(lr_arr) if lr_arr.ndim == 0 else lr_arr[None, :]
    t = flow_time(steps_arr[:, None] if lr_arr.ndim else steps_arr, 1.0, n, paper, loss) * lr_clock
    return History(steps_arr, t, np.stack(losses), {k: np.stack(v) for k, v in recs.items()})
