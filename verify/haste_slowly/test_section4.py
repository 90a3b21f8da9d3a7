"""Sec 4 / Apps D-E: the 3-context task, the ReLN against trained ReLU nets, Lemma 4.1,
Proposition 4.2 and its supporting results (MHS-S4-*, MHS-Lem4.1, MHS-Prop4.2, MHS-E-*,
MHS-Fig3, MHS-Fig4, MHS-C3.2).  Runs: ``numerics.haste_slowly.experiments`` at
``configs.SEC45[scale]``: ci, lr 2e-3 in float64 over the paper's 8000 epochs, 2 seeds; full,
the paper's lr 1e-3 x 8000 epochs in float32, 5 seeds (seconds per run)."""
from functools import partial

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numerics.haste_slowly import analysis as A
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import reln
from verify.haste_slowly import evidence as E
from verify.haste_slowly import figures, settings
from verify.measurement import exact, paper, reading
from verify.properties import search

X, Y = ds.section4()
L0 = ds.zero_output_loss(Y)
TASKS = [(X, Y, 3)] + [(*ds.contexts(C), C) for C in (3, 4, 5)]


def _setups(*runs):
    return [settings.sec45(r) for r in runs]


@pytest.mark.claim("MHS-S4-Data")
def test_contextual_dataset(claim):
    claim.defined(*E.contextual_dataset(X, Y),
                  note="X (11, 24), Y (60, 24) >= 0, the released code's H, Ring, Cross blocks")


@pytest.mark.claim("MHS-S4-ReLN")
def test_reln_structure_and_training_variants(claim, sec45):
    split, joint, single, single_joint = (sec45("ci", n) for n in
                                          ("reln", "joint", "single", "single joint"))
    net = split.net
    claim.defined(*E.reln_structure(net.gates[0].numpy(), net.masks[0].numpy(), split.unit_module,
                                    split.trajectory.loss[:, 0], joint.trajectory.loss[:, 0],
                                    single.trajectory.loss[:, 0], single_joint.trajectory.loss[:, 0],
                                    L0),
                  note="split-gradient (released code) vs joint GD on Eq. (2), ci configuration")


@pytest.mark.claim("MHS-S4-C1")
def test_relu_loss_and_outputs_match_the_reln(claim, report_figure, sec45, scale):
    relu, rel, single = (sec45(scale, n) for n in ("relu", "reln", "single"))
    t = relu.trajectory
    claim.reproduced(*E.imitation(t.loss, rel.trajectory.loss, single.trajectory.loss, L0),
                     *E.output_agreement(t.records["out"], rel.trajectory.records["out"], Y,
                                         t.time),
                     setup=_setups(relu, rel, single))
    report_figure(figures.section4(t, rel.trajectory, single.trajectory),
                  f"Sec 4, L120 / Fig 4a ({scale}): loss of the ReLU nets (lines) vs the ReLN and "
                  "the single-context GDLN (markers); right: the ReLN's pathway singular values")


@pytest.mark.claim("MHS-S4-C2")
def test_latent_geometry_matches(claim, report_figure, sec45, scale):
    relu, rel, single = (sec45(scale, n) for n in ("relu", "reln", "single"))
    t = relu.trajectory
    ms = E.latent_geometry(t.records["hidden"], rel.trajectory.records["hidden"],
                           single.trajectory.records["hidden"], t.time)
    claim.reproduced(*ms, setup=_setups(relu, rel, single))
    if scale == "ci":
        report_figure(figures.latents(t, rel.trajectory, ms[0].details),
                      "Fig 4c: MDS of the hidden representations over training (colour = context, "
                      "epochs 500-8000) of a ReLU net and the ReLN, and the correlation of their "
                      "24 x 24 distance matrices with the ReLU runs'")


