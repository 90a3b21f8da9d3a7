"""Wide two-layer linear networks: GRQ Sec. 4 and App. B.1 against gradient flow and autograd,
with unequal rates (eta_a != eta_w, product != 1), non-square shapes and both signs of delta."""
import numpy as np
import pytest
from hypothesis import strategies as st

from theory.registry import REGISTRY
from verify.rich_quick import figures as F
from verify.rich_quick.evidence import linear as lc

ETA_A, ETA_W = 0.3, 2.5          # unequal, product 0.75 != 1
SHAPES = [(5, 3, 2), (2, 3, 6), (3, 3, 3), (4, 2, 5)]   # (d, h, c): funnel, inverted, square, other


@st.composite
def wide_setting(draw):
    d, h, c = draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.integers(1, 5))
    n = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2 ** 16))
    eta_a, eta_w = draw(st.floats(0.1, 4.0)), draw(st.floats(0.1, 4.0))
    scale = draw(st.floats(0.2, 3.0))
    rng = np.random.default_rng(seed)
    return dict(W=scale * rng.standard_normal((h, d)), A=rng.standard_normal((h, c)) / scale,
                X=rng.standard_normal((n, d)), Y=rng.standard_normal((n, c)),
                eta_a=eta_a, eta_w=eta_w)


#: the point every search replays: a funnel (d, h, c) = (5, 3, 2) at the unequal rates
PINNED = [dict(s=dict(lc.wide_point(5, 3, 2), eta_a=ETA_A, eta_w=ETA_W))]


@pytest.mark.claim("GRQ-Claim-Wide-Cons")
def test_delta_matrix_is_conserved_with_unequal_rates(claim):
    claim.holds(lc.conservation(REGISTRY["GRQ-Claim-Wide-Cons"].printed, SHAPES, ETA_A, ETA_W))


@pytest.mark.claim("GRQ-Eq-NTK-wide", "GRQ-Eq(6)")
def test_ntk_and_vec_dynamics_match_autograd(claim):
    claim.holds(lc.round_worst("worst rel. error of K (vs autograd NTK, rate-weighted) and of -M "
                               "vec(X^TX beta - X^TY) (vs W'^T A + W^T A'), any d, h, c, n",
                               lc.ntk_and_vec_error, REGISTRY["GRQ-Eq-NTK-wide"].printed,
                               REGISTRY["GRQ-Eq(6)"].printed, examples=PINNED, s=wide_setting()))


@pytest.mark.claim("GRQ-Eq(73)-(80)")
def test_eq78_identity_sizes_and_appendix_delta(claim):
    r = REGISTRY["GRQ-Eq(73)-(80)"]
    claim.erratum(**lc.eq78_and_appendix_delta(r.printed, r.corrected, ETA_A, ETA_W))


@pytest.mark.claim("GRQ-Thm4.1", "GRQ-LemB.1")
def test_M_is_the_sum_of_per_neuron_preconditioners(claim):
    coefs, lemma = REGISTRY["GRQ-Thm4.1"].printed, REGISTRY["GRQ-LemB.1"].printed
    claim.holds(lc.round_worst("worst rel. error of sum_i M_i vs eta_w A^TA (+) eta_a W^TW, random "
                               "W, A, rates, shapes", lc.neuron_sum_error, coefs, examples=PINNED,
                               s=wide_setting()),
                lc.neuron_coefficients(coefs),
                lc.restates(lemma, coefs, "Lemma B.1's Eq. (87) coefficients minus Eq. (7)'s "
                                          "simplify to 0"))


@pytest.mark.claim("GRQ-Eq(81)-(86)")
def test_per_neuron_norms_need_the_rates(claim):
    r = REGISTRY["GRQ-Eq(81)-(86)"]
    claim.erratum(**lc.per_neuron_norms(r.printed, r.corrected))


@pytest.mark.claim("GRQ-LemB.2")
def test_rank_of_M_in_the_lazy_limits(claim):
    r = REGISTRY["GRQ-LemB.2"]
    claim.erratum(**lc.lazy_limit_rank_evidence(r.printed, r.corrected))


@pytest.mark.claim("GRQ-Eq(92)-(96)")
def test_inverted_funnel_limits(claim):
    r = REGISTRY["GRQ-Eq(92)-(96)"]
    flows, limits = lc.inverted_funnel_limits(r.printed, r.corrected, ETA_A, ETA_W)
    claim.holds(*flows, note="GF of the h = d = 1, c = 3 inverted funnel (X = I, ||beta0|| = 0.1, "
                             "eta 0.5/3)")
    claim.erratum(**limits)


@pytest.mark.claim("GRQ-LemB.3")
def test_square_isotropic_M_in_terms_of_beta(claim):
    r = REGISTRY["GRQ-LemB.3"]
    claim.erratum(**lc.square_isotropic(r.printed, r.corrected))


@pytest.mark.claim("GRQ-Eq(102)")
def test_square_limits(claim):
    r = REGISTRY["GRQ-Eq(102)"]
    claim.erratum(**lc.square_limits(r.printed, r.corrected))


@pytest.mark.claim("GRQ-AssB.4")
def test_task_aligned_mirror_flow_and_potential(claim, report_figure):
    r = REGISTRY["GRQ-AssB.4"]
    claim.erratum(**lc.task_aligned_mirror_flow(r.printed, r.corrected, ETA_A, ETA_W))
    report_figure(*F.potential_curvatures(r.printed, ETA_A, ETA_W))
