"""Measurements of the empirical claims of both bias papers (BL, and the workshop paper BA, whose
Figs 1-3 and 5 are the long paper's Figs 2, 6 and 9 run on the same simulations).

One rule per kind of sentence (``verify.statements``, ``verify.lexicon``):

* a stated direction between two conditions over seeds ("diverge when bias terms are ablated",
  "lower rank with bias"): :func:`verify.statements.direction`, paired where the two conditions
  share their seeds (member k of each starts from the same weights); a statement about each
  trained network: :func:`verify.statements.each` (unanimity);
* a magnitude word ("most", "generally", "small", "shoots up", "early", "zero loss"):
  :func:`verify.lexicon.decide` on the seed mean of the per-seed quantity with its interval
  (:func:`verify.statements.estimate`), over every reading of the word;
* the alignment words ("closely track", "aligned", "matched", "resemble", "excellent agreement",
  "preserved", "exactly"): :func:`aligned`, the per-seed ReLU-linear loss gap over L(0) (the
  scale of the papers' loss plots) decided by the word's readings, the ablated (no-bias) gap
  measured beside as the paper's contrast.  The alignments a sentence allows are alternatives
  of the one decision (:func:`alignments`): a sentence that names a time shift is read up to a
  global time shift, a global time rescale and a mode-wise time shift (BL L181's mechanism,
  Eq. 14); one that says "exactly" is read unshifted; the others unshifted and up to a global
  shift.  The windows "early training" allows are alternatives likewise (:func:`early_windows`).
  BL Fig 9's "time shift" and BA App B's "different time constants" go through the same
  :func:`time_shift_sentence`.

The settings of every toy run are declared once, in :func:`toy_setup`.  Time is the paper's t/tau
throughout; gaps are relative to the initial loss L0 = 1/2 ||Y||^2.
"""
from __future__ import annotations

import re

import numpy as np
import sympy as sp

from numerics.bias import alignment as al
from numerics.bias.gated_linear import gated_linear_loss
from numerics.bias.image_data import preprocess
from numerics.bias.mode_fit import fit_a0, theory_loss
from numerics.bias.representations import distance_matrix, linear_cka, rsa, variance_explained
from numerics.bias.tasks import LINEAR_FEATURE, XOR_FEATURE, data_facts
from numerics.bias.units import dead_at_init_probability, kinks, linearisation_time, unit_states
from numerics.datasets import correlations, modes
from numerics.metrics import effective_rank
from theory.bias import exp_claims
from theory.bias import hitting as hit
from theory.bias import settings as T
from verify import lexicon
from verify.bias.symbolic import kink_vanishes
from verify.measurement import exact, measure, paper, reading
from verify.sensitivity import unmoved
from verify.settings_tables import paper_side
from verify.setup import UNKNOWN, Setup
from verify.statements import direction, each, estimate, mean_of

SHIFTS = np.linspace(0, 3, 61)            # t/tau: the grid of time shifts searched
SCALES = np.linspace(1.0, 1.5, 51)        # global time-constant ratios searched
DESIGNS = {"s": LINEAR_FEATURE, "c": XOR_FEATURE, "[s c]": np.c_[LINEAR_FEATURE, XOR_FEATURE]}
UNSHIFTED = "unshifted"
GLOBAL_SHIFT, GLOBAL_RESCALE, MODEWISE_SHIFT = lexicon.ALTERNATIVES["up to a time shift"]

# ----------------------------------------------------------------------------------------------
# what ran: one declaration for every toy run of both papers (000 App E; 001 gives none)

TOY_COST = ("paper scale (pytest verify --scale=full): lr 2e-4, 25x the ci steps, 10-30 seeds, "
            "and the same run once more per setting the paper does not give (disjoint seeds, "
            "zero bias init, the task's other coding, twice the horizon, float32): measured "
            "3.5-9 min per experiment, 52 min for all eight, on 2 CPU cores under a load average "
            "of 4-10")


def toy_paper(ran, *, cs=(1.0, 0.0), deltas=None, biases="hidden") -> dict:
    """The paper's side of every setting of a toy run (``theory.bias.settings.TOY``).  ``cs``:
    the stated bias strengths (UNKNOWN for a c grid); ``deltas``: the stated margins of a margin
    task (UNKNOWN for a grid)."""
    more = {"biases": ("stated", biases, T.BIASES),
            "bias strengths c": None if cs is UNKNOWN else ("stated", tuple(cs), T.BIAS_STRENGTHS)}
    if "margins Delta" in ran.settings:
        more["margins Delta"] = None if deltas is UNKNOWN else ("stated", tuple(deltas), T.MARGINS)
    return paper_side(T.TOY, **more)


#: where the other value of each open setting comes from (``numerics.bias.configs.variant``)
PLAUSIBLE = ("the paper does not give it (000 App E, 001): the variant takes the other value a "
             "reader of App E could take (disjoint seeds, zero instead of normal bias init, the "
             "task's other coding, twice the horizon, float32 instead of float64, another c or "
             "Delta grid; numerics.bias.configs.variant)")


#: the open settings that are the grid a sentence quantifies over ("small unless c = 0", "only
#: diverge for small values of Delta"): a measurement's statement is its name without the grid
#: points, and the sensitivity rule compares each statement over the grid
GRIDS = {"bias strengths c": "c", "margins Delta": "Delta"}


def _statement(coordinate: str):
    return lambda m: re.sub(rf"\b{coordinate} = [-+0-9.e]+", coordinate, m.name)


def sensitivity(setting: str, base_value, changed_to, evidence, base_ms, pairs):
    """The one sensitivity rule (``verify.sensitivity.unmoved``): ``evidence(*pairs)`` (the runs
    with ``setting`` changed to ``changed_to`` in one of them) gives every decisive measurement
    the outcome the runs themselves give (``base_ms``).  A variant on which the evidence cannot
    be computed at all moves the outcome."""
    try:
        changed = evidence(*pairs)
    except (ValueError, ZeroDivisionError, FloatingPointError, IndexError) as exc:
        return measure(f"{setting} over 2 values: the evidence cannot be computed on the variant",
                       1, "==", 0, source=exact("a deviation is harmless when no decisive outcome "
                                                "moves with it"),
                       details={"values": [str(base_value), str(changed_to)],
                                "error": f"{type(exc).__name__}: {exc}"[:200]})
    return unmoved(setting, {f"run: {base_value}": base_ms, f"variant: {changed_to}": changed},
                   plausible=PLAUSIBLE,
                   statement=_statement(GRIDS[setting]) if setting in GRIDS else None)


def toy_setup(studies, evidence, *, names=("",), **declared):
    """(measurements, Setups) of toy studies: ``evidence(*pairs)`` on their runs, and one Setup
    per study whose sensitivity shows that each of its variants (one unknown setting changed,
    the other studies' runs as they are) moves no decisive outcome.  ``declared``: the paper's
    bias strengths / margins / biases where they differ from the defaults of :func:`toy_paper`."""
    studies = tuple(studies) if isinstance(studies, (list, tuple)) else (studies,)
    base = [s.base for s in studies]
    ms = evidence(*base)
    setups = []
    for i, (study, name) in enumerate(zip(studies, names * len(studies))):
        sens = {s: sensitivity(s, study.base.ran.settings[s], v.ran.settings[s], evidence, ms,
                               base[:i] + [v] + base[i + 1:])
                for s, v in study.variants.items()}
        if "horizon t/tau" in sens:   # the horizon variant runs twice the GD steps too
            sens["GD steps"] = sens["horizon t/tau"]
        setups.append(Setup(study.base.ran, toy_paper(study.base.ran, **declared), cost=TOY_COST,
                            sensitivity=sens, name=name))
    return ms, setups


# ----------------------------------------------------------------------------------------------
# one rule for the alignment words

def alignments(words: str) -> tuple[str, ...]:
    """The alignments an alignment sentence allows, each an alternative of its one decision: the
    three of ``lexicon.ALTERNATIVES['up to a time shift']`` where it names a shift or time
    constants; unshifted where it says 'exactly'; unshifted and up to a global shift where it
    says neither."""
    if re.search(r"shift|time constant", words):
        return lexicon.ALTERNATIVES["up to a time shift"]
    if re.search(r"\bexactly\b|\bbe exact\b", words):
        return (UNSHIFTED,)
    return UNSHIFTED, GLOBAL_SHIFT


