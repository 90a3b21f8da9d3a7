"""Wide two-layer linear networks, GRQ Sec. 4 and App. B.1 (Eqs. 6-7, 73-102, Thm 4.1,
Lemmas B.1-B.3, Assumption B.4 / Theorem B.6).

Model ``f(x) = A^T W x`` with ``W (h x d)``, ``A (h x c)``, ``beta = W^T A (d x c)``; loss
``1/2 ||X beta - Y||_F^2`` (sum, no 1/n) and gradient flow ``W' = -eta_w dL/dW``,
``A' = -eta_a dL/dA`` (theory.conventions, ``rich_quick``).  ``vec`` stacks columns, the Kronecker
sum is ``P (c x c) (+) Q (d x d) = P kron I_d + I_c kron Q`` (footnote 4).

Matrix formulas are sympy matrix expressions; formulas that are matrix *functions* of a Gram
matrix (square roots, polynomials) are encoded as a scalar sympy function of ``x`` applied to the
Gram's eigenvalues, beside the name of the Gram (``"btb"`` = ``beta^T beta``, ``"bbt"`` =
``beta beta^T``) and the Kronecker slot it sits in.
"""
import sympy as sp

from theory.registry import Forms, register
from theory.validation import InvalidArgument

c, d, n, h = sp.symbols("c d n h", integer=True, positive=True)
A = sp.MatrixSymbol("A", h, c)
W = sp.MatrixSymbol("W", h, d)
X = sp.MatrixSymbol("X", n, d)
eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
delta = sp.Symbol("delta", real=True)
#: squared Frobenius norm of a neuron's (or the network's) beta
r2 = sp.Symbol("r2", nonnegative=True)
#: an eigenvalue of a Gram matrix (the argument of a matrix function)
x = sp.Symbol("x", nonnegative=True)
kappa = sp.sqrt(delta ** 2 + 4 * eta_a * eta_w * r2)
KP = sp.KroneckerProduct


GRAMS = ("btb", "bbt")


def _gram_of(f, f_name, gram, gram_name):
    """``f`` a sympy expression in ``x`` and ``gram`` one of GRAMS."""
    if not isinstance(f, sp.Basic):
        raise InvalidArgument(f"{f_name} must be a sympy expression in x, got {type(f).__name__}")
    if gram not in GRAMS:
        raise InvalidArgument(f"{gram_name}={gram!r} must be 'btb' or 'bbt' (beta^T beta or beta beta^T)")


def gram_kron(left, left_gram, right, right_gram):
    """``left(G1) (x) I + I (x) right(G2)``: scalar functions of ``x`` applied to the Grams named
    by ``left_gram`` / ``right_gram`` ('btb' = beta^T beta, 'bbt' = beta beta^T)."""
    _gram_of(left, "left", left_gram, "left_gram")
    _gram_of(right, "right", right_gram, "right_gram")
    return Forms(left=left, left_gram=left_gram, right=right, right_gram=right_gram)


def gram_function(f, gram):
    """``f(G)``: a scalar function of ``x`` applied to the Gram named by ``gram``."""
    _gram_of(f, "f", gram, "gram")
    return Forms(f=f, gram=gram)


def kron_sum(P, Q, left=c, right=d):
    """``P (+) Q = P kron I_right + I_left kron Q`` (footnote 4)."""
    if not all(isinstance(M, (sp.MatrixExpr, sp.MatrixBase)) for M in (P, Q)):
        raise InvalidArgument(f"P and Q must be sympy matrices, got {type(P).__name__} and "
                              f"{type(Q).__name__}")
    return KP(P, sp.Identity(right)) + KP(sp.Identity(left), Q)


M_WIDE = eta_w * KP(A.T * A, sp.Identity(d)) + eta_a * KP(sp.Identity(c), W.T * W)

register(
    id="GRQ-Claim-Wide-Cons", paper="rich_quick", where="Sec 4, L117", kind="conserved",
    title="Delta = eta_w A A^T - eta_a W W^T is conserved",
    statement=r"$\Delta = \eta_w A_0A_0^\top - \eta_a W_0W_0^\top$ remains conserved under GF",
    printed=eta_w * A * A.T - eta_a * W * W.T, expected="holds",
    notes="App. B (L618) prints it without learning rates; that slip is recorded under "
          "GRQ-Eq(73)-(80).")

