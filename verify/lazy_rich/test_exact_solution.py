"""Sec 4 and App B: Riccati equation (LR-Lem4.1), Fukumizu's solution (LR-Eq7), eigendecomposition
of F (LR-Lem4.2), B, C, D (LR-Eq10-12), Theorem 4.3, the stable form B.5, its verification B.5.1,
the long-time instability (LR-Impl) and the conservation of the balance (LR-ThmA.2).
Time is t/tau (tau = 1/lr on the 1/2-mean loss)."""
import pytest

from numerics.lazy_rich import configs
from numerics.lazy_rich import solution as so
from theory.registry import REGISTRY
from verify.lazy_rich import evidence
from verify.lazy_rich.conftest import CONFIGS


@pytest.mark.claim("LR-Lem4.1")
def test_riccati_equation_is_exact_for_rational_balanced_weights(claim):
    claim.holds(*evidence.riccati_exact(REGISTRY["LR-Lem4.1"].printed))


@pytest.mark.claim("LR-Lem4.1")
def test_riccati_equation_holds_for_any_shape_and_lambda(claim):
    claim.holds(*evidence.riccati_search(REGISTRY["LR-Lem4.1"].printed))


@pytest.mark.claim("LR-Eq7")
def test_fukumizu_solution_matches_flow_including_singular_F(claim, fukumizu_flows):
    claim.holds(*evidence.fukumizu(fukumizu_flows))


@pytest.mark.claim("LR-Lem4.2")
def test_eigendecomposition_of_F(claim):
    claim.holds(*evidence.eigendecomposition(REGISTRY["LR-Lem4.2"].printed, CONFIGS))


@pytest.mark.claim("LR-Eq10-12")
def test_initialisation_variables_project_Q0_on_the_eigenbasis(claim):
    claim.holds(*evidence.initialisation_variables(REGISTRY["LR-Eq10-12"].printed, CONFIGS))


@pytest.mark.claim("LR-Thm4.3")
def test_exact_solution_matches_gradient_flow(claim, theorem_flows):
    claim.holds(*evidence.theorem_against_flows(theorem_flows))


@pytest.mark.claim("LR-Thm4.3")
def test_exact_solution_edge_cases(claim, edge_flows):
    claim.holds(*evidence.theorem_edge_cases(so.qq_exact, edge_flows))


@pytest.mark.claim("LR-Thm4.3")
def test_printed_matrix_form_equals_the_vectorised_solution(claim):
    claim.holds(*evidence.printed_theorem(REGISTRY["LR-Thm4.3"].printed))


@pytest.mark.claim("LR-Thm4.3")
def test_exact_solution_matches_batched_gradient_descent(claim, scale, gradient_descent):
    """Many seeds and lambdas as one torch program; GD deviates from the flow by O(lr)."""
    config = configs.GRADIENT_DESCENT[scale]
    claim.holds(*evidence.theorem_against_gd(so.qq_exact, gradient_descent, config.lrs),
                note=f"{len(config.lams) * len(config.seeds)} nets ({len(config.lams)} lambdas x {len(config.seeds)} "
                     f"seeds, (5,3,3), P = 10) as one batch, t/tau up to 2")


@pytest.mark.claim("LR-ThmB.5")
def test_stable_form_equals_theorem_and_reaches_far_times(claim):
    claim.holds(*evidence.stable_form(REGISTRY["LR-ThmB.5"].printed, CONFIGS))


@pytest.mark.claim("LR-ThmB.5")
def test_stable_form_matches_long_flow(claim, long_flow):
    claim.holds(*evidence.stable_long_flow(long_flow))


@pytest.mark.claim("LR-Impl")
def test_plain_form_breaks_down_where_stable_form_does_not(claim):
    claim.holds(*evidence.long_time(so.qq_exact, so.qq_stable))


@pytest.mark.claim("LR-B.5.1")
def test_closed_form_satisfies_the_riccati_equation(claim):
    claim.holds(*evidence.closed_form_riccati(REGISTRY["LR-B.5.1"].printed))


@pytest.mark.claim("LR-ThmA.2")
def test_balance_is_conserved(claim, unwhitened):
    claim.holds(*evidence.balance_conserved(REGISTRY["LR-ThmA.2"].printed, *unwhitened))
