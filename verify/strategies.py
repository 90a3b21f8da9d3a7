"""Hypothesis strategies composed from small named pieces, reused across papers."""
from __future__ import annotations

from hypothesis import strategies as st


def log_uniform(lo: float, hi: float):
    """Floats spread evenly in log scale over [lo, hi]."""
    import math
    return st.floats(math.log(lo), math.log(hi)).map(math.exp)


#: a singular value of Sigma_yx (a mode's input-output correlation)
singular_values = log_uniform(1e-3, 10.0)
#: an input variance along a mode, d = v^T Sigma_x v
input_variances = log_uniform(1e-3, 10.0)
#: a time constant tau
time_constants = log_uniform(1.0, 1e5)


@st.composite
def mode_params(draw, decaying: bool = True):
    """(s, d, a0, tau) with a0 below the plateau s/d, or (``decaying``) up to twice above it."""
    s, d, tau = draw(singular_values), draw(input_variances), draw(time_constants)
    hi = 2.0 if decaying else 0.99
    a0 = draw(log_uniform(1e-8, hi)) * s / d
    return {"s": s, "d": d, "a0": a0, "tau": tau}


@st.composite
def hitting_params(draw):
    """(s, d, a0, rho, tau) with rho between a0 and the plateau s/d, either side; a0 off the
    plateau (there the mode is stationary and every hitting-time formula is 0/0)."""
    p = draw(mode_params().filter(lambda p: abs(p["a0"] * p["d"] / p["s"] - 1) > 1e-6))
    plateau = p["s"] / p["d"]
    # rho at least 1e-6 of the way: closer, the reference event time (~1e-14) is below the
    # integrator's resolution; rho = a0 itself is pinned as an @example by the tests.
    frac = draw(st.floats(1e-6, 0.999))
    p["rho"] = p["a0"] + frac * (plateau - p["a0"])
    return p
