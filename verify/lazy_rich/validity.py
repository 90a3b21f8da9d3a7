"""Validity maps of the lazy_rich ("From lazy to rich") claims: holds-if claims and the lazy and
rich limits.

Each ``spec_*`` returns the :class:`verify.validity.MapSpec` of one claim; :data:`SPECS` maps the
claim ID to it.  The printed forms are the registry's encodings, lambdified once and evaluated over
the grid.  References: the lambda-balanced mode tau s' = sqrt(lambda^2 + 4 s^2)(s~ - s) in closed
form (:func:`verify.validity.balanced_mode_time`, the time to each level; bisection where a value at
a fixed time is needed), the converged Grams of lambda-balanced weights from the balance relations
b^2 - a^2 = lambda, a b = s~ solved in numpy, NTKs built from weights (Eq. 5 with X = I), and
E[lambda] from the initialisations' variances.  Time is t/tau (Sec 3); lambda and singular values
in units of s~ (the task's largest singular value).
"""
from __future__ import annotations

import numpy as np

from numerics.lazy_rich import kernels as kn
from theory.registry import load_all
from verify.validity import Axis, Boundary, Field, Mark, MapSpec, balanced_mode_time, bisect, form

REG = load_all()
LAM = "lambda"   # the registry's symbol name (a Python keyword: passed as **{LAM: ...})


def _mode_value(t, s0, target, lam, tau=1.0):
    """s(t) of the lambda-balanced mode: the level whose closed-form time is t (bisection)."""
    lo, hi = np.minimum(s0, target), np.maximum(s0, target)
    sign = np.where(target >= s0, 1.0, -1.0)
    return bisect(lambda x: sign * (balanced_mode_time(s0, x, target, lam / 2, 1 / tau) - t),
                  lo, hi, iterations=80)


def spec_thm51() -> MapSpec:
    """LR-Thm5.1 (Sec 5 Eqs. 16-17): gamma rises monotonically from 0 to 1; at lambda = 0 a mode
    from s(0) = 0 never rises.  Shown: 1 - gamma(T) at T = 40 tau/s~ (the claim's check's horizon)
    from the printed gamma and from the exact mode flow; s(0) down to 1e-40, since at lambda = 0 the
    rise takes (tau/2s~) ln(s~/s(0))."""
    gamma = form(REG["LR-Thm5.1"].printed.gamma)
    T, s = 40.0, 1.0

    def printed(lam, s0):
        return 1.0 - gamma(**{LAM: lam}, s=s, s_0=s0, t=T, tau=1.0)

    def exact(lam, s0):
        return 1.0 - (_mode_value(T, s0, s, lam) - s0) / (s - s0)

    return MapSpec(
        "LR-Thm5.1", Axis("lam", r"$\lambda / \tilde s$", -15.0, 15.0, 40, scale="symlog",
                          linthresh=1e-3, include=(0.0,)),
        Axis("s0", r"$s(0) / \tilde s$", 1e-40, 0.5, 41),
        (Field("printed gamma (Eq. 16)", printed), Field("exact mode flow", exact)),
        "1 - gamma(T), T = 40 tau/s~ (0: risen to s~)",
        Boundary(r"$\lambda = 0$, where the rise needs $s(0) > 0$", level=lambda lam, s0: lam),
        ("<=", 1e-3), "the lambda-balanced mode flow in closed form (time to each level, bisection)",
        fixed="s~ = 1, tau = 1; |lambda| <= 15 keeps sinh cosh(mu T/tau) of the printed form finite")


