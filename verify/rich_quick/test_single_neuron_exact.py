"""Exact whitened single-neuron dynamics (rich_quick Sec 3 Eq. 2, App A.2 Eqs. 16-35, Lemma A.1,
basins).  Printed forms are tested with general rates (eta_a != eta_w, also with the paper's WLOG
product eta_a eta_w = 1), ||beta_*|| != 1, every sign of delta and d = 1..4.

The parameter-space forms of App A.2.3-A.2.6 are written at unit rates after the paper's "WLOG
eta_a eta_w = 1" (L324).  Each is measured three ways: at eta_a = eta_w = 1; in the rescaled
variables a' = sqrt(eta_w) a, w' = sqrt(eta_a) w, beta_*' = sqrt(eta_a eta_w) beta_* at general
rates (the reading under which the WLOG is exact); and in the original a, w with eta_a eta_w = 1,
eta_a != eta_w (the literal reading, where they fail).  The general-rate form is measured beside.
"""
import numpy as np
import pytest
import sympy as sp
from hypothesis import strategies as st

from numerics.rich_quick import formula_errors as fe
from numerics.rich_quick import single_neuron_paths as sns
from theory.registry import REGISTRY
from theory.rich_quick import single_neuron_exact as SNE
from theory.rich_quick import single_neuron_symbols as S
from verify.measurement import exact, paper, reading
from verify.rich_quick.evidence import single_neuron as chk
from verify.rich_quick.single_neuron_strategies import unit_points, weight_points, whitened_cases

any_sign_cases = st.sampled_from([-1, 0, 1]).flatmap(lambda s: whitened_cases(sign=s))
any_sign_unit_cases = st.sampled_from([-1, 0, 1]).flatmap(
    lambda s: whitened_cases(sign=s, unit_rates=True))
#: the literal WLOG case for closed forms: upstream, eta_a = 2, eta_w = 1/2, d = 3, ||beta_*|| = 1.7
WLOG_CASE = dict(a0=1.6, w0=[0.4, -0.9, 0.3], beta_star=[1.0, 1.2, -0.5], eta_a=2.0, eta_w=0.5)
#: a pinned flow on which a changes sign: delta < 0, eta_a = 0.3, eta_w = 2.5
FLIP_CASE = dict(a0=0.4, w0=[0.5, -1.2], beta_star=[0.3, 1.4], eta_a=0.3, eta_w=2.5)


# --- Eq. (2) = (16)-(18) -----------------------------------------------------------------------

@pytest.mark.claim("GRQ-Eq(2)", "GRQ-Eq(16)-(18)")
def test_mu_phi_rates_follow_from_the_chain_rule(claim):
    rates, appendix = REGISTRY["GRQ-Eq(2)"].printed, REGISTRY["GRQ-Eq(16)-(18)"].printed
    key = appendix.key_identity
    claim.holds(
        claim.measure("App A.2.1 Eqs. (16)-(17) - Eq. (2)'s rates (mu', phi') simplify to 0",
                      all(sp.simplify(appendix.mu_phi_ode[v] - rates[v]) == 0 for v in (S.mu, S.phi)),
                      "==", True, source=exact("sympy simplify")),
        chk.rate_equation("worst |mu' by the chain rule - Eq. (16)|, general rates",
                          S.MU_OF_WEIGHTS, rates[S.mu]),
        chk.rate_equation("worst |phi' by the chain rule - Eq. (17)|, general rates",
                          S.PHI_OF_WEIGHTS, rates[S.phi]),
        chk.hp_worst("worst |Eq. (18) eta_w a^2 + eta_a ||w||^2 - kappa|", fe.identity_error,
                     key.lhs, key.rhs, p=weight_points()))


