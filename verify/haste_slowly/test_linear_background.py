"""App A beyond the mode law (MHS-A-Loss, MHS-A-SVD, MHS-A-CoV, MHS-A-NonDiag, MHS-A-C1,
MHS-A-C2, MHS-Fig7).  The linear nets come from the ``linear_runs`` fixture (time t/tau); the
forms are read through the registry."""
import pytest

from theory.registry import REGISTRY
from verify.haste_slowly import evidence as E
from verify.haste_slowly import figures, settings


@pytest.mark.claim("MHS-A-Loss")
def test_learning_rules(claim):
    printed, corrected, err = E.learning_rules(REGISTRY["MHS-A-Loss"])
    claim.erratum(printed=printed, corrected=corrected, note="P 9, 4 in, 3 hidden, 5 out",
                  counterexample=f"Delta W = +eps dL/dW is gradient ascent: opposite sign (rel "
                                 f"err {err:.2g})")


@pytest.mark.claim("MHS-A-SVD")
def test_narrow_network_learns_the_top_modes(claim, linear_runs):
    claim.holds(E.top_modes(linear_runs["narrow"]),
                note="4-2-7 linear net (n_h = 2 < rank 4) on the 4-item hierarchy, 600 GD steps "
                     "lr 0.05 (1/2-sum)")


@pytest.mark.claim("MHS-A-CoV")
def test_change_of_variables_diagonal(claim):
    claim.holds(E.change_of_variables(), note="non-square U (6x3), V (5x3), R (4x3), diagonal Wbar")


@pytest.mark.claim("MHS-A-NonDiag")
def test_reduction_without_shared_v(claim):
    printed, corrected, err = E.reduction_without_shared_v()
    claim.erratum(printed=printed, corrected=corrected,
                  counterexample=f"seed 7, n = 4: printed right-hand sides differ from the rotated "
                                 f"gradient by {err:.2g} (relative)",
                  note="random non-commuting Sigma^yx = U S Vhat^T, Sigma^x = V D V^T, general "
                       "Wbar (4x4)")


@pytest.mark.claim("MHS-A-C1")
def test_mode_strengths_follow_the_closed_form(claim, linear_runs):
    claim.holds(*E.modes_follow_the_closed_form(linear_runs["fig7"]),
                note="4-16-7 linear net, init std 1e-4; plateaus (sqrt 7, sqrt 3, 1, 1)")


@pytest.mark.claim("MHS-Fig7")
def test_modes_rise_to_their_plateaus(claim, report_figure, linear_runs):
    run = linear_runs["fig7"]
    ms, sensitivity, curves, proj = E.fig7(run, linear_runs["variants"])
    claim.reproduced(*ms, setup=settings.linear(run, sensitivity))
    report_figure(figures.modes(run.trajectory.time, proj, curves),
                  "Fig 7c: the 4-item hierarchy, 4-16-7 linear net (lr 0.01, 1/2-sum loss, tau = "
                  "25 steps): mode strengths, Eq. (7) (lines, pi0 fitted per mode) vs simulation "
                  "(markers)")


@pytest.mark.claim("MHS-A-C2")
def test_time_course_depends_on_delta(claim):
    printed, corrected, times = E.time_course(REGISTRY["MHS-A-C2"])
    claim.erratum(printed=printed, corrected=corrected,
                  counterexample=f"lambda = 0.7, pi0 = 1e-3: t_90% = {times[0]:.3f} (delta 0.5) "
                                 f"vs {times[1]:.3f} (delta 2)")
