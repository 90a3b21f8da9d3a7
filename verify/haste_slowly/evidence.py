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
from verify.lexicon import decide
from verify.measurement import Measurement, exact, measure, paper, reading
from verify.sensitivity import unmoved
from verify.statements import LEVEL, Estimate, direction, each, estimate, mean_of


# ------------------------------------------------------------------ Sec 6: depth (L162-L171)

S6_WORDS = ("We see that in this case the ReLU network does not use the first layer for gating and "
            "instead all neurons are active for all datapoints")
#: the last tenth of the paper's clock, the lexicon's "at the end" alternative
LAST_TENTH = 0.1


def _window_means(values, times, starts) -> np.ndarray:
    """(K,) per seed: the mean of ``values`` (T, K) over the records from that seed's ``starts``
    epoch on."""
    t, v = np.asarray(times, float), np.asarray(values, float)
    return np.array([v[t >= s, k].mean() for k, s in enumerate(np.asarray(starts, float))])


def first_layer_ungated(trajectory, g1, m1) -> list[Measurement]:
    """MHS-S6-C1, first layer (L162), "all neurons are active for all datapoints": an absence
    (no neuron gates) over the lexicon's readings, measured over training, not only at its last
    epoch: the share of the weight-carrying layer-1 units (mass > 1% of the largest) that are off
    for some datapoint, at the last recorded epoch, over the last tenth of training and over the
    whole phase from each run's own common-pathway alignment (:func:`A.onsets`), and the share of
    the layer's weight mass on such units at the end.  ``trajectory`` records ``on1`` and
    ``on1_mass`` (T, K); ``g1`` (K, units, 24) final gates, ``m1`` (K, units) unit masses."""
    t = np.asarray(trajectory.time, float)
    on1, on1_mass = (np.asarray(trajectory.records[k], float) for k in ("on1", "on1_mass"))
    units, mass = A.always_on_shares(g1, m1)
    aligned = A.onsets(trajectory)[0]
    aligned = np.where(np.isfinite(aligned), aligned, t[0])
    gating = {"last recorded time": mean_of(1 - units),
              "last tenth of training": mean_of(1 - _window_means(on1, t, [t[-1] * (1 - LAST_TENTH)]
                                                                   * len(units))),
              "over the whole phase (from each run's common-pathway alignment)":
                  mean_of(1 - _window_means(on1, t, aligned)),
              "share of the weight mass, last recorded time": mean_of(1 - mass)}
    return [decide("all neurons are active", "share of the weight-carrying layer-1 units (> 1% of "
                   "the largest mass) that are off for some datapoint (gate)", gating, where="L162",
                   words=S6_WORDS,
                   details={"per seed, last recorded time": (1 - units).tolist(),
                            "per seed, weight mass at the end": (1 - mass).tolist(),
                            "per seed, whole phase from the alignment": (1 - _window_means(
                                on1, t, aligned)).tolist(),
                            "share of the weight mass off for some datapoint, per seed over the "
                            "whole phase": (1 - _window_means(on1_mass, t, aligned)).tolist()})]


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


def contexts_served(deep_g2, deep_m2, deep_g1, deep_m1, shallow_g, shallow_m) -> dict:
    """Node reuse as Sec 5 measures it (the mass-weighted number of contexts a unit serves,
    :func:`reuse_with_contexts`), per seed, of the single-hidden-layer net and of each hidden
    layer of the two-hidden-layer net: {'1 hidden layer' | '2 hidden layers, layer 2' | ...:
    (K,)}."""
    def reuse(g, m):
        return np.array([sum(j * s[j] for j in s) for s in
                         A.context_specific_units(np.asarray(g, float), m, 3, majority=0.5)[2]])
    return {"1 hidden layer": reuse(shallow_g, shallow_m),
            "2 hidden layers, layer 1": reuse(deep_g1, deep_m1),
            "2 hidden layers, layer 2": reuse(deep_g2, deep_m2)}


