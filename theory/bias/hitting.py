"""Hitting times and the dead-unit delay: BL-Def-Hit, BL-Eq(14) (= Eqs. 25-27).

§5.4 L245-L255, App F.3-F.4 L708-L779.  Symbols of ``theory.mode_law``; ``g`` is the paper's
``g-bar``, the factor that rescales a_0 in the ReLU network (a_0 -> a_0 g, F.4 L746).
"""
from __future__ import annotations

import sympy as sp

from theory import mode_law as ml
from theory.registry import register

s, d, a0, rho, tau = ml.s, ml.d, ml.a0, ml.rho, ml.tau
g = sp.Symbol("g", positive=True)

#: BL-Def-Hit (L247): t^ with a(t^) = rho, the first time the mode reaches the small level rho.
HIT = register(
    id="BL-Def-Hit", paper="bias", where="Sec 5.4, L247; App F.3 L710", kind="definition",
    title="hitting time of a mode",
    statement=r"the 'hitting time' is 'the time taken for the mode to begin learning (\hat t such "
              r"that a_\alpha(\hat t) > \rho for a small \rho \in R^+)'",
    printed=sp.Eq(ml.trajectory, rho), expected="defined",
    notes="Operationally the first crossing a(t^) = rho (F.3 L713); the trajectory is monotone, "
          "so it is unique and a(t) > rho for every later t.")

#: Eq. (14) as printed (L253 = F.4 L762): numerator N and denominator D of the log.
numerator = s ** 2 * a0 - s * d * a0 ** 2 * g - s * rho * d * a0 + d ** 2 * a0 ** 2 * g * rho
denominator = (s ** 2 * a0 * g - s * d * a0 * g * rho - s * d * a0 ** 2 * g
               + d ** 2 * a0 ** 2 * g * rho)
delay_printed = tau / (2 * s) * sp.log(numerator / denominator)
#: Eq. (26) (linear) and Eq. (27) (ReLU: a_0 -> a_0 g) as printed.
t_linear = tau / (2 * s) * sp.log((s * rho - d * a0 * rho) / (s * a0 - d * a0 * rho))
t_relu = tau / (2 * s) * sp.log((s * rho - d * a0 * g * rho) / (s * a0 * g - d * a0 * g * rho))
#: Corrected: the rho-free form; g is the fraction of units ALIVE at init (1 - dead rate).
delay_corrected = tau / (2 * s) * sp.log((s - d * a0 * g) / (g * (s - d * a0)))

DELAY = register(
    id="BL-Eq(14)", paper="bias", where="Sec 5.4, Eq. (14), L251-L255; App F.4 Eqs. (25)-(27)",
    kind="identity", title="delay caused by dead units",
    statement=r"with \bar g 'the rate of dead neurons': \hat t_{relu} - \hat t_{linear} = "
              r"\frac{\tau}{2s_\alpha}\log(N/D), N = s^2a_0 - sda_0^2\bar g - s\rho da_0 + d^2a_0^2"
              r"\bar g\rho, D = s^2a_0\bar g - sda_0\bar g\rho - sda_0^2\bar g + d^2a_0^2\bar g\rho; "
              r"'this equation is positive definite. Thus, dead neurons always increase the hitting "
              r"time' (positivity reduced to s > d\rho, F.4)",
    printed={"delay": delay_printed, "g_meaning": "dead fraction"},
    corrected={"delay": delay_corrected, "g_meaning": "alive fraction"},
    corrected_statement=r"\bar g is the fraction of units alive at init (a_0 \to \bar g a_0): "
                        r"N/D = (s - da_0\bar g)/(\bar g(s - da_0)), independent of \rho; "
                        r"N - D = a_0 s(1-\bar g)(s - d\rho); the delay is positive iff 0 < \bar "
                        r"g < 1 (s > d\rho is only the domain of Eq. 13); ~ (\tau/2s)\ln(1/\bar g)",
    expected="erratum",
    notes="Eq. (25) should read W_2 G W_1 with sqrt(A), and the proof is in F.4, not F.3.")
