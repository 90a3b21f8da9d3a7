"""What differs between the workshop paper (001) and the long paper (000), catalogue 001 §7."""
import pytest
import sympy as sp

from theory.bias import hitting as h
from theory.bias_workshop import differences as df
from theory.conventions import tau
from theory.registry import REGISTRY, catalogue_ids
from verify.bias import symbolic as sym
from verify.bias_workshop import evidence as ba
from verify.measurement import exact, reading


@pytest.mark.claim("BA-X1")
def test_workshop_only_content_and_the_half_width(claim, paper_texts, trained_linear):
    half_width = REGISTRY["BA-X1"].printed
    fits = {key: sym.effective_a0_fits(trained_linear[key], REGISTRY["BA-D2"].printed, 2e-4)[0]
            for key in ("a0", "a0, half width")}
    s, d, a0, t = 0.433, 0.25, 6.4e-3, 1250.0
    shift = sym.a0_shift(0.5 * s / d, s, d, a0, t, 0.5)
    delay = float(half_width["delay"].subs({h.s: s, h.d: d, h.a0: a0, h.tau: t}))
    claim.defined(
        *ba.only_in(paper_texts, "001", "000", df.WORKSHOP_ONLY),
        claim.measure("BA-D2: a0(H/2) / a0(H) - 1/2 simplifies to 0",
                      sym.is_zero(half_width["a0_ratio"] - sp.Rational(1, 2)), "==", True,
                      source=exact("sympy simplify")),
        claim.measure("trained a0(H = 32) / a0(H = 64), modes 0-2 (48 seeds each)",
                      fits["a0, half width"].mean(1) / fits["a0"].mean(1), "within", (0.425, 0.575),
                      source=reading("0.5 +- 15%: a ratio of two 48-seed means")),
        claim.measure("|shift from halving a0 - Eq. (14) corrected delay at g = 1/2| / delay, "
                      "mode s = 0.433", abs(shift - delay) / delay, "<=", 1e-9,
                      source=reading("float64 logarithms")),
        note="the workshop's half-width linear network mimics the long paper's ReLU network with "
             "half its units dead")


@pytest.mark.claim("BA-X2")
def test_same_quantities_written_differently(claim):
    wording = df.WORDING.printed
    taus = wording["tau"]
    same_tau = all(sp.simplify(v.subs(df.N_sym, df.P_sym) - taus["000 Eq. 18"]) == 0
                   for v in taus.values())
    conv_same = tau(2e-4, 4, "bias") == tau(2e-4, 4, "bias_workshop") == 1250.0
    same_printed = {a: _same(REGISTRY[a].printed, REGISTRY[b].printed, a)
                    for a, b in df.EQUATION_MAP.items()}
    time_shift = wording["shift"]
    shift = sym.is_zero(time_shift.scaled_a0 - time_shift.shifted_time)
    by_sympy = exact("sympy simplify")
    claim.defined(
        claim.measure("tau 1/(P eps) - 1/(N eps) at N = P simplifies to 0", same_tau, "==", True,
                      source=by_sympy),
        claim.measure("conventions.tau equal for both papers (1250 steps at P = 4, eps = 2e-4)",
                      bool(conv_same), "==", True, source=reading("exact float equality")),
        *(claim.measure(f"{a} printed objects equal those of {df.EQUATION_MAP[a]}", bool(ok),
                        "==", True, source=by_sympy) for a, ok in same_printed.items()),
        claim.measure("a(t; g a0) - a(t - Eq. (14) delay; a0) simplifies to 0: 'time shift' (000)"
                      " = 'different time constants' (001) with the rate 2s/tau unchanged", shift,
                      "==", True, source=by_sympy))


def _same(a, b, which):
    if which == "BA-Eq(1)":
        return all(a[k] == b[k] for k in ("Syx", "Sx"))
    return sp.simplify(a - b) == 0


@pytest.mark.claim("BA-X3")
def test_long_paper_only_results(claim, paper_texts):
    claims = REGISTRY["BA-X3"].printed["claims"]
    ids = catalogue_ids()
    claim.defined(
        *ba.only_in(paper_texts, "000", "001", {what: words for what, (words, _) in
                                                df.LONG_ONLY.items()}),
        claim.measure("long-paper-only results without a registered BL- claim",
                      sum(ids.get(cid) != "bias" or cid not in REGISTRY for cid in claims.values()),
                      "==", 0, source=exact("registry lookup of the IDs")))
