"""BL-Def-EffRank: BL Eq. (1), the effective rank, as printed and corrected."""
import numpy as np
import pytest

from numerics.metrics import effective_rank
from theory.bias.effective_rank import evaluate_effective_rank
from theory.registry import REGISTRY
from verify.checks.effective_rank import stated_properties
from verify.properties import search
from hypothesis import strategies as st


def sympy_rank(expr):
    return lambda sv: float(evaluate_effective_rank(expr, sv))


@pytest.mark.claim("BL-Def-EffRank")
def test_printed_sign_contradicts_the_stated_extremes(claim):
    c = REGISTRY["BL-Def-EffRank"]
    printed = stated_properties(sympy_rank(c.printed))
    corrected = stated_properties(sympy_rank(c.corrected))
    identity = sympy_rank(c.printed)([1.0] * 4)
    claim.erratum(all(printed.values()), all(corrected.values()),
                  f"printed form: {printed}; corrected (no minus): {corrected}",
                  counterexample=f"A = I_4: printed rho = {identity:g}, below printed rho of a "
                                 "rank-1 matrix (-1), so a flat spectrum is the minimum, not the "
                                 "maximum the text claims")


@pytest.mark.claim("BL-Def-EffRank")
def test_numeric_effective_rank_matches_the_corrected_formula(claim):
    corrected = sympy_rank(REGISTRY["BL-Def-EffRank"].corrected)

    def prop(shape, seed):
        A = np.random.default_rng(seed).standard_normal(shape) * np.random.default_rng(seed).choice(
            [-2.0, 0.01, 5.0])
        sv = np.linalg.svd(A, compute_uv=False)
        err = abs(effective_rank(A) - corrected(list(sv))) / corrected(list(sv))
        return err < 1e-12, err   # float64 rounding of a sum of min(m, n) terms
    result = search(prop, shape=st.tuples(st.integers(1, 7), st.integers(1, 7)),
                    seed=st.integers(0, 2 ** 32 - 1))
    gram = np.random.default_rng(1).standard_normal((16, 4))
    differs = abs(effective_rank(gram.T @ gram) - effective_rank(gram)) > 1e-3
    claim.holds(result.ok and differs,
                result.evidence("numerics.metrics.effective_rank vs sympy corrected Eq. (1), "
                                "random non-square matrices of both signs and scales")
                + f"; rho(H^T H) != rho(H) as the catalogue warns: {differs}")
