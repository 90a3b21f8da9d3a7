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
import sympy as sp

from numerics import datasets as nd
from numerics.haste_slowly import analysis as A
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import gate_finder as gf
from numerics.haste_slowly import graph, lemma
from numerics.haste_slowly.equivalence import reln_at_init_error
from numerics.haste_slowly.reln import module_outputs
from theory import conventions
from theory import mode_law as ml
from theory.haste_slowly import contexts as tc
from theory.haste_slowly import linear_background as tl
from theory.haste_slowly import xor_margin as tx
from theory.registry import REGISTRY
from verify.measurement import Measurement, baseline, exact, measure, paper, reading
from verify.statements import LEVEL, direction, each, within_baseline

#: the source of every same-run check that a setting the paper leaves open is harmless
_SAME = reading("the decisive outcomes do not change")

# ------------------------------------------------------------------ Sec 6: depth (L162-L171)

S6_WORDS = ("the ReLU network does not use the first layer for gating and instead all neurons are "
            "active for all datapoints")


def first_layer_ungated(g1, m1) -> list[Measurement]:
    """MHS-S6-C1, first layer (L162), about each trained network, read two ways: 'all neurons'
    (every layer-1 unit carrying weight, mass > 1% of the largest, is on for all 24 datapoints)
    and 'the layer's weight' (most of the layer-1 weight mass sits on such units).  ``g1`` (K,
    units, 24) final gates, ``m1`` (K, units) unit masses."""
    units, mass = A.always_on_shares(g1, m1)
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
    """MHS-S6-C2 (L164), about the distribution of trained networks: each seed's deviation from
    its network's mean loss curve is larger for the deep ReLU net and the depth GDLN than for the
    shallow net (one-sided Welch tests, each beside the effect it detects with 80% power).  L169
    ('shares the same characteristics in variance') is read as the GDLN's spread lying nearer
    the deep ReLU's than the shallow net's."""
    dev = {k: A.deviation_from_mean(v, L0) for k, v in
           (("relu", relu_loss), ("gdln", gdln_loss), ("shallow", shallow_loss))}
    words = paper("L164", "there is now variance in the trajectories of both networks, which was "
                          "not the case for the single-hidden-layer architectures")
    out = []
    for kind, name in (("relu", "2-hidden-layer ReLU"), ("gdln", "depth GDLN")):
        out.append(direction(f"deviation of a seed's loss curve from its network's mean, max over "
                             f"epochs, / L(0): 1-hidden-layer ReLU below {name}", dev["shallow"],
                             dev[kind], source=words, names=("1-hidden-layer", name)))
        detectable = A.detectable_effect(dev["shallow"].size, dev[kind].size, LEVEL)
        out.append(measure(f"power: the measured effect (Cohen's d), {name} against 1-hidden-layer, "
                           "beside the effect the test detects with 80% power",
                           A.cohen_d(dev["shallow"], dev[kind]), ">=", detectable,
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
    """MHS-S6-C3 (L171), from the two networks' trajectories (epochs).  The GDLN's stages (epochs
    500 and 12000) are the released schedule (gdln_off.py start_epoch, switch_epoch1; MHS-E16), so
    they are recorded beside the ReLU's own onsets, never as a tolerance.  The run decides the
    sentence after them: each seed's curve taken from its own contextual onset, the GDLN's seed
    mean against the ReLU's, within the ReLU runs' spread about theirs (a same-run baseline)."""
    onsets = zip(("common output mode aligns (|cos| > 0.9)", "gating-only loss part starts to drop"),
                 A.onsets(relu), A.onsets(gdln), (500, 12000))
    gap, spread = A.aligned_gap(relu, gdln, L0)
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
        *(measure(f"median epoch the ReLU net's {what}", float(np.median(r)), ">=", 0,
                  source=reading(f"the ReLU's own timing beside the GDLN's imposed epoch {epoch}",
                                 "L171", onset_words),
                  details={"per seed": r, "GDLN, per seed": g}) for what, r, g, epoch in onsets),
    ]


def stereotypical_agreement(relu_loss, gdln_loss, L0: float) -> list[Measurement]:
    """MHS-Fig6 (L171, Fig 6b): the stereotypical runs (closest to their network's mean, as
    replot.py) of the ReLU net and the GDLN against the ReLU runs' own spread about their
    stereotypical run, read two ways: inside the band of ReLU runs (the farthest one), and as
    close as a typical ReLU run (the median)."""
    gap, dist = A.stereotypical_distances(relu_loss, gdln_loss, L0)
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
    """MHS-S4-C2 (L120, Fig 4c; L129 "at all points in time").  MDS is defined only up to
    rotation, so the 24 x 24 distance matrices (RDMs) of the hidden activities (T, K, H, N) are
    compared over the epochs from ``start``: the ReLN with the ReLU runs against ReLU runs of
    different seeds."""
    idx = np.flatnonzero(np.asarray(times) >= start)[::every]
    rn, rr, rs = (A.rdm_series(relu_hidden, other, idx, same=other is relu_hidden)
                  for other in (reln_hidden, relu_hidden, single_hidden))
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
    """MHS-S4-C3 (L122) about each trained ReLU net, "no neurons ... context specific" read two
    ways (none carrying weight, none with a function beyond the runs' spread), then "mixed
    selectivity".  ``patterns`` (K, H, N), ``mass`` (K, H) and ``loss`` (K,) final;
    ``ablate(drop)`` the (K,) final losses with the units ``drop`` (K, H) removed."""
    usage, count, shares = A.context_specific_units(patterns, mass, C)
    words = "there are no neurons in the ReLU network which are context specific"
    effect = np.asarray(ablate(usage == 1), float) - np.asarray(loss, float)
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
    """MHS-E-Six (App E, L586), decided against the run's own spread: removing the single-context
    pathways at the end changes the loss by no more than the seeds' spread.  ``loss``,
    ``loss_without_singles`` (K,) final; ``sv`` (T, K, 7, r): pathways common, 3 double, 3 single."""
    loss, without = np.asarray(loss, float), np.asarray(loss_without_singles, float)
    sv = np.asarray(sv, dtype=float)[..., 0]
    growth, share = sv[-1, :, 4:] / sv[0, :, 4:], sv[-1, :, 4:].sum(1) / sv[-1, :, 1:].sum(1)
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
    serving C-1 contexts; the mass-weighted number of contexts a unit serves grows with C (one-
    sided Welch tests).  ``patterns[C]`` (K, H, 8C), ``mass[C]`` (K, H) final."""
    out, reuse = [], {}
    for C in sorted(patterns):
        shares = A.context_specific_units(patterns[C], mass[C], C, majority=0.5)[2]
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
    lin, xor = REGISTRY["MHS-C-Eq(17-19)"].printed, REGISTRY["MHS-C-Eq(23)"].corrected
    f = sp.lambdify(tx.Delta, [[lin.s, lin.d], [xor.s, xor.d]])
    return lambda delta: tuple(tuple(float(x) for x in pair) for pair in f(delta))


def follows_faster(outcomes: dict) -> list:
    """MHS-Fig2 (L103, L105), about each trained ReLU net: nearer the faster GDLN's time to the
    criterion (t/tau) than the slower's, and more linear-gated units above sqrt(2/3) than below;
    the catalogue's 10% on the time, away from the crossover, as a reading."""
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
    per_seed = {(bool(c > 0), bool(s > 0)) for c, s in zip(whole["closer"], whole["switch"])}
    return {"steps": measure("every ReLU net reaches loss 0.2 before the last step (t/tau "
                             f"{steps_time:g})", float(np.max(whole["t_relu"])), "<", steps_time,
                             source=_SAME),
            "seeds": measure("decisive outcomes of every seed alike", len(per_seed), "==", 1,
                             source=_SAME),
            "Delta grid": measure("decisive outcomes on each half of the Delta grid as on the whole",
                                  all(verdicts(h) == verdicts(whole) for h in halves), "==", True,
                                  source=_SAME),
            "dtype": measure("decisive outcomes of a float32 run as of the float64 run",
                             verdicts(float32) == verdicts(whole), "==", True, source=_SAME)}


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
            *(measure(f"sup_t |L_split - L_joint| / L(0), {name}",
                      float(np.max(np.abs(np.asarray(split) - joint))) / L0, "<=", 0.02,
                      source=variant)
              for name, split, joint in (("ReLN", split_loss, joint_loss),
                                         ("single-context GDLN", single_split, single_joint)))]


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


