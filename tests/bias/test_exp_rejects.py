"""Every empirical claim of the bias paper (BL) fed a synthetic scenario that satisfies its
statement (verdict ``holds``) and one that violates it (any other verdict), through the claim's
own decision in ``verify.bias.evidence``.  The scenarios rewrite ci runs (``scenarios``)."""
import numpy as np
import pytest

from tests.bias import scenarios as sc
from verify.bias import evidence as ev


def _hierarchy_ok():
    return sc.diverges(sc.tracks(sc.ci("HIERARCHY"), shift=0.3, jitter=0.2), height=0.5)


def _xor_ok():
    return sc.diverges(sc.tracks(sc.ci("XOR")), height=0.5)


@pytest.mark.rejects("BL-Fig2")
def test_fig2_rejects_relu_that_leaves_the_linear_network(decide):
    good = ev.fig2_hierarchy(_hierarchy_ok()) + ev.fig2_representations(sc.ci("HIERARCHY")) \
        + ev.fig2_xor(_xor_ok())
    assert decide(*good) == "holds"
    bad = sc.relu_loss(_hierarchy_ok(), sc.members(sc.ci("HIERARCHY"), 1.0),
                       sc.bump(sc.ci("HIERARCHY").linear.loss[:, sc.members(sc.ci("HIERARCHY"),
                                                                            1.0)],
                               sc.ci("HIERARCHY").linear.t, 0.3))
    assert decide(*ev.fig2_hierarchy(bad), *good[3:]) != "holds"
    assert decide(*good[:3], *ev.fig2_representations(sc.ci("HIERARCHY")),
                  *ev.fig2_xor(sc.tracks(_xor_ok(), c=0.0))) != "holds"    # no-bias never leaves


def _boosted():
    """ReLU biases raised by 1 between 1 and 10 t/tau: most units always-on early, drifting
    back after."""
    return sc.with_relu_bias(sc.ci("HIERARCHY"), 1.0,
                             lambda b, t: b + 1.0 * ((t >= 1) & (t <= 10)))


@pytest.mark.rejects("BL-Fig3")
def test_fig3_rejects_negative_biases(decide):
    assert decide(*ev.mechanism_fig3(_boosted())) == "holds"
    negative = sc.with_relu_bias(sc.ci("HIERARCHY"), 1.0, lambda b, t: -np.abs(b) - 0.1 * (t > 0))
    assert decide(*ev.mechanism_fig3(negative)) != "holds"


@pytest.mark.rejects("BL-Eq(15)", "BL-Fig4")
def test_gated_linear_reconstruction_rejects_a_loss_it_does_not_follow(decide):
    pair = sc.ci("HIERARCHY")
    assert decide(*ev.gated_linear(pair)) == "holds"
    k = sc.members(pair, 1.0)
    late = sc.relu_loss(pair, k, sc.bump(pair.relu.loss[:, k], pair.relu.t, 0.2, start=12))
    assert decide(*ev.gated_linear(late)) != "holds"


@pytest.mark.rejects("BL-Fig12")
def test_kinks_reject_positive_kinks(decide):
    pair = sc.ci("HIERARCHY")
    assert decide(*ev.kinks_fig12(pair)) == "holds"
    assert decide(*ev.kinks_fig12(sc.with_relu_bias(pair, 1.0, lambda b, t: -b))) != "holds"


@pytest.mark.rejects("BL-Mech")
def test_mechanism_rejects_a_relu_network_ahead_of_the_linear_one(decide):
    good = _boosted()
    assert decide(*ev.mechanism(good)) == "holds"
    ahead = sc.relu_loss(good, sc.members(good, 1.0),
                         sc.shifted(good.linear.loss[:, sc.members(good, 1.0)], good.linear.t,
                                    -0.5))
    assert decide(*ev.mechanism(ahead)) != "holds"


@pytest.mark.rejects("BL-Fig5")
def test_fig5_rejects_relu_that_leaves_the_linear_network(decide):
    pair = sc.ci("MARGIN")
    k = sc.members(pair, 1.0, 0.5)
    good = sc.relu_loss(pair, k, sc.shifted(pair.linear.loss[:, k], pair.linear.t, 0.3))
    assert decide(*ev.margin_fig5(good)) == "holds"
    bad = sc.relu_loss(pair, k, sc.bump(pair.linear.loss[:, k], pair.linear.t, 0.3))
    assert decide(*ev.margin_fig5(bad)) != "holds"


@pytest.mark.rejects("BL-Fig6")
def test_fig6_rejects_a_network_that_does_not_reach_zero_loss(decide):
    assert decide(*ev.fig6(sc.parallel_ok())) == "holds"
    pair = sc.parallel_ok()
    k = sc.members(pair, 0.0)
    stuck = sc.relu_loss(pair, k, sc.bump(pair.relu.loss[:, k], pair.relu.t, 0.3, start=40))
    assert decide(*ev.fig6(stuck)) != "holds"


@pytest.mark.rejects("BL-Fig9")
def test_fig9_rejects_relu_that_leaves_the_linear_network(decide):
    hier, xor = sc.tracks(sc.ci("BOTH_HIERARCHY"), shift=0.2), sc.tracks(sc.ci("BOTH_XOR"))
    assert decide(*ev.fig9(hier, xor)) == "holds"
    assert decide(*ev.fig9(sc.diverges(hier, c=1.0, height=0.3), xor)) != "holds"


@pytest.mark.rejects("BL-Fig10")
def test_fig10_rejects_a_small_c_that_diverges_like_c_zero(decide):
    pair = sc.ci("C_SWEEP")
    good = pair
    for c in (0.1, 0.5, 1.0, 2.0, 5.0):
        good = sc.tracks(good, c=c)
    assert decide(*ev.c_sweep(good)) == "holds"
    assert decide(*ev.c_sweep(sc.diverges(good, c=0.1, height=1.0))) != "holds"


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


@pytest.mark.rejects("BL-Fig1")
def test_fig1_rejects_bias_that_raises_rank_or_error(decide):
    assert decide(*ev.fig1(sc.image_pair())) == "holds"
    assert decide(*ev.fig1(sc.image_pair(rank=(6.0, 3.0)))) != "holds"
    assert decide(*ev.fig1(sc.image_pair(gap_bias=0.3, gap_none=0.0))) != "holds"


@pytest.mark.rejects("BL-Fig7")
def test_fig7_rejects_no_bias_networks_that_diverge_under_standardisation(decide):
    standard, pixel = sc.image_pair(gap_none=0.0), sc.image_pair(gap_none=0.3)
    assert decide(*ev.fig7(standard, pixel)) == "holds"
    assert decide(*ev.fig7(pixel, pixel)) != "holds"


@pytest.mark.rejects("BL-Fig8")
def test_fig8_rejects_bias_that_does_not_align(decide):
    assert decide(*ev.fig8({"pixel": sc.image_pair(), "standard": sc.image_pair()})) == "holds"
    bad = {"pixel": sc.image_pair(), "standard": sc.image_pair(gap_bias=0.3, gap_none=0.3)}
    assert decide(*ev.fig8(bad)) != "holds"
