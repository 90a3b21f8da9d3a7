"""App C / Sec 3 of Make haste slowly: the XoR-with-margin task, its two GDLN solutions and the
crossover Delta = sqrt(2/3) (MHS-C-Eq(11,12) .. MHS-C-Eq(24-26), MHS-Fig2).

All statistics use the paper's 1/N (N = 4) and the 1/(2N) loss, so L(0) = 1/2."""
import sympy as sp

from theory.registry import Forms, register
from theory.validation import InvalidArgument

Delta = sp.Symbol("Delta", nonnegative=True)
a, a0, t, tau, s, d = sp.symbols("a a_0 t tau s d", positive=True)

X = sp.Matrix([[-1, 1, -1, 1], [-1, -1, 1, 1], [-Delta, Delta, Delta, -Delta]])
Y = sp.Matrix([[-1, 1, 1, -1]])
N = 4

# Eq. (13)-(16): positive pathway (on for x2, x3)
SYX_POS = sp.Matrix([[0, 0, Delta / 2]])
SX_POS = sp.Rational(1, 2) * sp.Matrix([[1, -1, 0], [-1, 1, 0], [0, 0, Delta ** 2]])
# Eq. (17)-(19)
S_LIN, D_LIN = Delta / 2, Delta ** 2 / 2
TRAJ_18 = (s / d) / (1 - (1 - s / (d * a0)) * sp.exp(-2 * s * t / tau))
TRAJ_19 = (1 / Delta) / (1 - (1 - 1 / (Delta * a0)) * sp.exp(-Delta * t / tau))
# Eq. (20)-(22)
LOSS_20 = sp.Rational(1, 2) * sp.Rational(1, 2) - s * a + sp.Rational(1, 2) * d * a ** 2
LOSS_21 = sp.Rational(1, 4) - Delta * a / 2 + Delta ** 2 * a ** 2 / 4
LOSS_22 = sp.Rational(1, 2) - Delta * a + Delta ** 2 * a ** 2 / 2
# Eq. (23): single-example pathway 1, as printed and corrected
SYX_ONE = sp.Matrix([[1, 1, Delta]]) / 4
S_XOR = sp.sqrt(sp.Rational(1, 8) + Delta ** 2 / 16)
D_XOR_PRINTED = sp.Rational(1, 8) + Delta ** 2 / 16
D_XOR = sp.Rational(1, 2) + Delta ** 2 / 4          # = |x_1|^2 / N = 4 s^2
LOSS_23 = sp.Rational(1, 2) - 4 * s * a + 2 * d * a ** 2
# Eq. (24)-(26)
CROSSOVER_EQ = sp.Eq(Delta / 2, S_XOR)
CROSSOVER = sp.sqrt(sp.Rational(2, 3))


def pathway_statistics(X, Y, gate, N: int):
    """(Sigma^yx, Sigma^x) of a pathway gated on the datapoints of ``gate`` (1/N over all N), from
    sympy matrices X (d, N) and Y (m, N) (Eq. 4 for one pathway)."""
    if not (isinstance(X, sp.MatrixBase) and isinstance(Y, sp.MatrixBase)):
        raise InvalidArgument("X and Y must be sympy matrices")
    if len(gate) != X.shape[1] or Y.shape[1] != X.shape[1]:
        raise InvalidArgument(f"gate ({len(gate)}), X ({X.shape[1]}) and Y ({Y.shape[1]}) must cover "
                              "the same datapoints")
    if int(N) != N or N < 1:
        raise InvalidArgument(f"N={N!r} must be a positive integer")
    Gm = sp.diag(*gate)
    return (Y * Gm * X.T) / N, (X * Gm * X.T) / N


def mode_of(syx, sx):
    """(s, d) of a rank-one Sigma^yx = s u v^T: s = ||Sigma^yx||, d = v^T Sigma^x v (sympy)."""
    if not (isinstance(syx, sp.MatrixBase) and isinstance(sx, sp.MatrixBase)) or syx.shape[0] != 1:
        raise InvalidArgument("syx must be a 1-row sympy matrix and sx a sympy matrix")
    s = sp.sqrt(sp.simplify((syx * syx.T)[0, 0]))
    v = syx.T / s
    return sp.simplify(s), sp.simplify((v.T * sx * v)[0, 0])


def loss_at_plateau(loss_expr, s_expr, d_expr, a, s, d):
    """The loss expression (in a, s, d) at a* = s/d: a squared loss that is learned must give 0."""
    return sp.simplify(loss_expr.subs(a, s_expr / d_expr).subs({s: s_expr, d: d_expr}))


