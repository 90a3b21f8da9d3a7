"""Exact whitened single-neuron dynamics (Sec 3 Eq. 2, L66-88; App A.2, Eqs. 16-35, L310-424).

Every equation is encoded as printed; where it only holds at ``eta_a = eta_w = 1`` although the
paper states only ``eta_a eta_w = 1`` (catalogue E2), the general-rate form is encoded beside it.
ODEs are stored as ``{state_symbol: rate}``; closed forms as expressions in ``t``.
"""
import sympy as sp

from theory.registry import Forms, register
from theory.rich_quick.conventions_rich_quick import RATES_READING
from theory.rich_quick.single_neuron_symbols import (
    a,
    a0,
    b,
    c_mu,
    c_phi,
    delta,
    eta_a,
    eta_w,
    kappa,
    mu,
    mu0,
    nu,
    nu0,
    omega,
    omega0,
    phi,
    t,
    v,
    w1,
    w2,
)

# --- Eq. (2) = (16)-(17), Eq. (18) ---------------------------------------------------------------
MU_PHI_ODE = {mu: kappa(mu) * (phi * b - mu),
              phi: eta_a * eta_w * 2 * mu * b / (kappa(mu) - delta) * (1 - phi ** 2)}
KEY_IDENTITY = sp.Eq(eta_w * a ** 2 + eta_a * (w1 ** 2 + w2 ** 2), kappa(a * sp.sqrt(w1 ** 2 + w2 ** 2)))

# --- Eqs. (19)-(22): eta_a eta_w = 1, then delta = 0 ------------------------------------------------
MU_PHI_ODE_UNIT = {mu: kappa(mu, 1) * (phi * b - mu),
                   phi: 2 * mu * b / (kappa(mu, 1) - delta) * (1 - phi ** 2)}
MU_PHI_ODE_BALANCED = {mu: sp.sign(mu) * 2 * mu * (phi * b - mu),
                       phi: sp.sign(mu) * b * (1 - phi ** 2)}

# --- Eqs. (23)-(25): balanced closed forms --------------------------------------------------------
PHI_BALANCED = sp.tanh(c_phi + b * t)
MU_RATE_BALANCED = 2 * b * sp.tanh(c_phi + b * t) * mu - 2 * mu ** 2
_u = c_phi + b * t
C_MU = 2 / mu0 * sp.cosh(c_phi) ** 2 - (2 * c_phi + sp.sinh(2 * c_phi))
MU_BALANCED = 2 * sp.cosh(_u) ** 2 / (2 * _u + sp.sinh(2 * _u) + c_mu)
#: Eq. (25) solves Eq. (24) only for ||beta_*|| = 1: 1/mu has d/du (cosh^2(u)/mu) = 2cosh^2(u)/b
C_MU_CORRECTED = 2 * b / mu0 * sp.cosh(c_phi) ** 2 - (2 * c_phi + sp.sinh(2 * c_phi))
MU_BALANCED_CORRECTED = 2 * b * sp.cosh(_u) ** 2 / (2 * _u + sp.sinh(2 * _u) + c_mu)

# --- Eqs. (26)-(28): upstream nu = w^T beta_*/a --------------------------------------------------
NU_RATE = b ** 2 - delta * nu - nu ** 2
NU_RATE_GENERAL = eta_w * b ** 2 - delta * nu - eta_a * nu ** 2


def _riccati(x0, P, Q, S):
    R = sp.sqrt(Q ** 2 + 4 * P * S) / 2
    return ((2 * R * x0 * sp.cosh(R * t) + (2 * P + Q * x0) * sp.sinh(R * t))
            / (2 * R * sp.cosh(R * t) + (2 * S * x0 - Q) * sp.sinh(R * t)))


_R = sp.sqrt(delta ** 2 + 4 * b ** 2) / 2
NU_SOLUTION = ((2 * _R * nu0 * sp.cosh(_R * t) + (2 * b ** 2 - delta * nu0) * sp.sinh(_R * t))
               / (2 * _R * sp.cosh(_R * t) + (2 * nu0 + delta) * sp.sinh(_R * t)))