def common_mode_rise(trajectory, X, Y) -> Measurement:
    """Fig 4b, a reading: the half-rise epochs of a trained ReLN's common top modes against
    Eq. (7) with one fitted pi_0 (:func:`numerics.haste_slowly.analysis.half_rise_epochs`)."""
    t = trajectory
    sim, th = A.half_rise_epochs(t.records["prod"], A.flow_times(t.time, X.shape[1]), t.time, X, Y)
    return measure("common pathway top-4 modes: max rel dev of the half-rise epoch, simulation vs "
                   "Eq. (7) with one fitted pi0", max(abs(a - b) / b for a, b in zip(sim, th)),
                   "<", 0.10, source=reading("10%: the Sec 4 data are only approximately mutually "
                                             "diagonalisable"),
                   details={"simulation": sim, "closed form": th})


def contextual_outputs(run, X, Y) -> list:
    """MHS-Fig3 (L116): a trained contextual pathway of the ReLN ``run`` (first seed) writes errors
    into context blocks whose target is zero, and the contextual outputs together remove the
    common pathway's residual (:func:`numerics.haste_slowly.analysis.pathway_leak`)."""
    leak, recon = A.pathway_leak(module_outputs(run.net, run.unit_module, X)[0],
                                 run.net.gates[0].numpy(), run.unit_module, Y)
    return [measure("min |output| a contextual pathway writes into a context block whose target "
                    "is 0, on datapoints where it is on", leak, ">", 0.05,
                    source=reading("5% of a unit target: clearly non-zero")),
            measure("||sum of contextual outputs - common pathway's residual|| / ||residual||",
                    recon, "<", 0.05, source=reading("5%: the end of an 8000-epoch run"))]


