"""Implicit bias of the single neuron (rich_quick Thm 3.1, Fig. 4, App A.4 Eqs. 40-72, Thm A.2).
Gradient-flow limits are compared with constrained argmins on the paper's low-rank data (D.2) and
on wider null spaces (n = 1, d = 3; n = 2, d = 4), for delta of both signs and zero."""
import pytest

from theory.registry import REGISTRY
from theory.rich_quick import single_neuron_implicit_bias as B
from verify.rich_quick import evidence as E
from verify.rich_quick.evidence import implicit_bias as IB


@pytest.mark.claim("GRQ-Thm3.1")
def test_gradient_flow_limit_minimises_the_implicit_bias(claim):
    r = REGISTRY["GRQ-Thm3.1"]
    under, without = IB.thm31_limits(r.printed, r.corrected)
    claim.holds_if(r.condition, under=under, without=without)


@pytest.mark.claim("GRQ-Eq(70)-(72)")
def test_eq71_as_printed_and_corrected(claim, grq):
    r, thm = REGISTRY["GRQ-Eq(70)-(72)"], REGISTRY["GRQ-ThmA.2"]
    run = grq.lowrank()
    dq = IB.eq70_derivative(thm.printed.q_azulay, r.printed.dq_azulay)
    eq72 = E.fig4_lowrank(run, E.lowrank_prediction(run, thm.corrected.z_coeff, r.printed.eq72))
    claim.erratum(
        printed=[dq, *eq72, IB.eq71_residual("printed Eq. (71) residual at the GF alpha (D.2, "
                                             "delta -3, 1, 3)", r.printed.eq71, run)],
        corrected=[dq, *eq72, IB.eq71_residual("corrected Eq. (71) residual at the GF alpha",
                                               r.corrected.eq71, run)])


@pytest.mark.claim("GRQ-Eq(70)-(72)")
def test_minus_alpha_v_for_sign_changing_trajectories(claim):
    claim.holds(*IB.sign_changing_limits(), note="delta < 0, D.2 data, remark L610")


@pytest.mark.claim("GRQ-Eq(46)-(49)")
def test_sherman_morrison_inverse(claim):
    r = REGISTRY["GRQ-Eq(46)-(49)"].printed
    claim.holds(*IB.sherman_morrison(r.f, r.h))


@pytest.mark.claim("GRQ-Eq(50)-(54)")
def test_M_inverse_is_not_a_hessian_map(claim):
    r = REGISTRY["GRQ-Eq(50)-(54)"]
    under, without = IB.minv_symmetry(r.printed)
    claim.holds_if(r.condition, under=under, without=without,
                   counterexample="d = 1: the symmetry condition (50) holds trivially; M^-1 = "
                                  "1/kappa is a Hessian")


@pytest.mark.claim("GRQ-Eq(55)-(58)")
def test_time_warp_makes_a_hessian_map(claim):
    claim.holds(*IB.time_warp(REGISTRY["GRQ-Eq(55)-(58)"].printed))


@pytest.mark.claim("GRQ-Eq(59)-(67)")
def test_the_potential_and_its_hessian(claim):
    claim.holds(*IB.potential_and_hessian(REGISTRY["GRQ-Eq(59)-(67)"].printed))


@pytest.mark.claim("GRQ-ThmA.2")
def test_azulay_potential_and_minimiser(claim):
    r = REGISTRY["GRQ-ThmA.2"].printed
    eq69, printed, corrected = IB.azulay_argmin(r.q_azulay, r.eq69)
    claim.erratum(printed=[eq69, *printed], corrected=[eq69, *corrected])


@pytest.mark.claim("GRQ-Eq(40)-(45)")
def test_mirror_flow_identities_along_the_flow(claim):
    printed, corrected = IB.mirror_flow(B.DQ_PRINTED, B.G_DELTA)
    claim.erratum(printed=printed, corrected=corrected,
                  note="D.2 data, delta = 1, t <= 40, unit rates")