@pytest.mark.claim("MHS-S4-C3")
def test_no_context_specific_neurons(claim, report_figure, sec45, scale):
    relu = sec45(scale, "relu")
    rec = relu.trajectory.records
    claim.reproduced(*E.no_context_specific_neurons(
        rec["patterns"][-1], rec["mass"][-1], relu.trajectory.loss[-1],
        partial(reln.loss_without, relu.net, X, Y)), setup=_setups(relu))
    report_figure(figures.context_selectivity(rec["patterns"][-1], rec["mass"][-1]),
                  f"Sec 4, L122 ({scale}): each ReLU run's weight mass by the number of contexts "
                  "its units are on in; the paper says no unit is on in exactly one")


@pytest.mark.claim("MHS-C3.2")
def test_few_gating_patterns_make_modules(claim, sec45):
    relu, rel = sec45("ci", "relu"), sec45("ci", "reln")
    pat, mass = relu.trajectory.records["patterns"][-1][0], relu.trajectory.records["mass"][-1][0]
    big = mass > 0.01 * mass.max()
    claim.defined(
        claim.measure("unique gating patterns of the ReLN over its 400 units",
                      len({tuple(g) for g in rel.net.gates[0].numpy()}), "==", 4,
                      source=exact("count of distinct gate rows; the paper's 'four pathways' "
                                   "(L120, 'We identify four pathways which imitate functional "
                                   "modules in the ReLU network') in words, not digits")),
        note=f"the trained ReLU net's {big.sum()} large units show "
             f"{len({tuple(p) for p in pat[big]})} distinct exact patterns, so modules need "
             "clustering (App B)")


@pytest.mark.claim("MHS-S4-C4")
def test_reln_gating_constant_from_the_start(claim, sec45, scale):
    relu, rel, single = (sec45(scale, n) for n in ("relu", "reln", "single"))
    t = relu.trajectory
    claim.reproduced(*E.imitation(t.loss, rel.trajectory.loss, single.trajectory.loss, L0),
                     E.relu_gate_drift(t.records["patterns"], t.records["mass"], t.time),
                     setup=_setups(relu, rel, single),
                     note="the ReLN's gates are fixed at t = 0; does it track the ReLU net?")


@pytest.mark.claim("MHS-S4-C5")
def test_pathways_do_feature_learning(claim, sec45, scale):
    rel = sec45(scale, "reln")
    t = rel.trajectory
    claim.reproduced(E.feature_learning(t.records["sv"]),
                     E.common_mode_rise(t, X, Y),
                     setup=_setups(rel))


@pytest.mark.claim("MHS-Fig4")
def test_section4_loss_curves(claim, report_figure, sec45, scale):
    relu, rel, single = (sec45(scale, n) for n in ("relu", "reln", "single"))
    claim.reproduced(*E.imitation(relu.trajectory.loss, rel.trajectory.loss,
                                  single.trajectory.loss, L0),
                     E.does_not_imitate(relu.trajectory.loss, single.trajectory.loss, L0),
                     setup=_setups(relu, rel, single))
    if scale == "ci":
        report_figure(figures.section4(relu.trajectory, rel.trajectory, single.trajectory),
                      "Fig 4a/b: loss of the ReLU nets (lines) vs the ReLN and the single-context "
                      "GDLN (markers); right: the ReLN's pathway singular values (common: "
                      "circles; contextual: triangles)")


@pytest.mark.claim("MHS-Lem4.1")
def test_implementable_gatings(claim):
    printed, corrected, counterexample = E.implementable_gatings()
    claim.erratum(printed=printed, corrected=corrected, counterexample=counterexample)


@pytest.mark.claim("MHS-Prop4.2")
def test_reln_wins_the_race(claim, sec45):
    rel, single = sec45("ci", "reln"), sec45("ci", "single")
    printed, corrected, t0 = E.race_win(single.trajectory.loss[:, 0], rel.trajectory.loss[:, 0], L0)
    claim.erratum(printed=printed, corrected=corrected,
                  counterexample=f"t = 0: both losses equal L(0) = {L0:.3f} up to {abs(t0):.1g} "
                                 "relative (and both -> 0 as t -> inf): strict '<' for all t fails",
                  note="ReLN vs single-context GDLN, both from init std ~1e-8, ci configuration")