register(
    id="GRQ-Eq-NTK-wide", paper="rich_quick", where="Sec 4, L117", kind="identity",
    title="NTK of the wide linear network",
    statement=r"$K = (I_c\otimes X)(\eta_w A^\top A \oplus \eta_a W^\top W)(I_c\otimes X^\top)$",
    printed=KP(sp.Identity(c), X) * M_WIDE * KP(sp.Identity(c), X.T), expected="holds",
    notes="Output index outer (vec of the n x c output stacks columns); NTK weights each "
          "parameter by its learning rate (GRQ-Def-NTK).")

register(
    id="GRQ-Eq(6)", paper="rich_quick", where="Sec 4, Eq. (6), L119", kind="identity",
    title="vec form of the beta dynamics",
    statement=r"$\mathrm{vec}(\dot\beta) = -(\eta_w A^\top A\oplus\eta_a W^\top W)"
              r"\mathrm{vec}(X^\top X\beta - X^\top Y)$",
    printed=M_WIDE, expected="holds")

register(
    id="GRQ-Eq(73)-(80)", paper="rich_quick", where="App B.1, Eqs. (73)-(80), L616-644",
    kind="identity", title="two-layer multi-output function-space dynamics",
    statement=r"Eq. (78): $\mathrm{vec}(\dot\beta) = -(\eta_w A^\top A\otimes I_c + \eta_a I_d"
              r"\otimes W^\top W)\mathrm{vec}(X^\top P)$; L618: $\Delta = A_0A_0^\top - W_0W_0^\top$"
              r" conserved",
    printed={"Eq. (78)": eta_w * KP(A.T * A, sp.Identity(c)) + eta_a * KP(sp.Identity(d), W.T * W),
             "Eqs. (79)-(80)": M_WIDE, "Delta (L618)": A * A.T - W * W.T},
    corrected={"Eq. (78)": M_WIDE, "Delta (L618)": eta_w * A * A.T - eta_a * W * W.T},
    corrected_statement=r"Eq. (78): $\eta_w A^\top A\otimes I_d + \eta_a I_c\otimes W^\top W$ "
                        r"(identity sizes swapped as printed); Eq. (80) lhs is vec(beta-dot); the "
                        r"conserved matrix is $\eta_w AA^\top - \eta_a WW^\top$ (L117)",
    expected="erratum")

MI_PRINTED = {"out": (kappa + delta) / 2, "in": (kappa - delta) / 2}
register(
    id="GRQ-Thm4.1", paper="rich_quick", where="Sec 4, Thm 4.1, Eq. (7), L123-125",
    kind="identity", title="M as a sum of per-neuron preconditioners",
    statement=r"$M = \sum_i M_i$, $M_i = \frac{\kappa_i+\delta_i}{2}\frac{\beta_i^\top\beta_i}"
              r"{\|\beta_i\|_F^2}\oplus\frac{\kappa_i-\delta_i}{2}\frac{\beta_i\beta_i^\top}"
              r"{\|\beta_i\|_F^2}$, $\kappa_i=\sqrt{\delta_i^2+4\eta_a\eta_w\|\beta_i\|_F^2}$, "
              r"$\delta_i = \Delta_{ii}$",
    printed=MI_PRINTED, expected="holds",
    notes="Coefficients as functions of delta = delta_i and r2 = ||beta_i||_F^2.")

register(
    id="GRQ-LemB.1", paper="rich_quick", where="App B.1, Lemma B.1, Eq. (87), L676-680",
    kind="identity", title="Lemma B.1 (= Thm 4.1)", statement="Eq. (87) = Eq. (7)",
    printed=MI_PRINTED, expected="holds")

