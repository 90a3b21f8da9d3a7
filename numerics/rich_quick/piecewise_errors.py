"""Errors of the piecewise linear network formulas of "Get rich quick" (Sec 5, App C) against
autograd and gradient flow: each function takes the formula under test and returns a number (or
the crossing statistics of a partition); the verify layer measures."""
from __future__ import annotations

import numpy as np
import sympy as sp

from numerics.closed_forms import compiled
from numerics.rich_quick import piecewise as pw
from numerics.rich_quick.checks import parts, size
from numerics.validation import InvalidArgument, number
from theory.rich_quick import piecewise as tpw


def _f(expr, *syms):
    return compiled(syms, sp.sympify(expr))


def beta_dynamics_error(M_coefs, W, a, X, y, gamma, eta_a, eta_w) -> dict:
    """Eq. (8)/(125): ``beta_i' = -(c_I I + c_ww w_i w_i^T) xi_i`` against autograd velocities;
    and the NTK ``K_jk = sum_i c_ij x_j^T M_i x_k c_ik`` against the autograd NTK."""
    cI, cw = (_f(c, sp.Symbol("a"), tpw.eta_a, tpw.eta_w)
              for c in parts(M_coefs, ("I", "ww"), "M_coefs"))
    C, _, _, xi = pw.two_layer_parts(W, a, X, y, gamma)
    W_dot, a_dot, K_auto = pw.two_layer_autograd(W, a, X, y, gamma, eta_a, eta_w)
    beta_dot = a_dot[:, None] * W + a[:, None] * W_dot
    Ms = [cI(ai, eta_a, eta_w) * np.eye(len(wi)) + cw(ai, eta_a, eta_w) * np.outer(wi, wi)
          for ai, wi in zip(a, W)]
    pred = np.stack([-M @ x for M, x in zip(Ms, xi)])
    K = sum(np.outer(C[i], C[i]) * (X @ Ms[i] @ X.T) for i in range(len(a)))
    # relative to the largest velocity / kernel entry (all units may be dead: then both are 0)
    return {"beta_dot": float(np.max(np.abs(pred - beta_dot)) / max(np.max(np.abs(beta_dot)), 1e-300)),
            "ntk": float(np.linalg.norm(K - K_auto) / max(np.linalg.norm(K_auto), 1e-300))}


def preconditioner_error(M_coefs, W, a, eta_a, eta_w) -> float:
    """Eq. (126): ``M_i`` from ``(delta_i, ||beta_i||^2)`` against ``eta_w a_i^2 I + eta_a w_i w_i^T``
    (every unit with beta_i != 0: the form divides by ||beta_i||^2)."""
    cI, cb = (_f(c, tpw.delta, tpw.r2, tpw.eta_a, tpw.eta_w)
              for c in parts(M_coefs, ("I", "bb"), "M_coefs"))
    for i, (ai, wi) in enumerate(zip(a, W)):
        if ai == 0 or not np.any(wi):
            raise InvalidArgument(f"unit {i} has beta_i = 0: Eq. (126) is undefined there")
    err = 0.0
    for ai, wi in zip(a, W):
        beta = ai * wi
        r2 = beta @ beta
        dl = eta_w * ai ** 2 - eta_a * wi @ wi
        M = cI(dl, r2, eta_a, eta_w) * np.eye(len(wi)) + cb(dl, r2, eta_a, eta_w) * np.outer(beta, beta) / r2
        true = eta_w * ai ** 2 * np.eye(len(wi)) + eta_a * np.outer(wi, wi)
        err = max(err, np.linalg.norm(M - true) / np.linalg.norm(true))
    return err


