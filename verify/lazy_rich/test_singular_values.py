"""Theorem 5.1 (singular values from a task-aligned init) and the Sec 5 claims on rich vs lazy
singular-value dynamics (LR-Sec5-SV-claims).  Time is t/tau (tau = 1/lr, 1/2-mean loss)."""
import numpy as np
import pytest

from theory.registry import REGISTRY
from verify.lazy_rich import evidence, figures


@pytest.mark.claim("LR-Thm5.1")
def test_transition_function_solves_the_mode_ode(claim):
    printed = REGISTRY["LR-Thm5.1"].printed
    claim.holds(*evidence.mode_ode(printed.trajectory, printed.mode_rhs))


@pytest.mark.claim("LR-Thm5.1")
def test_transition_function_matches_the_full_matrix_flow(claim, aligned_flows):
    claim.holds(*evidence.modes_along_flows(REGISTRY["LR-Thm5.1"].printed.trajectory, aligned_flows, [0.05, 0.4, 1.0]))


@pytest.mark.claim("LR-Thm5.1")
def test_limits_of_the_transition_function(claim):
    claim.holds(*evidence.transition_limits(REGISTRY["LR-Thm5.1"].printed))


@pytest.mark.claim("LR-Thm5.1")
def test_transition_rises_from_zero_to_one_only_if_the_mode_is_nonzero(claim):
    claim.holds_if(REGISTRY["LR-Thm5.1"].condition, **evidence.transition_rises(REGISTRY["LR-Thm5.1"].printed.gamma),
                   counterexample="lambda = 0, s0 = 0: s(t) = 0 for all t (a fixed point), gamma = 0; it never rises to 1")


@pytest.mark.claim("LR-Thm5.1", "LR-Sec5-SV-claims")
def test_singular_value_trajectories_across_lambda(claim, report_figure, aligned_gd):
    """Fig. 3 reproduction: theory lines, batched GD markers; aligned init, s0 = 1e-3."""
    trajectory, s0 = REGISTRY["LR-Thm5.1"].printed.trajectory, np.full(3, 1e-3)
    claim.holds(*evidence.modes_along_gd(trajectory, aligned_gd, s0))
    report_figure(*figures.singular_values(evidence.mode_function(trajectory), aligned_gd, s0))


@pytest.mark.claim("LR-Sec5-SV-claims")
def test_rich_order_and_lazy_common_rate(claim):
    claim.holds(*evidence.rich_and_lazy(REGISTRY["LR-Thm5.1"].printed.gamma, REGISTRY["LR-Sec5-SV-claims"].printed))
