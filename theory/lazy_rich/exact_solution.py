"""The exact solution of Sec 4 and App B: Riccati equation, its Fukumizu solution, the
eigendecomposition of F, Theorem 4.3, the stable form B.5 and the conservation of the balance.

Matrix statements are sympy matrix expressions; a check evaluates them by substituting explicit
matrices for the MatrixSymbols (small sizes, float or rational entries)."""
import sympy as sp

from theory.lazy_rich.setting import GRAD_W1, GRAD_W2, W1, W2
from theory.lazy_rich.symbols import S_LAM, G, H, lam, s
from theory.registry import Forms, register

n, m, k, h_ = sp.symbols("n m k h", positive=True, integer=True)
QQ = sp.MatrixSymbol("QQ^T", n, n)
F = sp.MatrixSymbol("F", n, n)

#: Lemma 4.1 / Eq. (6): tau d(QQ^T)/dt = F QQ^T + QQ^T F - (QQ^T)^2
RICCATI_RHS = F * QQ + QQ * F - QQ * QQ

# Lemma 4.2 / Eq. (8)-(9), as per-mode 2x2 blocks in the basis (v~_i, u~_i): F_i = [[-lam/2, s],
# [s, lam/2]] has eigenpairs (+S_lam, (G - HG, G + HG)/sqrt2) and (-S_lam, (G + HG, -(G - HG))/sqrt2).
F_MODE = sp.Matrix([[-lam / 2, s], [s, lam / 2]])
P_MODE = sp.Matrix([[G * (1 - H), G * (1 + H)], [G * (1 + H), -G * (1 - H)]]) / sp.sqrt(2)
GAMMA_MODE = sp.diag(S_LAM, -S_LAM)

# Eq. (10)-(15) as matrix expressions.  Diagonal factors: Gm = G~ - H~G~, Gp = G~ + H~G~,
# Ep = e^{S_lam t/tau}, Em = e^{-S_lam t/tau}, ep = e^{lam_perp t/tau} (scalar), Ap = (Ep^2 - I)(4S_lam)^{-1},
# Am = (Em^2 - I)(4 S_lam)^{-1}, ap = (ep^2 - 1)/(2 lam_perp).
Ni, No, Nh = sp.symbols("N_i N_o N_h", positive=True, integer=True)
Vt, Ut = sp.MatrixSymbol("V~", Ni, m), sp.MatrixSymbol("U~", No, m)
Vp, Up = sp.MatrixSymbol("V~perp", Ni, k), sp.MatrixSymbol("U~perp", No, k)
W1_0, W2_0 = sp.MatrixSymbol("W_1(0)", Nh, Ni), sp.MatrixSymbol("W_2(0)", No, Nh)
Gm, Gp = sp.MatrixSymbol("G~-H~G~", m, m), sp.MatrixSymbol("G~+H~G~", m, m)
Ep, Em = sp.MatrixSymbol("e^{S_lam t}", m, m), sp.MatrixSymbol("e^{-S_lam t}", m, m)
Ap, Am = sp.MatrixSymbol("A_+", m, m), sp.MatrixSymbol("A_-", m, m)
ep, ap = sp.symbols("e_perp a_perp")
B = W2_0.T * Ut * Gp + W1_0 * Vt * Gm
C = W2_0.T * Ut * Gm - W1_0 * Vt * Gp
D = W2_0.T * Up + W1_0 * Vp
Z = sp.BlockMatrix([[Vt * Gm * Ep * B.T - Vt * Gp * Em * C.T + 2 * ep * Vp * D.T],
                    [Ut * Gp * Ep * B.T + Ut * Gm * Em * C.T + 2 * ep * Up * D.T]]) / 2
A = sp.Identity(Nh) + B * Ap * B.T - C * Am * C.T + ap * D * D.T
QQ_T = Z * sp.Inverse(A) * Z.T

