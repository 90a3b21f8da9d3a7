"""Batched gated networks: ReLU networks and GDLNs/ReLNs as one tensor program (MHS Sec 2-6).

A network of ``L`` weight layers acts on columns ``X`` (d, N).  Hidden layer ``l`` computes
``a_l = z_l * G_l`` with ``z_l = (W_l * M_l) a_{l-1}``: ``G_l`` is ``step(z_l)`` for a ReLU layer
(step(0) = 0, as torch's relu gradient) or a fixed (units, N) 0/1 matrix for a gated linear layer
(a GDLN whose hidden units are grouped into pathways by their gate rows, MHS-Eq(1)).  ``M_l`` masks
inputs a unit may see (the contextual pathways see items only, App F L598).

Training is full-batch GD on ``factor * sum ||Y - out||^2`` with the factor of a
``theory.conventions.LossNorm`` (the paper's experiments: 1/2-sum, lr 1e-3; Fig 2: 1/2-mean,
lr 0.4).  ``split=True`` is the released code's split-gradient rule (MHS-S4-ReLN): the
``common`` units step on the loss of the common pathway alone, every other unit on the joint
loss.  Gradients are written out by hand (cross-checked against autograd in tests) because this
is several times faster than autograd for these small matrices.  :func:`train` runs the one GD loop
(``numerics.train.descend``) with :meth:`GatedNet.step` as its step.  Every member k of the leading
ensemble axis has its own weights and, optionally, its own gates, learning rate and inputs
(``X`` of shape (K, d, N)).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np
import torch

from numerics.models import as_tensor, intra_op_threads, trainer_backend
from numerics.train import as_data, check_lr, check_schedule, descend
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument, finite_array
from theory.conventions import SUM_HALF, LossNorm, flow_time

DT = torch.float64
PAPER = "haste_slowly"
#: the released code's step size (Table 1): one full-batch step at this rate is one epoch
PAPER_LR = 1e-3
#: the paper's clocks: epochs (Sec 4-6, App B: steps at lr 1e-3 on the 1/2-sum loss) and t/tau
#: (Fig 2, App C: 1/tau = lr on the mean loss Eq. 2)
CLOCKS = ("epochs", "t/tau")


def paper_time(steps, lr: float, n_samples: int, clock: str, loss: LossNorm = SUM_HALF):
    """The paper's time after ``steps`` GD steps of size ``lr`` on ``loss`` over ``n_samples``
    datapoints, in ``clock``: ``t/tau`` (``theory.conventions.flow_time``), or ``epochs``, the same
    t/tau in units of one released step (lr 1e-3 on the 1/2-sum loss)."""
    if clock not in CLOCKS:
        raise InvalidArgument(f"clock={clock!r} must be one of {CLOCKS}")
    t = flow_time(steps, lr, n_samples, PAPER, trained_on=loss)
    return t if clock == "t/tau" else t / flow_time(1, PAPER_LR, n_samples, PAPER)


@dataclass
class GatedNet:
    """``weights[l]``: (K, n_l, n_{l-1}); ``gates[l]``: None (ReLU) or (units, N) / (K, units, N)
    for hidden layer l; ``masks[l]``: (n_l, n_{l-1}) 0/1 or None; ``common``: (n_{L-1},) bool."""

    weights: list
    gates: list
    masks: list = field(default_factory=list)
    common: torch.Tensor | None = None
    _common_index: tuple = field(default=(None, None), init=False, repr=False, compare=False)

    def __post_init__(self):
        if len(self.gates) != len(self.weights) - 1:
            raise InvalidArgument(f"gates must have one entry per hidden layer "
                                  f"({len(self.weights) - 1}), got {len(self.gates)}")
        if not self.masks:
            self.masks = [None] * len(self.weights)
        if len(self.masks) != len(self.weights):
            raise InvalidArgument("masks must have one entry per weight layer")
        for l, W in enumerate(self.weights):
            if W.ndim != 3:
                raise InvalidArgument(f"weights[{l}] must be (K, rows, cols), got {tuple(W.shape)}")
            if l and W.shape[2] != self.weights[l - 1].shape[1]:
                raise InvalidArgument(f"weights[{l}] does not take weights[{l - 1}]'s output")
        dt, dev = self.weights[0].dtype, self.weights[0].device
        self.masks = [None if m is None else as_tensor(m, f"masks[{l}]", ndim=2, dtype=dt, device=dev)
                      for l, m in enumerate(self.masks)]
        self.gates = [None if g is None else as_tensor(g, f"gates[{l}]", ndim=(2, 3), dtype=dt, device=dev)
                      for l, g in enumerate(self.gates)]

    def astype(self, dtype) -> GatedNet:
        """A copy with weights, gates and masks in ``dtype`` (float32 for paper-scale runs)."""
        def cast(t):
            return None if t is None else t.to(dtype)
        return GatedNet([W.to(dtype) for W in self.weights], [cast(g) for g in self.gates],
                        [cast(m) for m in self.masks], self.common)

    @property
    def K(self) -> int:
        return self.weights[0].shape[0]

    def _w(self, l):
        m = self.masks[l]
        return self.weights[l] if m is None else self.weights[l] * m

    def _pass(self, X, keep=None):
        """(activities a_0..a_{L-1}, gates, output) as the step uses them: a ReLU layer's gate is
        None (it is on where the layer's activity is positive: :meth:`_on`), so its activity is
        one ``relu`` and its error one ``threshold_backward`` instead of a 0/1 matrix made and
        multiplied in each pass.  ``keep`` zeroes the last hidden layer's units outside it (the
        common pathway alone)."""
        acts, gs = [X if X.ndim == 3 else X.expand(self.K, *X.shape)], []
        for l in range(len(self.weights) - 1):
            z = torch.bmm(self._w(l), acts[-1])
            g = None if self.gates[l] is None else self.gates[l].expand_as(z)
            if keep is not None and l == len(self.weights) - 2:
                g = self._on(z, g) * keep[:, None]
            gs.append(g)
            acts.append(torch.relu(z) if g is None else z * g)
        return acts, gs, torch.bmm(self._w(len(self.weights) - 1), acts[-1])

    @staticmethod
    def _on(a, g):
        """The 0/1 gate of a hidden layer with activity ``a``: ``g``, or where a ReLU layer's
        activity is positive (its pre-activation is: step(0) = 0)."""
        return (a > 0).to(a.dtype) if g is None else g

    def forward(self, X, keep=None):
        """(activities a_0..a_{L-1}, 0/1 gates G_1..G_{L-1}, output); ``keep`` zeroes the last
        hidden layer's units outside it (the common pathway alone)."""
        acts, gs, out = self._pass(X, keep)
        return acts, [self._on(a, g) for a, g in zip(acts[1:], gs)], out

    def __call__(self, X):
        return self.forward(X)[2]

    def hidden(self, X, layer: int = 0):
        """(K, units, N) gated activity of hidden layer ``layer`` (post-ReLU for a ReLU layer)."""
        return self.forward(X)[0][layer + 1]

    def preactivation(self, X, layer: int = 0):
        acts = self.forward(X)[0]
        return torch.bmm(self._w(layer), acts[layer])

    def grads(self, X, Y, loss: LossNorm = SUM_HALF, keep=None):
        """(losses (K,), dL/dW per layer) of ``loss`` on the network (or its ``keep`` part)."""
        return self._backward(X, Y, loss, keep)[:2]

    def losses(self, X, Y, loss: LossNorm = SUM_HALF):
        """(K,) ``loss`` of every member (the first value of :meth:`grads`, without the backward
        pass)."""
        err = self(X) - Y
        return loss.factor(X.shape[-1]) * (err ** 2).sum(dim=(1, 2))

    def _backward(self, X, Y, loss: LossNorm, keep=None, lr: float | None = None, hold=()):
        """:meth:`grads` and the forward pass's (activities, gates) it used.  With ``lr``, every
        layer whose gradient is used as it is (no input mask, not in ``hold``) takes its GD step
        in the product that forms the gradient, ``W <- W - lr delta a^T`` as one GEMM (its
        gradient entry is then None): the weight is read and written once instead of a gradient
        the size of the weight being made, scaled and subtracted (1.45x faster for the depth ReLU
        net's float32 step; the product is rounded once into ``W``, so the last bits differ from
        the two-pass update).  A layer steps only after the error below it has been taken through
        its weights."""
        acts, gs, out = self._pass(X, keep)
        err = out - Y
        f = loss.factor(X.shape[-1])
        delta = 2 * f * err
        grads = [None] * len(self.weights)
        for l in range(len(self.weights) - 1, -1, -1):
            if l:
                below = torch.bmm(self._w(l).transpose(1, 2), delta)
                below = (below.mul_(gs[l - 1]) if gs[l - 1] is not None
                         else torch.ops.aten.threshold_backward(below, acts[l], 0))
            if lr is not None and self.masks[l] is None and l not in hold:
                self.weights[l].baddbmm_(delta, acts[l].transpose(1, 2), alpha=-lr)
            else:
                g = torch.bmm(delta, acts[l].transpose(1, 2))
                grads[l] = g if self.masks[l] is None else g * self.masks[l]
            if l:
                delta = below
        return f * (err ** 2).sum(dim=(1, 2)), grads, (acts, gs)

    def _common_units(self):
        """``common`` as a slice where its units are contiguous (the ReLNs: the first module),
        else as indices, found once per ``common``: a boolean index costs more than the
        arithmetic of these small steps."""
        if self._common_index[0] is not self.common:
            idx = torch.nonzero(self.common).flatten()
            self._common_index = (self.common, slice(int(idx[0]), int(idx[-1]) + 1)
                                  if len(idx) and bool((idx.diff() == 1).all()) else idx)
        return self._common_index[1]

    def _common_grads(self, acts, gs, Y, loss: LossNorm):
        """The gradients of the common pathway's own loss on its units' weights (the last two
        layers' ``[:, :, common]`` and ``[:, common, :]`` blocks), from the joint forward pass:
        the common units' activities are the same with the others gated off, and the others
        add exact zeros to the output, so only the common columns enter.  The same numbers as a
        second full forward and backward pass with the others zeroed, at a third of its cost;
        the last layer's gradient is taken over every unit and then cut, as a product of the
        cut shape rounds differently in float64."""
        c = self._common_units()
        f = loss.factor(acts[0].shape[-1])
        a, W = acts[-1][:, c], self._w(len(self.weights) - 1)[:, :, c]
        delta = 2 * f * (W @ a - Y)
        last, below = self.masks[-1], self.masks[-2]
        top = (delta @ acts[-1].transpose(1, 2))[:, :, c]
        on = self._on(acts[-1], gs[-1])[:, c]
        inner = ((W.transpose(1, 2) @ delta) * on) @ acts[-2].transpose(1, 2)
        return (top if last is None else top * last[:, c],
                inner if below is None else inner * below[c])

    def step(self, X, Y, lr, loss: LossNorm = SUM_HALF, split: bool = False):
        """One GD step on every member (``lr`` scalar or (K,)); returns the (K,) joint losses.
        A scalar rate steps the layers inside their gradient products (:meth:`_backward`);
        the split rule's two top layers and a per-member rate take the gradient first."""
        if split and self.common is None:
            raise InvalidArgument("split=True needs the common units named (common=...)")
        top = len(self.weights) - 1
        one_rate = not torch.is_tensor(lr) and np.ndim(lr) == 0
        losses, grads, (acts, gs) = self._backward(X, Y, loss, lr=float(lr) if one_rate else None,
                                                   hold=(top, top - 1) if split else ())
        if split:
            c = self._common_units()
            grads[-1][:, :, c], grads[-2][:, c, :] = self._common_grads(acts, gs, Y, loss)
        taken = [(W, g) for W, g in zip(self.weights, grads) if g is not None]
        if taken:
            lr = torch.as_tensor(lr, dtype=X.dtype, device=X.device).reshape(-1, 1, 1)
        for W, g in taken:
            # lr * g in the fresh gradient's storage: the same two roundings without a
            # temporary the size of the weights
            W -= g.mul_(lr)
        return losses