def spec_sv_claims() -> MapSpec:
    """LR-Sec5-SV-claims (Sec 5 l.82-87): lambda -> 0: gamma -> the sigmoid gamma_rich;
    |lambda| large: gamma -> 1 - e^(-|lambda| t/tau).  sup over the rise of |form - gamma|."""
    p = REG["LR-Sec5-SV-claims"].printed
    rich, lazy = form(p.gamma_rich), form(p.gamma_lazy)
    levels = np.concatenate([np.linspace(0.02, 0.98, 25), 1 - np.geomspace(1e-2, 1e-6, 6)])[:, None, None]
    s = 1.0

    def error(f):
        def err(lam, s0):
            t = balanced_mode_time(s0, s0 + levels * (s - s0), s, lam / 2, 1.0)   # when gamma reaches each level
            got = f(**{LAM: lam}, s=s, s_0=s0, t=t, tau=1.0)
            return np.max(np.abs(got - levels), axis=0)
        return err

    return MapSpec(
        "LR-Sec5-SV-claims", Axis("lam", r"$\lambda / \tilde s$", 1e-3, 1e3, 41),
        Axis("s0", r"$s(0) / \tilde s$", 1e-4, 0.5, 31),
        (Field("printed rich limit (sigmoid, lambda -> 0)", error(rich)),
         Field("printed lazy limit (exponential, |lambda| -> oo)", error(lazy))),
        "sup over the rise of |gamma_limit - gamma|",
        Boundary(r"$\lambda = 2 s(0)$ and $\lambda = 2\tilde s$ (rich below, lazy above)",
                 level=lambda lam, s0: (lam - 2 * s) * (lam - 2 * s0)),
        ("<=", 1e-2), "the exact times of 31 levels of gamma (lambda-balanced mode, closed form)",
        fixed="s~ = 1, tau = 1; gamma even in lambda")


def spec_thm_c3() -> MapSpec:
    """LR-ThmC.3 (App C.2.2): with B invertible, W1^T W1 -> V~(S~_lam - lam/2)V~^T and
    W2 W2^T -> U~(S~_lam + lam/2)U~^T.  Per mode, the Grams at T = 20 tau/s~ (from the exact s(T),
    through the balance relations) against the printed limits; a mode reversed at lambda = 0
    (s(0) <= 0: b = 0, B singular, LR-D.2) never converges."""
    p = REG["LR-ThmC.3"].printed
    g_in, g_out = form(p.gram_in), form(p.gram_out)
    T, s = 20.0, 1.0

    def error(lam, s0):
        sT = _mode_value(T, s0, s, lam)
        # the Grams of lambda-balanced weights carrying the product sT: a^2, b^2 with b^2 - a^2 = lam,
        # a b = sT (the positive root of x^2 + lam x - sT^2 = 0)
        a2 = (-lam + np.sqrt(lam ** 2 + 4 * sT ** 2)) / 2
        limit_in, limit_out = g_in(**{LAM: lam}, s=s), g_out(**{LAM: lam}, s=s)
        scale = np.maximum(limit_in, limit_out)
        return np.maximum(np.abs(a2 - limit_in), np.abs(a2 + lam - limit_out)) / scale

    return MapSpec(
        "LR-ThmC.3", Axis("lam", r"$\lambda / \tilde s$", -30.0, 30.0, 40, scale="symlog", linthresh=1e-9,
                          include=(0.0,)),
        Axis("s0", r"$s(0) / \tilde s$ (< 0: a reversed mode)", -1.0, 1.0, 41, scale="linear"),
        (Field("printed limits of W1^T W1 and W2 W2^T", error),),
        "rel. distance of the Grams at T = 20 tau/s~ from the limits",
        Boundary(r"$\lambda = 0$, $s(0) \leq 0$: B singular", curve=((0.0, 0.0), (-1.0, 0.0))),
        ("<=", 1e-6), "the exact mode s(T) (closed form, bisection) and the balance relations",
        fixed="one aligned mode, s~ = 1, tau = 1")


N_IN, S_TASK = 2, np.array([1.0, 0.5])
NO_AXIS = Axis("n_out", "output size No (Ni = 2)", values=(1, 2, 3, 4, 5, 6), scale="discrete")


