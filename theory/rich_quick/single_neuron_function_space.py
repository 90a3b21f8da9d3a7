"""Function-space dynamics of the single neuron (Sec 3 Eqs. 3-4, L90-96; App A.3, Eqs. 36-39,
L426-450): beta = a w, the preconditioner M(beta, delta), its regime limits, the rescaling."""
import sympy as sp

from theory.registry import Forms, register
from theory.rich_quick.single_neuron_symbols import a, delta, eta_a, eta_w, r, w1, w2

_wv = sp.Matrix([w1, w2])
_beta = a * _wv
_b2 = (_beta.T * _beta)[0]
_kappa = sp.sqrt(delta ** 2 + 4 * eta_a * eta_w * _b2)

#: Eq. (3)/(36): M from the weights
M_WEIGHTS = eta_w * a ** 2 * sp.eye(2) + eta_a * _wv * _wv.T
#: Eq. (4)/(39): M from beta and delta (beta written as a w)
M_BETA = (_kappa + delta) / 2 * sp.eye(2) + (_kappa - delta) / 2 * _beta * _beta.T / _b2
#: Eq. (37)-(38)
A_SQ = (_kappa + delta) / (2 * eta_w)
WW_T = (_kappa - delta) / (2 * eta_a) * _beta * _beta.T / _b2
#: eigenvalues of M along beta and across it, as functions of r = ||beta|| (Sec 3 L96 limits)
_k_r = sp.sqrt(delta ** 2 + 4 * eta_a * eta_w * r ** 2)
M_EIGS = ((_k_r + delta) / 2, _k_r)          # (on beta-perp, on beta)
M_LIMITS_PRINTED = {"+oo": (delta, delta),                                   # M ~ delta I
                    "0": (sp.sqrt(eta_a * eta_w) * r, 2 * sp.sqrt(eta_a * eta_w) * r),
                    "-oo": (0, sp.Abs(delta))}                               # M ~ |delta| bb^T/|b|^2

register(
    id="GRQ-Eq(3)", paper="rich_quick", where="Sec 3, Eq. (3), L90", kind="identity",
    title="Function-space dynamics beta' = -M X^T rho",
    statement=r"\dot\beta = -(\eta_w a^2 I_d + \eta_a ww^\top)X^\top\rho, \rho = X\beta - y",
    printed=M_WEIGHTS, expected="holds")

register(
    id="GRQ-Eq(4)", paper="rich_quick", where="Sec 3, Eq. (4), L94", kind="identity",
    title="M in terms of beta and delta",
    statement=r"M = \frac{\kappa+\delta}{2}I_d + \frac{\kappa-\delta}{2}\frac{\beta\beta^\top}"
              r"{\|\beta\|^2}, \kappa = \sqrt{\delta^2+4\eta_a\eta_w\|\beta\|^2}",
    printed=M_BETA, expected="holds")

register(
    id="GRQ-Claim-Mlimits", paper="rich_quick", where="Sec 3 L96", kind="limit",
    title="Regime limits of M",
    statement=r"\delta\gg0: M\approx\delta I_d (lazy); \delta=0: M = \sqrt{\eta_a\eta_w}\|\beta\|"
              r"(I_d+\beta\beta^\top/\|\beta\|^2); \delta\ll0: M\approx|\delta|\beta\beta^\top/"
              r"\|\beta\|^2 (lazy, then delayed rich)",
    printed=Forms(delta_to_plus_inf=M_LIMITS_PRINTED["+oo"], delta_zero=M_LIMITS_PRINTED["0"],
                  delta_to_minus_inf=M_LIMITS_PRINTED["-oo"]), expected="holds",
    notes="Limits of the eigenvalues (kappa+delta)/2 (beta-perp) and kappa (beta) relative to "
          "|delta|; the upstream beta path deviates from linear-regression GF by O(1/delta^2).")

register(
    id="GRQ-Eq(36)-(39)", paper="rich_quick", where="App A.3, Eqs. (36)-(39), L426-448",
    kind="identity", title="beta ODE, a^2 and w w^T in terms of beta, M(beta)",
    statement=r"\dot\beta = a\dot w + \dot a w = -M(X^\top X\beta - X^\top y); a^2 = (\kappa+"
              r"\delta)/(2\eta_w); ww^\top = (\kappa-\delta)/(2\eta_a)\,\beta\beta^\top/\|\beta\|^2;"
              r" Eq. (39) = Eq. (4); a(t)^2>0 for \delta\ge0 and for \delta<0 without sign change",
    printed=Forms(M_weights=M_WEIGHTS, a_sq=A_SQ, ww_T=WW_T, M_beta=M_BETA), expected="holds")

register(
    id="GRQ-Claim-A3-rescale", paper="rich_quick", where="App A.3 L450", kind="identity",
    title="beta' = sqrt(eta_a eta_w) beta, y' = sqrt(eta_a eta_w) y absorbs the rate product",
    statement=r"With \beta' = \sqrt{\eta_a\eta_w}\beta, y' = \sqrt{\eta_a\eta_w}y the \beta' "
              r"dynamics are those of the \eta_a\eta_w = 1 model",
    printed=None, expected="holds")
