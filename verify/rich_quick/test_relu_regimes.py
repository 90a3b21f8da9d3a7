"""Two-layer ReLU regimes of GRQ Fig. 5 (L158) and Sec. 5 (L151-169), the wide linear regimes of
Sec. 4 (L129-131) and the conclusion (L11, L175).  Runs: ``numerics.rich_quick.relu_regimes.xor``
and ``linear_flows.regime_table`` (gradient-flow time t).  The paper gives no settings for these
beyond the width and the kinds of task and network, so each claim is also decided in a second
run with every open setting changed (configs.XOR_ALT, REGIMES_ALT): the one sensitivity rule,
``verify.sensitivity.unmoved``."""
import pytest

from verify.rich_quick import evidence as E
from verify.rich_quick import figures as F

XOR_RANGE = ("configs.XOR_ALT: other data (seed, size, noise), a smaller scale, smaller deltas, "
             "a longer time, other seeds, float32")
REGIMES_RANGE = "configs.REGIMES_ALT: other shapes, rates, init scale and targets"


@pytest.mark.claim("GRQ-Claim-PL-regimes")
def test_downstream_frozen_balanced_two_phase_upstream_fast(claim, grq, report_figure):
    ms = E.pl_regimes(grq.xor_numbers())
    same = E.open_settings_unmoved("Sec. 5 open settings", ms,
                                   E.pl_regimes(grq.xor_numbers(alt=True)), XOR_RANGE)
    claim.reproduced(*ms, setup=E.xor_setup(grq.xor(), same))
    report_figure(*F.fig5_curves(grq.xor()))     # Sec. 5's three regimes are Fig. 5's curves


@pytest.mark.claim("GRQ-Fig5")
def test_fig5_partition_frozen_downstream_moving_while_f_small(claim, grq, report_figure):
    ms = E.fig5(grq.xor_numbers())
    same = E.open_settings_unmoved("Fig. 5 open settings", ms, E.fig5(grq.xor_numbers(alt=True)),
                                   XOR_RANGE)
    claim.reproduced(*ms, setup=E.xor_setup(grq.xor(), same))
    report_figure(*F.fig5_curves(grq.xor()))
    report_figure(*F.fig5_surfaces(grq.xor()))


@pytest.mark.claim("GRQ-Claim-Funnel")
def test_funnel_and_inverted_funnel_regimes(claim, grq, report_figure):
    ms = E.funnel(grq.regimes())
    same = E.open_settings_unmoved("Sec. 4 open settings", ms, E.funnel(grq.regimes(alt=True)),
                                   REGIMES_RANGE)
    claim.reproduced(*ms, setup=E.regimes_setup(grq.regimes(), same))
    report_figure(*F.regimes(grq.regimes()))


@pytest.mark.claim("GRQ-Claim-Square")
def test_square_network_is_lazy_both_ways_and_symmetric(claim, grq):
    ms = E.square(grq.regimes(), grq.square_symmetry())
    same = E.open_settings_unmoved("Sec. 4 open settings", ms,
                                   E.square(grq.regimes(alt=True), grq.square_symmetry()),
                                   REGIMES_RANGE)
    claim.reproduced(*ms, setup=E.regimes_setup(grq.regimes(), same))


@pytest.mark.claim("GRQ-Concl")
def test_conclusion_linear_vs_nonlinear_and_discretisation(claim, grq, report_figure):
    ms = E.conclusion(grq.regimes(), grq.xor_numbers(), grq.one_step())
    same = E.open_settings_unmoved("open settings", ms, E.conclusion(
        grq.regimes(alt=True), grq.xor_numbers(alt=True), grq.one_step(alt=True)),
        f"{REGIMES_RANGE}; {XOR_RANGE}")
    claim.reproduced(*ms, setup=[E.regimes_setup(grq.regimes(), same),
                                 E.xor_setup(grq.xor(), same)])
    report_figure(*F.regimes(grq.regimes()))     # the linear half: rich only when balanced
