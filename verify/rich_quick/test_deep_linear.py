"""Deep linear networks, GRQ App. B.2 and Sec. 4 (L133): isotropic initialisation, the
polynomial identities, the preconditioner and the rich-limit implicit bias, against autograd and
gradient flow (all rates 1, as the section assumes)."""
import pytest

from theory.registry import REGISTRY
from verify.rich_quick import figures as F
from verify.rich_quick.evidence import linear as lc

CASES = [(4, 3, -0.7), (3, 2, -0.2), (5, 1, -1.3), (4, 4, -2.0)]      # (h = d, l, delta <= 0)


@pytest.mark.claim("GRQ-DefB.7")
def test_isotropic_init_exists_only_for_nonpositive_delta(claim):
    claim.holds_if(REGISTRY["GRQ-DefB.7"].condition, **lc.isotropic_init())


@pytest.mark.claim("GRQ-Eq(116)-(117)", "GRQ-LemB.8")
def test_polynomial_identities_and_deep_preconditioner(claim):
    formulas = {**REGISTRY["GRQ-Eq(116)-(117)"].printed, "M": REGISTRY["GRQ-LemB.8"].printed}
    claim.holds(*lc.deep_identities(formulas, CASES), note=f"(h = d, l, delta) in {CASES}")


@pytest.mark.claim("GRQ-ThmB.9")
def test_rich_limit_preconditioner_and_implicit_bias(claim):
    r = REGISTRY["GRQ-ThmB.9"]
    claim.erratum(**lc.rich_limit(r.printed, r.corrected))


@pytest.mark.claim("GRQ-Claim-DeepQ")
def test_main_text_exponent_and_depth_claim(claim, report_figure):
    rq = REGISTRY["GRQ-Claim-DeepQ"]
    claim.erratum(**lc.deep_exponent(rq.printed, rq.corrected),
                  note="GF from balanced rank-one chains (delta = 0, d = 3, n = 1)")
    d = lc.depth_alignment(rq.corrected)
    claim.holds_if("y/(X beta0) > 0 (the ray through beta0 meets the interpolating set)",
                   under=d["under"], without=d["without"], counterexample=d["counterexample"],
                   note="Eq. (119) minimisers, X = [1, .5, -.3], beta0 = [.2, .6, .1]")
    report_figure(*F.depth_alignment(d["cos"], d["depths"]))
