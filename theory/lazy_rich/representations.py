"""Weights, representations and the NTK across lambda (Sec 5, App C.2, C.4)."""
import sympy as sp

from theory.lazy_rich.symbols import S1, S2, S_LAM, lam, s, sn
from theory.registry import Forms, register

#: converged per-mode Gram entries (Thm C.3): W1^T W1 -> V~(S~_lam - lam/2)V~^T, W2 W2^T -> U~(S~_lam + lam/2)U~^T
GRAM_IN = S_LAM - lam / 2
GRAM_OUT = S_LAM + lam / 2
#: main text l.96 as printed: the large layer's Gram / |lam| -> identity as lam -> +oo (output) or -oo (input)
IDENTITY_LIMIT = sp.Symbol("I")
#: the corrected limit: the rank-min(Ni, No) projector U~U~^T (V~V~^T for lam -> -oo)
PROJECTOR_LIMIT = sp.Symbol("U~U~^T")
#: Taylor series of (sqrt(lam^2 + 4 s^2) +- lam)/2 for lam -> +oo (C.4)
SERIES_BIG = lam + s ** 2 / lam - s ** 4 / lam ** 3
SERIES_SMALL = s ** 2 / lam - s ** 4 / lam ** 3

register(
    id="LR-Thm5.2", paper="lazy_rich", where="Sec 5, Theorem 5.2, Eq. (18); App C.2.1, Eqs. (141)-(149)",
    kind="identity", title="weights recovered from the network function up to R(t) in O(Nh)",
    statement=r"W_1 = RS_1V^T,\ W_2 = US_2R^T,\ S_{1,2} = [((\lambda^2I + 4S^2)^{1/2} \mp \lambda I)/2]^{1/2}",
    printed=Forms(S1=S1, S2=S2), expected="holds", reconstructed=True,
    notes="Needs W2W1 = USV^T full rank; S2^2 - S1^2 = lam, S1 S2 = S.")

register(
    id="LR-ThmC.3", paper="lazy_rich", where="Sec 5 l.94; App C.2.2, Eqs. (150)-(159)", kind="limit",
    title="convergence to the global minimum and the converged representations",
    statement=r"B invertible: W_2W_1\to\tilde\Sigma_{yx},\ W_1^TW_1\to\tilde V(\tilde S_\lambda - \frac\lambda2)\tilde V^T,"
              r"\ W_2W_2^T\to\tilde U(\tilde S_\lambda + \frac\lambda2)\tilde U^T",
    printed=Forms(gram_in=GRAM_IN, gram_out=GRAM_OUT), expected="holds", reconstructed=True)

register(
    id="LR-ThmC.4", paper="lazy_rich", where="Sec 5 l.96-97; App C.2.3, Eqs. (160)-(166)", kind="limit",
    title="representations in the lambda limits (semi-structured lazy regime)",
    statement=r"\lambda\to+\infty: W_2W_2^T/\lambda\to I (task-agnostic), \lambda W_1^TW_1\to\tilde V\tilde S^2\tilde V^T;"
              r" \lambda\to-\infty: W_1^TW_1/|\lambda|\to I, |\lambda|W_2W_2^T\to\tilde U\tilde S^2\tilde U^T "
              r"(the representations converge to an identity matrix)",
    printed=Forms(series_big=SERIES_BIG, series_small=SERIES_SMALL, limit=IDENTITY_LIMIT),
    expected="erratum",
    corrected=Forms(series_big=SERIES_BIG, series_small=SERIES_SMALL, limit=PROJECTOR_LIMIT),
    corrected_statement="W2W2^T/lambda -> U~U~^T (a rank-min(Ni,No) projector), which is I only when "
                        "No <= Ni; likewise W1^TW1/|lambda| -> V~V~^T = I only when Ni <= No (E6).",
    reconstructed=True,
    notes="The limits are named matrices: I (printed) and the projector U~U~^T (V~V~^T for lambda -> -oo, "
          "corrected), built from the task's singular vectors and measured on converged networks.")

register(
    id="LR-Sec5-Rep-claims", paper="lazy_rich", where="Sec 5, l.93-99; Fig. 4", kind="limit",
    title="rich representations mirror the task; large-|lambda| layers are task-agnostic",
    statement="lambda = 0 (small init): the input and output representations (RSMs) match the task "
              "structure; lambda -> +-oo: semi-structured lazy regime, one representation task-agnostic "
              "(identity), the other task-specific with scale 1/|lambda|; large Gaussian init: lazy, "
              "no structured representation.",
    printed=Forms(gram_in=GRAM_IN, gram_out=GRAM_OUT), expected="holds-if",
    condition="'representations' read as the weight Grams W1^TW1 and W2W2^T (the diagonal blocks of QQ^T), not "
              "the RSMs of Eq. (4) (reconstructed from the thesis): with RSM_O = Y^T(W2W2^T)^+Y the output and input "
              "RSMs coincide at convergence for every lambda when Y lies in the row space of X (catalogue E5)",
    reconstructed=False)


