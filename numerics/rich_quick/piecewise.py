"""Piecewise linear (ReLU / leaky ReLU) networks of GRQ Sec. 5 / App. C: the two-layer
bias-free network's per-neuron quantities and gradient flow, deep networks' activation patterns,
and the location of activation-region boundaries along segments.

Rows are samples here (``X`` is (n, d)), as in the paper's App. C; the loss is
``1/2 sum_j (f(x_j) - y_j)^2`` and time is gradient-flow time (rich_quick convention).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.ode import integrate_flow
from numerics.rich_quick.checks import size
from numerics.validation import InvalidArgument, finite_array, number, positive


def _slope(gamma):
    """A leaky-ReLU slope in [0, 1) (0: the ReLU), unchanged."""
    if isinstance(gamma, bool) or not isinstance(gamma, (int, float, np.number)) or not 0 <= gamma < 1:
        raise InvalidArgument(f"gamma={gamma!r} must lie in [0, 1)")
    return gamma


def leaky(z, gamma):
    """``sigma(z) = max(z, gamma z)``, gamma in [0, 1)."""
    return _leaky(np.asarray(z, dtype=float), _slope(gamma))


def _leaky(z, gamma):
    return np.maximum(z, gamma * z)


def leaky_grad(z, gamma):
    """``sigma'(z)``: 1 for z > 0, gamma for z < 0 (and gamma at 0, a valid subgradient)."""
    return _leaky_grad(np.asarray(z, dtype=float), _slope(gamma))


def _leaky_grad(z, gamma):
    return np.where(z > 0, 1.0, gamma)


def _setting(W, a, X, y, gamma):
    """W (h, d), a (h,), X (n, d), y (n,) finite and fitting, gamma in [0, 1)."""
    W, a, X = finite_array(W, "W", ndim=2), finite_array(a, "a", ndim=1), finite_array(X, "X", ndim=2)
    y = finite_array(y, "y", ndim=1)
    if W.shape[1] != X.shape[1]:
        raise InvalidArgument(f"W {W.shape} must have as many columns as X {X.shape}")
    if a.shape[0] != W.shape[0]:
        raise InvalidArgument(f"a has {a.shape[0]} entries but W has {W.shape[0]} rows")
    if y.shape[0] != X.shape[0]:
        raise InvalidArgument(f"y has {y.shape[0]} entries but X has {X.shape[0]} rows")
    return W, a, X, y, _slope(gamma)


def two_layer_parts(W, a, X, y, gamma):
    """``C`` (h, n) with ``c_ij = sigma'(w_i^T x_j)``, the outputs ``f`` (n,), residuals ``rho``
    (n,) and ``xi_i = sum_j c_ij x_j rho_j`` (h, d)."""
    return _parts(*_setting(W, a, X, y, gamma))


def _parts(W, a, X, y, gamma):
    """:func:`two_layer_parts` unchecked: the flow's right-hand side calls it at every step."""
    Z = W @ X.T
    C = _leaky_grad(Z, gamma)
    f = a @ _leaky(Z, gamma)
    rho = f - y
    xi = (C * rho[None, :]) @ X
    return C, f, rho, xi


def two_layer_rhs(X, y, gamma, eta_a, eta_w):
    """Eq. (124): ``a_i' = -eta_a w_i^T xi_i``, ``w_i' = -eta_w a_i xi_i`` (the data checked
    once here, the weights by the integrator)."""
    X, y = finite_array(X, "X", ndim=2), finite_array(y, "y", ndim=1)
    if y.shape[0] != X.shape[0]:
        raise InvalidArgument(f"y has {y.shape[0]} entries but X has {X.shape[0]} rows")
    gamma = _slope(gamma)
    positive(eta_a, "eta_a"), positive(eta_w, "eta_w")

    def rhs(t, p):
        _, _, _, xi = _parts(p["W"], p["a"], X, y, gamma)
        return {"W": -eta_w * p["a"][:, None] * xi, "a": -eta_a * np.sum(p["W"] * xi, 1)}
    return rhs


def two_layer_autograd(W, a, X, y, gamma, eta_a, eta_w):
    """Parameter velocities ``-eta * grad L`` and the rate-weighted NTK (n, n) by torch autograd."""
    import torch
    W, a, X, y, gamma = _setting(W, a, X, y, gamma)
    positive(eta_a, "eta_a"), positive(eta_w, "eta_w")
    Wt, at, Xt, yt = (torch.as_tensor(np.asarray(v, dtype=float)) for v in (W, a, X, y))

    def out(Wv, av):
        z = Xt @ Wv.T
        return torch.maximum(z, gamma * z) @ av
    Wt.requires_grad_(True)
    at.requires_grad_(True)
    loss = 0.5 * ((out(Wt, at) - yt) ** 2).sum()
    gW, ga = torch.autograd.grad(loss, (Wt, at))
    JW, Ja = torch.autograd.functional.jacobian(out, (Wt.detach(), at.detach()))
    JW = JW.reshape(JW.shape[0], -1)
    K = eta_w * JW @ JW.T + eta_a * Ja @ Ja.T
    return -eta_w * gW.numpy(), -eta_a * ga.numpy(), K.numpy()


