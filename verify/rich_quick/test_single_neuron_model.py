"""Conventions and the single-neuron model in parameter space (rich_quick Sec 1, Sec 3 L52-65,
App A L276-308): loss/clock, NTK, kernel distance, delta, minima, conservation, span.  Evidence:
``verify.rich_quick.evidence.model`` (gradient-flow time t)."""
import pytest

from numerics.rich_quick import single_neuron as sn
from theory.registry import REGISTRY
from verify.rich_quick.evidence import model as M

SETTING = f"5x3 non-whitened X, eta_a={M.ETA_A}, eta_w={M.ETA_W}"


@pytest.mark.claim("GRQ-Eq(1)", "GRQ-Eq(10)-(12)")
def test_printed_ntk_equals_autograd_ntk(claim):
    registered = [REGISTRY[cid].printed for cid in ("GRQ-Eq(1)", "GRQ-Eq(10)-(12)")]
    claim.holds(*M.ntk_against_autograd(registered),
                note=f"eta_a={M.ETA_A}, eta_w={M.ETA_W}, (n, d) in (4, 2), (5, 3), (3, 6)")


@pytest.mark.claim("GRQ-Eq(10)-(12)")
def test_weight_flow_is_rate_weighted_gradient_of_half_sum_loss(claim, rng):
    claim.holds(*M.weight_flow_against_autograd(sn.weight_rhs, rng), note=SETTING)


@pytest.mark.claim("GRQ-Conv-GF")
def test_gradient_descent_steps_follow_the_flow_at_t_equals_lr_times_steps(claim, rng):
    claim.defined(*M.gd_follows_the_flow(REGISTRY["GRQ-Conv-GF"].printed, rng),
                  note="GD on the 1/2-sum loss vs the flow at t = 2, 5x3 X, unit rates")


@pytest.mark.claim("GRQ-Def-NTK")
def test_function_moves_by_minus_ntk_times_residual(claim, rng):
    claim.defined(*M.function_moves_by_the_ntk(rng),
                  note=f"2 test points, rate-weighted autograd NTK ({SETTING}), t = 0.1, 0.5, 0.9")


@pytest.mark.claim("GRQ-Def-KD")
def test_kernel_distance_is_in_unit_interval_and_computable_from_M(claim):
    claim.defined(*M.kernel_distance_properties())


@pytest.mark.claim("GRQ-Def-delta")
def test_delta_definition_and_fig1_geometry(claim):
    claim.defined(*M.delta_definition(REGISTRY["GRQ-Def-delta"].printed),
                  note="5 (tau, delta) pairs, unit rates; names at eta_a=0.3, eta_w=2.5")


@pytest.mark.claim("GRQ-Claim-Minima")
def test_minima_hyperbola_and_saddles(claim, rng):
    claim.holds(*M.minima_and_saddles(rng), note=SETTING)


@pytest.mark.claim("GRQ-Cons-delta", "GRQ-Eq(13)")
def test_delta_is_conserved_symbolically_for_any_data(claim):
    claim.holds(*M.delta_conserved_symbolically(REGISTRY["GRQ-Eq(13)"].printed,
                                                REGISTRY["GRQ-Cons-delta"].printed))


@pytest.mark.claim("GRQ-Cons-delta", "GRQ-Eq(13)")
def test_delta_is_conserved_along_integrated_flows(claim):
    claim.holds(*M.delta_drift_along_flows(),
                note="Eqs. (11)-(12) on a 5x3 non-whitened X, rate pairs (0.3, 2.5), (4, 0.2), (1, 1)")


@pytest.mark.claim("GRQ-Cons-delta")
def test_conserved_surface_sheets(claim):
    sheets, counts = M.surface_sheets()
    claim.holds_if(REGISTRY["GRQ-Cons-delta"].condition, under=sheets[2], without=sheets[1],
                   note=f"4000-point grid samples of eta_w a^2 - eta_a ||w||^2 = delta linked below "
                        f"the grid spacing, eta {M.ETA_A}/{M.ETA_W}",
                   counterexample=f"d = 1, delta = -0.5: {counts[(-0.5, 1)]} components (w cannot "
                                  f"change sign), not one sheet")


@pytest.mark.claim("GRQ-Eq(14)-(15)")
def test_whitened_flow_is_the_general_flow_at_identity_covariance(claim):
    claim.holds(*M.whitened_flow_is_general(REGISTRY["GRQ-Eq(14)-(15)"].printed))


@pytest.mark.claim("GRQ-Claim-Span")
def test_w_stays_in_the_plane_and_its_orthogonal_part_decays_exactly(claim):
    claim.holds(*M.span_and_decay(), note="d = 4 whitened flows, rate pairs (0.3, 2.5), (2, 0.5), "
                                          "(1, 1)")


@pytest.mark.claim("GRQ-Conv-WLOG")
def test_rates_enter_only_through_their_product(claim):
    """Decided on its own statement: the rates enter the (mu, phi) dynamics (Eqs. 16-17) only
    through eta_a eta_w and delta, absorbed by mu' = c mu, b' = c b into the form at the printed
    eta_a eta_w = 1; and the beta dynamics only through M(beta, delta), the same for every rate
    pair with one product."""
    claim.holds(*M.rates_through_product(REGISTRY["GRQ-Conv-WLOG"].printed))
