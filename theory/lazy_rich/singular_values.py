"""Singular-value dynamics from a task-aligned init (Sec 5, Theorem 5.1; App C.1)."""
import sympy as sp

from theory.lazy_rich.symbols import MODE_RHS, lam, s, s0, t, tau
from theory.registry import Forms, register

mu = sp.sqrt(s ** 2 + lam ** 2 / 4)
u = mu * t / tau
r0 = sp.sqrt(lam ** 2 + 4 * s0 ** 2)
PHI = mu * r0 * sp.sinh(u) * sp.cosh(u) + (2 * s0 * s + lam ** 2 / 2) * sp.sinh(u) ** 2
#: the transition function gamma_i(t; lam) (catalogue's equivalent of Eq. 116)
GAMMA = PHI / (mu ** 2 + PHI)
#: Eq. (16): s_i(t) = s_i(0) + gamma_i(t; lam)(s~_i - s_i(0))
TRAJECTORY = s0 + GAMMA * (s - s0)
#: Eq. (17): the two limits
GAMMA_RICH = (sp.exp(2 * s * t / tau) - 1) / (sp.exp(2 * s * t / tau) - 1 + s / s0)
GAMMA_LAZY = 1 - sp.exp(-sp.Abs(lam) * t / tau)

THM51 = register(
    id="LR-Thm5.1", paper="lazy_rich", where="Sec 5, Theorem 5.1, Eqs. (16)-(17); App C.1, Eqs. (115)-(139)",
    kind="ode-solution", title="singular values follow a lambda-dependent transition function",
    statement=r"s_i(t) = s_i(0) + \gamma_i(t;\lambda)(\tilde s_i - s_i(0)), \gamma_i monotonic, increasing "
              r"from 0 to 1; \lambda\to0: \gamma\to\frac{e^{2\tilde st/\tau}-1}{e^{2\tilde st/\tau}-1+\tilde s/s(0)} "
              r"(sigmoidal); |\lambda|\to\infty: \gamma\to1-e^{-|\lambda|t/\tau} (exponential)",
    printed=Forms(trajectory=TRAJECTORY, gamma=GAMMA, gamma_rich=GAMMA_RICH, gamma_lazy=GAMMA_LAZY,
                   mode_rhs=MODE_RHS), expected="holds-if",
    condition="s_i(0) > 0 whenever lambda = 0 (at lambda = 0 a mode starting at 0 stays at 0, "
              "gamma = 0 for all t); the |lambda| -> oo limit read as uniform closeness O(s~^2/lambda^2)",
    reconstructed=True,
    notes="gamma = Phi/(mu^2 + Phi), Phi = mu r sinh(u)cosh(u) + (2 s0 s~ + lam^2/2) sinh^2(u), "
          "mu = (s~^2 + lam^2/4)^{1/2}, r = (lam^2 + 4 s0^2)^{1/2}, u = mu t/tau (catalogue; the typeset "
          "Eq. 116 is not recoverable). Catalogue E7.")

register(
    id="LR-Sec5-SV-claims", paper="lazy_rich", where="Sec 5, l.82-87", kind="limit",
    title="rich: salient modes first; lazy: all modes at rate |lambda|, like a shallow net",
    statement="lambda -> 0: sigmoidal, saddle-to-saddle, the most salient features are learned first; "
              "|lambda| large: exponential, all features treated equally, dynamics resemble a shallow network.",
    printed=Forms(gamma_rich=GAMMA_RICH, gamma_lazy=GAMMA_LAZY), expected="holds", reconstructed=False,
    notes="Rise time of mode i at lambda = 0: (tau/2 s~_i) ln(s~_i/s_i(0)). Shallow limit (square, "
          "non-aligned): W2W1(t) ~ Syx + (W2W1(0) - Syx) e^{-|lam| t/tau} with error O(lam^-2).")
