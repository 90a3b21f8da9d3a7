"""Robustness of the converged network to input and weight noise (Sec 5 l.100-104; App C.3)."""
import sympy as sp

from theory.lazy_rich.symbols import lam, n_hid, n_in, n_out, s, sigma
from theory.registry import Forms, register

c = sp.Symbol("c", real=True)                    # task constant of the loss
norm_fn = sp.Symbol("|Syx|_F^2", positive=True)  # ||W2 W1||_F^2 = ||Syx||_F^2 at convergence
w1_sq, w2_sq = sp.symbols("|W1|_F^2 |W2|_F^2", positive=True)
loss_clean = sp.Symbol("L_clean", nonnegative=True)

#: Eq. (171)-(172): E[L] under iid input noise (0, sigma^2 I), at convergence
INPUT_NOISE = c + sigma ** 2 / 2 * norm_fn
#: Eq. (173): E[L] under iid weight noise (0, sigma^2) on every entry of W1 and W2
WEIGHT_NOISE = loss_clean + sigma ** 2 / 2 * (n_in * w2_sq + n_out * w1_sq) + sigma ** 4 / 2 * n_in * n_hid * n_out
#: Eq. (174)-(175) per mode: ||W1||^2 = sum(S_lam - lam/2), ||W2||^2 = sum(S_lam + lam/2)
MODE_W1_SQ = sp.sqrt(s ** 2 + lam ** 2 / 4) - lam / 2
MODE_W2_SQ = sp.sqrt(s ** 2 + lam ** 2 / 4) + lam / 2

register(
    id="LR-Robust-Input", paper="lazy_rich", where="Sec 5 l.100-102; App C.3, Eqs. (171)-(172)",
    kind="identity", title="input-noise loss is independent of lambda",
    statement=r"E[L] = c + \frac{\sigma^2}{2}\|\tilde\Sigma_{yx}\|_F^2, independent of \lambda",
    printed=INPUT_NOISE, expected="holds", reconstructed=True)

register(
    id="LR-Robust-Param", paper="lazy_rich", where="Sec 5 l.103-104; App C.3, Eqs. (173)-(177)",
    kind="bound", title="weight-noise loss is minimised at lambda = 0 (Ni = No)",
    statement=r"E[L] = L + \frac{\sigma^2}{2}(N_i\|W_2\|^2 + N_o\|W_1\|^2) + \frac{\sigma^4}{2}N_iN_hN_o; "
              r"for N_i = N_o minimised only at \lambda = 0",
    printed=Forms(loss=WEIGHT_NOISE, w1_sq=MODE_W1_SQ, w2_sq=MODE_W2_SQ), expected="holds", reconstructed=True,
    notes="Ni != No (derived): equal s~ gives lam* = s~ (No - Ni)/sqrt(Ni No).")
