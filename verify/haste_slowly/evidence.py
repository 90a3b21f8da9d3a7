"""Evidence of Make haste slowly (MHS-): results in, measurements out; nothing here trains,
integrates or plots.

Each function of an empirical claim takes the typed results of its runners (or arrays they hold)
and returns the claim's measurements, decisive ones first; its ``Setup`` comes from
:mod:`verify.haste_slowly.settings`.  The rejection tests of ``tests/haste_slowly`` feed the same
functions synthetic results.  Time is the paper's clock of each trajectory (epochs for Sec 4-6
and App B, t/tau for Fig 2).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from numerics.haste_slowly import gate_finder as gf
from numerics.haste_slowly.datasets import context_gates, k_of_c
from numerics.metrics import crossing_time
from verify.measurement import Measurement, baseline, measure, paper, reading
from verify.statements import LEVEL, direction, each, within_baseline

# ------------------------------------------------------------------ statistics shared by claims


def detectable_effect(n1: int, n2: int, power: float = 0.8) -> float:
    """Cohen's d that a one-sided two-sample t-test at :data:`verify.statements.LEVEL` detects
    with probability ``power`` from ``n1`` and ``n2`` seeds (noncentral t): the power statement
    of a claim about a distribution decided on that many seeds."""
    if min(n1, n2) < 2 or not 0 < power < 1:
        raise ValueError(f"n1={n1}, n2={n2} must be >= 2 and power={power} in (0, 1)")
    df = n1 + n2 - 2
    crit = stats.t.ppf(1 - LEVEL, df)
    scale = np.sqrt(n1 * n2 / (n1 + n2))
    lo, hi = 0.0, 50.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if stats.nct.sf(crit, df, mid * scale) < power else (lo, mid)
    return hi


def cohen_d(a, b) -> float:
    a, b = np.asarray(a, float), np.asarray(b, float)
    pooled = np.sqrt(((a.size - 1) * a.var(ddof=1) + (b.size - 1) * b.var(ddof=1))
                     / (a.size + b.size - 2))
    return float((b.mean() - a.mean()) / pooled) if pooled > 0 else float("inf")


def first_time(times, values, level: float, below: bool = False) -> np.ndarray:
    """(K,) first time each column of ``values`` (T, K) passes ``level`` (inf: never)."""
    values = np.asarray(values, dtype=float)
    hit = values < level if below else values > level
    return np.where(hit.any(0), np.asarray(times, dtype=float)[np.argmax(hit, axis=0)], np.inf)


def deviation_from_mean(loss, L0: float) -> np.ndarray:
    """(K,) max over time of |L_k(t) - mean_k L(t)| / L(0): how far each seed's loss curve
    strays from its network's seed-mean curve."""
    loss = np.asarray(loss, dtype=float)
    return np.max(np.abs(loss - loss.mean(1, keepdims=True)), axis=0) / L0


def stereotypical(loss) -> int:
    """The run closest to the seed-mean curve (sum over time of squared distances, as the released
    depth/replot.py picks Fig 6b's highlighted runs)."""
    loss = np.asarray(loss, dtype=float)
    return int(np.argmin(((loss - loss.mean(1, keepdims=True)) ** 2).sum(0)))


def mass_shares(counts, mass, values, keep_fraction: float = 0.01) -> dict:
    """Share of the weight mass of the units (mass > keep_fraction x max) with each count value."""
    counts, mass = np.asarray(counts), np.asarray(mass, dtype=float)
    big = mass > keep_fraction * mass.max(axis=-1, keepdims=True)
    w = mass * big
    return {v: float((w * (counts == v)).sum() / w.sum()) for v in values}


def per_context(centroids, C: int = 3, n_items: int = 8) -> set:
    """The binarised context patterns of k-means centroids: a context is on when the centroid is
    on for a majority of its items (Algorithm B.1 leaves the binarisation open)."""
    return {tuple(np.repeat(np.asarray(c).reshape(C, n_items).mean(1) > 0.5, n_items).astype(float))
            for c in centroids}


def reln_patterns(C: int = 3) -> set:
    """The gate patterns of the Sec 4 ReLN: all-on and the pathways on in C-1 contexts."""
    return {tuple(np.ones(8 * C))} | {tuple(r) for r in context_gates(C, k_of_c(C, C - 1))}


# ------------------------------------------------------------------ Sec 6: depth (L162-L171)

S6_WORDS = ("the ReLU network does not use the first layer for gating and instead all neurons are "
            "active for all datapoints")
ALIGNED = 0.9       # |cos| past which a pathway's top output mode counts as aligned (a reading)
ONSET = 0.9         # a loss part has started to drop once below this share of its start