register(
    id="LR-DefC.2", paper="lazy_rich", where="App C.2, Def C.2, l.524; E.7 kernel distance", kind="definition",
    title="lazy = constant NTK; kernel distance",
    statement=r"lazy \iff NTK constant; S(K_1,K_2) = 1 - \langle K_1,K_2\rangle_F/(\|K_1\|_F\|K_2\|_F)",
    printed=None, expected="defined", reconstructed=True)

register(
    id="LR-ThmC.5", paper="lazy_rich", where="Sec 5 l.97; App C.2.4, Eqs. (167)-(170)", kind="limit",
    title="the NTK becomes static as |lambda| -> oo",
    statement=r"NTK(t) = I\otimes X^TV^*(S^*_\lambda - \frac\lambda2)V^{*T}X + U^*(S^*_\lambda+\frac\lambda2)U^{*T}\otimes X^TX;"
              r" \lambda\to\pm\infty: NTK(t) - NTK(0) = O(1/|\lambda|)\to0",
    printed=Forms(gram_in=GRAM_IN, gram_out=GRAM_OUT), expected="holds-if",
    condition="No <= Ni for lambda -> +oo and Ni <= No for lambda -> -oo (both for square nets); the "
              "other sign of a funnel / inverted funnel is delayed rich with an NTK change of order |lambda| (E4)",
    reconstructed=True, notes="Text l.587 'the NTK converges to zero' means the NTK change.")

register(
    id="LR-C.2.4-relations", paper="lazy_rich", where="App C.2.4, l.604-606", kind="identity",
    title="layer singular values at convergence",
    statement=r"b_i^2 - a_i^2 = \lambda,\ a_ib_i = \tilde s_i;\ \lambda\to\infty: a_i\to0,\ b_i^2 = \lambda + \tilde s_i^2/\lambda + \dots",
    printed=Forms(a=S1.subs(sn, s), b=S2.subs(sn, s)), expected="holds", reconstructed=True)

register(
    id="LR-Sec5-Arch", paper="lazy_rich", where="Sec 5, l.105-106; Fig. 5", kind="empirical",
    title="architecture and the sign of lambda decide lazy vs delayed rich",
    statement='As shown in Fig. 5B, we observe that funnel networks enter the lazy regime as , while inverted-funnel networks do so as . The NTK remains static during the initial phase, rigorously confirming the rank argument first introduced by Kunin et al. (2024) for the multi-output setting. In the opposite limits of , these networks transition from a lazy regime to a rich regime. During this second alignment phase, the NTK matrix undergoes changes, indicating an initial lazy phase followed by a delayed rich phase. [...] In such cases, the network enters a delayed rich phase, where tends toward infinity, with the magnitude of determining the length of the delay. [...] Across all architectures, as , the networks consistently transition into the rich regime.',
    clauses={'funnel networks enter the lazy regime as': 'funnel, lambda = 20: kernel distance', 'while inverted-funnel networks do so as': 'inverted funnel, lambda = -20: kernel distance', 'The NTK remains static during the initial phase': 'kernel distance S at the end of the initial phase', 'rigorously confirming the rank argument first introduced by Kunin et al. (2024)': 'not testable: an argument about the theory, not an outcome of a run', 'In the opposite limits of , these networks transition from a lazy regime to a rich regime': 'at the end of the initial phase below S at the end', 'the NTK matrix undergoes changes, indicating an initial lazy phase followed by a delayed rich phase': 'at the end of the initial phase below S at the end', 'with the magnitude of determining the length of the delay': '1%-residual time', 'Across all architectures, as , the networks consistently transition into the rich regime': 'lambda -> 0: S at the lazy end below'},
    printed=None, expected="inconclusive", reconstructed=False,
    notes="Fig. 5's sizes, lambda range, P, lr, init scale and horizon are masked (E.7 keeps only 'eleven' lambdas) "
          "and not in the released repository: the run is the suite's, so the claim is at most supported.")

register(
    id="LR-ThmC.6", paper="lazy_rich", where="App C.4, Theorem C.6, Eqs. (178)-(179)", kind="limit",
    title="delayed rich: convergence rate inversely proportional to |lambda|",
    statement=r"learning is governed by e^{-2\tilde S_\lambda t/\tau} (fast) and e^{-(\tilde S_\lambda - \lambda_\perp)t/\tau} "
              r"with \tilde S_\lambda - |\lambda|/2 \approx \tilde s^2/|\lambda| (slow)",
    printed=Forms(slow_rate=S_LAM - sp.Abs(lam) / 2), expected="holds-if",
    condition="sgn(No - Ni) lambda -> +oo (lam_perp = +|lambda|/2); for the other sign the second factor "
              "decays at ~|lambda| (fast, lazy) (E8)",
    reconstructed=True)
