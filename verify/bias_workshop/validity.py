"""Validity maps of the bias_workshop ("Bias-driven alignment") claims: holds-if claims and the
asymptotic delay of BA-D3.

Each ``spec_*`` returns the :class:`verify.validity.MapSpec` of one claim; :data:`SPECS` maps the
claim ID to it.  Printed forms are the registry's encodings, lambdified once; references are
computed independently: the mode flow of unbalanced layers in closed form
(:func:`verify.validity.balanced_mode_time`), the matrix gradient flow (RK4 on a coarse grid, no
closed form from a coupled init), SVDs of the augmented statistics, first crossings of the exact
mode trajectory.  Time is t/tau, tau = 1/(N eps) (App A).
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from numerics.datasets import hierarchy
from theory.registry import load_all
from verify.bias.validity import C_AXIS, first_crossing, s0_gap
from numerics.rk4 import rk4
from verify.validity import Axis, Boundary, Field, MapSpec, balanced_mode_time, form

REG = load_all()


# --- Eq. (2): the product stays U A(t) V^T only from a decoupled init ----------------------------

def _task(seed=0, n_in=5, n_hid=4, n_out=3):
    """Statistics sharing V (Sigma^x = V D V^T, Sigma^yx = U S V^T) and the init's pieces."""
    rng = np.random.default_rng(seed)
    U = np.linalg.qr(rng.standard_normal((n_out, n_out)))[0]
    V = np.linalg.qr(rng.standard_normal((n_in, n_in)))[0]
    R = np.linalg.qr(rng.standard_normal((n_hid, n_hid)))[0]
    s, d = np.array([2.0, 1.2, 0.6]), np.array([1.0, 0.8, 1.2, 0.5, 0.7])
    S = np.zeros((n_out, n_in))
    S[np.arange(3), np.arange(3)] = s
    E1, E2 = np.eye(n_hid, n_in), np.eye(n_out, n_hid)
    return dict(U=U, V=V, Sx=V @ np.diag(d) @ V.T, Syx=U @ S @ V.T,
                W1=R @ E1 @ V.T, W2=U @ E2 @ R.T,
                G1=rng.standard_normal((n_hid, n_in)) / np.sqrt(n_in),
                G2=rng.standard_normal((n_out, n_hid)) / np.sqrt(n_hid))


def spec_eq2() -> MapSpec:
    """BA-Eq(2) (App A): W2 W1(t) = U A(t) V^T with A diagonal, from an init coupled by eps
    (W(0) = sqrt(a0) (decoupled + eps G)); the matrix flow tau W1' = W2^T(Syx - W2 W1 Sx),
    tau W2' = (Syx - W2 W1 Sx) W1^T, integrated on a coarse grid to t = 15 tau."""
    product = REG["BA-Eq(2)"].printed.product
    to_product = form(product)
    k = _task()

    def error(eps, a0):
        root = np.sqrt(a0)[..., None, None]
        e = eps[..., None, None]
        W1, W2 = root * (k["W1"] + e * k["G1"]), root * (k["W2"] + e * k["G2"])
        n1 = W1[0, 0].size

        def rhs(_, y):
            A, B = y[..., :n1].reshape(W1.shape), y[..., n1:].reshape(W2.shape)
            residual = k["Syx"] - B @ A @ k["Sx"]
            return np.concatenate([(np.swapaxes(B, -1, -2) @ residual).reshape(W1.shape[:2] + (-1,)),
                                   (residual @ np.swapaxes(A, -1, -2)).reshape(W2.shape[:2] + (-1,))],
                                  axis=-1)

        y0 = np.concatenate([W1.reshape(W1.shape[:2] + (-1,)), W2.reshape(W2.shape[:2] + (-1,))], axis=-1)
        states = rk4(rhs, y0, 15.0, 1500, every=25)
        A = states[..., :n1].reshape(states.shape[:3] + W1.shape[-2:])
        B = states[..., n1:].reshape(states.shape[:3] + W2.shape[-2:])
        P = k["U"].T @ to_product(W1=A, W2=B) @ k["V"]
        diag = np.zeros_like(P)
        idx = np.arange(min(P.shape[-2:]))
        diag[..., idx, idx] = P[..., idx, idx]
        off = np.linalg.norm(P - diag, axis=(-2, -1)).max(axis=0)
        return off / np.linalg.norm(diag, axis=(-2, -1)).max(axis=0)

    return MapSpec(
        "BA-Eq(2)", Axis("eps", "init coupling eps (off the decoupled form)", -0.5, 0.5, 9, scale="linear"),
        Axis("a0", "init scale a0", 1e-4, 1e-1, 7),
        (Field("printed W2 W1 = U A(t) V^T, A diagonal", error),),
        "max_t ||offdiag(U^T W2W1 V)|| / max_t ||diag||",
        Boundary("eps = 0: the decoupled init W1(0) = R W1bar V^T, W2(0) = U W2bar R^T",
                 curve=((0.0, 0.0), (1e-4, 1e-1))),
        ("<=", 1e-8), "the matrix gradient flow (RK4, 1500 steps to t = 15 tau)",
        fixed="(N_in, N_hid, N_out) = (5, 4, 3), s = (2, 1.2, 0.6), coarse 9 x 7 grid", search=False)


# --- Eq. (3): the logistic mode needs balanced layers ----------------------------------------------