def reuse_with_depth(deep_g2, deep_m2, deep_g1, deep_m1, shallow_g, shallow_m) -> list:
    """MHS-Disc, its depth clause (L177 "the bias towards node reuse increases with the addition
    of ... greater depth"): :func:`contexts_served` in the single-hidden-layer net against each
    hidden layer of the two-hidden-layer net on the same task (one-sided Welch tests)."""
    served = contexts_served(deep_g2, deep_m2, deep_g1, deep_m1, shallow_g, shallow_m)
    words = paper("L177", "we find that the bias towards node reuse increases with the addition "
                          "of more contexts and greater depth")
    return [direction(f"mass-weighted number of contexts a unit serves, 1-hidden-layer ReLU below "
                      f"the 2-hidden-layer ReLU's {name}", served["1 hidden layer"],
                      served[f"2 hidden layers, {name}"], source=words,
                      names=("1 hidden layer", f"2 hidden layers, {name}"))
            for name in ("layer 2", "layer 1")]


def variance_with_depth(relu_loss, gdln_loss, shallow_loss, L0: float) -> list[Measurement]:
    """MHS-S6-C2 (L164), about the distribution of trained networks: each seed's deviation from
    its network's mean loss curve is larger for the deep ReLU net and the depth GDLN than for the
    shallow net (one-sided Welch tests, each beside the effect it detects with 80% power), and the
    shallow net's deviation is negligible ("which was not the case", over the lexicon's
    readings).  L169 ('shares the same characteristics in variance') is read as the GDLN's spread
    lying nearer the deep ReLU's than the shallow net's."""
    dev = {k: A.deviation_from_mean(v, L0) for k, v in
           (("relu", relu_loss), ("gdln", gdln_loss), ("shallow", shallow_loss))}
    text = ("We note that there is now variance in the trajectories of both networks, which was "
            "not the case for the single-hidden-layer architectures")
    words = paper("L164", text)
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
    out.append(decide("was not the case", "deviation of a 1-hidden-layer ReLU run's loss curve "
                      "from its network's mean, max over epochs, / L(0)", mean_of(dev["shallow"]),
                      where="L164", words=text, contrast=mean_of(dev["relu"]),
                      contrast_name="the 2-hidden-layer ReLU net's"))
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


S6_C3_WORDS = ("The relative timing of the drops in loss and positions of the plateaus in loss are "
               "all consistent following the alignment")


def _aligned(trajectory, starts, width: float, every: float, L0: float) -> np.ndarray:
    """(K, S) each seed's loss / L(0) from its ``starts`` epoch on (seeds first)."""
    return A.aligned_curves(trajectory, starts, width, every).T / L0


def staged_onsets(relu, gdln, L0: float) -> list[Measurement]:
    """MHS-S6-C3 (L171), from the two networks' trajectories (epochs).  The GDLN's stages (epochs
    500 and 12000) are the released schedule (gdln_off.py start_epoch, switch_epoch1; MHS-E16), so
    they are recorded beside the ReLU's own onsets, never as a tolerance.  The run decides the
    sentence after them, "consistent following the alignment", over the lexicon's readings of
    'consistent' and two alignments: each run's curve from its own contextual onset (a mode-wise
    shift per run), and every run shifted by one time, its network's median onset (a global
    shift); the quantity is the mean over epochs of |seed-mean GDLN - seed-mean ReLU| / L(0) with
    its interval over the seeds of both."""
    ctx_r, ctx_g = A.onsets(relu)[1], A.onsets(gdln)[1]
    onset_words = ("the common pathway align around epoch 500, while the contextual pathways only "
                   "appear at epoch 12000")
    readings = [measure(f"median epoch the ReLU net's {what}", float(np.median(r)), ">=", 0,
                        source=reading(f"the ReLU's own timing beside the GDLN's imposed epoch "
                                       f"{epoch}", "L171", onset_words),
                        details={"per seed": r, "GDLN, per seed": g})
                for what, r, g, epoch in zip(("common output mode aligns (|cos| > 0.9)",
                                              "gating-only loss part starts to drop"),
                                             A.onsets(relu), A.onsets(gdln), (500, 12000))]
    if not np.all(np.isfinite(np.r_[ctx_r, ctx_g])):
        return [measure("runs whose contextual loss part never starts to drop",
                        int(np.sum(~np.isfinite(ctx_r)) + np.sum(~np.isfinite(ctx_g))), "==", 0,
                        source=reading("the alignment needs every run's onset")), *readings]
    every = float(np.diff(np.asarray(relu.time, float)[:2])[0])
    alignments = {"mode-wise time shift (each run from its own contextual onset)": (ctx_r, ctx_g),
                  "global time shift (each network's median onset)":
                      (np.full_like(ctx_r, np.median(ctx_r)), np.full_like(ctx_g, np.median(ctx_g)))}
    gaps, spread = {}, {}
    for name, (sr, sg) in alignments.items():
        width = float(min(relu.time[-1] - sr.max(), gdln.time[-1] - sg.max()))
        R, G = _aligned(relu, sr, width, every, L0), _aligned(gdln, sg, width, every, L0)
        gaps[name] = estimate(lambda r, g: float(np.mean(np.abs(g.mean(0) - r.mean(0)))), R, G,
                              paired=False)
        spread[name] = float(np.mean(np.abs(R - R.mean(0))))
    return [decide("consistent", "mean over epochs after the alignment of |seed-mean GDLN loss - "
                   "seed-mean ReLU loss| / L(0)", gaps, where="L171", words=S6_C3_WORDS,
                   details={f"the ReLU runs' own mean distance from their mean, {k}": v
                            for k, v in spread.items()}),
            *readings]


