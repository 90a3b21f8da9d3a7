"""Wide two-layer and deep linear networks of GRQ Sec. 4 / App. B: gradient flows,
initialisations with prescribed conserved quantities, and preconditioners.

Time is the paper's gradient-flow time t (rich_quick: tau = 1, loss 1/2 ||X beta - Y||_F^2, no
1/n), with per-layer rates ``eta_a`` (readout) and ``eta_w`` (first layer).  ``vec`` stacks columns
(Fortran order), so ``vec(X beta) = (I_c kron X) vec(beta)``.
"""
from __future__ import annotations

import numpy as np
from scipy.stats import ortho_group

from numerics.metrics import kernel_distance  # noqa: F401  (re-exported)
from numerics.ode import integrate_flow
from numerics.validation import InvalidArgument, finite_array, integer, number, positive


def vec(B: np.ndarray) -> np.ndarray:
    return np.asarray(B).reshape(-1, order="F")


def kron_sum(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """``P (+) Q = P kron I_q + I_p kron Q`` (GRQ footnote 4) for square P (p x p), Q (q x q)."""
    if np.ndim(P) != 2 or np.ndim(Q) != 2 or P.shape[0] != P.shape[1] or Q.shape[0] != Q.shape[1]:
        raise InvalidArgument(f"P {np.shape(P)} and Q {np.shape(Q)} must be square matrices")
    return np.kron(P, np.eye(Q.shape[0])) + np.kron(np.eye(P.shape[0]), Q)


def gram_function(G: np.ndarray, f) -> np.ndarray:
    """``f(G)`` for a symmetric PSD Gram ``G`` through its eigendecomposition; ``f`` acts on the
    (clipped non-negative) eigenvalues, vectorised."""
    if not callable(f):
        raise InvalidArgument(f"f must be callable (eigenvalues -> values), got {type(f).__name__}")
    G = finite_array(G, "G", ndim=2)
    if G.shape[0] != G.shape[1]:
        raise InvalidArgument(f"G must be a square matrix (a Gram), got {G.shape}")
    ev, U = np.linalg.eigh((G + G.T) / 2)
    return (U * np.asarray(f(np.clip(ev, 0.0, None)), dtype=float)) @ U.T


def _rates(eta_a, eta_w):
    return float(positive(eta_a, "eta_a")), float(positive(eta_w, "eta_w"))


def wide_shapes(W, A, X=None):
    """W (h, d) and A (h, c) of one hidden width (and X (n, d) where given); a ValueError naming
    the misfit."""
    if np.ndim(W) != 2 or np.ndim(A) != 2 or np.shape(W)[0] != np.shape(A)[0]:
        raise InvalidArgument(f"W {np.shape(W)} and A {np.shape(A)} must share the hidden width: "
                              "(h, d) and (h, c)")
    if X is not None and (np.ndim(X) != 2 or np.shape(X)[1] != np.shape(W)[1]):
        raise InvalidArgument(f"X {np.shape(X)} must have {np.shape(W)[1]} columns (W is "
                              f"{np.shape(W)})")


# ------------------------------------------------------------------ wide two-layer network
def wide_rhs(X, Y, eta_a, eta_w):
    """Gradient flow of ``f(x) = A^T W x`` on ``1/2 ||X W^T A - Y||^2``: params ``W`` (h x d),
    ``A`` (h x c)."""
    X, Y = finite_array(X, "X", ndim=2), finite_array(Y, "Y", ndim=2)
    if X.shape[0] != Y.shape[0]:
        raise InvalidArgument(f"X {X.shape} and Y {Y.shape} must have the same number of rows")
    eta_a, eta_w = _rates(eta_a, eta_w)

    def rhs(t, p):
        G = X.T @ (X @ p["W"].T @ p["A"] - Y)        # d x c, the gradient wrt beta
        return {"W": -eta_w * p["A"] @ G.T, "A": -eta_a * p["W"] @ G}
    return rhs


def wide_M(W, A, eta_a, eta_w) -> np.ndarray:
    """The preconditioner of Eq. (6) computed from the parameters."""
    wide_shapes(W, A)
    eta_a, eta_w = _rates(eta_a, eta_w)
    return kron_sum(eta_w * A.T @ A, eta_a * W.T @ W)


def wide_ntk_autograd(W, A, X, eta_a, eta_w) -> np.ndarray:
    """NTK of ``vec(X W^T A)`` by torch autograd (float64), each parameter weighted by its rate."""
    import torch
    wide_shapes(W, A, X)
    Wt, At, Xt = (torch.as_tensor(np.asarray(v, dtype=float)) for v in (W, A, X))

    def out(Wv, Av):
        return (Xt @ Wv.T @ Av).T.reshape(-1)       # column stacking of the n x c output
    JW, JA = torch.autograd.functional.jacobian(out, (Wt, At))
    JW, JA = JW.reshape(JW.shape[0], -1), JA.reshape(JA.shape[0], -1)
    return (eta_w * JW @ JW.T + eta_a * JA @ JA.T).numpy()


def neuron_terms(W, A, eta_a, eta_w):
    """Per neuron: ``beta_i = w_i a_i^T`` (h, d, c), ``delta_i = eta_w||a_i||^2 - eta_a||w_i||^2``."""
    wide_shapes(W, A)
    betas = np.einsum("id,ic->idc", W, A)
    deltas = eta_w * np.sum(A ** 2, 1) - eta_a * np.sum(W ** 2, 1)
    return betas, deltas


def init_wide(d, h, c, deltas, beta_norms, eta_a, eta_w, rng):
    """W, A with per-neuron ``delta_i`` and ``||beta_i||_F`` prescribed (catalogue OD-20): random
    unit directions, ``||a_i||^2 = (kappa+delta)/(2 eta_w)``, ``||w_i||^2 = (kappa-delta)/(2 eta_a)``."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    d, h, c = integer(d, "d"), integer(h, "h"), integer(c, "c")
    generator(rng)
    deltas, norms = finite_array(deltas, "deltas"), positive(beta_norms, "beta_norms")
    for name, v in (("deltas", deltas), ("beta_norms", norms)):
        if v.size not in (1, h):
            raise InvalidArgument(f"{name} must be one value or one per neuron ({h}), got {v.shape}")
    deltas, norms = np.broadcast_to(deltas, (h,)), np.broadcast_to(norms, (h,))
    kap = np.sqrt(deltas ** 2 + 4 * eta_a * eta_w * norms ** 2)
    a_dir = rng.standard_normal((h, c))
    w_dir = rng.standard_normal((h, d))
    A = a_dir / np.linalg.norm(a_dir, axis=1, keepdims=True) * np.sqrt((kap + deltas) / (2 * eta_w))[:, None]
    W = w_dir / np.linalg.norm(w_dir, axis=1, keepdims=True) * np.sqrt((kap - deltas) / (2 * eta_a))[:, None]
    return W, A


def generator(rng):
    """``rng`` itself, a numpy Generator (or a TypeError naming it)."""
    if not isinstance(rng, np.random.Generator):
        raise InvalidArgument(f"rng must be a numpy Generator (np.random.default_rng), got "
                              f"{type(rng).__name__}")


def init_square_isotropic(d, delta, eta_a, eta_w, rng, scale=1.0):
    """Square (d = h = c) W, A with ``eta_w A A^T - eta_a W W^T = delta I`` (Lemma B.3 set-up).

    For ``delta >= 0`` draw W and set ``A = U sqrt(ev) O`` from ``(eta_a W W^T + delta I)/eta_w =
    U ev U^T`` (O random orthogonal); for ``delta < 0`` the same with the roles of A and W swapped,
    so the Gram to factor is always PSD."""
    eta_a, eta_w = _rates(eta_a, eta_w)
    d, delta, scale = integer(d, "d"), number(delta, "delta"), number(scale, "scale")
    generator(rng)
    first = scale * rng.standard_normal((d, d))
    if delta >= 0:
        C = (eta_a * first @ first.T + delta * np.eye(d)) / eta_w
    else:
        C = (eta_w * first @ first.T - delta * np.eye(d)) / eta_a
    ev, U = np.linalg.eigh(C)
    second = U @ np.diag(np.sqrt(np.clip(ev, 0, None))) @ ortho_group.rvs(d, random_state=rng)
    return (first, second) if delta >= 0 else (second, first)


# ------------------------------------------------------------------ deep linear network
def deep_beta(Ws, a) -> np.ndarray:
    """``beta = W_1^T ... W_l^T a`` for ``Ws = [W_1, ..., W_l]``."""
    deep_shapes(Ws, a)
    return _chain(Ws, a)


def _chain(Ws, a) -> np.ndarray:
    """:func:`deep_beta` unchecked: the flow's right-hand side calls it at every step."""
    v = np.asarray(a, dtype=float)
    for Wk in reversed(Ws):
        v = Wk.T @ v
    return v


def deep_shapes(Ws, a):
    """``W_1 (h_1, d), ..., W_l (h_l, h_{l-1})`` chained and ``a`` (h_l,); a ValueError naming
    the misfit."""
    for k in range(1, len(Ws)):
        if np.shape(Ws[k])[1] != np.shape(Ws[k - 1])[0]:
            raise InvalidArgument(f"Ws[{k}] {np.shape(Ws[k])} does not take the {np.shape(Ws[k - 1])[0]} "
                                  f"outputs of Ws[{k - 1}]")
    if Ws and np.shape(a) != (np.shape(Ws[-1])[0],):
        raise InvalidArgument(f"a {np.shape(a)} does not fit Ws[-1] {np.shape(Ws[-1])}")


def deep_rhs(X, y, l):
    """Gradient flow (all rates 1) of ``f(x) = a^T W_l ... W_1 x`` on ``1/2 ||X beta - y||^2``;
    params ``a`` and ``W1``..``Wl``.  ``dL/dW_k = u_k v_k^T`` with ``u_k = W_{k+1}^T..W_l^T a``
    and ``v_k = W_{k-1}..W_1 X^T rho``."""
    X, y = finite_array(X, "X", ndim=2), finite_array(y, "y", ndim=1)
    if X.shape[0] != y.shape[0]:
        raise InvalidArgument(f"X has {X.shape[0]} rows but y has {y.shape[0]} entries")
    names = [f"W{k}" for k in range(1, integer(l, "l") + 1)]

    def rhs(t, p):
        Ws = [p[k] for k in names]
        g = X.T @ (X @ _chain(Ws, p["a"]) - y)
        vs = [g]
        for Wk in Ws[:-1]:
            vs.append(Wk @ vs[-1])
        us = [p["a"]]
        for Wk in reversed(Ws[1:]):
            us.append(Wk.T @ us[-1])
        us = us[::-1]
        out = {names[k]: -np.outer(us[k], vs[k]) for k in range(l)}
        out["a"] = -Ws[-1] @ vs[-1]
        return out
    return rhs, names


def deep_isotropic_init(h, l, delta, rng, a=None):
    """Def. B.7 initialisation for ``delta <= 0`` (OD-19): ``W_l W_l^T = a a^T - delta I``
    through ``U S^2 U^T``, ``W_i = U_{i+1} S U_i^T`` with random orthogonal ``U_i``."""
    h, l, delta = integer(h, "h"), integer(l, "l"), number(delta, "delta")
    generator(rng)
    if delta > 0 and h >= 2:
        raise InvalidArgument(f"delta={delta!r} > 0 has no isotropic deep init for h={h} >= 2 "
                              "(a a^T - delta I is not PSD)")
    a = rng.standard_normal(h) if a is None else finite_array(a, "a", shape=(h,))
    ev, U = np.linalg.eigh(np.outer(a, a) - delta * np.eye(h))
    S = np.diag(np.sqrt(np.clip(ev, 0, None)))
    Us = [ortho_group.rvs(h, random_state=rng) for _ in range(l)] + [U]
    Ws = [Us[k + 1] @ S @ Us[k].T for k in range(l)]
    return Ws, a


def deep_balanced_chain(h, l, scale, rng):
    """Exactly balanced (delta = 0) rank-one chain ``W_i = s u_{i+1} u_i^T``, ``a = s u_{l+1}``
    (beta0 = s^{l+1} u_1)."""
    h, l, scale = integer(h, "h"), integer(l, "l"), number(scale, "scale")
    generator(rng)
    us = [v / np.linalg.norm(v) for v in rng.standard_normal((l + 1, h))]
    Ws = [scale * np.outer(us[k + 1], us[k]) for k in range(l)]
    return Ws, scale * us[-1]


def deep_M_autograd(Ws, a) -> np.ndarray:
    """``M = J J^T`` of ``beta(theta)`` over all parameters (rates 1): ``beta' = -M X^T rho``."""
    import torch
    deep_shapes(Ws, a)
    params = [torch.as_tensor(W) for W in Ws] + [torch.as_tensor(a)]

    def beta(*ps):
        v = ps[-1]
        for Wk in reversed(ps[:-1]):
            v = Wk.T @ v
        return v
    J = torch.autograd.functional.jacobian(beta, tuple(params))
    J = torch.cat([j.reshape(j.shape[0], -1) for j in J], dim=1)
    return (J @ J.T).numpy()


# ------------------------------------------------------------------ single neuron (App. D.2)
def single_neuron_beta(XtX, Xty, delta, beta0, t_end, *, method, rtol, samples=201):
    """beta(t) = a(t) w(t) of the single linear neuron ``f = a w^T x`` under gradient flow on the
    1/2-sum loss (unit rates; t is gradient-flow time), from the balanced-by-``delta`` init with
    ``a0^2 - ||w0||^2 = delta`` and ``a0 w0 = beta0``; ``samples`` times in [0, t_end], (d, T)."""
    beta0, delta = finite_array(beta0, "beta0", ndim=1), number(delta, "delta")
    XtX, Xty = finite_array(XtX, "XtX", shape=(beta0.size,) * 2), finite_array(Xty, "Xty", shape=beta0.shape)
    a0 = np.sqrt((delta + np.sqrt(delta ** 2 + 4 * beta0 @ beta0)) / 2)
    if a0 == 0:
        raise InvalidArgument("beta0 = 0 with delta <= 0 gives a0 = 0: no such init")

    def rhs(t, p):
        g = XtX @ (p["a"] * p["w"]) - Xty
        return {"a": -p["w"] @ g, "w": -p["a"] * g}
    t = np.linspace(0, t_end, integer(samples, "samples", 2))
    flow = integrate_flow(rhs, {"a": np.array(a0), "w": beta0 / a0}, t_end, t_eval=t, rtol=rtol,
                          atol=rtol * 1e-3, method=method, conservation_tol=None)
    return flow.states["a"] * flow.states["w"]
