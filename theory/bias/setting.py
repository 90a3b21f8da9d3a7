"""The setting of the bias paper: BL-Setting, BL-Def-Aug, BL-Eq(2), BL-Eq(6), BL-Def-SimDiag.

§5.1, L183-L203 (Eqs. 2-4) and §5.2 L215 (Eq. 6).  The bias is a constant input of strength c:
``x~ = [c; x]``, ``W~1 = [b W1]``, so ``W~1 x~ = W1 x + c b``.
"""
from __future__ import annotations

import sympy as sp

from theory.bias import matrices as m
from theory.registry import Forms, register

#: BL-Setting: loss (L189), clock (App B L558) and augmented correlations (Eq. 3, L197).
Y_hat = sp.MatrixSymbol("Y_hat", m.N_out, m.P)
setting = {
    "loss": m.half_sum_of_squares(m.Y - Y_hat),
    "tau": 1 / (m.P * m.eps),
    "Syx_aug": m.Y * m.X_aug.T / m.P,
    "Sx_aug": m.X_aug * m.X_aug.T / m.P,
}

SETTING = register(
    id="BL-Setting", paper="bias", where="Sec 5.1, L183-L203; App B L544-L576",
    kind="definition", title="notation, shapes, loss and clock",
    statement=r"X = [x_1..x_P] \in R^{N_in x P}, Y \in R^{N_out x P}; L = 1/2 \sum_i ||y_i - "
              r"\hat y_i||^2, full-batch GD with rate \epsilon; \tau = 1/(P\epsilon), t in epochs "
              r"(L558; L574 writes 1/(N\epsilon) with N = samples of Eq. 16); \tilde\Sigma^{yx} = "
              r"Y\tilde X^T/P, \tilde\Sigma^x = \tilde X\tilde X^T/P (Eq. 3)",
    printed=setting, expected="defined",
    notes="N is the sample count in Eq. 16/L574 but the hidden width in F.4; the suite reads "
          "L574's N as P (theory.conventions.convention('bias')).")

#: BL-Def-Aug: augmented input and weights (L191-L193).
augmentation = {
    "x_aug": sp.BlockMatrix([[m.c * sp.Identity(1)], [m.x]]),
    "W1_aug": sp.BlockMatrix([[m.b, m.W1]]),
    "preactivation": m.W1_aug * m.x_aug,
}

AUGMENTATION = register(
    id="BL-Def-Aug", paper="bias", where="Sec 5.1, L191-L193", kind="definition",
    title="bias as a constant input of strength c",
    statement=r"\tilde x_i = [c; x_i], \tilde W^1 = [b W^1], so \hat y^{lin} = W^2\tilde W^1\tilde "
              r"x_i and \hat y^{ReLU} = W^2\sigma(\tilde W^1\tilde x_i); c = 1 unless stated "
              r"(c = 10 for MNIST)",
    printed=augmentation, expected="defined",
    notes="The effective bias is c b; dL/db = c dL/d(cb), so GD on b with rate eps is GD on the "
          "effective bias with rate c^2 eps.")

#: BL-Eq(2) as printed (L187): linear W2(W1 x + b), ReLU sigma(W~1 x + b) (argument of sigma).
networks_printed = {"linear": m.W2 * (m.W1 * m.x + m.b),
                    "relu_preactivation": m.W1_aug * m.x + m.b}
#: corrected: the bias enters as c b (the printed forms are the c = 1 case), and the ReLU
#: argument is W1 x + c b = W~1 x~.
networks_corrected = {"linear": m.W2 * (m.W1 * m.x + m.c * m.b),
                      "relu_preactivation": m.W1 * m.x + m.c * m.b}