def stereotypical_agreement(relu_loss, gdln_loss, L0: float) -> list[Measurement]:
    """MHS-Fig6 (L164, Fig 6b), over the lexicon's readings: "close agreement" of the
    stereotypical runs (closest to their network's mean, as replot.py picks them), their mean
    distance over epochs / L(0) -- two single runs picked by the paper's rule, so a point value
    (a jackknife of the pick is not smooth: leaving a seed out can change the pick); the ReLU runs'
    own distances from their stereotypical run are reported beside -- and "the same variance
    profiles": the mean over epochs of the gap between the two networks' spread over seeds
    (standard deviation / L(0)), with its interval over the seeds of both."""
    R, G = (np.asarray(x, float).T for x in (relu_loss, gdln_loss))
    value, dist = A.stereotypical_distances(relu_loss, gdln_loss, L0)
    return [decide("close agreement", "mean over epochs of |stereotypical ReLU loss - "
                   "stereotypical GDLN loss| / L(0)", Estimate.point(value), where="L164",
                   words="We see close agreement between the ReLU network and GDLN stereotypical "
                         "trajectories",
                   details={"the other ReLU runs' distance from the stereotypical ReLU run: "
                            "median, largest": [float(np.median(dist)), float(dist.max())]}),
            decide("same variance profiles", "mean over epochs of |spread over seeds of the ReLU "
                   "loss - spread over seeds of the GDLN loss| / L(0) (standard deviations)",
                   estimate(lambda r, g: float(np.mean(np.abs(r.std(0, ddof=1)
                                                              - g.std(0, ddof=1)))) / L0,
                            R, G, paired=False), where="L171",
                   words="we also see the same variance profiles across the various runs",
                   details={"mean over epochs of the spread over seeds / L(0): ReLU, GDLN":
                            [float(np.mean(R.std(0, ddof=1))) / L0,
                             float(np.mean(G.std(0, ddof=1))) / L0]})]


C1_WHERE, C1_WORDS = "L120", "We see excellent agreement across all dynamics and outputs"


def curve_gap(a, b, L0: float) -> Estimate:
    """Mean over epochs of |seed-mean loss of ``a`` - seed-mean loss of ``b``| / L(0)
    (:func:`numerics.haste_slowly.analysis.loss_distance`), losses (T, K) on one time grid, with
    its interval over the seeds of both networks (run on their own seeds: unpaired)."""
    return estimate(lambda x, y: A.loss_distance(x.T, y.T, L0), np.asarray(a, float).T,
                    np.asarray(b, float).T, paired=False)


def imitation(relu_loss, reln_loss, null_loss, L0: float) -> list:
    """MHS-S4-C1 and MHS-S4-C4 (one rule for both): the ReLN's loss curve against the ReLU net's,
    "excellent agreement across all dynamics" (L120; the fixed gating "constant from the start",
    L118, is what the ReLN runs with), decided over the lexicon's closeness readings on the scale
    of Fig 4a's axis (a fraction of L(0)); the single-context GDLN, which the paper shows does not
    imitate (Fig 4a), is measured the same way and reported beside as the contrast."""
    return [decide("excellent agreement", "mean over epochs of |seed-mean ReLN loss - seed-mean "
                   "ReLU loss| / L(0)", curve_gap(reln_loss, relu_loss, L0), where=C1_WHERE,
                   words=C1_WORDS, contrast=curve_gap(null_loss, relu_loss, L0),
                   contrast_name="the single-context GDLN of Fig 4a, which does not imitate",
                   details={"the ReLU runs' own mean distance from their seed-mean curve / L(0)":
                            A.seed_spread(relu_loss, L0)})]


