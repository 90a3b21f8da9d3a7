"""Evidence of Make haste slowly (MHS-): results in, measurements out; nothing here trains,
integrates or plots.

Each function of an empirical claim takes the typed results of its runners (or arrays they hold)
and returns the claim's measurements, decisive ones first; its ``Setup`` comes from
:mod:`verify.haste_slowly.settings`.  The rejection tests of ``tests/haste_slowly`` feed the same
functions synthetic results.  Time is the paper's clock of each trajectory (epochs for Sec 4-6
and App B, t/tau for Fig 2).
"""
from __future__ import annotations

import itertools

import numpy as np
from scipy import stats

from numerics.haste_slowly import analysis as A
from numerics.haste_slowly import gate_finder as gf
from verify.measurement import Measurement, baseline, exact, measure, paper, reading
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


# ------------------------------------------------------------------ Sec 6: depth (L162-L171)

S6_WORDS = ("the ReLU network does not use the first layer for gating and instead all neurons are "
            "active for all datapoints")


def first_layer_ungated(g1, m1) -> list[Measurement]:
    """MHS-S6-C1, first layer (L162), about each trained network, read two ways: 'all neurons'
    (every layer-1 unit carrying weight, mass > 1% of the largest, is on for all 24 datapoints)
    and 'the layer's weight' (most of the layer-1 weight mass sits on such units).  ``g1`` (K,
    units, 24) final gates, ``m1`` (K, units) unit masses."""
    g1, m1 = np.asarray(g1, dtype=bool), np.asarray(m1, dtype=float)
    always = g1.all(-1)
    big = m1 > 0.01 * m1.max(axis=1, keepdims=True)
    units = (always & big).sum(1) / big.sum(1)
    mass = np.array([A.mass_shares(always[k].astype(int), m1[k], (1,))[1] for k in range(len(m1))])
    return [each("share of the layer-1 units carrying weight (> 1% of the largest) that are on "
                 "for all 24 datapoints", units, "==", 1.0,
                 source=paper("L162", S6_WORDS, interpretation="every neuron carrying weight")),
            each("share of the layer-1 weight mass on units on for all 24 datapoints", mass, ">",
                 0.5, source=paper("L162", S6_WORDS, interpretation="most of the layer's weight"))]