RICCATI = register(
    id="LR-Lem4.1", paper="lazy_rich", where="Sec 4, Lemma 4.1, Eq. (6); App B.1, Eqs. (23)-(47)",
    kind="identity", title="lambda-balanced gradient flow is a matrix Riccati equation",
    statement=r"\tau\frac{d}{dt}(QQ^T) = FQQ^T + QQ^TF - (QQ^T)^2,\ F = [[-\frac\lambda2 I_{N_i}, "
              r"\tilde\Sigma_{yx}^T],[\tilde\Sigma_{yx}, \frac\lambda2 I_{N_o}]]",
    printed=RICCATI_RHS, expected="holds", reconstructed=True,
    notes="Under A1-A2 (A3 not needed). Fails for a general (non-scalar) balance matrix.")

register(
    id="LR-Eq7", paper="lazy_rich", where="Sec 4, Eq. (7); App B.2, Eqs. (48)-(52)", kind="ode-solution",
    title="Fukumizu's solution of the Riccati equation",
    statement=r"QQ^T(t) = e^{Ft/\tau}Q_0[I + \tfrac12 Q_0^TP(e^{2\Gamma t/\tau} - I)\Gamma^{-1}P^TQ_0]^{-1}"
              r"Q_0^Te^{Ft/\tau},\ F = P\Gamma P^T",
    printed=None, expected="holds", reconstructed=True,
    notes="No sympy encoding: the form is evaluated by numerics.lazy_rich.solution.qq_fukumizu with "
          "(e^{2 gamma t} - 1)/(2 gamma) -> t at gamma = 0 (F singular when lam = 0 and Ni != No).")

EIGEN = register(
    id="LR-Lem4.2", paper="lazy_rich", where="Sec 4, Lemma 4.2, Eqs. (8)-(9); App B.3, Eqs. (53)-(55)",
    kind="identity", title="eigendecomposition of F",
    statement=r"F = P\Gamma P^T,\ P = \frac1{\sqrt2}[[\tilde V(\tilde G - \tilde H\tilde G), \tilde V("
              r"\tilde G + \tilde H\tilde G), \sqrt2\tilde V_\perp],[\tilde U(\tilde G + \tilde H\tilde G),"
              r" -\tilde U(\tilde G - \tilde H\tilde G), \sqrt2\tilde U_\perp]],\ \Gamma = \mathrm{diag}"
              r"(\tilde S_\lambda, -\tilde S_\lambda, \lambda_\perp I)",
    printed=Forms(F=F_MODE, P=P_MODE, Gamma=GAMMA_MODE, H=H, G=G, S_lam=S_LAM), expected="holds", reconstructed=True,
    notes="H~ = ((lam^2 + 4S~^2)^{1/2} - 2S~)/lam, G~ = (1 + H~^2)^{-1/2}, S~_lam = (S~^2 + lam^2/4)^{1/2}, "
          "lam_perp = sgn(No - Ni) lam/2. The thesis precursor has H~ off by a factor 2 (E10).")

register(
    id="LR-Eq10-12", paper="lazy_rich", where="Sec 4, Eqs. (10)-(12), l.64-67", kind="identity",
    title="variables of the initialisation B, C, D",
    statement=r"B = W_2(0)^T\tilde U(\tilde G + \tilde H\tilde G) + W_1(0)\tilde V(\tilde G - \tilde H\tilde G),"
              r"\ C = W_2(0)^T\tilde U(\tilde G - \tilde H\tilde G) - W_1(0)\tilde V(\tilde G + \tilde H\tilde G),"
              r"\ D = W_2(0)^T\tilde U_\perp + W_1(0)\tilde V_\perp",
    printed=Forms(B=B, C=C, D=D), expected="holds", reconstructed=True,
    notes="Identity checked: Q0^T P = [B/sqrt2, -C/sqrt2, D].")