@pytest.mark.claim("GRQ-Eq(2)")
def test_mu_phi_ode_integrated_matches_the_weight_flow(claim):
    rhs = sp.lambdify([S.mu, S.phi, S.b, S.delta, S.eta_a, S.eta_w],
                      [REGISTRY["GRQ-Eq(2)"].printed[S.mu], REGISTRY["GRQ-Eq(2)"].printed[S.phi]], "numpy")

    # generic inits: with w0 parallel to beta_* (always at d = 1) and a0 on the far side, w passes
    # through 0 and phi (a cosine of w) jumps by 2, outside Eq. (2)'s standing assumption w != 0
    cases = st.sampled_from([-1, 0, 1]).flatmap(lambda s: whitened_cases(sign=s, generic=True))
    claim.holds(chk.flow_worst("worst error, solve_ivp of Eq. (2) vs the weight flow (mu relative "
                               "to its range, phi absolute), t <= 15", fe.mu_phi_ode_error, rhs,
                               case=cases),
                note="d = 2..4, every sign of delta, general rates")


@pytest.mark.claim("GRQ-Eq(2)", "GRQ-Eq(28)", "GRQ-Eq(31)-(32)")
def test_exact_solution_for_every_sign_of_delta_matches_the_weight_flow(claim):
    claim.holds(chk.flow_worst("worst error of the closed-form (mu, phi, a) vs the weight flow",
                               fe.exact_vs_flow, case=any_sign_cases,
                               examples=[dict(case=FLIP_CASE),
                                         dict(case=dict(a0=1.0, w0=[-1.0, 0.0], beta_star=[0.0, 1.0],
                                                        eta_a=1.0, eta_w=1.0))]),  # Fig. 3, delta = 0
                note="nu route (general-rate Eqs. 26-28) or v route (Eqs. 31-32) by the basin; delta "
                     "monitored along the flow; every sign of delta, general rates")


@pytest.mark.claim("GRQ-Eq(19)-(20)")
def test_unit_product_system_is_the_rescaled_general_system(claim):
    c = sp.sqrt(S.eta_a * S.eta_w)
    scale = {S.mu: c * S.mu, S.b: c * S.b}
    claim.holds(
        chk.rate_equation("worst |(c mu)' - Eq. (19) in mu' = c mu, b' = c b|, general rates",
                          c * S.MU_OF_WEIGHTS,
                          REGISTRY["GRQ-Eq(19)-(20)"].printed[S.mu].subs(scale, simultaneous=True)),
        chk.rate_equation("worst |phi' - Eq. (20) in mu', b'|, general rates", S.PHI_OF_WEIGHTS,
                          REGISTRY["GRQ-Eq(19)-(20)"].printed[S.phi].subs(scale, simultaneous=True)))


@pytest.mark.claim("GRQ-Eq(21)-(22)")
def test_balanced_reduction_and_sign_of_mu(claim):
    r = REGISTRY["GRQ-Eq(21)-(22)"].printed
    claim.holds(
        chk.rate_equation("worst |mu' - Eq. (21)| on delta = 0, eta_a eta_w = 1 (unequal)",
                          S.MU_OF_WEIGHTS, r[S.mu], weight_points(True, True)),
        chk.rate_equation("worst |phi' - Eq. (22)| on delta = 0, eta_a eta_w = 1 (unequal)",
                          S.PHI_OF_WEIGHTS, r[S.phi], weight_points(True, True)),
        chk.flow_worst("sign changes of a(t) on balanced flows, t <= 15", fe.sign_flips_of_a,
                       criterion=("==", 0), case=whitened_cases(sign=0),
                       source=paper("L340", r"we show that the sign of μ cannot change through "
                                            r"training and $\text{sgn}(\mu) = \text{sgn}(a)$")))


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
    phi = REGISTRY["GRQ-Eq(23)"].printed
    claim.holds(chk.hp_worst("worst residual of Eq. (23) in phi' = b(1 - phi^2)",
                             fe.solution_residual, phi, S.b * (1 - S.phi ** 2), S.phi,
                             p=balanced_points),
                chk.flow_worst("worst |Eq. (23) - phi of the weight flow|",
                               fe.balanced_closed_form_error, phi, SNE.MU_BALANCED_CORRECTED,
                               SNE.C_MU_CORRECTED, tail=("phi",), case=balanced_cases),
                note="flows: delta = 0, a0 > 0, eta_a eta_w = 1 with eta_a != eta_w, ||beta_*|| != 1, "
                     "d = 2..4")


