"""Balance of practical random initialisations: LR-ThmA.3, LR-Tab1-3, LR-Fig1C (App A.3)."""
import pytest

from theory.registry import REGISTRY
from verify.lazy_rich import evidence, figures
from verify.measurement import reading


@pytest.mark.claim("LR-ThmA.3")
def test_balance_statistics_of_gaussian_layers(claim, moments):
    claim.erratum(
        printed=evidence.gaussian_balance(REGISTRY["LR-ThmA.3"].printed, "printed", reading(
            "within 5% of the printed diagonal", "l.248 (reconstructed, catalogue)",
            "a square matrix with fours across the diagonal and ones everywhere else"),
            *moments),
        corrected=evidence.gaussian_balance(REGISTRY["LR-ThmA.3"].corrected, "corrected", evidence.FIVE, *moments),
        note=f"LeCun (40,120,250), {len(moments[0])} draws; widths x1, x2, x4 at fixed ratios for the convergence")


@pytest.mark.claim("LR-Tab1")
def test_table1_mean_and_variance_per_initialisation(claim, table1_samples):
    claim.holds(*evidence.table1(REGISTRY["LR-Tab1"].printed, table1_samples),
                note="(30,50,70), 300 draws per init, alpha1 = 1.3, alpha2 = 0.8")


@pytest.mark.claim("LR-Tab2")
def test_table2_ratios_monotonicity_and_bounds(claim):
    claim.erratum(**evidence.table2(REGISTRY["LR-Tab2"].printed, REGISTRY["LR-Tab2"].corrected),
                  counterexample="Glorot, r = 0.1: E[lambda] rises from k = 5 to k = 10")


@pytest.mark.claim("LR-Tab3")
def test_table3_special_cases(claim):
    claim.holds(*evidence.table3(REGISTRY["LR-Tab3"].printed),
                note="case 1 needs r = k = 1 (Glorot with r = k != 1 gives (k-1)/(k+1))")


@pytest.mark.claim("LR-Fig1C")
def test_lecun_balance_looks_like_a_scaled_identity(claim, report_figure, scale, lecun_balance):
    predicted = evidence.lecun_mean(REGISTRY["LR-Fig1C"].printed)
    claim.reproduced(*evidence.fig1c(lecun_balance, predicted), setup=evidence.fig1c_setup(lecun_balance))
    if scale == "ci":
        report_figure(*figures.fig1c(lecun_balance, predicted))
