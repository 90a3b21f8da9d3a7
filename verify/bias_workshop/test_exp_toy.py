"""Empirical claims of the workshop paper on its toy tasks (BA Figs 1-3, App B, contributions).

The workshop paper gives no hyperparameters; the runs are the long paper's (000 App E: hidden 64,
sigma^2 = 2e-4, full-batch GD on the 1/2-sum loss at lr 2e-4; ci at 25x that rate), on the
catalogue's reconstructions of its tasks: R1 4-item hierarchy, R2 8-item tree, R3 +-1 XOR, R4 the
parallel task.  The same statistics decide the long paper's twin sentences.
"""
import pytest

from verify.bias import evidence as ev
from verify.bias import figures as bias_figures
from verify.bias_workshop import figures
from verify.bias_workshop import evidence as ba


@pytest.mark.claim("BA-Fig1A")
def test_hierarchy_is_linearly_solvable(claim, hierarchy_ci):
    claim.defined(*ev.task_definition(hierarchy_ci, samples=4, solvable=True),
                  note="R1: X = I_4, Y the 7 x 4 Saxe features")


@pytest.mark.claim("BA-Fig1C")
def test_xor_is_not_linearly_solvable(claim, xor_ci):
    claim.defined(*ev.task_definition(xor_ci, samples=4, labels_per_class=[2, 2], solvable=False),
                  note="R3: +-1 XOR with one-hot labels (000 App E L654)")


@pytest.mark.claim("BA-Fig3A")
def test_parallel_task_has_a_linear_and_a_non_linear_half(claim, parallel_ci):
    claim.defined(*ev.task_definition(parallel_ci, samples=4, solvable=False),
                  note="R4 on the 4 corners: a linear and a non-linear task on the same points")


@pytest.mark.claim("BA-Fig1B")
def test_bias_relu_tracks_linear_and_exact_solutions(claim, report_figure, hierarchy):
    ms, setups = ev.toy_setup(hierarchy, ba.fig1b)
    claim.reproduced(*ms, setup=setups)
    report_figure(bias_figures.hierarchy_loss_figure(hierarchy.base), "BA Fig 1B reproduced on R1: "
                  "seed-mean losses (markers) of linear and ReLU networks with and without bias; "
                  "line: Eq. (3) over the (augmented) modes with a fitted a0; time in t/tau.")


@pytest.mark.claim("BA-Fig1D")
def test_xor_transient_alignment_is_exact_early(claim, report_figure, xor):
    ms, setups = ev.toy_setup(xor, ba.fig1d)
    claim.reproduced(*ms, setup=setups)
    report_figure(bias_figures.loss_figure(bias_figures.bias_panels(xor.base, "XOR"), hline=1.0),
                  "BA Fig 1D reproduced on R3 (+-1 XOR): "
                  "seed-mean losses (markers) with and without bias; dotted: linear optimum.")


@pytest.mark.claim("BA-Fig2A")
def test_cka_between_linear_and_relu_is_higher_with_bias(claim, report_figure, hierarchy8):
    ms, setups = ev.toy_setup(hierarchy8, ev.cka)
    claim.reproduced(*ms, setup=setups)
    report_figure(figures.cka_figure(hierarchy8.base), "BA Fig 2A reproduced on the 8-item tree: "
                  "linear CKA between the hidden representations of linear and ReLU networks "
                  "over training, with and without bias (markers: seed means).")


@pytest.mark.claim("BA-Fig2B")
def test_mds_representations_with_bias_evolve_like_linear(claim, report_figure, hierarchy):
    ms, setups = ev.toy_setup(hierarchy, ba.fig2b)
    claim.reproduced(*ms, setup=setups)
    report_figure(bias_figures.mds_figure(hierarchy.base), "BA Fig 2B reproduced on R1: classical MDS "
                  "of linear and ReLU hidden representations over training (shade = item).")


@pytest.mark.claim("BA-Fig3B")
def test_linear_task_is_learned_first_with_a_pronounced_saddle(claim, report_figure, parallel):
    ms, setups = ev.toy_setup(parallel, ba.fig3b)
    claim.reproduced(*ms, setup=setups)
    report_figure(figures.task_losses_figure(parallel.base, ev.parallel_summary(parallel.base)),
                  "BA Fig 3B on R4: per-task losses of ReLU networks with and without bias "
                  "(markers: seed means): with bias the XOR task waits for the linear one.")


@pytest.mark.claim("BA-Fig3C")
def test_bias_over_represents_the_linear_task(claim, report_figure, parallel):
    ms, setups = ev.toy_setup(parallel, ba.fig3c)
    claim.reproduced(*ms, setup=setups)
    report_figure(bias_figures.parallel_figure(parallel.base, ev.parallel_summary(parallel.base),
                                               ev.DESIGNS),
                  "BA Fig 3B/C reproduced on R4: losses (dotted: linear task solved) and centred "
                  "R^2 of the final ReLU representations (bars: mean, 95% t-CI, 10 seeds).")


@pytest.mark.claim("BA-AppB")
def test_both_layer_biases_preserve_dynamics_under_a_time_rescale(claim, report_figure,
                                                                  both_layers):
    ms, setups = ev.toy_setup(both_layers, ba.app_b, names=("hierarchy", "XOR"), cs=(1.0,),
                              biases="hidden and output")
    claim.reproduced(*ms, setup=setups)
    report_figure(bias_figures.loss_figure(bias_figures.both_layer_panels(both_layers)), "BA Fig 5 "
                  "reproduced: losses (markers, seed means) of linear and ReLU networks with "
                  "biases in both layers on R1 and R3.")


@pytest.mark.claim("BA-C")
def test_contributions(claim, report_figure, hierarchy, xor, parallel):
    ms, setups = ev.toy_setup((hierarchy, xor, parallel), ba.contributions,
                              names=("R1", "R3", "R4"))
    claim.reproduced(*ms, setup=setups)
    report_figure(bias_figures.hierarchy_loss_figure(hierarchy.base), "BA's contribution (i) (L44) on "
                  "R1: seed-mean losses (markers) of linear and ReLU networks with and without "
                  "bias; line: Eq. (3) over the (augmented) modes with a fitted a0; time in t/tau.")