def gate_sensitivity(mse: dict) -> dict:
    """Same-run checks that App B's unstated settings (the GDLN init std, the number of ReLU runs
    pooled, the range of k) do not move Fig 8/9's elbows.  ``mse``:
    :func:`numerics.haste_slowly.analysis.gate_mse`."""
    found = {key: A.elbows(v) for key, v in mse.items()}
    first = next(iter(mse))
    stds = [key for key in mse if key[0] == first[0]]
    return {"GDLN init std": measure("elbows at every GDLN init std alike",
                                     all(found[k] == found[first] for k in stds), "==", True,
                                     source=_SAME, details={str(k): found[k] for k in found}),
            "ReLU runs pooled": measure("elbows of the GDLNs from half the ReLU runs' centroids as "
                                        "from all runs'", found[("half", first[1])] == found[first],
                                        "==", True, source=_SAME),
            "k": measure("elbows without the largest k as with it",
                         A.elbows({k: v for k, v in mse[first].items() if k < max(mse[first])})
                         == found[first], "==", True, source=_SAME)}


# ------------------------------------------------------------------ Sec 2-3: checks of the formalism

_MATRIX = reading("float64 sums of O(10) matrix products")


def diagonalisable(hierarchical: float, section4: float) -> list:
    """MHS-Asm2.1 (L296 "We verify that this is true for the tasks considered in this work"): the
    largest off-diagonal |V^T Sigma^x V| of the common pathway, on the hierarchical tasks (under
    the condition) and on the Sec 4 task (without it)."""
    tol = exact("exact rational data, float64 SVD: zero off-diagonal")
    return [measure("max |offdiag(V^T Sigma^x V)| of the common pathway, hierarchical C = 3, 4, 5 "
                    "(unit and code context scales)", hierarchical, "<", 1e-10, source=tol),
            measure("the same on the Sec 4 task (H, Ring, Cross)", section4, "<", 1e-10,
                    source=tol)]


def forward_pass(cases) -> list:
    """MHS-Eq(1): the recursive forward pass against the explicit sum over gated paths on random
    GDLNs (``numerics.haste_slowly.graph.random_case``), and the output with every node gate 0."""
    return [measure("recursive Eq. (1) vs explicit sum over 9 gated paths, max abs err",
                    max(A.path_sum_error(graph.forward, c) for c in cases), "<=", 1e-12,
                    source=reading("float64 sums of a handful of products of O(1) matrices")),
            measure("output with every node gate 0", A.gates_off_output(cases[0]), "==", 0.0,
                    source=paper("L49", "h_v = g_v \\sum_{q: t(q)=v} g_q W_q h_{s(q)}"))]


def loss_and_statistics(cases) -> list:
    """MHS-Eq(2), MHS-Eq(4): the loss is 1/(2N) times the sum of squared errors; the path gradient
    with statistics normalised by all N datapoints matches autograd."""
    return [measure(f"|Eq. (2) - 1/(2N) sum of squared errors|, N = {cases[0][4].shape[1]}",
                    A.loss_residual(cases[0]), "<", 1e-14,
                    source=reading("float64 sum of 14 squares")),
            measure("path gradient with statistics normalised by the full N vs autograd, max rel "
                    "err", max(A.path_gradient_error(c) for c in cases), "<", 1e-10,
                    source=_MATRIX)]


def path_gradient(cases, name: str = "path-form -dL/dW_e (Eq. 3, statistics Eq. 4) vs autograd "
                                     "of Eq. (2), all 8 edges, 3 seeds: max rel err") -> Measurement:
    """MHS-Eq(3), MHS-Fig1: the path-form gradient against autograd of Eq. (2)."""
    return measure(name, max(A.path_gradient_error(c) for c in cases), "<=", 1e-10, source=_MATRIX)


def clock(runs) -> tuple:
    """MHS-Eq(3)'s time constant: GD on the mean loss beside its flow with the printed and the
    corrected tau (``runs[side] = (GD's W2 W1, the flow's)``); (printed, corrected, printed error)."""
    err = {k: A.relative_error(flow, gd) for k, (gd, flow) in runs.items()}
    tol = reading("GD vs flow differ by O(lr x rate x t) discretisation only; a wrong clock by N "
                  "= 6 is far above")
    return (measure("GD (lr 2e-3, 1500 steps) on the 1/(2N) loss vs the flow with tau = 1/(N eps): "
                    "max rel err of W2 W1", err["printed"], "<", 2e-2, source=tol),
            measure("the same with tau = 1/eps", err["corrected"], "<", 2e-2, source=tol),
            err["printed"])


