"""Exact whitened single-neuron dynamics (rich_quick Sec 3 Eq. 2, App A.2 Eqs. 16-35, Lemma A.1,
basins).  Printed forms are tested with general rates (eta_a != eta_w, also with the paper's WLOG
product eta_a eta_w = 1), ||beta_*|| != 1, every sign of delta and d = 1..4.

The parameter-space forms of App A.2.3-A.2.6 are written at unit rates after the paper's "WLOG
eta_a eta_w = 1" (L324).  Each is measured three ways: at eta_a = eta_w = 1; in the rescaled
variables a' = sqrt(eta_w) a, w' = sqrt(eta_a) w, beta_*' = sqrt(eta_a eta_w) beta_* at general
rates (the reading under which the WLOG is exact); and in the original a, w with eta_a eta_w = 1,
eta_a != eta_w (the literal reading, where they fail).  The general-rate form is measured beside.
"""
from functools import cache

import numpy as np
import pytest
import sympy as sp
from hypothesis import strategies as st

from numerics.rich_quick import formula_errors as fe
from numerics.rich_quick import single_neuron_paths as sns
from theory.registry import REGISTRY
from theory.rich_quick import single_neuron_exact as SNE
from theory.rich_quick import single_neuron_symbols as S
from verify.measurement import paper, reading
from verify.properties import search
from verify.rich_quick.evidence import single_neuron as chk
from verify.rich_quick.single_neuron_strategies import weight_points, whitened_cases

HP = fe.HP_TOL
#: closed form vs the integrated weight flow; why it is this size: FLOW_SRC
FLOW_TOL = 1e-8

any_sign_cases = st.sampled_from([-1, 0, 1]).flatmap(lambda s: whitened_cases(sign=s))
unit_points = weight_points().map(lambda p: {**p, "eta_a": 1.0, "eta_w": 1.0})
HP_SRC = reading(chk.HP_WHY)
FLOW_SRC = reading("solve_ivp DOP853 rtol 1e-12 reference over t = 15; room for cancellation near a = 0")
#: the literal WLOG case for closed forms: upstream, eta_a = 2, eta_w = 1/2, d = 3, ||beta_*|| = 1.7
WLOG_CASE = dict(a0=1.6, w0=[0.4, -0.9, 0.3], beta_star=[1.0, 1.2, -0.5], eta_a=2.0, eta_w=0.5)


def flow_search(prop, criterion, **kwargs):
    """``search`` with a fifth of the profile's examples: each example integrates a flow."""
    with chk.fewer_examples(0.2):
        return search(prop, criterion, **kwargs)


def rate_search(quantity, rate, points, rescaled=False):
    error = fe.rescaled_rate_error if rescaled else fe.rate_equation_error
    return search(lambda p: error(quantity, rate, p), ("<=", HP), p=points)


def reading_measurements(claim, quantity, printed, what):
    """(under, without) of the unit-rate reading of a printed rate equation (module docstring)."""
    pts = fe.wlog_points()
    under = [claim.measure(f"{what} as printed, eta_a = eta_w = 1", rate_search(quantity, printed,
                                                                                unit_points),
                           source=HP_SRC),
             claim.measure(f"{what} as printed in a', w', beta_*', general rates",
                           rate_search(quantity, printed, weight_points(), rescaled=True),
                           source=HP_SRC)]
    without = claim.measure(f"{what} as printed in a, w, eta_a eta_w = 1, eta_a != eta_w",
                            chk.fixed_search(lambda p: fe.rate_equation_error(quantity, printed, p),
                                             pts, ("<=", HP)), source=HP_SRC)
    return under, without


# --- Eq. (2) = (16)-(18) -----------------------------------------------------------------------

@pytest.mark.claim("GRQ-Eq(2)", "GRQ-Eq(16)-(18)")
def test_mu_phi_rates_follow_from_the_chain_rule(claim):
    key = search(lambda p: fe.identity_error(REGISTRY["GRQ-Eq(16)-(18)"].printed.key_identity.lhs, REGISTRY["GRQ-Eq(16)-(18)"].printed.key_identity.rhs, p), ("<=", HP),
                 p=weight_points())
    claim.holds(
        claim.measure("worst |mu' by the chain rule - Eq. (16)|, general rates",
                      rate_search(S.MU_OF_WEIGHTS, REGISTRY["GRQ-Eq(2)"].printed[S.mu], weight_points()), source=HP_SRC),
        claim.measure("worst |phi' by the chain rule - Eq. (17)|, general rates",
                      rate_search(S.PHI_OF_WEIGHTS, REGISTRY["GRQ-Eq(2)"].printed[S.phi], weight_points()), source=HP_SRC),
        claim.measure("worst |Eq. (18) eta_w a^2 + eta_a ||w||^2 - kappa|", key, source=HP_SRC))