@pytest.mark.claim("GRQ-Eq(24)-(25)")
def test_balanced_mu_printed_and_corrected(claim):
    printed, corrected = REGISTRY["GRQ-Eq(24)-(25)"].printed, REGISTRY["GRQ-Eq(24)-(25)"].corrected
    rng = np.random.default_rng(5)
    pts = [{"t": rng.uniform(0, 3), "b": b, "c_phi": rng.uniform(-1, 1), "mu0": rng.uniform(0.1, 2)}
           for b in (0.4, 0.8, 1.3, 2.5)]
    forms = (printed.mu, printed.c_mu, printed.mu_rate)
    claim.erratum(
        printed=[chk.hp_worst_at("Eq. (25) residual in Eq. (24) and |mu(0) - mu0| at "
                                 "||beta_*|| = 0.4, 0.8, 1.3, 2.5", chk.bernoulli_residual, *forms,
                                 points=pts)],
        # the erratum is the missing factor alone: as printed it solves Eq. (24) at ||beta_*|| = 1
        corrected=[chk.hp_worst("the same as printed at ||beta_*|| = 1 (the Fig. 3 setting)",
                                chk.bernoulli_residual, *forms,
                                p=balanced_points.map(lambda p: {**p, "b": 1.0})),
                   chk.hp_worst("corrected Eq. (25) (factor ||beta_*||) residual, any ||beta_*||",
                                chk.bernoulli_residual, corrected.mu, corrected.c_mu, printed.mu_rate,
                                p=balanced_points),
                   chk.flow_worst("corrected Eq. (25) vs the weight flow, eta_a eta_w = 1 unequal",
                                  fe.balanced_closed_form_error, SNE.PHI_BALANCED, corrected.mu,
                                  corrected.c_mu, tail=("mu",), case=balanced_cases)])


# --- Eqs. (26)-(35): the unit-rate reading of the WLOG (module docstring) -----------------------

READING = REGISTRY["GRQ-Eq(26)-(27)"].condition


upstream = whitened_cases(sign=1).map(lambda c: {**c, "a0": abs(c["a0"])})
upstream_unit = whitened_cases(sign=1, unit_rates=True).map(lambda c: {**c, "a0": abs(c["a0"])})


@pytest.mark.claim("GRQ-Eq(26)-(27)")
def test_nu_riccati_under_the_unit_rate_reading(claim):
    printed = REGISTRY["GRQ-Eq(26)-(27)"].printed
    under, without = chk.unit_rate_reading(S.NU_OF_WEIGHTS, printed.rate, "Eq. (26)")
    claim.holds_if(
        READING,
        under=under + [chk.flow_worst("Eq. (27) vs the flow's nu, eta_a = eta_w = 1",
                                      fe.nu_closed_form_error, printed.solution, case=upstream_unit),
                       chk.flow_worst("Eq. (27) in nu' = eta_a nu, b' = c b vs the flow, general "
                                      "rates", fe.nu_closed_form_error, printed.solution,
                                      tail=(True,), case=upstream)],
        without=[without,
                 chk.flow_error("Eq. (27) vs the flow's nu in a, w at eta_a = 2, eta_w = 1/2",
                                fe.nu_closed_form_error, printed.solution, case=WLOG_CASE)],
        counterexample=f"{WLOG_CASE}: Eq. (27) misses the flow's nu")


