"""Validity maps of the bias ("Bias-mediated early linearization") claims: holds-if claims and the
'at init' approximation of Eqs. (8)-(10).

Each ``spec_*`` returns the :class:`verify.validity.MapSpec` of one claim; :data:`SPECS` maps the
claim ID to it.  The printed forms are the registry's encodings, lambdified once and evaluated over
the grid (matrix forms as stacks of matrices); the references are numpy computations independent
of them: SVDs of the augmented statistics (Sec 5.1-5.2), exact gradients of the loss (Eqs. 8-10
recomputed from the network), first crossings of the exact mode trajectory (bisection).

The label families put the condition Y^T Y 1 = lambda 1 (every item has the same summed overlap
with all items) on a line of the map:

* one-hot classes of sizes 3 and 1 with label magnitudes 1 and b: the condition is b = sqrt(3);
* two items y = (1, e), (-1, e): Y^T Y 1 = 2 e^2 1, with 2 e^2 the top eigenvalue iff e >= 1.

Time is t/tau with tau = 1/(P eps) (Sec 5.2), or GD steps where stated.
"""
from __future__ import annotations

import numpy as np

from numerics.datasets import hierarchy
from theory.registry import load_all
from verify.validity import Axis, Boundary, Field, Mark, MapSpec, bisect, form

REG = load_all()
ROOT3 = float(np.sqrt(3.0))
B_AXIS = Axis("b", "label magnitude b of the singleton class", 0.1, 10.0, 41, include=(ROOT3,))
C_AXIS = Axis("c", "bias strength c", 1e-2, 1e2, 41)
BALANCE = Boundary(r"$b = \sqrt{3}$: $Y^\top Y 1 \propto 1$ (equal summed overlap)",
                   level=lambda b, c: b - ROOT3)
FAMILY = "X = I_4, one-hot classes of sizes 3 and 1, labels (1, 1, 1, 0) / (0, 0, 0, b)"
COUNTEREXAMPLE = Mark(1.0, 1.0, "check's counterexample (sizes 3 and 1, c = 1)")


def family_spec(claim_id, field, measured, tol, reference) -> MapSpec:
    """The map of a claim over the one-hot family (label magnitude b x bias strength c) with the
    equal-overlap line b = sqrt(3) and the check's counterexample marked."""
    return MapSpec(claim_id, B_AXIS, C_AXIS, (field,), measured, BALANCE, ("<=", tol), reference,
                   fixed=FAMILY, marks=(COUNTEREXAMPLE,))


def one_hot_labels(b) -> np.ndarray:
    """Stack of Y (grid + (2, 4)): three items of class A (label 1), one of class B (label b)."""
    Y = np.zeros(np.shape(b) + (2, 4))
    Y[..., 0, :3] = 1.0
    Y[..., 1, 3] = b
    return Y


def augmented_statistics(Y, c):
    """(Sigma~^x, Sigma~^yx) of X = I_P with the constant input c prepended (Sec 5.1)."""
    P = Y.shape[-1]
    X = np.zeros(np.shape(c) + (P + 1, P))
    X[..., 0, :] = np.asarray(c)[..., None]
    X[..., 1:, :] = np.eye(P)
    return X @ np.swapaxes(X, -1, -2) / P, Y @ np.swapaxes(X, -1, -2) / P, X


def s0_gap(s0_form):
    """|s0 - sigma_1(Sigma~^yx)| / sigma_1 of stacks of labels Y, with s0 from the registry's
    form (lambdified)."""
    def gap(Y, c):
        _, Syx, _ = augmented_statistics(Y, c)
        sigma1 = np.linalg.svd(Syx, compute_uv=False)[..., 0]
        s0 = s0_form(ybar_norm=np.linalg.norm(Y.mean(axis=-1), axis=-1), c=c, P=Y.shape[-1])
        return np.abs(sigma1 - s0) / sigma1
    return gap


