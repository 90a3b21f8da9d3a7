"""Implicit bias of the single neuron (Thm 3.1, L98-111; App A.4, Eqs. 40-72, L452-610).

``x = ||beta||^2`` in Eqs. (49)-(58) and ``r = ||beta||`` in Eqs. (60)-(67), as in the paper.
Theorem 3.1 and Eqs. (46)-(72) assume ``eta_a eta_w = 1`` (App A.3, L448).
"""
import sympy as sp

from theory.registry import Forms, register
from theory.rich_quick.single_neuron_symbols import alpha, b, delta, k, r, x

_K = sp.sqrt(delta ** 2 + 4 * x)
F_DELTA = 2 / (_K + delta)                                                       # Eq. (49)
H_DELTA = (_K - delta) / (x * _K * (_K + delta))                                 # Eq. (49)
TWO_FP_PLUS_H = -4 / (_K * (_K + delta) ** 2)                                    # Eq. (54)
G_RATE_COEFF = 1 / (_K * (_K + delta))                                           # Eq. (58)
G_DELTA = sp.sqrt(_K + delta)                                                    # after (58)
GMINV = (2 / sp.sqrt(_K + delta), (_K - delta) / sp.sqrt(_K + delta) / (x * _K))  # Eq. (59): (I, bb^T)

_Kr = sp.sqrt(delta ** 2 + 4 * r ** 2)
Q_PRINTED = sp.Rational(1, 3) * (_Kr - 2 * delta) * sp.sqrt(_Kr + delta)         # Eq. (63)
DQ_PRINTED = 2 * r / sp.sqrt(_Kr + delta)                                        # Eqs. (61), (64)
D2Q_PRINTED = sp.sqrt(_Kr + delta) / _Kr                                         # Eqs. (62), (65)
C_DELTA = sp.Max(0, sp.sign(delta) * sp.sqrt(2) * sp.Abs(delta) ** sp.Rational(3, 2) / 3)  # (66)
PHI_POTENTIAL = Q_PRINTED + C_DELTA                                              # Eq. (67)

# Theorem 3.1 (as printed, rates absent) and its general-rate correction (catalogue OD-11).
n0, c = sp.symbols("n0 c", positive=True)          # ||beta0||, sqrt(eta_a eta_w)
PSI_THM = Q_PRINTED                                 # Psi_delta(beta) = q(||beta||)
PSI_SMALL_THM = sp.sqrt(sp.sqrt(delta ** 2 + 4 * n0 ** 2) - delta)
PSI_SMALL_GENERAL = sp.sqrt(sp.sqrt(delta ** 2 + 4 * c ** 2 * n0 ** 2) - delta)

# Theorem A.2 (Azulay et al.), Eq. (69), Eqs. (70)-(72).
_s = sp.sqrt(r ** 2 + delta ** 2 / 4)
Q_AZULAY = (r ** 2 - delta / 2 * (delta / 2 + _s)) * sp.sqrt(_s - delta / 2) / r
Z_COEFF = -sp.Rational(3, 2) * sp.sqrt(sp.sqrt(n0 ** 2 + delta ** 2 / 4) - delta / 2)  # times beta0-hat
EQ69 = sp.Eq(PHI_POTENTIAL, 2 * sp.sqrt(2) / 3 * Q_AZULAY + C_DELTA)
DQ_AZULAY = sp.Rational(3, 2) * sp.sqrt(_s - delta / 2)                          # Eq. (70), r > 0
_rb = sp.sqrt(b ** 2 + alpha ** 2)
EQ71_PRINTED = sp.sqrt(_rb + delta ** 2 / 4) - delta / 2 * alpha / _rb - k
EQ71_CORRECTED = sp.sqrt(sp.sqrt(b ** 2 + alpha ** 2 + delta ** 2 / 4) - delta / 2) * alpha / _rb - k
_h = (k ** 2 + delta) / 2
EQ72 = k * sp.sqrt(_h + sp.sqrt(_h ** 2 + b ** 2))

