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

from numerics.haste_slowly.datasets import N_ITEMS, context_gates, context_of, k_of_c
from numerics.haste_slowly.gated import GatedNet, init_weights


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


def pattern_class(patterns: np.ndarray, C: int, n_items: int = N_ITEMS) -> np.ndarray:
    """Class of each binary (N,) gating pattern: the number k of contexts on which it is fully on
    when it is a union of whole contexts (k = C: always on, k = 0: never on), else -1 ("mixed")."""
    patterns = np.asarray(patterns, dtype=bool)
    ctx = context_of(C, n_items)
    per_ctx = np.stack([patterns[..., ctx == c] for c in range(C)], axis=-2)  # (..., C, n)
    full, empty = per_ctx.all(-1), ~per_ctx.any(-1)
    whole = (full | empty).all(-1)
    return np.where(whole, full.sum(-1), -1)


def unit_mass(net: GatedNet) -> torch.Tensor:
    """(K, H) contribution ||W1[j]|| * ||W2[:, j]|| of every hidden unit (one hidden layer)."""
    return net._w(0).norm(dim=2) * net._w(1).norm(dim=1)


def context_usage(patterns: np.ndarray, C: int, n_items: int = N_ITEMS, majority: float = 0.5):
    """(..., H) number of contexts in which a unit is on for at least ``majority`` of the items
    (``majority=0``: on for any item)."""
    per = np.asarray(patterns, dtype=float).reshape(*np.shape(patterns)[:-1], C, n_items)
    frac = per.mean(-1)
    return (frac > 0).sum(-1) if majority == 0 else (frac >= majority).sum(-1)


def mass_shares(counts: np.ndarray, mass: np.ndarray, values, keep_fraction: float = 0.01):
    """Share of the weight mass of the units (mass > keep_fraction x max) with each count value."""
    big = mass > keep_fraction * mass.max(axis=-1, keepdims=True)
    w = mass * big
    return {v: float((w * (counts == v)).sum() / w.sum()) for v in values}
