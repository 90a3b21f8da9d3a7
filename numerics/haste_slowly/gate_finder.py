"""Algorithm B.1 (App B, MHS-AlgB1, MHS-Fig8): find a ReLN's gates by k-means on the binary
activation patterns a ReLU network's hidden units show over training, then train the GDLNs the
centroids define.

``patterns`` are rows in {0,1}^N (one per hidden unit per sample time); the k centroids in
[0,1]^N are the gating patterns of k module types.  Units whose weights are still at init carry
no structure, so (as the paper's "sufficiently small" init implies) only units with
non-negligible weight mass are kept.  Time: epochs.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch
from sklearn.cluster import KMeans

from numerics.haste_slowly import experiments
from numerics.haste_slowly.configs import Gates
from numerics.haste_slowly.gated import GatedNet, init_weights, train
from numerics.ran import Ran
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument, finite_array, integer


def collect(patterns, masses, keep_fraction: float = 0.01):
    """Stack (T, K, H, N) binary patterns into rows, keeping units whose mass (T, K, H) exceeds
    ``keep_fraction`` of the largest mass of their network at that time."""
    patterns = np.asarray(patterns)
    masses = finite_array(masses, "masses")
    if patterns.shape[:3] != masses.shape:
        raise InvalidArgument(f"patterns {patterns.shape} and masses {masses.shape} disagree")
    keep = masses > keep_fraction * masses.max(axis=-1, keepdims=True)
    return patterns[keep].astype(float)


def find_gates(rows, k: int, seed: int = 0, n_init: int = 10):
    """(k, N) centroids of k-means on the pattern rows, ordered by decreasing activity."""
    rows = finite_array(rows, "rows", ndim=2)
    if int(k) != k or not 1 <= k <= len(rows):
        raise InvalidArgument(f"k={k!r} must be an integer in [1, {len(rows)}]")
    km = KMeans(n_clusters=int(k), n_init=n_init, random_state=seed).fit(rows)
    c = km.cluster_centers_
    return c[np.argsort(-c.sum(axis=1), kind="stable")]


def binarise(centroids, threshold: float = 0.5) -> np.ndarray:
    """The GDLN gates a fractional centroid stands for (threshold 1/2, App B leaves it open)."""
    if isinstance(threshold, bool) or not np.isfinite(threshold):
        raise InvalidArgument(f"threshold={threshold!r} must be a finite number")
    return (np.asarray(centroids) > threshold).astype(float)


def gdlns_from_centroids(centroid_sets, n_in: int, n_out: int, width: int, stds, seeds,
                         slots: int | None = None):
    """One batched GDLN per (centroid set, std, seed), in that order: member i has one module of
    ``width`` units, seeing every input, per binarised centroid of its set (module slots its set
    does not use gated off), all weights N(0, std^2).  The weights are drawn for ``slots`` module
    slots (default: the largest set) and cut to the slots the largest set uses, so a member's
    weights do not depend on the other sets batched with it."""
    if not len(centroid_sets) or any(not len(c) for c in centroid_sets):
        raise InvalidArgument("centroid_sets must be a non-empty list of non-empty centroid sets")
    width = integer(width, "width")
    used = max(len(c) for c in centroid_sets)
    slots = used if slots is None else integer(slots, "slots")
    if slots < used:
        raise InvalidArgument(f"slots={slots} must be at least the largest centroid set ({used})")
    N = len(centroid_sets[0][0])
    members = [(i, s, seed) for i in range(len(centroid_sets)) for s in stds for seed in seeds]
    gates = np.zeros((len(members), used * width, N))
    for m, (i, _, _) in enumerate(members):
        gates[m, :len(centroid_sets[i]) * width] = np.repeat(binarise(centroid_sets[i]), width,
                                                             axis=0)
    W1, W2 = (torch.cat(ws) for ws in zip(*(init_weights([seed], [(slots * width, n_in),
                                                                  (n_out, slots * width)], [s, s])
                                            for _, s, seed in members)))
    return GatedNet([W1[:, :used * width], W2[:, :, :used * width]], [torch.tensor(gates)]), members


@dataclass(frozen=True)
class GateRun:
    """Algorithm B.1 on the Sec 4 ReLU runs of ``cfg.sec45``: ``rows`` pooled patterns; centroids
    per k from every run (``centroids``) and from the first half of the runs (``half``);
    ``trajectory`` the GDLNs from both sets of centroids (members ``members``: (k, std, seed,
    'all' | 'half')), epochs; ``relu_loss`` (T, K) the ReLU runs' losses on the same grid."""

    rows: int
    centroids: dict
    half: dict
    trajectory: Trajectory
    members: tuple
    relu_loss: np.ndarray
    ran: Ran