def race_checks(runs) -> dict:
    """MHS-Eq(5), MHS-Eq(6): the off-diagonal share of the flow's U^T W2 W1 V from an aligned
    init, and the race ODE of Eq. (6) (overlap 1) against the full flow, with shared output
    vectors and with U_1^T U_2 = -I/2 (``runs``: the ``race_runs`` fixture)."""
    tol = reading("race ODE and matrix flow both at rtol 1e-10")
    shared, apart = (A.race_errors(*runs[k])[1] for k in ("eq6 shared", "eq6 apart"))
    return {"aligned": measure("max offdiag/diag of U^T W2 W1 V along the full flow",
                               A.race_errors(*runs["own"])[0], "<=", 1e-7,
                               source=reading("solve_ivp at rtol 1e-10 over 4 decades of mode "
                                              "strength")),
            "shared": measure("Eq. (6) as printed vs full flow, 2 pathways into one node, shared U: "
                              "max rel err", shared, "<=", 1e-6, source=tol),
            "apart": measure("the same with U_1^T U_2 = -I/2", apart, "<=", 1e-6, source=tol)}


def tasks_diagonalisable(tasks) -> list:
    """MHS-Asm2.1 from the task set (``numerics.haste_slowly.datasets.all_tasks``): the largest
    off-diagonal |V^T Sigma^x V| of the common pathway over the hierarchical tasks and on the
    Sec 4 task (:func:`diagonalisable`)."""
    off = A.offdiagonal(tasks)
    return diagonalisable(max(v for k, v in off.items() if k != "Sec 4"), off["Sec 4"])


def relu_equivalence(runs) -> tuple:
    """MHS-C3.1 from ``numerics.haste_slowly.equivalence.equivalence_runs``: (the GDLN with gates
    recomputed every step against the ReLU net, the same with gates fixed at init, the drift)."""
    err = A.equivalence_errors(runs)
    same = reading("identical float64 arithmetic up to summation order")
    return (measure("1 and 2 hidden layers (5-16-3, 5-12-9-3), 1000 GD steps lr 5e-3: GDLN with "
                    "step(pre-activation) gates vs autograd ReLU, max |dW|",
                    max(e[0] for e in err.values()), "<=", 1e-12, source=same),
            measure("the same with gates fixed at init (Def. 3.1 G*(x))",
                    min(e[1] for e in err.values()), "<=", 1e-12, source=same),
            "fixed gates step(h(x, 0)) drift from the ReLU net by "
            + ", ".join(f"{e[1]:.2g} ({e[2]} gate flips, {k})" for k, e in err.items()))


def reln_definition(seed: int = 1) -> Measurement:
    """MHS-Def3.1: a GDLN with the ReLU net's weights gated by step(its pre-activation) outputs
    what the ReLU net does, at init (10 random inputs)."""
    return measure("max |GDLN(W, step(h(x)), x) - ReLU(W, x)| on 10 inputs",
                   reln_at_init_error(seed), "==", 0.0,
                   source=paper("L90", "GDLN(W(t), G^*(x^i), x^i) = ReLU(\\bar W(t), x^i)"))


# ------------------------------------------------------------------ Sec 4 and App D-E: exact checks

def implementable_gatings() -> tuple:
    """MHS-Lem4.1 by LP enumeration (``numerics.haste_slowly.lemma``): (printed: no realisable
    pattern outside the lemma's forms; corrected: realisable <=> no 2x2 XOR submatrix, and App D's
    XOR pattern infeasible with and without bias; the counterexample)."""
    beyond, exact_ok = lemma.survey()
    xor_block, stair = np.array([[0, 1], [1, 0]]), np.array([[1, 1], [1, 0]])
    core = not lemma.realisable(xor_block) and not lemma.realisable(xor_block, bias=True)
    lp = exact("LP feasibility over every binary items x contexts pattern")
    return (measure("LP-realisable patterns that are not context-/item-consistent or single-point, "
                    "(items, contexts) = (2,2), (2,3), (3,3)", sum(beyond.values()), "==", 0,
                    source=lp),
            [measure("realisable <=> no 2x2 XOR submatrix, every pattern of every case", exact_ok,
                     "==", True, source=lp),
             measure("App D's XOR pattern infeasible with and without bias", core, "==", True,
                     source=lp)],
            (f"a = (1, 0), c = (0.5, -0.5): on for x1, x2, x3, off for x4 (pattern "
             f"{stair.tolist()}, LP-feasible {lemma.realisable(stair)}); counts {beyond}"))


def race_win(single_loss, reln_loss, L0: float) -> tuple:
    """MHS-Prop4.2: (printed: a strict gap L(G') > L(G*) at t = 0; corrected: no loss of the ReLN
    beyond 1% of L(0) at any t and a gap above 1% on an interval; the gap at t = 0)."""
    gap = A.race_gap(single_loss, reln_loss, L0)
    race = reading("1% of L(0): beyond GD and init-scale differences between the two GDLNs")
    return (measure("(L(G') - L(G*)) / L(0) at t = 0 (strict '<' for all t)", gap["t0"], ">", 1e-6,
                    source=reading("1e-6: a strict gap above float64 rounding of the ~1e-8 "
                                   "init-scale losses")),
            [measure("min over t of (L(G') - L(G*)) / L(0)", gap["min"], ">=", -0.01, source=race),
             measure("share of the run with (L(G') - L(G*)) / L(0) > 1%", gap["strict share"], ">",
                     0.3, source=reading("a strict gap on an interval, not a point"))],
            gap["t0"])