def loss_modes(run, k, c: float = 1.0):
    """(strengths (T, K, M), s, d, P) of the modes of the correlations (augmented with ``c``) of
    the map that members ``k`` of ``run`` (a toy run) realise: what a mode-wise shift delays."""
    X = run.X[k[0]] if run.X.ndim == 3 else run.X
    U, s, V, d, _ = modes(*correlations(X, run.Y, c))
    Xa = run.Xa()[k]
    Xa = Xa if V.shape[0] == Xa.shape[1] else Xa[:, 1:]
    return al.map_modes(run.outputs()[:, k], Xa, U, V), s, d, run.P


def aligned_gaps(relu, lin, t, alignment: str, until=None, lin_modes=None):
    """(max_{t <= until} |L_relu - L_lin| per seed after ``alignment``, its size per seed): the
    delay (t/tau), the time-constant ratio minus 1, the mode delays weighted by each mode's drop
    of the loss (s^2 / d: a mode that barely moves the loss shows no delay on the figure), or 0
    unshifted."""
    if alignment == UNSHIFTED:
        return al.max_gap(relu, lin, t, until), np.zeros(relu.shape[1])
    if alignment == GLOBAL_SHIFT:
        return al.best_warp(relu, lin, t, "shift", SHIFTS, until)
    if alignment == GLOBAL_RESCALE:
        gap, kappa = al.best_warp(relu, lin, t, "scale", SCALES, until)
        return gap, kappa - 1
    if alignment == MODEWISE_SHIFT:
        if lin_modes is None:
            raise ValueError("a mode-wise time shift needs the linear network's mode strengths")
        gap, delays = al.best_modewise_shift(relu, lin, *lin_modes, t, SHIFTS, until)
        share = lin_modes[1] ** 2 / lin_modes[2]      # each mode's drop of the loss, s^2 / d
        return gap, delays @ share / share.sum()
    raise ValueError(f"alignment={alignment!r} is not one of {alignments('shift')}")


def aligned(what: str, relu, lin, t, where: str, words: str, phrase: str, *, windows=None,
            lin_modes=None, contrast=None, alignment=None):
    """The alignment words (``phrase`` of the lexicon) decided over every reading: for each
    window (``windows``: name -> last time, None the whole run) and each alignment the words
    allow (:func:`alignments`, or ``alignment``), the seed mean of max_t |L_relu - L_lin| / L0
    with its interval.  ``relu``, ``lin``: losses (T, K) of the K seeds compared (member k of
    each from the same weights); ``contrast``: (relu, lin) of the ablated networks, whose
    unshifted gap is reported beside; identity words take the seed-to-seed spread of the same
    networks as their strict reading."""
    L0 = float(lin[0].mean())
    windows = windows or {"": None}
    kinds = alignment or alignments(words)
    alternatives, sizes = {}, {}
    for wname, until in windows.items():
        for kind in kinds:
            gap, size = aligned_gaps(relu, lin, t, kind, until, lin_modes)
            key = " / ".join(p for p in (wname, kind) if p)
            alternatives[key], sizes[key] = mean_of(gap / L0), float(np.mean(size))
    spread = None
    if lexicon.word(phrase).kind == "identity":
        last = max((u for u in windows.values() if u is not None), default=None)
        last = None if None in windows.values() else last
        spread = float(np.mean(_spread(relu, lin, t, last)) / L0)
    extra = {"alignment size per reading, seed mean": sizes,
             "window ends t/tau": {k: (float(t[-1]) if u is None else float(u))
                                   for k, u in windows.items()}}
    if spread is not None:
        extra["seed-to-seed spread / L0 (pair mean)"] = spread
    con, con_name = None, ""
    if contrast is not None:
        first = next(iter(windows.values()))
        kind = kinds[0] if kinds[0] != MODEWISE_SHIFT or len(contrast) > 2 else UNSHIFTED
        gap, size = aligned_gaps(contrast[0], contrast[1], t, kind, first,
                                 contrast[2] if len(contrast) > 2 else None)
        con = mean_of(gap / L0)
        con_name = f"the same gap without bias terms ({kind})"
        extra["contrast: alignment size, seed mean"] = float(np.mean(size))
    return [lexicon.decide(phrase, f"{what}: max_t |L_relu - L_lin| / L0, seed mean", alternatives,
                           where=where, words=words, spread=spread, contrast=con,
                           contrast_name=con_name, details=extra)]


def time_shift_sentence(what: str, relu, lin, t, where: str, words: str, phrase: str,
                        size_phrase: str, *, horizon: float, lin_modes=None, contrast=None,
                        alignment=None):
    """A sentence that says two loss curves are the same apart from a small shift or slightly
    different time constants (BL Fig 9 L605, BA App B L142, BL Fig 5 L279, BL L181): the gap
    after each alignment it allows (:func:`aligned`) and the size of that alignment, over the
    learning time ``horizon`` (a delay, the largest mode delay) or as the time-constant ratio
    minus 1 (the delay it makes at the horizon, over it), decided by ``size_phrase``."""
    kinds = alignment or lexicon.ALTERNATIVES["up to a time shift"]
    out = aligned(what, relu, lin, t, where, words, phrase, lin_modes=lin_modes,
                  contrast=contrast, alignment=kinds)
    sizes = {}
    for kind in kinds:
        _, size = aligned_gaps(relu, lin, t, kind, None, lin_modes)
        sizes[kind] = mean_of(size if kind == GLOBAL_RESCALE else size / horizon)
    out.append(lexicon.decide(size_phrase, f"{what}: size of the best alignment (delay over the "
                              "learning time; time-constant ratio minus 1), seed mean", sizes,
                              where=where, words=words,
                              details={"learning time t/tau": horizon}))
    return out


def learning_time(lin, k) -> float:
    """The time the linear networks ``k`` take to learn the task: the first time their seed-mean
    loss is within a line width (``lexicon.LINE_WIDTH``) of L0 of its optimum (t/tau); the
    plotted range of the papers' loss figures, whatever the run's horizon."""
    optimum = _landmarks(lin)["linear optimum"]
    L0 = float(lin.loss[0, k].mean())
    curve = lin.loss[:, k].mean(1)
    hit_ = np.flatnonzero(curve - optimum <= lexicon.LINE_WIDTH * L0)
    return float(lin.t[hit_[0]] if hit_.size else lin.t[-1])


def early_windows(lin_loss, t, optimum: float, extra=None) -> dict:
    """The windows 'early training' allows on a loss figure (alternatives of one decision): until
    the linear networks have made half their drop to ``optimum``, and until they are within 5%
    of it (t_lin), seed means; ``extra``: more named windows (e.g. a stated horizon)."""
    curve = np.asarray(lin_loss).mean(1)
    drop = curve[0] - optimum

    def first(level):
        hit_ = np.flatnonzero(curve <= level)
        return float(t[hit_[0]] if hit_.size else t[-1])
    out = {"until the linear network's half drop": first(optimum + 0.5 * drop),
           "until the linear network is within 5% of its optimum (t_lin)":
               first(optimum + 0.05 * abs(optimum) if optimum > 0 else optimum + 0.05 * drop)}
    return {**out, **(extra or {})}


def _spread(relu, lin, t, until=None):
    """The seed-to-seed spread of both networks (losses (T, K)): every pair's max_t gap."""
    return np.concatenate([al.seed_spread(lin, t, until), al.seed_spread(relu, t, until)])


def _window_max(values, t, windows):
    """{window: per-seed max of ``values`` (T, K) over t <= its end}."""
    return {name: np.asarray(values)[t <= (t[-1] if u is None else u)].max(0)
            for name, u in windows.items()}


def _paired(what, smaller, larger, where, words, interpretation=""):
    return direction(what, smaller, larger, paired=True,
                     source=paper(where, words, interpretation=interpretation))


def _index(t, time) -> int:
    return int(np.argmin(np.abs(np.asarray(t) - time)))


def _landmarks(run):
    """The landmark losses of a run's task with bias c = 1 (start, first plateau, optimum)."""
    return al.plateaus(run.X, run.Y, 1.0)


