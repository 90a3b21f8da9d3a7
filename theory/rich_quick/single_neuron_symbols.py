"""Symbols of the single-neuron model (rich_quick Sec 3, App A), shared by its claim modules.

The weight vector is written in the plane of ``beta_*`` and ``w0`` (App A.2.6): ``w = (w1, w2)``
with ``beta_* = (b, 0)``, so every whitened-flow identity is a scalar identity in ``a, w1, w2``.
"""
import sympy as sp
from theory.validation import InvalidArgument

t = sp.Symbol("t", nonnegative=True)
a, w1, w2 = sp.symbols("a w1 w2", real=True)
a0 = sp.Symbol("a0", real=True)
b = sp.Symbol("b", positive=True)                     # ||beta_*||
delta = sp.Symbol("delta", real=True)
eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
mu, phi, mu0, phi0 = sp.symbols("mu phi mu0 phi0", real=True)
nu, nu0, v, v0, omega, omega0 = sp.symbols("nu nu0 v v0 omega omega0", real=True)
c_phi, c_mu = sp.symbols("c_phi c_mu", real=True)
x, r = sp.symbols("x r", positive=True)               # x = ||beta||^2 (Eqs. 49-58), r = ||beta||
k, alpha = sp.symbols("k alpha", real=True)

#: whitened weight flow (Eqs. 14-15) in the plane coordinates, general rates
w_sq = w1 ** 2 + w2 ** 2
WEIGHT_FLOW = {a: eta_a * (w1 * b - a * w_sq),
               w1: eta_w * (a * b - a ** 2 * w1),
               w2: eta_w * (-a ** 2 * w2)}
#: the coordinates as functions of the weights
DELTA_OF_WEIGHTS = eta_w * a ** 2 - eta_a * w_sq
MU_OF_WEIGHTS = a * sp.sqrt(w_sq)
PHI_OF_WEIGHTS = w1 / sp.sqrt(w_sq)
NU_OF_WEIGHTS = w1 * b / a
OMEGA_OF_WEIGHTS = w1 * b
V_OF_WEIGHTS = a / (w1 * b)


def kappa(m, c2=eta_a * eta_w):
    """``sqrt(delta^2 + 4 c2 m^2)`` (Eqs. 4, 16-18)."""
    for name, value in (("m", m), ("c2", c2)):
        if isinstance(value, bool) or not isinstance(value, (sp.Basic, int, float)):
            raise InvalidArgument(f"{name} must be a sympy expression or a number, got "
                                  f"{type(value).__name__}")
    return sp.sqrt(delta ** 2 + 4 * c2 * m ** 2)