def _output_gaps(relu_out, reln_out, idx, scale: float) -> Estimate:
    """Max over the records ``idx`` of the RMS entry of (seed-mean ReLN output - seed-mean ReLU
    output) / ``scale``, with its interval over the seeds of both."""
    def gap(r, g):
        return float(np.max(np.sqrt(np.mean((g.mean(0) - r.mean(0)) ** 2, axis=(-2, -1))))) / scale
    R = np.swapaxes(np.asarray(relu_out, float)[idx], 0, 1)
    G = np.swapaxes(np.asarray(reln_out, float)[idx], 0, 1)
    return estimate(gap, R, G, paired=False)


def output_agreement(relu_out, reln_out, Y, times, at=(1000, 4000, 8000)) -> list:
    """MHS-S4-C1's outputs: Fig 4a's output samples "at certain points during training" (L120
    "excellent agreement across all dynamics and outputs", closeness; the caption's "exact
    agreement between these output samples", L129, identity) on the scale of the output plots (the
    targets' range): the RMS entry of the seed-mean ReLN output minus the seed-mean ReLU output.
    The paper's sample epochs are not stated, so the times are alternatives of the reading: the
    suite's sample epochs ``at`` one by one, and the whole run (max over every record).  The
    identity word's strict reading is the ReLU runs' own largest RMS distance from their mean
    output.  ``relu_out``, ``reln_out`` (T, K, m, N)."""
    t = np.asarray(times, float)
    scale = float(np.max(Y) - np.min(Y))
    picks = {f"at epoch {e}": [int(np.argmin(np.abs(t - e)))] for e in at}
    picks["over the whole phase (max over every record)"] = list(range(len(t)))
    gaps = {k: _output_gaps(relu_out, reln_out, i, scale) for k, i in picks.items()}
    R = np.asarray(relu_out, float)
    spread = float(np.max(np.sqrt(np.mean((R - R.mean(1, keepdims=True)) ** 2, axis=(-2, -1))))) \
        / scale
    name = ("RMS entry of (seed-mean ReLN output - seed-mean ReLU output) / the targets' range, "
            "max over the sampled records")
    return [decide("excellent agreement", f"{name}, read as 'excellent agreement' (L120)", gaps,
                   where=C1_WHERE, words=C1_WORDS),
            decide("exact agreement", f"{name}, read as 'exact agreement' (L129)", gaps,
                   where="Fig 4 caption, L129",
                   words="we see exact agreement between these output samples", spread=spread,
                   details={"the ReLU runs' largest RMS distance from their mean output / range "
                            "(the strict reading)": spread})]


def latent_geometry(relu_hidden, reln_hidden, single_hidden, times, start: float = 500,
                    every: int = 4) -> list:
    """MHS-S4-C2 (L120, Fig 4c; L129 "at all points in time").  MDS is defined only up to
    rotation, so the 24 x 24 distance matrices (RDMs) of the hidden activities (T, K, H, N) are
    compared over the epochs from ``start``: 1 - the mean RDM correlation of the ReLN with the ReLU
    runs, max over the epochs and at the last one, decided by the identity word "near exact"
    (strict reading: the same between ReLU runs of different seeds); the single-context GDLN is
    the contrast."""
    t = np.asarray(times, float)
    idx = np.flatnonzero(t >= start)[::every]
    rr, rn, rs = (A.rdm_scores(h, idx) for h in (relu_hidden, reln_hidden, single_hidden))
    rr_self = A.rdm_series(relu_hidden, relu_hidden, idx, same=True)

    def worst(a, b, last=False):
        c = 1 - A.mean_rdm_correlation(a, b)
        return float(c[-1] if last else c.max())
    gaps = {"over the whole phase (max over epochs)": estimate(worst, rr, rn, paired=False),
            "last recorded time": estimate(lambda a, b: worst(a, b, True), rr, rn, paired=False)}
    return [decide("near exact", "1 - mean RDM correlation of the ReLN's hidden representations "
                   "with the ReLU runs'", gaps, where="L120",
                   words="we see near exact correspondence between the relative positions of the "
                         "latent representations of the dataset across both architectures",
                   spread=float(np.max(1 - rr_self)),
                   contrast=estimate(worst, rr, rs, paired=False),
                   contrast_name="the single-context GDLN, max over epochs",
                   details={"1 - RDM correlation between ReLU runs of different seeds, max over "
                            "epochs (the strict reading)": float(np.max(1 - rr_self)),
                            "epochs": t[idx], "ReLN": A.mean_rdm_correlation(rr, rn),
                            "single-context GDLN": A.mean_rdm_correlation(rr, rs),
                            "ReLU-ReLU": rr_self})]


