"""Deep linear networks, GRQ Sec. 4 (L133) and App. B.2 (Def. B.7, Eqs. 116-122, Lemma B.8,
Theorem B.9).

Model ``f(x) = a^T W_l ... W_1 x`` with ``W_i (h x h)``, ``d = h``, ``a in R^h``, all learning
rates 1, loss ``1/2 ||X beta - y||^2``; ``beta = W_1^T ... W_l^T a``.  Matrix polynomials in the
Gram ``G = W_1^T W_1`` are encoded as scalar polynomials in ``x`` (an eigenvalue of G); ``s``
stands for ``||a||^2`` and ``r`` for ``||beta||``.
"""
import sympy as sp

from theory.registry import Forms, register

l = sp.Symbol("l", integer=True, positive=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
delta = sp.Symbol("delta", real=True)
x, s, r = sp.symbols("x s r", nonnegative=True)

register(
    id="GRQ-DefB.7", paper="rich_quick", where="App B.2, Def. B.7, L850-854", kind="definition",
    title="isotropic deep-linear initialisation",
    statement=r"there is $\delta\in\mathbb R$ with $aa^\top - W_lW_l^\top = \delta I_h$ and "
              r"$W_{i+1}^\top W_{i+1} = W_iW_i^\top$; achieved by $a = 0$, $W_i = \alpha O_i$ "
              r"($\delta=-\alpha^2$); conserved under GF",
    printed={"last": "a a^T - W_l W_l^T - delta I", "chain": "W_{i+1}^T W_{i+1} - W_i W_i^T"},
    expected="holds-if",
    condition="delta <= 0 when h >= 2 (W_l W_l^T = a a^T - delta I_h is PSD only then), and "
              "beta(0) != 0 for Thm B.9 (the a = 0 example has beta(0) = 0)",
    notes="OD-19: Def. B.7 with h >= 2 forces delta <= 0.")

register(
    id="GRQ-Eq(116)-(117)", paper="rich_quick", where="App B.2, Eqs. (116)-(117), L856-862",
    kind="identity", title="||beta||^2 and beta beta^T as polynomials of ||a||^2 and W_1^T W_1",
    statement=r"$\|\beta\|^2 = \|a\|^2(\|a\|^2-\delta)^l$, "
              r"$\beta\beta^\top = (W_1^\top W_1)^{l+1} + \delta(W_1^\top W_1)^l$",
    printed={"norm2": s * (s - delta) ** l, "outer": x ** (l + 1) + delta * x ** l},
    expected="holds",
    notes="The proof (L860) writes the exponent d where l is meant; the statement is right.")

M_118 = x ** l + s * sp.Sum((s - delta) ** i * x ** (l - 1 - i), (i, 0, l - 1))
register(
    id="GRQ-LemB.8", paper="rich_quick", where="App B.2, Lemma B.8, Eq. (118), L866-870",
    kind="identity", title="deep preconditioner M",
    statement=r"$\dot\beta = -MX^\top\rho$, $M = (W_1^\top W_1)^l + \|a\|^2\sum_{i=0}^{l-1}"
              r"(\|a\|^2-\delta)^i(W_1^\top W_1)^{l-1-i}$, PSD",
    printed=M_118, expected="holds")

register(
    id="GRQ-ThmB.9", paper="rich_quick", where="App B.2, Thm B.9, Eqs. (119)-(122), L874-892",
    kind="identity", title="deep-linear rich-limit implicit bias",
    statement=r"$\delta\to0$: $\beta(\infty) = \arg\min\frac{l+1}{l+2}\|\beta\|^{\frac{l+2}{l+1}} - "
              r"(\beta_0/\|\beta_0\|^{\frac{l}{l+1}})^\top\beta$ s.t. $X\beta=y$; (120) "
              r"$\|a\|^2 = \|\beta\|^{2/(l+1)}$; (121) $M = \|\beta\|^{2l/(l+1)}I + "
              r"l\|\beta\|^{-2/(l+1)}\beta\beta^\top$; (122) $M^{-1} = \|\beta\|^{-2l/(l+1)}I + "
              r"\frac{l}{l+1}\|\beta\|^{-(4l+2)/(l+1)}\beta\beta^\top$ (sic); "
              r"$M^{-1} = g\nabla^2\Phi$, $g = \|\beta\|^{-l/(l+1)}$",
    printed={"Phi": (l + 1) / (l + 2) * r ** ((l + 2) / (l + 1)),
             "grad coefficient": r ** (-l / (l + 1)),
             "a_norm2 (120)": r ** (2 / (l + 1)),
             "M (121)": Forms(identity=r ** (2 * l / (l + 1)), outer=l * r ** (-2 / (l + 1))),
             "M^-1 (122)": Forms(identity=r ** (-2 * l / (l + 1)),
                                 outer=l / (l + 1) * r ** (-(4 * l + 2) / (l + 1))),
             "g": r ** (-l / (l + 1))},
    corrected={"M^-1 (122)": Forms(identity=r ** (-2 * l / (l + 1)),
                                   outer=-l / (l + 1) * r ** (-(4 * l + 2) / (l + 1)))},
    corrected_statement=r"Sherman-Morrison gives a MINUS sign in Eq. (122): "
                        r"$M^{-1} = \|\beta\|^{-2l/(l+1)}(I - \frac{l}{l+1}\hat\beta\hat\beta^\top)$;"
                        r" with it $M^{-1} = g\nabla^2\Phi$ holds and Eq. (119) is confirmed by GF",
    expected="erratum",
    notes="The (isotropic, delta = 0) tests use the exactly balanced rank-one chain.")

register(
    id="GRQ-Claim-DeepQ", paper="rich_quick", where="Sec 4, L133", kind="identity",
    title="deep-linear implicit bias (main text)",
    statement=r"$Q(\beta) = \frac{l+1}{l+2}\|\beta\|^{\frac{l+2}{l+1}} - "
              r"\|\beta_0\|^{-\frac{l+2}{l+1}}\beta_0^\top\beta$; 'with increased depth "
              r"emphasizes' preserving the initialisation direction",
    printed=(l + 1) / (l + 2) * r ** ((l + 2) / (l + 1)) - sp.Symbol("r0") ** (-(l + 2) / (l + 1))
    * sp.Symbol("b0_dot_beta"),
    corrected=(l + 1) / (l + 2) * r ** ((l + 2) / (l + 1)) - sp.Symbol("r0") ** (-l / (l + 1))
    * sp.Symbol("b0_dot_beta"),
    corrected_statement=r"exponent $-l/(l+1)$ on $\|\beta_0\|$ (as in Thm B.9); the depth claim "
                        r"needs the ray through beta0 to meet the solution set ($y/(X\beta_0) > 0$)",
    expected="erratum")