def spec_eq3() -> MapSpec:
    """BA-Eq(3) (App A): a(t) of Eq. (3) against the aligned mode of layers unbalanced by
    w1/w2 (w1 w2 = a0, w1^2 - w2^2 = Delta conserved: tau a' = sqrt(4a^2 + Delta^2)(s - d a)),
    compared at the exact times a mode reaches 30 levels between a0 and 0.99 s/d."""
    mode = form(REG["BA-Eq(3)"].printed)
    s, d, tau = 1.0, 1.0, 1.0
    steps = np.linspace(0.02, 1.0, 30)[:, None, None]

    def error(ratio, a0):
        levels = a0 * (0.99 * s / d / a0) ** steps
        delta = a0 * (ratio - 1 / ratio)
        times = balanced_mode_time(a0, levels, s / d, delta / 2, rate=d / tau)
        got = mode(s=s, d=d, a0=a0, t=times, tau=tau)
        return np.max(np.abs(got - levels), axis=0) / (s / d)

    return MapSpec(
        "BA-Eq(3)", Axis("ratio", "layer imbalance w1 / w2 at init", 1e-2, 1e2, 41, include=(1.0,)),
        Axis("a0", r"$a_0 d / s$", 1e-6, 0.5, 41),
        (Field("printed Eq. (3)", error),), "max |a_Eq.(3)(t) - a(t)| / (s/d)",
        Boundary("w1 = w2: balanced layers (with the aligned init)", level=lambda ratio, a0: np.log(ratio)),
        ("<=", 1e-8), "the exact mode trajectory of unbalanced layers (closed-form time to each level)",
        fixed="s = d = 1; aligned init, w1 w2 = a0")


# --- D1: the bias mode is the top singular mode of the 4-item tree ---------------------------------

def tree_labels(b) -> np.ndarray:
    """Stack of the 4-item tree's labels (grid + (7, 4)) with the last item's column scaled by b."""
    Y = np.broadcast_to(hierarchy(2)[1], np.shape(b) + (7, 4)).copy()
    Y[..., :, 3] *= np.asarray(b)[..., None]
    return Y


def spec_d1() -> MapSpec:
    """BA-D1 (= long paper Prop. 1): s0 = sqrt(c^2 + 1/P)||ybar|| is the top singular value."""
    gap = s0_gap(form(REG["BA-D1"].printed["s0"]))

    return MapSpec(
        "BA-D1", Axis("b", "scale b of the last item's labels", 0.1, 10.0, 41, include=(1.0,)),
        C_AXIS, (Field("printed s0 (Prop. 1)", lambda b, c: gap(tree_labels(b), c)),),
        "|s0 - sigma_1| / sigma_1",
        Boundary(r"b = 1: the balanced tree ($Y^\top Y 1 \propto 1$)", level=lambda b, c: b - 1.0,
                 points=((1.0, 1.0, "4-item tree, c = 1: s0 = 1.4790"),)),
        ("<=", 1e-10), "sigma_1 of Sigma~^yx (numpy SVD)", fixed="4-item tree, X = I_4")


# --- D3: the delay of dead units, and its a0 -> 0 form --------------------------------------------

def spec_d3() -> MapSpec:
    """BA-D3 (= long paper Eqs. 13-14, 26-27): the delay of a mode whose a0 is scaled by the alive
    fraction g, (tau/2s) ln((s - d a0 g)/(g (s - d a0))), and its small-a0 form (tau/2s) ln(1/g)
    (the a0 -> 0 limit of the printed delay, taken by sympy), against the difference of the first
    crossings of the exact mode trajectories (t in units of tau/(2s))."""
    delay = REG["BA-D3"].printed["delay"]
    a0_symbol = next(x for x in delay.free_symbols if x.name == "a0")
    exact_form, small_a0 = form(delay), form(sp.limit(delay, a0_symbol, 0))
    s, d, tau = 1.0, 1.0, 1.0
    plateau = s / d

    def crossing(a0, rho):
        return first_crossing(a0, rho, s, d, tau, horizon=200.0 * tau / s)

    def error(f):
        def err(g, a0_rel):
            a0 = a0_rel * plateau
            rho = (a0 + plateau) / 2
            reference = np.where(a0 < plateau, crossing(g * a0, rho) - crossing(a0, rho), np.nan)
            return np.abs(f(a0=a0, d=d, g=g, s=s, tau=tau) - reference) / (tau / (2 * s))
        return err

    return MapSpec(
        "BA-D3", Axis("g", r"alive fraction $\bar g$", 1e-3, 1.0, 41),
        Axis("a0_rel", r"$a_0 d / s$", 1e-6, 3.0, 41),
        (Field("printed delay (exact form)", error(exact_form)),
         Field("its a0 -> 0 form (tau/2s) ln(1/g)", error(small_a0))),
        "|delay - exact delay| in units of tau/(2s)",
        Boundary(r"$a_0 = s/d$ (the plateau: above it no mode is learned)",
                 level=lambda g, a0_rel: 1.0 - a0_rel),
        ("<=", 1e-2), "the difference of the first crossings of rho = (a0 + s/d)/2 by the exact "
        "mode trajectories from a0 and g a0 (bisection)",
        fixed="s = d = 1; NaN above the plateau")


SPECS = {"BA-Eq(2)": spec_eq2, "BA-Eq(3)": spec_eq3, "BA-D1": spec_d1, "BA-D3": spec_d3}