register(
    id="GRQ-Eq(81)-(86)", paper="rich_quick", where="App B.1, Eqs. (81)-(86), L652-672",
    kind="identity", title="per-neuron Gram matrices in terms of beta_i and delta_i",
    statement=r"$\|a_i\|^2 = (\kappa_i+\delta_i)/2$, $\|w_i\|^2 = (\kappa_i-\delta_i)/2$, "
              r"$a_ia_i^\top = \frac{\kappa_i+\delta_i}{2}\frac{\beta_i^\top\beta_i}{\|\beta_i\|^2}$"
              r", $w_iw_i^\top = \frac{\kappa_i-\delta_i}{2}\frac{\beta_i\beta_i^\top}"
              r"{\|\beta_i\|^2}$ (with Eqs. 81-82: Grams and $\|\beta_i\|_F^2 = \|a_i\|^2\|w_i\|^2$)",
    printed={"a_norm2": (kappa + delta) / 2, "w_norm2": (kappa - delta) / 2},
    corrected={"a_norm2": (kappa + delta) / (2 * eta_w), "w_norm2": (kappa - delta) / (2 * eta_a)},
    corrected_statement=r"$\|a_i\|^2 = (\kappa_i+\delta_i)/(2\eta_w)$, "
                        r"$\|w_i\|^2 = (\kappa_i-\delta_i)/(2\eta_a)$ (and the same factors in "
                        r"Eqs. 85-86); Eq. (87) is unaffected since M carries eta_w, eta_a",
    expected="erratum")

register(
    id="GRQ-LemB.2", paper="rich_quick", where="App B.1.1, Lemma B.2, Eqs. (88)-(91), L682-718",
    kind="bound", title="rank of M in the delta -> +oo limit",
    statement=r"$M\to\sum_i|\delta_i|\frac{\beta_i^\top\beta_i}{\|\beta_i\|^2}\otimes I_d$; "
              r"rank(M) <= d h (h < c), d c (h >= c); Eq. (90): "
              r"$\sum_i \mathrm{rank}(\beta_i^\top\beta_i/\|\beta_i\|^2) \le h$ (h<c), $c$ (h>=c)",
    printed={"rank bound (88)": sp.Piecewise((d * h, h < c), (d * c, True)),
             "sum of ranks (90)": sp.Piecewise((h, h < c), (c, True))},
    corrected={"rank bound (88)": d * sp.Min(h, c), "sum of ranks (90)": h,
               "rank of the sum": sp.Min(h, c)},
    corrected_statement="Eq. (90): the sum of the h rank-one ranks is h; it is the rank of the "
                        "*sum* that is <= min(h, c). Eqs. (88)/(91) stand. The delta = 0 form "
                        "(L718) is sqrt(eta_a eta_w) sum_i ||beta_i||_F (P_i (+) Q_i); the "
                        "delta -> -oo rank condition uses beta_i beta_i^T (d x d).",
    expected="erratum")

P_io = sp.Symbol("P")  # placeholder: the projector beta^T beta/||beta||^2 (c x c)
register(
    id="GRQ-Eq(92)-(96)", paper="rich_quick", where="App B.1.2, Eqs. (92)-(96), L720-746",
    kind="limit", title="single-neuron funnel / inverted funnel and the limits of M",
    statement=r"inverted funnel (h=d=1): $M = \frac{\kappa+\delta}{2}\frac{\beta^\top\beta}"
              r"{\|\beta\|^2} + \frac{\kappa-\delta}{2}I_c$; Eq. (96): $M\to\delta I_c$ "
              r"($\delta\to-\infty$), $\sqrt{\eta_a\eta_w}\|\beta\|(P + I_c)$ ($\delta=0$), "
              r"$|\delta|P$ ($\delta\to+\infty$)",
    printed={"M": {"P": (kappa + delta) / 2, "I": (kappa - delta) / 2},
             "-oo": {"P": 0, "I": delta}, "0": {"P": sp.sqrt(eta_a * eta_w * r2),
                                                   "I": sp.sqrt(eta_a * eta_w * r2)},
             "+oo": {"P": sp.Abs(delta), "I": 0}},
    corrected={"-oo": {"P": 0, "I": sp.Abs(delta)}},
    corrected_statement=r"$M\to|\delta| I_c$ as $\delta\to-\infty$ (also at L744); L746's "
                        r"'$\delta\to-\infty$' in the $+\infty$ paragraph means $+\infty$",
    expected="erratum")