def section4_removals(X, Y) -> Measurement:
    """MHS-E-Nonneg on the Sec 4 data: removing any one datapoint cannot raise sigma_1(Y X^T)."""
    return measure("Sec 4 data, each datapoint removed: max increase of sigma_1",
                   max(A.sigma1_increase(X, Y, [i for i in range(X.shape[1]) if i != j])
                       for j in range(X.shape[1])), "<=", 1e-12,
                   source=reading("float64 norms of products of entries up to 3"))


def residuals_uncorrelated(tasks) -> list:
    """MHS-E-Resid over ``tasks`` [(X, Y, C)]: after the least-squares common pathway no
    correlation of the residual with the context features (nor any feature), and the mirror
    identity of the single- and (C-1)-context statistics (MHS-E4)."""
    r = A.residual_correlations(tasks)
    tol = reading("exact rational data, float64 pseudo-inverse")
    return [measure("max |R X_c^T|, R = Y - Y X^+ X, Sec 4 and C = 3, 4, 5 data", r["context"], "<",
                    1e-10, source=tol),
            measure("max |R X^T| (stronger)", r["all"], "<", 1e-10, source=tol),
            measure("max |Sigma^yx(not c) + Sigma^yx(only c)| on the residual (MHS-E4)",
                    r["mirror"], "<", 1e-10, source=tol)]


# ------------------------------------------------------------------ Sec 5 and Apps F-G: exact checks

_EXACT = reading("exact rational data, float64 SVD")
_TIMING = reading("10% on the time to a fraction of the plateau")
CONTEXTS = (3, 4, 5)


def context_datasets() -> list:
    """MHS-S5-Data: the released C-context tasks' shapes, L(0) = 32 C and the least-squares
    plateau (C-1) 17/2, C = 3, 4, 5."""
    f = A.context_task_facts(CONTEXTS)
    return [measure("X (8 + C, 8C), Y (15 (C + 1), 8C) for C = 3, 4, 5", f["shapes"], "==", True,
                    source=paper("L151", "datasets with three, four and five contexts")),
            measure("max |L(0) - 32 C|", f["L0"], "<=", 1e-12, source=_EXACT),
            measure("max |least-squares plateau - (C-1) 17/2|", f["plateau"], "<=", 1e-9,
                    source=_EXACT)]


def common_closed_form(runs) -> tuple:
    """MHS-F-Common from the trained ReLNs ``runs[C]``: (printed: the rise times with Sigma* =
    Y X^T as printed; corrected: with (1/N) Y X^T, and the unit-scale spectra against App F/G's
    values; the printed error)."""
    table = {3: (55 / 48, 11 / 24), 4: (225 / 256, 3 / 8), 5: (117 / 160, 13 / 40)}
    spectra = max(max(abs(S[0] ** 2 - table[C][0]), abs(D[0] - table[C][1]))
                  for C in CONTEXTS for X, Y in [ds.contexts(C, 1.0)]
                  for _, S, _, D, _ in [nd.modes(Y @ X.T / (8 * C), X @ X.T / (8 * C))])
    errs = [A.common_rise_errors(runs[C], *ds.contexts(C)) for C in CONTEXTS]
    worst = {k: max(e[k] for e in errs) for k in ("printed", "corrected")}
    name = "common module of the trained ReLN (C = 3, 4, 5), modes 1-3: rel err of the 10%-90% rise time"
    return (measure(f"{name}, Sigma* = Y X^T as printed", worst["printed"], "<", 0.10,
                    source=_TIMING),
            [measure(f"{name}, Sigma* = (1/N) Y X^T", worst["corrected"], "<", 0.10, source=_TIMING),
             measure("unit-scale spectra vs S_1^2 = 55/48, 225/256, 117/160 and D_1 = 11/24, 3/8, "
                     "13/40: max abs err", spectra, "<", 1e-12, source=_EXACT)],
            worst["printed"])


def race_with_overlaps(rho, races) -> list:
    """MHS-F-Eq(race-overlap): the printed rho against the data's Sigma^x(j,p) Sigma^x(p,p)^+, the
    race with the data's overlaps against the full flow (``races``: the ``contextual_races``
    fixture), and Eq. (6) without them."""
    rho_err = max(float(np.abs(ds.overlap_and_rho(*ds.contexts(C), C)[1]
                               - float(rho[C]) * np.eye(8)).max()) for C in CONTEXTS)
    return [measure("max |Sigma^x(j,p) Sigma^x(p,p)^+ - rho I| with the printed rho = 1/2, 2/3, "
                    "3/4", rho_err, "<", 1e-12, source=_EXACT),
            measure("full matrix flow of the C contextual pathways on the residual statistics vs "
                    "the race with the data's overlaps, max rel err, C = 3, 4, 5",
                    max(A.relative_error(races[C][1], races[C][0]) for C in CONTEXTS), "<", 1e-5,
                    source=reading("race ODE and matrix flow both at rtol 1e-10, over ten time "
                                   "constants and seven modes")),
            measure("the same without the overlaps (Eq. 6 as printed), C = 3: rel err",
                    A.relative_error(races["3 without overlaps"][1], races["3 without overlaps"][0]),
                    ">", 1e-2, source=reading("the overlaps matter: far above the integrator "
                                              "tolerance"))]