NU_SOLUTION_GENERAL = _riccati(nu0, eta_w * b ** 2, -delta, eta_a)
A_RATE = a * (nu + delta - a ** 2)
A_RATE_GENERAL = a * (eta_a * nu + delta - eta_w * a ** 2)

# --- Lemma A.1 (Eqs. 29-30) and Eqs. (31)-(32): omega = w^T beta_*, v = a/omega -----------------
LEMMA_ODE = {a: omega - a * (a ** 2 - delta), omega: a * b ** 2 - a ** 2 * omega}
LEMMA_ODE_GENERAL = {a: eta_a * omega - a * (eta_w * a ** 2 - delta),
                     omega: eta_w * (a * b ** 2 - a ** 2 * omega)}
V_RATE = 1 + delta * v - b ** 2 * v ** 2
V_RATE_GENERAL = eta_a + delta * v - eta_w * b ** 2 * v ** 2
OMEGA_RATE = v * b ** 2 * omega - v ** 2 * omega ** 3
OMEGA_RATE_GENERAL = eta_w * (v * b ** 2 * omega - v ** 2 * omega ** 3)
V_SOLUTION_GENERAL = _riccati(sp.Symbol("v0", real=True), eta_a, delta, eta_w * b ** 2)

# --- Eq. (33), footnote 3: basins ----------------------------------------------------------------
BASIN = omega0 + a0 / 2 * (delta + sp.sqrt(delta ** 2 + 4 * b ** 2))
BASIN_GENERAL = eta_a * omega0 + a0 / 2 * (delta + sp.sqrt(delta ** 2 + 4 * eta_a * eta_w * b ** 2))

# --- Eqs. (34)-(35): (a, ||w||) from mu ----------------------------------------------------------
RECOVER = (sp.sign(mu) * sp.sqrt((kappa(mu, 1) + delta) / 2), sp.sqrt((kappa(mu, 1) - delta) / 2))
RECOVER_GENERAL = (sp.sign(mu) * sp.sqrt((kappa(mu) + delta) / (2 * eta_w)),
                   sp.sqrt((kappa(mu) - delta) / (2 * eta_a)))

register(
    id="GRQ-Eq(2)", paper="rich_quick", where="Sec 3, Eq. (2), L69", kind="ode-solution",
    title="Coupled (mu, phi) ODE",
    statement=r"\dot\mu = \sqrt{\delta^2+4\eta_a\eta_w\mu^2}(\phi\|\beta_*\|-\mu), "
              r"\dot\phi = \frac{2\eta_a\eta_w\mu\|\beta_*\|}{\sqrt{\delta^2+4\eta_a\eta_w\mu^2}"
              r"-\delta}(1-\phi^2)",
    printed=MU_PHI_ODE, expected="holds")

register(
    id="GRQ-Claim-S3-regimes", paper="rich_quick", where="Sec 3 L71-77", kind="limit",
    title="Timescales of Eq. (2): upstream, balanced, downstream",
    statement="delta >> 0: phi aligns first (time ~1/delta), mu relaxes exponentially, S ~ 0. "
              "delta = 0, ||beta0|| -> 0: alignment then fitting (fitting time ~ ln(1/mu0)). "
              "delta << 0: mu -> phi b fast, then phi' = eta_a eta_w b^2 |delta|^-1 phi(1-phi^2): "
              "delayed alignment with delay ~ |delta|",
    printed=sp.Eq(sp.Derivative(phi, t), eta_a * eta_w * b ** 2 / sp.Abs(delta) * phi * (1 - phi ** 2)),
    expected="holds")

register(
    id="GRQ-Fn3", paper="rich_quick", where="Sec 3 footnote 3, L84", kind="identity",
    title="Basin of attraction",
    statement=r"basin = sgn(a_0) for \delta\ge0; sgn(w_0^\top\beta_* + \frac{a_0}{2}(\delta + "
              r"\sqrt{\delta^2+4\|\beta_*\|^2})) for \delta<0",
    printed=BASIN, corrected=BASIN_GENERAL,
    corrected_statement="sgn(eta_a w0^T beta_* + (a0/2)(delta + sqrt(delta^2 + 4 eta_a eta_w "
                        "||beta_*||^2))) for delta < 0",
    expected="erratum", notes="Catalogue GRQ-Fn3, OD-6, E2.")