def first_layer_ungated(g1, m1) -> list[Measurement]:
    """MHS-S6-C1, first layer (L162), about each trained network, read two ways: 'all neurons'
    (every layer-1 unit carrying weight, mass > 1% of the largest, is on for all 24 datapoints)
    and 'the layer's weight' (most of the layer-1 weight mass sits on such units).  ``g1`` (K,
    units, 24) final gates, ``m1`` (K, units) unit masses."""
    g1, m1 = np.asarray(g1, dtype=bool), np.asarray(m1, dtype=float)
    always = g1.all(-1)
    big = m1 > 0.01 * m1.max(axis=1, keepdims=True)
    units = (always & big).sum(1) / big.sum(1)
    mass = np.array([mass_shares(always[k].astype(int), m1[k], (1,))[1] for k in range(len(m1))])
    return [each("share of the layer-1 units carrying weight (> 1% of the largest) that are on "
                 "for all 24 datapoints", units, "==", 1.0,
                 source=paper("L162", S6_WORDS, interpretation="every neuron carrying weight")),
            each("share of the layer-1 weight mass on units on for all 24 datapoints", mass, ">",
                 0.5, source=paper("L162", S6_WORDS, interpretation="most of the layer's weight"))]


def second_layer_gates(g2, m2) -> Measurement:
    """MHS-S6-C1, second layer (L162): Algorithm B.1's k-means (k = 4) on the final layer-2
    patterns of every run, pooled, gives the common pathway and the three 2-of-3-context ones."""
    rows = gf.collect(np.asarray(g2)[None], np.asarray(m2)[None])
    found = per_context(gf.binarise(gf.find_gates(rows, 4)))
    return measure("k-means (k = 4) on the layer-2 patterns of every run, binarised per context "
                   "(majority of items): all-on and the three 2-of-3-context patterns",
                   found == reln_patterns(), "==", True,
                   source=paper("L162", "the contextual pathways are active in two out of the three "
                                        "contexts. Similarly the common pathway remains"),
                   details={"patterns found": sorted(found)})


def variance_with_depth(relu_loss, gdln_loss, shallow_loss, L0: float) -> list[Measurement]:
    """MHS-S6-C2 (L164), a statement about the distribution of trained networks: each seed's
    deviation from its network's mean loss curve (:func:`deviation_from_mean`) is larger for the
    2-hidden-layer ReLU net and for the depth GDLN than for the single-hidden-layer net (one-sided
    Welch tests); the details state the effect each test detects with 80% power.  The paper's
    second sentence (L169, the ReLN 'shares the same characteristics in variance') is read as the
    GDLN's spread lying nearer the deep ReLU's than the shallow net's (a reading)."""
    dev = {k: deviation_from_mean(v, L0) for k, v in
           (("relu", relu_loss), ("gdln", gdln_loss), ("shallow", shallow_loss))}
    words = paper("L164", "there is now variance in the trajectories of both networks, which was "
                          "not the case for the single-hidden-layer architectures")
    out = []
    for kind, name in (("relu", "2-hidden-layer ReLU"), ("gdln", "depth GDLN")):
        out.append(direction(f"deviation of a seed's loss curve from its network's mean, max over "
                             f"epochs, / L(0): 1-hidden-layer ReLU below {name}", dev["shallow"],
                             dev[kind], source=words, names=("1-hidden-layer", name)))
        detectable = detectable_effect(dev["shallow"].size, dev[kind].size)
        out.append(measure(f"power: the measured effect (Cohen's d), {name} against 1-hidden-layer, "
                           "beside the effect the test detects with 80% power",
                           cohen_d(dev["shallow"], dev[kind]), ">=", detectable,
                           source=reading("the power of the one-sided Welch test on these seeds"),
                           details={"seeds": [int(dev["shallow"].size), int(dev[kind].size)],
                                    "detectable at 80% power": detectable}))
    spread = {k: float(np.median(v)) for k, v in dev.items()}
    closer = abs(np.log(spread["gdln"] / spread["relu"])) < abs(np.log(spread["gdln"]
                                                                      / spread["shallow"]))
    out.append(measure("median seed deviation of the GDLN nearer (log ratio) the deep ReLU's "
                       "than the 1-hidden-layer net's", bool(closer), "==", True,
                       source=reading("the suite's reading of a shared variance profile",
                                      "L169", "the ReLN shares the same characteristics in "
                                              "variance as the ReLU network"),
                       details={f"median deviation, {k}": v for k, v in spread.items()}))
    return out


def onsets(trajectory) -> tuple[np.ndarray, np.ndarray]:
    """(K,) per seed: the epoch the common pathway's top output mode aligns (``align_lin`` past
    :data:`ALIGNED`) and the epoch the gating-only loss part ``ctx`` starts to drop (below
    :data:`ONSET` of its start)."""
    t, rec = trajectory.time, trajectory.records
    return (first_time(t, rec["align_lin"], ALIGNED),
            first_time(t, rec["ctx"], ONSET * np.asarray(rec["ctx"])[0], below=True))