register(
    id="GRQ-Thm3.1", paper="rich_quick", where="Sec 3, Thm 3.1, Eq. (5), L100-104",
    kind="identity", title="Implicit bias of the single neuron for any delta",
    statement=r"\beta(\infty) = argmin \Psi_\delta(\beta) - \psi_\delta\hat\beta_0^\top\beta s.t. "
              r"X\beta=y, \Psi_\delta = \frac13(\sqrt{\delta^2+4\|\beta\|^2}-2\delta)"
              r"\sqrt{\sqrt{\delta^2+4\|\beta\|^2}+\delta}, \psi_\delta = \sqrt{\sqrt{\delta^2+4"
              r"\|\beta_0\|^2}-\delta}",
    printed=Forms(Psi=PSI_THM, psi=PSI_SMALL_THM), corrected=Forms(psi=PSI_SMALL_GENERAL),
    corrected_statement="general rates: minimise Psi_delta(c beta) - psi'_delta c beta0_hat^T "
                        "beta, c = sqrt(eta_a eta_w), psi' = sqrt(sqrt(delta^2 + 4c^2||beta0||^2)"
                        " - delta)",
    condition="the WLOG 'eta_a eta_w = 1' of App A.3 (L450) read as the change of variables "
              "beta' = sqrt(eta_a eta_w) beta, y' = sqrt(eta_a eta_w) y (or rates with product 1); "
              "in the original beta at rates with eta_a eta_w != 1 the printed argmin misses the "
              "limit (the theorem states 'for any delta', whose delta carries the rates)",
    expected="holds-if")

register(
    id="GRQ-Fig4", paper="rich_quick", where="Fig. 4, L109; App D.2 L974", kind="empirical",
    title="beta trajectories (whitened) and beta(inf) vs delta (low rank)",
    statement='When $X^\\top X$ is whitened (left), we can solve for the dynamics exactly using our expressions for μ, ϕ (black dashed lines). Upstream initializations follow the trajectory of gradient flow on β , downstream initializations first move in the direction of β_0 before sweeping around towards β_* , and balanced initializations take an intermediate trajectory between these two. When $X^\\top X$ is low-rank (right), then we can only predict the trajectories in the limit of $\\delta = \\pm\\infty$. If the interpolating manifold is one-dimensional, then we can solve for the solution in terms of δ exactly (black dots).',
    clauses={'we can solve for the dynamics exactly using our expressions for μ, ϕ': 'Fig. 4: largest error of beta(t)', 'Upstream initializations follow the trajectory of gradient flow on β': 'from the GF-on-beta segment: upstream minus balanced', 'downstream initializations first move in the direction of β_0 before sweeping around towards β_*': 'downstream: angle to beta0', 'balanced initializations take an intermediate trajectory between these two': 'from the GF-on-beta segment: upstream minus balanced', 'we can only predict the trajectories in the limit of δ = ±∞': 'not testable: a statement of what the theory can predict, not an outcome of a run', 'we can solve for the solution in terms of δ exactly (black dots)': 'Fig. 4 (right): largest |GF limit'},
    expected="supported", notes="D.2 data: X = [[0.5, 1]], y = 1.1, beta0 = [0.4, 0.05].")

register(
    id="GRQ-Eq(40)-(45)", paper="rich_quick", where="App A.4.1, Eqs. (40)-(45), L456-482",
    kind="identity", title="(Time-warped) mirror flow framework",
    statement=r"mirror flow \dot\beta = -(\nabla^2\Phi)^{-1}X^\top\rho; 'rewrite Eq. (40) as "
              r"(\nabla\Phi(\beta)) = -X^\top\rho'; \nu = \int_0^\infty\rho\,dt (warped: "
              r"\int g\rho) gives \nabla Q(\beta(\infty)) = X^\top\nu",
    printed=None,
    corrected_statement="nu = -int g rho dt (sign): Eq. (43) gives grad Q(beta(inf)) = -X^T int "
                        "rho dt.  The rewrite '(grad Phi(beta)) = -X^T rho' is read as d/dt grad "
                        "Phi(beta(t)) = -X^T rho (the bare parentheses suggest a dot accent lost in "
                        "the text), and is measured in that form",
    expected="erratum", notes="Catalogue E4.")

register(
    id="GRQ-Eq(46)-(49)", paper="rich_quick", where="App A.4.2, Eqs. (46)-(49), L486-502",
    kind="identity", title="M^{-1} by Sherman-Morrison",
    statement=r"M^{-1} = f_\delta(\|\beta\|^2)I_d - h_\delta(\|\beta\|^2)\beta\beta^\top, "
              r"f_\delta = 2/(\sqrt{\delta^2+4x}+\delta), h_\delta = (\sqrt{\delta^2+4x}-\delta)/"
              r"(x\sqrt{\delta^2+4x}(\sqrt{\delta^2+4x}+\delta))",
    printed=Forms(f=F_DELTA, h=H_DELTA), expected="holds")

register(
    id="GRQ-Eq(50)-(54)", paper="rich_quick", where="App A.4.2, Eqs. (50)-(54), L504-524",
    kind="identity", title="M^{-1} is not a Hessian map",
    statement=r"\partial_j M^{-1}_{ii} = 2f'\beta_j - 2h'\beta_j\beta_i^2, \partial_i M^{-1}_{ij} = "
              r"-h\beta_j - 2h'\beta_j\beta_i^2; 2f'+h = -4/(\sqrt{\delta^2+4x}(\sqrt{\delta^2+4x}"
              r"+\delta)^2) \ne 0, so M^{-1} is not a Hessian map",
    printed=TWO_FP_PLUS_H,
    condition="d >= 2 (for d = 1 every positive M^{-1}(beta) is a Hessian)",
    expected="holds-if", notes="Catalogue E33.")