def no_context_specific_neurons(patterns, mass, loss, ablate, C: int = 3) -> list:
    """MHS-S4-C3 (L122) about each trained ReLU net: "no neurons ... context specific" is an
    absence, decided over the lexicon's readings (none at all; no more than threshold artefacts)
    on the share of the weight-carrying units (> 1% of the largest mass) that are on in exactly
    one context, and on the share of the weight mass on them; the final loss without those units
    is reported beside; then "mixed selectivity".  ``patterns`` (K, H, N), ``mass`` (K, H) and
    ``loss`` (K,) final; ``ablate(drop)`` the (K,) final losses with the units ``drop`` (K, H)
    removed."""
    usage, count, shares = A.context_specific_units(patterns, mass, C)
    m = np.asarray(mass, float)
    big = (m > 0.01 * m.max(axis=1, keepdims=True)).sum(1)
    effect = np.asarray(ablate(usage == 1), float) - np.asarray(loss, float)
    share = {"share of the weight-carrying units": mean_of(count / big),
             "share of the weight mass": mean_of([s[1] for s in shares])}
    return [decide("no neurons", "units carrying weight (> 1% of the largest mass) on in exactly "
                   "one context", share, where="L122",
                   words="there are no neurons in the ReLU network which are context specific",
                   details={"count per seed": count, "weight-carrying units per seed": big,
                            "final loss with them removed minus the final loss, per seed": effect}),
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
    ReLU network": its curve's distance from the ReLU runs' (a fraction of L(0), with its
    interval), decided over the lexicon's readings of a failure to imitate."""
    return decide("unable to imitate", "mean over epochs of |seed-mean single-context GDLN loss - "
                  "seed-mean ReLU loss| / L(0)", curve_gap(single_loss, relu_loss, L0),
                  where="Fig 4 caption, L129",
                  words="a GDLN (here called \u201cGDLN Single\u201d) which has contextual "
                        "pathways active for individual contexts is unable to imitate the loss "
                        "trajectory of the ReLU network",
                  details={"the ReLU runs' own mean distance from their seed-mean curve / L(0)":
                           A.seed_spread(relu_loss, L0)})


def singles_inactive(loss, loss_without_singles, sv, L0: float) -> list:
    """MHS-E-Six (App E, L586): "the pathways active for a single context remain inactive", a
    negligibility over the lexicon's readings, read two ways (alternatives of the quantity): what
    removing the single-context pathways at the end adds to the loss, over L(0), and their share of
    the contextual pathways' top singular values at the end.  ``loss``, ``loss_without_singles``
    (K,) final; ``sv`` (T, K, 7, r): pathways common, 3 double, 3 single."""
    loss, without = np.asarray(loss, float), np.asarray(loss_without_singles, float)
    sv = np.asarray(sv, dtype=float)[..., 0]
    growth, share = sv[-1, :, 4:] / sv[0, :, 4:], sv[-1, :, 4:].sum(1) / sv[-1, :, 1:].sum(1)
    return [decide("inactive", "the single-context pathways' part at the end",
                   {"final loss without them minus the final loss, / L(0)":
                        mean_of((without - loss) / L0),
                    "their share of the contextual pathways' top singular values": mean_of(share)},
                   where="App E, L586",
                   words="even if all six possible modules are trained simultaneously, the "
                         "pathways active for a single context remain inactive",
                   details={"final loss": loss, "final loss without them": without}),
            measure("single-context pathways' top singular value, end / init (min over pathways "
                    "and seeds)", float(growth.min()), ">=", 0,
                    source=reading("how far the single-context pathways grew out of their init"),
                    details={"share of the contextual top singular values on single-context "
                             "pathways, per seed": share})]


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
                                             "are active for $C - 1$ contexts")))
    Cs = sorted(patterns)
    for a, b in itertools.pairwise(Cs):
        out.append(direction(f"mass-weighted number of contexts a unit serves, C = {a} below "
                             f"C = {b}", reuse[a], reuse[b],
                             source=paper("L153", "as the number of contexts increases, so too does "
                                                  "the bias towards node reuse and mixed "
                                                  "selectivity"), names=(f"C={a}", f"C={b}")))
    return out