# ------------------------------------------------------------------ deep networks and regions
@dataclass
class DeepReLU:
    """``f(x) = v^T sigma(W_L ... sigma(W_1 x + b_1) ... + b_L)``; ``biases`` may be None."""

    weights: list
    biases: list | None
    readout: np.ndarray
    gamma: float = 0.0

    def __post_init__(self):
        _slope(self.gamma)
        rows = np.shape(self.weights[0])[1] if self.weights else 0
        for k, Wk in enumerate(self.weights):
            if np.ndim(Wk) != 2 or np.shape(Wk)[1] != rows:
                raise InvalidArgument(f"weights[{k}] {np.shape(Wk)} does not take the {rows} outputs "
                                      "of the layer below")
            if self.biases is not None and np.shape(self.biases[k]) != (np.shape(Wk)[0],):
                raise InvalidArgument(f"biases[{k}] has {np.size(self.biases[k])} entries for "
                                      f"{np.shape(Wk)[0]} units")
            rows = np.shape(Wk)[0]
        if not self.weights or np.shape(self.readout) != (rows,):
            raise InvalidArgument(f"readout has {np.size(self.readout)} entries but the last layer has "
                                  f"{rows} units")

    @classmethod
    def random(cls, d, widths, rng, biases=True, gamma=0.0):
        """He-initialised weights, biases N(0, 1) (so boundaries do not all pass the origin)."""
        d = size(d, "d")
        if not len(widths) or any(isinstance(w, bool) or int(w) != w or w < 1 for w in widths):
            raise InvalidArgument(f"widths={list(widths)!r} must be a non-empty list of positive widths")
        dims = [d] + list(widths)
        Ws = [rng.standard_normal((dims[k + 1], dims[k])) * np.sqrt(2 / dims[k])
              for k in range(len(widths))]
        bs = [rng.standard_normal(w) for w in widths] if biases else None
        return cls(Ws, bs, rng.standard_normal(widths[-1]), gamma)

    def preactivations(self, P: np.ndarray) -> np.ndarray:
        """All hidden pre-activations ``z_i(x)`` stacked, (m, N) for points P (N, d)."""
        return self._pre(self._points(P))

    def _points(self, P) -> np.ndarray:
        d = np.shape(self.weights[0])[1]
        P = finite_array(P, "P")
        if P.ndim != 2 or P.shape[1] != d:
            raise InvalidArgument(f"P must be (N, {d}) points, got {P.shape}")
        return P

    def _pre(self, P) -> np.ndarray:
        """:meth:`preactivations` unchecked (bisection calls it point by point)."""
        h, zs = P.T, []
        for k, Wk in enumerate(self.weights):
            z = Wk @ h + (self.biases[k][:, None] if self.biases is not None else 0.0)
            zs.append(z)
            h = _leaky(z, self.gamma)
        return np.concatenate(zs)

    def patterns(self, P) -> np.ndarray:
        """Activation patterns (Def. C.1) as booleans (m, N): True = active."""
        return self.preactivations(P) > 0

    def __call__(self, P) -> np.ndarray:
        """``f`` at points P (N, d): (N,)."""
        h = self._points(P).T
        for k, Wk in enumerate(self.weights):
            h = _leaky(Wk @ h + (self.biases[k][:, None] if self.biases is not None else 0.0),
                       self.gamma)
        return self.readout @ h

    def input_gradient(self, x) -> np.ndarray:
        """``grad_x f`` (the region's linear predictor beta_R) at a point x (d,)."""
        h = self._point(x)
        J = np.eye(len(h))
        for k, Wk in enumerate(self.weights):
            z = Wk @ h + (self.biases[k] if self.biases is not None else 0.0)
            J = _leaky_grad(z, self.gamma)[:, None] * (Wk @ J)
            h = _leaky(z, self.gamma)
        return self.readout @ J

    def _point(self, x) -> np.ndarray:
        return finite_array(x, "x", shape=(np.shape(self.weights[0])[1],))

    def preactivation_gradient(self, x, unit: int) -> np.ndarray:
        """``grad_x z_unit`` (the normal of that unit's boundary) at x."""
        h = self._point(x)
        if isinstance(unit, bool) or not isinstance(unit, (int, np.integer)) or unit < 0:
            raise InvalidArgument(f"unit={unit!r} must be an integer >= 0 (a hidden unit's index)")
        J = np.eye(len(h))
        offset = 0
        for k, Wk in enumerate(self.weights):
            z = Wk @ h + (self.biases[k] if self.biases is not None else 0.0)
            Jz = Wk @ J
            if unit < offset + len(z):
                return Jz[unit - offset]
            J = _leaky_grad(z, self.gamma)[:, None] * Jz
            h = _leaky(z, self.gamma)
            offset += len(z)
        raise InvalidArgument(f"unit={unit} exceeds the number of hidden units {offset}")


