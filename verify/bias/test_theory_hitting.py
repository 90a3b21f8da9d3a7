"""Hitting time (BL-Def-Hit) and the delay caused by dead units (BL-Eq(14), App F.4)."""

import numpy as np
import pytest
import sympy as sp

from theory import mode_law as ml
from theory.bias import hitting as h
from theory.registry import REGISTRY
from verify.bias import evidence as ev
from verify.bias import figures
from verify.bias import symbolic as sym
from verify.measurement import exact, reading
from verify.properties import search

from verify.strategies import delay_params, hitting_params

SYMPY = exact("sympy simplify")


@pytest.mark.claim("BL-Def-Hit")
def test_first_crossing_is_unique_and_learning_stays_above(claim):
    definition = REGISTRY["BL-Def-Hit"].printed          # a(t^) = rho
    a_of = sp.lambdify((ml.t, ml.s, ml.d, ml.a0, ml.tau), definition.lhs)
    res = search(lambda p: sym.first_crossing_error(a_of, p), ("<=", 1e-9), p=hitting_params())
    claim.defined(claim.measure(
        "a0 < rho < s/d: rel err of a(t^) = rho, or 1 if a(t) does not increase or crosses rho "
        "other than once (400-point grid), worst", res,
        source=reading("closed forms in float64 near the plateau lose ~6 digits to cancellation")))


@pytest.mark.claim("BL-Eq(14)")
def test_delay_algebra_sign_and_the_meaning_of_g(claim):
    printed, corrected = sym.delay_evidence(h.DELAY.printed["delay"], h.numerator, h.denominator,
                                            delay_params())
    claim.erratum(printed=printed, corrected=corrected,
                  counterexample="g = dead rate: no dead units (g -> 0) gives an unbounded delay "
                                 "(10.4 at g = 1e-9) and more dead units a shorter one; all units "
                                 "dead (g = 1) gives zero delay")


@pytest.mark.claim("BL-Eq(14)")
def test_gated_linear_networks_are_delayed_by_the_alive_fraction(claim, report_figure,
                                                                  gated_linear_runs):
    """F.4's own model, trained: gating off a fraction f of hidden units delays every mode by
    about (tau/2s) ln(1/(1-f)); with g read as the dead rate the delay would shrink with f."""
    delays = sym.gated_delays(*gated_linear_runs)
    printed, corrected = sym.gated_delay_evidence(delays)
    report_figure(figures.gated_delay_figure(delays),
                  "BL-Eq(14): half-rise delays of linear networks with a fraction of hidden units "
                  "gated off (F.4's model; 4-item tree + bias, 32 seeds, mean and 2 SE as "
                  "markers) against (tau/2s) ln(1/g) with g the alive fraction (solid lines) "
                  "and with g the dead rate as printed (dashed)")
    mean = delays["mean"]
    claim.erratum(printed=printed, corrected=corrected,
                  note=f"gated linear networks (H = 64, sigma^2 = 2e-4, eps = 2e-3, 32 seeds), "
                       f"modes s = {np.round(delays['s'], 3).tolist()}",
                  counterexample=f"dead fraction 0.25 vs 0.75: the measured delay triples (mode "
                                 f"0: {mean[0, 0]:.0f} -> {mean[2, 0]:.0f} steps) while g = dead "
                                 "rate predicts it to shrink 4.8-fold")


@pytest.mark.claim("BL-Eq(14)")
def test_delay_matches_the_mode_law_with_rescaled_a0(claim, report_figure):
    """The delay is the exact time shift between a(t; a0) and a(t; g a0) at every level rho."""
    s, d, a0, tau, g = 0.43, 0.25, 6e-3, 1250.0, 0.6
    levels = np.array([0.05, 0.5, 0.9, 0.999]) * s / d
    shift = [sym.a0_shift(r, s, d, a0, tau, g) for r in levels]
    formula = float(sp.N(h.DELAY.corrected["delay"].subs({h.s: s, h.d: d, h.a0: a0, h.tau: tau, h.g: g})))
    err = max(abs(v - formula) / formula for v in shift)
    claim.holds(claim.measure("hitting-time difference at levels rho = (0.05, 0.5, 0.9, 0.999) s/d"
                              " vs corrected Eq. (14), max rel err", err, "<=", 1e-10,
                              source=reading("differences of float64 logs of O(1) arguments")),
                note="s = 0.43, d = 0.25, a0 = 6e-3, tau = 1250, g = 0.6")
    report_figure(figures.delay_figure(), "BL-Eq(14): delay in units of tau/(2s) against the alive "
                  "fraction g (s = d = 1, a0 = 1e-3): corrected rho-free form (line), hitting-time "
                  "differences of the mode law at several rho (markers), and the printed reading "
                  "g = dead rate (dashed), which diverges with no dead units")


@pytest.mark.claim("BL-Def-G")
def test_g_bar_must_be_the_alive_fraction(claim, no_dead_unit_runs):
    """A ReLU network whose units are all active on all inputs is exactly linear (no delay): its
    dead rate is 0 and its alive fraction 1."""
    printed, corrected = ev.g_bar(no_dead_unit_runs, REGISTRY["BL-Def-G"].printed,
                                  REGISTRY["BL-Def-G"].corrected)
    claim.erratum(printed=printed, corrected=corrected,
                  note="network with no dead unit: b += 1 at init; the measured delay is 0",
                  counterexample="0 dead units: g-bar = the dead rate = 0 makes D = 0 (an "
                                 "unbounded delay), but the measured ReLU-linear delay is 0")