def first_crossing(a0, rho, s, d, tau, horizon):
    """The first time the exact mode trajectory from a0 crosses rho (bisection on [0, horizon]):
    the mode's own flow tau a' = 2 a (s - d a) (App B Eq. 21), solved as a logistic."""
    plateau = s / d

    def trajectory(t):
        return plateau / (1 + (plateau / a0 - 1) * np.exp(-2 * s * t / tau))
    return bisect(lambda t: trajectory(t) - rho, 0.0, np.full(np.shape(a0), horizon))


def spec_sim_diag() -> MapSpec:
    """BL-Def-SimDiag (Sec 5.1 Eq. 4): U, V exist iff [Sigma~^yx^T Sigma~^yx, Sigma~^x] = 0."""
    commutator = form(REG["BL-Def-SimDiag"].printed)

    def error(b, c):
        Sx, Syx, _ = augmented_statistics(one_hot_labels(b), c)
        gram = np.swapaxes(Syx, -1, -2) @ Syx
        C = commutator(Sx_aug=Sx, Syx_aug=Syx)
        return np.linalg.norm(C, axis=(-2, -1)) / (np.linalg.norm(Sx, axis=(-2, -1))
                                                   * np.linalg.norm(gram, axis=(-2, -1)))

    return family_spec("BL-Def-SimDiag", Field("printed commutator (Eq. 4)", error),
                       "relative norm of the commutator", 1e-12,
                       "exact matrix products (U, V exist iff the commutator vanishes)")


def spec_prop1() -> MapSpec:
    """BL-Prop1 (Sec 5.2 Eq. 5): s0 = sqrt(c^2 + 1/P)||ybar|| is the first singular value."""
    gap = s0_gap(form(REG["BL-Prop1"].printed["s0"]))
    return family_spec("BL-Prop1", Field("printed s0 (Eq. 5)",
                                         lambda b, c: gap(one_hot_labels(b), c)),
                       "|s0 - sigma_1| / sigma_1", 1e-10, "sigma_1 of Sigma~^yx (numpy SVD)")


def signed_labels(e) -> np.ndarray:
    """Stack of Y (grid + (2, 2)): two items y = (1, e) and (-1, e)."""
    Y = np.empty(np.shape(e) + (2, 2))
    Y[..., 0, 0], Y[..., 0, 1] = 1.0, -1.0
    Y[..., 1, 0] = Y[..., 1, 1] = e
    return Y


def spec_c_indep() -> MapSpec:
    """BL-Claim-cIndep (Sec 5.2 L221): the bias mode is the largest direction for any c != 0."""
    gap = s0_gap(form(REG["BL-Claim-cIndep"].printed))
    return MapSpec(
        "BL-Claim-cIndep", C_AXIS, Axis("e", "shared label component e", 1e-2, 10.0, 41, include=(1.0,)),
        (Field("printed: bias-mode strength s0 is sigma_1", lambda c, e: gap(signed_labels(e), c)),),
        "(sigma_1 - s0) / sigma_1", Boundary(r"$e = 1$: $Y^\top Y 1 = 2e^2 1$ with $2e^2$ the top eigenvalue",
                                             level=lambda c, e: e - 1.0),
        ("<=", 1e-10), "sigma_1 of Sigma~^yx (numpy SVD)",
        fixed="X = I_2, labels y = (1, e), (-1, e)",
        marks=(Mark(0.5, 0.1, "check's counterexample (e = 0.1, c = 0.5)"),))


def spec_ybar() -> MapSpec:
    """BL-Claim-ybar (Sec 5.2 L221): the first plateau outputs ybar for every input.  The first
    learned mode (the top singular mode of Sigma~^yx) saturated at s_1/d_1 (the decoupled-mode
    reading of Eq. 7) maps x~_i to u_1 (s_1/d_1) v_1^T x~_i."""
    def error(b, c):
        Y = one_hot_labels(b)
        Sx, Syx, X = augmented_statistics(Y, c)
        U, s, Vt = np.linalg.svd(Syx)
        u, v = U[..., :, 0], Vt[..., 0, :]
        d = np.einsum("...i,...ij,...j->...", v, Sx, v)
        out = u[..., :, None] * ((s[..., 0] / d)[..., None] * np.einsum("...i,...ip->...p", v, X))[..., None, :]
        ybar = Y.mean(axis=-1)
        return np.max(np.linalg.norm(out - ybar[..., :, None], axis=-2), axis=-1) / np.linalg.norm(ybar, axis=-1)

    return family_spec("BL-Claim-ybar", Field("printed: the first plateau outputs ybar", error),
                       "max_i ||y^_i - ybar|| / ||ybar||", 1e-10,
                       "the first learned mode (top singular mode of Sigma~^yx) saturated at s1/d1")


