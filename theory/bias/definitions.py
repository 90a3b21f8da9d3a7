"""Definitions of the bias paper (BL-Def-*), as printed and corrected."""
from __future__ import annotations

import sympy as sp

from theory.registry import register

i, n = sp.symbols("i n", integer=True, positive=True)
sbar = sp.IndexedBase("sbar")

#: BL Eq. (1) as printed: rho(A) = -exp(-sum_i sbar_i log sbar_i), sbar_i = s_i / sum_j s_j.
effective_rank_printed = -sp.exp(-sp.Sum(sbar[i] * sp.log(sbar[i]), (i, 1, n)))
#: Roy-Vetterli effective rank: the same without the leading minus sign.
effective_rank_corrected = sp.exp(-sp.Sum(sbar[i] * sp.log(sbar[i]), (i, 1, n)))


def evaluate_effective_rank(expr: sp.Expr, singular_values) -> sp.Expr:
    """Substitute normalised singular values into an effective-rank expression (0 log 0 = 0)."""
    values = [sp.nsimplify(v) for v in singular_values]
    if not values or any(v < 0 for v in values):
        raise ValueError("singular_values must be a non-empty list of non-negative numbers")
    total = sum(values)
    if total == 0:
        raise ValueError("singular_values are all zero: the effective rank is 0/0")
    expanded = expr.subs(n, len(values)).doit()
    subs = {sbar[k + 1]: v / total for k, v in enumerate(values)}
    # 0 log 0 = 0 by continuity: drop those terms before substituting.
    zero_terms = {sbar[k + 1] * sp.log(sbar[k + 1]): 0 for k, v in enumerate(values) if v == 0}
    return sp.simplify(expanded.subs(zero_terms).subs(subs))


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