def _seed(seed) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidArgument(f"seed={seed!r} must be a non-negative integer")
    return int(seed)


def block_normal(rng: np.random.RandomState, rows, cols, stds) -> np.ndarray:
    """A weight matrix drawn as the released code draws a GDLN layer (``init_random_params_gated``
    of CAandL-Lab/make-haste-slowly): blocks ``N(0, stds[p][k]^2)`` of ``rows[k] x cols[p]``, row
    block ``k`` outer and column block ``p`` inner, from ``rng`` (``np.random.seed(seed)``).  A
    plain layer is one block (the released ReLU init)."""
    if not isinstance(rng, np.random.RandomState):
        raise InvalidArgument(f"rng must be a numpy.random.RandomState (np.random.seed semantics), got "
                              f"{type(rng).__name__}")
    return np.vstack([np.hstack([rng.normal(0.0, stds[p][k], (r, c)) for p, c in enumerate(cols)])
                      for k, r in enumerate(rows)])


def init_weights(seeds, shapes, stds, device=None, dtype=DT):
    """Gaussian weights, one ``np.random.RandomState(seed)`` per member drawing the layers in
    order (float64, then cast to ``dtype``), as the released code's ``np.random.seed(seed)``;
    ``stds[l]`` a float or a per-unit vector that scales the rows (for the first layer) / columns
    (later layers) of unit-wise modules."""
    if len(shapes) != len(stds):
        raise InvalidArgument(f"stds has {len(stds)} entries for {len(shapes)} layers")
    for l, shape in enumerate(shapes):
        if len(shape) != 2 or any(isinstance(n, bool) or int(n) != n or n < 1 for n in shape):
            raise InvalidArgument(f"shapes[{l}]={tuple(shape)!r} must be (rows, cols), positive integers")
    layers = [[] for _ in shapes]
    if np.size(seeds) == 0:
        raise InvalidArgument(f"seeds={seeds!r} must be a non-empty sequence of seeds")
    for seed in np.atleast_1d(seeds).tolist():
        rng = np.random.RandomState(_seed(seed))
        for l, (rows, cols) in enumerate(shapes):
            layers[l].append(block_normal(rng, [rows], [cols], [[1.0]]))
    out = []
    for l, Ws in enumerate(layers):
        std = finite_array(stds[l], f"stds[{l}]")
        if np.any(std <= 0):
            raise InvalidArgument(f"stds[{l}] must be positive")
        if std.ndim == 1:
            std = std[:, None] if l == 0 else std[None, :]
        W = torch.as_tensor(np.stack(Ws) * std, dtype=DT)
        out.append(W.to(device=device or "cpu", dtype=dtype))
    return out