# ----------------------------------------------------------------------------------------------
# the hierarchical task: BL Fig 2B / BA Fig 1B, BL Fig 2E / BA Fig 2B, BL Figs 3, 4, 12, Mech

def tracking(pair, where: str, words: str, diverge_words: str, *, phrase: str,
             closed_form_phrase: str):
    """ReLU with bias tracks the linear network (``phrase``) and the linear closed form (Eq. 7
    with one a0 fitted to the ReLU seed mean, which absorbs a global delay:
    ``closed_form_phrase``); without bias the two diverge (max gap over the run, bias below no
    bias).  The ablated gap is the contrast of both."""
    lin, relu = pair.linear, pair.relu
    t, kb, kn = lin.t, lin.select(1.0), lin.select(0.0)
    L0 = float(lin.loss[0].mean())
    a0, _ = fit_a0(t, relu.loss[:, kb].mean(1), lin.X, lin.Y, 1.0)
    theory = theory_loss(t, lin.X, lin.Y, 1.0, a0)
    spread = _spread(relu.loss[:, kb], lin.loss[:, kb], t) / L0
    contrast = mean_of(al.max_gap(relu.loss[:, kn], lin.loss[:, kn], t) / L0)
    closed = np.abs(relu.loss[:, kb] - theory[:, None]).max(0) / L0
    closed_form = lexicon.decide(
        closed_form_phrase, "ReLU-bias loss vs the linear closed form (Eq. 7 over the augmented "
        "modes, one a0 fitted to the seed mean), max_t error / L0, seed mean", mean_of(closed),
        where=where, words=words, spread=float(spread.mean()), contrast=contrast,
        contrast_name="the ReLU-linear gap without bias terms",
        details={"fitted a0": a0, "seed-to-seed spread / L0 (pair mean)": float(spread.mean())})
    return [*aligned("ReLU with bias vs linear with bias", relu.loss[:, kb], lin.loss[:, kb], t,
                     where, words, phrase, lin_modes=loss_modes(lin, kb),
                     contrast=(relu.loss[:, kn], lin.loss[:, kn])),
            closed_form,
            _paired("max_t |L_relu - L_lin| / L0, with bias below without",
                    al.max_gap(relu.loss[:, kb], lin.loss[:, kb], t) / L0,
                    al.max_gap(relu.loss[:, kn], lin.loss[:, kn], t) / L0, where, diverge_words)]


def rsa_to_linear(pair, where: str, words: str):
    """Time-mean RSA of the ReLU to the linear hidden representations, without bias below with."""
    lin, relu = pair.linear, pair.relu
    kb, kn = lin.select(1.0), lin.select(0.0)
    Hl, Hr = lin.hidden()[1:], relu.hidden()[1:]
    return [_paired("time-mean RSA (Pearson r of item distances) of ReLU to linear hidden "
                    "representations, without bias below with bias",
                    np.nanmean(rsa(Hl[:, kn], Hr[:, kn]), 0),
                    np.nanmean(rsa(Hl[:, kb], Hr[:, kb]), 0), where, words)]


def separation(pair, where: str, words: str):
    """Item separation of the ReLU representations at the first plateau, with bias below without."""
    lin, relu = pair.linear, pair.relu
    kb, kn = lin.select(1.0), lin.select(0.0)
    i1 = int(np.argmax(lin.loss[:, kb].mean(1) <= _landmarks(lin)["first plateau"] * 1.1))
    sep = {}
    for key, k in (("bias", kb), ("none", kn)):
        H = relu.hidden()[i1, k]
        D = distance_matrix(H)
        iu = np.triu_indices(D.shape[-1], 1)
        sep[key] = D[:, iu[0], iu[1]].mean(-1) / np.linalg.norm(H.mean(-1), axis=-1)
    return [_paired("item separation (mean pairwise distance / norm of the mean representation) "
                    "at the first plateau, ReLU with bias below without", sep["bias"],
                    sep["none"], where, words)]


def representations(pair, where: str, words_orderly: str, words_separate: str):
    """Representations: orderly and linear-like with bias, separating from the start without."""
    return rsa_to_linear(pair, where, words_orderly) + separation(pair, where, words_separate)


def unit_masks(pair):
    """(always-on, always-off, gating) masks (T, K_bias, n_hid) of the ReLU members with bias."""
    kb = pair.relu.select(1.0)
    return tuple(mask[:, kb] for mask in unit_states(pair.relu.preactivation()))


def bias_weight_norms(run, kb):
    """(||b||, ||W1||_F) of the hidden layer of members ``kb`` over time, each (T, K)."""
    W = run.W1[:, kb]
    return np.linalg.norm(W[..., 0], axis=-1), np.linalg.norm(W[..., 1:], axis=(-2, -1))


def _early(pair):
    """The windows 'early in training' allows on the hierarchy, for the linear networks with
    bias of ``pair`` (seed mean): until the bias phase ends (the loss leaves the first plateau:
    10% of the way from it to the optimum) and until they are within 5% of their optimum
    (t_lin, as in :func:`early_windows`)."""
    lin = pair.linear
    kb = lin.select(1.0)
    if not np.size(kb):
        raise ValueError("the early windows are read off the linear networks at c = 1, which "
                         "this run does not have")
    marks = _landmarks(lin)
    curve = lin.loss[:, kb].mean(1)
    below = np.flatnonzero(curve <= marks["first plateau"]
                           - 0.1 * (marks["first plateau"] - marks["linear optimum"]))
    t_lin = list(early_windows(lin.loss[:, kb], lin.t, marks["linear optimum"]).values())[-1]
    return {"until the bias phase ends": float(lin.t[below[0]] if below.size else lin.t[-1]),
            "until the linear network is within 5% of its optimum (t_lin)": t_lin}


def mechanism_fig3(pair):
    """BL Fig 3A-D (L175): biases outgrow weights early, biases generally positive and growing
    fastest early, most units always-on early then drifting back, early outputs equal ybar."""
    lin, relu = pair.linear, pair.relu
    t, kb = relu.t, relu.select(1.0)
    on, off, _ = unit_masks(pair)
    i2, i4 = _index(t, 2.0), _index(t, 4.0)
    growth = {}
    for run in (lin, relu):
        b_norm, w_norm = bias_weight_norms(run, kb)
        growth[run.activation] = b_norm[i2] - b_norm[0] - (w_norm[i2] - w_norm[0])
    b = relu.W1[:, kb][..., 0]
    alive = ~off[i4]
    frac_pos = ((b[i4] > 0) & alive).sum(-1) / np.maximum(alive.sum(-1), 1)
    rate = np.abs(np.diff(b, axis=0)).mean(axis=2) / np.diff(t)[:, None]      # (T-1, K)
    horizon = learning_time(lin, kb)
    f_on = on.mean(-1)
    windows = _early(pair)
    ybar = relu.Y.mean(1)
    near = {run.activation: np.linalg.norm(run.outputs()[:, kb] - ybar[None, None, :, None],
                                           axis=2).max(-1) / np.linalg.norm(ybar)
            for run in (lin, relu)}
    words_3a = "In the beginning of training network biases grow faster than weights"
    words_3d = ("The bias-driven network functions of linear and ReLU networks in early training "
                "are equivalent to average output statistics")
    return [*(each(f"3A: growth of ||b|| minus growth of ||W1||_F over the first 2 t/tau, "
                   f"{act}", g, ">", 0, source=paper("L175", words_3a))
              for act, g in growth.items()),
            lexicon.decide("generally", "3B: fraction of non-dead ReLU units with b > 0 at "
                           "4 t/tau, seed mean", mean_of(frac_pos), where="L175",
                           words="Biases are generally positive or around zero"),
            lexicon.decide("early", "3B: time of the peak of |db/dt| over the learning time, "
                           "seed mean", mean_of(t[1:][np.argmax(rate, 0)] / horizon),
                           where="L175", words="grow fastest early in learning",
                           details={"learning time t/tau": horizon}),
            lexicon.decide("most", "3C: the largest always-on fraction in early training, seed "
                           "mean", {w: mean_of(v) for w, v in _window_max(f_on, t, windows)
                                    .items()}, where="L175",
                           words="early in training most units are driven to be always active",
                           details={"window ends t/tau": windows}),
            _paired("3C: final always-on fraction below its peak", f_on[-1], f_on.max(0), "L175",
                    "neurons slowly drift back towards the non-linear regime"),
            *(lexicon.decide("equivalent", f"3D: min_t max_i ||yhat_i - ybar|| / ||ybar|| in "
                             f"early training, {act}, seed mean",
                             {w: mean_of(-v) for w, v in _window_max(-e, t, windows).items()},
                             where="L175", words=words_3d,
                             details={"unit": "fraction of ||ybar|| (the outputs' scale)"})
              for act, e in near.items())]


