"""GRQ Figs. 3, 4 (left) and 8: the exact whitened single-neuron paths against gradient flow
(App. D.2, L972; gradient-flow time t).  Runs: ``numerics.rich_quick.single_neuron_paths`` at
configs.FIG3, FIG4, FIG8.  The paper does not give the deltas or the rates; each claim is also
decided at other values (configs.FIG*_ALT), and on the paths D.2's own integrator simulates."""
import pytest

from theory.registry import REGISTRY
from verify.rich_quick import evidence as E
from verify.rich_quick import figures as F


def _sensitivity(grq, figure, measure_fn, directions):
    run, alt = grq.paths(figure), grq.paths(figure, alt=True)
    unknown = E.outcomes_unchanged(f"Fig. {figure}", measure_fn(run), measure_fn(alt))
    return {"deltas": unknown, "rates (eta_a, eta_w)": unknown,
            "integrator": E.integrator_unchanged(f"Fig. {figure}", run, directions)}


@pytest.mark.claim("GRQ-Fig3")
def test_fig3_exact_dynamics_against_gradient_flow(claim, grq, report_figure):
    run = grq.paths("3")
    claim.reproduced(*E.fig3(run), setup=E.paths_setup(
        run, "3", _sensitivity(grq, "3", E.fig3, E.fig3_directions)))
    report_figure(*F.fig3(run))


@pytest.mark.claim("GRQ-Fig4")
def test_fig4_whitened_beta_trajectories(claim, grq, report_figure):
    run = grq.paths("4")
    sensitivity = _sensitivity(grq, "4", E.fig4, lambda r, which: [E.fig4_order(r, which)])
    sensitivity["horizon"] = E.outcomes_unchanged("Fig. 4", [E.fig4_order(run)],
                                                  [E.fig4_order(run, t_max=20.0)],
                                                  changed="D.2's horizon t <= 20")
    claim.reproduced(*E.fig4(run), setup=E.paths_setup(run, "4", sensitivity),
                     note="t runs to 60 (the delta = -10 path needs it), stiffness ratio ~|delta|")
    report_figure(*F.fig4(run))


@pytest.mark.claim("GRQ-Fig8")
def test_fig8_temporal_dynamics(claim, grq, report_figure):
    run, alt = grq.paths("8"), grq.paths("8", alt=True)
    unknown = E.outcomes_unchanged("Fig. 8", E.fig8(run), E.fig8(alt))
    integrator = E.paper_integrator_agreement(run, ("nu", "phi", "omega", "a", "w"), "Fig. 8")
    claim.reproduced(*E.fig8(run), setup=E.paths_setup(run, "8", {
        "deltas": unknown, "rates (eta_a, eta_w)": unknown, "horizon": unknown,
        "integrator": integrator}),
        note="'zeta' is undefined in the paper and read as omega = w^T beta_*")
    report_figure(*F.fig8(run))


@pytest.mark.claim("GRQ-Fig4")
def test_fig4_lowrank_limits_follow_eq72(claim, grq, report_figure):
    z_coeff, eq72 = REGISTRY["GRQ-ThmA.2"].corrected.z_coeff, REGISTRY["GRQ-Eq(70)-(72)"].printed.eq72
    run, alt = grq.lowrank(), grq.lowrank(alt=True)
    predicted = E.lowrank_prediction(run, z_coeff, eq72)
    ms = E.fig4_lowrank(run, predicted)
    unknown = E.outcomes_unchanged("Fig. 4 (right)", ms,
                                   E.fig4_lowrank(alt, E.lowrank_prediction(alt, z_coeff, eq72)))
    claim.reproduced(*ms, setup=E.lowrank_setup(run, {
        "deltas": unknown, "rates (eta_a, eta_w)": unknown, "horizon": E.limit_converged(run),
        "integrator": E.lowrank_integrator(run, predicted)}),
        note="low-rank D.2 data X = [[0.5, 1]], y = 1.1, beta0 = [0.4, 0.05]; z with the unit "
             "vector outside the square root")
    report_figure(*F.fig4_lowrank(run, predicted))
