"""The single-neuron model in parameter space (Sec 3 L52-65, App A L276-308) and the Fig. 1
teacher-student phase portrait."""
import sympy as sp

from theory.registry import register
from theory.rich_quick.single_neuron_symbols import (
    DELTA_OF_WEIGHTS,
    WEIGHT_FLOW,
    a,
    eta_a,
    eta_w,
)


def ntk_expression(n: int, d: int):
    """Eqs. (1)/(10) as printed, ``K = X (eta_w a^2 I_d + eta_a w w^T) X^T``, for an n x d data
    matrix of symbols ``x_ij`` and weights ``w_1..w_d``; returns (K, X symbols, w symbols)."""
    for name, value in (("n", n), ("d", d)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}={value!r} must be a positive integer")
    X = sp.Matrix(n, d, lambda i, j: sp.Symbol(f"x_{i}_{j}", real=True))
    w = sp.Matrix(d, 1, lambda i, _: sp.Symbol(f"w_{i}", real=True))
    return X * (eta_w * a ** 2 * sp.eye(d) + eta_a * w * w.T) * X.T, X, w


NTK_PRINTED = ntk_expression(4, 2)[0]

register(
    id="GRQ-Fig1", paper="rich_quick", where="Fig. 1 caption L24; App D.1 L945-968",
    kind="empirical", title="Teacher-student ReLU phase portrait over scale tau and geometry delta",
    statement="(a) d=2: tau=0.1 rich, tau=2 lazy; at tau=0.1 upstream (delta=1) aligns |a_i|w_i "
              "to the teacher, downstream (delta=-1) does not. (b) d=100 sweep: lazy at large "
              "tau, rich at small tau, rapid rich and smallest test loss at small tau, large delta",
    expected="not-reproduced",
    notes="Init: w_i ~ Unif(S^{d-1}(tau/alpha)), a_i = +-alpha tau, symmetrised; "
          "alpha^2 = (delta/tau^2 + sqrt(delta^2/tau^4 + 4))/2.  Loss: App D 'mean square loss' "
          "(EXPERIMENT_LOSS).  The committed paper-scale runs decide (Fig. 1(a) with the "
          "authors' teacher; Fig. 1(b) at the five cells the caption compares, released seeds "
          "100-115, 1e5 steps): at the end the upstream corner's test MSE (0.84e-3, seed mean) "
          "is above delta = 0's (0.69e-3), so 'smallest test loss' fails; the released "
          "17 x 17 x 16 grid is a GPU job, not run.")

register(
    id="GRQ-Eq(1)", paper="rich_quick", where="Sec 3, Eq. (1), L54", kind="identity",
    title="Single-neuron NTK", statement=r"K = X(\eta_w a^2 I_d + \eta_a w w^\top)X^\top",
    printed=NTK_PRINTED, expected="holds")

register(
    id="GRQ-Claim-Minima", paper="rich_quick", where="Sec 3 L58, footnote 2 L65; App A L288",
    kind="identity", title="Minima hyperbola a w = beta_*, saddles {a=0, w^T X^T y = 0}",
    statement="Global minima solve X^T X a w = X^T y; for invertible X^T X they form the "
              "hyperbola a w = beta_* with two branches; the saddles are the (d-1)-dim subspace "
              "a = 0, w^T X^T y = 0; all but a measure-zero set of inits reach a global minimum",
    printed=None, expected="holds")

register(
    id="GRQ-Cons-delta", paper="rich_quick", where="Sec 3 L58-65, Fig. 2; App A.1 L290-300",
    kind="conserved", title="delta conserved; hyperboloid geometry of the conserved surface",
    statement=r"\dot\delta = 0 for any X, y; \delta<0 one-sheeted hyperboloid, \delta=0 double "
              r"cone, \delta>0 two-sheeted hyperboloid",
    printed=sum(sp.diff(DELTA_OF_WEIGHTS, s) * f for s, f in WEIGHT_FLOW.items()),
    condition="d >= 2 for the one-sheeted (connected) surface at delta < 0; at d = 1 it has two "
              "sheets",
    expected="holds-if",
    notes="Catalogue E32.  Conservation itself holds for every X, y, rates (symbolic + ODE).")

register(
    id="GRQ-Claim-Span", paper="rich_quick", where="Sec 3 L64", kind="identity",
    title="w(t) stays in span{w0, beta_*} and aligns to +-beta_*",
    statement=r"X^\top X = I: w(t) \in span\{w_0, \beta_*\}; w aligns to \pm\beta_*",
    printed=None, expected="holds",
    notes="Also the decay law P_perp w(t) = exp(-eta_w int a^2) P_perp w0 (catalogue OD-7).")

register(
    id="GRQ-Eq(10)-(12)", paper="rich_quick", where="App A, Eqs. (10)-(12), L276-288",
    kind="identity", title="NTK and the weight gradient flow",
    statement=r"\dot a = -\eta_a w^\top(X^\top X a w - X^\top y), "
              r"\dot w = -\eta_w a(X^\top X a w - X^\top y)",
    printed=NTK_PRINTED, expected="holds",
    notes="Checked as the rate-weighted gradient of the 1/2-sum loss (autograd).")

register(
    id="GRQ-Eq(13)", paper="rich_quick", where="App A.1, Eq. (13), L294-298", kind="conserved",
    title="Conserved delta (derivation)",
    statement=r"\delta = \eta_w a^2 - \eta_a\|w\|^2, \dot\delta = 2\eta_w a\dot a - "
              r"2\eta_a w^\top\dot w = 0",
    printed=DELTA_OF_WEIGHTS, expected="holds")

register(
    id="GRQ-Eq(14)-(15)", paper="rich_quick", where="App A.2, Eqs. (14)-(15), L302-308",
    kind="identity", title="Whitened weight flow",
    statement=r"X^\top X = I: \dot a = \eta_a(w^\top\beta_* - a\|w\|^2), "
              r"\dot w = \eta_w(a\beta_* - a^2 w)",
    printed=WEIGHT_FLOW, expected="holds")

