"""Batched training of bias-free two-layer ReLU networks at prescribed (scale tau, per-neuron
delta) for GRQ Fig. 1 / Fig. 5 / Sec. 5 (App. D.1 set-up).

The base initialisation is D.1's symmetrised one (unit ``w_i``, ``a_i = +-1``, the second half
mirrors the first with flipped ``a``, so ``f = 0`` and ``delta_i = 0``); ``(tau, delta)`` is reached
by scaling ``w_i`` by ``tau/alpha`` and ``a_i`` by ``tau alpha`` with
``delta = tau^2 (alpha^2 - alpha^-2)`` (the Fig. 1 caption; D.1's ``delta^2`` is a typo).
The ensemble (configurations x seeds) trains as one tensor program through ``numerics.train``
(full-batch GD on the rich_quick 1/2-sum loss; time = lr * steps).
"""
from __future__ import annotations

import numpy as np
import torch

from numerics.models import TwoLayerEnsemble
from numerics.train import train
from numerics.validation import InvalidArgument, positive


def alpha_for(tau, delta):
    """``alpha`` with ``tau^2 (alpha^2 - alpha^-2) = delta`` (positive root)."""
    tau = positive(tau, "tau")
    q = delta / tau ** 2
    return np.sqrt((q + np.sqrt(q ** 2 + 4)) / 2)


def symmetrised_base(seed: int, d: int, h: int):
    """D.1 base init: (W (h, d), a (h,)) with unit rows, a = +-1, mirrored halves."""
    if h % 2:
        raise InvalidArgument(f"h={h} must be even for the symmetrised initialisation")
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((h // 2, d))
    w /= np.linalg.norm(w, axis=1, keepdims=True)
    a = rng.choice([-1.0, 1.0], h // 2)
    return np.concatenate([w, w]), np.concatenate([a, -a])


def scaled_ensemble(bases, configs, alpha_of=alpha_for, device=None) -> TwoLayerEnsemble:
    """One member per (base init, (tau, delta)) pair: ``bases`` list of (W, a); ``configs`` list of
    (tau, delta); member order is config-major."""
    W1, W2 = [], []
    for tau, delta in configs:
        alpha = alpha_of(tau, delta)
        for W, a in bases:
            W1.append(W * tau / alpha)
            W2.append((a * tau * alpha)[None, :])
    model = TwoLayerEnsemble(*(torch.tensor(np.stack(v), dtype=torch.float64) for v in (W1, W2)),
                             activation="relu")
    if device is not None:
        model.W1, model.W2 = model.W1.to(device), model.W2.to(device)
    return model


def relu_ntk(model: TwoLayerEnsemble, X: torch.Tensor) -> torch.Tensor:
    """Per-member NTK (K, n, n) of ``f = a^T relu(W x)`` (rates 1):
    ``K_jk = sum_i c_ij c_ik (a_i^2 x_j^T x_k + (w_i^T x_j)(w_i^T x_k))`` (Eq. 8 with M_i)."""
    Z = model.preactivation(X)                        # (K, h, n)
    C = (Z > 0).to(X.dtype)
    a2 = model.W2[:, 0, :] ** 2                       # (K, h)
    G = X.T @ X
    term_a = G[None] * torch.einsum("khj,kh,khl->kjl", C, a2, C)
    CZ = C * Z
    return term_a + CZ.transpose(1, 2) @ CZ


def kernel_distance(K0: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """``S = 1 - <K0,K>_F/(||K0|| ||K||)`` per member."""
    num = (K0 * K).sum((-2, -1))
    return 1 - num / (K0.norm(dim=(-2, -1)) * K.norm(dim=(-2, -1)))


def run(model: TwoLayerEnsemble, X, y, grid, *, lr: float, steps: int, record_every: int):
    """Train and record loss, max|f| on the data, S(0,t), the Hamming distance of the activation
    patterns on ``grid`` (columns are points) from init, and the parameter distance."""
    X = torch.as_tensor(X, dtype=model.W1.dtype)
    grid = torch.as_tensor(grid, dtype=model.W1.dtype)
    K0 = relu_ntk(model, X)
    P0 = model.preactivation(grid) > 0
    theta0 = torch.cat([model.W1.flatten(1), model.W2.flatten(1)], 1).clone()

    def record(m):
        theta = torch.cat([m.W1.flatten(1), m.W2.flatten(1)], 1)
        return {"S": kernel_distance(K0, relu_ntk(m, X)),
                "hamming": ((m.preactivation(grid) > 0) != P0).to(X.dtype).mean((1, 2)),
                "param_dist": (theta - theta0).norm(dim=1),
                "max_f": m(X).abs().amax((1, 2))}
    return train(model, X, torch.as_tensor(y, dtype=model.W1.dtype)[None, :], lr=lr, steps=steps,
                 paper="rich_quick", record_every=record_every, record=record)


def xor_task(n: int, rng, noise: float = 0.15):
    """XOR-like data in 2-D: clusters at (+-1, +-1), label x1 x2 sign; X columns are samples."""
    centres = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float)
    labels = np.array([1.0, 1.0, -1.0, -1.0])
    idx = np.arange(n) % 4
    X = centres[idx] + noise * rng.standard_normal((n, 2))
    return X.T, labels[idx]


def angle_grid(m: int = 360):
    """Unit vectors at ``m`` angles: the activation partition of a bias-free net is a fan of cones,
    so its pattern on the circle determines it."""
    th = np.linspace(0, 2 * np.pi, m, endpoint=False)
    return np.stack([np.cos(th), np.sin(th)])