@pytest.mark.claim("GRQ-Eq(2)")
def test_mu_phi_ode_integrated_matches_the_weight_flow(claim):
    rhs = sp.lambdify([S.mu, S.phi, S.b, S.delta, S.eta_a, S.eta_w],
                      [REGISTRY["GRQ-Eq(2)"].printed[S.mu], REGISTRY["GRQ-Eq(2)"].printed[S.phi]], "numpy")

    # generic inits: with w0 parallel to beta_* (always at d = 1) and a0 on the far side, w passes
    # through 0 and phi (a cosine of w) jumps by 2, outside Eq. (2)'s standing assumption w != 0
    cases = st.sampled_from([-1, 0, 1]).flatmap(lambda s: whitened_cases(sign=s, generic=True))
    res = flow_search(lambda case: fe.mu_phi_ode_error(rhs, case), ("<=", FLOW_TOL), case=cases)
    claim.holds(claim.measure("worst error, solve_ivp of Eq. (2) vs the weight flow (mu relative to "
                              "its range, phi absolute), t <= 15", res, source=FLOW_SRC),
                note="d = 2..4, every sign of delta, general rates")


@pytest.mark.claim("GRQ-Eq(2)", "GRQ-Eq(28)", "GRQ-Eq(31)-(32)")
def test_exact_solution_for_every_sign_of_delta_matches_the_weight_flow(claim):
    res = flow_search(fe.exact_vs_flow, ("<=", FLOW_TOL),
                      examples=[dict(case=dict(a0=0.4, w0=[0.5, -1.2], beta_star=[0.3, 1.4],
                                               eta_a=0.3, eta_w=2.5)),       # delta < 0, a flips
                                dict(case=dict(a0=1.0, w0=[-1.0, 0.0], beta_star=[0.0, 1.0],
                                               eta_a=1.0, eta_w=1.0))],      # Fig. 3, delta = 0
                      case=any_sign_cases)
    claim.holds(claim.measure("worst error of the closed-form (mu, phi, a) vs the weight flow", res,
                              source=FLOW_SRC),
                note="nu route (general-rate Eqs. 26-28) or v route (Eqs. 31-32) by the basin; delta "
                     "monitored along the flow; every sign of delta, general rates")


@pytest.mark.claim("GRQ-Eq(19)-(20)")
def test_unit_product_system_is_the_rescaled_general_system(claim):
    c = sp.sqrt(S.eta_a * S.eta_w)
    scale = {S.mu: c * S.mu, S.b: c * S.b}
    claim.holds(
        claim.measure("worst |(c mu)' - Eq. (19) in mu' = c mu, b' = c b|, general rates",
                      rate_search(c * S.MU_OF_WEIGHTS,
                                  REGISTRY["GRQ-Eq(19)-(20)"].printed[S.mu].subs(scale, simultaneous=True),
                                  weight_points()), source=HP_SRC),
        claim.measure("worst |phi' - Eq. (20) in mu', b'|, general rates",
                      rate_search(S.PHI_OF_WEIGHTS,
                                  REGISTRY["GRQ-Eq(19)-(20)"].printed[S.phi].subs(scale, simultaneous=True),
                                  weight_points()), source=HP_SRC))


@pytest.mark.claim("GRQ-Eq(21)-(22)")
def test_balanced_reduction_and_sign_of_mu(claim):
    flips = flow_search(fe.sign_flips_of_a, ("==", 0), case=whitened_cases(sign=0))
    claim.holds(
        claim.measure("worst |mu' - Eq. (21)| on delta = 0, eta_a eta_w = 1 (unequal)",
                      rate_search(S.MU_OF_WEIGHTS, REGISTRY["GRQ-Eq(21)-(22)"].printed[S.mu], weight_points(True, True)),
                      source=HP_SRC),
        claim.measure("worst |phi' - Eq. (22)| on delta = 0, eta_a eta_w = 1 (unequal)",
                      rate_search(S.PHI_OF_WEIGHTS, REGISTRY["GRQ-Eq(21)-(22)"].printed[S.phi], weight_points(True, True)),
                      source=HP_SRC),
        claim.measure("sign changes of a(t) on balanced flows, t <= 15", flips,
                      source=paper("L340", "we show that the sign of mu cannot change through training and sgn(mu) = sgn(a)")))


