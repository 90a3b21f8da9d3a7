"""The sigmoidal mode law of a two-layer linear network, shared by four of the five papers.

``tau * da/dt = 2 a (s - d a)`` (MHS-A-Mode; the corrected form of BL-Eq(21), whose printed
version drops d), its closed form (BL-Eq(7) = BL-Eq(22),
BA-Eq(3), MHS-A-Eq(7)) and its hitting time (BL-Eq(13), MHS-A-Time), written once as sympy
objects.  Each paper registers its own claim with these objects; the printed forms are
character-for-character the same in all papers (after renaming lambda -> s, delta -> d,
pi_0 / omega^0 -> a0, omega^f -> rho).
"""
from __future__ import annotations

import sympy as sp
from theory.validation import InvalidArgument

t = sp.Symbol("t", nonnegative=True)
tau = sp.Symbol("tau", positive=True)
s = sp.Symbol("s", positive=True)
d = sp.Symbol("d", positive=True)
a0 = sp.Symbol("a0", positive=True)
rho = sp.Symbol("rho", positive=True)
a = sp.Symbol("a")
w1, w2 = sp.symbols("w1 w2")

#: da/dt of the reduced balanced mode (MHS-A-Mode, BA-Eq(3)'s underlying ODE; BL-Eq(21) corrected).
rhs = 2 * a * (s - d * a) / tau

#: The closed form exactly as printed in BL Eq. (7), BA Eq. (3) and MHS Eq. (7).
trajectory = (s / d) / (1 - (1 - s / (d * a0)) * sp.exp(-2 * s * t / tau))

#: The per-layer mode ODEs of MHS App A (L326-335), as printed: tau dw1/dt, tau dw2/dt.
layer_rhs = (w2 * (s - w2 * w1 * d) / tau, w1 * (s - w2 * w1 * d) / tau)

#: Hitting time as printed in BL Eq. (13): the time at which a(t) reaches rho.
hitting_time_bl = (tau / (2 * s)) * sp.log((s * rho - d * a0 * rho) / (s * a0 - d * a0 * rho))

#: Time to reach omega^f = rho from omega^0 = a0 as printed in MHS App A (L345).
hitting_time_mhs = (tau / (2 * s)) * sp.log(rho * (s - a0 * d) / (a0 * (s - rho * d)))

#: The s -> 0 limit of the trajectory, tau da/dt = -2 d a^2 (catalogues: BL-Eq(7), BA-Eq(3)).
trajectory_s0 = a0 / (1 + 2 * d * a0 * t / tau)


def ode_residual(solution: sp.Expr, rhs_expr: sp.Expr = rhs) -> sp.Expr:
    """``d solution/dt - rhs(a=solution)``, simplified; zero iff the closed form solves the ODE."""
    for name, value in (("solution", solution), ("rhs_expr", rhs_expr)):
        if not isinstance(value, sp.Basic):
            raise InvalidArgument(f"{name} must be a sympy expression, got {type(value).__name__}")
    return sp.simplify(sp.diff(solution, t) - rhs_expr.subs(a, solution))
