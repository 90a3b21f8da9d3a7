"""The sigmoidal mode law shared by BL Eq. (7), BA Eq. (3) and MHS Eq. (7), its per-layer
ODEs (MHS-A-Mode) and its hitting time (BL Eq. (13), MHS-A-Time)."""
from dataclasses import asdict

import numpy as np
import pytest
import sympy as sp

from theory import mode_law as ml
from theory.registry import REGISTRY
from verify.checks import mode_law as mode_checks
from verify.checks.symbolic import is_zero
from verify.measurement import exact, paper, reading
from verify.shared import evidence as ev
from verify.properties import search
from verify.strategies import HittingParams, ModeParams, hitting_params, mode_params

LAW = ("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")

# General shapes and parameters: non-square (5 in, 3 out, 4 hidden), unequal s and d, modes
# starting below, near and above their plateau, tau not 1.
S, D, A0, TAU = np.array([1.5, 0.6, 0.2]), np.array([0.8, 1.7, 0.3]), np.array([1e-3, 2e-2, 1.0]), 3.7


@pytest.mark.claim(*LAW)
def test_closed_form_solves_the_mode_ode(claim):
    results = {cid: mode_checks.symbolic_solution(REGISTRY[cid].printed) for cid in LAW}
    claim.holds(*(claim.measure(f"{cid}: {what}", ok, "==", True, source=exact("sympy simplify"))
                  for cid, r in results.items() for what, ok in r.items()))


@pytest.mark.claim(*LAW)
def test_closed_form_matches_the_matrix_flow_from_aligned_balanced_init(claim):
    err, drift = ev.aligned_flow_error(ml.trajectory, S, D, A0, TAU)
    claim.holds(
        claim.measure("max rel err, Eq. vs full matrix flow", err, "<=", 1e-8,
                      source=reading("solve_ivp at rtol 1e-10, formula at 50 digits")),
        claim.measure("drift of W2'W2 - W1W1' along the flow", drift, "<=", 1e-8,
                      source=reading("conserved quantity at integrator rtol 1e-10")),
        note=f"aligned balanced init, 5 in, 3 out, 4 hidden, tau {TAU}")


@pytest.mark.claim(*LAW)
def test_closed_form_matches_the_scalar_ode_everywhere(claim):
    result = search(
        lambda p: mode_checks.scalar_ode_error(ml.trajectory, **asdict(p)), ("<=", 1e-8),
        examples=[dict(p=ModeParams(s=1.0, d=1.0, a0=1.0, tau=1.0)),  # stationary at the plateau
                  dict(p=ModeParams(s=1e-3, d=10.0, a0=2e-5, tau=1e5)),  # slow, nearly s -> 0
                  dict(p=ModeParams(s=10.0, d=1e-3, a0=1e-4, tau=1.0)),  # nearly d -> 0
                  dict(p=ModeParams(s=0.5, d=2.0, a0=0.5, tau=7.0))],  # decaying from 2 s/d
        p=mode_params())
    claim.holds(claim.measure("worst rel err of Eq. vs solve_ivp of tau a' = 2a(s-da), a0 up to "
                              "2 s/d (decaying too)", result,
                              source=reading("reference ODE at rtol 1e-12, formula at 50 digits")))


@pytest.mark.claim("BA-Eq(3)")
def test_closed_form_needs_an_aligned_balanced_init(claim):
    """BA states the law for any init ('a_0 the singular values at initialization'); the law is
    exact for an aligned balanced init and misses an aligned but unbalanced one with the same a0."""
    balanced = ev.aligned_flow_error(ml.trajectory, S, D, A0, TAU)[0]
    unbalanced = ev.aligned_flow_error(ml.trajectory, S, D, A0, TAU, imbalance=3.0)[0]
    tolerance = reading("solve_ivp at rtol 1e-10, formula at 50 digits")
    claim.holds_if(
        REGISTRY["BA-Eq(3)"].condition,
        under=claim.measure("balanced aligned init: max rel err, Eq. vs flow", balanced, "<=", 1e-8,
                            source=tolerance),
        without=claim.measure("aligned init, w1 = 3 sqrt(a0), w2 = sqrt(a0)/3 (same a0): max rel "
                              "err, Eq. vs flow", unbalanced, "<=", 1e-8, source=tolerance),
        counterexample=f"s={S.tolist()}, d={D.tolist()}, a0={A0.tolist()}, tau={TAU}, layers "
                       f"unbalanced by a factor 9 in w1^2/w2^2: Eq. (3) misses the flow by "
                       f"{unbalanced:.0%}")