register(
    id="GRQ-Fig3", paper="rich_quick", where="Fig. 3, L82; App D.2 L972", kind="empirical",
    title="Exact mu, phi, S(0,t) vs gradient flow",
    statement='Our theoretical predictions (black dashed lines) agree with gradient flow simulations (solid lines, color-coded based on δ values), shown here for three key metrics: μ (left), ϕ (middle), and $S(0, t)$ (right). Each metric starts at the same value for all δ , but varying δ has a pronounced effect on the metric’s dynamics. For upstream initializations ($\\delta \\gg 0$), μ changes only slightly, ϕ exponentially aligns, and S remains near zero, indicative of the lazy regime. For balanced initializations ($\\delta = 0$), both μ and ϕ change significantly and S quickly moves away from zero, indicative of the rich regime. For downstream initializations ($\\delta \\ll 0$), μ quickly drops to zero, then μ and ϕ slowly climb back to one. Similarly, S remains small before a sudden transition towards one, indicative of a delayed rich regime.',
    clauses={'Our theoretical predictions (black dashed lines) agree with gradient flow simulations': 'Fig. 3: largest error of mu, phi, S(0, t)', 'S remains near zero, indicative of the lazy regime': 'upstream max S(0, t)', 'S quickly moves away from zero, indicative of the rich regime': 'S(0, 2): upstream minus balanced', 'μ quickly drops to zero': 'min mu: downstream minus upstream', 'S remains small before a sudden transition towards one': 'downstream: max S(0, t) minus S(0, 2)', 'μ changes only slightly, ϕ exponentially aligns': "not testable: not measured by the suite's run (shown in the figure only; no quantity of it is recorded)", 'both μ and ϕ change significantly': "not testable: not measured by the suite's run (shown in the figure only; no quantity of it is recorded)", 'then μ and ϕ slowly climb back to one': '|phi(end) - 1| downstream', 'varying δ has a pronounced effect on the metric’s dynamics': "not testable: 'pronounced effect' names no outcome beyond the per-regime sentences decided here"},
    expected="holds", notes="D.2 setting X^T X = I_2, beta_* = [0,1], beta0 = [-1,0], a0 > 0.")

register(
    id="GRQ-Eq(16)-(18)", paper="rich_quick", where="App A.2.1, Eqs. (16)-(18), L310-322",
    kind="identity", title="(mu, phi) ODE and eta_w a^2 + eta_a ||w||^2 = kappa",
    statement=r"Eqs. (16)-(17) as Eq. (2); \eta_w a^2 + \eta_a\|w\|^2 = \sqrt{\delta^2 + "
              r"4\eta_a\eta_w\mu^2}",
    printed=Forms(mu_phi_ode=MU_PHI_ODE, key_identity=KEY_IDENTITY), expected="holds")

register(
    id="GRQ-Eq(19)-(20)", paper="rich_quick", where="App A.2.1, Eqs. (19)-(20), L324-328",
    kind="identity", title="(mu, phi) ODE with eta_a eta_w = 1 (rescaled mu, beta_*)",
    statement=r"\dot\mu = \sqrt{\delta^2+4\mu^2}(\phi\|\beta_*\|-\mu), "
              r"\dot\phi = \frac{2\mu\|\beta_*\|}{\sqrt{\delta^2+4\mu^2}-\delta}(1-\phi^2)",
    printed=MU_PHI_ODE_UNIT, expected="holds",
    notes="Checked as the image of Eqs. (16)-(17) under mu' = c mu, beta_*' = c beta_*.")

register(
    id="GRQ-Eq(21)-(22)", paper="rich_quick", where="App A.2.2, Eqs. (21)-(22), L332-338",
    kind="identity", title="Balanced reduction; sgn(mu) = sgn(a) cannot change",
    statement=r"\delta=0: \dot\mu = sgn(\mu)2\mu(\phi\|\beta_*\|-\mu), "
              r"\dot\phi = sgn(\mu)\|\beta_*\|(1-\phi^2)",
    printed=MU_PHI_ODE_BALANCED, expected="holds")

