"""Every empirical claim of the workshop paper (BA) fed a synthetic scenario that satisfies its
statement (verdict ``holds``) and one that violates it (any other verdict), through the claim's
own decision (``verify.bias_workshop.evidence``, ``verify.bias.evidence``)."""
import numpy as np
import pytest

from tests.bias import scenarios as sc
from verify.bias import evidence as ev
from verify.bias_workshop import evidence as ba


def _tracking():
    return sc.diverges(sc.tracks(sc.ci("HIERARCHY")), height=0.5)


@pytest.mark.rejects("BA-Fig1B")
def test_fig1b_rejects_a_lagging_relu_network(decide):
    assert decide(*ba.fig1b(_tracking())) == "holds"
    assert decide(*ba.fig1b(sc.tracks(_tracking(), shift=1.0))) != "holds"


@pytest.mark.rejects("BA-Fig1D")
def test_fig1d_rejects_a_shifted_relu_network(decide):
    good = sc.diverges(sc.tracks(sc.ci("XOR")), height=0.5)
    assert decide(*ba.fig1d(good)) == "holds"
    assert decide(*ba.fig1d(sc.tracks(good, shift=1.0))) != "holds"


def _scrambled(pair):
    """The ReLU members with bias given random first-layer weights: no structure."""
    W1 = pair.relu.W1.copy()
    k = sc.members(pair, 1.0)
    W1[:, k] = np.random.default_rng(0).standard_normal(W1[:, k].shape)
    return sc.rewrite(pair, "relu", W1=W1)


@pytest.mark.rejects("BA-Fig2A")
def test_fig2a_rejects_unaligned_representations(decide):
    assert decide(*ev.cka(sc.ci("HIERARCHY8"))) == "holds"
    assert decide(*ev.cka(_scrambled(sc.ci("HIERARCHY8")))) != "holds"


@pytest.mark.rejects("BA-Fig2B")
def test_fig2b_rejects_unstructured_representations(decide):
    assert decide(*ba.fig2b(sc.ci("HIERARCHY"))) == "holds"
    assert decide(*ba.fig2b(_scrambled(sc.ci("HIERARCHY")))) != "holds"


@pytest.mark.rejects("BA-Fig3B")
def test_fig3b_rejects_a_relu_network_that_leaves_the_linear_one_early(decide):
    assert decide(*ba.fig3b(sc.parallel_ok())) == "holds"
    assert decide(*ba.fig3b(sc.diverges(sc.parallel_ok(), c=1.0, height=0.4))) != "holds"


@pytest.mark.rejects("BA-Fig3C")
def test_fig3c_rejects_a_network_that_does_not_reach_zero_loss(decide):
    pair = sc.ci("PARALLEL")
    assert decide(*ba.fig3c(pair)) == "holds"
    k = sc.members(pair, 1.0)
    stuck = sc.relu_loss(pair, k, sc.bump(pair.relu.loss[:, k], pair.relu.t, 0.3, start=40))
    assert decide(*ba.fig3c(stuck)) != "holds"


@pytest.mark.rejects("BA-T6")
def test_t6_rejects_bias_that_does_not_align(decide):
    words = ("001 L74", "closely aligned", "diverge faster when bias terms are ablated")
    assert decide(*ev.image_alignment(sc.image_pair(), *words)) == "holds"
    assert decide(*ev.image_alignment(sc.image_pair(gap_bias=0.3, gap_none=0.0), *words)) \
        != "holds"


@pytest.mark.rejects("BA-T7")
def test_t7_rejects_a_full_width_linear_network_that_matches_best(decide):
    good = {16: sc.image_pair(gap_bias=0.3), 32: sc.image_pair(gap_bias=0.01),
            64: sc.image_pair(gap_bias=0.2)}
    assert decide(*ev.half_width(good, 64)) == "holds"
    bad = {**good, 64: sc.image_pair(gap_bias=0.01), 32: sc.image_pair(gap_bias=0.2)}
    assert decide(*ev.half_width(bad, 64)) != "holds"


@pytest.mark.rejects("BA-AppB")
def test_app_b_rejects_a_shift_that_fits_better_than_a_time_constant(decide):
    hier = sc.ci("BOTH_HIERARCHY")
    k = sc.members(hier, 1.0)
    slower = sc.relu_loss(hier, k, sc.rescaled(hier.linear.loss[:, k], hier.linear.t, 1.2))
    xor = sc.tracks(sc.ci("BOTH_XOR"))
    assert decide(*ba.app_b(slower, xor)) == "holds"
    assert decide(*ba.app_b(sc.tracks(hier, shift=1.0), xor)) != "holds"


@pytest.mark.rejects("BA-C")
def test_contributions_reject_relu_that_leaves_the_linear_network(decide):
    hier, xor = sc.tracks(sc.ci("HIERARCHY")), sc.tracks(sc.ci("XOR"))
    parallel = sc.ci("PARALLEL")
    assert decide(*ba.contributions(hier, xor, parallel)) == "holds"
    assert decide(*ba.contributions(sc.diverges(hier, c=1.0, height=0.3), xor, parallel)) \
        != "holds"
