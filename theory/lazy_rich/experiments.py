"""Experimental protocols of App E: Algorithm 1, the tasks, the per-figure settings."""
import sympy as sp

from theory.lazy_rich.symbols import S1, S2
from theory.registry import Forms, register

register(
    id="LR-Alg1", paper="lazy_rich", where="App E.1, Algorithm 1, l.679-680", kind="algorithm",
    title="constructing a lambda-balanced initialisation for any lambda and shapes",
    statement="Draw Gaussian W1, W2 (or take Syx); SVD W2W1 = USV^T; R from QR of a Gaussian; "
              "S1, S2 from Eq. 18; W1 = R S1 V^T, W2 = U S2 R^T",
    printed=Forms(S1=S1, S2=S2), expected="holds", reconstructed=True,
    notes="One public code version uses sqrt(lam^2 + 4 S) (missing square): still balanced, wrong "
          "function. Not in the paper.")

register(
    id="LR-T1", paper="lazy_rich", where="App E.2.1, l.683-684", kind="definition",
    title="random regression task", statement="X ~ N(0,1), whitened; targets Y iid Gaussian, independent of X",
    printed=None, expected="defined", reconstructed=False,
    notes="Target variance: E.2.1 says 'scaled according to the number of output nodes' (value masked), the "
          "released utils.py draws N(0, 1); LR-Framing runs both. With P > Ni no exact linear solution exists (c > 0).")

register(
    id="LR-T2", paper="lazy_rich", where="App E.2.2, Eqs. (188)-(189), l.685-690", kind="definition",
    title="8-item semantic hierarchy",
    statement="8 one-hot items, 8 hierarchical features; the first two, the third and fourth, and the last "
              "four singular values are equal",
    printed=sp.Matrix([1, 1, 1 / sp.sqrt(2), 1 / sp.sqrt(2), sp.Rational(1, 2), sp.Rational(1, 2),
                       sp.Rational(1, 2), sp.Rational(1, 2)]),
    expected="defined", reconstructed=True,
    notes="Whitened with X = sqrt(8) I. The label perturbation of Eq. 189 is not needed for QQ^T (E20).")

register(
    id="LR-Exp", paper="lazy_rich", where="App E.3-E.7 (all values masked)", kind="definition",
    title="per-figure protocols",
    statement="Figure protocols of App E with every hyper-parameter value missing from the text",
    printed=None, expected="defined", reconstructed=True,
    notes="The suite's protocols (numerics/lazy_rich/configs.py): Fig. 1B at the released notebook's (3,3,3), "
          "P = 10; Fig. 5 / A.4 funnel (6,2,2), square (4,4,4), inverted funnel (2,2,6), P = 8 (masked: the "
          "suite's choice); Fig. 11 (5,5,5), P = 25; the hierarchy (8,8,8); all satisfy A1-A3.")
