"""The sigmoidal mode law shared by BL Eq. (7), BA Eq. (3) and MHS Eq. (7), its per-layer
ODEs (MHS-A-Mode) and its hitting time (BL Eq. (13), MHS-A-Time)."""
import numpy as np
import pytest

from theory import mode_law as ml
from theory.registry import REGISTRY
from verify.checks import mode_law as checks
from verify.properties import search
from verify.strategies import hitting_params, mode_params

LAW = ("BL-Eq(7)", "BA-Eq(3)", "MHS-A-Eq(7)")

# General shapes and parameters: non-square (5 in, 3 out, 4 hidden), unequal s and d, modes
# starting below, near and above their plateau, tau not 1.
S, D, A0, TAU = np.array([1.5, 0.6, 0.2]), np.array([0.8, 1.7, 0.3]), np.array([1e-3, 2e-2, 1.0]), 3.7


@pytest.mark.claim(*LAW)
def test_closed_form_solves_the_mode_ode(claim):
    results = {cid: checks.symbolic_solution(REGISTRY[cid].printed) for cid in LAW}
    ok = all(all(r.values()) for r in results.values())
    claim.holds(ok, "sympy: tau a' - 2a(s - da) simplifies to 0; a(0) = a0; a(inf) = s/d; "
                    f"s->0 limit a0/(1 + 2 d a0 t/tau): {results['BL-Eq(7)']}")


@pytest.mark.claim(*LAW)
def test_closed_form_matches_the_matrix_flow_from_aligned_balanced_init(claim):
    t, modes, drift = checks.aligned_flow(5, 3, 4, S, D, A0, TAU)
    err = checks.matrix_flow_error(ml.trajectory, t, modes, S, D, A0, TAU)
    # 1e-8: solve_ivp runs at rtol 1e-10; the formula is evaluated at 50 digits.
    claim.holds(err <= 1e-8, f"full matrix flow (5 in, 3 out, 4 hidden, tau {TAU}) vs Eq.: max "
                             f"rel err {err:.2g} <= 1e-8; conserved W2'W2 - W1W1' drift {drift:.1g}")


@pytest.mark.claim(*LAW)
def test_closed_form_matches_the_scalar_ode_everywhere(claim):
    result = search(
        lambda p: (lambda e: (e <= 1e-8, e))(checks.scalar_ode_error(ml.trajectory, **p)),
        examples=[dict(p=dict(s=1.0, d=1.0, a0=1.0, tau=1.0)),        # stationary at the plateau
                  dict(p=dict(s=1e-3, d=10.0, a0=2e-5, tau=1e5)),     # slow, nearly s -> 0
                  dict(p=dict(s=10.0, d=1e-3, a0=1e-4, tau=1.0)),     # nearly d -> 0
                  dict(p=dict(s=0.5, d=2.0, a0=0.5, tau=7.0))],       # decaying from 2 s/d
        p=mode_params())
    # 1e-8: the reference ODE runs at rtol 1e-12, the formula at 50 digits.
    claim.holds(result.ok, result.evidence("rel err of Eq. vs solve_ivp of tau a' = 2a(s-da), "
                                           "a0 up to 2 s/d (decaying too)"))
