"""Algorithm B.1 (App B, MHS-AlgB1): find a ReLN's gates by k-means on the binary activation
patterns a ReLU network's hidden units show over training.

``patterns`` are rows in {0,1}^N (one per hidden unit per sample time); the k centroids in
[0,1]^N are the gating patterns of k module types.  Units whose weights are still at init carry
no structure, so (as the paper's "sufficiently small" init implies) only units with
non-negligible weight mass are kept.
"""
from __future__ import annotations

import numpy as np
from sklearn.cluster import KMeans

from numerics.validation import finite_array


def collect(patterns, masses, keep_fraction: float = 0.01):
    """Stack (T, K, H, N) binary patterns into rows, keeping units whose mass (T, K, H) exceeds
    ``keep_fraction`` of the largest mass of their network at that time."""
    patterns = np.asarray(patterns)
    masses = finite_array(masses, "masses")
    if patterns.shape[:3] != masses.shape:
        raise ValueError(f"patterns {patterns.shape} and masses {masses.shape} disagree")
    keep = masses > keep_fraction * masses.max(axis=-1, keepdims=True)
    return patterns[keep].astype(float)


def find_gates(rows, k: int, seed: int = 0, n_init: int = 10):
    """(k, N) centroids of k-means on the pattern rows, ordered by decreasing activity."""
    rows = finite_array(rows, "rows", ndim=2)
    if int(k) != k or not 1 <= k <= len(rows):
        raise ValueError(f"k={k!r} must be an integer in [1, {len(rows)}]")
    km = KMeans(n_clusters=int(k), n_init=n_init, random_state=seed).fit(rows)
    c = km.cluster_centers_
    return c[np.argsort(-c.sum(axis=1), kind="stable")]


def binarise(centroids, threshold: float = 0.5) -> np.ndarray:
    """The GDLN gates a fractional centroid stands for (threshold 1/2, App B leaves it open)."""
    return (np.asarray(centroids) > threshold).astype(float)


def gdlns_from_centroids(centroid_sets, n_in: int, n_out: int, width: int, std: float, seed=0):
    """One batched GDLN per centroid set (member k: one module of ``width`` units, seeing every
    input, per binarised centroid; unused module slots gated off), as a single GatedNet."""
    import torch
    from numerics.haste_slowly.gated import GatedNet, init_weights
    slots = max(len(c) for c in centroid_sets)
    N = len(centroid_sets[0][0])
    gates = np.zeros((len(centroid_sets), slots * width, N))
    for k, cents in enumerate(centroid_sets):
        gates[k, :len(cents) * width] = np.repeat(binarise(cents), width, axis=0)
    W = init_weights([seed] * len(centroid_sets), [(slots * width, n_in), (n_out, slots * width)],
                     [std, std])
    return GatedNet(W, [torch.tensor(gates)])
