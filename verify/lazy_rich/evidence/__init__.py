"""Measurements of the LR- claims, one module per section of the paper: each function turns a result of ``numerics.lazy_rich`` (a flow, a
GD run, a Monte Carlo sample, a closed form) into the measurements of one claim, and for an
empirical claim the :class:`Setup` of its run beside the paper's settings.  Nothing here trains,
integrates or plots.  The error functions take the formula under test first, so
``tests/lazy_rich`` can feed them perturbed formulas.  Time is t/tau (tau = 1/lr on the 1/2-mean
loss).

Empirical claims are decided by the rules of :mod:`verify.statements`: a claim about each trained
network by unanimity over seeds (:func:`each`), the paper's qualitative words by the lexicon over
their readings (:func:`verify.lexicon.decide`, on a seed mean with its interval); the thresholds the
suite chose are readings and decide nothing.

Sections: :mod:`.errors` and :mod:`.exact` (the errors and exact residuals of the formulas),
:mod:`.setting` (Sec 3-4, App A.1-A.2, E), :mod:`.exact_solution` (Sec 4, App B; Thm 5.1),
:mod:`.representations` (Sec 5, App C), :mod:`.random_init` (App A.3), :mod:`.applications`
(Sec 5-6, App C.3, D), :mod:`.empirical` (the empirical claims; the paper's settings tables are
``theory.lazy_rich.settings``).  Every public name is re-exported here, so a check reads ``evidence.name``.
"""
from __future__ import annotations

from verify.lazy_rich.evidence.errors import (
    alg1_error, aligned_mode_error, balance_moments, balance_step_error,
    closed_form_riccati_error, converged_gram_error, converged_grams, eigen_error,
    equation_residual, evaluate, forgetting_error, gram_limit_distances, init_variable_error,
    kernel_movement, late_rate, layer_values_error, lazy_limit_slope, lazy_limit_sups,
    long_time_breakdown, mode_function, no_invertibility_errors, noise_subs, noise_z, noise_zs,
    ntk_formula_error, ntk_jacobian_error, printed_theorem_value, representation_stats,
    reversal_curve, reversal_error, riccati_residual, rich_lazy_stats, shallow_limit_errors,
    solution_error, weight_noise_curve, weight_noise_minimiser, weight_noise_subs,
    weight_recovery_error,
)
from verify.lazy_rich.evidence.exact import (
    balance_rate_nonzero_entries, cayley, gamma_residual, layer_relation_failures,
    mode_eigen_residual, rational_balanced, riccati_residual_exact, rich_limit_residual,
    series_mismatches, table3_mismatches, table_mismatches,
)
from verify.lazy_rich.evidence.setting import (
    ALG1_EXAMPLES, ALG_ROUNDOFF, FLOW, ROUNDOFF, algorithm1, assumptions_versus_prior_work,
    balance_definition, gradient_step, hidden_width, no_invertibility, ntk_definition,
    protocols, qq_blocks, regression_task, rsm, semantic_hierarchy, whitening, zero_balanced,
)
from verify.lazy_rich.evidence.exact_solution import (
    MATRIX_ROUNDOFF, RICCATI_EXAMPLES, SAME, S_TASK, balance_conserved, closed_form_riccati,
    drawn, eigendecomposition, fukumizu, initialisation_variables, invertible_b_nets,
    long_time, mode_ode, modes_along_flows, modes_along_gd, printed_theorem, riccati_exact,
    riccati_search, rich_and_lazy, stable_form, stable_long_flow, theorem_against_flows,
    theorem_against_gd, theorem_edge_cases, transition_limits, transition_rises,
)
from verify.lazy_rich.evidence.representations import (
    LIMIT_COLUMNS, SLOPE, convergence, delayed_rich_rate, kernel_distance_definition,
    layer_limits, layer_singular_values_at_convergence, representations, static_ntk,
    weight_recovery,
)
from verify.lazy_rich.evidence.random_init import (
    FIVE, TABLE1_ALPHAS, TABLE1_DIMS, Z_BAND, gaussian_balance, lecun_mean, table1,
    table1_variances, table2, table3,
)
from verify.lazy_rich.evidence.applications import (
    forgetting, input_noise, noise_against_lambda, noise_level, reversal, weight_noise,
)
from verify.lazy_rich.evidence.empirical import (
    A4_ANTI, A4_ANTI_MAX, A4_LAZY, A4_SQUARE, A4_START, A4_UNIFORM, ARCH_OPEN, D4_SIMILAR,
    FIG1B, FIG1C_WORDS, FINE, L105, L105_DELAY, L105_LAZY, L105_OPPOSITE, L105_RICH,
    L105_STATIC, L326, TRUTHS, architectures, architectures_setup, fig1c, fig1c_gap,
    fig1c_setup, fine_tuning, fine_tuning_setup, framing, framing_setup, mode_ratio_error,
    scale_map, scale_map_setup, transfer, transfer_setup,
)

