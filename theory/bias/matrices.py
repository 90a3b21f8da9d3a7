"""Matrix symbols of the bias paper (BL §5.1 L183-L203, App B L544-L576), shared by its claims.

Dimensions are symbols, so that a printed formula whose shapes do not conform can still be
written down exactly as printed; it fails only when a check instantiates the dimensions
(``verify.bias.checks.evaluate``).  Columns are samples, as in the paper: ``X`` is N_in x P.
"""
from __future__ import annotations

import sympy as sp

N_in, N_hid, N_out, P = sp.symbols("N_in N_hid N_out P", integer=True, positive=True)
eps = sp.Symbol("epsilon", positive=True)    # learning rate
c = sp.Symbol("c", nonzero=True)             # bias strength (BL-Def-Aug), either sign
tau = sp.Symbol("tau", positive=True)

# data (columns are samples) and one sample
X = sp.MatrixSymbol("X", N_in, P)
Y = sp.MatrixSymbol("Y", N_out, P)
x = sp.MatrixSymbol("x", N_in, 1)
#: augmented sample [c; x] and data [c 1^T; X]
x_aug = sp.MatrixSymbol("x_aug", N_in + 1, 1)
X_aug = sp.MatrixSymbol("X_aug", N_in + 1, P)
ones = sp.MatrixSymbol("ones", P, 1)
ones_out = sp.MatrixSymbol("ones_out", N_out, 1)

# parameters: W1 (N_hid x N_in), b (N_hid), W~1 = [b W1] (N_hid x (N_in + 1)), W2 (N_out x N_hid)
W1 = sp.MatrixSymbol("W1", N_hid, N_in)
b = sp.MatrixSymbol("b", N_hid, 1)
W1_aug = sp.MatrixSymbol("W1_aug", N_hid, N_in + 1)
W2 = sp.MatrixSymbol("W2", N_out, N_hid)

# hidden layer over the data: H = sigma(Z), S' = sigma'(Z) (both N_hid x P)
H = sp.MatrixSymbol("H", N_hid, P)
dsigma = sp.MatrixSymbol("dsigma", N_hid, P)

# correlations (App B Eq. 16, un-augmented) and their decomposition (Eq. 4 / Eq. 16)
Syx = sp.MatrixSymbol("Syx", N_out, N_in)
Sx = sp.MatrixSymbol("Sx", N_in, N_in)
U = sp.MatrixSymbol("U", N_out, N_out)
S = sp.MatrixSymbol("S", N_out, N_in)
V = sp.MatrixSymbol("V", N_in, N_in)
D = sp.MatrixSymbol("D", N_in, N_in)
R = sp.MatrixSymbol("R", N_hid, N_hid)
W1_bar = sp.MatrixSymbol("W1_bar", N_hid, N_in)
W2_bar = sp.MatrixSymbol("W2_bar", N_out, N_hid)

DIMENSIONS = (N_in, N_hid, N_out, P)


def half_sum_of_squares(E):
    """``1/2 sum_ij E_ij^2`` of an N_out x P matrix expression: the 1/2-sum loss (BL L189)."""
    return sp.Rational(1, 2) * ones_out.T * sp.HadamardProduct(E, E) * ones