register(
    id="GRQ-Eq(23)", paper="rich_quick", where="App A.2.2, Eq. (23), L342", kind="ode-solution",
    title="Balanced phi(t) = tanh(c_phi + ||beta_*|| t)",
    statement=r"\phi(t) = \tanh(c_\phi + \|\beta_*\|t), c_\phi = \tanh^{-1}\phi_0",
    printed=PHI_BALANCED, expected="holds",
    notes="With eta_a eta_w != 1 via the WLOG rescaling ||beta_*|| -> sqrt(eta_a eta_w)||beta_*||.")

register(
    id="GRQ-Eq(24)-(25)", paper="rich_quick", where="App A.2.2, Eqs. (24)-(25), L344-352",
    kind="ode-solution", title="Balanced mu(t) (Bernoulli)",
    statement=r"\mu(t) = \frac{2\cosh^2(u)}{2u+\sinh 2u + c_\mu}, u = c_\phi+\|\beta_*\|t, "
              r"c_\mu = 2\mu_0^{-1}\cosh^2 c_\phi - (2c_\phi + \sinh 2c_\phi)",
    printed=Forms(mu_rate=MU_RATE_BALANCED, mu=MU_BALANCED, c_mu=C_MU),
    corrected=Forms(mu=MU_BALANCED_CORRECTED, c_mu=C_MU_CORRECTED),
    corrected_statement="mu(t) = 2||beta_*|| cosh^2(u)/(2u + sinh 2u + c_mu), c_mu = "
                        "2||beta_*|| mu0^-1 cosh^2(c_phi) - (2c_phi + sinh 2c_phi); the printed form "
                        "holds only for ||beta_*|| = 1 (the Fig. 3 setting)",
    expected="erratum",
    notes="Not in the catalogue: found by this suite (residual of Eq. 25 in Eq. 24 at b != 1).")

register(
    id="GRQ-Eq(26)-(27)", paper="rich_quick", where="App A.2.3, Eqs. (26)-(27), L354-366",
    kind="ode-solution", title="Upstream nu = w^T beta_*/a: Riccati equation and solution",
    statement=r"\dot\nu = \|\beta_*\|^2 - \delta\nu - \nu^2; \nu(t) = \frac{2R\nu_0\cosh Rt + "
              r"(2\|\beta_*\|^2-\delta\nu_0)\sinh Rt}{2R\cosh Rt + (2\nu_0+\delta)\sinh Rt}, "
              r"R = \frac12\sqrt{\delta^2+4\|\beta_*\|^2}",
    printed=Forms(rate=NU_RATE, solution=NU_SOLUTION),
    corrected=Forms(rate=NU_RATE_GENERAL, solution=NU_SOLUTION_GENERAL),
    corrected_statement="general rates in a, w: nu' = eta_w b^2 - delta nu - eta_a nu^2; solution "
                        "with 2 eta_w b^2, 2 eta_a nu0 and R = sqrt(delta^2 + 4 eta_a eta_w b^2)/2",
    condition=RATES_READING, expected="holds-if")

register(
    id="GRQ-Eq(28)", paper="rich_quick", where="App A.2.3, Eq. (28), L366-370",
    kind="ode-solution", title="Upstream a(t): Bernoulli equation (solution omitted in paper)",
    statement=r"\dot a = a(\nu(t) + \delta - a^2)",
    printed=A_RATE, corrected=A_RATE_GENERAL,
    corrected_statement="general rates in a, w: a' = a(eta_a nu + delta - eta_w a^2), solved in "
                        "closed form: a^-2(t) = e^{-delta t}(2R/D)^2[a0^-2 + eta_w/(2R^2) int_0^t "
                        "e^{delta s} D(s)^2 ds], D = 2R cosh Rt + (2 eta_a nu0 + delta) sinh Rt",
    condition=RATES_READING, expected="holds-if")

register(
    id="GRQ-LemA.1", paper="rich_quick", where="App A.2.4, Lemma A.1, Eqs. (29)-(30), L376-386",
    kind="bound", title="At most one zero crossing of a(t) w(t)^T beta_*",
    statement=r"If a_0\ne0 or w_0^\top\beta_*\ne0, a(t)w(t)^\top\beta_*=0 has at most one "
              r"solution t\ge0",
    printed=Forms(a=LEMMA_ODE[a], omega=LEMMA_ODE[omega]),
    corrected=Forms(a=LEMMA_ODE_GENERAL[a], omega=LEMMA_ODE_GENERAL[omega]),
    corrected_statement="Proof's Eqs. (29)-(30) at general rates: a' = eta_a omega - a(eta_w a^2 "
                        "- delta), omega' = eta_w(a b^2 - a^2 omega); the invariance argument "
                        "and the lemma are unchanged",
    expected="holds")