SQRT_GRAM = sp.sqrt(eta_a * eta_w * x + delta ** 2 / 4)
register(
    id="GRQ-LemB.3", paper="rich_quick", where="App B.1.3, Lemma B.3, Eqs. (97)-(101), L748-772",
    kind="identity", title="square isotropic network: M in terms of beta",
    statement=r"$\Delta=\delta I_h$, d=h=c: $M = \sqrt{\eta_a\eta_w\beta^\top\beta+\frac{\delta^2}4}"
              r"\otimes I + I\otimes\sqrt{\eta_a\eta_w\beta\beta^\top+\frac{\delta^2}4}$ (97); "
              r"(98) $W^\top W = \frac1{\eta_a}(-\frac\delta2 I + \sqrt{\cdot\beta\beta^\top})$, "
              r"(99) $A^\top A=\frac1{\eta_w}(\frac\delta2 I+\sqrt{\cdot\beta^\top\beta})$; "
              r"(101) has $\beta^\top\beta$ in both slots",
    printed={"(97)": gram_kron(SQRT_GRAM, "btb", SQRT_GRAM, "bbt"),
             "(101)": gram_kron(SQRT_GRAM, "btb", SQRT_GRAM, "btb"),
             "(98) WtW": gram_function((-delta / 2 + SQRT_GRAM) / eta_a, "bbt"),
             "(99) AtA": gram_function((delta / 2 + SQRT_GRAM) / eta_w, "btb")},
    corrected={"(101)": gram_kron(SQRT_GRAM, "btb", SQRT_GRAM, "bbt")},
    corrected_statement=r"Eq. (101)'s second slot is $\sqrt{\eta_a\eta_w\beta\beta^\top+\delta^2/4}$"
                        r" as in Eq. (97); the isotropic condition is "
                        r"$\eta_w AA^\top-\eta_a WW^\top=\delta I_h$ (L752 drops the etas)",
    expected="erratum")

register(
    id="GRQ-Eq(102)", paper="rich_quick", where="App B.1.3, Eq. (102), L774-778", kind="limit",
    title="limits of the square-network M",
    statement=r"$M\to\delta I$ ($\delta\to\pm\infty$), $M = \beta\beta^\top\otimes I + I\otimes"
              r"\beta^\top\beta$ ($\delta = 0$)",
    printed={"-oo": delta, "+oo": delta, "0": gram_kron(x, "bbt", x, "btb")},
    corrected={"-oo": sp.Abs(delta), "+oo": sp.Abs(delta),
               "0": gram_kron(sp.sqrt(eta_a * eta_w) * sp.sqrt(x), "btb",
                              sp.sqrt(eta_a * eta_w) * sp.sqrt(x), "bbt")},
    corrected_statement=r"$M/|\delta|\to I_{dc}$ as $\delta\to\pm\infty$; at $\delta=0$ "
                        r"$M = \sqrt{\eta_a\eta_w}[(\beta^\top\beta)^{1/2}\otimes I_d + "
                        r"I_c\otimes(\beta\beta^\top)^{1/2}]$",
    expected="erratum")

lam, lam0 = sp.symbols("lambda lambda_0", positive=True)
Q_THM = sp.Rational(1, 4) * (2 * lam * sp.asinh(sp.sqrt(eta_a * eta_w) * 2 * lam / delta)
                             - sp.sqrt(eta_a * eta_w * 4 * lam ** 2 + delta ** 2) + delta)
Q_114 = sp.Rational(1, 4) * (sp.sqrt(eta_a * eta_w) * 2 * lam
                             * sp.asinh(sp.sqrt(eta_a * eta_w) * 2 * lam / delta)
                             - sp.sqrt(eta_a * eta_w * 4 * lam ** 2 + delta ** 2) + delta)
_cc = eta_a * eta_w
Q_CORRECTED = (2 * sp.sqrt(_cc) * lam * sp.asinh(2 * sp.sqrt(_cc) * lam / sp.Abs(delta))
               - sp.sqrt(4 * _cc * lam ** 2 + delta ** 2) + sp.Abs(delta)) / (4 * _cc)
