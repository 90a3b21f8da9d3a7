"""Wide two-layer linear networks: GRQ Sec. 4 and App. B.1 against gradient flow and autograd,
with unequal rates (eta_a != eta_w, product != 1), non-square shapes and both signs of delta."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import strategies as st
from sympy.matrices import ShapeError

from numerics.rich_quick import linear_errors as le
from numerics.rich_quick import linear_nets as ln
from theory.registry import REGISTRY
from verify.measurement import exact, reading
from verify.properties import search
from verify.rich_quick import figures as F
from verify.rich_quick.evidence import linear as lc
from verify.rich_quick.evidence.linear import ROUND

DRIFT = reading("DOP853 at rtol 1e-11 over t in [0, 4]; a genuine violation is O(1)")

ETA_A, ETA_W = 0.3, 2.5          # unequal, product 0.75 != 1
SHAPES = [(5, 3, 2), (2, 3, 6), (3, 3, 3), (4, 2, 5)]   # (d, h, c): funnel, inverted, square, other


@st.composite
def wide_setting(draw):
    d, h, c = draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.integers(1, 5))
    n = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2 ** 16))
    eta_a, eta_w = draw(st.floats(0.1, 4.0)), draw(st.floats(0.1, 4.0))
    scale = draw(st.floats(0.2, 3.0))
    rng = np.random.default_rng(seed)
    return dict(W=scale * rng.standard_normal((h, d)), A=rng.standard_normal((h, c)) / scale,
                X=rng.standard_normal((n, d)), Y=rng.standard_normal((n, c)),
                eta_a=eta_a, eta_w=eta_w)


def _setting(d, h, c, n=7, seed=0, scale=1.0):
    rng = np.random.default_rng(seed)
    return dict(W=scale * rng.standard_normal((h, d)), A=rng.standard_normal((h, c)) / scale,
                X=rng.standard_normal((n, d)) / np.sqrt(n), Y=rng.standard_normal((n, c)))


@pytest.mark.claim("GRQ-Claim-Wide-Cons")
def test_delta_matrix_is_conserved_with_unequal_rates(claim):
    drifts = []
    for k, (d, h, c) in enumerate(SHAPES):
        s = _setting(d, h, c, seed=k, scale=1.6 if k % 2 else 0.6)   # Delta_ii of both signs
        drifts.append(le.conservation_drift(REGISTRY["GRQ-Claim-Wide-Cons"].printed, s["W"], s["A"],
                                            s["X"], s["Y"], ETA_A, ETA_W))
    claim.holds(claim.measure(f"max drift of eta_w AA^T - eta_a WW^T over shapes (d, h, c) {SHAPES}, "
                              f"eta_a {ETA_A}, eta_w {ETA_W}", max(drifts), "<=", 1e-9, source=DRIFT))


@pytest.mark.claim("GRQ-Eq-NTK-wide", "GRQ-Eq(6)")
def test_ntk_and_vec_dynamics_match_autograd(claim):
    def prop(s):
        e1 = le.ntk_error(REGISTRY["GRQ-Eq-NTK-wide"].printed, s["W"], s["A"], s["X"], s["eta_a"],
                          s["eta_w"])
        e2 = le.vec_flow_error(REGISTRY["GRQ-Eq(6)"].printed, s["W"], s["A"], s["X"], s["Y"],
                               s["eta_a"], s["eta_w"])
        return max(e1, e2)
    res = search(prop, ("<=", 1e-10), examples=[dict(s=dict(_setting(5, 3, 2), eta_a=ETA_A, eta_w=ETA_W))],
                 s=wide_setting())
    claim.holds(claim.measure("worst rel. error of K (vs autograd NTK, rate-weighted) and of -M "
                              "vec(X^TX beta - X^TY) (vs W'^T A + W^T A'), any d, h, c, n", res,
                              source=ROUND))


@pytest.mark.claim("GRQ-Eq(73)-(80)")
def test_eq78_identity_sizes_and_appendix_delta(claim):
    r = REGISTRY["GRQ-Eq(73)-(80)"]
    s = _setting(5, 3, 2)
    try:
        err78 = le.vec_flow_error(r.printed["Eq. (78)"], s["W"], s["A"], s["X"], s["Y"], ETA_A, ETA_W)
        why78 = f"rel err {err78:.2g}"
    except ShapeError as exc:   # the printed Kronecker terms cannot be added
        err78, why78 = np.inf, f"{type(exc).__name__}: {exc}"
    err79 = le.vec_flow_error(r.corrected["Eq. (78)"], s["W"], s["A"], s["X"], s["Y"], ETA_A, ETA_W)
    drift_b = le.conservation_drift(r.printed["Delta (L618)"], s["W"], s["A"], s["X"], s["Y"],
                                    ETA_A, ETA_W)
    drift_c = le.conservation_drift(r.corrected["Delta (L618)"], s["W"], s["A"], s["X"], s["Y"],
                                    ETA_A, ETA_W)
    claim.erratum(
        printed=[claim.measure("Eq. (78) as printed: rel err of the beta dynamics (inf: the terms "
                               "cannot be added)", err78, "<=", 1e-10, source=ROUND),
                 claim.measure("drift of A A^T - W W^T (L618)", drift_b, "<=", 1e-9, source=DRIFT)],
        corrected=[claim.measure("Kronecker sum (79): rel err of the beta dynamics", err79, "<=",
                                 1e-10, source=ROUND),
                   claim.measure("drift of eta_w AA^T - eta_a WW^T", drift_c, "<=", 1e-9, source=DRIFT)],
        counterexample=f"c=2 != d=5: {why78}; A A^T - W W^T drifts by {drift_b:.3g}",
        note=f"(d, h, c) = (5, 3, 2), eta_a {ETA_A}, eta_w {ETA_W}")


@pytest.mark.claim("GRQ-Thm4.1", "GRQ-LemB.1")
def test_M_is_the_sum_of_per_neuron_preconditioners(claim):
    coefs = REGISTRY["GRQ-Thm4.1"].printed
    res = search(lambda s: le.neuron_sum_error(coefs, s["W"], s["A"], s["eta_a"], s["eta_w"]),
                 ("<=", 1e-10), examples=[dict(s=dict(_setting(5, 3, 2), eta_a=ETA_A, eta_w=ETA_W))],
                 s=wide_setting())
    # symbolic: with ||a_i||^2 = p, ||w_i||^2 = q, kappa_i = eta_w p + eta_a q, and the
    # coefficients reduce to eta_w ||a_i||^2 and eta_a ||w_i||^2 exactly
    p, q = sp.symbols("p q", positive=True)
    wl = lc.wl
    subs = {wl.delta: wl.eta_w * p - wl.eta_a * q, wl.r2: p * q}
    kappa_pq = sp.sqrt(sp.factor(sp.expand(wl.kappa.subs(subs) ** 2)))
    sym_ok = (sp.simplify(coefs["out"].subs(wl.kappa, kappa_pq).subs(subs) - wl.eta_w * p) == 0
              and sp.simplify(coefs["in"].subs(wl.kappa, kappa_pq).subs(subs) - wl.eta_a * q) == 0)
    claim.holds(claim.measure("worst rel. error of sum_i M_i vs eta_w A^TA (+) eta_a W^TW, random W, "
                              "A, rates, shapes", res, source=ROUND),
                claim.measure("coefficients equal eta_w ||a_i||^2 and eta_a ||w_i||^2", bool(sym_ok),
                              "==", True, source=exact("sympy simplify")))


@pytest.mark.claim("GRQ-Eq(81)-(86)")
def test_per_neuron_norms_need_the_rates(claim):
    r = REGISTRY["GRQ-Eq(81)-(86)"]
    s = _setting(4, 3, 3, seed=3)
    e_printed = le.neuron_gram_error(r.printed, s["W"], s["A"], 0.7, 1.9)
    e_corr = le.neuron_gram_error(r.corrected, s["W"], s["A"], 0.7, 1.9)
    e_unit = le.neuron_gram_error(r.printed, s["W"], s["A"], 1.0, 1.0)
    claim.erratum(
        printed=claim.measure("Eqs. (81)-(86) as printed, eta_a 0.7, eta_w 1.9: max rel err",
                              e_printed, "<=", 1e-10, source=ROUND),
        corrected=claim.measure("with the factors 1/eta_w, 1/eta_a: max rel err", e_corr, "<=", 1e-10,
                                source=ROUND),
        counterexample=f"eta_a=0.7, eta_w=1.9, (d,h,c)=(4,3,3), seed 3: rel err {e_printed:.3g}",
        note=f"(d, h, c) = (4, 3, 3); the printed forms at unit rates err by {e_unit:.2g}")


@pytest.mark.claim("GRQ-LemB.2")
def test_rank_of_M_in_the_lazy_limits(claim):
    e = lc.lazy_limit_rank_evidence()
    claim.erratum(printed=e["shared"] + e["printed"], corrected=e["shared"] + e["corrected"],
                  counterexample=e["counterexample"], note=e["note"])


@pytest.mark.claim("GRQ-Eq(92)-(96)")
def test_inverted_funnel_limits(claim):
    r = REGISTRY["GRQ-Eq(92)-(96)"]
    e = lc.inverted_funnel_limits(r.printed, r.corrected, ETA_A, ETA_W)
    claim.holds(*e["holds"], note="GF of the h = d = 1, c = 3 inverted funnel (X = I, ||beta0|| = "
                                  "0.1, eta 0.5/3)")
    claim.erratum(printed=e["shared"] + e["printed"], corrected=e["shared"] + e["corrected"],
                  counterexample="delta -> -oo: (kappa-delta)/2 -> |delta| > 0, so M -> |delta| "
                                 "I_c, not delta I_c (negative definite)")


def _square(delta, seed=0, d=4):
    return ln.init_square_isotropic(d, delta, 0.5, 2.0, np.random.default_rng(seed))


@pytest.mark.claim("GRQ-LemB.3")
def test_square_isotropic_M_in_terms_of_beta(claim):
    r = REGISTRY["GRQ-LemB.3"]
    e = {k: [] for k in ("97", "101", "101c", "9899")}
    for delta in (1.3, -1.3, 0.0):
        W, A = _square(delta)
        e["97"].append(le.square_M_error(r.printed["(97)"], W, A, 0.5, 2.0, delta))
        e["101"].append(le.square_M_error(r.printed["(101)"], W, A, 0.5, 2.0, delta))
        e["101c"].append(le.square_M_error(r.corrected["(101)"], W, A, 0.5, 2.0, delta))
        e["9899"].append(max(le.square_gram_error(r.printed["(98) WtW"], W, A, 0.5, 2.0, delta),
                             le.square_gram_error(r.printed["(99) AtA"], W, A, 0.5, 2.0, delta)))
    shared = [claim.measure("Eq. (97) vs parameter M, max rel err", max(e["97"]), "<=", 1e-10,
                            source=ROUND),
              claim.measure("Eqs. (98)-(99) vs W^T W, A^T A, max rel err", max(e["9899"]), "<=", 1e-10,
                            source=ROUND)]
    claim.erratum(
        printed=shared + [claim.measure("Eq. (101) as printed vs parameter M, max rel err",
                                        max(e["101"]), "<=", 1e-10, source=ROUND)],
        corrected=shared + [claim.measure("Eq. (101) with beta beta^T in the second slot, max rel err",
                                          max(e["101c"]), "<=", 1e-10, source=ROUND)],
        counterexample=f"delta=1.3: Eq. (101) rel err {e['101'][0]:.2g} (beta^T beta in the second slot)",
        note="square d = h = c = 4, eta_a 0.5, eta_w 2, eta_w AA^T - eta_a WW^T = delta I, delta in "
             "{1.3, -1.3, 0}")


@pytest.mark.claim("GRQ-Eq(102)")
def test_square_limits(claim):
    r = REGISTRY["GRQ-Eq(102)"]
    e = lc.square_limits(r.printed, r.corrected)
    claim.erratum(printed=e["printed"], corrected=e["corrected"], counterexample=e["counterexample"])


@pytest.mark.claim("GRQ-AssB.4")
def test_task_aligned_mirror_flow_and_potential(claim, report_figure):
    r = REGISTRY["GRQ-AssB.4"]
    e = lc.task_aligned_mirror_flow(r.printed, r.corrected, ETA_A, ETA_W)
    claim.erratum(printed=e["printed"], corrected=e["corrected"], note=e["note"],
                  counterexample=e["counterexample"])
    report_figure(*F.potential_curvatures(r.printed, ETA_A, ETA_W))