# --- Eqs. (23)-(25): balanced closed forms -------------------------------------------------------

# d >= 2 and w0 not parallel to beta_*: phi0 = +-1 gives c_phi = +-inf (the saddle edge, L352)
balanced_cases = whitened_cases(sign=0, product_one=True, dims=st.integers(2, 4)).map(
    lambda c: {**c, "a0": abs(c["a0"])}).filter(
    lambda c: abs(np.dot(c["w0"], c["beta_star"])) < 0.99 * np.linalg.norm(c["w0"])
    * np.linalg.norm(c["beta_star"]))


balanced_points = st.fixed_dictionaries({"t": st.floats(0, 5), "b": st.floats(0.3, 3),
                                         "c_phi": st.floats(-2, 2), "mu0": st.floats(0.01, 3)})


@pytest.mark.claim("GRQ-Eq(23)")
def test_balanced_phi_solves_its_riccati_equation_and_the_flow(claim):
    res = search(lambda p: fe.solution_residual(REGISTRY["GRQ-Eq(23)"].printed, S.b * (1 - S.phi ** 2), S.phi, p),
                 ("<=", HP), p=balanced_points)
    flow = flow_search(lambda case: fe.balanced_closed_form_error(
        REGISTRY["GRQ-Eq(23)"].printed, SNE.MU_BALANCED_CORRECTED, SNE.C_MU_CORRECTED, case, "phi"), ("<=", FLOW_TOL),
        case=balanced_cases)
    claim.holds(claim.measure("worst residual of Eq. (23) in phi' = b(1 - phi^2)", res, source=HP_SRC),
                claim.measure("worst |Eq. (23) - phi of the weight flow|", flow, source=FLOW_SRC),
                note="flows: delta = 0, a0 > 0, eta_a eta_w = 1 with eta_a != eta_w, ||beta_*|| != 1, "
                     "d = 2..4")


def bernoulli_residual(mu_expr, c_mu_expr, p):
    sol = mu_expr.subs(S.c_mu, c_mu_expr)
    return max(fe.solution_residual(sol, REGISTRY["GRQ-Eq(24)-(25)"].printed.rate, S.mu, p),
               fe.hp_abs(sol.subs(S.t, 0) - S.mu0, p))


@pytest.mark.claim("GRQ-Eq(24)-(25)")
def test_balanced_mu_printed_and_corrected(claim):
    unit = search(lambda p: bernoulli_residual(REGISTRY["GRQ-Eq(24)-(25)"].printed.mu, REGISTRY["GRQ-Eq(24)-(25)"].printed.c_mu, p), ("<=", HP),
                  p=balanced_points.map(lambda p: {**p, "b": 1.0}))
    rng = np.random.default_rng(5)
    pts = [{"t": rng.uniform(0, 3), "b": b, "c_phi": rng.uniform(-1, 1), "mu0": rng.uniform(0.1, 2)}
           for b in (0.4, 0.8, 1.3, 2.5)]
    general = chk.fixed_search(lambda p: bernoulli_residual(REGISTRY["GRQ-Eq(24)-(25)"].printed.mu, REGISTRY["GRQ-Eq(24)-(25)"].printed.c_mu, p), pts, ("<=", HP))
    corrected = search(lambda p: bernoulli_residual(REGISTRY["GRQ-Eq(24)-(25)"].corrected.mu, REGISTRY["GRQ-Eq(24)-(25)"].corrected.c_mu, p),
                       ("<=", HP), p=balanced_points)
    flow = flow_search(lambda case: fe.balanced_closed_form_error(
        SNE.PHI_BALANCED, REGISTRY["GRQ-Eq(24)-(25)"].corrected.mu, REGISTRY["GRQ-Eq(24)-(25)"].corrected.c_mu, case, "mu"), ("<=", FLOW_TOL),
        case=balanced_cases)
    claim.erratum(
        printed=[claim.measure("Eq. (25) residual in Eq. (24) and |mu(0) - mu0|, ||beta_*|| = 1",
                               unit, source=HP_SRC),
                 claim.measure("the same at ||beta_*|| = 0.4, 0.8, 1.3, 2.5", general, source=HP_SRC)],
        corrected=[claim.measure("corrected Eq. (25) (factor ||beta_*||) residual, any ||beta_*||",
                                 corrected, source=HP_SRC),
                   claim.measure("corrected Eq. (25) vs the weight flow, eta_a eta_w = 1 unequal",
                                 flow, source=FLOW_SRC)])