@pytest.mark.claim("GRQ-Eq(26)-(27)")
def test_nu_riccati_general_rate_form(claim):
    corrected = REGISTRY["GRQ-Eq(26)-(27)"].corrected
    claim.holds(chk.rate_equation("worst |nu' - (eta_w b^2 - delta nu - eta_a nu^2)|, general rates",
                                  S.NU_OF_WEIGHTS, corrected.rate),
                chk.flow_worst("general-rate Eq. (27) vs the flow's nu, upstream",
                               fe.nu_closed_form_error, corrected.solution, case=upstream))


@pytest.mark.claim("GRQ-Eq(28)")
def test_a_bernoulli_under_the_unit_rate_reading(claim):
    under, without = chk.unit_rate_reading(S.a, REGISTRY["GRQ-Eq(28)"].printed, "Eq. (28)")
    claim.holds_if(READING, under=under, without=without)
    claim.holds(chk.rate_equation("worst |a' - a(eta_a nu + delta - eta_w a^2)|, general rates",
                                  S.a, REGISTRY["GRQ-Eq(28)"].corrected),
                note="its closed-form a(t) is measured against the flow in the exact-solution test")


@pytest.mark.claim("GRQ-Eq(31)-(32)")
def test_v_and_omega_rates_under_the_unit_rate_reading(claim):
    printed, r = REGISTRY["GRQ-Eq(31)-(32)"].printed, REGISTRY["GRQ-Eq(31)-(32)"].corrected
    u31, w31 = chk.unit_rate_reading(S.V_OF_WEIGHTS, printed.v_rate, "Eq. (31)")
    u32, w32 = chk.unit_rate_reading(S.OMEGA_OF_WEIGHTS,
                                     printed.omega_rate.subs(S.v, S.V_OF_WEIGHTS), "Eq. (32)")
    claim.holds_if(READING, under=u31 + u32, without=[w31, w32])
    rng = np.random.default_rng(31)
    pts = [{"t": rng.uniform(0, 3), "v0": rng.uniform(-2, 2), "delta": rng.uniform(-3, 1),
            "b": rng.uniform(0.3, 2), "eta_a": ea, "eta_w": ew} for ea, ew in ((0.3, 2.5), (2, 0.5))]
    claim.holds(
        chk.hp_worst_at("worst residual of the general-rate v(t) in v' = eta_a + delta v - eta_w b^2 "
                        "v^2", fe.solution_residual, r.v_solution, r.v_rate, S.v, points=pts),
        chk.rate_equation("worst |v' - (eta_a + delta v - eta_w b^2 v^2)|, general rates",
                          S.V_OF_WEIGHTS, r.v_rate),
        chk.rate_equation("worst |omega' - eta_w(v b^2 omega - v^2 omega^3)|, general rates",
                          S.OMEGA_OF_WEIGHTS, r.omega_rate.subs(S.v, S.V_OF_WEIGHTS)))


@pytest.mark.claim("GRQ-LemA.1")
def test_a_times_omega_vanishes_at_most_once(claim):
    printed, corrected, omega = (REGISTRY["GRQ-LemA.1"].printed, REGISTRY["GRQ-LemA.1"].corrected,
                                 S.OMEGA_OF_WEIGHTS)
    claim.holds(
        chk.flow_worst("zero crossings of a(t) w(t)^T beta_* (2001-point grid, t <= 30, delta < 0, "
                       "general rates)", sns.zero_crossings, tail=(30.0, 2001), criterion=("<=", 1),
                       source=paper("L376", r"then $a(t)w(t)^\top \beta_* = 0$ has at most one "
                                            r"solution for $t \geq 0$"),
                       examples=[dict(case=FLIP_CASE)],
                       case=whitened_cases(sign=-1, dims=st.integers(2, 4))),
        chk.rate_equation("proof Eq. (29) a' at unit rates", S.a,
                          printed.a.subs(S.omega, omega), unit_points),
        chk.rate_equation("proof Eq. (30) omega' at unit rates", omega,
                          printed.omega.subs(S.omega, omega), unit_points),
        chk.rate_equation("general-rate Eq. (29)", S.a, corrected.a.subs(S.omega, omega)),
        chk.rate_equation("general-rate Eq. (30)", omega, corrected.omega.subs(S.omega, omega)))


