"""What differs between the workshop paper (001) and the long paper (000), catalogue 001 §7."""
import pytest
import sympy as sp

from numerics.closed_forms import hitting_time
from theory.bias import hitting as h
from theory.bias_workshop import derived as dv
from theory.bias_workshop import differences as df
from theory.conventions import tau
from theory.registry import REGISTRY, catalogue_ids
from verify.bias import checks as ck
from verify.measurement import exact, reading


@pytest.mark.claim("BA-X1")
def test_half_width_is_half_a0_is_the_g_one_half_delay(claim):
    ratio = sp.simplify(df.half_width["a0_ratio"])
    # trained linear networks: halving the width halves the fitted a0
    fits64, _, _ = ck.effective_a0_fits(dv.EFFECTIVE_A0.printed, seeds=range(32), n_hid=64)
    fits32, _, _ = ck.effective_a0_fits(dv.EFFECTIVE_A0.printed, seeds=range(32), n_hid=32)
    measured = fits32.mean(axis=1) / fits64.mean(axis=1)
    s, d, a0, t = 0.433, 0.25, 6.4e-3, 1250.0
    shift = float(hitting_time(0.5 * s / d, s, d, a0 / 2, t) - hitting_time(0.5 * s / d, s, d, a0, t))
    delay = float(df.half_width["delay"].subs({h.s: s, h.d: d, h.a0: a0, h.tau: t}))
    claim.defined(
        claim.measure("BA-D2: a0(H/2) / a0(H) - 1/2 simplifies to 0",
                      bool(sp.simplify(ratio - sp.Rational(1, 2)) == 0), "==", True,
                      source=exact("sympy simplify")),
        claim.measure("trained a0(H = 32) / a0(H = 64), modes 0-2 (32 seeds each)", measured,
                      "within", (0.425, 0.575), source=reading(
                          "0.5 +- 15%: a ratio of two 32-seed means, each with relative spread "
                          "sqrt(2/H)/sqrt(32)")),
        claim.measure("|shift from halving a0 - Eq. (14) corrected delay at g = 1/2| / delay, "
                      "mode s = 0.433", abs(shift - delay) / delay, "<=", 1e-9,
                      source=reading("float64 logarithms")),
        note="the workshop's half-width linear network mimics the long paper's ReLU network with "
             "half its units dead")


@pytest.mark.claim("BA-X2")
def test_same_quantities_written_differently(claim):
    taus = df.wording["tau"]
    same_tau = all(sp.simplify(v.subs(df.N_sym, df.P_sym) - taus["000 Eq. 18"]) == 0
                   for v in taus.values())
    conv_same = tau(2e-4, 4, "bias") == tau(2e-4, 4, "bias_workshop") == 1250.0
    same_printed = {a: _same(REGISTRY[a].printed, REGISTRY[b].printed, a)
                    for a, b in df.EQUATION_MAP.items()}
    shift = ck.is_zero(df.wording["shift"].scaled_a0 - df.wording["shift"].shifted_time)
    sym = exact("sympy simplify")
    claim.defined(
        claim.measure("tau 1/(P eps) - 1/(N eps) at N = P simplifies to 0", same_tau, "==", True,
                      source=sym),
        claim.measure("conventions.tau equal for both papers (1250 steps at P = 4, eps = 2e-4)",
                      bool(conv_same), "==", True, source=reading("exact float equality")),
        *(claim.measure(f"{a} printed objects equal those of {df.EQUATION_MAP[a]}", bool(ok),
                        "==", True, source=sym) for a, ok in same_printed.items()),
        claim.measure("a(t; g a0) - a(t - Eq. (14) delay; a0) simplifies to 0: 'time shift' (000)"
                      " = 'different time constants' (001) with the rate 2s/tau unchanged", shift,
                      "==", True, source=sym))


def _same(a, b, which):
    if which == "BA-Eq(1)":
        return all(a[k] == b[k] for k in ("Syx", "Sx"))
    return sp.simplify(a - b) == 0


@pytest.mark.claim("BA-X3")
def test_long_paper_only_results_are_catalogued_with_their_errata(claim):
    ids = catalogue_ids()
    missing = [cid for cid in df.ONLY_IN_LONG.values() if ids.get(cid) != "bias"]
    errata = {cid: REGISTRY[cid].expected for cid in df.CROSS_REFERENCED_ERRATA}
    g_meaning = REGISTRY["BL-Eq(14)"].corrected["g_meaning"] == "alive fraction"
    registry = reading("the registry's own records")
    claim.defined(
        claim.measure(f"long-paper-only results ({len(df.ONLY_IN_LONG)}) without a BL- claim",
                      len(missing), "==", 0, source=registry),
        *(claim.measure(f"{cid} registered as {want}", errata[cid] == want, "==", True,
                        source=registry) for cid, want in df.CROSS_REFERENCED_ERRATA.items()),
        claim.measure("g in Eq. (14) corrected to the alive fraction", bool(g_meaning), "==", True,
                      source=registry))