# --- Eqs. (26)-(35): the unit-rate reading of the WLOG (module docstring) -----------------------

READING = REGISTRY["GRQ-Eq(26)-(27)"].condition


upstream = whitened_cases(sign=1).map(lambda c: {**c, "a0": abs(c["a0"])})


@pytest.mark.claim("GRQ-Eq(26)-(27)")
def test_nu_riccati_under_the_unit_rate_reading(claim):
    under, without = reading_measurements(claim, S.NU_OF_WEIGHTS, REGISTRY["GRQ-Eq(26)-(27)"].printed.rate, "Eq. (26)")
    sol_unit = flow_search(lambda case: fe.nu_closed_form_error(REGISTRY["GRQ-Eq(26)-(27)"].printed.solution, case), ("<=", FLOW_TOL),
                           case=whitened_cases(sign=1, unit_rates=True).map(
                               lambda c: {**c, "a0": abs(c["a0"])}))
    sol_rescaled = flow_search(lambda case: fe.nu_closed_form_error(REGISTRY["GRQ-Eq(26)-(27)"].printed.solution, case, True),
                               ("<=", FLOW_TOL), case=upstream)
    claim.holds_if(
        READING,
        under=under + [claim.measure("Eq. (27) vs the flow's nu, eta_a = eta_w = 1", sol_unit,
                                     source=FLOW_SRC),
                       claim.measure("Eq. (27) in nu' = eta_a nu, b' = c b vs the flow, general rates",
                                     sol_rescaled, source=FLOW_SRC)],
        without=[without,
                 claim.measure("Eq. (27) vs the flow's nu in a, w at eta_a = 2, eta_w = 1/2",
                               fe.nu_closed_form_error(REGISTRY["GRQ-Eq(26)-(27)"].printed.solution, WLOG_CASE), "<=", FLOW_TOL,
                               source=FLOW_SRC)],
        counterexample=f"{WLOG_CASE}: Eq. (27) misses the flow's nu")


@pytest.mark.claim("GRQ-Eq(26)-(27)")
def test_nu_riccati_general_rate_form(claim):
    sol = flow_search(lambda case: fe.nu_closed_form_error(REGISTRY["GRQ-Eq(26)-(27)"].corrected.solution, case), ("<=", FLOW_TOL),
                      case=upstream)
    claim.holds(claim.measure("worst |nu' - (eta_w b^2 - delta nu - eta_a nu^2)|, general rates",
                              rate_search(S.NU_OF_WEIGHTS, REGISTRY["GRQ-Eq(26)-(27)"].corrected.rate, weight_points()),
                              source=HP_SRC),
                claim.measure("general-rate Eq. (27) vs the flow's nu, upstream", sol, source=FLOW_SRC))


@pytest.mark.claim("GRQ-Eq(28)")
def test_a_bernoulli_under_the_unit_rate_reading(claim):
    under, without = reading_measurements(claim, S.a, REGISTRY["GRQ-Eq(28)"].printed, "Eq. (28)")
    claim.holds_if(READING, under=under, without=without)
    claim.holds(claim.measure("worst |a' - a(eta_a nu + delta - eta_w a^2)|, general rates",
                              rate_search(S.a, REGISTRY["GRQ-Eq(28)"].corrected, weight_points()), source=HP_SRC),
                note="its closed-form a(t) is measured against the flow in the exact-solution test")


