"""Piecewise linear networks, GRQ Sec. 5 and App. C: per-neuron dynamics and conserved
quantities against autograd and gradient flow (ReLU and leaky ReLU, eta_a != eta_w), and the
activation partition (Def. C.1, Prop. C.2) on random small ReLU networks."""
import pytest

from theory.registry import REGISTRY
from verify.rich_quick import figures as F
from verify.rich_quick.evidence import piecewise as pc


@pytest.mark.claim("GRQ-Eq(8)", "GRQ-Eq(9)")
def test_per_neuron_dynamics_match_autograd(claim):
    claim.holds(*pc.per_neuron_dynamics(REGISTRY["GRQ-Eq(8)"].printed,
                                        REGISTRY["GRQ-Eq(9)"].printed))


@pytest.mark.claim("GRQ-Eq(124)-(127)")
def test_appendix_c_dynamics_and_expressivity(claim, grq, report_figure):
    dynamics = pc.appendix_c_dynamics(REGISTRY["GRQ-Eq(124)-(127)"].printed["M_i (126)"],
                                      REGISTRY["GRQ-Eq(8)"].printed, REGISTRY["GRQ-Eq(9)"].printed)
    printed, corrected, note = pc.expressivity(grq.expressivity())
    claim.erratum(printed=dynamics + printed, corrected=dynamics + corrected, note=note)
    report_figure(*F.expressivity(grq.expressivity(), pc.EXPRESSIVITY_WIDTHS))


@pytest.mark.claim("GRQ-PropC.2", "GRQ-Claim-Regions")
def test_partition_is_two_colourable_by_parity(claim):
    measurements, note = pc.two_colourable_by_parity()
    claim.holds(*measurements, note=note)


@pytest.mark.claim("GRQ-Claim-Regions")
def test_regions_are_linear_continuous_and_polynomially_many(claim):
    order = REGISTRY["GRQ-Claim-Regions"].printed["one hidden layer, d = 2, with biases"]
    claim.holds(*pc.regions(order), note=pc.REGION_NET)


@pytest.mark.claim("GRQ-DefC.1")
def test_activation_regions_definition_is_consistent(claim):
    claim.defined(*pc.activation_regions(), note=pc.REGION_NET)


@pytest.mark.claim("GRQ-Fig9")
def test_fig9_cones_without_biases_polytopes_with(claim, report_figure):
    ms, note = pc.cones_and_polytopes()
    claim.defined(*ms, note=note)
    report_figure(*F.fig9())


@pytest.mark.claim("GRQ-Claim-C-intro")
def test_function_space_dynamics_is_not_autonomous(claim):
    claim.defined(*pc.not_autonomous(),
                  note="scope statement; supporting computation: equal outputs, different function "
                       "velocities, so PL function-space dynamics are not autonomous")