@st.composite
def matrix_and_subsets(draw):
    m, n = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    M = draw(hnp.arrays(float, (m, n), elements=st.floats(-5, 5, allow_nan=False)))
    rows = draw(st.lists(st.integers(0, m - 1), min_size=1, max_size=m, unique=True))
    cols = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    return M, sorted(rows), sorted(cols)


@pytest.mark.claim("MHS-E-Interlace")
def test_interlacing(claim):
    res = search(A.interlacing_violation, ("<=", 1e-10), case=matrix_and_subsets())
    claim.holds(claim.measure("worst (beta_j - alpha_j, alpha_j - sigma_j) / (1 + max|M|), random "
                              "real m x n (1..8), row/column subsets", res,
                              source=reading("float64 SVD of entries up to 5")))


@st.composite
def data_and_kept(draw, nonneg=True):
    d, m, N = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(2, 8))
    el = st.floats(0 if nonneg else -3, 3, allow_nan=False)
    X_ = draw(hnp.arrays(float, (d, N), elements=el))
    Y_ = draw(hnp.arrays(float, (m, N), elements=el))
    keep = draw(st.lists(st.integers(0, N - 1), min_size=1, max_size=N - 1, unique=True))
    return X_, Y_, sorted(keep)


@pytest.mark.claim("MHS-E-Nonneg")
def test_removing_datapoints_cannot_speed_up(claim):
    tol = reading("float64 norms of products of entries up to 3")
    res = search(A.relative_increase, ("<=", 1e-9), case=data_and_kept(nonneg=True))
    signed = search(A.relative_increase, ("<=", 1e-9), case=data_and_kept(nonneg=False),
                    examples=[{"case": (np.array([[1.0, -1.0]]), np.array([[1.0, 1.0]]), [0])}])
    claim.holds(
        claim.measure("worst relative increase of sigma_1(Y_S X_S^T) over sigma_1(Y X^T), "
                      "entrywise non-negative X, Y, any kept subset S", res, source=tol),
        E.section4_removals(X, Y),
        claim.measure("signed data (the stated precondition dropped): a counterexample is found",
                      not signed.ok, "==", True,
                      source=paper("L582", "all input features are positive")))


@pytest.mark.claim("MHS-E-Resid")
def test_no_context_label_correlation_after_common(claim):
    claim.holds(*E.residuals_uncorrelated(TASKS))


@pytest.mark.claim("MHS-E-Six")
def test_single_context_modules_stay_inactive(claim, report_figure, sec45, scale):
    six = sec45(scale, "six")
    t = six.trajectory
    claim.reproduced(*E.singles_inactive(t.loss[-1], t.records["without 1"][-1], t.records["sv"],
                                         L0),
                     setup=_setups(six), note="7-module GDLN: common, 3 double, 3 single pathways, "
                                              "equal init scale (released 3_context_diff/gdln.py)")
    report_figure(figures.six_pathways(t),
                  f"App E, L586 ({scale}): top singular value of each pathway of the 7-module GDLN "
                  "over training; the paper says the single-context pathways (red) stay inactive")


@pytest.mark.claim("MHS-Fig3")
def test_contextual_modules_create_errors_others_remove(claim, report_figure, sec45):
    rel = sec45("ci", "reln")
    claim.defined(*E.contextual_outputs(rel, X, Y), note="after training (ci configuration, first "
                                                         "seed)")
    report_figure(figures.dataset_and_pathway(X, Y, rel),
                  "Fig 3: the Sec 4 dataset (released code's H, Ring, Cross blocks) and the output "
                  "of one trained contextual pathway, which writes into context blocks whose "
                  "target is zero")
