"""Full-batch gradient descent of an ensemble: the one loop every trainer runs, and its
parameterisation for the two-layer ensembles of ``numerics.models``.

:func:`descend` is the loop: it takes what differs between models as arguments (the model's
step function, its loss function, the :class:`LossNorm`, the learning rate, the data already on
the model's device in its dtype, the record schedule and the progress bar) and records the (K,)
losses of the leading ensemble axis at step 0, every ``record_every`` steps and at the last step.
:func:`train` (here), ``numerics.haste_slowly.gated.train`` (gated networks, torch) and
``numerics.bias.theory_linear_gd.train_linear`` (two-layer linear networks, numpy) are thin
parameterisations of it.

The loss normalisation comes from ``theory.conventions`` (a :class:`LossNorm`), and the time axis
of the returned :class:`numerics.trajectory.Trajectory` is converted to the paper's ``t / tau`` through
``theory.conventions.flow_time`` only.  :func:`descend` itself counts time in steps.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np
import torch
from tqdm.auto import tqdm

from numerics.models import as_tensor, trainer_backend
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument, affordable, integer
from theory.conventions import LossNorm, convention, flow_time

PROGRESS_WORK = 200_000   # steps x members from which a progress bar is shown by default


@dataclass
class Trace:
    """What :func:`descend` recorded, in steps (not the paper's time)."""

    steps: np.ndarray     # (T,) steps at which records were taken
    loss: np.ndarray      # (T, K) losses of the members at those steps
    records: dict = field(default_factory=dict)   # name -> (T, K, ...)


#: GD steps one run may take unasked (the suite's longest paper-scale run takes about 1e6; a
#: step of the smallest ensemble takes about a millisecond on one core)
MAX_STEPS = 1e8


def check_schedule(steps, record_every) -> tuple[int, int]:
    """(steps, record_every) as ints: ``steps`` non-negative and at most :data:`MAX_STEPS` (a run
    beyond it is refused by :func:`numerics.validation.affordable`, with the override),
    ``record_every`` positive."""
    steps = integer(steps, "steps", 0)
    affordable(steps, MAX_STEPS, f"training for steps={steps}", "GD steps")
    return steps, integer(record_every, "record_every", 1)


def check_lr(lr, members: int) -> np.ndarray:
    """``lr`` as a float array: positive, finite, a scalar or one rate per member (``(K,)``)."""
    try:
        lr_arr = np.asarray(lr, dtype=float)
    except (TypeError, ValueError):
        raise InvalidArgument(f"lr={lr!r} must be a number or an array of numbers") from None
    if not np.all(np.isfinite(lr_arr)) or np.any(lr_arr <= 0):
        raise InvalidArgument(f"lr={lr!r} must be positive and finite")
    if lr_arr.ndim > 1 or (lr_arr.ndim == 1 and lr_arr.shape != (members,)):
        raise InvalidArgument(f"lr must be a scalar or have shape ({members},)")
    return lr_arr


def as_data(X, Y, *, dtype, device) -> tuple[torch.Tensor, torch.Tensor]:
    """``X`` (n_in, P) or (K, n_in, P) and ``Y`` (n_out, P) or (K, n_out, P) as finite tensors
    on the model's device in its dtype, with the same number of samples P."""
    X = as_tensor(X, "X", ndim=(2, 3), dtype=dtype, device=device)
    Y = as_tensor(Y, "Y", ndim=(2, 3), dtype=dtype, device=device)
    if X.shape[-1] != Y.shape[-1]:
        raise InvalidArgument(f"X has {X.shape[-1]} samples but Y has {Y.shape[-1]}")
    return X, Y


def _numpy(value) -> np.ndarray:
    return value.detach().cpu().numpy() if torch.is_tensor(value) else np.asarray(value)


def descend(step, losses, X, Y, *, lr, loss: LossNorm, steps: int, record_every: int = 100,
            record=None, progress: bool | None = None, desc: str = "train") -> Trace:
    """The full-batch GD loop: ``steps`` calls of ``step(X, Y, lr, loss)``, each one gradient
    step (in place) of every member of the ensemble on ``loss`` with rate ``lr``.

    ``losses(X, Y, loss) -> (K,)`` (tensor or array) and ``record() -> {name: (K, ...)}`` are
    taken at step 0, after every ``record_every``-th step and after the last one, without
    autograd.  ``X``, ``Y`` and ``lr`` are passed to ``step`` as they are: the caller puts them on
    the model's device and dtype.  ``progress``: show a progress bar (None: when steps x K
    >= PROGRESS_WORK).  Returns the :class:`Trace`, time in steps.
    """
    steps, record_every = check_schedule(steps, record_every)
    if not isinstance(loss, LossNorm):
        raise InvalidArgument(f"loss must be a theory.conventions.LossNorm, got {type(loss).__name__}")
    if not (callable(step) and callable(losses)) or (record is not None and not callable(record)):
        raise InvalidArgument("step, losses and record (where given) must be callable")
    marks, values, recs = [], [], {}

    def snapshot(k):
        marks.append(k)
        with torch.no_grad():
            values.append(_numpy(losses(X, Y, loss)))
            # a non-finite loss stays non-finite: stop at the first record that shows it
            if not np.all(np.isfinite(values[-1])):
                bad = np.flatnonzero(~np.isfinite(values[-1]))
                raise FloatingPointError(
                    f"non-finite loss at step {k} (members {bad.tolist()[:10]}): the run diverged "
                    f"with lr={_numpy(lr).tolist() if torch.is_tensor(lr) else lr!r}")
            for name, value in (record() if record else {}).items():
                recs.setdefault(name, []).append(_numpy(value))

    snapshot(0)
    show = steps * values[0].size >= PROGRESS_WORK if progress is None else bool(progress)
    for k in tqdm(range(1, steps + 1), disable=not show, desc=desc, leave=False):
        step(X, Y, lr, loss)
        if k % record_every == 0 or k == steps:
            snapshot(k)
    return Trace(np.asarray(marks), np.stack(values), {k: np.stack(v) for k, v in recs.items()})


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
            # the step lr * g in g's own storage (a fresh gradient): the same two roundings as
            # p - lr * g without a temporary the size of the weights each step
            p -= g.mul_(lr.reshape(-1, *([1] * (p.ndim - 1))) if torch.is_tensor(lr) else lr)
    return losses.detach()


def train(model, X, Y, *, lr, steps: int, paper: str, loss: LossNorm | None = None,
          record_every: int = 100, record=None, progress: bool | None = None) -> Trajectory:
    """Train ``model`` (in place) for ``steps`` full-batch GD steps on the paper's loss.

    ``lr``: float or (K,) array (one rate per member).  ``record(model) -> dict of tensors`` is
    called every ``record_every`` steps and at the end.  ``X`` is (n_in, P), ``Y`` (n_out, P) or
    (K, n_out, P).  Times are returned in steps and as the paper's ``t / tau``.
    """
    device, dtype = model.W1.device, model.W1.dtype
    X, Y = as_data(X, Y, dtype=dtype, device=device)
    check_schedule(steps, record_every)
    lr_arr = check_lr(lr, model.K)
    lr_t = torch.as_tensor(lr_arr, dtype=dtype, device=device) if lr_arr.ndim else float(lr_arr)
    loss = convention(paper).train if loss is None else loss
    n = X.shape[-1]
    with trainer_backend():     # the caller's threads, MKL's float32 batched products
        trace = descend(partial(gd_step, model), partial(ensemble_loss, model), X, Y, lr=lr_t,
                        loss=loss, steps=steps, record_every=record_every,
                        record=(lambda: record(model)) if record else None, progress=progress)
    lr_clock = float(lr_arr) if lr_arr.ndim == 0 else lr_arr[None, :]
    t = flow_time(trace.steps[:, None] if lr_arr.ndim else trace.steps, 1.0, n, paper,
                  loss) * lr_clock
    return Trajectory(trace.steps, t, "t/tau", trace.loss, trace.records)
