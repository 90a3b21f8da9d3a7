"""The networks of Sec 4-6 built on :mod:`numerics.haste_slowly.gated`: bias-free ReLU nets and
ReLNs (GDLNs with context-gated pathways, MHS-S4-ReLN, MHS-S5-C1, MHS-S6-C1), plus the
classification of hidden units by their gating pattern (MHS-S4-C3).

A pathway ("module") is a block of ``width`` hidden units sharing one gate row: on for the
datapoints of the contexts in ``contexts`` (``None``: all, the common pathway).  Contextual
pathways see the item features only (App F L598); the common pathway sees everything.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from numerics.haste_slowly.datasets import N_ITEMS, context_gates, k_of_c
from numerics.haste_slowly.gated import GatedNet, init_weights
from theory.conventions import SUM_HALF
from numerics.validation import InvalidArgument


@dataclass(frozen=True)
class Module:
    contexts: frozenset | None       # None: the common pathway (on for every datapoint)
    width: int
    std: float
    items_only: bool = True


def pathways(C: int, k: int, width: int, std_common: float, std_ctx: float, extra_k=()):
    """Common pathway plus every pathway active in exactly ``k`` (and each of ``extra_k``) of
    the C contexts; ``k = C-1`` is the paper's ReLN, ``k = 1`` the "GDLN Single"."""
    mods = [Module(None, width, std_common, items_only=False)]
    for kk in (k, *extra_k):
        mods += [Module(frozenset(s), width, std_ctx) for s in k_of_c(C, kk)]
    return mods


def build(C: int, modules, seeds, n_out: int, n_items: int = N_ITEMS, device=None):
    """(GatedNet of the ReLN, (H,) module index of every hidden unit)."""
    d = n_items + C
    gate_rows, mask_rows, unit_module, stds = [], [], [], []
    for m, mod in enumerate(modules):
        g = np.ones(n_items * C) if mod.contexts is None else context_gates(C, [mod.contexts], n_items)[0]
        mask = np.ones(d)
        if mod.items_only:
            mask[n_items:] = 0
        gate_rows += [g] * mod.width
        mask_rows += [mask] * mod.width
        unit_module += [m] * mod.width
        stds += [mod.std] * mod.width
    unit_module = np.array(unit_module)
    stds = np.array(stds)
    W = init_weights(seeds, [(len(stds), d), (n_out, len(stds))], [stds, stds], device)
    common = torch.as_tensor(np.array([modules[m].contexts is None for m in unit_module]),
                             device=W[0].device)
    net = GatedNet(W, [np.array(gate_rows)], [np.array(mask_rows), None], common=common)
    return net, unit_module


def relu(seeds, sizes, std, device=None) -> GatedNet:
    """Bias-free ReLU net with layer sizes ``sizes = (d, h_1, ..., m)``, all weights N(0, std^2)."""
    shapes = list(zip(sizes[1:], sizes[:-1]))
    W = init_weights(seeds, shapes, [std] * len(shapes), device)
    return GatedNet(W, [None] * (len(shapes) - 1))


def module_products(net: GatedNet, unit_module) -> torch.Tensor:
    """(K, modules, m, d) input-output map W2[:, units] W1[units] of every pathway."""
    W1, W2 = net._w(0), net._w(1)
    return torch.stack([W2[:, :, unit_module == m] @ W1[:, unit_module == m]
                        for m in range(int(unit_module.max()) + 1)], dim=1)


def module_outputs(net: GatedNet, unit_module, X) -> np.ndarray:
    """(K, modules, m, N) gated output of every pathway of a one-hidden-layer GDLN on ``X``."""
    x = torch.as_tensor(np.asarray(X), dtype=net.weights[0].dtype, device=net.weights[0].device)
    with torch.no_grad():
        h, W2 = net.hidden(x), net._w(1)
        return torch.stack([W2[:, :, unit_module == m] @ h[:, unit_module == m]
                            for m in range(int(unit_module.max()) + 1)], dim=1).cpu().numpy()


def unit_mass(net: GatedNet) -> torch.Tensor:
    """(K, H) contribution ||W1[j]|| * ||W2[:, j]|| of every hidden unit (one hidden layer)."""
    return net._w(0).norm(dim=2) * net._w(1).norm(dim=1)


def loss_without(net: GatedNet, X, Y, drop) -> np.ndarray:
    """(K,) 1/2-sum loss of a one-hidden-layer network with the hidden units ``drop`` (K, H)
    removed (an ablation of the final network; no training)."""
    dt, dev = net.weights[0].dtype, net.weights[0].device
    drop = torch.as_tensor(np.asarray(drop, dtype=bool), device=dev)
    if drop.shape != net.weights[0].shape[:2]:
        raise InvalidArgument(f"drop must have shape {tuple(net.weights[0].shape[:2])}, got "
                              f"{tuple(drop.shape)}")
    x, y = (torch.as_tensor(np.asarray(a), dtype=dt, device=dev) for a in (X, Y))
    with torch.no_grad():
        hidden = net.hidden(x) * (~drop)[:, :, None].to(dt)
        out = net._w(1) @ hidden
        return (SUM_HALF.factor(x.shape[1]) * ((out - y) ** 2).sum(dim=(1, 2))).cpu().numpy()