def train(net: GatedNet, X, Y, *, lr, steps: int, loss: LossNorm = SUM_HALF, split=False,
          record_every: int = 100, record=None, progress: bool | None = None,
          clock: str = "epochs") -> Trajectory:
    """``steps`` GD steps (``net.step``, the loop of :func:`numerics.train.descend`); the joint
    loss and ``record(net) -> {name: tensor}`` every ``record_every`` steps and at the end.
    ``lr``: a positive float.  The trajectory's time is the paper's ``clock``
    (:func:`paper_time`: epochs, or t/tau)."""
    dev, dt = net.weights[0].device, net.weights[0].dtype
    X, Y = as_data(X, Y, dtype=dt, device=dev)
    check_schedule(steps, record_every)
    if np.ndim(check_lr(lr, net.K)):
        raise InvalidArgument("lr must be one rate for the ensemble: the trajectory has one clock")
    if clock not in CLOCKS:
        raise InvalidArgument(f"clock={clock!r} must be one of {CLOCKS}")
    # one thread unless CLAIMS_TORCH_THREADS says more: on this shared 2-core CPU a second
    # intra-op thread made the 420-420 depth step 18x slower under load (8 seeds: 124 ms against
    # 6.8 ms), and the small nets never gain
    with trainer_backend(intra_op_threads()), torch.no_grad():
        trace = descend(partial(GatedNet.step, net, split=split),
                        net.losses, X, Y, lr=float(lr),
                        loss=loss, steps=steps, record_every=record_every,
                        record=(lambda: record(net)) if record else None, progress=progress,
                        desc="gated")
    time = paper_time(trace.steps, float(lr), X.shape[-1], clock, loss)
    return Trajectory(trace.steps, time, clock, trace.loss, trace.records)