__all__ = [
    "alg1_error", "aligned_mode_error", "balance_moments",
    "balance_step_error", "closed_form_riccati_error", "converged_gram_error",
    "converged_grams", "eigen_error", "equation_residual", "evaluate", "forgetting_error",
    "gram_limit_distances", "init_variable_error", "kernel_movement", "late_rate",
    "layer_values_error", "lazy_limit_slope", "lazy_limit_sups", "long_time_breakdown",
    "mode_function", "no_invertibility_errors", "noise_subs", "noise_z", "noise_zs",
    "ntk_formula_error", "ntk_jacobian_error", "printed_theorem_value", "representation_stats",
    "reversal_curve", "reversal_error", "riccati_residual", "rich_lazy_stats",
    "shallow_limit_errors", "solution_error", "weight_noise_curve", "weight_noise_minimiser",
    "weight_noise_subs", "weight_recovery_error", "balance_rate_nonzero_entries", "cayley",
    "gamma_residual", "layer_relation_failures", "mode_eigen_residual", "rational_balanced",
    "riccati_residual_exact", "rich_limit_residual", "series_mismatches", "table3_mismatches",
    "table_mismatches", "ALG1_EXAMPLES", "ALG_ROUNDOFF", "FLOW", "ROUNDOFF", "algorithm1",
    "assumptions_versus_prior_work", "balance_definition", "gradient_step", "hidden_width",
    "no_invertibility", "ntk_definition", "protocols", "qq_blocks", "regression_task", "rsm",
    "semantic_hierarchy", "whitening", "zero_balanced", "MATRIX_ROUNDOFF", "RICCATI_EXAMPLES",
    "SAME", "S_TASK", "balance_conserved", "closed_form_riccati", "drawn",
    "eigendecomposition", "fukumizu", "initialisation_variables", "invertible_b_nets",
    "long_time", "mode_ode", "modes_along_flows", "modes_along_gd", "printed_theorem",
    "riccati_exact", "riccati_search", "rich_and_lazy", "stable_form", "stable_long_flow",
    "theorem_against_flows", "theorem_against_gd", "theorem_edge_cases", "transition_limits",
    "transition_rises", "LIMIT_COLUMNS", "SLOPE", "convergence", "delayed_rich_rate",
    "kernel_distance_definition", "layer_limits", "layer_singular_values_at_convergence",
    "representations", "static_ntk", "weight_recovery", "FIVE", "TABLE1_ALPHAS", "TABLE1_DIMS",
    "Z_BAND", "gaussian_balance", "lecun_mean", "table1", "table1_variances", "table2",
    "table3", "forgetting", "input_noise", "noise_against_lambda", "noise_level", "reversal",
    "weight_noise", "A4_ANTI", "A4_ANTI_MAX", "A4_LAZY", "A4_SQUARE", "A4_START", "A4_UNIFORM",
    "ARCH_OPEN", "D4_SIMILAR", "FIG1B", "FIG1C_WORDS", "FINE", "L105", "L105_DELAY",
    "L105_LAZY", "L105_OPPOSITE", "L105_RICH", "L105_STATIC", "L326", "TRUTHS",
    "architectures", "architectures_setup", "fig1c", "fig1c_gap", "fig1c_setup", "fine_tuning",
    "fine_tuning_setup", "framing", "framing_setup", "mode_ratio_error", "scale_map",
    "scale_map_setup", "transfer", "transfer_setup",
]
