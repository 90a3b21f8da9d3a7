"""Applications (Sec 6, App D): continual, reversal and transfer learning, fine-tuning."""
import sympy as sp

from theory.lazy_rich.symbols import lam, s, t, tau
from theory.registry import register

n = sp.Symbol("n", positive=True, integer=True)
Si, Sj, Sk = (sp.MatrixSymbol(f"Syx_{x}", n, n) for x in "ijk")


def _half_sq(M):
    return sp.Trace(M.T * M) / 2


#: D.1: forgetting of task i when training on T_k after T_j (absolute difference of losses)
FORGETTING = _half_sq(Sk - Si) - _half_sq(Sj - Si)

# D.2: per-mode trajectory in the exponential form (valid for reversed modes), b and c from the
# layer singular values s1, s2 at t = 0 and the alignment sign d = +-1
s1, s2, d = sp.symbols("s_1 s_2 d", real=True)
mu = sp.sqrt(s ** 2 + lam ** 2 / 4)
hh = (sp.sqrt(lam ** 2 + 4 * s ** 2) - 2 * s) / lam
gg = 1 / sp.sqrt(1 + hh ** 2)
b = gg * (d * s2 * (1 + hh) + s1 * (1 - hh))
c = gg * (d * s2 * (1 - hh) - s1 * (1 + hh))
x = 2 * mu * t / tau
REVERSAL = (s * (b ** 2 * sp.exp(x) - c ** 2 * sp.exp(-x)) - lam * b * c) / (
    4 * mu + b ** 2 * (sp.exp(x) - 1) + c ** 2 * (1 - sp.exp(-x)))

# D.3: transfer of a new feature y* trained on item i through W1^T W1 = V~(S_lam - lam/2)V~^T
sa, sb = sp.symbols("s_a s_b", positive=True)
MODE_WEIGHT_RATIO = (sp.sqrt(sa ** 2 + lam ** 2 / 4) - lam / 2) / (sp.sqrt(sb ** 2 + lam ** 2 / 4) - lam / 2)

register(
    id="LR-D.1", paper="lazy_rich", where="Sec 6 l.110; App D.1, l.638-643; Fig. 11", kind="identity",
    title="continual learning: forgetting is set by task similarity, regardless of lambda",
    statement=r"\mathcal F_i(T_j, T_k) = L_i(T_k) - L_i(T_j) = \frac12(\|\tilde\Sigma_k - \tilde\Sigma_i\|_F^2 - "
              r"\|\tilde\Sigma_j - \tilde\Sigma_i\|_F^2); the exact solution gives the trajectories of forgetting",
    printed=FORGETTING, expected="holds", reconstructed=True,
    notes="Called a 'relative change in loss' although it is an absolute difference (E16).")

register(
    id="LR-D.2", paper="lazy_rich", where="Sec 6 l.111; App D.2, Eqs. (180)-(185); Fig. 12", kind="ode-solution",
    title="reversal learning: stuck at lambda = 0, succeeds for lambda != 0",
    statement="At lambda = 0 a reversed mode has b_i = 0 (B singular) and decays to 0 (training fails); for "
              "lambda != 0 the diagonal of B has no zero and reversal succeeds",
    printed=REVERSAL, expected="holds", reconstructed=True,
    notes="Reversal time ~ (tau/2 s~) ln(1/lambda^2) + const as lambda -> 0 (derived).")

register(
    id="LR-D.3", paper="lazy_rich", where="Sec 6 l.112-115; App D.3, Eqs. (186)-(187); Fig. 13", kind="empirical",
    title="transfer of a new feature improves with lambda",
    statement='Specifically Fig. 13 shows that the generalization loss on untrained items with the new feature decreases as a function of increasing . Therefore, as increases, networks more effectively transfer the hierarchical structure of the network',
    clauses={'the generalization loss on untrained items with the new feature decreases as a function of increasing': 'steps of the generalisation loss on the untrained items', 'as increases, networks more effectively transfer the hierarchical structure': 'd/dlambda of the mode-weight ratio'},
    printed=MODE_WEIGHT_RATIO, expected="supported", reconstructed=True,
    notes="f_j = y* (x_i^T W1^T W1 x_j)/(x_i^T W1^T W1 x_i). The ground truth on the untrained items is not given: "
          "both readings of l.662 are measured (the two fish; the fish and the birds). The lambda grid, the "
          "pretraining and the new row's init are masked: supported, not confirmed.")

register(
    id="LR-D.4", paper="lazy_rich", where='Sec 6 l.116; App D.4, l.669-676; Fig. 14', kind="empirical",
    title="fine-tuning after re-balancing: faster for larger lambda_new",
    statement='[Sec 6 l.116] We consistently find that finetuning performance improves and converges more quickly as networks are re-balanced to larger values of and, conversely, decreases as approaches 0 as shown in Fig. 14. [App D.4 l.673] Across all the tasks we consider, we consistently find that fine-tuning performance improves as networks are re-balanced to larger values of and, conversely, decreases as approaches 0. Networks re-balanced to also learn more slowly compared to . Interestingly, when studying networks that are not re-balanced prior to finetuning (; but are first initialized prior to pretraining to ), we see that they perform similarly on the new tasks to networks that are re-balanced to .',
    clauses={'fine-tuning performance improves as networks are re-balanced to larger values of and, conversely, decreases as approaches 0': 'each step away from lambda_new = 0', 'and converges more quickly': 'each step away from lambda_new = 0', 'Networks re-balanced to also learn more slowly compared to .': 'not testable: both lambda values of this sentence are lost from the text (the symbols are masked); read as lambda_new -> 0 against larger values it is the sentence before, decided above', 'they perform similarly on the new tasks to networks that are re-balanced to': 'not re-balanced vs re-balanced to lambda_init'},
    printed=None, expected="supported", reconstructed=True,
    notes="'not re-balanced = re-balanced to lambda_init' is an exact identity (the balance is conserved, "
          "re-balancing changes only R) (E18). 'larger values of lambda' is measured as larger |lambda_new| and as "
          "larger signed lambda_new >= 0 (the signed reading on lambda_new < 0 contradicts the same sentence's "
          "'decreases as lambda approaches 0'). Every value of App D.4 is masked: supported, not confirmed.")
