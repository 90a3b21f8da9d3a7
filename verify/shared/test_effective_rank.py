"""BL-Def-EffRank: BL Eq. (1), the effective rank, as printed and corrected."""
import pytest

from theory.bias.effective_rank import evaluate_effective_rank
from theory.registry import REGISTRY
from verify.checks.effective_rank import stated_properties
from verify.shared import evidence as ev
from verify.shared import figures
from verify.measurement import reading
from verify.properties import search
from hypothesis import strategies as st


def sympy_rank(expr):
    return lambda sv: float(evaluate_effective_rank(expr, sv))


@pytest.mark.claim("BL-Def-EffRank")
def test_printed_sign_contradicts_the_stated_extremes(claim, report_figure):
    c = REGISTRY["BL-Def-EffRank"]
    printed_rank, corrected_rank = sympy_rank(c.printed), sympy_rank(c.corrected)
    printed, corrected = stated_properties(printed_rank), stated_properties(corrected_rank)
    stated = reading("BL L90-L94: maximal (n) at a flat spectrum, 1 at a single value, scale "
                     "invariant; float64 exp/log sums")
    claim.erratum(
        printed=[claim.measure(f"printed Eq. (1): {k}", bool(v), "==", True, source=stated)
                 for k, v in printed.items()],
        corrected=[claim.measure(f"corrected (no minus): {k}", bool(v), "==", True, source=stated)
                   for k, v in corrected.items()],
        counterexample=f"A = I_4: printed rho = {printed_rank([1.0] * 4):g}, below printed rho of "
                       "a rank-1 matrix (-1), so a flat spectrum is the minimum, not the maximum "
                       "the text claims")
    report_figure(figures.effective_rank_figure(printed_rank, corrected_rank),
                  "Effective rank of spectra from one dominant value (m = 0) to flat (m = 1): the "
                  "printed sign makes the flat spectrum the minimum (-4).")


@pytest.mark.claim("BL-Def-EffRank")
def test_numeric_effective_rank_matches_the_corrected_formula(claim):
    corrected = sympy_rank(REGISTRY["BL-Def-EffRank"].corrected)
    result = search(lambda shape, seed: ev.effective_rank_error(corrected, shape, seed),
                    ("<", 1e-12), shape=st.tuples(st.integers(1, 7), st.integers(1, 7)),
                    seed=st.integers(0, 2 ** 32 - 1))
    claim.defined(
        claim.measure("worst rel err, numerics.metrics.effective_rank vs sympy corrected Eq. (1), "
                      "random non-square matrices of both signs and scales", result,
                      source=reading("float64 rounding of a sum of min(m, n) terms")),
        claim.measure("|rho(H^T H) - rho(H)| (the catalogue warns they differ)",
                      ev.gram_rank_gap(), ">", 1e-3,
                      source=reading("a 16 x 4 Gaussian H: the two differ by O(1)")))