def output_overlaps(form) -> tuple:
    """MHS-F-Overlap: (printed, corrected, the data's overlaps) of U_0^T U_1 against
    ``form.printed[C]`` and ``form.corrected`` (in C)."""
    data = {C: ds.contexts(C) for C in CONTEXTS}
    values = {C: round(float(np.diag(ds.overlap_and_rho(X, Y, C)[0])[0]), 6)
              for C, (X, Y) in data.items()}
    return (measure("max |U_0^T U_1 - printed I| (-1/2, -1/6, -1/12), C = 3, 4, 5",
                    max(A.overlap_error(form.printed[C], C, *data[C]) for C in CONTEXTS), "<",
                    1e-12, source=_EXACT),
            measure("max |U_0^T U_1 + I/(C-1)|",
                    max(A.overlap_error(form.corrected.subs(tc.C, C), C, *data[C])
                        for C in CONTEXTS), "<", 1e-12, source=_EXACT),
            values)


def effective_coefficient(printed) -> list:
    """MHS-F-Coef: 1 + rho (C-1) U_p^T U_j from the data against the printed 1/(C-1), the same
    symbolically, and the gated outputs at the fixed point against the residual."""
    coef = max(abs(1 + float(rho[0, 0]) * (C - 1) * float(O[0, 0]) - float(printed[C]))
               for C in CONTEXTS for O, rho, _, _ in [ds.overlap_and_rho(*ds.contexts(C), C)])
    sym = sp.simplify(tc.COEF_FROM_RACE.subs({tc.rho: (tc.C - 2) / (tc.C - 1), tc.O: tc.OVERLAP})
                      - 1 / (tc.C - 1)) == 0
    return [measure("max |1 + rho (C-1) U_p^T U_j (data) - printed 1/(C-1)|, C = 3, 4, 5", coef,
                    "<", 1e-12, source=_EXACT),
            measure("1 + (C-2)/(C-1) (C-1) (-1/(C-1)) - 1/(C-1) simplifies to 0", sym, "==", True,
                    source=exact("sympy simplify, all C")),
            measure("max |gated outputs at B* = (C-1)S/D - residual|",
                    max(A.fixed_point_reconstruction(*ds.contexts(C), C) for C in CONTEXTS), "<",
                    1e-10, source=_EXACT)]


def contextual_closed_form_fit(runs) -> Measurement:
    """MHS-F-Closed's empirical side: the trained ReLNs' mean top contextual singular value
    against the corrected closed form (:func:`numerics.haste_slowly.analysis.contextual_closed_form_error`)."""
    return measure("trained ReLN (C = 3, 4, 5): mean top contextual singular value vs the corrected "
                   "form (B0 fitted at 25% of K), max rel dev at 75% of K and at the end",
                   max(A.contextual_closed_form_error(runs[C], *ds.contexts(C), C)
                       for C in CONTEXTS), "<", 0.10, source=_TIMING)


def number_of_contexts(relu, reln) -> tuple:
    """MHS-Fig5 from the runs ``relu[C]``, ``reln[C]``: (the measurements of
    :func:`closed_form_agreement` for C = 3, 4, 5, the figure's panels)."""
    ms, panels = [], {}
    for C in CONTEXTS:
        X, Y = ds.contexts(C)
        loss, panels[C] = A.reln_closed_form(reln[C], X, Y, C)
        panels[C].update(loss=loss, relu=relu[C].trajectory.loss, reln=reln[C].trajectory.loss)
        ms += closed_form_agreement(C, relu[C].trajectory.loss, reln[C].trajectory.loss, loss,
                                    ds.zero_output_loss(Y))
    return ms, panels


# ------------------------------------------------------------------ App A: linear-network checks

def learning_rules(form) -> tuple:
    """MHS-A-Loss: (printed: the rules as +eps dL/dW; corrected: as -eps dL/dW, and the suite's
    clock tau = 1/(P eps); the printed error), the step's sign read from ``form``."""
    printed, corrected = A.learning_rule_error(int(form.printed)), A.learning_rule_error(int(form.corrected))
    tol = reading("float64 autograd vs closed expressions")
    return (measure("+eps dL/dW (autograd of sum_i 1/2||Y_i - W2 W1 X_i||^2) vs the displayed "
                    "rules: max rel err", printed, "<", 1e-12, source=tol),
            [measure("-eps dL/dW vs the displayed rules: max rel err", corrected, "<", 1e-12,
                     source=tol),
             measure("|convention('haste_slowly') tau - 1/(P eps)|",
                     abs(conventions.tau(0.01, 9, "haste_slowly") - 1 / (9 * 0.01)), "<", 1e-12, source=tol)],
            printed)