register(
    id="GRQ-Eq(31)-(32)", paper="rich_quick", where="App A.2.4, Eqs. (31)-(32), L388-394",
    kind="ode-solution", title="Sign-change case: v = a/omega Riccati, omega Bernoulli",
    statement=r"\dot v = 1 + \delta v - \|\beta_*\|^2 v^2; \dot\omega = v\|\beta_*\|^2\omega - "
              r"v^2\omega^3",
    printed=Forms(v_rate=V_RATE, omega_rate=OMEGA_RATE),
    corrected=Forms(v_rate=V_RATE_GENERAL, omega_rate=OMEGA_RATE_GENERAL, v_solution=V_SOLUTION_GENERAL),
    corrected_statement="general rates in a, w: v' = eta_a + delta v - eta_w b^2 v^2, omega' = "
                        "eta_w(v b^2 omega - v^2 omega^3); solutions (omitted in the paper) in "
                        "closed form",
    condition=RATES_READING, expected="holds-if")

register(
    id="GRQ-Eq(33)", paper="rich_quick", where="App A.2.5, Eq. (33), Fig. 7, L396-407",
    kind="identity", title="Basins of attraction S+",
    statement=r"S^+ = \{a_0>0 if \delta\ge0; w_0^\top\beta_* > -\frac{a_0}{2}(\delta + "
              r"\sqrt{\delta^2+4\|\beta_*\|^2}) if \delta<0\}",
    printed=BASIN, corrected=BASIN_GENERAL,
    corrected_statement="general rates in a, w: eta_a w0^T beta_* > -(a0/2)(delta + sqrt(delta^2 + "
                        "4 eta_a eta_w b^2))",
    condition=RATES_READING, expected="holds-if")

register(
    id="GRQ-Eq(34)-(35)", paper="rich_quick", where="App A.2.6, Eqs. (34)-(35), L409-419",
    kind="identity", title="Recovering (a, w) from (mu, phi)",
    statement=r"a = sgn(\mu)\sqrt{(\sqrt{\delta^2+4\mu^2}+\delta)/2}, \|w\| = "
              r"\sqrt{(\sqrt{\delta^2+4\mu^2}-\delta)/2}; w = c_1\beta_*/\|\beta_*\| + c_2 "
              r"P_\perp w_0/\|P_\perp w_0\|, c_1 = \|w\|\phi, c_2 = \sqrt{\|w\|^2-c_1^2}\ge0",
    printed=Forms(a=RECOVER[0], w_norm=RECOVER[1]),
    corrected=Forms(a=RECOVER_GENERAL[0], w_norm=RECOVER_GENERAL[1]),
    corrected_statement="general rates in a, w: a^2 = (kappa + delta)/(2 eta_w), ||w||^2 = "
                        "(kappa - delta)/(2 eta_a), kappa = sqrt(delta^2 + 4 eta_a eta_w mu^2); "
                        "Eq. (35) unchanged",
    condition=RATES_READING, expected="holds-if")

register(
    id="GRQ-Fig8", paper="rich_quick", where="Fig. 8, L424", kind="empirical",
    title="Exact temporal dynamics of nu, phi, 'zeta', a, w1, w2",
    statement='Our theory recovers the time evolution under gradient flow of the quantities considered in this section, specifically ν , φ , and ζ , as well as the resulting dynamics of the model parameters $\\{a, w_1, w_2\\}$.',
    clauses={'Our theory recovers the time evolution under gradient flow of the quantities considered in this section, specifically ν , φ , and ζ': 'Fig. 8: largest error', 'as well as the resulting dynamics of the model parameters {a, w_1, w_2}': 'Fig. 8: largest error'},
    expected="holds",
    notes="'zeta' is never defined (catalogue E31); read as omega = w^T beta_*.")