# --- Eq. (11) and Eqs. (8)-(10): early-time and at-init rates --------------------------------------

EPS = 1e-5


def _hidden(scale=1.0, seed=0, n_hid=12):
    """(Y of the 4-item tree, H, sigma'(Z), readout direction G) as the claim's check draws them."""
    Y = hierarchy(2)[1]
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n_hid, Y.shape[1])) * 0.5 + rng.standard_normal((n_hid, 1)) * 0.5
    G = rng.standard_normal((Y.shape[0], n_hid))
    return Y, scale * np.maximum(Z, 0), (Z > 0).astype(float), G / np.linalg.norm(G)


def _backprop(W2, H, Y, ds):
    """[W2^T (Y - W2 H)] (.) sigma'(Z): times eps, the exact W1 rate at X = I (Eq. 9); summed
    over the items, the exact bias rate (Eq. 10, c = 1)."""
    return (np.swapaxes(W2, -1, -2) @ (Y - W2 @ H)) * ds


def spec_eq11() -> MapSpec:
    """BL-Eq(11) (Sec 5.3): the bias rate ~ eps^2 t (H Y^T Y (.) sigma') 1 after t steps with the
    readout eps t Y H^T (the printed one-step term times t), against the exact rate with
    W2 = W2(0) + eps t Y H^T and a random readout init W2(0) = sigma G."""
    p = REG["BL-Eq(11)"].printed
    Y, H, ds, G = _hidden()
    ones = np.ones((Y.shape[1], 1))
    printed_b = form(p["b"])(H=H, Y=Y, dsigma=ds, epsilon=EPS, ones=ones)[:, 0]
    readout = form(p["W2_substituted"])(H=H, Y=Y, epsilon=EPS)
    alive = ds.any(axis=1)

    def error(t, sigma):
        W2 = sigma[..., None, None] * G + t[..., None, None] * readout
        exact = EPS * _backprop(W2, H, Y, ds).sum(axis=-1)[..., alive]
        return np.linalg.norm(t[..., None] * printed_b[alive] - exact, axis=-1) / np.linalg.norm(exact, axis=-1)

    return MapSpec(
        "BL-Eq(11)", Axis("t", "GD steps t (eps = 1e-5)", 1.0, 1e5, 41),
        Axis("sigma", r"readout init $||W^2(0)||_F$", 1e-9, 1e-1, 41),
        (Field("printed eps^2 t (H Y^T Y (.) sigma') 1", error),),
        "rel. error of the bias rate (active units)",
        Boundary(r"$||W^2(0)||_F = \epsilon t ||Y H^\top||_F$ (the readout's own growth dominates below)",
                 level=lambda t, sigma: t * np.linalg.norm(readout) - sigma),
        ("<=", 1e-2), "the exact bias rate of Eq. (10) at W2 = W2(0) + eps t Y H^T",
        fixed=f"4-item tree, X = I_P, 12 hidden units, eps = {EPS}")