@pytest.mark.claim("MHS-A-Mode")
def test_layer_odes_multiply_to_the_balanced_mode_ode(claim):
    form = REGISTRY["MHS-A-Mode"].printed
    dw1, dw2, rhs = form.dw1, form.dw2, form.rhs
    product_rule = sp.expand(dw1 * ml.w2 + ml.w1 * dw2)
    balanced = product_rule.subs(ml.w1, ml.w2) - rhs.subs(ml.a, ml.w2 ** 2)
    conservation = 2 * ml.w1 * dw1 - 2 * ml.w2 * dw2
    claim.holds(claim.measure("d(w1 w2)/dt at w1 = w2 minus 2w(s - dw)/tau simplifies to 0",
                              is_zero(balanced), "==", True, source=exact("sympy simplify")),
                claim.measure("d/dt[(w1)^2 - (w2)^2] simplifies to 0", is_zero(conservation),
                              "==", True, source=exact("sympy simplify")))


@pytest.mark.claim("MHS-A-Mode")
def test_layer_odes_conserve_balance_along_the_flow(claim):
    s, d, tau = 0.9, 1.7, 2.3
    drift = ev.balance_drift(REGISTRY["MHS-A-Mode"].printed, s, d, tau, 0.3, -0.05, 40.0)
    claim.holds(claim.measure("drift of (w1)^2 - (w2)^2", drift, "<=", 1e-9,
                              source=reading("integrator rtol 1e-10 over ~20 characteristic times")),
                note=f"unbalanced start (w1, w2) = (0.3, -0.05), s={s}, d={d}, tau={tau}")


@pytest.mark.claim("BL-Eq(13)")
def test_hitting_time_needs_the_threshold_below_the_plateau(claim):
    printed = REGISTRY["BL-Eq(13)"].printed
    solves = mode_checks.hitting_time_solves(printed)
    inside = search(lambda p: mode_checks.hitting_time_error(printed, **asdict(p)), ("<=", 1e-8),
                    examples=[dict(p=HittingParams(s=1.0, d=1.0, a0=1e-3, rho=1e-3, tau=1.0))],
                    p=hitting_params())
    # Outside the domain: a0 < s/d <= rho.  The paper says the log argument is 'always > 1'.
    s, d, a0, rho = 1.0, 2.0, 0.01, 0.75
    arg = (s * rho - d * a0 * rho) / (s * a0 - d * a0 * rho)
    claim.holds_if(
        REGISTRY["BL-Eq(13)"].condition,
        under=[claim.measure("a(t_hat) - rho simplifies to 0", solves, "==", True,
                             source=exact("sympy simplify")),
               claim.measure("worst rel err of t_hat vs 30-digit quadrature of tau da/(2a(s-da)) "
                             "from a0 to rho, a0 <= rho < s/d and the decaying side", inside,
                             source=reading("quadrature at 30 digits"))],
        without=claim.measure(f"log argument at rho = {rho} >= s/d = {s / d}", arg, ">", 1,
                              source=paper("BL L728", "The term inside of the log is always going to be greater than 1 as rho >= a_0")),
        counterexample=f"s={s}, d={d}, a0={a0}, rho={rho} >= s/d = {s / d}: log argument "
                       f"{arg:.3g} (not > 1); the mode never reaches rho")


@pytest.mark.claim("MHS-A-Time")
def test_time_to_reach_inverts_the_trajectory(claim):
    printed = REGISTRY["MHS-A-Time"].printed
    derivative = sp.diff(printed, ml.rho) - ml.tau / (2 * ml.rho * (ml.s - ml.rho * ml.d))
    result = search(lambda p: mode_checks.hitting_time_error(printed, **asdict(p)), ("<=", 1e-8),
                    examples=[dict(p=HittingParams(s=0.5, d=2.0, a0=0.5, rho=0.26, tau=7.0))],
                    p=hitting_params())
    claim.holds(claim.measure("pi(t(w_f)) - w_f simplifies to 0",
                              mode_checks.hitting_time_solves(printed), "==", True,
                              source=exact("sympy simplify")),
                claim.measure("dt/dw_f - tau/(2 w_f (lambda - w_f delta)) simplifies to 0",
                              is_zero(derivative), "==", True, source=exact("sympy simplify")),
                claim.measure("worst rel err vs 30-digit quadrature of the separated ODE, rising "
                              "and decaying modes", result, source=reading("quadrature at 30 digits")))
