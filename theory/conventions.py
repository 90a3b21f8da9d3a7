"""Loss normalisations and clocks, and the one conversion between them (docs/DESIGN.md, "Conventions").

Each paper's own convention is written once, in its record in ``theory.papers``.

Every paper writes its dynamics as ``tau * dtheta/dt = -grad L_flow(theta)`` for some reference
loss ``L_flow = factor * sum_i ||y_i - yhat_i||^2``.  Training, in turn, takes ``steps`` full-batch
gradient steps of size ``lr`` on some loss ``L_train`` (again ``factor * sum``).  The single
conversion :func:`flow_time` maps training steps to the paper's dimensionless time ``t / tau``;
:func:`tau` is its reciprocal per step.  Nothing else in the suite folds a factor of P or 2.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from theory.validation import InvalidArgument


@dataclass(frozen=True)
class LossNorm:
    """``L = (1/2 if half) * (1/P if mean) * sum_i ||y_i - yhat_i||^2``."""

    mean: bool
    half: bool

    def factor(self, n_samples: int) -> float:
        if not (isinstance(n_samples, (int, np.integer)) and n_samples > 0):
            raise InvalidArgument(f"n_samples={n_samples!r} must be a positive integer")
        return (0.5 if self.half else 1.0) / (n_samples if self.mean else 1)

    def __str__(self) -> str:
        return ("1/2 " if self.half else "") + ("mean" if self.mean else "sum") + " squared error"


SUM_HALF = LossNorm(mean=False, half=True)
MEAN_HALF = LossNorm(mean=True, half=True)


@dataclass(frozen=True)
class Convention:
    """A paper's conventions.

    ``flow``: the loss whose gradient is the right-hand side of the paper's ODE (with the
    paper's own ``tau``).  ``train``: the loss its simulations of that flow step on.
    ``experiments``: the loss its reported experiments step on, where that differs from ``train``.
    ``clock``: the paper's words for its time axis.  ``why``: where a normalisation is the
    suite's reading of one the paper leaves unstated, why.
    """

    paper: str
    flow: LossNorm
    train: LossNorm
    clock: str
    experiments: LossNorm | None = None
    why: str = ""


def convention(paper: str) -> Convention:
    from theory.papers import paper as record
    return record(paper).convention


def flow_time(steps, lr: float, n_samples: int, paper: str, trained_on: LossNorm | None = None):
    """Dimensionless time ``t / tau`` of the paper's ODE after ``steps`` gradient steps.

    ``steps`` may be an array (a time grid).  ``trained_on`` defaults to the paper's own training
    loss; pass another :class:`LossNorm` when a run deviates from it.
    """
    conv = convention(paper)
    trained_on = conv.train if trained_on is None else trained_on
    if not isinstance(trained_on, LossNorm):
        raise InvalidArgument(f"trained_on must be a LossNorm (or None), got {type(trained_on).__name__}")
    if lr is None or isinstance(lr, (bool, str, bytes)) or np.ndim(lr) != 0:
        raise InvalidArgument(f"lr={lr!r} must be a number, got {type(lr).__name__}")
    if not (np.isfinite(lr) and lr > 0):
        raise InvalidArgument(f"lr={lr!r} must be a positive finite learning rate")
    steps = np.asarray(steps, dtype=float)
    if np.any(~np.isfinite(steps)) or np.any(steps < 0):
        raise InvalidArgument("steps must be finite and non-negative")
    return steps * lr * trained_on.factor(n_samples) / conv.flow.factor(n_samples)


def tau(lr: float, n_samples: int, paper: str, trained_on: LossNorm | None = None) -> float:
    """Steps per unit of the paper's ODE time: ``t / tau = steps / tau``."""
    return float(1.0 / flow_time(1.0, lr, n_samples, paper, trained_on))
