"""The relative scale lambda and the absolute scale decide the regime: LR-Framing (Fig. 1B, at the
released notebook's settings) and LR-A.4 (Figs. 8-10, on the suite's grid: App A.4 masks it).
Time is t/tau = lr x steps (tau = 1/lr, 1/2-mean loss)."""
import pytest

from verify.lazy_rich import evidence, figures


@pytest.mark.claim("LR-Framing")
def test_relative_scale_changes_trajectories_and_representations(claim, report_figure, scale, framing):
    claim.reproduced(*evidence.framing(framing), setup=evidence.framing_setup(framing))
    if scale == "ci":
        report_figure(*figures.framing(framing))


@pytest.mark.claim("LR-A.4")
def test_absolute_versus_relative_scale(claim, report_figure, scale_map):
    claim.reproduced(*evidence.scale_map(scale_map), setup=evidence.scale_map_setup(scale_map))
    report_figure(*figures.scale_map(scale_map))
