"""Sec 2-3: the GDLN formalism, the race reduction and the ReLN (MHS-Eq(1)..(6), MHS-Asm2.1,
MHS-Fig1, MHS-Def3.1, MHS-C3.1).  Runs and flows come from fixtures (``clock_runs``,
``race_runs``, ``relu_equivalence``, ``tasks``)."""
import pytest

from numerics.haste_slowly import graph as G
from verify.haste_slowly import evidence as E
from verify.haste_slowly import settings

CASES = [G.random_case(s) for s in (0, 1, 2)]


@pytest.mark.claim("MHS-Eq(1)")
def test_forward_pass_is_the_sum_over_gated_paths(claim):
    claim.defined(*E.forward_pass(CASES),
                  note="2 inputs, 2 outputs, paths of lengths 2 and 3, 7 datapoints, 3 seeds")


@pytest.mark.claim("MHS-Eq(2)", "MHS-Eq(4)")
def test_loss_and_statistics_use_all_n_datapoints(claim):
    claim.defined(*E.loss_and_statistics(CASES))


@pytest.mark.claim("MHS-Eq(3)")
def test_path_form_gradient_is_exact(claim):
    claim.holds(E.path_gradient(CASES), note="edges on several paths, cross-source Sigma^x(j,p)")


@pytest.mark.claim("MHS-Eq(3)")
def test_time_constant_of_gd_on_the_mean_loss(claim, clock_runs):
    printed, corrected, err = E.clock(clock_runs)
    claim.erratum(printed=printed, corrected=corrected,
                  counterexample=f"N = 6, eps = 2e-3: tau = 1/(N eps) makes the flow N times too "
                                 f"fast (rel err {err:.2g})")


@pytest.mark.claim("MHS-Eq(5)")
def test_aligned_weights_stay_aligned(claim, race_runs):
    claim.holds(E.race_checks(race_runs)["aligned"],
                note="2 pathways, 6 out, 5 in, 4 hidden, 3 modes, Sigma^x with variance off V")


@pytest.mark.claim("MHS-Eq(6)")
def test_race_reduction_needs_shared_output_vectors(claim, race_runs):
    m = E.race_checks(race_runs)
    claim.holds_if("paths into one node share its output singular vectors U", under=m["shared"],
                   without=m["apart"], counterexample=f"U_1^T U_2 = -0.5 I: Eq. (6) misses the "
                                                      f"overlap, rel err {m['apart'].value:.2g}")


@pytest.mark.claim("MHS-Asm2.1")
def test_mutual_diagonalisability_of_the_tasks(claim, tasks):
    under, without = E.tasks_diagonalisable(tasks[0])
    claim.holds_if("the context-symmetric hierarchical tasks of Sec 5/6", under=under,
                   without=without, counterexample=f"Sec 4 (H, Ring, Cross) common pathway: "
                                                   f"offdiag {without.value:.4f}")
    claim.reproduced(under, setup=settings.tasks(tasks[1]))


@pytest.mark.claim("MHS-C3.1")
def test_step_gated_gdln_reproduces_relu_training(claim, relu_equivalence):
    under, without, drift = E.relu_equivalence(relu_equivalence)
    claim.holds_if("gates recomputed at every step, G(x, t)", under=under, without=without,
                   counterexample=drift)


@pytest.mark.claim("MHS-Def3.1")
def test_relN_definition_is_consistent_at_init(claim):
    claim.defined(E.reln_definition(), note="index i in {0..N} read as {1..N}")


@pytest.mark.claim("MHS-Fig1")
def test_schematic_gradient_is_a_sum_over_paths(claim):
    claim.defined(E.path_gradient(CASES[:1], "Fig 1b: gradient of each edge as the sum over the "
                                             "paths through it, split at the edge into sbar and "
                                             "tbar, vs autograd: max rel err"))
