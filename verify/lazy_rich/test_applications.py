"""Applications (Sec 6, App D): continual learning (LR-D.1), reversal learning (LR-D.2), transfer of
a new feature (LR-D.3), fine-tuning after re-balancing (LR-D.4) -- computed from the exact solution
and checked against simulation.  Time is t/tau = lr x steps (tau = 1/lr, 1/2-mean loss)."""
import pytest

from theory.registry import REGISTRY
from verify.lazy_rich import evidence, figures


@pytest.mark.claim("LR-D.1")
def test_forgetting_is_set_by_task_similarity(claim, report_figure, continual):
    claim.holds(*evidence.forgetting(REGISTRY["LR-D.1"].printed, *continual))
    report_figure(*figures.continual(*continual[1:]))


@pytest.mark.claim("LR-D.2")
def test_reversal_learning_needs_nonzero_lambda(claim, report_figure, reversal_flows, reversal_gd):
    formula = REGISTRY["LR-D.2"].printed
    claim.holds(*evidence.reversal(formula, reversal_flows, reversal_gd))
    report_figure(*figures.reversal(lambda lam, t: evidence.reversal_curve(formula, lam, 1.0, 0.5, t), reversal_gd))


@pytest.mark.claim("LR-D.3")
def test_transfer_of_a_new_feature_improves_with_lambda(claim, report_figure, transfer):
    claim.reproduced(*evidence.transfer(transfer, REGISTRY["LR-D.3"].printed), setup=evidence.transfer_setup(transfer))
    report_figure(*figures.transfer(transfer, evidence.TRUTHS))


@pytest.mark.claim("LR-D.4")
def test_fine_tuning_after_rebalancing(claim, report_figure, fine_tuning):
    claim.reproduced(*evidence.fine_tuning(fine_tuning), setup=evidence.fine_tuning_setup(fine_tuning))
    report_figure(*figures.fine_tuning(fine_tuning))