register(
    id="GRQ-Eq(55)-(58)", paper="rich_quick", where="App A.4.2, Eqs. (55)-(58), L526-542",
    kind="ode-solution", title="Time warp g_delta making g M^{-1} a Hessian map",
    statement=r"g' = -(2f)^{-1}(2f'+h)g, -(2f)^{-1}(2f'+h) = 1/(\sqrt{\delta^2+4x}(\sqrt{"
              r"\delta^2+4x}+\delta)), g_\delta(x) = \sqrt{\sqrt{\delta^2+4x}+\delta}",
    printed=Forms(rate_coeff=G_RATE_COEFF, g=G_DELTA), expected="holds")

register(
    id="GRQ-Eq(59)-(67)", paper="rich_quick", where="App A.4.2, Eqs. (59)-(67), L544-574",
    kind="identity", title="The potential Phi_delta",
    statement=r"q(x) = \frac13(\sqrt{\delta^2+4x^2}-2\delta)\sqrt{\sqrt{\delta^2+4x^2}+\delta}, "
              r"q' = 2x/\sqrt{\sqrt{\delta^2+4x^2}+\delta}, q'' = \sqrt{\sqrt{\delta^2+4x^2}+\delta}"
              r"/\sqrt{\delta^2+4x^2}, c_\delta = \max\{0, sgn\delta\sqrt2|\delta|^{3/2}/3\}, "
              r"\Phi_\delta = q(\|\beta\|)+c_\delta, \nabla^2\Phi_\delta = g M^{-1}",
    printed=Forms(gMinv_identity=GMINV[0], gMinv_outer=GMINV[1], q=Q_PRINTED, dq=DQ_PRINTED,
                  d2q=D2Q_PRINTED, c=C_DELTA), expected="holds")

register(
    id="GRQ-ThmA.2", paper="rich_quick", where="App A.4.3, Thm A.2, Eqs. (68)-(69), L578-594",
    kind="identity", title="Azulay et al. Thm 2 and equivalence Phi = (2 sqrt2/3) q_A + c",
    statement=r"q_\delta(x) = (x^2 - \frac\delta2(\frac\delta2+\sqrt{x^2+\delta^2/4}))\sqrt{"
              r"\sqrt{x^2+\delta^2/4}-\delta/2}/x, z = -\frac32\sqrt{\sqrt{\|\beta_0\|^2+"
              r"\delta^2/4}-\frac\delta2\frac{\beta_0}{\|\beta_0\|}}; \Phi_\delta = \frac{2\sqrt2}"
              r"{3}q_\delta(\|\beta\|)+c_\delta",
    printed=Forms(q_azulay=Q_AZULAY, eq69=EQ69), corrected=Forms(z_coeff=Z_COEFF),
    corrected_statement="z = -(3/2) sqrt(sqrt(||beta0||^2 + delta^2/4) - delta/2) * "
                        "beta0/||beta0|| (unit vector outside the square root)",
    expected="erratum", notes="Catalogue E5.")

register(
    id="GRQ-Eq(70)-(72)", paper="rich_quick", where="App A.4.4, Eqs. (70)-(72), L596-610",
    kind="identity", title="One-dimensional interpolating manifold: closed-form beta(inf)",
    statement=r"\beta = \beta_*+\alpha v; Eq. (71): \sqrt{\sqrt{\|\beta_*\|^2+\alpha^2}+"
              r"\delta^2/4} - \frac\delta2\frac{\alpha}{\sqrt{\|\beta_*\|^2+\alpha^2}} = "
              r"-2z^\top v/3; Eq. (72): \alpha = k\sqrt{(k^2+\delta)/2 + \sqrt{((k^2+\delta)/2)^2"
              r"+\|\beta_*\|^2}}; remark: \beta_* - \alpha v also works when a changes sign",
    printed=Forms(dq_azulay=DQ_AZULAY, eq71=EQ71_PRINTED, eq72=EQ72),
    corrected=Forms(eq71=EQ71_CORRECTED),
    corrected_statement="Eq. (71): sqrt(sqrt(||beta_*||^2 + alpha^2 + delta^2/4) - delta/2) * "
                        "alpha/sqrt(||beta_*||^2 + alpha^2) = k; beta_* must be the min-norm "
                        "interpolant",
    expected="erratum", notes="Catalogue E6, E37.")
