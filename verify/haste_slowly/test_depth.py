"""Sec 6, two hidden layers (MHS-S6-C1..C3, MHS-Fig6; paper L162-L171), on the released depth
recipe (``numerics.haste_slowly.depth``, ``configs.DEPTH``).  Times are epochs.

ci: 112-unit layers (7 x 16 GDLN units) with the stds scaled to keep the per-layer
pre-activation scale, 4 seeds, lr 8e-3: not faithful.  full (``--scale=full``): the released
widths, stds, schedule, lr 1e-3, 30001 epochs and float32, the released run indices 1-32 as
seeds (``settings.DEPTH_COST``: ~30 min on this shared 2-core CPU)."""
import pytest

from numerics.haste_slowly import configs
from numerics.haste_slowly.datasets import zero_output_loss
from numerics.haste_slowly.depth import task
from verify.haste_slowly import evidence as E
from verify.haste_slowly import figures, settings

L0 = zero_output_loss(task()[1])


@pytest.mark.claim("MHS-S6-C1")
def test_first_layer_ungated_second_gates_by_context(claim, report_figure, depth, scale):
    relu = depth(scale, "relu")
    claim.reproduced(*E.first_layer_ungated(relu.trajectory, relu.final["g1"], relu.final["m1"]),
                     E.second_layer_gates(relu.final["g2"], relu.final["m2"]),
                     setup=settings.depth(relu), note="the 2-hidden-layer ReLU net's first layer "
                                                      "over training, its second at the last epoch")
    report_figure(figures.first_layer_gating(relu.trajectory),
                  f"Sec 6, L162 ({scale}): share of the weight-carrying layer-1 units of each "
                  "2-hidden-layer ReLU run that are off for some datapoint, over training; the "
                  "paper says none (dashed)")


@pytest.mark.claim("MHS-Disc")
def test_node_reuse_with_depth(claim, report_figure, depth, scale):
    relu, shallow = depth(scale, "relu"), depth(scale, "shallow")
    f, s = relu.final, shallow.final
    layers = (f["g2"], f["m2"], f["g1"], f["m1"], s["g1"], s["m1"])
    claim.reproduced(*E.reuse_with_depth(*layers),
                     setup=[settings.depth(relu), settings.depth(shallow)],
                     note="the depth clause of L177 (the contexts clause: Sec 5's runs)")
    report_figure(figures.reuse_by_depth(E.contexts_served(*layers)),
                  f"Discussion, L177 ({scale}): contexts a unit serves (mass-weighted) per run, in "
                  "the single-hidden-layer ReLU net and in each layer of the 2-hidden-layer one "
                  "(bars: means); the paper states more reuse with depth")


@pytest.mark.claim("MHS-S6-C2")
def test_variance_appears_with_depth(claim, depth, scale):
    runs = {kind: depth(scale, kind) for kind in ("relu", "gdln", "shallow")}
    claim.reproduced(*E.variance_with_depth(*(runs[k].trajectory.loss for k in runs), L0),
                     setup=[settings.depth(r) for r in runs.values()])


@pytest.mark.claim("MHS-S6-C3")
def test_staged_onsets(claim, depth, scale):
    relu, gdln = depth(scale, "relu"), depth(scale, "gdln")
    claim.reproduced(*E.staged_onsets(relu.trajectory, gdln.trajectory, L0),
                     setup=[settings.depth(relu), settings.depth(gdln)])


@pytest.mark.claim("MHS-Fig6")
def test_stereotypical_trajectories(claim, report_figure, depth, scale):
    relu, gdln = depth(scale, "relu"), depth(scale, "gdln")
    claim.reproduced(*E.stereotypical_agreement(relu.trajectory.loss, gdln.trajectory.loss, L0),
                     setup=[settings.depth(relu), settings.depth(gdln)])
    cfg = configs.DEPTH[scale]
    report_figure(figures.depth_losses(relu.trajectory, gdln.trajectory, (cfg.start, cfg.switch)),
                  f"Fig 6b ({scale}): {len(cfg.seeds)} runs each of the 2-hidden-layer ReLU net "
                  "(lines) and of the released depth GDLN (markers; frozen to the first dotted "
                  "epoch, common pathway alone to the second); bold: the run closest to the mean")
