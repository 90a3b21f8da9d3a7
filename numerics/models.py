"""Batched torch models: an ensemble of K two-layer networks as one tensor program.

Columns are samples, as in the papers: ``X`` is (n_in, P), outputs are (K, n_out, P).  A hidden
bias is a constant input of strength ``c`` (BL-Def-Aug): ``x~ = [c; x]`` and ``W~1 = [b W1]``, so the
effective bias is ``c b`` and its learning rate scales with ``c^2``.  ``c`` may differ per member.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch

from numerics.validation import InvalidArgument, seed_list

ACTIVATIONS = {"linear": lambda z: z, "relu": torch.relu}


def intra_op_threads() -> int:
    """The intra-op threads of a trainer: ``CLAIMS_TORCH_THREADS``, else one.  One by default (ci,
    one thread per worker): the suite's tensors are small, and on 2 shared cores a second thread
    costs more in synchronisation than it gains (measured: 1.0 vs 15.9 ms per batched step of 64
    hidden-64 networks on a loaded 2-core machine); a paper-scale run on an idle machine sets it
    to the core count (or uses every core through ``numerics.sweep``'s workers)."""
    import os
    text = os.environ.get("CLAIMS_TORCH_THREADS", "1")
    if not text.isdigit() or int(text) < 1:
        raise InvalidArgument(f"CLAIMS_TORCH_THREADS={text!r} must be a positive integer")
    return int(text)


def configure_threads() -> int:
    """Set torch's intra-op threads to :func:`intra_op_threads`; returns the count."""
    threads = intra_op_threads()
    torch.set_num_threads(threads)
    return threads


@contextmanager
def torch_threads(n: int | None):
    """Run the block on ``n`` intra-op threads (None: leave the setting as it is), then restore.

    Small ensembles run faster on one thread (see :func:`configure_threads`); code that is also
    called outside the suite (the full-scale CLI) uses this to pick per problem size."""
    previous = torch.get_num_threads()
    if n is not None:
        if int(n) != n or n < 1:
            raise InvalidArgument(f"n={n!r} must be a positive integer or None")
        torch.set_num_threads(int(n))
    try:
        yield
    finally:
        torch.set_num_threads(previous)


@contextmanager
def trainer_backend(threads: int | None = None):
    """The block runs on ``threads`` intra-op threads (:func:`torch_threads`; None: as set) with
    oneDNN off: its float32 batched matmul took 1.6x MKL's time for
    the depth net's (32, 420, 420) x (32, 420, 24) products (9.7 against 6.1 ms, one thread), with
    bit-identical results; float64 products take the MKL path either way."""
    # set_flags, not flags(): flags() also sets oneDNN's TF32 switch, which warns on a CPU build
    enabled = torch.backends.mkldnn.set_flags(False, _fp32_precision=None)[0]
    try:
        with torch_threads(threads):
            yield
    finally:
        torch.backends.mkldnn.set_flags(enabled, _fp32_precision=None)


def default_device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def as_tensor(value, name: str, *, ndim=None, dtype=torch.float64, device=None) -> torch.Tensor:
    t = torch.as_tensor(np.asarray(value) if not torch.is_tensor(value) else value,
                        dtype=dtype, device=device)
    if ndim is not None and t.ndim not in ((ndim,) if isinstance(ndim, int) else ndim):
        raise InvalidArgument(f"{name} must have {ndim} dimensions, got shape {tuple(t.shape)}")
    if not torch.isfinite(t).all():
        raise InvalidArgument(f"{name} contains non-finite values (nan or inf)")
    return t


@dataclass
class TwoLayerEnsemble:
    """K networks ``y = W2 act(W~1 x~)``; ``W1`` is (K, n_hid, n_in [+1]), ``W2`` (K, n_out, n_hid).

    ``bias_strength``: None for no hidden bias, else a float or a (K,) tensor of ``c`` values;
    then column 0 of ``W1`` is the bias weight ``b``.
    """

    W1: torch.Tensor
    W2: torch.Tensor
    activation: str = "relu"
    bias_strength: torch.Tensor | None = None

    def __post_init__(self):
        if self.activation not in ACTIVATIONS:
            raise InvalidArgument(f"activation={self.activation!r} is not one of {sorted(ACTIVATIONS)}")
        if self.W1.ndim != 3 or self.W2.ndim != 3:
            raise InvalidArgument(f"W1 and W2 must be (K, rows, cols); got {tuple(self.W1.shape)} and "
                                  f"{tuple(self.W2.shape)}")
        if self.W1.shape[0] != self.W2.shape[0] or self.W1.shape[1] != self.W2.shape[2]:
            raise InvalidArgument(f"W1 {tuple(self.W1.shape)} and W2 {tuple(self.W2.shape)} do not "
                                  "share the ensemble size K and the hidden width")
        if self.bias_strength is not None:
            c = torch.as_tensor(self.bias_strength, dtype=self.W1.dtype, device=self.W1.device)
            if not torch.isfinite(c).all():
                raise InvalidArgument(f"bias_strength={self.bias_strength!r} must be finite")
            self.bias_strength = c.expand(self.K).clone() if c.ndim == 0 else c
            if self.bias_strength.shape != (self.K,):
                raise InvalidArgument(f"bias_strength must be a scalar or have shape ({self.K},)")

    @classmethod
    def init(cls, seeds, n_in: int, n_hid: int, n_out: int, *, activation: str = "relu",
             bias_strength=None, init_std: float = 1e-2, dtype=torch.float64, device=None):
        """Gaussian init N(0, init_std^2) for every weight, one ``torch.Generator`` per seed, so
        member k is the same whether trained alone or in an ensemble."""
        seeds = seed_list(np.atleast_1d(seeds).tolist(), "seeds")
        for name, v in (("n_in", n_in), ("n_hid", n_hid), ("n_out", n_out)):
            if int(v) != v or v < 1:
                raise InvalidArgument(f"{name}={v!r} must be a positive integer")
        if not (np.isfinite(init_std) and init_std >= 0):
            raise InvalidArgument(f"init_std={init_std!r} must be finite and non-negative")
        device = default_device() if device is None else torch.device(device)
        n_cols = n_in + (bias_strength is not None)
        W1, W2 = [], []
        for seed in seeds:
            g = torch.Generator().manual_seed(seed)
            W1.append(torch.randn(n_hid, n_cols, generator=g, dtype=dtype) * init_std)
            W2.append(torch.randn(n_out, n_hid, generator=g, dtype=dtype) * init_std)
        return cls(torch.stack(W1).to(device), torch.stack(W2).to(device), activation,
                   bias_strength)

    @property
    def K(self) -> int:
        return self.W1.shape[0]

    @property
    def params(self) -> list[torch.Tensor]:
        return [self.W1, self.W2]

    def augment(self, X: torch.Tensor) -> torch.Tensor:
        """(n_in, P) or (K, n_in, P) -> (K, n_in [+1], P) with the constant row c on top."""
        X = X.expand(self.K, *X.shape[-2:]) if X.ndim == 2 else X
        if self.bias_strength is None:
            return X
        ones = torch.ones(self.K, 1, X.shape[-1], dtype=X.dtype, device=X.device)
        return torch.cat([self.bias_strength[:, None, None] * ones, X], dim=1)

    def preactivation(self, X: torch.Tensor) -> torch.Tensor:
        Xa = self.augment(X)
        if Xa.shape[1] != self.W1.shape[2]:
            raise InvalidArgument(f"X has {X.shape[-2]} input rows; the networks take "
                                  f"{self.W1.shape[2] - (self.bias_strength is not None)}")
        return self.W1 @ Xa

    def hidden(self, X: torch.Tensor) -> torch.Tensor:
        return ACTIVATIONS[self.activation](self.preactivation(X))

    def __call__(self, X: torch.Tensor) -> torch.Tensor:
        return self.W2 @ self.hidden(X)

    def gradients(self, X: torch.Tensor, Y: torch.Tensor, factor: float):
        """Exact gradients of ``factor * sum ||Y - self(X)||^2`` for every member, written out
        (``dW2 = 2f E H^T``, ``dW1 = 2f ((W2^T E) * act'(Z)) X~^T``): 2-3x faster than autograd
        on these small problems.  Returns (per-member losses, [dW1, dW2])."""
        Xa = self.augment(X)
        Z = self.W1 @ Xa
        H = ACTIVATIONS[self.activation](Z)
        E = self.W2 @ H - Y
        back = self.W2.transpose(1, 2) @ E
        if self.activation == "relu":
            back.mul_(Z > 0)
        losses = factor * (E ** 2).sum(dim=(1, 2))
        # scaled in place once back and the losses are taken from E: fewer temporaries per step
        return losses, [back.mul_(2 * factor) @ Xa.transpose(1, 2),
                        E.mul_(2 * factor) @ H.transpose(1, 2)]

    def product(self) -> torch.Tensor:
        """W2 W~1 (meaningful for linear networks): (K, n_out, n_in [+1])."""
        return self.W2 @ self.W1

    def member(self, k: int) -> "TwoLayerEnsemble":
        c = None if self.bias_strength is None else self.bias_strength[k:k + 1]
        return TwoLayerEnsemble(self.W1[k:k + 1].clone(), self.W2[k:k + 1].clone(),
                                self.activation, c)