def spec_thm_c4() -> MapSpec:
    """LR-ThmC.4 (App C.2.3): lambda -> +oo, W2 W2^T / lambda -> I (printed) or U~U~^T (corrected,
    rank min(Ni, No)); on U~ the eigenvalues from the printed series lambda + s^2/lambda - ...."""
    claim = REG["LR-ThmC.4"]
    # the limit's name: I (identity) or U~U~^T (the projector onto the task's output subspace)
    complement = {"I": 1.0, "U~U~^T": 0.0}

    def error(side):
        series, rest = form(side.series_big), complement[side.limit.name]

        def err(lam, n_out):
            out = np.empty_like(lam)
            for dim in np.unique(n_out).astype(int):
                rows = n_out[:, 0] == dim
                s = S_TASK[:min(N_IN, dim)][:, None, None]
                lam_r = lam[rows][None]
                exact = (lam_r + np.sqrt(lam_r ** 2 + 4 * s ** 2)) / 2 / lam_r   # b^2 / lambda on U~
                got = series(**{LAM: lam_r}, s=s) / lam_r
                extra = dim - s.shape[0]
                num = np.sum((got - exact) ** 2, axis=0) + extra * rest ** 2
                out[rows] = np.sqrt(num / np.sum(exact ** 2, axis=0))
            return out
        return err

    return MapSpec(
        "LR-ThmC.4", Axis("lam", r"$\lambda / \tilde s_1$", 0.1, 1e4, 41), NO_AXIS,
        (Field("printed: W2W2^T/lambda -> I", error(claim.printed)),
         Field("corrected: -> U~U~^T", error(claim.corrected))),
        "rel. error of W2 W2^T / lambda (Frobenius)",
        Boundary("No = Ni: the printed identity limit needs No <= Ni", curve=((0.1, 1e4), (2.5, 2.5))),
        ("<=", 1e-2), "the converged Grams of lambda-balanced weights (b^2 - a^2 = lambda, a b = s~)",
        fixed="s~ = (1, 0.5), rank min(Ni, No)",
        marks=(Mark(80.0, 6, "check's counterexample (2, 2, 6) at lambda = 80"),))


def _rotation(angle):
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


def spec_rep_claims() -> MapSpec:
    """LR-Sec5-Rep-claims (Sec 5 l.93-99): as lambda -> +-oo one representation becomes
    task-agnostic (identity): W2 W2^T for lambda > 0, W1^T W1 for lambda < 0 (the Gram reading),
    or RSM_O = Y^T (W2 W2^T)^+ Y of Eq. (4) for lambda > 0 (the RSM reading); square net, X = I."""
    p = REG["LR-Sec5-Rep-claims"].printed
    g_in, g_out = form(p.gram_in), form(p.gram_out)
    U, V = _rotation(0.4), _rotation(-0.9)

    def grams(lam, ratio):
        s = np.stack([np.ones_like(ratio), ratio], axis=-1)
        lam_ = lam[..., None]
        Gin = np.einsum("ik,...k,jk->...ij", V, g_in(**{LAM: lam_}, s=s), V)
        Gout = np.einsum("ik,...k,jk->...ij", U, g_out(**{LAM: lam_}, s=s), U)
        Y = np.einsum("ik,...k,jk->...ij", U, s, V)    # X = I: Y = Sigma^yx = U S V^T
        return Gin, Gout, Y

    def reading(rsm: bool):
        """The normalised distance to I of W2W2^T (or RSM_O) for lambda > 0, W1^TW1 = RSM_I for lambda < 0."""
        def distance(lam, ratio):
            Gin, Gout, Y = grams(lam, ratio)
            out = np.swapaxes(Y, -1, -2) @ np.linalg.pinv(Gout) @ Y if rsm else Gout
            G = np.where((lam > 0)[..., None, None], out, Gin)
            return np.linalg.norm(G / np.linalg.norm(G, axis=(-2, -1))[..., None, None] - np.eye(2) / np.sqrt(2),
                                  axis=(-2, -1))
        return distance

    return MapSpec(
        "LR-Sec5-Rep-claims", Axis("lam", r"$\lambda / \tilde s_1$", -1e3, 1e3, 40, scale="symlog",
                                   linthresh=1e-2),
        Axis("ratio", r"$\tilde s_2 / \tilde s_1$", 1e-2, 1.0, 31),
        (Field("Gram reading (W2W2^T, W1^TW1)", reading(rsm=False)),
         Field("RSM reading (Eq. 4: RSM_O = Y^T(W2W2^T)^+Y)", reading(rsm=True))),
        "normalised distance of the task-agnostic representation from I",
        Boundary(r"$|\lambda| = 2\tilde s_1$ (lazy beyond)", level=lambda lam, ratio: np.abs(lam) - 2.0),
        ("<=", 1e-2), "the converged Grams (Thm C.3) and Eq. (4)",
        fixed="Ni = No = P = 2, X = I, converged network",
        marks=(Mark(10.0, 0.5, "check's counterexample (lambda = 10)"),))


