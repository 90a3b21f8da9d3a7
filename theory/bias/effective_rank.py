"""Definitions of the bias paper (BL-Def-*), as printed and corrected."""
from __future__ import annotations

import sympy as sp

from theory.registry import register
from theory.validation import InvalidArgument

i, n = sp.symbols("i n", integer=True, positive=True)
sbar = sp.IndexedBase("sbar")

#: BL Eq. (1) as printed: rho(A) = -exp(-sum_i sbar_i log sbar_i), sbar_i = s_i / sum_j s_j.
effective_rank_printed = -sp.exp(-sp.Sum(sbar[i] * sp.log(sbar[i]), (i, 1, n)))
#: Roy-Vetterli effective rank: the same without the leading minus sign.
effective_rank_corrected = sp.exp(-sp.Sum(sbar[i] * sp.log(sbar[i]), (i, 1, n)))


def evaluate_effective_rank(expr: sp.Expr, singular_values) -> float:
    """Evaluate an effective-rank expression at the given singular values (0 log 0 = 0), at
    30 significant digits."""
    values = [float(v) for v in singular_values]
    if not values or any(not (v >= 0) or v == float("inf") for v in values):
        raise InvalidArgument("singular_values must be a non-empty list of finite non-negative numbers")
    total = sum(values)
    if total == 0:
        raise InvalidArgument("singular_values are all zero: the effective rank is 0/0")
    expanded = expr.subs(n, len(values)).doit()
    # 0 log 0 = 0 by continuity: drop those terms before substituting.
    zero_terms = {sbar[k + 1] * sp.log(sbar[k + 1]): 0 for k, v in enumerate(values) if v == 0}
    subs = {sbar[k + 1]: sp.Float(v / total, 30) for k, v in enumerate(values)}
    return float(expanded.subs(zero_terms).subs(subs).evalf(30))


EFFECTIVE_RANK = register(
    id="BL-Def-EffRank", paper="bias", where="Sec 3, Eq. (1), L90-L94", kind="definition",
    title="effective rank",
    statement=r"\rho(A) = -\exp(-\sum_i \bar s_i \log \bar s_i), \bar s_i = s_i/\sum_j s_j; "
              "'maximized when all singular values are equal and minimized when only a single "
              "singular value dominates'",
    printed=effective_rank_printed, corrected=effective_rank_corrected,
    corrected_statement=r"\rho(A) = \exp(-\sum_i \bar s_i \log \bar s_i) \in [1, rank A] "
                        "(Roy-Vetterli; no leading minus)",
    expected="erratum",
    notes="The paper applies rho to the Gram matrix H^T H (samples x samples).")