@pytest.mark.claim("GRQ-Eq(31)-(32)")
def test_v_and_omega_rates_under_the_unit_rate_reading(claim):
    omega_printed = REGISTRY["GRQ-Eq(31)-(32)"].printed.omega_rate.subs(S.v, S.V_OF_WEIGHTS)
    u31, w31 = reading_measurements(claim, S.V_OF_WEIGHTS, REGISTRY["GRQ-Eq(31)-(32)"].printed.v_rate, "Eq. (31)")
    u32, w32 = reading_measurements(claim, S.OMEGA_OF_WEIGHTS, omega_printed, "Eq. (32)")
    claim.holds_if(READING, under=u31 + u32, without=[w31, w32])
    r = REGISTRY["GRQ-Eq(31)-(32)"].corrected
    rng = np.random.default_rng(31)
    pts = [{"t": rng.uniform(0, 3), "v0": rng.uniform(-2, 2), "delta": rng.uniform(-3, 1),
            "b": rng.uniform(0.3, 2), "eta_a": ea, "eta_w": ew} for ea, ew in ((0.3, 2.5), (2, 0.5))]
    claim.holds(
        claim.measure("worst residual of the general-rate v(t) in v' = eta_a + delta v - eta_w b^2 v^2",
                      chk.fixed_search(lambda p: fe.solution_residual(r.v_solution, r.v_rate, S.v, p),
                                       pts, ("<=", HP)), source=HP_SRC),
        claim.measure("worst |v' - (eta_a + delta v - eta_w b^2 v^2)|, general rates",
                      rate_search(S.V_OF_WEIGHTS, REGISTRY["GRQ-Eq(31)-(32)"].corrected.v_rate, weight_points()), source=HP_SRC),
        claim.measure("worst |omega' - eta_w(v b^2 omega - v^2 omega^3)|, general rates",
                      rate_search(S.OMEGA_OF_WEIGHTS, REGISTRY["GRQ-Eq(31)-(32)"].corrected.omega_rate.subs(S.v, S.V_OF_WEIGHTS),
                                  weight_points()), source=HP_SRC))


@pytest.mark.claim("GRQ-LemA.1")
def test_a_times_omega_vanishes_at_most_once(claim):
    downstream = whitened_cases(sign=-1, dims=st.integers(2, 4))
    res = flow_search(lambda case: sns.zero_crossings(case, 30.0, 2001), ("<=", 1),
                      examples=[dict(case=dict(a0=0.4, w0=[0.5, -1.2], beta_star=[0.3, 1.4],
                                               eta_a=0.3, eta_w=2.5))], case=downstream)
    omega = S.OMEGA_OF_WEIGHTS
    claim.holds(
        claim.measure("zero crossings of a(t) w(t)^T beta_* (2001-point grid, t <= 30, delta < 0, "
                      "general rates)", res,
                      source=paper("L376", "a(t)w(t)^T beta_* = 0 has at most one solution for t >= 0")),
        claim.measure("proof Eq. (29) a' at unit rates", rate_search(
            S.a, REGISTRY["GRQ-LemA.1"].printed.a.subs(S.omega, omega), unit_points), source=HP_SRC),
        claim.measure("proof Eq. (30) omega' at unit rates", rate_search(
            omega, REGISTRY["GRQ-LemA.1"].printed.omega.subs(S.omega, omega), unit_points), source=HP_SRC),
        claim.measure("general-rate Eq. (29)", rate_search(
            S.a, REGISTRY["GRQ-LemA.1"].corrected.a.subs(S.omega, omega), weight_points()), source=HP_SRC),
        claim.measure("general-rate Eq. (30)", rate_search(
            omega, REGISTRY["GRQ-LemA.1"].corrected.omega.subs(S.omega, omega), weight_points()), source=HP_SRC))


# --- basins: footnote 3 (Sec 3, general rates), Eq. (33) (App A.2.5, after the WLOG) -----------

BASIN_WORDS = paper("L401", "S+ = {a0 > 0 if delta >= 0; w0^T beta_* > -a0/2 (delta + sqrt(delta^2 + "
                            "4||beta_*||^2)) if delta < 0}")


@cache
def basin_inits():
    """Downstream inits at unit rates, at the WLOG rates 0.2/5 and at general rates 0.3/2.5; and
    upstream inits (delta > 0) at 0.3/2.5."""
    upstream = fe.downstream_inits(12, 0.3, 2.5, 3)
    for c in upstream:
        c["a0"] = float(np.sign(c["a0"]) * np.sqrt(c["eta_a"] * np.sum(np.square(c["w0"])) / c["eta_w"] * 2.0))
    return {"unit": fe.downstream_inits(16, 1.0, 1.0, 0), "wlog": fe.downstream_inits(24, 0.2, 5.0, 1),
            "general": fe.downstream_inits(16, 0.3, 2.5, 2), "upstream": upstream}


def mismatches(claim, expr, which, label, rescaled=False):
    bad, used = fe.basin_mismatches(expr, basin_inits()[which], rescaled=rescaled)
    return claim.measure(f"{label}: wrong signs of a(80) among {used} delta < 0 inits (5% margin "
                         f"around the surface skipped)", len(bad), "==", 0, source=BASIN_WORDS)