def _sqrtm(G):
    w, Q = np.linalg.eigh(G)
    return np.einsum("...ik,...k,...jk->...ij", Q, np.sqrt(np.maximum(w, 0)), Q)


def _orthonormal(rows, cols, rng):
    return np.linalg.qr(rng.standard_normal((rows, cols)))[0][:, :cols]


def spec_thm_c5() -> MapSpec:
    """LR-ThmC.5 (App C.2.4): as lambda -> +-oo the NTK moves by O(1/|lambda|); NTK(oo) from the
    printed converged Grams, NTK(0) from a lambda-balanced random init (hidden size min(Ni, No))."""
    p = REG["LR-ThmC.5"].printed
    g_in, g_out = form(p.gram_in), form(p.gram_out)

    def movement(lam, n_out):
        out = np.empty_like(lam)
        for dim in np.unique(n_out).astype(int):
            rows = n_out[:, 0] == dim
            L = lam[rows]
            rng = np.random.default_rng(11 + dim)
            r = min(N_IN, dim)
            Ut, Vt = _orthonormal(dim, r, rng), _orthonormal(N_IN, r, rng)
            s = S_TASK[:r]
            # lambda-balanced init W2^T W2 - W1 W1^T = lambda I_h: the larger layer built from the other
            A1, A2 = 0.3 * rng.standard_normal((r, N_IN)), 0.3 * rng.standard_normal((dim, r))
            O2, O1 = _orthonormal(dim, r, rng), _orthonormal(N_IN, r, rng)
            Lb, eye = L[..., None, None], np.eye(r)
            W1 = np.where(Lb >= 0, A1, _sqrtm(np.abs(Lb) * eye + A2.T @ A2) @ O1.T)
            W2 = np.where(Lb >= 0, O2 @ _sqrtm(np.abs(Lb) * eye + A1 @ A1.T), A2)
            G_in = np.einsum("ik,...k,jk->...ij", Vt, g_in(**{LAM: L[..., None]}, s=s), Vt)
            G_out = np.einsum("ik,...k,jk->...ij", Ut, g_out(**{LAM: L[..., None]}, s=s), Ut)
            X = np.eye(N_IN)                            # Eq. (5) with X = I
            out[rows] = kn.kernel_distance(kn.ntk(W1, W2, X), kn.ntk_from_grams(G_in, G_out, X))
        return out

    big = 1e3
    return MapSpec(
        "LR-ThmC.5", Axis("lam", r"$\lambda / \tilde s_1$", -big, big, 40, scale="symlog", linthresh=1e-1),
        NO_AXIS, (Field("NTK movement S(NTK(0), NTK(oo)), printed Grams", movement),),
        "kernel distance of NTK(0) and NTK(oo)",
        Boundary("No <= Ni for lambda -> +oo (below the right line), Ni <= No for lambda -> -oo "
                 "(above the left line)",
                 curve=((2.0, big, np.nan, -big, -2.0), (2.5, 2.5, np.nan, 1.5, 1.5))),
        ("<=", 1e-2), "NTKs (Eq. 5, X = I) of a lambda-balanced random init and of the printed converged Grams",
        fixed="Ni = 2, hidden min(Ni, No), s~ = (1, 0.5), init scale 0.3",
        marks=(Mark(80.0, 6, "check's counterexample (2, 2, 6) at lambda = +80"),))