def _rows(cfg: Gates, runs: slice) -> np.ndarray:
    """The large units' patterns of the ReLU runs ``runs``, every ``cfg.every`` epochs."""
    t = experiments.relu_run(cfg.sec45).trajectory
    every = max(round(cfg.every / float(np.diff(t.time[:2])[0])), 1)
    return collect(t.records["patterns"][::every, runs], t.records["mass"][::every, runs])


@cache
def elbow_run(cfg: Gates) -> GateRun:
    """Algorithm B.1 and Figs 8-9 at ``cfg``: k-means for every k of ``cfg.ks`` on the large
    units' patterns of every Sec 4 ReLU run every ``cfg.every`` epochs, and one batched GDLN
    training per (centroid set, k, std, seed) at the Sec 4 step size and horizon."""
    if not isinstance(cfg, Gates):
        raise InvalidArgument(f"cfg must be a configs.Gates, got {type(cfg).__name__}")
    X, Y = experiments.task(None)
    K = len(cfg.sec45.seeds)
    rows = _rows(cfg, slice(None))
    half = _rows(cfg, slice(0, max(K // 2, 1)))
    cents = {k: find_gates(rows, k) for k in cfg.ks}
    half_cents = {k: find_gates(half, k) for k in cfg.ks}
    sets = [cents[k] for k in cfg.ks] + [half_cents[k] for k in cfg.ks]
    relu = experiments.relu_run(cfg.sec45)
    every = int(relu.trajectory.steps[1] - relu.trajectory.steps[0])
    # one batch per number of centroids: a batch of all would carry every member's empty module
    # slots through every step (a third of the work at k = 2..6); the weights are drawn for the
    # largest k as in one batch
    members, losses = [], []
    for k in sorted(set(cfg.ks)):
        which = [i for i, c in enumerate(sets) if len(c) == k]
        net, batch = gdlns_from_centroids([sets[i] for i in which], X.shape[0], Y.shape[0],
                                          cfg.width, cfg.stds, cfg.gdln_seeds, slots=max(cfg.ks))
        traj = train(net.astype(getattr(torch, cfg.sec45.dtype)), X, Y, lr=cfg.sec45.lr,
                     steps=cfg.sec45.steps, record_every=every)
        members += [(which[i], s, seed) for i, s, seed in batch]
        losses.append(traj.loss)
    # back to the order of one batch over the sets (stable: std and seed order kept within a set)
    order = np.argsort([i for i, _, _ in members], kind="stable")
    members = [members[m] for m in order]
    traj = Trajectory(traj.steps, traj.time, traj.clock, np.concatenate(losses, axis=1)[:, order])
    ran = Ran.of(cfg, elbow_run, **{
        "data": experiments.relu_run(cfg.sec45).ran["data"],
        "ReLU runs pooled": K, "sampled every (epochs)": cfg.every, "k": cfg.ks,
        "clustering": "K-means on every stacked binary sample",
        "GDLN units per module": cfg.width, "GDLN init std": cfg.stds,
        "learning rate": cfg.sec45.lr, "horizon (epochs)": cfg.sec45.epochs,
        "dtype": cfg.sec45.dtype, "seeds": cfg.seeds})
    n = len(cfg.ks)
    return GateRun(len(rows), cents, half_cents, traj,
                   tuple((cfg.ks[i % n], s, seed, "all" if i < n else "half")
                         for i, s, seed in members),
                   relu.trajectory.loss, ran)
