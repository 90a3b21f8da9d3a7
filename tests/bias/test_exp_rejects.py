"""Every empirical claim of the bias paper (BL) fed a synthetic scenario that satisfies its
statement under every reading of its words (verdict ``holds``) and one that violates it (any
other verdict), through the claim's own decision in ``verify.bias.evidence``; where a sentence
allows several readings (a time shift read as a global shift, a rescale or mode-wise delays;
the windows of 'early'), a scenario in between depends on the reading (``inconclusive``).  The
scenarios rewrite ci runs (``scenarios``)."""
import numpy as np
import pytest

from tests.bias import scenarios as sc
from verify.bias import evidence as ev


def _hierarchy_ok():
    return sc.diverges(sc.on_closed_form(sc.ci("HIERARCHY")), height=0.5)


def _xor_ok():
    return sc.diverges(sc.on_linear(sc.ci("XOR")), height=0.5)


@pytest.mark.rejects("BL-Fig2")
def test_fig2_rejects_relu_that_leaves_the_linear_network(decide):
    good = ev.fig2_hierarchy(_hierarchy_ok()) + ev.fig2_representations(sc.ci("HIERARCHY")) \
        + ev.fig2_xor(_xor_ok())
    assert decide(*good) == "holds"
    h = _hierarchy_ok()
    k = sc.members(h, 1.0)
    bad = sc.relu_loss(h, k, sc.bump(h.linear.loss[:, k], h.linear.t, 0.3))
    assert decide(*ev.fig2_hierarchy(bad), *good[3:]) == "not-reproduced"
    assert decide(*good[:3], *ev.fig2_representations(sc.ci("HIERARCHY")),
                  *ev.fig2_xor(sc.on_linear(_xor_ok(), c=0.0))) != "holds"    # no-bias never leaves


@pytest.mark.rejects("BL-Fig2")
def test_fig2_closed_form_with_a_gap_between_the_readings_depends_on_the_reading(decide):
    """'almost perfect match' (an identity word): a ReLU loss off the closed form by half a
    percent of L(0) overlaps it at line width but lies outside the seed-to-seed spread (the
    strict reading): inconclusive, not refuted."""
    h = _hierarchy_ok()
    k = sc.members(h, 1.0)
    off = sc.relu_loss(h, k, h.relu.loss[:, k] + 0.005 * h.linear.loss[0, k])
    ms = ev.fig2_hierarchy(off)
    assert ms[1].undecided and not ms[1].passed
    assert decide(*ms) == "inconclusive"


@pytest.mark.rejects("BL-Fig3")
def test_fig3_rejects_negative_biases(decide):
    good = sc.on_linear(sc.ybar_phase(sc.ci("HIERARCHY")))
    assert decide(*ev.mechanism_fig3(good)) == "holds"
    negative = sc.with_relu_bias(good, 1.0, lambda b, t: -np.abs(b) - 0.1 * (t > 0))
    assert decide(*ev.mechanism_fig3(negative)) != "holds"


@pytest.mark.rejects("BL-Fig3")
def test_fig3_rejects_outputs_that_never_reach_ybar(decide):
    """3D ('equivalent to average output statistics'): the ci run as trained reaches ybar only to
    4-5% of ||ybar||, between the readings of the word; a run whose outputs never come near it
    fails every reading."""
    pair = sc.ci("HIERARCHY")
    ms = ev.mechanism_fig3(pair)
    assert all(m.undecided for m in ms[-2:])
    far = sc.with_relu_bias(sc.ybar_phase(pair), 1.0, lambda b, t: b + 5.0 * (t > 0))
    assert ev.mechanism_fig3(far)[-1].refuted


def _on_prediction(pair):
    """The ReLU members with bias on their own gated-linear prediction after t*."""
    k = sc.members(pair, 1.0)
    _, preds = ev.gated_predictions(pair)
    loss = pair.relu.loss[:, k].copy()
    for j, p in enumerate(preds):
        loss[~np.isnan(p), j] = p[~np.isnan(p)]
    return sc.relu_loss(pair, k, loss)


@pytest.mark.rejects("BL-Eq(15)", "BL-Fig4")
def test_gated_linear_reconstruction_rejects_a_loss_it_does_not_follow(decide):
    pair = _on_prediction(sc.ci("HIERARCHY"))
    assert decide(*ev.gated_linear(pair)) == "holds"
    k = sc.members(pair, 1.0)
    late = sc.relu_loss(pair, k, sc.bump(pair.relu.loss[:, k], pair.relu.t, 0.2, start=12))
    assert decide(*ev.gated_linear(late)) == "not-reproduced"
    # off by 2% of L(0): 'excellent agreement' passes its lenient readings, 'exactly' does not
    near = sc.relu_loss(pair, k, sc.bump(pair.relu.loss[:, k], pair.relu.t, 0.02, start=12))
    assert decide(*ev.gated_linear(near)) == "inconclusive"


