"""BL-Eq(1): the effective-rank formula as an equation (§3, L90-L94).

The formula objects live with the definition (``theory.bias.effective_rank``, BL-Def-EffRank);
this claim is the printed equation and its stated extremal property.
"""
from theory.bias.effective_rank import effective_rank_corrected, effective_rank_printed
from theory.registry import register

EQUATION_1 = register(
    id="BL-Eq(1)", paper="bias", where="Sec 3, Eq. (1), L90-L94", kind="identity",
    title="effective rank, Eq. (1), and its extremes",
    statement=r"\rho(A) = -\exp(-\sum_{i=1}^{min(n,m)} \bar s_i\log\bar s_i); 'maximized when "
              r"all singular values are equal and minimized when only a single singular value "
              r"dominates'",
    printed=effective_rank_printed, corrected=effective_rank_corrected,
    corrected_statement=r"\rho(A) = \exp(-\sum_i \bar s_i\log\bar s_i): equals n for a flat "
                        r"spectrum (its maximum) and 1 for rank one (its minimum)",
    expected="erratum")
