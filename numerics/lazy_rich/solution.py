"""The exact learning dynamics of lambda-balanced two-layer linear networks (Sec 4, App B).

Times are the paper's dimensionless ``t / tau`` (tau = 1/lr; after k GD steps t/tau = k * lr,
``theory.conventions.flow_time``).  Every closed form is vectorised over a time grid and returns
arrays with a leading time axis.  Q = [W1^T; W2] is (Ni + No, Nh) and QQ^T its Gram matrix.

* :func:`f_matrix`, :func:`spectrum` -- F and its eigendecomposition (LR-Lem4.1, LR-Lem4.2)
* :func:`init_variables` -- B, C, D (LR-Eq10-12)
* :func:`qq_exact` -- Theorem 4.3 (plain form); :func:`qq_stable` -- Theorem B.5 (stable form)
* :func:`qq_fukumizu` -- the generic Riccati solution through ``eigh(F)`` (LR-Eq7)
* :func:`flow_rhs` -- the gradient flow of the weights, for ``numerics.ode.integrate_flow``
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.lazy_rich._args import count, weights
from numerics.lazy_rich.tasks import TaskSVD
from numerics.validation import InvalidArgument, finite_array


def f_matrix(syx, lam: float) -> np.ndarray:
    """F = [[-lam/2 I_Ni, Syx^T], [Syx, lam/2 I_No]] (LR-Lem4.1)."""
    syx = finite_array(syx, "syx", ndim=2)
    lam = float(finite_array(lam, "lam"))
    n_out, n_in = syx.shape
    return np.block([[-lam / 2 * np.eye(n_in), syx.T], [syx, lam / 2 * np.eye(n_out)]])


def qq_from_weights(W1, W2) -> np.ndarray:
    """QQ^T for Q = [W1^T; W2], batched over leading axes (LR-Eq3)."""
    W1, W2 = weights(W1, W2)
    Q = np.concatenate([np.swapaxes(W1, -1, -2), W2], axis=-2)
    return Q @ np.swapaxes(Q, -1, -2)


def blocks(qq, n_in: int) -> dict:
    """The LR-Eq3 blocks of QQ^T: input Gram W1^T W1, function W2 W1, output Gram W2 W2^T."""
    qq, n_in = finite_array(qq, "qq"), count(n_in, "n_in")
    if qq.ndim < 2 or qq.shape[-1] != qq.shape[-2] or qq.shape[-1] <= n_in:
        raise InvalidArgument(f"qq {qq.shape} must be square (..., Ni + No, Ni + No) with Ni = {n_in} < its size")
    return {"W1tW1": qq[..., :n_in, :n_in], "W2W1": qq[..., n_in:, :n_in],
            "W2W2t": qq[..., n_in:, n_in:]}


@dataclass(frozen=True)
class Spectrum:
    """Per-mode quantities of Lem 4.2: S_lam = sqrt(S^2 + lam^2/4), H, G, lam_perp, and P, Gamma."""

    svd: TaskSVD
    lam: float
    s_lam: np.ndarray
    h: np.ndarray
    g: np.ndarray
    lam_perp: float
    P: np.ndarray
    gamma: np.ndarray


def spectrum(svd: TaskSVD, lam: float) -> Spectrum:
    """Eigendecomposition F = P diag(gamma) P^T of LR-Lem4.2 (Eqs. 8-9)."""
    if not isinstance(svd, TaskSVD):
        raise InvalidArgument(f"svd must be a TaskSVD (numerics.lazy_rich.tasks.task_svd), got {type(svd).__name__}")
    lam = float(finite_array(lam, "lam"))
    s = svd.s
    s_lam = np.sqrt(s ** 2 + lam ** 2 / 4)
    # H = 2(S_lam - S)/lam written as (lam/2)/(S_lam + S): exact at lam = 0 and for |lam| >> s.
    denom = s_lam + s
    h = np.where(denom > 0, (lam / 2) / np.where(denom > 0, denom, 1.0), 0.0)
    g = 1 / np.sqrt(1 + h ** 2)
    lam_perp = float(np.sign(svd.n_out - svd.n_in) * lam / 2)
    gm, gp = g * (1 - h), g * (1 + h)
    P = np.block([[svd.V * gm / np.sqrt(2), svd.V * gp / np.sqrt(2), svd.V_perp],
                  [svd.U * gp / np.sqrt(2), -svd.U * gm / np.sqrt(2), svd.U_perp]])
    gamma = np.concatenate([s_lam, -s_lam, np.full(abs(svd.n_out - svd.n_in), lam_perp)])
    return Spectrum(svd, lam, s_lam, h, g, lam_perp, P, gamma)


def init_variables(W1, W2, sp: Spectrum) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """B, C, D of LR-Eq10-12 (each Nh x ...)."""
    gm, gp = sp.g * (1 - sp.h), sp.g * (1 + sp.h)
    W1, W2 = weights(W1, W2)
    if W1.shape[-1] != sp.svd.n_in or W2.shape[-2] != sp.svd.n_out:
        raise InvalidArgument(f"W1 {W1.shape} and W2 {W2.shape} do not fit the task ({sp.svd.n_in} inputs, "
                              f"{sp.svd.n_out} outputs)")
    B = W2.T @ (sp.svd.U * gp) + W1 @ (sp.svd.V * gm)
    C = W2.T @ (sp.svd.U * gm) - W1 @ (sp.svd.V * gp)
    D = W2.T @ sp.svd.U_perp + W1 @ sp.svd.V_perp
    return B, C, D


#: largest x with e^x finite in float64
LOG_MAX = float(np.log(np.finfo(float).max))


class PlainFormOverflow(np.linalg.LinAlgError):
    """A closed form with growing exponentials was asked for a time at which they overflow
    float64 (a ``LinAlgError``: the solve of the form breaks down there)."""


def _in_range(t, rate: float, form: str) -> None:
    """Refuse times where e^(2 rate t) overflows: the form would return NaN silently."""
    t_max = float(np.max(t)) if np.size(t) else 0.0
    if 2 * rate * t_max > LOG_MAX:
        raise PlainFormOverflow(f"t={t_max:g} is out of range of {form}: e^(2 x {rate:.4g} x t) overflows "
                                f"float64 (2 rate t = {2 * rate * t_max:.4g} > {LOG_MAX:.1f}); use "
                                "qq_stable (Theorem B.5), which keeps only decaying exponentials")


def _time_grid(t) -> np.ndarray:
    t = finite_array(t, "t", ndim=None)
    if np.any(t < 0):
        raise InvalidArgument("t must be non-negative (t/tau)")
    return np.atleast_1d(t)


def _expm1_ratio(a, t):
    """(e^{a t} - 1)/a with the limit t at a = 0; broadcasts a against t."""
    a = np.asarray(a, dtype=float)
    safe = np.where(a == 0, 1.0, a)
    return np.where(a == 0, t, np.expm1(a * t) / safe)


def qq_exact(t, W1, W2, svd: TaskSVD, lam: float) -> np.ndarray:
    """Theorem 4.3: QQ^T(t) = Z A^{-1} Z^T for a lambda-balanced start (W1, W2).  Shape (T, N, N).

    The plain form multiplies e^{+S_lam t} by e^{-S_lam t}; it overflows once S_lam t/tau ~ 350
    (LR-Impl): such a t raises :class:`PlainFormOverflow` (use :func:`qq_stable` there).
    """
    t = _time_grid(t)[:, None]
    sp = spectrum(svd, lam)
    _in_range(t, float(np.max(sp.s_lam, initial=abs(sp.lam_perp))), "the plain form of Theorem 4.3")
    B, C, D = init_variables(W1, W2, sp)
    gm, gp = sp.g * (1 - sp.h), sp.g * (1 + sp.h)
    mu = sp.s_lam[None, :]
    ep, em, eperp = np.exp(mu * t), np.exp(-mu * t), np.exp(sp.lam_perp * t)
    V, U = svd.V, svd.U
    top = (np.einsum("im,tm,hm->tih", V * gm, ep, B) - np.einsum("im,tm,hm->tih", V * gp, em, C)
           + 2 * np.einsum("ik,t,hk->tih", svd.V_perp, eperp[:, 0], D))
    bot = (np.einsum("im,tm,hm->tih", U * gp, ep, B) + np.einsum("im,tm,hm->tih", U * gm, em, C)
           + 2 * np.einsum("ik,t,hk->tih", svd.U_perp, eperp[:, 0], D))
    Z = 0.5 * np.concatenate([top, bot], axis=1)
    a_plus = _expm1_ratio(2 * mu, t) / 2      # (e^{2 S t} - 1)/(4 S)
    a_minus = -_expm1_ratio(-2 * mu, t) / 2   # (e^{-2 S t} - 1)/(4 S)
    a_perp = _expm1_ratio(2 * sp.lam_perp, t[:, 0])
    A = (np.eye(B.shape[0]) + np.einsum("hm,tm,km->thk", B, a_plus, B)
         - np.einsum("hm,tm,km->thk", C, a_minus, C) + a_perp[:, None, None] * (D @ D.T))
    return Z @ np.linalg.solve(A, np.swapaxes(Z, -1, -2))


def qq_stable(t, W1, W2, svd: TaskSVD, lam: float) -> np.ndarray:
    """Theorem B.5: QQ^T = Z_s C_s^{-1} Z_s^T with only decaying exponentials (B invertible).

    The D-terms carry e^{lam_perp t}; they are merged with e^{-S_lam t} before exponentiation, since
    lam_perp < S_lam whenever every task singular value is positive (erratum watch E9)."""
    t = _time_grid(t)[:, None]
    sp = spectrum(svd, lam)
    B, C, D = init_variables(W1, W2, sp)
    if np.linalg.cond(B) > 1e12:
        raise np.linalg.LinAlgError("B is singular: Theorem B.5 needs B invertible")
    Binv = np.linalg.inv(B)
    gm, gp = sp.g * (1 - sp.h), sp.g * (1 + sp.h)
    mu = sp.s_lam[None, :]
    em = np.exp(-mu * t)                                     # (T, m)
    CtBit = C.T @ Binv.T                                     # (m, m)
    M = em[:, :, None] * CtBit[None] * em[:, None, :]        # e^{-St} C^T B^{-T} e^{-St}
    DtBit = D.T @ Binv.T                                     # (k, m)
    Eperp = np.exp((sp.lam_perp - mu) * t)                   # merged exponent, always < 0
    V, U = svd.V, svd.U
    # matmul with broadcasting rather than einsum: same sums, ~3x faster on long time grids
    top = (V * gm)[None] - (V * gp) @ M + 2 * (svd.V_perp @ DtBit)[None] * Eperp[:, None, :]
    bot = (U * gp)[None] + (U * gm) @ M + 2 * (svd.U_perp @ DtBit)[None] * Eperp[:, None, :]
    Zs = np.concatenate([top, bot], axis=1)
    BiBit = Binv @ Binv.T
    decay = -np.expm1(-2 * mu * t)                           # 1 - e^{-2 S t}
    safe_mu = np.where(mu > 0, mu, 1.0)
    ratio = np.where(mu > 0, decay / safe_mu, 2 * t)         # (1 - e^{-2St})/S, limit 2t
    BiC = Binv @ C
    pair = mu[:, :, None] + mu[:, None, :]                   # S_i + S_j
    lp = sp.lam_perp
    if lp > 0:
        dterm = np.exp((2 * lp - pair) * t[:, :, None]) * (-np.expm1(-2 * lp * t))[:, :, None] / (2 * lp)
    elif lp < 0:
        dterm = np.exp(-pair * t[:, :, None]) * np.expm1(2 * lp * t)[:, :, None] / (2 * lp)
    else:
        dterm = np.exp(-pair * t[:, :, None]) * t[:, :, None]
    BiD = Binv @ D
    Cs = (4 * em[:, :, None] * BiBit[None] * em[:, None, :] + ratio[:, :, None] * np.eye(len(sp.s_lam))
          + em[:, :, None] * ((BiC[None] * ratio[:, None, :]) @ BiC.T) * em[:, None, :]
          + 4 * dterm * (BiD @ BiD.T)[None])
    return Zs @ np.linalg.solve(Cs, np.swapaxes(Zs, -1, -2))


def _bracket(t, W1, W2, F):
    """(t, eigh(F), P^T Q0, A(t) = I + Q0^T (int_0^t e^{2Fs} ds) Q0) of LR-Eq7."""
    t = _time_grid(t)
    F = finite_array(F, "F", ndim=2)
    W1, W2 = weights(W1, W2)
    if W1.ndim != 2 or F.shape != (W1.shape[1] + W2.shape[0],) * 2:
        raise InvalidArgument(f"F {F.shape} must be (Ni + No) square for W1 {W1.shape}, W2 {W2.shape}")
    gamma, P = np.linalg.eigh(F)
    _in_range(t, float(np.max(gamma)), "LR-Eq7 (e^{Ft})")
    PtQ = P.T @ np.concatenate([W1.T, W2], axis=0)
    A = np.eye(PtQ.shape[1]) + np.einsum("jh,tj,jk->thk", PtQ, _expm1_ratio(2 * gamma[None], t[:, None]), PtQ)
    return t, gamma, P, PtQ, A


def qq_fukumizu(t, W1, W2, F) -> np.ndarray:
    """LR-Eq7: QQ^T(t) = e^{Ft} Q0 [I + Q0^T (int_0^t e^{2Fs} ds) Q0]^{-1} Q0^T e^{Ft}, with the
    integral through eigh(F) and its limit t at zero eigenvalues (F may be singular)."""
    t, gamma, P, PtQ, A = _bracket(t, W1, W2, F)
    Z = np.einsum("ij,tj,jh->tih", P, np.exp(np.outer(t, gamma)), PtQ)
    return Z @ np.linalg.solve(A, np.swapaxes(Z, -1, -2))


def middle_matrix(t, W1, W2, F) -> np.ndarray:
    """A(t) = I + Q0^T (int_0^t e^{2Fs} ds) Q0 of LR-Eq7 (its eigenvalues are >= 1)."""
    return _bracket(t, W1, W2, F)[-1]


def flow_rhs(syx, sxx=None):
    """Gradient flow tau dW1/dt = W2^T (Syx - W2 W1 Sxx), tau dW2/dt = (Syx - W2 W1 Sxx) W1^T
    (the 1/2-mean loss, Sec 3), as ``rhs(t, {"W1", "W2"})`` in units of t/tau."""
    syx = finite_array(syx, "syx", ndim=2)
    sxx = np.eye(syx.shape[1]) if sxx is None else finite_array(sxx, "sxx", shape=(syx.shape[1],) * 2)

    def rhs(_t, p):
        E = syx - p["W2"] @ p["W1"] @ sxx
        return {"W1": p["W2"].T @ E, "W2": E @ p["W1"].T}
    return rhs
