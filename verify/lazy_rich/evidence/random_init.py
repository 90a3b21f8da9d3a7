"""Measurements of App A.3: the balance of random initialisations (Tables 1-3)."""
from __future__ import annotations


import numpy as np
import sympy as sp

from theory.lazy_rich import random_init as ri
from theory.lazy_rich import symbols as sy
from verify.measurement import (
    Measurement,
    exact,
    measure,
    paper,
    reading,
)
from verify.lazy_rich.evidence.errors import balance_moments
from verify.lazy_rich.evidence.exact import table3_mismatches, table_mismatches


# ========================================================================= App A.3: random initialisations
#: |z| <= 4: a 4-standard-error band (false alarm ~6e-5 per comparison under the CLT, seeds fixed)
Z_BAND = reading("4 standard errors of the Monte Carlo mean")
#: the pooled variance ratio has relative s.e. ~ sqrt(2/(draws - 1))/sqrt(#entries) < 1%; 5% is >= 5 s.e.
FIVE = reading("pooled variance ratio: 5% is >= 5 standard errors")
TABLE1_DIMS, TABLE1_ALPHAS = (30, 50, 70), {ri.a1: 1.3, ri.a2: 0.8}


def _at(expr, ni, nh, no, extra=None) -> float:
    return float(sp.sympify(expr).subs({sy.n_in: ni, sy.n_hid: nh, sy.n_out: no} | (extra or {})))


def lecun_mean(printed) -> float:
    """LR-Fig1C's printed E[lambda] = No/Nh - 1 at (40, 120, 250)."""
    return _at(printed, 40, 120, 250)


def table1_variances() -> dict:
    """LR-Tab1: the entry variances (var1, var2) of each initialisation at (30, 50, 70), alphas 1.3, 0.8."""
    return {name: tuple(_at(v, *TABLE1_DIMS, TABLE1_ALPHAS) for v in ri.INITS[name]) for name in ri.INITS}


def gaussian_balance(form, name: str, source, samples, spread) -> list[Measurement]:
    """LR-ThmA.3 for one side (``form``: mean, var_prefactor, m_diagonal) on LeCun (40,120,250)
    ``samples``; ``spread``: the off-diagonal s.d. at widths x1, x2, x4."""
    mo = balance_moments(form.mean, form.var_prefactor, samples, (40, 120, 250), 1 / 40, 1 / 120)
    return [measure("z of the mean diagonal vs (No s2^2 - Ni s1^2)", mo["z_mean"], "within", (-4, 4), source=Z_BAND),
            measure("off-diagonal Var / (No s2^4 + Ni s1^4)", mo["off_ratio"], "within", (0.95, 1.05), source=FIVE),
            measure("entrywise off-diagonal s.d. at widths x4 over x1 at fixed ratios (k^-1/2 = 0.5: "
                    "converges in probability entrywise)", spread[-1] / spread[0], "within", (0.45, 0.55),
                    source=reading("two draws per width: 10% of 0.5")),
            measure(f"diagonal Var / prefactor vs M's {name} diagonal {form.m_diagonal}", mo["diag_ratio"],
                    "within", (0.95 * form.m_diagonal, 1.05 * form.m_diagonal), source=source)]


def table1(printed, samples) -> list[Measurement]:
    """LR-Tab1: the printed mean and variance prefactor of each initialisation against its samples."""
    mo = [balance_moments(sp.sympify(mean).subs(TABLE1_ALPHAS), sp.sympify(var).subs(TABLE1_ALPHAS), samples[name],
                          TABLE1_DIMS, v1, v2)
          for (name, (mean, var)), (v1, v2) in zip(printed.items(), table1_variances().values())]
    return [measure("z of the mean diagonal vs E[lambda], LeCun, Glorot, He, Scaled", np.array([m["z_mean"] for m in mo]),
                    "within", (-4, 4), source=Z_BAND),
            measure("off-diagonal Var / table prefactor, same four", np.array([m["off_ratio"] for m in mo]), "within",
                    (0.95, 1.05), source=reading("pooled variance ratio of 300 draws: 5% is >= 5 standard errors"))]