@pytest.mark.rejects("BL-Fig12")
def test_kinks_reject_positive_kinks(decide):
    pair = sc.with_relu_bias(sc.ci("HIERARCHY"), 1.0, lambda b, t: b + 1.0 * (t >= 0.2))
    assert decide(*ev.kinks_fig12(pair)) == "holds"
    assert decide(*ev.kinks_fig12(sc.with_relu_bias(pair, 1.0, lambda b, t: -b))) \
        == "not-reproduced"
    # the ci run as trained: 86-100% negative depending on the window 'early' is read as
    assert decide(*ev.kinks_fig12(sc.ci("HIERARCHY"))) == "inconclusive"


@pytest.mark.rejects("BL-Mech")
def test_mechanism_rejects_a_relu_network_that_is_not_transiently_linear(decide):
    good = sc.on_linear(sc.ybar_phase(sc.ci("HIERARCHY")))
    assert decide(*ev.mechanism(good)) == "holds"
    k = sc.members(good, 1.0)
    bumped = sc.relu_loss(good, k, sc.bump(good.linear.loss[:, k], good.linear.t, 0.3))
    assert decide(*ev.mechanism(bumped)) == "not-reproduced"


@pytest.mark.rejects("BL-Mech")
def test_mechanism_step_three_rejects_the_no_bias_networks(decide):
    """Step (iii) on the losses of the ReLU networks without bias (the audit: 'lag > 0' passed
    on 7 of 8 no-bias seeds): no mode-wise shift makes them the linear network's."""
    pair = sc.on_linear(sc.ybar_phase(sc.ci("HIERARCHY")))
    k, k0 = sc.members(pair, 1.0), sc.members(pair, 0.0)
    no_bias = sc.relu_loss(pair, k, sc.ci("HIERARCHY").relu.loss[:, k0])
    gap = ev.mechanism(no_bias)[3]
    assert gap.refuted
    assert decide(*ev.mechanism(no_bias)) == "not-reproduced"


@pytest.mark.rejects("BL-Mech")
def test_mechanism_step_three_takes_mode_wise_delays(decide):
    """A ReLU loss whose modes are delayed by different amounts (one global shift cannot align
    it) passes step (iii): the sentence names a mode-wise shift."""
    pair = sc.on_linear(sc.ybar_phase(sc.ci("HIERARCHY")))
    k = sc.members(pair, 1.0)
    lin = pair.linear
    strengths, s, d, P = ev.loss_modes(lin, k)
    e = -0.5 * P * (2 * s * strengths - d * strengths ** 2)
    delays = np.linspace(0.0, 0.6, len(s))
    moved = lin.loss[:, k] + sum(
        np.stack([np.interp(lin.t - delays[m], lin.t, e[:, j, m]) for j in range(len(k))], 1)
        - e[:, :, m] for m in range(len(s)))
    ms = ev.mechanism(sc.relu_loss(pair, k, moved))
    assert ms[3].passed and ms[4].passed


@pytest.mark.rejects("BL-Fig5")
def test_fig5_rejects_relu_that_leaves_the_linear_network(decide):
    pair = sc.ci("MARGIN")
    k = sc.members(pair, 1.0, 0.5)
    good = sc.relu_loss(pair, k, pair.linear.loss[:, k])
    assert decide(*ev.margin_fig5(good)) == "holds"
    bad = sc.relu_loss(pair, k, sc.bump(pair.linear.loss[:, k], pair.linear.t, 0.3))
    assert decide(*ev.margin_fig5(bad)) == "not-reproduced"
    # a global delay of 0.3 t/tau: aligned by a shift, not by a time rescale
    shifted = sc.relu_loss(pair, k, sc.shifted(pair.linear.loss[:, k], pair.linear.t, 0.3))
    assert decide(*ev.margin_fig5(shifted)) == "inconclusive"


@pytest.mark.rejects("BL-Fig6")
def test_fig6_rejects_a_network_that_does_not_reach_zero_loss(decide):
    good = sc.xor_waits(sc.parallel_ok())
    assert decide(*ev.fig6(good)) == "holds"
    k = sc.members(good, 0.0)
    stuck = sc.relu_loss(good, k, sc.bump(good.relu.loss[:, k], good.relu.t, 0.3, start=40))
    assert decide(*ev.fig6(stuck)) == "not-reproduced"
    # the ci run as trained learns 7% of the XOR task by the time the linear one is learned
    assert decide(*ev.fig6(sc.parallel_ok())) == "inconclusive"