def closed_form_agreement(C: int, relu_loss, reln_loss, closed, L0: float, panels=None) -> list:
    """MHS-Fig5 (L158) for C contexts: "see perfect agreement to both the ReLN and ReLU networks",
    the closed-form loss curve against each network's seed-mean curve (mean over epochs / L(0),
    with its interval over seeds), decided by the identity word over its readings (strict: that
    network's own run-to-run spread; lenient: overlapping lines); with ``panels``
    (:func:`numerics.haste_slowly.analysis.reln_closed_form`), also "match simulations exactly" for
    the common modes and the mean contextual mode (largest gap over the plateau, one closed form
    against the simulated ReLN's first seed: a point value).  Losses (T, K) on one grid,
    ``closed`` (T,)."""
    words = ("Consequently we can in closed form derive the loss trajectory for each architecture "
             "and see perfect agreement to both the ReLN and ReLU networks")
    closed = np.asarray(closed, float)
    out = []
    for name, loss in (("ReLN", reln_loss), ("ReLU", relu_loss)):
        loss = np.asarray(loss, float)
        out.append(decide("perfect agreement", f"C = {C}: mean over epochs of |closed-form loss - "
                          f"seed-mean {name} loss| / L(0)",
                          estimate(lambda x: float(np.mean(np.abs(closed - x.mean(0)))) / L0,
                                   loss.T),
                          where="Fig 5 caption, L158", words=words,
                          spread=A.seed_spread(loss, L0)))
    if panels is not None:
        sim = np.c_[panels["common simulated"], panels["contextual simulated"]]
        th = np.c_[panels["common"], panels["contextual"]]
        gap = float(np.max(np.abs(sim - th)) / np.max(np.abs(th)))
        spread = float(panels.get("seed spread", 0.0)) / float(np.max(np.abs(th)))
        out.append(decide("exactly", f"C = {C}: largest |closed-form - simulated singular value| "
                          "/ the largest closed-form value, common modes 1-3 and the mean "
                          "contextual mode", Estimate.point(gap), where="Fig 5 caption, L158",
                          words="The singular value trajectories for the common pathway (second "
                                "row) and mean trajectories for the contextual pathways (bottom "
                                "row) match simulations exactly", spread=spread,
                          details={"the simulated ReLN runs' largest distance from their mean "
                                   "contextual mode / the largest closed-form value (the strict "
                                   "reading)": spread}))
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


ELBOW_READINGS = ("curvature", "kneedle", "smallest MSE")