def second_layer_gates(g2, m2) -> Measurement:
    """MHS-S6-C1, second layer (L162): Algorithm B.1's k-means (k = 4) on the final layer-2
    patterns of every run, pooled, gives the common pathway and the three 2-of-3-context ones."""
    rows = gf.collect(np.asarray(g2)[None], np.asarray(m2)[None])
    found = A.per_context(gf.binarise(gf.find_gates(rows, 4)))
    return measure("k-means (k = 4) on the layer-2 patterns of every run, binarised per context "
                   "(majority of items): all-on and the three 2-of-3-context patterns",
                   found == A.reln_patterns(), "==", True,
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
    dev = {k: A.deviation_from_mean(v, L0) for k, v in
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


def staged_onsets(relu, gdln, L0: float) -> list[Measurement]:
    """MHS-S6-C3 (L171), from the two networks' trajectories.  The GDLN's stages (common pathway from epoch 500, contextual pathways
    from 12000) are the released schedule (gdln_off.py start_epoch, switch_epoch1; MHS-E16), so
    the paper's epochs are recorded beside the ReLU's own, never as a tolerance.  What the run
    decides is the sentence after them: 'the relative timing of the drops in loss and positions
    of the plateaus in loss are all consistent following the alignment': every seed's loss curve
    taken from its own contextual onset, the GDLN's seed-mean curve against the ReLU's, within the
    ReLU runs' own spread about theirs (a same-run baseline)."""
    common_r, ctx_r = A.onsets(relu)
    common_g, ctx_g = A.onsets(gdln)
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
        R = A.aligned_curves(relu, ctx_r, width, every) / L0
        G = A.aligned_curves(gdln, ctx_g, width, every) / L0
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
    r, g = A.stereotypical(R), A.stereotypical(G)
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


# ------------------------------------------------------------------ Sec 4: the ReLU net and its ReLN


def imitation(relu_loss, reln_loss, null_loss, L0: float, where: str, words: str) -> list:
    """The ReLN's loss curve agrees with the ReLU net's ("excellent agreement", L120; the gating
    "constant from the start" suffices, L118), two readings of the yardstick: within the ReLU
    runs' own spread about their mean, and closer than the GDLN that the paper shows does not
    imitate the ReLU net (the single-context GDLN of Fig 4a)."""
    gap = A.loss_distance(reln_loss, relu_loss, L0)
    name = "mean over epochs of |seed-mean ReLN loss - seed-mean ReLU loss| / L(0)"
    return [within_baseline(name, gap, A.seed_spread(relu_loss, L0),
                            source=baseline(where, words, "the ReLU runs' mean distance from "
                                                          "their seed-mean curve",
                                            interpretation="within the ReLU runs' spread"),
                            names=("ReLN", "ReLU runs")),
            within_baseline(name, gap, A.loss_distance(null_loss, relu_loss, L0),
                            source=baseline(where, words, "the same distance of the single-context "
                                                          "GDLN, which does not imitate (Fig 4a)",
                                            interpretation="closer than the non-imitating GDLN"),
                            names=("ReLN", "single-context GDLN"))]


def output_agreement(relu_out, reln_out, Y, times, at=(1000, 4000, 8000)) -> Measurement:
    """Fig 4a's output samples (L129 "exact agreement between these output samples"): at the
    sampled epochs, ||seed-mean ReLN output - seed-mean ReLU output|| / ||Y|| against the ReLU
    runs' own distance from their mean output.  ``relu_out``, ``reln_out`` (T, K, m, N)."""
    idx = [int(np.argmin(np.abs(np.asarray(times) - e))) for e in at]
    R, G = np.asarray(relu_out, float)[idx], np.asarray(reln_out, float)[idx]
    ny = float(np.linalg.norm(Y))
    gap = float(np.max(np.linalg.norm(G.mean(1) - R.mean(1), axis=(-2, -1)))) / ny
    spread = float(np.max(np.linalg.norm(R - R.mean(1, keepdims=True), axis=(-2, -1)))) / ny
    return within_baseline(f"max over epochs {list(at)} of ||ReLN output - ReLU output|| / ||Y|| "
                           "(seed means)", gap, spread,
                           source=baseline("Fig 4 caption, L129", "we see exact agreement between "
                                                                  "these output samples",
                                           "the farthest ReLU run's output from the ReLU mean"),
                           names=("ReLN", "ReLU runs"))


def latent_geometry(relu_hidden, reln_hidden, single_hidden, times, start: float = 500,
                    every: int = 4) -> list:
    """MHS-S4-C2 (L120, Fig 4c): "near exact correspondence between the relative positions of the
    latent representations ... across both architectures", "at all points in time" (L129).  MDS
    is defined only up to rotation, so the 24 x 24 distance matrices of the hidden
    representations are compared: the worst disagreement (1 - RDM correlation) of the ReLN with
    the ReLU runs over the sampled epochs from ``start`` against the worst disagreement between
    ReLU runs of different seeds.  Hidden activities (T, K, H, N)."""
    idx = np.flatnonzero(np.asarray(times) >= start)[::every]
    rn = np.array([A.rdm_correlation(relu_hidden[i], reln_hidden[i]) for i in idx])
    rr = np.array([A.rdm_correlation(relu_hidden[i], relu_hidden[i], same=True) for i in idx])
    rs = np.array([A.rdm_correlation(relu_hidden[i], single_hidden[i]) for i in idx])
    return [within_baseline("max over epochs of 1 - RDM correlation, ReLN against the ReLU runs",
                            float(np.max(1 - rn)), float(np.max(1 - rr)),
                            source=baseline("L120", "we see near exact correspondence between the "
                                                    "relative positions of the latent "
                                                    "representations of the dataset across both "
                                                    "architectures",
                                            "the same between ReLU runs of different seeds"),
                            names=("ReLN", "ReLU runs")),
            measure("RDM correlation with the ReLU runs at the last sampled epoch, ReLN minus "
                    "single-context GDLN", float(rn[-1] - rs[-1]), ">=", 0,
                    source=reading("the suite's comparison with the GDLN that does not imitate the "
                                   "loss", "L129", "Both architectures demonstrate an equivalent "
                                                   "latent representation at all points in time"),
                    details={"ReLN": rn, "single-context GDLN": rs, "ReLU-ReLU": rr,
                             "epochs": np.asarray(times)[idx]})]


def no_context_specific_neurons(patterns, mass, loss, ablate, C: int = 3) -> list:
    """MHS-S4-C3 (L122) about each trained ReLU net, "no neurons ... which are context specific",
    read two ways: no unit carrying weight (mass > 1% of the largest) is on in one context only,
    and removing those units changes the final loss by no more than the runs' own spread; then
    "instead ... mixed selectivity": more weight on units on in several contexts than in one.
    ``patterns`` (K, H, N) and ``mass`` (K, H) final; ``loss`` (K,) final; ``ablate(drop)`` the
    (K,) final losses with the units ``drop`` (K, H) removed."""
    usage = A.context_usage(patterns, C)
    loss_without = ablate(usage == 1)
    mass = np.asarray(mass, dtype=float)
    big = mass > 0.01 * mass.max(axis=1, keepdims=True)
    count = ((usage == 1) & big).sum(1)
    shares = [A.mass_shares(usage[k], mass[k], range(C + 1)) for k in range(len(mass))]
    words = "there are no neurons in the ReLU network which are context specific"
    effect = np.asarray(loss_without, float) - np.asarray(loss, float)
    return [each("units carrying weight (> 1% of the largest mass) on in exactly one context",
                 count, "==", 0, source=paper("L122", words, interpretation="no neuron carrying "
                                                                           "weight")),
            within_baseline("final loss with the single-context units removed minus the final "
                            "loss, seed mean", float(np.mean(effect)),
                            float(np.std(loss, ddof=1)),
                            source=baseline("L122", words, "the seed-to-seed standard deviation "
                                                           "of the final loss",
                                            interpretation="no function beyond the runs' spread"),
                            names=("removal", "seed spread")),
            each("weight-mass share on units on in 2 or 3 contexts minus that on units on in one",
                 [s[2] + s[3] - s[1] for s in shares], ">", 0,
                 source=paper("L122", "Instead, the ReLU network employs a strategy of mixed "
                                      "selectivity where neurons are active across multiple "
                                      "contexts"))]


def feature_learning(sv) -> Measurement:
    """MHS-S4-C5 (L122): "These pathways are still doing feature learning": the contextual
    pathways' top singular value grows from its init, every seed (``sv`` (T, K, modules, r);
    module 0 is the common pathway)."""
    sv = np.asarray(sv, dtype=float)
    growth = np.min(sv[-1, :, 1:, 0] / sv[0, :, 1:, 0], axis=1)
    return each("growth of the contextual pathways' top singular value over training (end / "
                "init, min over pathways)", growth, ">", 1,
                source=paper("L122", "These pathways are still doing feature learning"))


def does_not_imitate(relu_loss, single_loss, L0: float) -> Measurement:
    """Fig 4a (L129): the single-context GDLN "is unable to imitate the loss trajectory of the
    ReLU network": its distance from the ReLU runs exceeds their own spread."""
    gap, spread = A.loss_distance(single_loss, relu_loss, L0), A.seed_spread(relu_loss, L0)
    return measure("mean over epochs of |seed-mean single-context GDLN loss - seed-mean ReLU "
                   "loss| / L(0), above the ReLU runs' spread", gap, ">", spread,
                   source=baseline("Fig 4 caption, L129", "a GDLN (here called \u201cGDLN "
                                   "Single\u201d) which has contextual pathways active for "
                                   "individual contexts is unable to imitate the loss trajectory "
                                   "of the ReLU network", "the ReLU runs' mean distance from their "
                                                          "seed-mean curve"),
                   details={"single-context GDLN": gap, "ReLU runs": spread})


def singles_inactive(loss, loss_without_singles, sv) -> list:
    """MHS-E-Six (App E, L586): "even if all six possible modules are trained simultaneously, the
    pathways active for a single context remain inactive".  Decided against the run's own
    spread: removing the single-context pathways at the end of training changes the loss by no
    more than the seed-to-seed standard deviation of the final loss.  ``loss``,
    ``loss_without_singles`` (K,) final; ``sv`` (T, K, 7, r): pathways common, 3 double, 3 single."""
    loss, without = np.asarray(loss, float), np.asarray(loss_without_singles, float)
    sv = np.asarray(sv, dtype=float)[..., 0]
    growth = sv[-1, :, 4:] / sv[0, :, 4:]
    share = sv[-1, :, 4:].sum(1) / sv[-1, :, 1:].sum(1)
    return [within_baseline("final loss without the single-context pathways minus the final loss, "
                            "seed mean", float(np.mean(without - loss)),
                            float(np.std(loss, ddof=1)),
                            source=baseline("App E, L586", "even if all six possible modules are "
                                                           "trained simultaneously, the pathways "
                                                           "active for a single context remain "
                                                           "inactive",
                                            "the seed-to-seed standard deviation of the final loss"),
                            names=("removal", "seed spread")),
            measure("single-context pathways' top singular value, end / init (min over pathways "
                    "and seeds)", float(growth.min()), ">=", 0,
                    source=reading("how far the single-context pathways grew out of their init"),
                    details={"share of the contextual top singular values on single-context "
                             "pathways, per seed": share, "final loss": loss,
                             "final loss without them": without})]


# ------------------------------------------------------------------ Sec 5: more contexts

def reuse_with_contexts(patterns: dict, mass: dict) -> list:
    """MHS-S5-C1 / MHS-Disc (L151-L153): for each C, every trained ReLU net puts the most weight
    (among units serving 1 .. C-1 contexts, on for a majority of a context's items) on units
    serving C-1 contexts; and "as the number of contexts increases, so too does the bias towards
    node reuse": the mass-weighted number of contexts a unit serves grows from C to C+1 (a
    population statement: one-sided Welch tests).  ``patterns[C]`` (K, H, 8C), ``mass[C]`` (K, H)
    final."""
    out, reuse = [], {}
    for C in sorted(patterns):
        usage = A.context_usage(patterns[C], C, majority=0.5)
        m = np.asarray(mass[C], dtype=float)
        shares = [A.mass_shares(usage[k], m[k], range(C + 1)) for k in range(len(m))]
        top = [max(range(1, C), key=lambda j: s[j]) - (C - 1) for s in shares]
        reuse[C] = np.array([sum(j * s[j] for j in s) for s in shares])
        out.append(each(f"C = {C}: (contexts of the contextual units carrying the most weight) - "
                        f"(C - 1)", top, "==", 0,
                        source=paper("L153", "The ReLN then has C context specific pathways which "
                                             "are active for C - 1 contexts")))
    Cs = sorted(patterns)
    for a, b in itertools.pairwise(Cs):
        out.append(direction(f"mass-weighted number of contexts a unit serves, C = {a} below "
                             f"C = {b}", reuse[a], reuse[b],
                             source=paper("L153", "as the number of contexts increases, so too does "
                                                  "the bias towards node reuse and mixed "
                                                  "selectivity"), names=(f"C={a}", f"C={b}")))
    return out


def closed_form_agreement(C: int, relu_loss, reln_loss, closed, L0: float) -> list:
    """MHS-Fig5 (L158): "closed form ... see perfect agreement to both the ReLN and ReLU networks"
    for C contexts: the closed-form loss curve against each network's seed-mean curve, within
    that network's own run-to-run spread.  Losses (T, K) on one grid, ``closed`` (T,)."""
    words = ("we can in closed form derive the loss trajectory for each architecture and see "
             "perfect agreement to both the ReLN and ReLU networks")
    out = []
    for name, loss in (("ReLN", reln_loss), ("ReLU", relu_loss)):
        out.append(within_baseline(f"C = {C}: mean over epochs of |closed-form loss - seed-mean "
                                   f"{name} loss| / L(0)",
                                   A.loss_distance(np.asarray(closed)[:, None], loss, L0),
                                   A.seed_spread(loss, L0),
                                   source=baseline("Fig 5 caption, L158", words,
                                                   f"the {name} runs' mean distance from their "
                                                   "seed-mean curve"),
                                   names=("closed form", f"{name} runs")))
    return out


# ------------------------------------------------------------------ App B: finding the gates

def kmeans_recovers(centroids: dict) -> list:
    """MHS-AlgB1 (L438): with k = 4 the Sec 4 gating emerges (binarised per context) and every
    clustering has an all-on (common) centroid.  ``centroids[k]`` (k, 24)."""
    common = all(any(np.all(c > 0.5) for c in v) for v in centroids.values())
    return [measure("k = 4 centroids binarised per context (majority of items) are all-on, "
                    "not-1, not-2, not-3", A.per_context(centroids[4]) == A.reln_patterns(), "==", True,
                    source=paper("L438", "We note that when using 4-clusters the exact gating "
                                         "pattern used in Section 4 emerges")),
            measure(f"an all-on (common) centroid for every k in {sorted(centroids)}", common, "==",
                    True, source=paper("L438", "all of the clusterings find a common pathway"))]


def elbow_at_four(mse: dict, centroids: dict) -> list:
    """MHS-Fig8/9 (L443-L445): the elbow of the ReLU-GDLN loss MSE over k is at k = 4 (each
    reading of 'elbow', :func:`elbows`), and k = 2, 3 centroids are more fractional than k = 4's."""
    found = A.elbows(mse)
    words = "the 4-Cluster model is the appropriate choice for the elbow"
    frac = {k: float(np.mean((np.asarray(c) > 0.1) & (np.asarray(c) < 0.9)))
            for k, c in centroids.items()}
    details = {f"MSE k={k}": v for k, v in sorted(mse.items())}
    return [measure(f"elbow of the loss MSE between the ReLU net and the GDLN from k centroids "
                    f"({reading_} reading)", found[reading_], "==", 4,
                    source=paper("L445", words, interpretation=f"elbow as the {reading_} point"),
                    details=details)
            for reading_ in ("curvature", "kneedle")] + [
            measure("share of fractional centroid entries (0.1-0.9), k = 2 and k = 3 minus k = 4",
                    [frac[2] - frac[4], frac[3] - frac[4]], ">", 0,
                    source=paper("L443", "Note the inconsistency in gating patterns arising from "
                                         "having too few clusters"),
                    details={f"k={k}": v for k, v in frac.items()})]


# ------------------------------------------------------------------ Fig 2: XoR with a margin

def xor_modes():
    """Delta -> ((s, d) of the linear GDLN, (s, d) of the XoR GDLN): App C's Eq. (17)-(19) and
    the corrected Eq. (23), read through the registry."""
    import sympy as sp

    from theory.haste_slowly import xor_margin as tx
    from theory.registry import REGISTRY
    lin, xor = REGISTRY["MHS-C-Eq(17-19)"].printed, REGISTRY["MHS-C-Eq(23)"].corrected
    f = sp.lambdify(tx.Delta, [[lin.s, lin.d], [xor.s, xor.d]])

    def modes(delta):
        return tuple(tuple(float(x) for x in pair) for pair in f(delta))
    return modes


def follows_faster(outcomes: dict) -> list:
    """MHS-Fig2 (L103, L105), about each trained ReLU net: it "behaves like the faster GDLN"
    (nearer the faster GDLN's time to the criterion than the slower's, on average over the Delta
    where both learn) and
    "switches from a linear decision boundary to a nonlinear boundary" at sqrt(2/3) (more
    linear-gated units above than below); the catalogue's 10% on the time, away from the
    crossover, as a reading."""
    from theory.haste_slowly import xor_margin as tx
    fast = outcomes["t_gdln"].min(1)
    away = np.abs(outcomes["deltas"] - float(tx.CROSSOVER)) > 0.15
    rel = np.abs(outcomes["t_relu"].mean(1) - fast) / fast
    return [each("mean over Delta of |T_ReLU - T_slower| - |T_ReLU - T_faster| (t/tau to loss "
                 "0.2)", outcomes["closer"], ">", 0,
                 source=paper("L103", "showing that ReLU networks behave like the faster GDLN "
                                      "(the ReLN)")),
            each("share of linear-gated large units, mean over Delta > sqrt(2/3) minus mean below",
                 outcomes["switch"], ">", 0,
                 source=paper("L105", "marks the approximate point at which a ReLU network "
                                      "switches from a linear decision boundary to a nonlinear "
                                      "boundary")),
            measure("|T_ReLU - min(T_lin, T_xor)| / min, |Delta - sqrt(2/3)| > 0.15, seed mean",
                    float(rel[away].max()), "<", 0.10,
                    source=reading("the catalogue's 10% on the time to L = 0.2 away from the "
                                   "crossover"),
                    details={"near the crossover": float(rel[~away].max()),
                             "fitted a0": outcomes["a0"]})]


def xor_sensitivity(whole: dict, halves: list, float32: dict, steps_time: float) -> dict:
    """Same-run checks that Fig 2's unstated settings do not move its decisive outcomes: every
    run reaches the criterion before the horizon (steps), each seed decides alike (seeds), each
    half of the Delta grid decides alike (grid), a float32 run decides alike (dtype)."""
    def verdicts(o):
        return (bool(np.all(o["closer"] > 0)), bool(np.all(o["switch"] > 0)))
    same = reading("the decisive outcomes do not change")
    per_seed = {(bool(c > 0), bool(s > 0)) for c, s in zip(whole["closer"], whole["switch"])}
    return {"steps": measure("every ReLU net reaches loss 0.2 before the last step (t/tau "
                             f"{steps_time:g})", float(np.max(whole["t_relu"])), "<", steps_time,
                             source=same),
            "seeds": measure("decisive outcomes of every seed alike", len(per_seed), "==", 1,
                             source=same),
            "Delta grid": measure("decisive outcomes on each half of the Delta grid as on the whole",
                                  all(verdicts(h) == verdicts(whole) for h in halves), "==", True,
                                  source=same),
            "dtype": measure("decisive outcomes of a float32 run as of the float64 run",
                             verdicts(float32) == verdicts(whole), "==", True, source=same)}


# ------------------------------------------------------------------ Sec 4: definitions and App D-E

def contextual_dataset(X, Y) -> list:
    """MHS-S4-Data (L111, L118): one-hot item (+) one-hot context, every (item, context) pair once,
    each context block of Y zero off its context; L(0) and the least-squares plateau against the
    catalogue's values for the released data (:func:`numerics.haste_slowly.analysis.task_facts`)."""
    f = A.task_facts(X, Y)
    catalogue = reading("the catalogue's values for the released code's data, float64 sums")
    return [measure("X one-hot item (+) one-hot context", f["one-hot"], "==", True,
                    source=paper("L111", "Each item is queried with a one-hot representation and "
                                         "one-hot context feature")),
            measure("distinct (item, context) pairs among the 24 datapoints", f["pairs"], "==", 24,
                    source=paper("L111", "all items are present in each context")),
            measure("context block c of Y is zero off context c", f["own blocks"], "==", True,
                    source=paper("L118", "the three other blocks of output labels need to be "
                                         "activated only in one of the contexts")),
            measure("|L(0) - 105.623|", abs(f["L0"] - 105.623), "<=", 1e-9, source=catalogue),
            measure("|least-squares plateau - 16.5084333|", abs(f["plateau"] - 16.5084333), "<=",
                    1e-6, source=catalogue)]


def reln_structure(gates, mask, unit_module, split_loss, joint_loss, single_split, single_joint,
                   L0: float) -> list:
    """MHS-S4-ReLN (L120): the common pathway always on and seeing all inputs, three pathways
    each off in exactly one context and seeing items only; the released split-gradient training
    against joint GD on the loss (first seed's curves)."""
    common, contextual = A.reln_layout(gates, mask, unit_module)
    variant = reading("2% of L(0): the released code's split-gradient training stands in for GD "
                      "on Eq. (2) only if the two loss curves agree to this")
    return [measure("common pathway always on, sees all 11 inputs", common, "==", True,
                    source=paper("L120", "The first \u201ccommon\u201d pathway is composed of "
                                         "hidden neurons which are always active")),
            measure("3 contextual pathways each off in exactly one context, item inputs only",
                    contextual, "==", True,
                    source=paper("L120", "The three remaining pathways are all active for two out "
                                         "of the three contexts")),
            measure("sup_t |L_split - L_joint| / L(0), ReLN",
                    float(np.max(np.abs(np.asarray(split_loss) - joint_loss))) / L0, "<=", 0.02,
                    source=variant),
            measure("sup_t |L_split - L_joint| / L(0), single-context GDLN",
                    float(np.max(np.abs(np.asarray(single_split) - single_joint))) / L0, "<=",
                    0.02, source=variant)]


def relu_gate_drift(patterns, mass, times, at=(1000, 4000)) -> Measurement:
    """The ReLU units' own gating against their final gating: the mass-weighted share of
    datapoints on which the large units' patterns still differ at the epochs ``at`` (a reading
    beside MHS-S4-C4, whose sentence is about the ReLN)."""
    pats, m = np.asarray(patterns), np.asarray(mass[-1], dtype=float)
    w = m * (m > 0.01 * m.max(axis=1, keepdims=True))
    drift = [float((w * (pats[int(np.argmin(np.abs(np.asarray(times) - e)))] != pats[-1])
                     .mean(-1)).sum() / w.sum()) for e in at]
    return measure(f"mass-weighted share of datapoints where the ReLU units' gates at epochs "
                   f"{list(at)} differ from their final gates", drift, ">=", 0,
                   source=reading("whether the ReLU net's own gating is constant from the start",
                                  "L118", "in this setting the gating of the ReLN is constant "
                                          "from the start"))


def common_mode_rise(prod, tt, times, X, Y) -> Measurement:
    """Fig 4b, a reading: the common pathway's top modes against Eq. (7) with one fitted pi_0
    (:func:`numerics.haste_slowly.analysis.half_rise_epochs`): the largest relative deviation of
    the half-rise epoch."""
    sim, th = A.half_rise_epochs(prod, tt, times, X, Y)
    return measure("common pathway top-4 modes: max rel dev of the half-rise epoch, simulation vs "
                   "Eq. (7) with one fitted pi0", max(abs(a - b) / b for a, b in zip(sim, th)),
                   "<", 0.10, source=reading("10%: the Sec 4 data are only approximately mutually "
                                             "diagonalisable"),
                   details={"simulation": sim, "closed form": th})


def contextual_outputs(outs, gates, unit_module, Y) -> list:
    """MHS-Fig3 (L116): a trained contextual pathway writes into the context blocks whose target
    is zero on datapoints where it is on (errors), and the contextual outputs together remove the
    common pathway's residual (:func:`numerics.haste_slowly.analysis.pathway_leak`)."""
    leak, recon = A.pathway_leak(outs, gates, unit_module, Y)
    return [measure("min |output| a contextual pathway writes into a context block whose target "
                    "is 0, on datapoints where it is on", leak, ">", 0.05,
                    source=reading("5% of a unit target: clearly non-zero")),
            measure("||sum of contextual outputs - common pathway's residual|| / ||residual||",
                    recon, "<", 0.05, source=reading("5%: the end of an 8000-epoch run"))]


def gate_sensitivity(mse: dict) -> dict:
    """Same-run checks that App B's unstated settings do not move Fig 8/9's decisive outcomes: the
    GDLN init std (every std gives the same elbows), the number of ReLU runs pooled (the GDLNs
    from half the runs' centroids give the same elbows) and the range of k (without the largest k
    the elbows stay).  ``mse``: :func:`numerics.haste_slowly.analysis.gate_mse`."""
    found = {key: A.elbows(v) for key, v in mse.items()}
    first = next(iter(mse))
    stds = [key for key in mse if key[0] == first[0]]
    same = reading("the decisive outcomes do not change")
    return {"GDLN init std": measure("elbows at every GDLN init std alike",
                                     all(found[k] == found[first] for k in stds), "==", True,
                                     source=same, details={str(k): found[k] for k in found}),
            "ReLU runs pooled": measure("elbows of the GDLNs from half the ReLU runs' centroids as "
                                        "from all runs'", found[("half", first[1])] == found[first],
                                        "==", True, source=same),
            "k": measure("elbows without the largest k as with it",
                         A.elbows({k: v for k, v in mse[first].items() if k < max(mse[first])})
                         == found[first], "==", True, source=same)}


# ------------------------------------------------------------------ App C: symbolic helpers

def solves(solution, rhs, t, state, initial=None) -> dict:
    """Whether ``solution`` solves ``d state/dt = rhs`` (residual simplifies to 0) and, given
    ``initial``, starts there (sympy)."""
    from verify.checks.symbolic import is_zero, ode_residual
    out = {"residual": is_zero(ode_residual(solution, rhs, t, state))}
    if initial is not None:
        out["t=0"] = is_zero(solution.subs(t, 0) - initial)
    return out


def modes_reach_plateaus(proj, S, D) -> list:
    """MHS-Fig7 (Fig 7 caption, L370): "Initially all modes begin at 0 but increase to their final
    values": every mode starts below 0.1% of its plateau lambda/delta and ends within 0.1% of it."""
    words = paper("Fig 7 caption, L370", "Initially all modes begin at 0 but increase to their "
                                         "final values")
    ratio = np.asarray(proj, float) / (np.asarray(S) / np.asarray(D))
    return [measure("mode strength at the start / its plateau lambda/delta, modes 1-4",
                    np.abs(ratio[0]), "<", 1e-3, source=words),
            measure("mode strength at the end / its plateau lambda/delta, modes 1-4", ratio[-1],
                    "within", (1 - 1e-3, 1 + 1e-3), source=words)]


def fig7_outcome(run) -> tuple:
    """Whether each decisive measurement of :func:`modes_reach_plateaus` passes for a
    ``numerics.haste_slowly.linear.LinearRun``."""
    proj, _, S, D = A.hierarchy_modes(run.trajectory.records["prod"], run.trajectory.time)
    return tuple(m.passed for m in modes_reach_plateaus(proj, S, D))


def plateau_reached_early(proj, tt, S, D) -> Measurement:
    """The horizon check of Fig 7's sensitivity: every mode is within 0.1% of its plateau by 3/4
    of the horizon, so a longer run changes nothing."""
    ratio = np.asarray(proj, float) / (np.asarray(S) / np.asarray(D))
    k = int(np.argmax(np.asarray(tt) >= 0.75 * tt[-1]))
    return measure("mode strengths / plateau at 3/4 of the horizon", ratio[k], "within",
                   (1 - 1e-3, 1 + 1e-3), source=reading("the decisive outcomes do not change"))


# ------------------------------------------------------------------ Sec 2-3: the GDLN formalism


def diagonalisable(hierarchical: float, section4: float) -> list:
    """MHS-Asm2.1 (L296 "We verify that this is true for the tasks considered in this work"): the
    largest off-diagonal |V^T Sigma^x V| of the common pathway, on the hierarchical tasks (under
    the condition) and on the Sec 4 task (without it)."""
    tol = exact("exact rational data, float64 SVD: zero off-diagonal")
    return [measure("max |offdiag(V^T Sigma^x V)| of the common pathway, hierarchical C = 3, 4, 5 "
                    "(unit and code context scales)", hierarchical, "<", 1e-10, source=tol),
            measure("the same on the Sec 4 task (H, Ring, Cross)", section4, "<", 1e-10,
                    source=tol)]
