"""Weights, representations and NTK across lambda: LR-Thm5.2, LR-ThmC.3, LR-ThmC.4,
LR-Sec5-Rep-claims, LR-DefC.2, LR-ThmC.5, LR-C.2.4-relations, LR-Sec5-Arch (Fig. 5, on the suite's
sizes: App E.7 masks them), LR-ThmC.6.  Time is t/tau = lr x steps (tau = 1/lr, 1/2-mean loss)."""
import pytest

from numerics.lazy_rich import configs
from theory.registry import REGISTRY
from verify.lazy_rich import evidence, figures


@pytest.mark.claim("LR-Thm5.2")
def test_weights_are_recovered_up_to_an_orthogonal_matrix(claim, recovery_flows):
    claim.holds(*evidence.weight_recovery(REGISTRY["LR-Thm5.2"].printed, recovery_flows))


@pytest.mark.claim("LR-ThmC.3")
def test_convergence_to_the_global_minimum_and_converged_grams(claim, convergence_flow):
    claim.holds(*evidence.convergence(REGISTRY["LR-ThmC.3"].printed, convergence_flow))


@pytest.mark.claim("LR-ThmC.4")
def test_large_layer_gram_tends_to_identity_only_if_it_is_the_narrow_side(claim):
    claim.erratum(**evidence.layer_limits(REGISTRY["LR-ThmC.4"].printed, REGISTRY["LR-ThmC.4"].corrected,
                                          REGISTRY["LR-ThmC.3"].printed),
                  counterexample="inverted funnel (2,2,6), lambda = 80: W2W2^T/lambda is near the rank-2 projector "
                                 "U~U~^T, a whole rank away from I_6 (lambda -> -oo: funnel W1^TW1/|lambda| likewise)")


@pytest.mark.claim("LR-Sec5-Rep-claims")
def test_converged_representations_of_the_hierarchy(claim, report_figure, scale, hierarchy):
    claim.holds_if(REGISTRY["LR-Sec5-Rep-claims"].condition,
                   **evidence.representations(REGISTRY["LR-Sec5-Rep-claims"].printed, hierarchy),
                   counterexample="lambda = 10: RSM_O of Eq. 4 equals RSM_I and is far from I; only the Gram W2W2^T ~ 10 I")
    report_figure(*figures.hierarchy_grams(hierarchy, configs.HIERARCHY[scale].steps))


@pytest.mark.claim("LR-DefC.2")
def test_kernel_distance_properties(claim):
    claim.defined(*evidence.kernel_distance_definition())


@pytest.mark.claim("LR-ThmC.5")
def test_ntk_formula_and_its_static_limit(claim, ntk_flow):
    claim.holds_if(REGISTRY["LR-ThmC.5"].condition, **evidence.static_ntk(REGISTRY["LR-ThmC.5"].printed, ntk_flow),
                   counterexample="inverted funnel (2,2,6) at lambda = +80 and funnel (6,2,2) at -80: the NTK moves by O(1)")


@pytest.mark.claim("LR-C.2.4-relations")
def test_converged_layer_singular_values(claim):
    claim.holds(*evidence.layer_singular_values_at_convergence(REGISTRY["LR-C.2.4-relations"].printed))


@pytest.mark.claim("LR-Sec5-Arch")
def test_kernel_movement_by_architecture(claim, report_figure, architectures, architectures_alt):
    claim.reproduced(*evidence.architectures(architectures),
                     setup=evidence.architectures_setup(architectures, architectures_alt))
    report_figure(*figures.architectures(architectures))


@pytest.mark.claim("LR-ThmC.6")
def test_delayed_rich_rate_is_inverse_in_lambda(claim):
    claim.holds_if(REGISTRY["LR-ThmC.6"].condition, **evidence.delayed_rich_rate(REGISTRY["LR-ThmC.6"].printed.slow_rate),
                   counterexample="inverted funnel with lambda < 0: the late rate grows like |lambda| (lazy, fast)")
