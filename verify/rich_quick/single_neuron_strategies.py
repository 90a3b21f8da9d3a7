"""Hypothesis strategies for the single-neuron model (rich_quick Sec 3, App A), from small named
pieces: layer rates (general, or with the paper's WLOG product 1 but unequal), a weight point in
the (beta_*, w0) plane, and a whitened initial-value problem with delta of a chosen sign."""
from __future__ import annotations

import math

from hypothesis import assume
from hypothesis import strategies as st

from verify.strategies import log_uniform, signed_log_uniform

#: a layer learning rate, deliberately far from 1 on both sides
rates = log_uniform(0.2, 5.0)
#: ||beta_*||, never the paper's 1 only
target_norms = log_uniform(0.3, 3.0)
#: a signed magnitude, bounded away from 0
signed = signed_log_uniform(0.1, 2.5)


@st.composite
def rate_pair(draw, product_one: bool = False):
    """(eta_a, eta_w); ``product_one``: eta_a eta_w = 1 with eta_a != eta_w (the paper's WLOG)."""
    ea = draw(rates)
    if product_one:
        ea = ea if abs(math.log(ea)) > 0.2 else ea * 2.0
        return ea, 1.0 / ea
    return ea, draw(rates)


@st.composite
def weight_points(draw, product_one: bool = False, balanced: bool = False):
    """A point (a, w1, w2, b, eta_a, eta_w) in the plane coordinates (beta_* = (b, 0));
    ``balanced`` puts it on delta = 0."""
    ea, ew = draw(rate_pair(product_one))
    w1, w2 = draw(signed), draw(signed)
    a = draw(signed)
    if balanced:
        a = math.copysign(math.sqrt(ea / ew * (w1 ** 2 + w2 ** 2)), a)
    return {"a": a, "w1": w1, "w2": w2, "b": draw(target_norms), "eta_a": ea, "eta_w": ew}


@st.composite
def whitened_cases(draw, sign=None, product_one: bool = False, unit_rates: bool = False,
                   dims=st.integers(1, 4), generic: bool = False):
    """A whitened initial-value problem: d, beta_*, (a0, w0), rates; ``sign`` fixes sgn(delta)
    (-1, 0, +1) by rescaling a0 along the conserved-quantity family.  ``generic`` (always for
    delta = 0): d >= 2 and w0 not parallel to beta_*, so that w never passes through 0."""
    generic = generic or sign == 0
    d = max(draw(dims), 2) if generic else draw(dims)
    ea, ew = (1.0, 1.0) if unit_rates else draw(rate_pair(product_one))
    beta_star = [draw(signed) for _ in range(d)]
    w0 = [draw(signed) for _ in range(d)]
    a0 = draw(signed)
    if sign is not None:
        wsq = sum(x * x for x in w0)
        frac = draw(log_uniform(0.05, 20.0)) if sign > 0 else draw(st.floats(0.05, 0.95))
        a_sq = ea * wsq / ew * ((1 + frac) if sign > 0 else (1 - frac) if sign < 0 else 1.0)
        a0 = math.copysign(math.sqrt(a_sq), a0)
    if generic:
        # w0 parallel to beta_* (always so at d = 1) with a0 on the far side sends w through 0
        # (phi undefined) or, balanced, into the saddle at the origin (App A.2.2, L352)
        cos = sum(x * y for x, y in zip(w0, beta_star)) / math.sqrt(
            sum(x * x for x in w0) * sum(y * y for y in beta_star))
        assume(abs(cos) < 0.999)
    return {"a0": a0, "w0": w0, "beta_star": beta_star, "eta_a": ea, "eta_w": ew}


#: a weight point at unit rates, eta_a = eta_w = 1
unit_points = weight_points().map(lambda p: {**p, "eta_a": 1.0, "eta_w": 1.0})