def gated_predictions(pair):
    """BL Eq. (15): per ReLU member with bias, the index of t* and the linear closed form (Eq. 7)
    started at t* from the gated map W2 G W~1(t*) (NaN before t*)."""
    relu = pair.relu
    on = unit_masks(pair)[0]
    idx = linearisation_time(relu.t, on.mean(-1))
    return idx, [gated_linear_loss(relu.t, relu.t[i], relu.W1[i, k], relu.W2[i, k], on[i, j],
                                   relu.X, relu.Y, 1.0)[0]
                 for j, (i, k) in enumerate(zip(idx, relu.select(1.0)))]


def gated_linear(pair):
    """BL Eq. (15) (L266, "match (almost) exactly") / Fig 4 (L260, "excellent agreement"): the
    linear closed form from a(t*) = diag(U^T W2 G W~1(t*) V) against the ReLU loss for
    t >= t*, per seed over L0; "exactly" takes the ReLU seed-to-seed spread after t* as its
    strict reading."""
    relu = pair.relu
    t, kb = relu.t, relu.select(1.0)
    L0 = float(relu.loss[0].mean())
    idx, preds = gated_predictions(pair)
    errs = mean_of([np.nanmax(np.abs(pred - relu.loss[:, k])) / L0 for pred, k in zip(preds, kb)])
    after = t >= np.median(t[idx])
    spread = float((al.seed_spread(relu.loss[after][:, kb], t[after]) / L0).mean())
    what = "Eq. (7) from a(t*) of the gated map vs the ReLU loss for t >= t*, max_t error / L0"
    return [lexicon.decide("exactly", what, errs, where="L266", words="match (almost) exactly",
                           spread=spread,
                           details={"seed-to-seed spread / L0 after t* (pair mean)": spread}),
            lexicon.decide("excellent agreement", what, errs, where="L260",
                           words="We see excellent agreement with numerical simulations"),
            measure("t* per seed (t/tau)", t[idx], ">", 0, source=reading(
                "t* lies after the start (BL-Def-tstar)"))]


def kinks_fig12(pair):
    """BL Fig 12 (L630): the vast majority of kinks turn negative early: the largest share of
    non-dead units with a negative kink in each window 'early' allows; the median kink at
    4 t/tau negative, every seed."""
    relu = pair.relu
    t, kb = relu.t, relu.select(1.0)
    k = kinks(relu.W1[:, kb], 1.0)
    off = unit_masks(pair)[1]
    i4 = _index(t, 4.0)
    alive = ~off
    frac = ((k < 0) & alive).sum(-1) / np.maximum(alive.sum(-1), 1)        # (T, K)
    windows = _early(pair)
    words = "The vast majority of kink values rapidly grow negative early in learning"
    return [each("median kink k_j = -c b_j / ||w_j|| at 4 t/tau", np.median(k[i4], -1), "<", 0,
                 source=paper("L630", words)),
            lexicon.decide("vast majority", "largest fraction of non-dead units with a negative "
                           "kink in early training, seed mean",
                           {w: mean_of(v) for w, v in _window_max(frac, t, windows).items()},
                           where="L630", words=words, details={"window ends t/tau": windows})]


def mechanism(pair):
    """BL §5 (L181): (i) the bias mode is learned first; (ii) this growth pushes most ReLU units
    into the linear regime; (iii) beyond that time learning dynamics are transiently linear, a
    small mode-wise time shift being the key difference from a linear net: the gap after the
    best mode-wise shift (:func:`time_shift_sentence`) and the size of that shift, with the
    networks without bias measured beside (their gap after their own best mode-wise shift)."""
    lin, relu = pair.linear, pair.relu
    t, kb, kn = relu.t, relu.select(1.0), relu.select(0.0)
    U, s, V, d, _ = modes(*correlations(relu.X, relu.Y, 1.0))
    strengths = al.map_modes(relu.outputs()[:, kb], relu.Xa()[kb], U, V)
    half = al.half_rise_times(strengths, t, s / d)                    # (K, modes)
    on, off, _ = unit_masks(pair)
    words = ("(iii) beyond that time learning dynamics are transiently linear. We find that a "
             "key difference from a linear net is a small, mode-wise time shift")
    return [each("(i) half-rise time of the bias mode minus the earliest half-rise of another mode "
                 "of the ReLU map (t/tau)", half[:, 0] - half[:, 1:].min(1), "<", 0,
                 source=paper("L181", "the hidden bias induces a leading “bias mode” that is "
                                      "learned first")),
            lexicon.decide("most", "(ii) max_t always-on fraction, seed mean",
                           mean_of(on.mean(-1).max(0)), where="L181",
                           words="this growth pushes most ReLU units into the linear regime"),
            measure("(ii) final dead fraction, seed mean", float(off[-1].mean()), "<", 0.2,
                    source=reading("'small subset' as under a fifth (1/(P+1) = 0.2 are dead at "
                                   "init on the 4-item task)", "L243",
                                   "a small subset of neurons that become dead neurons")),
            *time_shift_sentence("(iii) ReLU with bias vs linear with bias", relu.loss[:, kb],
                                 lin.loss[:, kb], t, "L181", words, "transiently linear",
                                 "small shift", horizon=learning_time(lin, kb),
                                 lin_modes=loss_modes(lin, kb), alignment=(MODEWISE_SHIFT,),
                                 contrast=(relu.loss[:, kn], lin.loss[:, kn],
                                           loss_modes(lin, kn, 0.0)))]


# ----------------------------------------------------------------------------------------------
# XOR: BL Fig 2D / BA Fig 1D; biases in both layers: BL Fig 9 / BA App B

def _xor_windows(lin):
    """The windows 'early training' allows on a task the linear network cannot solve: until
    its half drop and until it is within 5% of its optimum (t_lin), with bias."""
    kb = lin.select(1.0)
    return early_windows(lin.loss[:, kb], lin.t, _landmarks(lin)["linear optimum"])


def transient(pair, where: str, words_match: str, words_break: str, *, phrase: str):
    """Non-linear task: with bias, ReLU and linear matched in early training (``phrase``, over
    the windows 'early' allows); without bias the correspondence breaks down: both readings of
    'breaks down' are measured (over the early window t <= t_lin and over the whole run)."""
    lin, relu = pair.linear, pair.relu
    t, kb, kn = lin.t, lin.select(1.0), lin.select(0.0)
    L0 = float(lin.loss[0].mean())
    out = early_transient(pair, where, words_match, phrase=phrase)
    t_lin = list(_xor_windows(lin).values())[-1]
    for interpretation, window in (("in the early window t <= t_lin", t_lin),
                                   ("over the whole run", None)):
        out.append(_paired(f"max|L_relu - L_lin| / L0 {interpretation}, with bias below without",
                           al.max_gap(relu.loss[:, kb], lin.loss[:, kb], t, window) / L0,
                           al.max_gap(relu.loss[:, kn], lin.loss[:, kn], t, window) / L0, where,
                           words_break, interpretation=interpretation))
    return out


def early_transient(pair, where: str, words: str, *, phrase: str,
                    what="early ReLU with bias vs linear with bias"):
    """'Aligned / matched in early training' on a non-linear task (``phrase``): over each
    window 'early' allows (:func:`early_windows`), the ablated networks beside."""
    lin, relu = pair.linear, pair.relu
    kb, kn = lin.select(1.0), lin.select(0.0)
    contrast = (relu.loss[:, kn], lin.loss[:, kn]) if kn.size > 1 else None
    return aligned(what, relu.loss[:, kb], lin.loss[:, kb], lin.t, where, words, phrase,
                   windows=_xor_windows(lin), lin_modes=loss_modes(lin, kb), contrast=contrast)


