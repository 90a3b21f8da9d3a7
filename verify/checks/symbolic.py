"""Generic symbolic checks (sympy)."""
from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from numerics.closed_forms import compiled


def is_zero(expr: sp.Expr) -> bool:
    """True when ``expr`` simplifies to 0 (sympy's simplify, then a cancel/expand fallback)."""
    expr = sp.simplify(expr)
    if expr == 0:
        return True
    return sp.simplify(sp.cancel(sp.expand(sp.powsimp(expr, force=True)))) == 0


def ode_residual(solution: sp.Expr, rhs: sp.Expr, t: sp.Symbol, state: sp.Symbol) -> sp.Expr:
    """``d solution/dt - rhs(state=solution)``, simplified."""
    return sp.simplify(sp.diff(solution, t) - rhs.subs(state, solution))


def solves(solution, rhs, t, state, initial=None) -> dict[str, bool]:
    """Whether ``solution`` solves ``d state/dt = rhs`` (its residual simplifies to 0) and, given
    ``initial``, starts there."""
    out = {"residual": is_zero(ode_residual(solution, rhs, t, state))}
    if initial is not None:
        out["t=0"] = is_zero(solution.subs(t, 0) - initial)
    return out


def high_precision(expr: sp.Expr, symbols, dps: int = 50):
    """A callable evaluating ``expr`` at ``dps`` digits (mpmath), returning floats (NaN where
    the formula is undefined or complex); vectorised over numpy arrays element by element."""
    f = compiled(symbols, expr, "mpmath")

    def evaluate(*args):
        with mpmath.workdps(dps):
            arrays = np.broadcast_arrays(*[np.asarray(a, dtype=float) for a in args])
            out = np.empty(arrays[0].shape)
            for idx in np.ndindex(out.shape):
                try:
                    value = f(*[mpmath.mpf(float(a[idx])) for a in arrays])
                except ZeroDivisionError:  # the formula is undefined (0/0 or x/0) here
                    out[idx] = np.nan
                    continue
                out[idx] = float(mpmath.re(value)) if abs(mpmath.im(value)) == 0 else np.nan
            return out
    return evaluate