def table2(printed, corrected) -> dict:
    """LR-Tab2's erratum: Table 2 from Table 1, its monotonicity in r and k and its bounds.  The
    corrected form keeps the table and bounds and rewords the sentence on k, so both sides measure
    their own table and bounds; the corrected side adds Glorot's dE/dk."""
    grid = np.logspace(-4, 4, 81)
    R, K = np.meshgrid(grid, grid)
    stated = "l.293"

    def on_grid(expr):
        return sp.lambdify((ri.r, ri.k), expr.subs(TABLE1_ALPHAS), "numpy")(R, K)

    def table_facts(form) -> tuple[list, dict]:
        up_r, down_k, vanish, lo_gap, hi_ok = [], {}, [], [], []
        for name, (mean, var) in form.table.items():
            up_r.append(float(np.min(on_grid(sp.diff(mean, ri.r)))))
            down_k[name] = float(np.max(on_grid(sp.diff(mean, ri.k))))
            vanish.append(sp.limit(var, sy.n_in, sp.oo) == 0)
            E = on_grid(mean)
            lo, hi = (float(sp.sympify(b).subs(TABLE1_ALPHAS)) for b in form.bounds[name])
            lo_gap.append(float(E.min() - lo))
            hi_ok.append(bool(E.max() > 100) if hi == np.inf else bool(hi - 0.05 < E.max() < hi))
        common = [measure("Table 1 entries that do not become Table 2 with Nh = k Ni, No = r Ni",
                          len(table_mismatches(ri.TABLE1, form.table)), "==", 0, source=exact("sympy simplify")),
                  measure("min over a log grid r, k in [1e-4, 1e4] of dE[lambda]/dr (larger r raises lambda)",
                          min(up_r), ">", 0,
                          source=paper(stated, "Table 2 shows that a larger value of will lead to a higher value of "
                                               "in every one of the initializations displayed")),
                  measure("Var -> 0 as Ni -> oo, all four", all(vanish), "==", True, source=exact("sympy limit")),
                  measure("min E[lambda] on the grid minus the lower bound (LeCun -1, He -2, Glorot -2, Scaled "
                          "-alpha1^2)", np.array(lo_gap), "within", (0, 0.05),
                          source=reading("the grid approaches the bounds to 0.05")),
                  measure("upper side: Glorot below 2 (within 0.05), the others unbounded (> 100 on the grid)",
                          all(hi_ok), "==", True, source=reading("the grid approaches the bounds to 0.05"))]
        return common, down_k

    printed_common, printed_dk = table_facts(printed)
    corrected_common, corrected_dk = table_facts(corrected)
    glorot_dk = int(sp.simplify(sp.diff(corrected.table["Glorot"][0], ri.k) - corrected.glorot_dk) != 0)
    return dict(
        printed=printed_common + [measure("max over the grid of dE[lambda]/dk, all four (larger k lowers lambda)",
                                          max(printed_dk.values()), "<", 0,
                                          source=paper(stated, "Moreover, a larger has the opposite effect"))],
        corrected=corrected_common + [
            measure("max over the grid of dE[lambda]/dk, LeCun, He, Scaled",
                    max(v for n, v in corrected_dk.items() if n != "Glorot"), "<", 0,
                    source=exact("grid of the sympy derivative")),
            measure("Glorot: dE/dk - (-2(r-1)(k^2-r)/((k+r)^2(k+1)^2)) is nonzero", glorot_dk, "==", 0,
                    source=exact("sympy simplify"))])


def table3(printed) -> list[Measurement]:
    return [measure("Table 3 entries that are not the limits / substitutions of Table 2's E[lambda] (22 entries)",
                    len(table3_mismatches(ri.TABLE2, printed)), "==", 0, source=exact("sympy limit and simplify"))]
