"""Assumptions, Algorithm 1, tasks and protocols: LR-A2, LR-A3, LR-A4, LR-DefA.1, LR-Alg1, LR-T1,
LR-T2, LR-Exp, LR-Claim-Weaker, LR-A.2-claims.  Time is t/tau (tau = 1/lr, 1/2-mean loss)."""
import pytest

from numerics.lazy_rich import configs
from theory.registry import REGISTRY
from verify.lazy_rich import evidence

#: the protocols the suite runs, (Ni, Nh, No, P), read from numerics/lazy_rich/configs.py
PROTOCOLS = dict({f"Fig1B (released) {configs.FRAMING['ci'].dims}": (*configs.FRAMING["ci"].dims,
                                                                     configs.FRAMING["ci"].n_samples),
                  "Fig11 (5,5,5) P=25": (5, 5, 5, 25), "Fig4 hierarchy (8,8,8) P=8": (8, 8, 8, 8)},
                 **{f"Fig5 {name} P={configs.ARCH.n_samples}": (ni, min(ni, no), no, configs.ARCH.n_samples)
                    for name, ni, no in configs.ARCHITECTURES})


@pytest.mark.claim("LR-Alg1")
def test_algorithm1_builds_lambda_balanced_weights_for_any_shape(claim):
    claim.holds(*evidence.algorithm1(REGISTRY["LR-Alg1"].printed))


@pytest.mark.claim("LR-A2", "LR-DefA.1")
def test_balance_definition_matches_the_printed_form(claim):
    claim.defined(*evidence.balance_definition(REGISTRY["LR-A2"].printed, REGISTRY["LR-DefA.1"].printed),
                  note="(2,2,5) lambda 1.3, (5,2,2) lambda -0.4, (3,3,3) lambda 0")


@pytest.mark.claim("LR-A3")
def test_lambda_balance_feasibility_needs_the_hidden_width(claim, padded_flow):
    claim.defined(*evidence.hidden_width(REGISTRY["LR-A3"].printed, *padded_flow))


@pytest.mark.claim("LR-A4")
def test_zero_balanced_is_lambda_zero(claim):
    claim.defined(*evidence.zero_balanced(REGISTRY["LR-A4"].printed))


@pytest.mark.claim("LR-T1")
def test_random_regression_task(claim):
    claim.defined(*evidence.regression_task(), note="(Ni, No, P) = (5, 3, 10)")


@pytest.mark.claim("LR-T2")
def test_semantic_hierarchy(claim):
    claim.defined(*evidence.semantic_hierarchy(REGISTRY["LR-T2"].printed))


@pytest.mark.claim("LR-Exp")
def test_protocol_defaults_satisfy_the_assumptions(claim):
    claim.defined(*evidence.protocols(PROTOCOLS),
                  note="App E values are masked; the suite's protocols (numerics/lazy_rich/configs.py): "
                       + ", ".join(PROTOCOLS))


@pytest.mark.claim("LR-Claim-Weaker")
def test_assumptions_versus_prior_work(claim, braun_flows):
    """Braun et al. (2022) allow zero-balanced whitened nets with Nh >= min(Ni, No); A3 asks Nh = min(Ni, No)."""
    claim.erratum(**evidence.assumptions_versus_prior_work(*braun_flows))


@pytest.mark.claim("LR-A.2-claims")
def test_no_invertibility_or_full_rank_needed(claim, no_invertibility_flows):
    claim.holds(*evidence.no_invertibility(no_invertibility_flows))
