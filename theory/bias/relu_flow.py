"""Gradient flow of the ReLU network and its kinks: BL-Eq(8)-(10), BL-Eq(11), BL-Eq(12).

§5.3, L225-L243; App F.2 L700-L706.  Rates are per step (``Wdot = -eps dL/dW``) of the 1/2-sum
loss, with ``Z = W1 X + c b 1^T``, ``H = sigma(Z)`` and ``dsigma = sigma'(Z)`` given as matrices.
"""
from __future__ import annotations

import sympy as sp

from theory.bias import matrices as m
from theory.registry import register

Had = sp.HadamardProduct
_back = Had(m.W2.T * (m.Y - m.W2 * m.H), m.dsigma)        # [W2^T (Y - W2 H)] (.) sigma'(Z)
_back0 = Had(m.W2.T * m.Y, m.dsigma)                       # the same with W2 H ~ 0

#: Eqs. (8)-(10) as printed (L227-L231): exact rates and their small-init approximations.
relu_flow_printed = {
    "W2": m.eps * (m.Y - m.W2 * m.H) * m.H.T,
    "W1": m.eps * _back * m.X.T,
    "b": m.eps * _back * m.ones,
    "W2_init": m.eps * m.Y * m.H.T,
    "W1_init": m.eps * _back0 * m.X.T,
    "b_init": m.eps * _back0 * m.ones,
}
#: For a bias of strength c (the constant input of BL-Def-Aug) the bias rate carries a factor c.
relu_flow_corrected = {**relu_flow_printed,
                       "b": m.eps * m.c * _back * m.ones,
                       "b_init": m.eps * m.c * _back0 * m.ones}

RELU_FLOW = register(
    id="BL-Eq(8)-(10)", paper="bias", where="Sec 5.3, Eqs. (8)-(10), L225-L233",
    kind="identity", title="gradient flow of the ReLU network",
    statement=r"\dot W^2 = \epsilon(Y - W^2H)H^T; \dot W^1 = \epsilon([W^{2T}(Y - W^2H)]\odot"
              r"\sigma'(Z))X^T; \dot b = \epsilon([W^{2T}(Y - W^2H)]\odot\sigma'(Z))1; at init "
              r"(W^2H \approx 0): \epsilon YH^T, \epsilon(W^{2T}Y\odot\sigma'(Z))X^T, \epsilon"
              r"(W^{2T}Y\odot\sigma'(Z))1",
    printed=relu_flow_printed, corrected=relu_flow_corrected,
    corrected_statement=r"under Sec 5.1's augmented input (z_i = W^1x_i + cb) the bias rate is "
                        r"\dot b = \epsilon c([W^{2T}(Y - W^2H)]\odot\sigma'(Z))1; under L225's "
                        r"z_i = W^1x_i + b (printed beside the equations) the printed forms are "
                        r"exact; the two definitions agree at the paper's c = 1",
    expected="holds",
    notes="The paper's definitions conflict: L225 writes z_i = W1 x_i + b, Sec 5.1 augments the "
          "input with a constant c (z = W1 x + c b).  The printed rates hold under L225's; under "
          "Sec 5.1's with c != 1 (Fig 10's c; c = 10 for MNIST, L88) the bias rate is c times "
          "the printed one.")

#: Eq. (11) = Eq. (24) as printed (L237, L702): W2 ~ eps Y H^T substituted into Eqs. (9)-(10).
_second = Had(m.H * m.Y.T * m.Y, m.dsigma)
second_order = {"W1": m.eps ** 2 * _second * m.X.T, "b": m.eps ** 2 * _second * m.ones,
                "W2_substituted": m.eps * m.Y * m.H.T}

SECOND_ORDER = register(
    id="BL-Eq(11)", paper="bias", where="Sec 5.3, Eq. (11), L237-L239; App F.2 Eq. (24), L702",
    kind="bound", title="early bias growth is non-negative",
    statement=r"\dot W^1_0 \approx \epsilon^2(HY^TY\odot\sigma'(Z))X^T, \dot b_0 \approx "
              r"\epsilon^2(HY^TY\odot\sigma'(Z))1; 'if the outputs are element-wise positive ... "
              r"the bias term can only grow monotonically and in the case of X = I_P ... so too "
              r"will W^1'",
    printed=second_order, expected="holds-if",
    condition="the readout starts at W^2(0) = 0 (or eps t Y H^T already dominates W^2(0)); the "
              "printed term is the one-step readout, the time-integrated one is eps^2 t (...)",
    notes="'element-wise positive (semi-)definite' means element-wise non-negative.  With a "
          "random W^2(0) ~ N(0, sigma^2) the exact t = 0 rate eps(W^2(0)^T Y (.) sigma')1 has "
          "either sign.")

#: Eq. (12) as printed (L241): the kink k_j = -b_j/||w_j|| and its total derivative.
n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
w, w_dot = sp.IndexedBase("w"), sp.IndexedBase("w_dot")
b_j, b_dot = sp.symbols("b_j b_dot", real=True)
norm_w = sp.sqrt(sp.Sum(w[k] ** 2, (k, 1, n)))
kink = {"k": -b_j / norm_w,
        "k_dot": -b_dot / norm_w + sp.Sum(b_j * w[k] * w_dot[k] / norm_w ** 3, (k, 1, n))}
#: The same with a bias of strength c (effective bias c b_j); a consequence, not printed.
kink_c = {"k": -m.c * b_j / norm_w,
          "k_dot": -m.c * b_dot / norm_w + sp.Sum(m.c * b_j * w[k] * w_dot[k] / norm_w ** 3,
                                                   (k, 1, n))}

KINK_RATE = register(
    id="BL-Eq(12)", paper="bias", where="Sec 5.3, Eq. (12), L239-L241", kind="identity",
    title="kink dynamics",
    statement=r"k_j = -b_j/||w_j||, \dot k_j = -\frac{1}{||w_j||}\dot b_j + \sum_k \frac{b_j "
              r"w_{jk}}{||w_j||^3}\dot w_{jk}",
    printed=kink, expected="holds",
    notes="With bias strength c, b_j -> c b_j throughout (theory.bias.relu_flow.kink_c).")
