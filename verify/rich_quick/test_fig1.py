"""GRQ-Fig1: the (tau, delta) phase portrait of a teacher-student ReLU network (Fig. 1 caption
L24, App. D.1 L945-970), in GD steps (the paper's clock for Fig. 1).

The paper-scale runs (configs.FIG1A.full: the authors' teacher and student seeds 15 and 100, lr
1e-4, 1e6 steps; configs.FIG1B.full: the released seeds 100-115, 1e5 steps, at the cells the
caption's statements compare) are computed by ``pytest --scale=full`` into
reports/paper_scale/data and read back in every ci run, where they decide; the ci runs (other
teachers, shorter) stay in the evidence."""
import pytest

from verify.rich_quick import evidence as E
from verify.rich_quick import figures as F


@pytest.mark.claim("GRQ-Fig1")
def test_fig1_phase_portrait(claim, grq, scale, report_figure):
    a, b = grq.fig1a(scale), grq.fig1b(scale)
    sensitivity = ({"learning rate": E.fig1a_step_sensitivity(a, grq.fig1a_step())}
                   if scale == "ci" else {})
    claim.reproduced(*E.fig1a(a), *E.fig1b(b),
                     setup=[E.fig1a_setup(a, sensitivity), E.fig1b_setup(b)],
                     note=f"{scale} runs: Fig. 1(a) seeds {a.seeds}, Fig. 1(b) seeds {b.seeds}; "
                          f"{a.compute_seconds:.0f} s and {b.compute_seconds:.0f} s of compute")
    report_figure(*F.fig1a(a))
    report_figure(*F.fig1b(b))


@pytest.mark.claim("GRQ-Fig1")
def test_fig1_from_the_committed_paper_scale_runs(claim, grq, report_figure):
    a, b = grq.stored("fig1a"), grq.stored("fig1b")
    if a is None or b is None:
        claim.untested("the paper-scale runs are not stored under reports/paper_scale/data "
                       "(pytest verify/rich_quick --scale=full -k fig1 computes them)")
        return
    claim.reproduced(*E.fig1a(a), *E.fig1b(b), setup=[E.fig1a_setup(a), E.fig1b_setup(b)],
                     note=f"read from the committed paper-scale runs ({a.compute_seconds:.0f} s "
                          f"and {b.compute_seconds:.0f} s of compute when they ran)")
    report_figure(*F.fig1a(a))
    report_figure(*F.fig1b(b))