def both_layers(hierarchy, xor, *, where: str, words: str, phrase: str, size_phrase: str,
                xor_where: str):
    """Biases in both layers (BL Fig 9 L605, BA App B / Fig 5 L142, one rule): on the hierarchy
    the dynamics are preserved up to a small time shift (000) or 'under slightly different time
    constants' (001): :func:`time_shift_sentence`, the three alignments as alternatives of the
    one decision (global shift, global rescale, mode-wise shift); on XOR early dynamics are
    aligned (:func:`early_transient`)."""
    lin, relu = hierarchy.linear, hierarchy.relu
    t, kb = lin.t, lin.select(1.0)
    L0 = float(lin.loss[0].mean())
    g_shift, _ = al.best_warp(relu.loss[:, kb], lin.loss[:, kb], t, "shift", SHIFTS)
    g_scale, _ = al.best_warp(relu.loss[:, kb], lin.loss[:, kb], t, "scale", SCALES)
    return [*time_shift_sentence("A, hierarchy: ReLU vs linear", relu.loss[:, kb],
                                 lin.loss[:, kb], t, where, words, phrase, size_phrase,
                                 horizon=learning_time(lin, kb), lin_modes=loss_modes(lin, kb)),
            direction("A, hierarchy: max_t gap / L0 after the best global time rescale, below "
                      "after the best global shift (which alignment fits better)", g_scale / L0,
                      g_shift / L0, paired=True,
                      source=reading("which of the alignments fits better describes the run; "
                                     "the words allow each", where, words)),
            *early_transient(xor, xor_where, "Early dynamics are also aligned on the non-linear "
                             "problem", phrase="aligned", what="B, XOR: early ReLU vs linear")]


# ----------------------------------------------------------------------------------------------
# XOR plus a linear feature: BL Figs 5 and 11

def xor_reliance(run, k, c):
    """How much the trained networks use the XOR structure: with x3 = 0 (no linear evidence),
    the mean class-A output on the class-A corners minus that on the class-B corners; 0 for any
    linear network, 1 for a pure XOR solution."""
    corners = run.X[k[0], :2]
    Xa = np.vstack([np.full((1, 4), c), corners, np.zeros((1, 4))])
    H = run.W1[-1, k] @ Xa
    H = np.maximum(H, 0) if run.activation == "relu" else H
    out = run.W2[-1, k] @ H
    return out[..., 0, :2].mean(-1) - out[..., 0, 2:].mean(-1)


def margin_members(pair, delta, c):
    """The members of a margin task with margin ``delta`` and bias strength ``c``."""
    return np.flatnonzero(np.isclose(pair.delta, delta) & np.isclose(pair.relu.c, c))


def shifted_gap(pair, k):
    """max_t |L_relu - L_lin| / L0 of members ``k`` after the best global time shift."""
    lin = pair.linear
    L0 = float(lin.loss[0, k].mean())
    return al.best_warp(pair.relu.loss[:, k], lin.loss[:, k], lin.t, "shift", SHIFTS)[0] / L0


def margin_fig5(pair):
    """BL Fig 5 (L279, Delta = 0.5): bias-ReLU losses closely resemble linear ones with a small
    time shift (:func:`time_shift_sentence`); bias nudges the ReLU network to the linear solution
    (less XOR reliance than without)."""
    lin, relu = pair.linear, pair.relu
    kb, kn = margin_members(pair, 0.5, 1.0), margin_members(pair, 0.5, 0.0)
    return [*time_shift_sentence("Delta = 0.5: ReLU with bias vs linear with bias",
                                 relu.loss[:, kb], lin.loss[:, kb], lin.t, "L279",
                                 "loss curves for ReLU networks with bias terms closely resemble "
                                 "linear networks with a small time-shift", "closely resemble",
                                 "small shift", horizon=learning_time(lin, kb),
                                 lin_modes=loss_modes(lin, kb),
                                 contrast=(relu.loss[:, kn], lin.loss[:, kn])),
            _paired("Delta = 0.5: XOR reliance of the trained ReLU network, with bias below "
                    "without", xor_reliance(relu, kb, 1.0), xor_reliance(relu, kn, 0.0), "L279",
                    "our results reveal that bias terms nudge ReLU networks towards linear "
                    "solutions")]


def margin_fig11(pair):
    """BL Fig 11: ReLU and linear (both with bias) diverge only for small Delta, are preserved
    during the bias phase for every Delta ("preserve", the whole phase), and bias robustly
    prefers the linear solution."""
    lin, relu = pair.linear, pair.relu
    t = lin.t
    grid = sorted(set(pair.delta.tolist()))
    gap, early, out = {}, [], []
    for d in grid:
        kb, kn = margin_members(pair, d, 1.0), margin_members(pair, d, 0.0)
        gap[d] = shifted_gap(pair, kb)
        bias_phase = float(al.first_time(lin.loss[:, kb], t,
                                         1.1 * _landmarks(lin)["first plateau"]).max())
        early += aligned(f"Delta = {d}: ReLU vs linear during the bias phase", relu.loss[:, kb],
                         lin.loss[:, kb], t, "L618", "Even for very small offsets the dynamics "
                         "are preserved during the initial bias learning phase", "preserve",
                         windows={lexicon.ALTERNATIVES["during"][0]: bias_phase},
                         contrast=(relu.loss[:, kn], lin.loss[:, kn]))
        out.append(_paired(f"Delta = {d}: XOR reliance, with bias below without",
                           xor_reliance(relu, kb, 1.0), xor_reliance(relu, kn, 0.0), "L623",
                           "bias terms robustly push models towards a preference for linear "
                           "task solutions"))
    return [_paired(f"ReLU-linear gap / L0 after the best shift, Delta = {grid[-1]} below Delta = "
                    f"{grid[0]}", gap[grid[-1]], gap[grid[0]], "L623", "dynamics of linear "
                    "and ReLU network with bias terms only diverge for small values of"),
            *early, *out]


# ----------------------------------------------------------------------------------------------
# the bias-strength sweep: BL Fig 10

def _rise_ratio(rise_c, rise_0, resolution):
    """Seed-mean rise with bias over that without (paired seeds), the latter at least one unit's
    share ``resolution`` (a rise below one unit cannot be told from none)."""
    return float(np.mean(rise_c) / max(float(np.mean(rise_0)), resolution))


def c_sweep(pair):
    """BL Fig 10 (L614): for every c > 0, against c = 0 (same seeds): the always-on fraction
    "shoots up early" (its rise over each early window, over the rise at c = 0: the growth
    word); gating "is small unless c = 0" (the gating fraction after the bias phase, at init it
    is the same for every c, and at the run's end, c = 0 beside); only c = 0 "significantly diverges" (a smaller ReLU-linear gap than c = 0)."""
    lin, relu = pair.linear, pair.relu
    on, _, gate = (m.mean(-1) for m in unit_states(relu.preactivation()))
    t = relu.t
    k0 = relu.select(0.0)
    L0 = float(lin.loss[0].mean())
    windows = _early(pair)
    one_unit = 1 / relu.W1.shape[-2]
    rise0 = {w: v - on[0, k0] for w, v in _window_max(on[:, k0], t, windows).items()}
    after = t >= next(iter(windows.values()))     # gating at init is the same for every c
    gate_of = {"after the bias phase (its largest value)": gate[after].max(0),
               "at the last record": gate[-1]}
    gap0 = al.max_gap(relu.loss[:, k0], lin.loss[:, k0], t) / L0
    words_up = ("the fraction of neural network units that perform effectively linear shoots up "
                "early in training whenever $c > 0$")
    words_gate = "the number of neurons which perform gating is small unless $c = 0$"
    out = []
    for c in sorted(set(relu.c.tolist()) - {0.0}):
        k = relu.select(c)
        rise = {w: v - on[0, k] for w, v in _window_max(on[:, k], t, windows).items()}
        out += [lexicon.decide(
                    "shoots up", f"c = {c}: rise of the always-on fraction in early training over "
                    "its rise at c = 0 (seed means, paired seeds)",
                    {w: estimate(lambda a, b: _rise_ratio(a, b, one_unit), rise[w], rise0[w])
                     for w in windows}, where="L614", words=words_up,
                    details={"rise at c, seed mean": {w: float(v.mean()) for w, v in rise.items()},
                             "rise at c = 0, seed mean": {w: float(v.mean())
                                                          for w, v in rise0.items()},
                             "one unit's share": one_unit, "window ends t/tau": windows}),
                lexicon.decide("small", f"c = {c}: fraction of units that gate, seed mean",
                               {w: mean_of(v[k]) for w, v in gate_of.items()}, where="L614",
                               words=words_gate, contrast=mean_of(gate[after][:, k0].max(0)),
                               contrast_name="c = 0, its largest value after the bias phase"),
                _paired(f"c = {c}: max_t |L_relu - L_lin| / L0, c below c = 0",
                        al.max_gap(relu.loss[:, k], lin.loss[:, k], t) / L0, gap0,
                        "L614", "only networks with no bias term significantly diverge from "
                                "linear dynamics")]
    return out