# --- basins: footnote 3 (Sec 3, general rates), Eq. (33) (App A.2.5, after the WLOG) -----------

@pytest.mark.claim("GRQ-Fn3")
def test_basin_footnote_at_general_rates(claim):
    """Sec 3 keeps the rates explicit (Eq. 2), so footnote 3 is read at general rates."""
    printed, corrected = REGISTRY["GRQ-Fn3"].printed, REGISTRY["GRQ-Fn3"].corrected
    claim.erratum(
        printed=[chk.basin_mismatches(printed, "general", "printed, eta 0.3/2.5"),
                 chk.basin_mismatches(printed, "wlog", "printed, eta 0.2/5"),
                 chk.upstream_mismatches()],
        corrected=[chk.basin_mismatches(corrected, "general", "corrected, eta 0.3/2.5"),
                   chk.basin_mismatches(corrected, "wlog", "corrected, eta 0.2/5"),
                   chk.basin_mismatches(corrected, "unit", "corrected, unit rates"),
                   chk.upstream_mismatches()])


@pytest.mark.claim("GRQ-Eq(33)")
def test_basin_under_the_unit_rate_reading(claim):
    r = REGISTRY["GRQ-Eq(33)"]
    claim.holds_if(
        READING,
        under=[chk.basin_mismatches(r.printed, "unit", "printed, unit rates"),
               chk.basin_mismatches(r.corrected, "general", "the general-rate form, eta 0.3/2.5"),
               chk.basin_mismatches(r.printed, "general", "printed in a0', w0', beta_*', eta 0.3/2.5",
                                    rescaled=True),
               chk.basin_mismatches(r.printed, "wlog", "printed in a0', w0', beta_*', eta 0.2/5",
                                    rescaled=True),
               chk.upstream_mismatches()],
        without=chk.basin_mismatches(r.printed, "wlog", "printed in a0, w0, eta_a eta_w = 1 (0.2/5)"))


# --- Eqs. (34)-(35) ------------------------------------------------------------------------------

@pytest.mark.claim("GRQ-Eq(34)-(35)")
def test_recovering_weights_under_the_unit_rate_reading(claim):
    printed = REGISTRY["GRQ-Eq(34)-(35)"].printed
    pair = (printed.a, printed.w_norm)
    claim.holds_if(
        READING,
        under=[chk.flow_worst("Eq. (34) (a, ||w||) vs the flow, eta_a = eta_w = 1", fe.recover_error,
                              pair, case=any_sign_unit_cases),
               chk.flow_worst("Eq. (34) in mu' = c mu giving a', ||w'||, general rates",
                              fe.recover_error, pair, tail=(True,), case=any_sign_cases)],
        without=chk.flow_error("Eq. (34) in a, w at eta_a = 2, eta_w = 1/2 (product 1)",
                               fe.recover_error, pair, case={**WLOG_CASE, "a0": 0.9}))


@pytest.mark.claim("GRQ-Eq(34)-(35)")
def test_recovering_weights_general_rate_form_and_eq35(claim):
    corrected = REGISTRY["GRQ-Eq(34)-(35)"].corrected
    claim.holds(chk.flow_worst("general-rate Eq. (34) vs the flow", fe.recover_error,
                               (corrected.a, corrected.w_norm), case=any_sign_cases),
                chk.flow_worst("Eq. (35) w vector (c2 >= 0) from (mu, phi) vs the flow, general "
                               "rates", fe.w_vector_error, criterion=("<=", 1e-7),
                               source=reading("c2 = sqrt(||w||^2 - c1^2) turns round-off into "
                                              "sqrt(eps) ~ 1e-8 when w0 is parallel to beta_*"),
                               case=any_sign_cases))