def spec_eq8_10() -> MapSpec:
    """BL-Eq(8)-(10) (Sec 5.3): the 'at init (W^2 H ~ 0)' rates of W^1 and b against the exact
    gradient (c = 1, the toy tasks' bias strength), over the layers' scales."""
    p = REG["BL-Eq(8)-(10)"].printed
    Y, H1, ds, G = _hidden()
    X, ones = np.eye(Y.shape[1]), np.ones((Y.shape[1], 1))
    w1_init, b_init = form(p["W1_init"]), form(p["b_init"])

    def layers(s2, s1):
        return s2[..., None, None] * G * np.sqrt(G.size), s1[..., None, None] * H1

    def error(s2, s1):
        W2, H = layers(s2, s1)
        back = _backprop(W2, H, Y, ds)
        exact = {"W1": EPS * back @ X.T, "b": EPS * back.sum(axis=-1)[..., None]}
        got = {"W1": w1_init(W2=W2, X=X, Y=Y, dsigma=ds, epsilon=EPS),
               "b": b_init(W2=W2, Y=Y, dsigma=ds, epsilon=EPS, ones=ones)}
        return np.max([np.linalg.norm(got[k] - exact[k], axis=(-2, -1))
                       / np.linalg.norm(exact[k], axis=(-2, -1)) for k in exact], axis=0)

    return MapSpec(
        "BL-Eq(8)-(10)", Axis("s2", "readout weight scale (entry std of W^2)", 1e-4, 10.0, 41),
        Axis("s1", "hidden activity scale ||H|| / ||H_0||", 1e-2, 10.0, 41),
        (Field("printed 'at init' W1 and b rates", error),),
        "rel. error of the W1 and b rates (max)",
        Boundary(r"$||W^2 H||_F = ||Y||_F$",
                 level=lambda s2, s1: np.linalg.norm(Y)
                 - np.linalg.norm(np.matmul(*layers(s2, s1)), axis=(-2, -1))),
        ("<=", 1e-2), "the exact gradient of the loss (Eqs. 9-10 recomputed from the network, c = 1)",
        fixed="4-item tree, X = I_P, 12 hidden units",
        # App D L654: sigma^2 = 2e-4 for both layers; with one-hot inputs and c = 1 the hidden
        # pre-activations then have std sqrt(2) 0.014, about 0.028 of those of this map's H_0
        marks=(Mark(float(np.sqrt(2e-4)), 0.028, "the paper's init, sigma^2 = 2e-4 (App D L654)"),))


def spec_eq13() -> MapSpec:
    """BL-Eq(13) (Sec 5.4): the hitting time t^ of threshold rho from a0, against the first
    crossing of the exact mode trajectory (t in units of tau/(2s))."""
    t_hat = form(REG["BL-Eq(13)"].printed)
    s, d, tau = 1.0, 2.0, 1.0
    plateau = s / d

    def error(a0_rel, rho_rel):
        a0, rho = a0_rel * plateau, rho_rel * plateau
        crossing = first_crossing(a0, rho, s, d, tau, horizon=80 * tau / (2 * s))
        reference = np.where(rho >= plateau, np.inf, np.where(rho <= a0, 0.0, crossing))
        got = t_hat(a0=a0, d=d, rho=rho, s=s, tau=tau)
        return np.abs(got - reference) / (tau / (2 * s))

    return MapSpec(
        "BL-Eq(13)", Axis("a0_rel", r"$a_0 / (s/d)$", 1e-4, 1.0, 41),
        Axis("rho_rel", r"threshold $\rho / (s/d)$", 1e-4, 2.0, 41),
        (Field("printed t^ (Eq. 13)", error),),
        "|t^ - first crossing| in units of tau/(2s)",
        Boundary(r"$a_0 \leq \rho < s/d$",
                 level=lambda a0_rel, rho_rel: np.minimum(rho_rel - a0_rel, 1.0 - rho_rel)),
        ("<=", 1e-8), "the first crossing of rho by the exact mode trajectory (bisection)",
        fixed=f"s = {s}, d = {d}; inf where rho is never reached",
        marks=(Mark(0.02, 1.5, "check's counterexample (a0 = 0.01, rho = 0.75, s/d = 0.5)"),))


SPECS = {
    "BL-Def-SimDiag": spec_sim_diag, "BL-Prop1": spec_prop1, "BL-Claim-cIndep": spec_c_indep,
    "BL-Claim-ybar": spec_ybar, "BL-Eq(11)": spec_eq11, "BL-Eq(13)": spec_eq13,
    "BL-Eq(8)-(10)": spec_eq8_10,
}
