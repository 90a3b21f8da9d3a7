"""The layers hold (docs/DESIGN.md, "Layout"): theory imports nothing from numerics or verify;
numerics imports nothing from verify (it runs and returns results, it decides and records
nothing); a verify test reads like its claim, fixture -> evidence -> record -> figure: at most
25 lines, no loop (a comprehension included), no measurement of its own making, no simulation
(no call into numerics; handing a numerics function to an evidence function as the formula
under test is fine) and no plotting in its body."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LONGEST_TEST_BODY = 25
PLOTTING = {"plt", "matplotlib", "subplots", "figure"}


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imported(tree) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


@pytest.mark.parametrize("package, forbidden", [("theory", ("numerics", "verify")),
                                                ("numerics", ("verify",))])
def test_a_lower_layer_imports_nothing_from_the_layers_above(package, forbidden):
    leaks = {str(p.relative_to(ROOT)): sorted(m for m in imported(ast.parse(p.read_text()))
                                              if m.split(".")[0] in forbidden)
             for p in modules(package)}
    leaks = {k: v for k, v in leaks.items() if v}
    assert not leaks, f"{package}/ imports from {forbidden}: {leaks}"


#: numerics modules that hold data, not simulations: a test may pick its configuration in its body
DATA = ("numerics.ran", "configs")


def numerics_names(tree) -> set[str]:
    """Names a module binds from numerics' simulations (``from numerics... import x``,
    ``import numerics...``), not from its configuration records."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "numerics":
            if node.module == DATA[0] or node.module.endswith("." + DATA[1]):
                continue
            out |= {a.asname or a.name for a in node.names if a.name != DATA[1]}
        elif isinstance(node, ast.Import):
            out |= {a.asname or a.name.split(".")[0] for a in node.names
                    if a.name.split(".")[0] == "numerics"}
    return out


def verify_test_functions():
    for path in sorted((ROOT / "verify").rglob("test_*.py")):
        tree = ast.parse(path.read_text())
        sim = numerics_names(tree)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                yield path, node, sim


def _root(func) -> str:
    """The name a call starts from (``so`` in ``so.qq_exact(...)``)."""
    while isinstance(func, ast.Attribute):
        func = func.value
    return func.id if isinstance(func, ast.Name) else ""


COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def builds_measurement(node) -> bool:
    """``claim.measure(name, value, op, threshold, ...)`` in a test body: a comparison the test
    sets itself, which belongs in the paper's evidence (one rule per kind of sentence there)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "measure" and len(node.args) >= 3)


def body_problems(node: ast.FunctionDef, sim: set[str]) -> list[str]:
    body = node.body[1:] if (node.body and isinstance(node.body[0], ast.Expr)
                             and isinstance(node.body[0].value, ast.Constant)) else node.body
    problems = []
    lines = (body[-1].end_lineno - body[0].lineno + 1) if body else 0
    if lines > LONGEST_TEST_BODY:
        problems.append(f"{lines} lines")
    for sub in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(sub, (ast.For, ast.While, ast.AsyncFor)):
            problems.append(f"a loop (line {sub.lineno})")
        elif isinstance(sub, COMPREHENSIONS):
            problems.append(f"a comprehension loop (line {sub.lineno})")
        elif builds_measurement(sub):
            problems.append(f"builds a measurement (line {sub.lineno})")
        elif isinstance(sub, ast.Name) and sub.id in PLOTTING:
            problems.append(f"plotting with {sub.id} (line {sub.lineno})")
        elif isinstance(sub, ast.Call) and _root(sub.func) in sim:
            problems.append(f"calls numerics' {_root(sub.func)} (line {sub.lineno})")
    return problems


def test_the_body_rules_catch_each_kind():
    """Each rule rejects a body that breaks it, and passes one that reads like its claim."""
    def problems(code):
        return [p.split(" (")[0] for p in body_problems(ast.parse(code).body[0], {"run"})]
    assert problems("def test(claim):\n    claim.holds(*[m for m in ms])") == ["a comprehension loop"]
    assert problems("def test(claim):\n    claim.holds(claim.measure('gap', g, '<', 0.1))") == [
        "builds a measurement"]
    assert problems("def test(claim):\n    r = run(1)") == ["calls numerics' run"]
    assert problems("def test(claim, fit):\n    claim.holds(*E.fit_evidence(fit))") == []


def _kind(problem: str) -> str:
    return {"a comprehension loop": "comprehension", "builds a measurement": "measurement"}.get(
        problem.split(" (")[0], "")


def test_every_verify_test_reads_like_its_claim():
    """No test body runs, loops (a comprehension included), plots or builds its own measurement,
    beyond the :data:`DEBTS` it had when the comprehension and measurement rules came (issue 27):
    a new one fails, and so does a debt paid but still listed, so the list only shrinks."""
    found = {f"{path.relative_to(ROOT)}::{node.name}": problems
             for path, node, sim in verify_test_functions() if (problems := body_problems(node, sim))}
    bad = {k: v for k, v in found.items()
           if any(_kind(p) not in DEBTS.get(k, set()) for p in v)}
    assert not bad, (f"{len(bad)} verify tests run, loop or plot in their body or build their own "
                     f"measurement (move it to a fixture, evidence.py or figures.py): " + "; ".join(
                         f"{k}: {', '.join(sorted(set(v)))}" for k, v in sorted(bad.items())))
    paid = {k: sorted(kinds - {_kind(p) for p in found.get(k, [])}) for k, kinds in DEBTS.items()}
    paid = {k: v for k, v in paid.items() if v}
    assert not paid, f"debts paid: strike them from DEBTS in tests/test_layers.py: {paid}"


#: the modules that may rename files into place: the one atomic writer, and the reports'
#: generations, which swap whole folders and the link to the current one
RENAMERS = {"numerics/atomic.py", "verify/report/generations.py"}


def test_one_atomic_writer():
    """Every file a run keeps is written by ``numerics.atomic`` (issue 27, one of each): no other
    module makes temporary files and renames them over their targets."""
    found = []
    for path in sorted(p for root in ("numerics", "verify", "theory") for p in (ROOT / root).rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text())):
            call = node.func if isinstance(node, ast.Call) else None
            if (isinstance(call, ast.Attribute) and rel not in RENAMERS
                    and (call.attr == "rename" or (call.attr == "replace" and _root(call) == "os"))):
                found.append(f"{rel}:{node.lineno}")
    assert not found, f"files renamed into place outside numerics.atomic: {found}"


#: verify tests whose bodies loop through a comprehension or build their own measurement, as
#: found when those two rules came (issue 27); each is paid by moving the loop or the comparison
#: into the paper's evidence, which for a test with a paper-scale record is also a re-made record
DEBTS: dict[str, set[str]] = {
    "verify/bias/test_exp_images.py::test_cifar_bias_drives_alignment": {"comprehension"},
    "verify/bias/test_theory_bias_mode.py::test_eigen_statements_and_eq5_hold_symbolically":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_bias_mode.py::test_bias_mode_leads_for_every_c_but_its_speed_depends_on_c":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_bias_mode.py::test_bias_mode_plateau_outputs_the_mean_label":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_flows.py::test_app_b_updates_against_autograd": {"measurement"},
    "verify/bias/test_theory_flows.py::test_decoupled_flow_against_the_transformed_full_flow":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_flows.py::test_scalar_mode_ode": {"comprehension", "measurement"},
    "verify/bias/test_theory_flows.py::test_early_bias_growth_sign": {"measurement"},
    "verify/bias/test_theory_flows.py::test_kink_rate_is_the_total_derivative":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_hitting.py::test_delay_matches_the_mode_law_with_rescaled_a0":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_setting.py::test_setting_loss_correlations_and_clock_are_consistent":
        {"measurement"},
    "verify/bias/test_theory_setting.py::test_one_gd_step_is_one_step_of_the_flow_with_tau_p_eps":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_setting.py::test_augmented_input_is_a_bias_of_strength_c":
        {"measurement"},
    "verify/bias/test_theory_setting.py::test_network_definitions_as_printed_and_corrected":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_setting.py::test_svd_mapping_as_printed_and_corrected":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_setting.py::test_one_hot_inputs_share_v_only_with_equal_overlap_labels":
        {"comprehension", "measurement"},
    "verify/bias/test_theory_setting.py::test_effective_rank_extremes": {"measurement"},
    "verify/bias_workshop/test_exp_images.py::test_half_width_linear_network_matches_the_relu_network":
        {"comprehension"},
    "verify/bias_workshop/test_theory_derived.py::test_effective_a0_of_a_small_random_init":
        {"measurement"},
    "verify/bias_workshop/test_theory_derived.py::test_hitting_time_and_delay_identities":
        {"comprehension", "measurement"},
    "verify/bias_workshop/test_theory_differences.py::test_workshop_only_content_and_the_half_width":
        {"comprehension", "measurement"},
    "verify/bias_workshop/test_theory_differences.py::test_same_quantities_written_differently":
        {"comprehension", "measurement"},
    "verify/bias_workshop/test_theory_differences.py::test_long_paper_only_results":
        {"comprehension", "measurement"},
    "verify/bias_workshop/test_theory_setting.py::test_models_match_the_harness_and_coincide_when_always_on":
        {"measurement"},
    "verify/bias_workshop/test_theory_setting.py::test_loss_and_one_gd_step_follow_the_stated_convention":
        {"measurement"},
    "verify/bias_workshop/test_theory_setting.py::test_correlations_and_shared_v_on_the_hierarchies":
        {"measurement"},
    "verify/bias_workshop/test_theory_setting.py::test_product_stays_diagonal_only_from_a_decoupled_init":
        {"comprehension", "measurement"},
    "verify/bias_workshop/test_theory_setting.py::test_tau_is_one_over_n_eps_in_trained_networks":
        {"measurement"},
    "verify/haste_slowly/test_contexts.py::test_relu_units_serve_c_minus_one_contexts":
        {"comprehension"},
    "verify/haste_slowly/test_contexts.py::test_common_pathway_closed_form": {"comprehension"},
    "verify/haste_slowly/test_contexts.py::test_balanced_two_layer_pathway": {"measurement"},
    "verify/haste_slowly/test_contexts.py::test_contextual_closed_form":
        {"comprehension", "measurement"},
    "verify/haste_slowly/test_contexts.py::test_effect_of_the_number_of_contexts":
        {"comprehension"},
    "verify/haste_slowly/test_depth.py::test_variance_appears_with_depth": {"comprehension"},
    "verify/haste_slowly/test_section4.py::test_reln_structure_and_training_variants":
        {"comprehension"},
    "verify/haste_slowly/test_section4.py::test_relu_loss_and_outputs_match_the_reln":
        {"comprehension"},
    "verify/haste_slowly/test_section4.py::test_latent_geometry_matches": {"comprehension"},
    "verify/haste_slowly/test_section4.py::test_few_gating_patterns_make_modules":
        {"comprehension", "measurement"},
    "verify/haste_slowly/test_section4.py::test_reln_gating_constant_from_the_start":
        {"comprehension"},
    "verify/haste_slowly/test_section4.py::test_section4_loss_curves": {"comprehension"},
    "verify/haste_slowly/test_section4.py::test_removing_datapoints_cannot_speed_up":
        {"measurement"},
    "verify/haste_slowly/test_xor_margin.py::test_positive_pathway_statistics": {"measurement"},
    "verify/haste_slowly/test_xor_margin.py::test_linear_pathway_mode_and_trajectory":
        {"comprehension", "measurement"},
    "verify/haste_slowly/test_xor_margin.py::test_linear_gdln_loss": {"measurement"},
    "verify/haste_slowly/test_xor_margin.py::test_xor_gdln_loss_reaches_zero": {"measurement"},
    "verify/rich_quick/test_appendix_d_settings.py::test_compute_paragraph_refers_to_figure6_panels":
        {"measurement"},
    "verify/rich_quick/test_fig6.py::test_fig6_panels_together": {"comprehension"},
    "verify/rich_quick/test_single_neuron_exact.py::test_mu_phi_rates_follow_from_the_chain_rule":
        {"comprehension", "measurement"},
    "verify/rich_quick/test_single_neuron_exact.py::test_balanced_mu_printed_and_corrected":
        {"comprehension"},
    "verify/rich_quick/test_single_neuron_exact.py::test_v_and_omega_rates_under_the_unit_rate_reading":
        {"comprehension"},
    "verify/rich_quick/test_single_neuron_function_space.py::test_M_in_terms_of_beta_and_delta":
        {"comprehension"},
    "verify/rich_quick/test_single_neuron_function_space.py::test_limits_of_M_symbolically":
        {"comprehension", "measurement"},
    "verify/rich_quick/test_single_neuron_model.py::test_printed_ntk_equals_autograd_ntk":
        {"comprehension"},
    "verify/shared/test_effective_rank.py::test_printed_sign_contradicts_the_stated_extremes":
        {"comprehension", "measurement"},
    "verify/shared/test_effective_rank.py::test_numeric_effective_rank_matches_the_corrected_formula":
        {"measurement"},
    "verify/shared/test_mode_law.py::test_closed_form_solves_the_mode_ode":
        {"comprehension", "measurement"},
    "verify/shared/test_mode_law.py::test_closed_form_matches_the_matrix_flow_from_aligned_balanced_init":
        {"measurement"},
    "verify/shared/test_mode_law.py::test_closed_form_needs_an_aligned_balanced_init":
        {"measurement"},
    "verify/shared/test_mode_law.py::test_layer_odes_multiply_to_the_balanced_mode_ode":
        {"measurement"},
    "verify/shared/test_mode_law.py::test_layer_odes_conserve_balance_along_the_flow":
        {"measurement"},
    "verify/shared/test_mode_law.py::test_hitting_time_needs_the_threshold_below_the_plateau":
        {"measurement"},
    "verify/shared/test_mode_law.py::test_time_to_reach_inverts_the_trajectory": {"measurement"},
    "verify/shared/test_mode_law_training.py::test_trained_linear_networks_follow_the_mode_law":
        {"measurement"},
    "verify/shared/test_mode_law_training.py::test_trained_networks_reach_each_threshold_when_the_formula_says":
        {"measurement"},
    "verify/shared/test_mode_law_training.py::test_small_random_init_stays_nearly_balanced_under_gd":
        {"measurement"},
}