# ----------------------------------------------------------------------------------------------
# the parallel task: BL Fig 6 / BA Figs 3B, 3C

def parallel_summary(pair):
    """Per condition ('bias', 'no bias'): final effective rank of H^T H, centred R^2 per design,
    time near the linear-task line, final loss and the per-task losses (T, K)."""
    relu = pair.relu
    line = _landmarks(relu)["linear optimum"]
    out = {}
    for c, name in ((1.0, "bias"), (0.0, "no bias")):
        k = relu.select(c)
        H = relu.hidden()[-1, k]
        err = (relu.Y[None, None] - relu.outputs()[:, k]) ** 2
        out[name] = dict(
            k=k, rank=np.array([effective_rank(h.T @ h) for h in H]),
            r2={d: variance_explained(H, f) for d, f in DESIGNS.items()},
            dwell=al.dwell_time(relu.loss[:, k], relu.t, line, 0.1), final=relu.loss[-1, k],
            lin_task=0.5 * err[:, :, :2].sum((-2, -1)), xor_task=0.5 * err[:, :, 2:].sum((-2, -1)))
    return out


def linear_first(pair, where: str, words: str):
    """'Initially only acquire the linear problem': the share of the XOR task (beyond the bias
    mode) the bias-ReLU network has learned by the time it has learned the linear task, read
    when the linear task is half learned and when it is 90% learned (alternatives), decided by
    the smallness word."""
    out = parallel_summary(pair)["bias"]
    Y = pair.relu.Y
    # each task's loss with its outputs at their means: what is left after the bias mode
    lin_plateau, xor_plateau = (0.5 * float(np.sum((Y[rows] - Y[rows].mean(1, keepdims=True))
                                                   ** 2)) for rows in (slice(0, 2), slice(2, 4)))
    learned = {}
    for name, left in (("when the linear task is half learned", 0.5),
                       ("when the linear task is 90% learned", 0.1)):
        i = np.argmax(out["lin_task"] <= left * lin_plateau, axis=0)
        learned[name] = mean_of(1 - out["xor_task"][i, np.arange(len(i))] / xor_plateau)
    return [lexicon.decide("initially only", "share of the XOR task learned (beyond the bias "
                           "mode) by the time the linear task is learned, seed mean", learned,
                           where=where, words=words)]


def saddle(pair, where: str, words: str):
    """The saddle at the linear-task line is longer with bias (time within 10% of the line)."""
    s = parallel_summary(pair)
    return [_paired("time within 10% of the linear-task line, without bias below with bias",
                    s["no bias"]["dwell"], s["bias"]["dwell"], where, words)]


def simple_features(pair, where: str, words: str):
    """R2(s), the linear (simple) task's share of the final representations, higher with bias."""
    s = parallel_summary(pair)
    return [_paired("R2(s), without bias below with bias", s["no bias"]["r2"]["s"],
                    s["bias"]["r2"]["s"], where, words)]


def variance_explained_r2(pair, where: str, zero_loss_words: str, stronger: str, less: str):
    """App D's R^2 statements (BL L285, BA L72; ``stronger``, ``less``: each paper's words) and
    the zero final loss."""
    s = parallel_summary(pair)
    b, n = s["bias"], s["no bias"]
    L0 = float(pair.relu.loss[0].mean())
    both = "both models represent linear features more prominently than non-linear features"
    return [*simple_features(pair, where, stronger),
            *(_paired(f"R2(c) below R2(s), {key}", o["r2"]["c"], o["r2"]["s"], where, both)
              for key, o in (("bias", b), ("no bias", n))),
            _paired("R2([s c]), without bias below with bias", n["r2"]["[s c]"], b["r2"]["[s c]"],
                    where, less),
            *(lexicon.decide("zero loss", f"final loss / L0, {key}, seed mean",
                             mean_of(o["final"] / L0), where=where, words=zero_loss_words)
              for key, o in (("with bias", b), ("without bias", n)))]


def low_rank(pair):
    s = parallel_summary(pair)
    return [_paired("effective rank of H^T H of the final ReLU representations, with bias below "
                    "without", s["bias"]["rank"], s["no bias"]["rank"], "L285",
                    "bias-ReLU networks have a strong low-rank bias")]


def cka(pair):
    """BA Fig 2A: linear CKA of linear and ReLU hidden representations, higher with bias."""
    lin, relu = pair.linear, pair.relu
    value = {c: linear_cka(lin.hidden()[1:, lin.select(c)], relu.hidden()[1:, lin.select(c)])
             for c in (1.0, 0.0)}
    words = "Alignment is high when networks have bias terms"
    return [_paired("time-mean linear CKA, without bias below with bias", value[0.0].mean(0),
                    value[1.0].mean(0), "001 L53, L61", words),
            _paired("time-min linear CKA, without bias below with bias", value[0.0].min(0),
                    value[1.0].min(0), "001 L53, L61", words)]


# ----------------------------------------------------------------------------------------------
# the long paper's sentences (BL), bound to the rules above

def fig2_hierarchy(pair):
    return tracking(pair, "L168", "ReLU networks with bias terms closely track the dynamics of "
                    "their linear counterparts, so much so that exact solutions developed for "
                    "linear networks provide an almost perfect match (although with a slight time "
                    "shift)", "when removing bias terms the connection breaks down and dynamics "
                    "between linear and non-linear models diverge", phrase="closely tracks",
                    closed_form_phrase="almost perfect match")


def fig2_representations(pair):
    return (rsa_to_linear(pair, "L170", "Hidden representations evolve in an orderly fashion in "
                          "bias-ReLU networks that show excellent agreement with linear models")
            + separation(pair, "L177", "with the representations for the different input classes "
                         "separating almost from the very beginning of learning"))


def fig2_xor(pair):
    return transient(pair, "L168", "even for non-linear problems bias-ReLU and bias-linear network "
                     "dynamics are matched in early training", "As before, the correspondence "
                     "breaks down when bias terms are ablated", phrase="matched")


def fig6(pair):
    return (early_transient(pair, "L283", "bias-ReLU networks are aligned to linear networks in "
                            "early training", phrase="aligned")
            + linear_first(pair, "L283", "initially only acquire the linear problem")
            + saddle(pair, "L283", "ReLU networks without bias also appear to learn slower after "
                     "learning the linear task. However, the saddle point is substantially less "
                     "pronounced")
            + low_rank(pair)
            + variance_explained_r2(pair, "L285", "despite zero loss on both tasks",
                                    "ReLU networks with bias terms encode the linear task more "
                                    "strongly than their bias-free counterparts",
                                    "For bias-free ReLU we also find that less overall "
                                    "representational variance is explained"))


def fig9(hierarchy, xor):
    return both_layers(hierarchy, xor, where="L605", words="Dynamics of linear and ReLU networks "
                       "are preserved with the exception of a small time shift",
                       phrase="preserve", size_phrase="small shift", xor_where="L605")


# ----------------------------------------------------------------------------------------------
# definitions the runs illustrate (BL-Def-Dead, -tstar, -Kink, -G, -R2)

