"""The single-neuron figures without a run behind a stated setting: the timescales of Sec. 3
(L71-77), the conserved surfaces of Fig. 2 (L61) and the potentials of App. A.4 (Eq. 67); theory as
lines, gradient flow as markers (gradient-flow time t)."""
import pytest

from theory.registry import REGISTRY
from theory.rich_quick import single_neuron_implicit_bias as B
from theory.rich_quick import single_neuron_symbols as S
from verify.rich_quick import figures as F
from verify.rich_quick.evidence import single_neuron as chk


@pytest.mark.claim("GRQ-Claim-S3-regimes")
def test_timescales_of_the_three_regimes(claim, grq, report_figure):
    ts = grq.timescales()
    claim.holds(*chk.s3_regimes(ts, REGISTRY["GRQ-Claim-S3-regimes"].printed,
                                REGISTRY["GRQ-Eq(2)"].printed),
                note=f"exact solution at eta_a, eta_w = {ts.rates}, ||beta_*|| = {ts.b:g}")
    report_figure(*F.s3_downstream(ts))


@pytest.mark.claim("GRQ-Cons-delta")
def test_trajectories_on_the_conserved_surfaces(claim, grq, report_figure):
    claim.holds(*chk.conserved_surfaces(grq.surfaces()))
    report_figure(*F.conserved_surfaces(grq.surfaces()))


@pytest.mark.claim("GRQ-Eq(59)-(67)")
def test_potential_limits(claim, report_figure):
    claim.holds(*chk.potential_limits(B.PHI_POTENTIAL))
    report_figure(*F.potentials(B.PHI_POTENTIAL, [S.r, S.delta]))