def elbow_at_four(mse: dict, centroids: dict) -> list:
    """MHS-Fig8/9 (L443-L445): "the 4-Cluster model is the appropriate choice for the elbow" of
    the ReLU-GDLN loss MSE over k, under each reading of 'elbow' (largest curvature, the kneedle
    point, :func:`numerics.haste_slowly.analysis.elbows`; and the k of the smallest MSE, where
    the performance metric is best), each a reading of the one sentence: when they disagree the
    claim depends on the reading; and k = 2, 3 centroids are more fractional than k = 4's."""
    found = dict(A.elbows(mse), **{"smallest MSE": int(min(mse, key=mse.get))})
    words = "the 4-Cluster model is the appropriate choice for the elbow"
    frac = {k: float(np.mean((np.asarray(c) > 0.1) & (np.asarray(c) < 0.9)))
            for k, c in centroids.items()}
    details = {f"MSE k={k}": v for k, v in sorted(mse.items())}
    return [measure(f"elbow of the loss MSE between the ReLU net and the GDLN from k centroids "
                    f"({reading_} reading)", found[reading_], "==", 4,
                    source=paper("L445", words, interpretation=f"elbow as the {reading_} point"),
                    details=details)
            for reading_ in ELBOW_READINGS] + [
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


def _without_seed(outcomes: dict, k: int) -> dict:
    """The outcomes of :func:`numerics.haste_slowly.analysis.xor_outcomes` without seed ``k``."""
    keep = np.arange(len(outcomes["closer"])) != k
    return dict(outcomes, closer=outcomes["closer"][keep], switch=outcomes["switch"][keep],
                t_relu=outcomes["t_relu"][:, keep])


def xor_sensitivity(whole: dict, halves: list, float32: dict, longer: dict) -> dict:
    """Fig 2's unstated settings, each over at least two values, by the one sensitivity rule
    (:func:`verify.sensitivity.unmoved`): the decisive outcomes of :func:`follows_faster` must not
    move with the horizon (the run's steps and 1.5 times as many), the seeds (all but one),
    the Delta grid (each half of it) or the dtype (float64 and float32)."""
    def ff(o):
        return follows_faster(o)[:2]
    K = len(whole["closer"])
    return {"steps": unmoved("steps", {"the run's horizon": ff(whole), "1.5 x the horizon":
                                       ff(longer)},
                             plausible="any horizon past every run's time to the criterion"),
            "seeds": unmoved("seeds", {"all seeds": ff(whole),
                                       **{f"without seed {k}": ff(_without_seed(whole, k))
                                          for k in range(K)}},
                             plausible="the run's seeds, and each set of all but one of them"),
            "Delta grid": unmoved("Delta grid", {"whole grid": ff(whole),
                                                 **{f"half {i}": ff(h) for i, h in
                                                    enumerate(halves)}},
                                  plausible="the run's grid and each half of it"),
            "dtype": unmoved("dtype", {"float64": ff(whole), "float32": ff(float32)},
                             plausible="float64 and float32")}


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
                    source=exact("all items are present in each context (L111): 8 items x 3 "
                                 "contexts, counted")),
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


def gate_sensitivity(mse: dict, centroids: dict) -> dict:
    """The settings App B leaves open (the GDLN init std, the number of ReLU runs pooled, the range
    of k), each varied over the values the run has, by the one sensitivity rule
    (:func:`verify.sensitivity.unmoved`): Fig 8/9's decisive outcomes (:func:`elbow_at_four`)
    must not move.  ``mse``: :func:`numerics.haste_slowly.analysis.gate_mse`."""
    first = next(iter(mse))
    stds = [key for key in mse if key[0] == first[0]]
    return {"GDLN init std": unmoved("GDLN init std", {key[1]: elbow_at_four(mse[key], centroids)
                                                       for key in stds},
                                     plausible="the init stds the run trains the GDLNs at"),
            "ReLU runs pooled": unmoved("ReLU runs pooled",
                                        {"all": elbow_at_four(mse[first], centroids),
                                         "half": elbow_at_four(mse[("half", first[1])], centroids)},
                                        plausible="all the ReLU runs' patterns, or half of them"),
            "k": unmoved("range of k", {f"k <= {max(mse[first])}": elbow_at_four(mse[first],
                                                                                 centroids),
                                        f"k <= {max(mse[first]) - 1}": elbow_at_four(
                                            {k: v for k, v in mse[first].items()
                                             if k < max(mse[first])}, centroids)},
                         plausible="the run's range of k, and that range less its largest k")}


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
                    source=paper("L49", "h_v = g_v \\sum_{q \\in \\mathbf{E}: t(q)=v} g_q W_q "
                                       "h_{s(q)}"))]


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
                   source=paper("L90", "GDLN(W(t), G^*(x^i), x^i) = ReLU(\\bar{W}(t), x^i)"))


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
        top = np.asarray(reln[C].trajectory.records["sv"], float)[:, :, 1:, 0].mean(2)
        panels[C]["seed spread"] = float(np.max(np.abs(top - top.mean(1, keepdims=True))))
        panels[C].update(loss=loss, relu=relu[C].trajectory.loss, reln=reln[C].trajectory.loss)
        ms += closed_form_agreement(C, relu[C].trajectory.loss, reln[C].trajectory.loss, loss,
                                    ds.zero_output_loss(Y), panels[C])
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