def boundary_crossings(net: DeepReLU, p0, p1, samples: int = 400, tol: float = 1e-12):
    """Pattern changes along the segment p0 -> p1, each bracketed by bisection to ``tol`` (in the
    segment parameter).  Returns a list of (s, patterns_before, patterns_after)."""
    d = np.shape(net.weights[0])[1]
    p0, p1 = finite_array(p0, "p0", shape=(d,)), finite_array(p1, "p1", shape=(d,))
    if np.array_equal(p0, p1):
        raise InvalidArgument("p0 and p1 must differ: the segment is a point")
    samples, tol = size(samples, "samples", 2), number(tol, "tol", positive=True)

    def pat(s):
        return net._pre((p0 + s * (p1 - p0))[None])[:, 0] > 0

    out = []

    def bracket(lo, hi, plo, phi):
        if (plo == phi).all():
            return
        if hi - lo < tol:
            z = net._pre(np.stack([p0 + lo * (p1 - p0), p0 + hi * (p1 - p0)]))
            out.append(((lo + hi) / 2, plo, phi, bool(np.any(z == 0))))
            return
        mid = (lo + hi) / 2
        pm = pat(mid)
        bracket(lo, mid, plo, pm)
        bracket(mid, hi, pm, phi)

    grid = np.linspace(0, 1, samples)
    pats = (net._pre(p0 + grid[:, None] * (p1 - p0)) > 0).T
    for k in range(samples - 1):
        bracket(grid[k], grid[k + 1], pats[k], pats[k + 1])
    return out


def delta_drift(W, a, X, y, gamma, eta_a, eta_w, t_end=0.1) -> float:
    """Drift of every ``delta_i = eta_w a_i^2 - eta_a ||w_i||^2`` along the PL gradient flow.

    The horizon is short: once a unit's hyperplane reaches a data point the ReLU flow slides along
    the kink (Filippov) and an explicit integrator stalls; the identity ``delta_rate`` covers the
    rest of parameter space."""
    flow = integrate_flow(two_layer_rhs(X, y, gamma, eta_a, eta_w), {"W": W, "a": a}, t_end,
                          conserved={"delta_i": lambda p: eta_w * p["a"] ** 2
                                     - eta_a * np.sum(p["W"] ** 2, 1)},
                          rtol=1e-11, atol=1e-13, conservation_tol=None)
    return flow.drift["delta_i"]


def homogeneous_fit_error(target, h, rng, n=3000, radii=(0.5, 2.0)) -> float:
    """Relative RMS error of the least-squares fit of ``target`` (a function of (n, 2) points) by a
    bias-free ReLU network with h random first-layer units (readout fitted), on held-out points
    with radii in ``radii``: the wide limit of the bias-free model class."""
    h, n = size(h, "h"), size(n, "n")
    if len(radii) != 2 or not 0 <= number(radii[0], "radii[0]") < number(radii[1], "radii[1]"):
        raise InvalidArgument(f"radii={tuple(radii)!r} must be 0 <= r_min < r_max")

    def points(m):
        th_ = rng.uniform(0, 2 * np.pi, m)
        r = rng.uniform(*radii, m)
        return np.stack([r * np.cos(th_), r * np.sin(th_)], 1)
    Wf = rng.standard_normal((h, 2))
    Ptr, Pte = points(n), points(n)
    F = np.maximum(Ptr @ Wf.T, 0)
    # a tiny ridge (1e-10 of the mean feature energy) keeps the solve well posed for large h
    lam = 1e-10 * np.trace(F.T @ F) / h
    coef = np.linalg.solve(F.T @ F + lam * np.eye(h), F.T @ target(Ptr))
    pred = np.maximum(Pte @ Wf.T, 0) @ coef
    truth = target(Pte)
    if not np.any(truth):
        raise InvalidArgument("target is zero on the test points: the relative error is undefined")
    return float(np.sqrt(np.mean((pred - truth) ** 2) / np.mean(truth ** 2)))


#: the widths of the expressivity fits (App. C, L923)
EXPRESSIVITY_WIDTHS = (10, 100, 400)


def expressivity_fits() -> dict:
    """Random-feature fits of bias-free ReLU nets (sigma(z) = ((1+gamma) z + (1-gamma)|z|)/2, so
    positively 1-homogeneous with a LINEAR odd part) to targets through the origin, widening:
    {target: relative RMS test errors at EXPRESSIVITY_WIDTHS}."""
    rng = np.random.default_rng(0)
    def polar(P):
        return (np.linalg.norm(P, axis=1), np.arctan2(P[:, 1], P[:, 0]))
    targets = {"r cos(2 theta) + x1": lambda P: polar(P)[0] * np.cos(2 * polar(P)[1]) + P[:, 0],
               "r cos(3 theta)": lambda P: polar(P)[0] * np.cos(3 * polar(P)[1]),
               "x1^2": lambda P: P[:, 0] ** 2}
    return {k: [homogeneous_fit_error(f, h, rng) for h in EXPRESSIVITY_WIDTHS]
            for k, f in targets.items()}