def upstream_mismatches(claim):
    cases = basin_inits()["upstream"]
    bad = sum(np.sign(c["a0"]) != sns.final_sign_of_a(c) for c in cases)
    return claim.measure(f"delta > 0: sgn(a0) wrong among {len(cases)} inits, eta 0.3/2.5", int(bad),
                         "==", 0, source=BASIN_WORDS)


@pytest.mark.claim("GRQ-Fn3")
def test_basin_footnote_at_general_rates(claim):
    """Sec 3 keeps the rates explicit (Eq. 2), so footnote 3 is read at general rates."""
    claim.erratum(
        printed=[mismatches(claim, REGISTRY["GRQ-Fn3"].printed, "general", "printed, eta 0.3/2.5"),
                 mismatches(claim, REGISTRY["GRQ-Fn3"].printed, "wlog", "printed, eta 0.2/5"),
                 upstream_mismatches(claim)],
        corrected=[mismatches(claim, REGISTRY["GRQ-Fn3"].corrected, "general", "corrected, eta 0.3/2.5"),
                   mismatches(claim, REGISTRY["GRQ-Fn3"].corrected, "wlog", "corrected, eta 0.2/5"),
                   mismatches(claim, REGISTRY["GRQ-Fn3"].corrected, "unit", "corrected, unit rates"),
                   upstream_mismatches(claim)])


@pytest.mark.claim("GRQ-Eq(33)")
def test_basin_under_the_unit_rate_reading(claim):
    r = REGISTRY["GRQ-Eq(33)"]
    claim.holds_if(
        READING,
        under=[mismatches(claim, r.printed, "unit", "printed, unit rates"),
               mismatches(claim, r.corrected, "general", "the general-rate form, eta 0.3/2.5"),
               mismatches(claim, r.printed, "general", "printed in a0', w0', beta_*', eta 0.3/2.5",
                          rescaled=True),
               mismatches(claim, r.printed, "wlog", "printed in a0', w0', beta_*', eta 0.2/5",
                          rescaled=True),
               upstream_mismatches(claim)],
        without=mismatches(claim, r.printed, "wlog", "printed in a0, w0, eta_a eta_w = 1 (0.2/5)"))


# --- Eqs. (34)-(35) ------------------------------------------------------------------------------

@pytest.mark.claim("GRQ-Eq(34)-(35)")
def test_recovering_weights_under_the_unit_rate_reading(claim):
    printed = REGISTRY["GRQ-Eq(34)-(35)"].printed
    pair = (printed.a, printed.w_norm)
    unit = flow_search(lambda case: fe.recover_error(pair, case), ("<=", FLOW_TOL),
                       case=st.sampled_from([-1, 0, 1]).flatmap(
                           lambda s: whitened_cases(sign=s, unit_rates=True)))
    rescaled = flow_search(lambda case: fe.recover_error(pair, case, True), ("<=", FLOW_TOL),
                           case=any_sign_cases)
    claim.holds_if(
        READING,
        under=[claim.measure("Eq. (34) (a, ||w||) vs the flow, eta_a = eta_w = 1", unit, source=FLOW_SRC),
               claim.measure("Eq. (34) in mu' = c mu giving a', ||w'||, general rates", rescaled,
                             source=FLOW_SRC)],
        without=claim.measure("Eq. (34) in a, w at eta_a = 2, eta_w = 1/2 (product 1)",
                              fe.recover_error(pair, {**WLOG_CASE, "a0": 0.9}), "<=", FLOW_TOL,
                              source=FLOW_SRC))


@pytest.mark.claim("GRQ-Eq(34)-(35)")
def test_recovering_weights_general_rate_form_and_eq35(claim):
    corrected = REGISTRY["GRQ-Eq(34)-(35)"].corrected
    general = flow_search(lambda case: fe.recover_error((corrected.a, corrected.w_norm), case),
                          ("<=", FLOW_TOL), case=any_sign_cases)
    vec = flow_search(fe.w_vector_error, ("<=", 1e-7), case=any_sign_cases)
    claim.holds(claim.measure("general-rate Eq. (34) vs the flow", general, source=FLOW_SRC),
                claim.measure("Eq. (35) w vector (c2 >= 0) from (mu, phi) vs the flow, general rates",
                              vec, source=reading("c2 = sqrt(||w||^2 - c1^2) turns round-off into "
                                                  "sqrt(eps) ~ 1e-8 when w0 is parallel to beta_*")))