THEOREM = register(
    id="LR-Thm4.3", paper="lazy_rich", where="Sec 4, Theorem 4.3, Eqs. (13)-(15); App B.4, Eqs. (56)-(76)",
    kind="ode-solution", title="exact QQ^T(t) for any lambda and any shapes",
    statement=r"QQ^T(t) = Z(t)A(t)^{-1}Z(t)^T,\ Z = \frac12[\tilde V(\tilde G-\tilde H\tilde G)e^{\tilde S_\lambda t/\tau}"
              r"B^T - \tilde V(\tilde G+\tilde H\tilde G)e^{-\tilde S_\lambda t/\tau}C^T + 2\tilde V_\perp e^{\lambda_\perp t/\tau}D^T;"
              r"\ \tilde U(\tilde G+\tilde H\tilde G)e^{\tilde S_\lambda t/\tau}B^T + \tilde U(\tilde G-\tilde H\tilde G)"
              r"e^{-\tilde S_\lambda t/\tau}C^T + 2\tilde U_\perp e^{\lambda_\perp t/\tau}D^T],\ A = I + B\frac{e^{2\tilde S_\lambda t/\tau}-I}"
              r"{4\tilde S_\lambda}B^T - C\frac{e^{-2\tilde S_\lambda t/\tau}-I}{4\tilde S_\lambda}C^T + D\frac{e^{2\lambda_\perp t/\tau}-1}{2\lambda_\perp}D^T",
    printed=QQ_T, expected="holds", reconstructed=True,
    notes="Under A1-A3, any lambda, no invertibility. Fukumizu's form with the P of Lemma 4.2.")

register(
    id="LR-ThmB.5", paper="lazy_rich", where="Sec 4 l.72; App B.5, Theorem B.5, Eqs. (77)-(82)",
    kind="ode-solution", title="numerically stable form of the exact solution",
    statement=r"QQ^T = Z_sC_s^{-1}Z_s^T with Z = \frac12 Z_s e^{\tilde S_\lambda t/\tau}B^T extracted; only "
              r"exponentials with negative coefficients (B invertible)",
    printed=Forms(Z=Z, A=A), expected="holds", reconstructed=True,
    notes="The e^{lam_perp t} of the D-terms must be merged with e^{-S_lam t} (E9): the merged exponent "
          "lam_perp - S_lam < 0 whenever every s~_i > 0.")

register(
    id="LR-B.5.1", paper="lazy_rich", where="App B.5.1, Eqs. (83)-(109)", kind="ode-solution",
    title="the closed form satisfies the Riccati equation",
    statement=r"with \tau\dot Z = FZ and \tau\dot A = Z^TZ, QQ^T = ZA^{-1}Z^T solves Eq. (6)",
    printed=RICCATI_RHS, expected="holds", reconstructed=True)

register(
    id="LR-Impl", paper="lazy_rich", where="Sec 4, l.72", kind="algorithm",
    title="the plain Theorem 4.3 is numerically unstable for long times",
    statement="Theorem 4.3 can be numerically unstable when simulating it for long time "
              "(exponentials diverging with t); Theorem B.5 is the stable form.",
    printed=None, expected="holds", reconstructed=False,
    notes="'Simulation details are in Appendix E.7' is a wrong cross-reference (E14): E.1 holds "
          "the initialisation scheme.")

register(
    id="LR-ThmA.2", paper="lazy_rich", where="App A.1, Theorem A.2, Eqs. (20)-(21), l.221-229",
    kind="conserved", title="the balance is conserved by gradient flow",
    statement=r"\frac{d}{dt}(W_2^TW_2 - W_1W_1^T) = 0",
    printed=GRAD_W2.T * W2 + W2.T * GRAD_W2 - GRAD_W1 * W1.T - W1 * GRAD_W1.T, expected="holds", reconstructed=True,
    notes="Holds for any Sxx. Under GD one step changes it by exactly "
          "lr^2 (W1 E^T E W1^T - W2^T E E^T W2), E = Syx - W2 W1 Sxx.")