def aligned_curves(trajectory, start, width: float, every: float) -> np.ndarray:
    """(S, K) each seed's loss from its own ``start`` epoch on, over ``width`` epochs sampled
    every ``every`` (linear interpolation)."""
    t, loss = np.asarray(trajectory.time, float), np.asarray(trajectory.loss, float)
    grid = np.arange(0.0, width + every / 2, every)
    return np.stack([np.interp(s + grid, t, loss[:, k]) for k, s in enumerate(start)], axis=1)


def staged_onsets(relu, gdln, L0: float) -> list[Measurement]:
    """MHS-S6-C3 (L171), from the two networks' trajectories.  The GDLN's stages (common pathway from epoch 500, contextual pathways
    from 12000) are the released schedule (gdln_off.py start_epoch, switch_epoch1; MHS-E16), so
    the paper's epochs are recorded beside the ReLU's own, never as a tolerance.  What the run
    decides is the sentence after them: 'the relative timing of the drops in loss and positions
    of the plateaus in loss are all consistent following the alignment': every seed's loss curve
    taken from its own contextual onset, the GDLN's seed-mean curve against the ReLU's, within the
    ReLU runs' own spread about theirs (a same-run baseline)."""
    common_r, ctx_r = onsets(relu)
    common_g, ctx_g = onsets(gdln)
    starts = np.r_[ctx_r, ctx_g]
    if not np.all(np.isfinite(starts)):
        width = 0.0
    else:
        width = float(min(np.asarray(relu.time)[-1] - ctx_r.max(), np.asarray(gdln.time)[-1]
                          - ctx_g.max()))
    every = float(np.diff(np.asarray(relu.time, float)[:2])[0])
    if width <= every:
        gap, spread = np.inf, 0.0
    else:
        R = aligned_curves(relu, ctx_r, width, every) / L0
        G = aligned_curves(gdln, ctx_g, width, every) / L0
        gap = float(np.mean(np.abs(G.mean(1) - R.mean(1))))
        spread = float(np.mean(np.abs(R - R.mean(1, keepdims=True))))
    onset_words = ("the common pathway align around epoch 500, while the contextual pathways only "
                   "appear at epoch 12000")
    return [
        within_baseline("mean over epochs since the contextual onset of |seed-mean GDLN loss - "
                        "seed-mean ReLU loss| / L(0)", gap, spread,
                        source=baseline("L171", "The relative timing of the drops in loss and "
                                                "positions of the plateaus in loss are all "
                                                "consistent following the alignment",
                                        "the mean distance of a ReLU run's curve from the ReLU "
                                        "mean, both taken from each run's own contextual onset",
                                        interpretation="curves aligned at each run's contextual "
                                                       "onset"),
                        names=("GDLN to ReLU", "ReLU seed spread")),
        measure("median epoch the ReLU net's common output mode aligns (|cos| > 0.9)",
                float(np.median(common_r)), ">=", 0,
                source=reading("the ReLU's own timing beside the GDLN's imposed epoch 500",
                               "L171", onset_words),
                details={"per seed": common_r, "GDLN, per seed": common_g}),
        measure("median epoch the ReLU net's gating-only loss part starts to drop",
                float(np.median(ctx_r)), ">=", 0,
                source=reading("the ReLU's own timing beside the GDLN's imposed epoch 12000",
                               "L171", onset_words),
                details={"per seed": ctx_r, "GDLN, per seed": ctx_g}),
    ]


def stereotypical_agreement(relu_loss, gdln_loss, L0: float) -> list[Measurement]:
    """MHS-Fig6 (L171, Fig 6b): the stereotypical runs (closest to their network's mean, as
    replot.py) of the ReLU net and the GDLN against the ReLU runs' own spread about their
    stereotypical run, read two ways: inside the band of ReLU runs (the farthest one), and as
    close as a typical ReLU run (the median)."""
    R, G = np.asarray(relu_loss, float) / L0, np.asarray(gdln_loss, float) / L0
    r, g = stereotypical(R), stereotypical(G)
    others = np.delete(R, r, axis=1)
    dist = np.mean(np.abs(others - R[:, r:r + 1]), axis=0)
    gap = float(np.mean(np.abs(R[:, r] - G[:, g])))
    words = ("We see close agreement between the ReLU network and GDLN stereotypical "
             "trajectories")
    return [within_baseline("mean over epochs of |stereotypical ReLU loss - stereotypical GDLN "
                            "loss| / L(0)", gap, float(dist.max()),
                            source=baseline("L171", words, "the farthest other ReLU run from the "
                                                           "stereotypical ReLU run",
                                            interpretation="inside the band of ReLU runs"),
                            names=("GDLN", "farthest ReLU run")),
            within_baseline("the same distance", gap, float(np.median(dist)),
                            source=baseline("L171", words, "the median other ReLU run's distance "
                                                           "from the stereotypical ReLU run",
                                            interpretation="as close as a typical ReLU run"),
                            names=("GDLN", "median ReLU run"))]