def top_modes(run) -> Measurement:
    """MHS-A-SVD: a linear net narrower than the rank learns the top modes' map
    sum_(a <= width) (lambda/delta) u v^T (the final map of ``run``)."""
    U, S, V, D, _ = nd.modes(*nd.correlations(*nd.hierarchy(2)))
    W = np.asarray(run.trajectory.records["prod"])[-1, 0]
    k = int(run.ran["hidden units"])
    target = sum(S[a] / D[a] * np.outer(U[:, a], V[:, a]) for a in range(k))
    return measure(f"||W2W1 - sum_(a<={k}) (lambda/delta) u v^T|| / ||.||",
                   float(np.linalg.norm(W - target) / np.linalg.norm(target)), "<", 1e-3,
                   source=reading("catalogue: t/tau = 120 leaves the top-2 modes converged to "
                                  "~1e-10"))


def change_of_variables() -> Measurement:
    """MHS-A-CoV: the full flow against its reduced form (:func:`numerics.haste_slowly.analysis.change_of_variables_error`)."""
    return measure("full flow vs R[W2bar(S - W2bar W1bar D)]V^T and U[W1bar(...)]R^T, max abs err",
                   A.change_of_variables_error(), "<", 1e-13,
                   source=reading("float64 products of O(1) matrices"))


def reduction_without_shared_v() -> tuple:
    """MHS-A-NonDiag: (the printed reduced right-hand sides, the corrected ones with the
    transposes restored, the printed error) against the rotated gradient."""
    printed = A.nondiag_reduction_error(lambda w1, w2, M, D: w2 @ (M - w2 @ w1 @ D),
                                        lambda w1, w2, M, D: w1 @ (M - w2 @ w1 @ D))
    corrected = A.nondiag_reduction_error(lambda w1, w2, M, D: w2.T @ (M - w2 @ w1 @ D),
                                          lambda w1, w2, M, D: (M - w2 @ w1 @ D) @ w1.T)
    tol = reading("float64 products of O(1) 4x4 matrices")
    return (measure("printed reduced right-hand sides vs the rotated gradient, max rel err",
                    printed, "<", 1e-12, source=tol),
            measure("transposes restored, W1bar^T on the right: max rel err", corrected, "<", 1e-12,
                    source=tol),
            printed)


def modes_follow_the_closed_form(run) -> list:
    """MHS-A-C1 from Fig 7's run: the map stays diagonal in the data's SVD basis once the modes
    have risen, and every mode follows Eq. (7) (pi_0 fitted per mode)."""
    t = run.trajectory
    proj, full, S, D = A.hierarchy_modes(t.records["prod"], t.time)
    return [measure("max |u_a'W v_b| between distinct modes for t/tau > 40",
                    A.cross_modes(full, S, t.time, 40), "<", 1e-3,
                    source=reading("once every mode has risen (the slowest by t/tau ~ 30)")),
            measure("mode strengths vs Eq. (7), max dev / plateau for t > t_half/2",
                    A.fitted_modes(proj, t.time, S, D)[1], "<", 0.02,
                    source=reading("2% of the plateau after half the rise time (catalogue)"))]


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


def fig7(run, variants) -> tuple:
    """MHS-Fig7 from its run and one run per setting Fig 7 leaves open: (the decisive and reading
    measurements, the sensitivity of each open setting, the closed-form curves, the modes)."""
    t = run.trajectory
    proj, _, S, D = A.hierarchy_modes(t.records["prod"], t.time)
    sensitivity = {k: measure(f"decisive outcomes with the {k} changed as with Fig 7's run",
                              fig7_outcome(r) == fig7_outcome(run), "==", True, source=_SAME)
                   for k, r in variants.items()}
    # every mode at its plateau by 3/4 of the horizon: a longer run changes nothing
    late = proj[int(np.argmax(np.asarray(t.time) >= 0.75 * t.time[-1]))] / (S / D)
    sensitivity["horizon t/tau"] = measure("mode strengths / plateau at 3/4 of the horizon", late,
                                           "within", (1 - 1e-3, 1 + 1e-3), source=_SAME)
    curves, dev = A.fitted_modes(proj, t.time, S, D)
    return (modes_reach_plateaus(proj, S, D) + [
        measure("mode strengths vs Eq. (7), max dev / plateau for t > t_half/2", dev, "<", 0.02,
                source=reading("2% of the plateau (catalogue)"))], sensitivity, curves, proj)


def time_course(form) -> tuple:
    """MHS-A-C2: (printed: d t_f / d delta = 0; corrected: the corrected time to a fraction of
    the plateau against the numeric hitting time, and the late rate -2 lambda independent of
    delta; the two times to 90% at delta = 0.5, 2)."""
    s, a0, f, ds_ = 0.7, 1e-3, 0.9, (0.5, 2.0)
    times = [float(form.corrected.subs({ml.tau: 1, ml.s: s, ml.a0: a0, tl.f: f, ml.d: d}))
             for d in ds_]
    numeric, rates = A.time_course_values(s, a0, f, ds_)
    return (measure("d t_f / d delta (sympy) simplifies to 0", sp.simplify(form.printed) == 0,
                    "==", True, source=exact("sympy simplify")),
            [measure("time to 90% of the plateau from the corrected formula vs hitting_time, "
                     "delta = 0.5, 2: max rel err",
                     float(np.max(np.abs(np.subtract(times, numeric)) / np.abs(numeric))), "<",
                     1e-10, source=reading("float64 evaluation of two closed forms")),
             measure("late exponential rate / (-2 lambda), delta = 0.5, 2",
                     np.array(rates) / (-2 * s), "within", (1 - 1e-4, 1 + 1e-4),
                     source=reading("fit on t in [12, 16]: O(pi0 d/s e^{-2st}) bias"))],
            times)


