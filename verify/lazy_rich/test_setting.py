"""Set-up of Sec 3: model and loss (LR-Eq1), QQ^T (LR-Eq3), RSMs (LR-Eq4), NTK (LR-Eq5), whitening
(LR-A1).  Time is t/tau (tau = 1/lr on the 1/2-mean loss)."""
import pytest

from theory.registry import REGISTRY
from verify.lazy_rich import evidence


@pytest.mark.claim("LR-Eq1")
def test_gradient_step_is_the_paper_flow(claim, gradient_step):
    claim.defined(*evidence.gradient_step(REGISTRY["LR-Eq1"].printed, *gradient_step, 1e-2),
                  note="(5,3,3), P = 9, unwhitened X (Sxx != I), lambda 0.7")


@pytest.mark.claim("LR-Eq3")
def test_qq_blocks(claim):
    claim.defined(*evidence.qq_blocks(REGISTRY["LR-Eq3"].printed), note="inverted funnel (2,2,6), lambda -1")


@pytest.mark.claim("LR-Eq4")
def test_rsm_definitions(claim):
    claim.defined(*evidence.rsm(REGISTRY["LR-Eq4"].printed), note="(4,3,3), P = 6, lambda 0.5")


@pytest.mark.claim("LR-Eq5")
def test_ntk_equals_jacobian_gram(claim):
    claim.holds(*evidence.ntk_definition(REGISTRY["LR-Eq5"].printed),
                note="(3,3,4), P = 5, lambda -0.8, output-major ordering")


@pytest.mark.claim("LR-A1")
def test_whitened_inputs(claim):
    claim.defined(*evidence.whitening(REGISTRY["LR-A1"].printed), note="P < Ni raises (A1 needs P >= Ni)")
