"""The workshop paper's setting and App A: BA-S1, BA-S2, BA-S3, BA-Eq(1), BA-Eq(2).

§2 "Setting" L48-L55 and App A L117-L133.  The workshop paper writes N for the sample count
(the long paper's P); the matrix symbols are the long paper's (``theory.bias.matrices``).
"""
from __future__ import annotations

import sympy as sp

from theory.bias import matrices as m
from theory.registry import Forms, register

N = m.P   # the workshop paper's sample count
Y_hat = sp.MatrixSymbol("Y_hat", m.N_out, N)

MODELS = register(
    id="BA-S1", paper="bias_workshop", where="Sec 2 'Setting', L48, L55", kind="definition",
    title="linear and ReLU networks with a hidden bias",
    statement=r"\hat y_i = W^2(W^1x_i + b); ReLU \hat y_i = W^2\sigma(\tilde W^1x_i + b), \sigma(x) "
              r"= max(x, 0); W^1 \in R^{N_hid x N_in}, W^2 \in R^{N_out x N_hid}, b \in R^{N_hid}",
    printed={"linear": m.W2 * (m.W1 * m.x + m.b), "relu_preactivation": m.W1 * m.x + m.b},
    expected="defined",
    notes="W~1 is never defined in the workshop paper (BA-E1); read as the ReLU network's own "
          "W^1 (N_hid x N_in), the only reading whose shapes conform.  'Without bias': b = 0, "
          "not trained.")

LOSS = register(
    id="BA-S2", paper="bias_workshop", where="Sec 2 'Setting', L55", kind="definition",
    title="loss and optimiser",
    statement=r"\mathcal L(\hat y) = \frac12\sum_{i=1}^N ||y_i - \hat y_i||^2; full batch gradient "
              r"descent in the gradient flow regime from small initial conditions; hidden size 64 "
              r"(Figs. 1-3)",
    printed={"loss": m.half_sum_of_squares(m.Y - Y_hat),
             "hidden": 64},
    expected="defined",
    notes="Init scale, rate and bias init are not given in the workshop paper; the long paper's "
          "App E gives sigma^2 = 2e-4 and eps = 2e-4.")

CORRELATIONS = register(
    id="BA-Eq(1)", paper="bias_workshop", where="App A, Eq. (1), L121-L124", kind="definition",
    title="correlation matrices and their SVD",
    statement=r"\Sigma^{yx} = \frac1N YX^T = USV^T, \Sigma^x = \frac1N XX^T = VDV^T, X \in R^{N_in "
              r"x N}, Y \in R^{N_out x N}; 'crucially, if the right singular vectors V^T of "
              r"\Sigma^{yx} diagonalize \Sigma^x ...'",
    printed={"Syx": m.Y * m.X.T / N, "Sx": m.X * m.X.T / N,
             "svd": (m.U * m.S * m.V.T, m.V * m.D * m.V.T)},
    expected="defined")

#: Eq. (2): W2(t) W1(t) = U A(t) V^T with A(t) diagonal.
A = sp.MatrixSymbol("A", m.N_out, m.N_in)
NETWORK_MAP = register(
    id="BA-Eq(2)", paper="bias_workshop", where="App A, Eq. (2), L124-L129", kind="identity",
    title="network map stays diagonal in the SVD basis",
    statement=r"'if the right singular vectors V^T of \Sigma^{yx} diagonalize \Sigma^x the full "
              r"evolution of network weights for deep and shallow networks can be described as' "
              r"W^2(t)W^1(t) = UA(t)V^T, A(t) diagonal",
    printed=Forms(product=m.W2 * m.W1, diagonal_form=m.U * A * m.V.T), expected="holds-if",
    condition="the initialisation is decoupled: W^1(0) = R W1_bar V^T, W^2(0) = U W2_bar R^T with "
              "diagonal W_bar (from small random init A(t) is only approximately diagonal); only "
              "the product, not each weight, is determined; two-layer networks",
    notes="BA-E7: 'full evolution of network weights' and 'deep and shallow' over-claim.")

TIME_CONSTANT = register(
    id="BA-S3", paper="bias_workshop", where="App A, L133", kind="constant",
    title="time constant tau = 1/(N eps)",
    statement=r"'\tau = \frac{1}{N\epsilon} is the time constant where \epsilon is the learning "
              r"rate' (t in full-batch steps, the 1/2-sum loss)",
    printed=1 / (N * m.eps), expected="holds")