NETWORKS = register(
    id="BL-Eq(2)", paper="bias", where="Sec 5.1, Eq. (2), L187", kind="definition",
    title="linear and ReLU networks with a hidden bias",
    statement=r"\hat y_i^{(lin)} = W^2(W^1 x_i + b), \hat y_i^{(ReLU)} = W^2\sigma(\tilde W^1 x_i "
              r"+ b), W^1 \in R^{N_hid x N_in}, W^2 \in R^{N_out x N_hid}, b \in R^{N_hid}",
    printed=networks_printed, corrected=networks_corrected,
    corrected_statement=r"\hat y_i^{(ReLU)} = W^2\sigma(W^1 x_i + c b) = W^2\sigma(\tilde W^1"
                        r"\tilde x_i) and \hat y_i^{(lin)} = W^2(W^1 x_i + c b): \tilde W^1 x_i "
                        r"does not conform (N_in + 1 columns, N_in rows) and adds b twice",
    expected="erratum")

#: BL-Eq(6) as printed (L215): W2(W1 x + b) = W2 W~1 x = U A V^T x, with V from the augmented
#: Sigma~ (Eq. 4), so A is N_out x (N_in + 1).
A = sp.MatrixSymbol("A", m.N_out, m.N_in + 1)
V_aug = sp.MatrixSymbol("V_aug", m.N_in + 1, m.N_in + 1)
svd_mapping_printed = Forms(with_bias=m.W2 * (m.W1 * m.x + m.b), augmented=m.W2 * m.W1_aug * m.x,
                            svd=m.U * A * V_aug.T * m.x)
svd_mapping_corrected = Forms(with_bias=m.W2 * (m.W1 * m.x + m.c * m.b),
                              augmented=m.W2 * m.W1_aug * m.x_aug, svd=m.U * A * V_aug.T * m.x_aug)

SVD_MAPPING = register(
    id="BL-Eq(6)", paper="bias", where="Sec 5.2, Eq. (6), L215", kind="identity",
    title="linear network map in SVD coordinates",
    statement=r"\hat y_i^{(lin)} = W^2(t)(W^1(t)x_i + b(t)) = W^2(t)\tilde W^1(t)x_i = U A(t) "
              r"V^T x_i",
    printed=svd_mapping_printed, corrected=svd_mapping_corrected,
    corrected_statement=r"W^2(W^1 x_i + c b) = W^2\tilde W^1\tilde x_i = U A(t) V^T\tilde x_i "
                        r"(augmented input; exact when W^2\tilde W^1 = U A V^T, i.e. aligned)",
    expected="erratum")

#: BL-Def-SimDiag (Eq. 4, L199-L201): Sigma~yx = U S V^T and Sigma~x = V D V^T share V.  Shared
#: right vectors <=> Sigma~yx^T Sigma~yx commutes with Sigma~x (degenerate blocks included).
Syx_aug = sp.MatrixSymbol("Syx_aug", m.N_out, m.N_in + 1)
Sx_aug = sp.MatrixSymbol("Sx_aug", m.N_in + 1, m.N_in + 1)
commutator = Syx_aug.T * Syx_aug * Sx_aug - Sx_aug * Syx_aug.T * Syx_aug

SIM_DIAG = register(
    id="BL-Def-SimDiag", paper="bias", where="Sec 5.1, Eq. (4), L199-L201", kind="definition",
    title="simultaneous diagonalisation of the augmented correlations",
    statement=r"there exist orthogonal U, V with \tilde\Sigma^{yx} = USV^T, \tilde\Sigma^x = VDV^T; "
              r"'which holds exactly in our one-hot experiments (X = I_P) and in several other "
              r"cases we consider'",
    printed=commutator, expected="holds-if",
    condition="for X = I_P and c != 0: Y^T Y 1 is proportional to 1 (every item has the same "
              "summed label overlap with all items, e.g. balanced hierarchies or one-hot classes of "
              "equal size); with unequal class sizes the commutator is not zero",
    notes="X~^T X~ = I + c^2 1 1^T for one-hot inputs, so the commutator vanishes iff Y^T Y "
          "commutes with 1 1^T.")