def dead_units(pair):
    """BL-Def-Dead: units dead at init keep their weights bit for bit and stay dead; their
    fraction at c = 1 is E[Phi(-u)^P] = 1/(P+1) within three binomial standard errors."""
    relu = pair.relu
    off = unit_states(relu.preactivation())[1]
    dead0 = off[0]
    W2_columns = np.swapaxes(relu.W2, -1, -2)
    frozen = bool(np.all(relu.W1[:, dead0] == relu.W1[:1, dead0])
                  and np.all(W2_columns[:, dead0] == W2_columns[:1, dead0]))
    kb = relu.select(1.0)
    n, expect = dead0[kb].size, dead_at_init_probability(1.0, relu.P)
    se = np.sqrt(expect * (1 - expect) / n)
    return [measure(f"units dead at init ({int(dead0.sum())} of {dead0.size}) keep bitwise-"
                    "identical W~1 rows and W2 columns at every record", frozen, "==", True,
                    source=exact("bitwise comparison")),
            measure("units dead at init stay dead at every record", bool(np.all(off[:, dead0])),
                    "==", True, source=exact("sign of the pre-activations")),
            measure(f"dead-at-init fraction (c = 1) minus E[Phi(-u)^P] = 1/(P+1), in binomial SE "
                    f"over {n} units", abs(dead0[kb].mean() - expect) / se, "<=", 3,
                    source=reading("three binomial standard errors"))]


def t_star(pair):
    """BL-Def-tstar: t* is the first maximum of the always-on fraction, after the start."""
    relu = pair.relu
    t = relu.t
    f_on = unit_masks(pair)[0].mean(-1)
    idx = linearisation_time(t, f_on)
    seeds = np.arange(f_on.shape[1])
    first = all(f_on[idx[j], j] == f_on[:, j].max() and np.all(f_on[:idx[j], j] < f_on[idx[j], j])
                for j in seeds)
    return [measure("f_on(t*) = max_t f_on and f_on < f_on(t*) before t*, every seed", first,
                    "==", True, source=exact("comparison on the recorded grid")),
            measure("min over seeds of f_on(t*) - max over seeds of f_on(0)",
                    float(f_on[idx, seeds].min() - f_on[0].max()), ">", 0,
                    source=exact("the maximum lies after the start")),
            measure("t* per seed (t/tau), on records every 1/5 t/tau", t[idx], ">", 0,
                    source=reading("the definition depends on the logging interval"))]


def r2_split(pair):
    """BL-Def-R2 under the centred reading: R2([s c]) = R2(s) + R2(c) on the trained
    representations, every R2 in [0, 1]; uncentred the identity fails (recorded)."""
    relu = pair.relu
    H = [relu.hidden()[-1, relu.select(c)] for c in (1.0, 0.0)]

    def r2_of(centre):
        """R2 per design, with bias and without."""
        return [{d: variance_explained(h, f, centre=centre) for d, f in DESIGNS.items()} for h in H]

    def split_gap(r2s):
        return max(float(np.abs(r["[s c]"] - r["s"] - r["c"]).max()) for r in r2s)
    r2, r2_raw = r2_of(True), r2_of(False)
    inside = all(np.all((v >= -1e-12) & (v <= 1 + 1e-12)) for r in r2 for v in r.values())
    return [measure("centred R2([s c]) - R2(s) - R2(c) on the trained representations, max",
                    split_gap(r2), "<=", 1e-10,
                    source=reading("least squares on 4 x 2 designs in float64")),
            measure("every centred R2 in [0, 1] (to 1e-12)", bool(inside), "==", True,
                    source=exact("comparison")),
            measure("uncentred R2([s c]) - R2(s) - R2(c), max (the reading matters)",
                    split_gap(r2_raw), ">", 1e-3,
                    source=reading("the identity is a property of the centred reading"))]


def task_definition(pair, *, samples: int, labels_per_class=None, solvable: bool):
    """A reconstructed task against the paper's description: the data drawn (samples, distinct
    inputs, inputs with conflicting labels, class balance) and whether a linear network with
    bias reaches zero loss (``solvable``) or only the linear optimum."""
    lin = pair.linear
    facts = data_facts(lin.X if lin.X.ndim == 2 else lin.X[0], lin.Y)
    optimum = _landmarks(lin)["linear optimum"]
    target = 0.0 if solvable else optimum
    out = [measure("samples / distinct inputs", [facts["samples"], facts["distinct inputs"]],
                   "==", samples, source=exact("count of the columns of X")),
           measure("inputs carrying more than one label", facts["label conflicts"], "==", 0,
                   source=exact("count")),
           measure("linear optimum with bias (1/2-sum)", optimum, "<=" if solvable else ">", 1e-9,
                   source=exact("least squares of Y on [c; X]")),
           measure("final loss of linear networks with bias minus that optimum, worst seed",
                   float(np.abs(lin.loss[-1, lin.select(1.0)] - target).max()), "<", 1e-3,
                   source=reading("the run reaches the optimum"))]
    if labels_per_class is not None:
        out.append(measure("samples per label vector (class balance)",
                           facts["samples per label"], "==", labels_per_class,
                           source=exact("count")))
    return out


# ----------------------------------------------------------------------------------------------
# image tasks: BL Figs 1, 7, 8; BA-T6, T7 (``numerics.bias.image_experiments``)

EARLY = 15.0     # t/tau: "early training" on images (a reading: the papers give no number)
BIAS_PIXEL = 10.0
IMAGE_COST = ("the whole MNIST training set (50,000 images, not bundled: $CLAIMS_DATA_DIR) at App "
              "E L650: 2 activations x 10 members x ~20 epochs x 782 SGD steps of batch 64, "
              "hidden 512 (~5e13 FLOP): ~5 min on one H100, ~1 h on 2 CPU cores")


def image_paper(ran, *, stopping: bool = True, linear_width=None) -> dict:
    """The paper's side of an image run (``theory.bias.settings.IMAGE``): ``stopping``: the
    0.025 stopping rule (stated for Fig 1 only); ``linear_width``: the linear hidden width the
    paper names (001 L74: half the ReLU width), else UNKNOWN."""
    more = {"preprocessing": ("stated", ran["preprocessing"], T.PREPROCESSING)}
    if not stopping:
        more["stopping"] = None
    if "linear hidden width" in ran.settings:
        more["linear hidden width"] = (None if linear_width is None
                                       else ("stated", linear_width, T.LINEAR_WIDTH))
    side = paper_side(T.IMAGE, **more)
    return {k: side.get(k, UNKNOWN) for k in ran.settings}


def image_setup(pair, name="", **declared) -> Setup:
    return Setup(pair.ran, image_paper(pair.ran, **declared), cost=IMAGE_COST, name=name)


def image_curves(pair, c):
    """(ReLU, linear) losses of the members with bias pixel c (10) or none (0) on the records
    both runs have (an SGD run may stop at another epoch), and those records' t/tau."""
    n = min(len(pair.linear.t), len(pair.relu.t))
    k = np.flatnonzero(pair.relu.c == c)
    return pair.relu.loss[:n, k], pair.linear.loss[:n, k], pair.relu.t[:n]


def image_gaps(pair, c, until=EARLY):
    """max_{t <= until} |L_relu - L_lin| / L(0) per seed, bias pixel c (10) or none (0)."""
    relu, lin, t = image_curves(pair, c)
    return al.max_gap(relu, lin, t, until) / lin[0]


def image_windows(pair, c=BIAS_PIXEL) -> dict:
    """The windows 'early training' allows on an image loss figure: the first 15 t/tau (the ci
    horizon; the papers give no number) and until the linear networks' half drop."""
    _, lin, t = image_curves(pair, c)
    curve = lin.mean(1)
    half = np.flatnonzero(curve <= curve[-1] + 0.5 * (curve[0] - curve[-1]))
    return {f"t <= {EARLY:g} t/tau": EARLY,
            "until the linear network's half drop": float(t[half[0]] if half.size else t[-1])}


def image_alignment(pair, where: str, words_align: str, words_diverge: str, *,
                    phrase: str = "closely aligned"):
    """Early alignment with the bias pixel (``phrase``, over the windows 'early' allows, the
    ablated networks beside), and faster divergence without."""
    windows = image_windows(pair)
    return [*aligned("early ReLU vs linear with the bias pixel", *image_curves(pair, BIAS_PIXEL),
                     where, words_align, phrase, windows=windows,
                     contrast=image_curves(pair, 0.0)[:2]),
            _paired(f"early max_t |L_relu - L_lin| / L0 (t <= {EARLY:g} t/tau), with bias below "
                    "without", image_gaps(pair, BIAS_PIXEL), image_gaps(pair, 0.0), where,
                    words_diverge)]