register(
    id="GRQ-AssB.4", paper="rich_quick",
    where="App B.1.3, Assumptions B.4-B.5, Theorem B.6, Eqs. (103)-(115), L780-846",
    kind="ode-solution", title="task-aligned square network: mirror flow with hyperbolic entropy",
    statement=r"SVD$(\beta(0)) = V\Lambda(0)U^\top$ with U, V the singular vectors of $X^\top Y$, "
              r"$X^\top X$ diagonal in V; then $\dot\Lambda = -M_\Lambda(\Lambda - S)$, "
              r"$M_\Lambda=\sqrt{4\eta_a\eta_w\Lambda^2+\delta^2}$, and "
              r"$\nabla^2 q_\delta = M_\Lambda^{-1}$ with $q_\delta(x) = \frac14(2x\,\mathrm{asinh}"
              r"(\sqrt{\eta_a\eta_w}2x/\delta) - \sqrt{4\eta_a\eta_w x^2+\delta^2}+\delta)$",
    printed={"q (Thm B.6)": Q_THM, "q (114)": Q_114,
             "Lambda ODE (109)": -sp.sqrt(4 * _cc * lam ** 2 + delta ** 2) * (lam - sp.Symbol("s"))},
    corrected={"q": Q_CORRECTED,
               "Lambda ODE": -sp.sqrt(4 * _cc * lam ** 2 + delta ** 2)
               * (sp.Symbol("d_i") * lam - sp.Symbol("s"))},
    corrected_statement=r"$q_\delta(x)=\frac{1}{4\eta_a\eta_w}[2\sqrt{\eta_a\eta_w}x\,\mathrm{asinh}"
                        r"(2\sqrt{\eta_a\eta_w}x/|\delta|)-\sqrt{4\eta_a\eta_w x^2+\delta^2}+|\delta|]$"
                        r" (so $q''=1/\sqrt{4\eta_a\eta_w x^2+\delta^2}$ for every sign of delta); "
                        r"with $X^\top X = VDV^\top$ the flow is $\dot\Lambda=-M_\Lambda(D\Lambda-S)$;"
                        r" the solution reads $X\beta(\infty)=Y$, $\beta(\infty)=V\Lambda_*U^\top$",
    expected="erratum")

register(
    id="GRQ-Claim-Funnel", paper="rich_quick", where="Sec 4, L129; App B.1.1, L682-716",
    kind="empirical", title="funnel / inverted-funnel regimes",
    statement='Except for a measure zero set of initializations, funnel networks always enter the lazy regime as all $\\delta_i \\rightarrow \\infty$, whereas inverted funnel networks do so as $\\delta_i \\rightarrow -\\infty$. As elaborated in Appendix B, this occurs because in these limits a solution β_* must exist within the space spanned by M at initialization. In the opposite limits of δ , these networks enter a lazy followed by rich regime, assuming $\\beta_0 \\not\\propto \\beta_*$. Conversely, as the $\\delta_i \\rightarrow 0$, all networks transition into the rich regime.',
    clauses={'funnel networks always enter the lazy regime as all δ_i → ∞': 'funnel, delta -> +oo: kernel distance', 'whereas inverted funnel networks do so as δ_i → -∞': 'inverted funnel, delta -> -oo: kernel distance', 'In the opposite limits of δ , these networks enter a lazy followed by rich regime': 'at the end of the initial phase below S at the end', 'as the δ_i → 0, all networks transition into the rich regime': 'delta -> 0: S at the lazy end below', 'Except for a measure zero set of initializations': 'not testable: a measure-zero set of initialisations cannot be drawn; random inits avoid it almost surely', 'this occurs because in these limits a solution β_* must exist within the space spanned by M at initialization': 'not testable: an explanation (App. B), not an outcome of a run', 'assuming β_0 ∝̸ β_*': 'not testable: a condition, met almost surely by the random inits'},
    expected="holds")

register(
    id="GRQ-Claim-Square", paper="rich_quick", where="Sec 4, L131; App B.1.3", kind="empirical",
    title="square networks: symmetric lazy limits; hyperbolic-entropy mirror flow",
    statement='First, we establish that as all δ_i tend towards $\\pm\\infty$, the network symmetrically transitions into the lazy regime.',
    clauses={'as all δ_i tend towards +∞ ... the network transitions into the lazy regime': 'square, delta -> +oo: kernel distance', 'as all δ_i tend towards -∞ ... the network transitions into the lazy regime': 'square, delta -> -oo: kernel distance', 'symmetrically': 'task-aligned singular values for delta = +2 and -2'},
    expected="holds")