def spec_thm_c6() -> MapSpec:
    """LR-ThmC.6 (App C.4): the slow rate S~_lam - |lambda|/2 ~ s~^2/|lambda| of the late phase
    against the slowest decay rate of Theorem C.6 with the sign of lambda_perp =
    sgn(No - Ni) lambda/2 kept (2 S~_lam for square nets, which have no lambda_perp modes)."""
    slow = form(REG["LR-ThmC.6"].printed.slow_rate)
    s = S_TASK[1]

    def error(lam, n_out):
        S_lam = np.sqrt(lam ** 2 / 4 + s ** 2)
        lam_perp = np.sign(n_out - N_IN) * lam / 2
        exact = np.where(n_out == N_IN, 2 * S_lam, np.minimum(2 * S_lam, S_lam - lam_perp))
        return np.abs(slow(**{LAM: lam}, s=s) / exact - 1)

    return MapSpec(
        "LR-ThmC.6", Axis("lam", r"$\lambda / \tilde s_1$", -1e3, 1e3, 40, scale="symlog", linthresh=1e-1),
        NO_AXIS, (Field("printed slow rate S~_lam - |lambda|/2", error),),
        "rel. error of the late decay rate",
        Boundary("sgn(No - Ni) lambda > 0 (lambda = 0 and No = Ni)",
                 curve=((0.0, 0.0, np.nan, -1e3, 1e3), (0.5, 6.5, np.nan, 2.0, 2.0))),
        ("<=", 1e-2), "the decay rates of Theorem C.6 with the sign of lambda_perp kept (checked "
        "against fitted late rates by the claim's check)",
        fixed=f"Ni = 2, s~_min = {s}",
        marks=(Mark(-20.0, 6, "check's counterexample (inverted funnel, lambda < 0)"),))


def spec_tab3() -> MapSpec:
    """LR-Tab3 (App A.3 Table 3): the r -> 0 and r -> oo limits of E[lambda] (r = No/Ni,
    k = Nh/Ni) against E[lambda] = No var_2 - Ni var_1 from the initialisations' variances."""
    table = REG["LR-Tab3"].printed
    # E[lambda] at Ni = 1 (No = r, Nh = k): LeCun var = 1/fan_in, Glorot var = 2/(fan_in + fan_out)
    reference = {"LeCun": lambda r, k: r / k - 1.0, "Glorot": lambda r, k: 2 * r / (k + r) - 2 / (1 + k)}

    def error(init, index):
        limit = form(table[init][index])

        def err(r, k):
            got = np.broadcast_to(limit(k=k), r.shape)
            return np.abs(got - reference[init](r, k)) / np.abs(got)
        return err

    return MapSpec(
        "LR-Tab3", Axis("r", "r = No / Ni", 1e-3, 1e3, 41), Axis("k", "k = Nh / Ni", 1e-3, 1e3, 41),
        (Field("Glorot, r -> 0: -2/(k+1)", error("Glorot", 1)),
         Field("Glorot, r -> oo: 2k/(k+1)", error("Glorot", 2)),
         Field("LeCun, r -> 0: -1", error("LeCun", 1))),
        "rel. error of the Table 3 limit of E[lambda]",
        Boundary("r = k and r = 1 (crossovers of E[lambda])", level=lambda r, k: np.log(r / k) * np.log(r)),
        ("<=", 1e-2), "E[lambda] = No var_2 - Ni var_1 from the initialisations' variances",
        fixed="Ni = 1")


SPECS = {
    "LR-Thm5.1": spec_thm51, "LR-Sec5-SV-claims": spec_sv_claims, "LR-ThmC.3": spec_thm_c3,
    "LR-ThmC.4": spec_thm_c4, "LR-Sec5-Rep-claims": spec_rep_claims, "LR-ThmC.5": spec_thm_c5,
    "LR-ThmC.6": spec_thm_c6, "LR-Tab3": spec_tab3,
}