# ------------------------------------------------------------------ App B: the elbow from a run

def elbow_evidence(run, L0: float) -> tuple:
    """MHS-Fig8 from a ``numerics.haste_slowly.gate_finder.GateRun``: (the measurements of
    :func:`elbow_at_four` on the GDLNs from every run's centroids at the first init std, the
    sensitivity of App B's open settings, the MSE per (centroid set, std, k))."""
    mse = A.gate_mse(run.trajectory.loss, run.members, run.relu_loss, L0)
    return (elbow_at_four(mse[("all", run.members[0][1])], run.centroids), gate_sensitivity(mse),
            mse)


# ------------------------------------------------------------------ App C: the XoR task

def xor_dataset(form) -> list:
    """MHS-C-Eq(11,12): the simulated data against the printed X, y (``form``), its XOR labels,
    its bias-free linear separability (LP) at Delta = 0, 1e-3, 0.7, and L(0) = 1/2."""
    X, y = ds.xor_margin(0.7)
    return [measure("labels = -sign(x1 x2) (XOR of the first two coordinates)",
                    bool(np.array_equal(np.sign(X[0] * X[1]), -y[0])), "==", True,
                    source=paper("L462", "X = [[-1,1,-1,1],[-1,-1,1,1],[-Delta,Delta,Delta,"
                                         "-Delta]], y = [-1,1,1,-1]")),
            measure("bias-free linear separability (LP) at Delta = 0, 1e-3, 0.7",
                    [A.linearly_separable(d) for d in (0.0, 1e-3, 0.7)], "==", [False, True, True],
                    source=exact("LP feasibility of y_i w.x_i >= 1")),
            measure("L(0) under the 1/(2N) loss", float(0.5 * np.sum(y ** 2) / 4), "==", 0.5,
                    source=exact("float sum")),
            measure("simulation data = printed X, y at Delta = 0.7",
                    bool((sp.Matrix(X.tolist()) - form.X.subs(tx.Delta, 0.7)).is_zero_matrix
                         and (sp.Matrix(y.tolist()) - form.y).is_zero_matrix), "==", True,
                    source=exact("sympy matrix equality"))]


def crossover(form, search_result) -> list:
    """MHS-C-Eq(24-26) from the printed equation and root (``form``) and the sign search over
    Delta (``search_result``): the roots, the residual at sqrt(2/3) in 50 digits, the signs, and
    the time-to-criterion crossover from equal raw a0 above sqrt(2/3), tending to it."""
    gap, roots = A.crossover_check(form.equation, form.root, tx.Delta)
    crosses = [A.criterion_crossover(a0, xor_modes()) for a0 in (1e-3, 1e-6, 1e-12)]
    words = paper("L105", "which marks the approximate point at which a ReLU network switches")
    sym = exact("sympy simplify")
    return [measure("sympy roots of Eq. (24) equal [sqrt(2/3)]", roots == [form.root], "==", True,
                    source=sym),
            measure("|s_lin - s_xor| at sqrt(2/3), 50 digits", gap, "<", 1e-45,
                    source=reading("50-digit arithmetic")),
            measure("sign(s_lin - s_xor) = sign(Delta - sqrt(2/3)) for Delta in [0, 10]: "
                    "disagreements", search_result, source=exact("sign comparison")),
            measure("time-to-L=0.2 crossover with equal a0 = 1e-3, 1e-6, 1e-12, minus sqrt(2/3)",
                    np.array(crosses) - float(form.root), ">", 0, source=words,
                    details={"crossovers": crosses}),
            measure("its decrease from a0 = 1e-3 to 1e-6 to 1e-12 (tends to sqrt(2/3))",
                    -np.diff(crosses), ">", 0, source=words)]


def linear_gdln_fit(loss_22, runs) -> float:
    """MHS-C-Eq(20-22)'s simulation: the largest |dL| of the linear-gating GDLNs ``runs[Delta]``
    from Eq. (22) (:func:`numerics.haste_slowly.analysis.linear_gdln_deviation`)."""
    return max(A.linear_gdln_deviation(t, dl, loss_22) for dl, t in runs.items())


def fig2(run, run32) -> tuple:
    """MHS-Fig2 from the ReLU sweep and its float32 twin: (the measurements of
    :func:`follows_faster`, the sensitivity of Fig 2's open settings, the outcomes)."""
    modes = xor_modes()
    whole = A.xor_outcomes(run, modes)
    grid = np.arange(len(whole["deltas"]))
    halves = [A.xor_outcomes(run, modes, keep=grid % 2 == i) for i in (0, 1)]
    return (follows_faster(whole), xor_sensitivity(whole, halves, A.xor_outcomes(run32, modes),
                                                   float(run.trajectory.time[-1])), whole)