def spherical_error(eq9, W, a, X, y, gamma, eta_a, eta_w) -> float:
    """Eq. (9)/(127): ``mu_i'`` and ``bhat_i'`` from the formula against the chain rule applied to
    autograd velocities (``mu_i = a_i ||w_i||``, ``bhat_i = w_i/||w_i||``)."""
    rad, ang = (_f(f, tpw.mu, tpw.delta, tpw.eta_a, tpw.eta_w)
                for f in parts(eq9, ("radial", "angular"), "eq9"))
    _, _, _, xi = pw.two_layer_parts(W, a, X, y, gamma)
    for i, wi in enumerate(np.asarray(W, float)):
        if not np.any(wi):
            raise InvalidArgument(f"unit {i} has w_i = 0: its direction bhat_i is undefined")
    W_dot, a_dot, _ = pw.two_layer_autograd(W, a, X, y, gamma, eta_a, eta_w)
    mu_err, bh_err, mu_scale, bh_scale = [], [], [], []
    for ai, wi, ad, wd, x in zip(a, W, a_dot, W_dot, xi):
        nw = np.linalg.norm(wi)
        bh = wi / nw
        mu = ai * nw
        mu_dot = ad * nw + ai * bh @ wd
        bh_dot = (wd - bh * (bh @ wd)) / nw
        dl = eta_w * ai ** 2 - eta_a * nw ** 2
        mu_err.append(abs(rad(mu, dl, eta_a, eta_w) * bh @ x - mu_dot))
        bh_err.append(np.linalg.norm(ang(mu, dl, eta_a, eta_w) * (x - bh * (bh @ x)) - bh_dot))
        mu_scale.append(abs(mu_dot))
        bh_scale.append(np.linalg.norm(bh_dot) * abs(mu))
    # relative to the largest velocity of the network (a dead unit has zero velocity)
    return float(max(max(mu_err) / max(max(mu_scale), 1e-300),
                     max(e * abs(a_i) * np.linalg.norm(w_i) for e, a_i, w_i in zip(bh_err, a, W))
                     / max(max(bh_scale), max(mu_scale), 1e-300)))


def delta_rate(W, a, X, y, gamma, eta_a, eta_w) -> float:
    """``max_i |d delta_i/dt| / max(1, |delta_i|)`` from the autograd velocities (positive
    homogeneity makes it vanish identically)."""
    W_dot, a_dot, _ = pw.two_layer_autograd(W, a, X, y, gamma, eta_a, eta_w)
    rate = 2 * eta_w * a * a_dot - 2 * eta_a * np.sum(W * W_dot, 1)
    return float(np.max(np.abs(rate) / np.maximum(1.0, np.abs(eta_w * a ** 2 - eta_a * np.sum(W ** 2, 1)))))


def crossing_statistics(net: pw.DeepReLU, rng, lines: int = 6, radius: float = 3.0):
    """Along random chords of the disc/ball of ``radius``: for every located boundary crossing,
    the Hamming distance of the patterns on its two sides, whether the parity flips, and the
    alignment |cos| between the predictor jump and the flipped unit's boundary normal."""
    if not isinstance(net, pw.DeepReLU):
        raise InvalidArgument(f"net must be a numerics.rich_quick.piecewise.DeepReLU, got {type(net).__name__}")
    lines, radius = size(lines, "lines"), number(radius, "radius", positive=True)
    d = net.weights[0].shape[1]
    hams, flips, aligns, degenerate = [], [], [], 0
    for _ in range(lines):
        p0, p1 = (radius * v / np.linalg.norm(v) for v in rng.standard_normal((2, d)))
        for s, before, after, zero in pw.boundary_crossings(net, p0, p1):
            if zero:
                degenerate += 1
                continue
            ham = int(np.sum(before != after))
            hams.append(ham)
            flips.append(before.sum() % 2 != after.sum() % 2)
            if ham == 1:
                unit = int(np.flatnonzero(before != after)[0])
                x = p0 + s * (p1 - p0)
                eps = 1e-7 * (p1 - p0)
                jump = net.input_gradient(x + eps) - net.input_gradient(x - eps)
                normal = net.preactivation_gradient(x, unit)
                if np.linalg.norm(jump) > 1e-9:      # neighbours may share a predictor (fn. 10)
                    aligns.append(abs(jump @ normal) / (np.linalg.norm(jump) * np.linalg.norm(normal)))
    return (np.array(hams, dtype=int), np.array(flips, dtype=bool), np.array(aligns, dtype=float),
            degenerate)


def fixed_setting_drift(s, eta_a, eta_w) -> float:
    """The drift of all delta_i along ReLU gradient flow (``numerics.rich_quick.piecewise``) of
    the setting ``s`` (W, a, X, y) at rates (eta_a, eta_w)."""
    parts(s, ("W", "a", "X", "y"), "s")
    return pw.delta_drift(s["W"], s["a"], s["X"], s["y"], 0.0, eta_a, eta_w)


EXPRESSIVITY_WIDTHS = pw.EXPRESSIVITY_WIDTHS
