"""BL Fig 6 and App D (BL-Def-R2): a linear and a non-linear (XOR) task solved in parallel on
the same four corners (y = [s, 1-s, c, 1-c]), 10 seeds (the Fig 6 caption), hidden 64,
sigma^2 = 2e-4, full-batch GD on the 1/2-sum loss, 60 t/tau; ci at lr 5e-3, paper scale at 2e-4."""
import pytest

from verify.bias import evidence as ev
from verify.bias import figures


@pytest.mark.claim("BL-Fig6")
def test_parallel_task_linear_first_low_rank_and_linear_over_representation(
        claim, report_figure, parallel):
    ms, setups = ev.toy_setup(parallel, ev.fig6)
    claim.reproduced(*ms, setup=setups)
    report_figure(figures.parallel_figure(parallel.base, ev.parallel_summary(parallel.base),
                                          ev.DESIGNS),
                  "BL Fig 6B/C reproduced on the parallel task: losses (markers, seed means; "
                  "dotted: linear task solved, L = 1) and centred R^2 of the final ReLU "
                  "representations for the linear (s), XOR (c) and joint designs (bars: mean, "
                  "95% t-CI over 10 seeds).")


@pytest.mark.claim("BL-Def-R2")
def test_centred_r2_splits_over_the_orthogonal_features(claim, parallel_ci):
    claim.defined(*ev.r2_split(parallel_ci), note="centred reading of App D (Y~ = H^T and the "
                  "design centred over the 4 inputs); uncentred the identity does not hold")