@pytest.mark.rejects("BL-Fig9")
def test_fig9_rejects_relu_that_leaves_the_linear_network(decide):
    hier, xor = sc.on_linear(sc.ci("BOTH_HIERARCHY")), sc.on_linear(sc.ci("BOTH_XOR"))
    assert decide(*ev.fig9(hier, xor)) == "holds"
    assert decide(*ev.fig9(sc.diverges(hier, c=1.0, height=0.3), xor)) == "not-reproduced"


@pytest.mark.rejects("BL-Fig9", "BA-AppB")
def test_fig9_and_app_b_read_a_time_shift_and_time_constants_alike(decide):
    """One rule for BL Fig 9's 'small time shift' and BA App B's 'slightly different time
    constants': a slower ReLU network (time rescaled by 1.2) is aligned by the rescale and not by
    a global shift, so both sentences depend on the reading, alike."""
    from verify.bias_workshop import evidence as ba
    hier = sc.ci("BOTH_HIERARCHY")
    k = sc.members(hier, 1.0)
    slower = sc.relu_loss(hier, k, sc.rescaled(hier.linear.loss[:, k], hier.linear.t, 1.2))
    xor = sc.on_linear(sc.ci("BOTH_XOR"))
    bl, ba_ = ev.fig9(slower, xor), ba.app_b(slower, xor)
    assert decide(*bl) == decide(*ba_) == "inconclusive"
    assert bl[0].details["intervals"] == ba_[0].details["intervals"]


@pytest.mark.rejects("BL-Fig10")
def test_fig10_rejects_a_small_c_that_diverges_like_c_zero(decide):
    good = sc.ci("C_SWEEP")
    for c in (0.1, 0.5, 1.0, 2.0, 5.0):
        good = sc.with_relu_bias(sc.on_linear(good, c=c), c,
                                 lambda b, t, c=c: b + (1 / c) * (t >= 0.2))
    assert decide(*ev.c_sweep(good)) == "holds"
    assert decide(*ev.c_sweep(sc.diverges(good, c=0.1, height=1.0))) == "not-reproduced"


@pytest.mark.rejects("BL-Fig10")
def test_fig10_rejects_units_that_do_not_shoot_up(decide):
    """'shoots up': the ci run at c = 0.1 raises its always-on fraction by 0.6-3x the rise at
    c = 0 (below 'twice' on one window), so the growth word fails or depends on the reading."""
    ms = ev.c_sweep(sc.ci("C_SWEEP"))
    assert not ms[0].passed


@pytest.mark.rejects("BL-Fig11")
def test_fig11_rejects_divergence_at_large_delta(decide):
    pair = sc.ci("MARGIN_SWEEP")
    t = pair.linear.t
    for d in (0.05, 0.1, 0.25, 0.5, 1.0):
        k = sc.members(pair, 1.0, d)
        late = 0.3 if d < 0.5 else 0.0
        pair = sc.relu_loss(pair, k, sc.bump(pair.linear.loss[:, k], t, late, start=20))
    assert decide(*ev.margin_fig11(pair)) == "holds"
    k = sc.members(pair, 1.0, 1.0)
    bad = sc.relu_loss(pair, k, sc.bump(pair.linear.loss[:, k], t, 0.6, start=20))
    assert decide(*ev.margin_fig11(bad)) != "holds"
    early = sc.relu_loss(pair, k, sc.bump(pair.linear.loss[:, k], t, 0.3, start=0.2))
    assert decide(*ev.margin_fig11(early)) == "not-reproduced"


@pytest.mark.rejects("BL-Fig1")
def test_fig1_rejects_bias_that_raises_rank_or_error(decide):
    assert decide(*ev.fig1(sc.image_pair(gap_bias=0.005))) == "holds"
    assert decide(*ev.fig1(sc.image_pair(gap_bias=0.005, rank=(6.0, 3.0)))) != "holds"
    assert decide(*ev.fig1(sc.image_pair(gap_bias=0.3, gap_none=0.0))) == "not-reproduced"
    assert decide(*ev.fig1(sc.image_pair(gap_bias=0.04))) == "inconclusive"   # between readings


@pytest.mark.rejects("BL-Fig7")
def test_fig7_rejects_no_bias_networks_that_diverge_under_standardisation(decide):
    standard = sc.image_pair(gap_bias=0.005, gap_none=0.005)
    pixel = sc.image_pair(gap_bias=0.005, gap_none=0.3)
    assert decide(*ev.fig7(standard, pixel)) == "holds"
    assert decide(*ev.fig7(pixel, pixel)) != "holds"


@pytest.mark.rejects("BL-Fig8")
def test_fig8_rejects_bias_that_does_not_align(decide):
    good = sc.image_pair(gap_bias=0.005)
    assert decide(*ev.fig8({"pixel": good, "standard": good})) == "holds"
    bad = {"pixel": good, "standard": sc.image_pair(gap_bias=0.3, gap_none=0.3)}
    assert decide(*ev.fig8(bad)) != "holds"