def fig1(pair):
    """BL Fig 1A-C: early alignment with bias; lower effective rank of H^T H and lower test error
    with bias, both read at a training loss every run reaches (App E stops at 0.025)."""
    relu = pair.relu
    stop = float((relu.loss[-1] / relu.n_train).max())
    idx = relu.at_stop(stop)
    cols = np.arange(len(relu.c))
    rank, err = relu.gram_rank[idx, cols], relu.test_error[idx, cols]
    b, n = relu.c == BIAS_PIXEL, relu.c == 0.0
    return [*image_alignment(pair, "L96", "We find that loss curves of ReLU networks "
                             "with bias terms are closely aligned to those of linear networks in "
                             "early training", "In contrast, loss curves of diverge quickly when "
                             "bias terms are ablated"),
            _paired(f"1B: effective rank of H^T H on the test images at the per-sample training "
                    f"loss {stop:.3g}, with bias below without", rank[b], rank[n], "Fig 1B L80",
                    "ReLU networks with bias and early linear phase have substantially lower "
                    "dimensional representations"),
            _paired(f"1C: test error at the per-sample training loss {stop:.3g}, with bias below "
                    "without", err[b], err[n], "Fig 1C L80", "ReLU networks with an early linear "
                    "phase have lower test error")]


def fig7(standard, pixel):
    """BL Fig 7 (App C.1): under scalar standardisation linear and ReLU align early with and
    without bias; the bias pixel matters less than under pixel-wise mean subtraction."""
    words = ("With standard preprocessing early learning dynamics of linear and ReLU networks "
             "align independently of the inclusion of bias terms")
    ratio = {name: image_gaps(p, 0.0) / image_gaps(p, BIAS_PIXEL)
             for name, p in (("standard", standard), ("pixel", pixel))}
    return [*(m for c, label in ((0.0, "without"), (BIAS_PIXEL, "with"))
              for m in aligned(f"standardised, early ReLU vs linear {label} the bias pixel",
                               *image_curves(standard, c), "Fig 7 L589", words, "aligned",
                               windows=image_windows(standard, c))),
            _paired("no-bias / bias early gap ratio, standardised below pixel-wise mean "
                    "subtraction", ratio["standard"], ratio["pixel"], "L584", "bias terms "
                    "do not play a fundamental role and both types of networks display similar "
                    "early dynamics")]


def half_width(pairs, n_hid: int):
    """BA-T7: the ReLU network (width ``n_hid``) matches a linear network of half its width
    exactly, and better than one of its own width or of a quarter; ``pairs``: linear width ->
    ImagePair with the ReLU network of width ``n_hid``."""
    gaps = {w: image_gaps(pair, BIAS_PIXEL, until=None) for w, pair in pairs.items()}
    half = n_hid // 2
    words = ("we observed the match between linear and ReLU networks to only be exact when hidden "
             "layer size of linear networks were reduced to be half the size of corresponding "
             "ReLU networks")
    return [*aligned(f"ReLU (width {n_hid}) vs linear of width {half}",
                     *image_curves(pairs[half], BIAS_PIXEL), "001 L74", words, "exactly"),
            *(_paired(f"max_t |L_relu - L_lin| / L0 with the bias pixel, linear width {half} below "
                      f"width {w}", gaps[half], gaps[w], "001 L74", words)
              for w in sorted(pairs) if w != half)]


def fig8(runs):
    """BL Fig 8 (CIFAR-10): bias drives early alignment under either preprocessing."""
    return (image_alignment(runs["pixel"], "Fig 8A L596", "With pixel-wise mean subtraction, loss "
                            "curves of linear and linear networks are closely aligned in early "
                            "training when models have bias terms", "bias terms or input "
                            "constants drive alignment")
            + image_alignment(runs["standard"], "Fig 8B L596", "With standard preprocessing, "
                              "biases also drive early alignment on CIFAR 10", "biases also drive "
                              "early alignment", phrase="aligned"))


def preprocessing(data):
    """BL-Def-Prep on the MNIST images actually used, ``(Xtr, ytr, Xte, yte, text)`` before
    preprocessing: pixel-wise mean subtraction leaves no input constant; scalar standardisation
    maps the always-blank pixels to one constant -mu/sd on every image (an implicit bias)."""
    Xtr, _, Xte, _, _ = data
    blank = np.all(Xtr == 0, axis=1) & np.all(Xte == 0, axis=1)
    px_tr, _ = preprocess(Xtr, Xte, "pixel")
    st_tr, _ = preprocess(Xtr, Xte, "standard")
    expect = -Xtr.mean() / Xtr.std()
    float_sum = reading("means of hundreds of numbers in [0, 1] in float64")
    return [measure("always-blank pixels in the images used", int(blank.sum()), ">", 0,
                    source=exact("count")),
            measure("pixel-wise mean subtraction: max |training pixel mean|",
                    float(np.abs(px_tr.mean(axis=1)).max()), "<=", 1e-12, source=float_sum),
            measure("pixel-wise: max |value| of the blank pixels (no input constant)",
                    float(np.abs(px_tr[blank]).max()), "==", 0.0, source=exact("0 - 0")),
            measure("standardisation: spread of the blank pixels over images (one constant)",
                    float(np.ptp(st_tr[blank])), "==", 0.0, source=exact("(0 - mu)/sd")),
            measure("standardisation: |blank value - (-mu/sd)|",
                    float(abs(st_tr[blank][0, 0] - expect)), "<=", 1e-12, source=float_sum)]


def g_bar(no_dead, g_printed, g_corrected):
    """BL-Def-G on a ReLU network whose units are all active on every input (exactly linear, no
    delay): its dead fraction, put into the printed g-bar (the dead rate) and into the corrected
    one (the alive fraction), and Eq. (14) (as printed, L253) at each.  ``no_dead``:
    ({activation: losses (T, K)}, smallest pre-activation)."""
    losses, zmin = no_dead
    dead = 0.0 if zmin > 0 else 1.0
    f_dead = sp.Symbol("f_dead")

    def log_ratio(g_form):
        g = float(g_form.subs(f_dead, dead))
        values = {hit.s: 1.479, hit.d: 1.25, hit.a0: 5e-3, hit.rho: 0.5, hit.g: g}
        N, D = float(hit.numerator.subs(values)), float(hit.denominator.subs(values))
        return abs(np.log(N / D)) if D != 0 and N / D > 0 else float("inf")
    log_tol = reading("log of a ratio of float64 sums of O(1) terms")
    delay = float(np.abs(losses["relu"] - losses["linear"]).max())
    no_dead_m = measure("min pre-activation over 4000 steps of the no-dead-unit network", zmin,
                        ">", 0, source=exact("sign of the pre-activations"))
    return ([no_dead_m, measure("|log(N/D)| of Eq. (14) with g-bar as printed (the dead rate) of "
                                "this network (inf: D = 0)", min(log_ratio(g_printed), 1e300),
                                "<=", 1e-9, source=log_tol)],
            [no_dead_m, measure("|log(N/D)| of Eq. (14) with g-bar corrected (the alive fraction)",
                                log_ratio(g_corrected), "<=", 1e-12, source=log_tol),
             measure("max |L_relu - L_lin| of the no-dead-unit network (its delay is 0)", delay,
                     "<=", 1e-9, source=reading("float64 training of identical networks"))])


def kink_readings(printed, corrected):
    """BL-Def-Kink under each of the paper's definitions of the pre-activation: the printed
    k = -b/||w|| under L225's z = w.x + b, the corrected k = -c b/||w|| under Sec 5.1's
    z = w.x + c b (symbolic w, b, c)."""
    b = exp_claims.b
    sympy_ = exact("sympy simplify")
    return [measure("L225 reading (z = w.x + b): the printed kink zeroes the pre-activation",
                    kink_vanishes(printed, b), "==", True, source=sympy_),
            measure("Sec 5.1 reading (z = w.x + c b): the corrected kink zeroes it",
                    kink_vanishes(corrected, exp_claims.c * b), "==", True, source=sympy_)]