FIG7_WHERE, FIG7_WORDS = ("Fig 7 caption, L370", "Initially all modes begin at 0 but increase to "
                                                  "their final values")


def modes_reach_plateaus(proj, S, D) -> list:
    """MHS-Fig7 (Fig 7 caption, L370): "Initially all modes begin at 0 but increase to their final
    values", each half a negligibility over the lexicon's readings on the scale of Fig 7c (a
    fraction of each mode's plateau lambda/delta): the largest mode strength at the start, and
    the largest distance from the plateau at the end (one deterministic run: point values)."""
    ratio = np.asarray(proj, float) / (np.asarray(S) / np.asarray(D))
    return [decide("begin at 0", "largest mode strength at the start / its plateau lambda/delta, "
                   "modes 1-4", Estimate.point(np.max(np.abs(ratio[0]))), where=FIG7_WHERE,
                   words=FIG7_WORDS, details={"per mode": np.abs(ratio[0])}),
            decide("increase to their final values", "largest |mode strength at the end / its "
                   "plateau lambda/delta - 1|, modes 1-4",
                   Estimate.point(np.max(np.abs(ratio[-1] - 1))), where=FIG7_WHERE,
                   words=FIG7_WORDS, details={"per mode": ratio[-1]})]


def fig7(run, variants) -> tuple:
    """MHS-Fig7 from its run and one run per setting Fig 7 leaves open: (the decisive and reading
    measurements, the sensitivity of each open setting by the one rule
    (:func:`verify.sensitivity.unmoved`): the run's value against the variant's, and the horizon
    against 3/4 of it; the closed-form curves, the modes)."""
    t = run.trajectory
    proj, _, S, D = A.hierarchy_modes(t.records["prod"], t.time)

    def outcome(r):
        p, _, s_, d_ = A.hierarchy_modes(r.trajectory.records["prod"], r.trajectory.time)
        return modes_reach_plateaus(p, s_, d_)
    sensitivity = {k: unmoved(k, {"Fig 7's run": outcome(run), "changed": outcome(r)},
                              plausible=f"configs.FIG7_VARIANTS: another value of the {k}")
                   for k, r in variants.items()}
    cut = int(np.argmax(np.asarray(t.time) >= 0.75 * t.time[-1]))
    sensitivity["horizon t/tau"] = unmoved(
        "horizon t/tau", {"the run's horizon": modes_reach_plateaus(proj, S, D),
                          "3/4 of it": modes_reach_plateaus(proj[:cut + 1], S, D)},
        plausible="any horizon past the slowest mode's rise")
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
    return (elbow_at_four(mse[("all", run.members[0][1])], run.centroids),
            gate_sensitivity(mse, run.centroids), mse)


# ------------------------------------------------------------------ App C: the XoR task

def xor_dataset(form) -> list:
    """MHS-C-Eq(11,12): the simulated data against the printed X, y (``form``), its XOR labels,
    its bias-free linear separability (LP) at Delta = 0, 1e-3, 0.7, and L(0) = 1/2."""
    X, y = ds.xor_margin(0.7)
    return [measure("labels = -sign(x1 x2) (XOR of the first two coordinates)",
                    bool(np.array_equal(np.sign(X[0] * X[1]), -y[0])), "==", True,
                    source=paper("L462-L464", "-1 & 1 & -1 & 1 \\\\ -1 & -1 & 1 & 1 \\\\ -\\Delta & "
                                              "\\Delta & \\Delta & -\\Delta")),
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


def fig2(run, run32, longer) -> tuple:
    """MHS-Fig2 from the ReLU sweep, its float32 twin and its run over a 1.5 x longer horizon:
    (the measurements of :func:`follows_faster`, the sensitivity of Fig 2's open settings, the
    outcomes)."""
    modes = xor_modes()
    whole = A.xor_outcomes(run, modes)
    grid = np.arange(len(whole["deltas"]))
    halves = [A.xor_outcomes(run, modes, keep=grid % 2 == i) for i in (0, 1)]
    return (follows_faster(whole), xor_sensitivity(whole, halves, A.xor_outcomes(run32, modes),
                                                   A.xor_outcomes(longer, modes)), whole)
