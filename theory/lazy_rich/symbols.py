"""Symbols and per-mode quantities shared by the LR- claims (catalogue Sec 1, Lem 4.2 Eq. 9).

Time appears as ``t`` with the time constant ``tau`` (tau = 1/lr, 1/2-mean loss).  A mode has task
singular value ``s`` (s~_i), initial network singular value ``s0`` and balance ``lam``.
"""
import sympy as sp

lam = sp.Symbol("lambda", real=True)
s = sp.Symbol("s", positive=True)           # task singular value s~_i
s0 = sp.Symbol("s_0", nonnegative=True)     # network singular value at t = 0
sn = sp.Symbol("s_net", positive=True)      # network singular value at time t
t = sp.Symbol("t", nonnegative=True)
tau = sp.Symbol("tau", positive=True)
sigma = sp.Symbol("sigma", positive=True)
n_in, n_hid, n_out = sp.symbols("N_i N_h N_o", positive=True, integer=True)

#: S~_lam = (S~^2 + lam^2/4)^{1/2}
S_LAM = sp.sqrt(s ** 2 + lam ** 2 / 4)
#: H~ = ((lam^2 + 4 S~^2)^{1/2} - 2 S~)/lam  (Eq. 9; H~ := 0 at lam = 0)
H = (sp.sqrt(lam ** 2 + 4 * s ** 2) - 2 * s) / lam
#: G~ = (1 + H~^2)^{-1/2}
G = 1 / sp.sqrt(1 + H ** 2)
#: lam_perp = sgn(No - Ni) lam / 2
LAM_PERP = sp.sign(n_out - n_in) * lam / 2

#: Layer singular values that make a network singular value ``sn`` lambda-balanced (Thm 5.2, Eq. 18).
S1 = sp.sqrt((sp.sqrt(lam ** 2 + 4 * sn ** 2) - lam) / 2)
S2 = sp.sqrt((sp.sqrt(lam ** 2 + 4 * sn ** 2) + lam) / 2)

#: The scalar reduction of the flow for an aligned mode: tau ds/dt = (lam^2 + 4 s^2)^{1/2} (s~ - s).
MODE_RHS = sp.sqrt(lam ** 2 + 4 * sn ** 2) * (s - sn) / tau
