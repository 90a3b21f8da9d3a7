"""The Random Hierarchy Model (Petrini et al.; GRQ App. D.3) and a bias-free MLP ensemble with
the alpha rescaling (first layer / alpha, readout * alpha), trained as one batched program.

RHM: vocabulary v at every level, L levels, n_c classes, m synonyms per symbol, tuples of length
s.  Each class gets m distinct top-level s-tuples (never shared between classes); every symbol of
a lower level gets m s-tuples.  Inputs are one-hot (s^L, v), flattened.
"""
from __future__ import annotations

import itertools

import numpy as np
import torch
import torch.nn.functional as F


def rhm_rules(L: int, n_c: int, m: int, s: int, v: int, rng):
    """Rules: top[c] = (m, s) tuples of level-(L-1) symbols; levels[k][sym] = (m, s) tuples."""
    if n_c * m > v ** s or m > v ** s:
        raise ValueError(f"n_c*m={n_c * m} or m={m} exceeds the v^s={v ** s} possible tuples")
    tuples = np.array(list(itertools.product(range(v), repeat=s)))
    top = tuples[rng.choice(len(tuples), n_c * m, replace=False)].reshape(n_c, m, s)
    levels = [tuples[np.stack([rng.choice(len(tuples), m, replace=False) for _ in range(v)])]
              for _ in range(L - 1)]
    return top, levels


def rhm_all_data(top, levels):
    """Every input the RHM can generate (one per choice of synonyms): X (P_max, s^L * v), y."""
    n_c, m, s = top.shape
    v = levels[0].shape[0] if levels else int(top.max()) + 1
    seqs = [(c, top[c, j]) for c in range(n_c) for j in range(m)]
    for rules in levels:
        new = []
        for c, seq in seqs:
            for choice in itertools.product(range(m), repeat=len(seq)):
                new.append((c, np.concatenate([rules[sym, k] for sym, k in zip(seq, choice)])))
        seqs = new
    X = np.stack([np.eye(v)[seq].ravel() for _, seq in seqs])
    y = np.array([c for c, _ in seqs])
    return X, y


PARAMETRISATIONS = ("standard", "ntk")


def mlp_init(seeds, alphas, d_in: int, width: int, depth: int, n_out: int,
             parametrisation: str = "standard", dtype=torch.float32):
    """Bias-free MLP ensemble, member k = (seed, alpha) pair: list of (K, out, in); first layer /
    alpha, readout * alpha (D.3).  'standard': He-initialised weights; 'ntk': Petrini et al.'s
    ``DenseNet`` (pcsl-epfl/hierarchy-learning ``models/fcn.py``), N(0, 1) weights whose layer
    scales live in :func:`mlp_forward`."""
    if parametrisation not in PARAMETRISATIONS:
        raise ValueError(f"parametrisation={parametrisation!r} is not one of {PARAMETRISATIONS}")
    Ws = []
    for seed, alpha in zip(seeds, alphas):
        g = torch.Generator().manual_seed(int(seed))
        dims = [d_in] + [width] * depth + [n_out]
        gain = (lambda fan_in: np.sqrt(2 / fan_in)) if parametrisation == "standard" else (lambda _: 1.0)
        layer = [torch.randn(dims[i + 1], dims[i], generator=g, dtype=dtype) * gain(dims[i])
                 for i in range(len(dims) - 1)]
        layer[0] = layer[0] / alpha
        layer[-1] = layer[-1] * alpha
        Ws.append(layer)
    return [torch.stack([w[i] for w in Ws]).requires_grad_(True) for i in range(len(Ws[0]))]


def mlp_forward(Ws, X, parametrisation: str = "standard"):
    """X (B, d) shared -> (K, B, n_out).  'ntk' divides each hidden layer's pre-activation by
    sqrt(fan-in) and the readout by its fan-in (the width), as Petrini et al.'s code does."""
    h = X.expand(Ws[0].shape[0], *X.shape)
    ntk = parametrisation == "ntk"
    for W in Ws[:-1]:
        h = F.relu(torch.bmm(h, W.transpose(1, 2)) / (W.shape[-1] ** 0.5 if ntk else 1.0))
    return torch.bmm(h, Ws[-1].transpose(1, 2)) / (Ws[-1].shape[-1] if ntk else 1.0)


def train_mlp(Ws, X, y, *, lr, epochs, batch, momentum, seed, decay_frac=1.0,
              parametrisation="standard"):
    """SGD with momentum on the mean cross-entropy (Petrini et al.'s optimiser).  The learning rate
    follows torch's CosineAnnealingLR stepped once per epoch with T_max = ``decay_frac`` x epochs,
    as Petrini et al.'s code does (D.3: 'decayed with a cosine schedule down to 80% of epochs')."""
    dev, dtype = Ws[0].device, Ws[0].dtype
    X, y = torch.as_tensor(X, dtype=dtype, device=dev), torch.as_tensor(y, device=dev)
    g = torch.Generator().manual_seed(seed)
    bufs = [torch.zeros_like(W) for W in Ws]
    for epoch in range(epochs):
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / (decay_frac * epochs)))
        order = torch.randperm(len(X), generator=g).to(dev)
        for start in range(0, len(X), batch):
            idx = order[start:start + batch]
            logits = mlp_forward(Ws, X[idx], parametrisation)
            loss = F.cross_entropy(logits.flatten(0, 1), y[idx].repeat(logits.shape[0]),
                                   reduction="sum") / len(idx)
            grads = torch.autograd.grad(loss, Ws)
            with torch.no_grad():
                for W, b, gr in zip(Ws, bufs, grads):
                    b.mul_(momentum).add_(gr)
                    W -= rate * b
    return Ws


def mlp_accuracy(Ws, X, y, parametrisation: str = "standard") -> np.ndarray:
    with torch.no_grad():
        out = mlp_forward(Ws, torch.as_tensor(X, dtype=Ws[0].dtype, device=Ws[0].device),
                          parametrisation)
    return (out.argmax(-1) == torch.as_tensor(y, device=Ws[0].device)).float().mean(1).cpu().numpy()