P = "haste_slowly"
register(id="MHS-C-Eq(11,12)", paper=P, where="App C, Eq. (11, 12), L462-L466",
         kind="definition", title="XoR-with-margin dataset",
         statement=r"X = [[-1,1,-1,1],[-1,-1,1,1],[-\Delta,\Delta,\Delta,-\Delta]], y = [-1,1,1,-1]",
         printed=Forms(X=X, y=Y), expected="defined",
         notes="'margin 2 Delta' is the class gap along x3; the max-margin hyperplane has margin Delta.")
register(id="MHS-C-Eq(13-16)", paper=P, where="App C, Eq. (13)-(16), L474-L480", kind="identity",
         title="effective statistics of the positive linear pathway",
         statement=r"\Sigma^{yx}(p) = [0, 0, \Delta/2], \Sigma^x(p,p) = \frac12[[1,-1,0],[-1,1,0],"
                   r"[0,0,\Delta^2]]",
         printed=Forms(syx=SYX_POS, sx=SX_POS), expected="holds")
register(id="MHS-C-Eq(17-19)", paper=P, where="App C, Eq. (17)-(19), L488-L494",
         kind="ode-solution", title="linear pathway: s = Delta/2, d = Delta^2/2, trajectory",
         statement=r"a(t) = \frac{1/\Delta}{1-(1-\frac{1}{\Delta a_0})e^{-\Delta t/\tau}}",
         printed=Forms(s=S_LIN, d=D_LIN, traj_18=TRAJ_18, traj_19=TRAJ_19), expected="holds")
register(id="MHS-C-Eq(20-22)", paper=P, where="App C, Eq. (20)-(22), L498-L504", kind="identity",
         title="loss of the linear-gating GDLN",
         statement=r"L_p = Tr\Sigma^y(p)/2 - sa + \frac12 da^2 = \frac14 - \frac{\Delta a}2 + "
                   r"\frac{\Delta^2a^2}4; L = \frac12 - \Delta a + \frac{\Delta^2 a^2}{2}",
         printed=Forms(loss_20=LOSS_20, loss_21=LOSS_21, loss_22=LOSS_22), expected="holds")
register(id="MHS-C-Eq(23)", paper=P, where="App C, Eq. (23), L508-L514", kind="identity",
         title="XoR-gating GDLN: s, d and loss",
         statement=r"s = \sqrt{1/8 + \Delta^2/16}, d = 1/8 + \Delta^2/16, "
                   r"L = 1/2 - 4 s a + 2 d a^2 (via 'Eqn. 19')",
         printed=Forms(s=S_XOR, d=D_XOR_PRINTED, loss=LOSS_23),
         corrected=Forms(s=S_XOR, d=D_XOR, loss=LOSS_23),
         corrected_statement="d = v^T Sigma^x(1) v = |x_1|^2/4 = 1/2 + Delta^2/4 (= 4 s^2), so "
                             "a* = s/d = 1/(4s) and L(a*) = 0; the trajectory is Eq. 18 (not 19)",
         expected="erratum")
register(id="MHS-C-Eq(24-26)", paper=P, where="App C, Eq. (24)-(26), L516-L524; L105",
         kind="constant", title="crossover Delta = sqrt(2/3)",
         statement=r"\Delta/2 = \sqrt{1/8+\Delta^2/16} \Rightarrow 4\Delta^2 = 2+\Delta^2 "
                   r"\Rightarrow \Delta = \sqrt{2/3}; XoR GDLN faster below, linear above",
         printed=Forms(equation=CROSSOVER_EQ, root=CROSSOVER), expected="holds",
         notes="With equal raw a0 the time-to-criterion crossover lies above sqrt(2/3) and tends "
               "to it as a0 -> 0 (the paper says 'approximate').")
register(id="MHS-Fig2", paper=P, where="Fig 2 caption, L101; L105", kind="empirical",
         title="ReLU net follows the faster gated network across Delta",
         statement="(Fig 2d:) The ReLU network behaves like the faster of the two gated networks. "
                   "(L105:) This crossover point is Delta = sqrt(2/3) (Figure 2d grey dashed line), "
                   "which marks the approximate point at which a ReLU network switches from a "
                   "linear decision boundary to a nonlinear boundary (see Appendix C).",
         expected="holds",
         clauses={"The ReLU network behaves like the faster of the two gated networks":
                      "|T_ReLU - T_slower| - |T_ReLU - T_faster|",
                  "which marks the approximate point at which a ReLU network switches from a "
                  "linear decision boundary to a nonlinear boundary":
                      "share of linear-gated large units"})
