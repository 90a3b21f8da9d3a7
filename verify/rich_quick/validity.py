"""Validity maps of the rich_quick ("Get rich quick") claims: holds-if claims and limits.

Each ``spec_*`` function returns the :class:`verify.validity.MapSpec` of one claim; :data:`SPECS`
maps the claim ID to it.  The printed and corrected forms are the registry's own encodings,
lambdified once (:func:`verify.validity.form`) and evaluated over the whole grid.  The references
are computed here independently of those encodings:

* single-neuron rates: the chain rule along the whitened weight flow (App A.2 Eqs. 14-15, general
  rates eta_a, eta_w) at a fixed weight point;
* Eq. (27): the Riccati equation solved by linearisation (u'' + delta u' - eta_a eta_w b^2 u = 0);
* Thm 3.1: the gradient flow of beta (Eqs. 3-4) to its limit, on a coarse grid;
* the preconditioner limits: M from the weights that realise (beta, delta).

Time is the gradient-flow time t of the paper (Sec 1 Notation, rates inside the flow).
"""
from __future__ import annotations

from functools import partial

import numpy as np

from numerics.rich_quick.implicit_bias_flow import gf_limit

from theory.registry import load_all
from verify.validity import Axis, Boundary, Field, Mark, MapSpec, form

REG = load_all()

#: the weight point of the WLOG maps: the counterexample of the GRQ-Conv-WLOG check (rounded)
POINT = dict(a=1.2242, w1=1.8896, w2=1.2634, b=0.5041)
RATES_X = Axis("eta_a", r"$\eta_a$", 0.1, 10.0, 41)
RATES_Y = Axis("eta_w", r"$\eta_w$", 0.1, 10.0, 41)


def wlog_boundary() -> Boundary:
    """The WLOG's printed condition eta_a eta_w = 1 (its registry encoding, read when a map is
    built) and the unit-rate point."""
    wlog = REG["GRQ-Conv-WLOG"].printed
    gap = form(wlog.rhs - wlog.lhs)
    return Boundary(
        r"$\eta_a\eta_w = 1$ (the printed WLOG) and $\eta_a = \eta_w = 1$ (the unit-rate reading)",
        level=lambda eta_a, eta_w: gap(eta_a=eta_a, eta_w=eta_w), points=((1.0, 1.0, "unit rates"),))

#: float64 evaluation of closed forms with O(1) terms
ROUND = 1e-12
CHAIN_RULE = "the chain rule along the whitened weight flow (Eqs. 14-15) at general rates"


def _rate_map(claim_id, error, forms, quantity, tol, reference=CHAIN_RULE, fixed=None) -> MapSpec:
    """A map over the rates (eta_a, eta_w), bounded by the printed WLOG: ``forms`` pairs each
    field's label with the form that ``error(form, eta_a, eta_w)`` measures; ``fixed`` defaults
    to the weight point ``POINT``."""
    return MapSpec(claim_id, RATES_X, RATES_Y,
                   tuple(Field(label, partial(error, f)) for label, f in forms), quantity,
                   wlog_boundary(), ("<=", tol), reference, fixed=fixed or _fixed())


# --- the whitened single-neuron flow (App A.2 Eqs. 14-15): the reference -------------------------

def _weights(eta_a, eta_w, a, w1, w2, b):
    """Rates and coordinates of the whitened flow at the weights (a, w = (w1, w2)), beta_* = (b, 0)."""
    w_sq = w1 ** 2 + w2 ** 2
    da = eta_a * (w1 * b - a * w_sq)
    dw1 = eta_w * (a * b - a ** 2 * w1)
    dw2 = -eta_w * a ** 2 * w2
    wdw = w1 * dw1 + w2 * dw2
    w = np.sqrt(w_sq)
    return dict(
        a=a, b=b, w=w, delta=eta_w * a ** 2 - eta_a * w_sq, mu=a * w, phi=w1 / w,
        nu=w1 * b / a, omega=w1 * b, v=a / (w1 * b), da=da,
        dmu=da * w + a * wdw / w, dphi=dw1 / w - w1 * wdw / w ** 3,
        dnu=b * (dw1 * a - w1 * da) / a ** 2, domega=b * dw1,
        dv=(da * w1 * b - a * b * dw1) / (w1 * b) ** 2)


def _rel(value, reference):
    return np.abs(value - reference) / np.maximum(1.0, np.abs(reference))


def _at_point(eta_a, eta_w, **point):
    return _weights(eta_a, eta_w, *(point.get(k, POINT[k]) for k in ("a", "w1", "w2", "b")))


def _fixed(**point) -> str:
    p = {**POINT, **point}
    return "a = {a:.3g}, w = ({w1:.3g}, {w2:.3g}), ||beta*|| = {b:.3g}".format(**p)


# --- the WLOG claims -----------------------------------------------------------------------------

def spec_conv_wlog() -> MapSpec:
    """GRQ-Conv-WLOG (App A.2.1 L324): the unit-rate (mu, phi) system, i.e. Eqs. (16)-(17) with
    the printed eta_a eta_w = 1 substituted, read literally in mu = a||w|| and in the rescaled
    mu' = sqrt(eta_a eta_w) mu, beta_*' = sqrt(eta_a eta_w) beta_* that L324 defines."""
    # (16)-(17) hold the rates only through their product: the printed WLOG is product 1
    unit = {k.name: form(v) for k, v in REG["GRQ-Eq(16)-(18)"].printed.mu_phi_ode.items()}

    def error(rescaled, eta_a, eta_w):
        g = _at_point(eta_a, eta_w)
        c = np.sqrt(eta_a * eta_w) if rescaled else 1.0
        args = dict(mu=c * g["mu"], phi=g["phi"], b=c * g["b"], delta=g["delta"], eta_a=1.0,
                    eta_w=1.0)
        return np.maximum(_rel(unit["mu"](**args), c * g["dmu"]), _rel(unit["phi"](**args), g["dphi"]))

    return _rate_map("GRQ-Conv-WLOG", error,
                     (("unit-rate (19)-(20) read in mu = a||w||", False),
                      ("read in mu' = sqrt(eta_a eta_w) mu, beta*' (L324)", True)),
                     "rel. error of (mu', phi') rates", ROUND)


def _riccati_nu(t, nu0, b, delta, eta_a, eta_w):
    """nu(t) of nu' = eta_w b^2 - delta nu - eta_a nu^2 by linearisation: nu = u'/(eta_a u),
    u'' + delta u' - eta_a eta_w b^2 u = 0, u(0) = 1, u'(0) = eta_a nu0 (no sign change of a)."""
    root = np.sqrt(delta ** 2 + 4 * eta_a * eta_w * b ** 2)
    r_plus, r_minus = (-delta + root) / 2, (-delta - root) / 2
    A = (eta_a * nu0 - r_minus) / (r_plus - r_minus)
    decay = np.exp(-(r_plus - r_minus) * t)
    return (A * r_plus + (1 - A) * r_minus * decay) / (eta_a * (A + (1 - A) * decay))


def spec_eq26_27() -> MapSpec:
    """GRQ-Eq(26)-(27) (App A.2.3): the nu(t) solution, Eq. (27), over t in [0, 3]."""
    claim = REG["GRQ-Eq(26)-(27)"]
    t = np.linspace(0.0, 3.0, 16)[:, None, None]

    def error(f, eta_a, eta_w):
        g = _at_point(eta_a, eta_w)
        ref = _riccati_nu(t, g["nu"], g["b"], g["delta"], eta_a, eta_w)
        got = f(t=t, nu0=g["nu"], b=g["b"], delta=g["delta"], eta_a=eta_a, eta_w=eta_w)
        return np.max(_rel(got, ref), axis=0)

    return _rate_map("GRQ-Eq(26)-(27)", error,
                     (("printed Eq. (27) in a, w", form(claim.printed.solution)),
                      ("corrected (general rates)", form(claim.corrected.solution))),
                     "max over t in [0, 3] of the rel. error of nu(t)", 1e-10,
                     "the linearised Riccati equation at the given rates (nu = u'/(eta_a u))")


def _rate_spec(claim_id: str, parts: dict, quantity: str) -> MapSpec:
    """A map of printed and corrected rate equations d q/dt = rate against the chain rule; ``parts``
    maps the registry part (or "" for a bare form) to the reference key of :func:`_weights`."""
    claim = REG[claim_id]

    def side(obj):
        return {ref: form(obj if part == "" else obj[part]) for part, ref in parts.items()}

    def error(fs, eta_a, eta_w):
        g = _at_point(eta_a, eta_w)
        args = {**g, "eta_a": eta_a, "eta_w": eta_w}
        return np.max([_rel(f(**args), g[ref]) for ref, f in fs.items()], axis=0)

    return _rate_map(claim_id, error, (("printed (unit rates) in a, w", side(claim.printed)),
                                       ("corrected (general rates)", side(claim.corrected))),
                     quantity, ROUND)


def spec_eq28() -> MapSpec:
    """GRQ-Eq(28) (App A.2.3): a' = a(nu + delta - a^2)."""
    return _rate_spec("GRQ-Eq(28)", {"": "da"}, "rel. error of a'")


def spec_eq31_32() -> MapSpec:
    """GRQ-Eq(31)-(32) (App A.2.4): the v and omega rates (the worse of the two)."""
    return _rate_spec("GRQ-Eq(31)-(32)", {"v_rate": "dv", "omega_rate": "domega"},
                      "rel. error of v' and omega' (max)")


def spec_eq33() -> MapSpec:
    """GRQ-Eq(33) (App A.2.5): the separating surface of the basins, as the threshold on
    w0^T beta_* below which a changes sign (delta < 0; for delta >= 0 the basin is sgn(a0) in both)."""
    claim = REG["GRQ-Eq(33)"]
    point = dict(a=0.6, w1=-0.8, w2=1.2, b=0.5)

    def error(f, eta_a, eta_w):
        g = _at_point(eta_a, eta_w, **point)
        # reference: a changes sign iff eta_a nu0 < r_-, the smaller growth rate of the
        # linearised Eq. (26) (eigenvalues of its companion matrix)
        companion = np.zeros(eta_a.shape + (2, 2))
        companion[..., 0, 1] = 1.0
        companion[..., 1, 0] = eta_a * eta_w * g["b"] ** 2
        companion[..., 1, 1] = -g["delta"]
        r_minus = np.linalg.eigvals(companion).real.min(axis=-1)
        ref = g["a"] * r_minus / eta_a
        # the surface is f(omega0) = 0 and f is affine in omega0
        args = dict(a0=g["a"], b=g["b"], delta=g["delta"], eta_a=eta_a, eta_w=eta_w)
        f0, f1 = f(omega0=0.0, **args), f(omega0=1.0, **args)
        rel = np.abs(-f0 / (f1 - f0) - ref) / np.abs(ref)
        return np.where(g["delta"] < 0, rel, 0.0)

    return _rate_map("GRQ-Eq(33)", error, (("printed Eq. (33) in a0, w0", form(claim.printed)),
                                           ("corrected (general rates)", form(claim.corrected))),
                     "rel. error of the basin threshold on w0'beta*", 1e-10,
                     "the separatrix of the linearised Eq. (26): eta_a nu0 = r_-, the smaller "
                     "eigenvalue of its companion matrix", _fixed(**point) + "; 0 where delta >= 0")


def spec_eq34_35() -> MapSpec:
    """GRQ-Eq(34)-(35) (App A.2.6): a and ||w|| recovered from (mu, delta)."""
    claim = REG["GRQ-Eq(34)-(35)"]

    def error(side, eta_a, eta_w):
        g = _at_point(eta_a, eta_w)
        args = dict(mu=g["mu"], delta=g["delta"], eta_a=eta_a, eta_w=eta_w)
        return np.maximum(_rel(form(side.a)(**args), g["a"]), _rel(form(side.w_norm)(**args), g["w"]))

    return _rate_map("GRQ-Eq(34)-(35)", error, (("printed Eq. (34) in a, w", claim.printed),
                                                ("corrected (general rates)", claim.corrected)),
                     "rel. error of a and ||w|| (max)", ROUND, "the weights themselves")


# --- Thm 3.1: the implicit bias, GF limit against the printed argmin ------------------------------

#: App D.2's low-rank data (GRQ-Exp-D2): X^T X = [[.25, .5], [.5, 1]], beta_* = (.44, .88)
X_D2, Y_D2, BETA0_D2 = np.array([0.5, 1.0]), 1.1, np.array([0.4, 0.05])


def _gf_limit(c2, delta, t_end=400.0):
    """beta(t_end) of the Thm 3.1 flow on App D.2's data point, every grid point at once
    (:func:`numerics.rich_quick.implicit_bias_flow.gf_limit`)."""
    return gf_limit(c2, delta, X_D2, Y_D2, BETA0_D2, t_end)


def _argmin_on_line(objective, shape):
    """argmin over beta on x.beta = y of ``objective(beta)`` (beta: grid + (k, 2) -> grid + (k,)):
    a dense scan then golden-section refinement, every grid point at once."""
    x_hat = X_D2 / np.linalg.norm(X_D2)
    base, normal = Y_D2 * x_hat / np.linalg.norm(X_D2), np.array([-x_hat[1], x_hat[0]])

    def at(z):
        return objective(base + z[..., None] * normal)

    zs = np.linspace(-6.0, 6.0, 1201)
    k = np.argmin(at(np.broadcast_to(zs, shape + zs.shape)), axis=-1)
    lo, hi = zs[np.clip(k - 1, 0, zs.size - 1)], zs[np.clip(k + 1, 0, zs.size - 1)]
    ratio = (np.sqrt(5) - 1) / 2
    for _ in range(60):
        m1, m2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        left = at(m1[..., None])[..., 0] < at(m2[..., None])[..., 0]
        hi, lo = np.where(left, m2, hi), np.where(left, lo, m1)
    return base + ((lo + hi) / 2)[..., None] * normal


def spec_thm31() -> MapSpec:
    """GRQ-Thm3.1 (Sec 3 Eq. 5): the GF limit against the printed argmin, in the original beta at
    rates with product eta_a eta_w = c^2 (coarse grid: one flow per point)."""
    claim = REG["GRQ-Thm3.1"]
    Psi, psi, psi_c = form(claim.printed.Psi), form(claim.printed.psi), form(claim.corrected.psi)
    n0, b0_hat = np.linalg.norm(BETA0_D2), BETA0_D2 / np.linalg.norm(BETA0_D2)

    def limit_error(corrected, c2, delta):
        d, cc = delta[..., None], np.sqrt(c2)[..., None]

        def objective(beta):
            r = np.linalg.norm(beta, axis=-1)
            lin = beta @ b0_hat
            if corrected:
                return Psi(r=cc * r, delta=d) - psi_c(c=cc, n0=n0, delta=d) * cc * lin
            return Psi(r=r, delta=d) - psi(n0=n0, delta=d) * lin
        argmin = _argmin_on_line(objective, c2.shape)
        return np.linalg.norm(_gf_limit(c2, delta) - argmin, axis=-1)

    return MapSpec(
        "GRQ-Thm3.1",
        Axis("c2", r"$\eta_a\eta_w$", 0.1, 10.0, 9), Axis("delta", r"$\delta$", -3.0, 3.0, 9,
                                                           scale="linear"),
        (Field("printed Eq. (5) in beta", partial(limit_error, False)),
         Field("corrected (Psi(c beta), psi'(c))", partial(limit_error, True))),
        "|beta_GF(inf) - argmin|", Boundary(r"$\eta_a\eta_w = 1$ (the WLOG of App A.3 L450)",
                                            level=lambda c2, delta: 1.0 - c2),
        ("<=", 1e-6), "the gradient flow of beta (Eqs. 3-4, DOP853 rtol 1e-11 to t = 400)",
        fixed="App D.2 low-rank data: x = (0.5, 1), y = 1.1, beta0 = (0.4, 0.05)",
        marks=(Mark(0.25, -2.0, "check's counterexample (eta_a = 0.25, eta_w = 1)"),
               Mark(0.25, 2.0, "check's counterexample (eta_a = 0.25, eta_w = 1)")),
        search=False)


# --- conditions on dimensions: d >= 2, h >= 2 ------------------------------------------------------

def spec_cons_delta() -> MapSpec:
    """GRQ-Cons-delta (Sec 3 L58-65): the sheets of the level set eta_w a^2 - eta_a||w||^2 = delta
    in R^(1+d), and the printed d delta/dt (Eq. 13) at a point of it."""
    ddelta = form(REG["GRQ-Cons-delta"].printed)
    eta_a, eta_w, a, b = 0.3, 2.5, 1.0, 0.7

    def sheets(delta, d):
        # a ranges over one interval (delta <= 0) or two (|a| >= sqrt(delta/eta_w)); over each,
        # w runs over the sphere S^(d-1) of radius^2 (eta_w a^2 - delta)/eta_a: connected for
        # d >= 2, two points for d = 1 that meet only where the radius vanishes (delta >= 0)
        intervals = np.where(delta > 0, 2, 1)
        per = np.where((d >= 2) | (delta >= 0), 1, 2)
        stated = np.where(delta > 0, 2, 1)   # one sheet, double cone, two sheets
        return np.abs(intervals * per - stated).astype(float)

    def conservation(delta, d):
        w = np.sqrt((eta_w * a ** 2 - delta) / eta_a)
        w1, w2 = np.where(d >= 2, 0.6 * w, w), np.where(d >= 2, 0.8 * w, 0.0)
        scale = 2 * eta_a * eta_w * (a ** 2 * w ** 2 + abs(a * b) * np.abs(w1))
        return ddelta(a=a, w1=w1, w2=w2, b=b, eta_a=eta_a, eta_w=eta_w) / scale

    return MapSpec(
        "GRQ-Cons-delta",
        Axis("delta", r"$\delta$", -1.0, 1.0, 41, scale="linear"),
        Axis("d", "input dimension d", values=(1, 2, 3, 4), scale="discrete"),
        (Field("sheets stated (L58-65) vs counted", sheets),
         Field("printed d delta/dt (App A.1), relative", conservation)),
        "error of the printed statement", Boundary("d = 1.5 (the condition d >= 2)",
                                                   curve=((-1.0, 1.0), (1.5, 1.5))),
        ("<=", 1e-9), "the sheets counted from the a-intervals where ||w||^2 >= 0 and the "
        "connectedness of S^(d-1); the round-off of the conservation law",
        fixed=f"eta_a = {eta_a}, eta_w = {eta_w}")


def _inverse_M(beta, delta):
    """M(beta)^-1 of Eq. (4) at unit rates, by a matrix inverse (grid + (d, d))."""
    r2 = np.sum(beta ** 2, axis=-1)
    kappa = np.sqrt(delta ** 2 + 4 * r2)
    d = beta.shape[-1]
    M = ((kappa + delta) / 2)[..., None, None] * np.eye(d) + ((kappa - delta) / 2 / r2)[..., None, None] \
        * beta[..., :, None] * beta[..., None, :]
    return np.linalg.inv(M)


def _per_dimension(values, dims, one):
    """``one(values[rows], dim)`` on the grid rows of each dimension of the discrete axis ``dims``."""
    out = np.zeros_like(values)
    for dim in np.unique(dims).astype(int):
        rows = dims[:, 0] == dim
        out[rows] = one(values[rows], dim)
    return out


def spec_eq50_54() -> MapSpec:
    """GRQ-Eq(50)-(54) (App A.4.2): M^-1 is not a Hessian map, from 2f' + h != 0 (Eq. 54); the
    curl asymmetry max |d_k H_ij - d_j H_ik| of H = M^-1 must be > 0."""
    two_f_h = form(REG["GRQ-Eq(50)-(54)"].printed)
    direction = np.array([0.8, -0.5, 0.3, 0.6])

    def beta_of(d):
        v = direction[:d]
        return v / np.linalg.norm(v)

    def asymmetry(delta, dim):
        beta = np.broadcast_to(beta_of(dim), delta.shape + (dim,)).copy()
        h = 1e-5
        G = np.stack([(_inverse_M(beta + e, delta) - _inverse_M(beta - e, delta)) / (2 * h)
                      for e in h * np.eye(dim)], axis=-1)        # [..., i, j, k] = d_k H_ij
        return np.abs(G - np.swapaxes(G, -1, -2)).max(axis=(-3, -2, -1))

    def predicted(delta, dim):
        beta, eye = beta_of(dim), np.eye(dim)
        pattern = np.abs(beta[None, None, :] * eye[:, :, None] - beta[None, :, None] * eye[:, None, :])
        return np.abs(two_f_h(delta=delta, x=1.0)) * pattern.max()

    return MapSpec(
        "GRQ-Eq(50)-(54)",
        Axis("delta", r"$\delta$", -3.0, 3.0, 61, scale="linear"),
        Axis("d", "dimension d", values=(1, 2, 3, 4), scale="discrete"),
        (Field("curl asymmetry of M^-1 (finite differences)",
               lambda delta, d: _per_dimension(delta, d, asymmetry)),
         Field("predicted by Eq. (54): |2f'+h| max|b_k d_ij - b_j d_ik|",
               lambda delta, d: _per_dimension(delta, d, predicted))),
        "max |d_k H_ij - d_j H_ik| (not a Hessian where > 0)",
        Boundary("d = 1.5 (the condition d >= 2)", curve=((-3.0, 3.0), (1.5, 1.5))),
        (">", 1e-6), "M^-1 by a matrix inverse of Eq. (4) at unit rates, central differences h = 1e-5",
        fixed="||beta|| = 1, unit rates")


def spec_def_b7() -> MapSpec:
    """GRQ-DefB.7 (App B.2): W_l W_l^T = a a^T - delta I_h must be a Gram matrix (PSD)."""
    a_norm2 = 0.25

    def violation(delta, dim):
        a = np.zeros(dim)
        a[0] = np.sqrt(a_norm2)
        G = np.outer(a, a) - delta[..., None, None] * np.eye(dim)
        return np.maximum(0.0, -np.linalg.eigvalsh(G)[..., 0])

    return MapSpec(
        "GRQ-DefB.7",
        Axis("delta", r"$\delta$", -1.0, 1.0, 41, scale="linear"),
        Axis("h", "hidden width h", values=(1, 2, 3, 4, 5), scale="discrete"),
        (Field("required W_l W_l^T = a a^T - delta I_h",
               lambda delta, h: _per_dimension(delta, h, violation)),),
        "negative part of the smallest eigenvalue",
        Boundary(r"$\delta \leq 0$ for $h \geq 2$ ($\delta \leq ||a||^2$ at h = 1)",
                 curve=((a_norm2, a_norm2, 0.0, 0.0), (0.5, 1.5, 1.5, 5.5))),
        ("<=", 1e-12), "numpy eigvalsh", fixed=f"||a||^2 = {a_norm2}",
        marks=(Mark(0.5, 4, "check's counterexample (h = 4, delta = 0.5)"),))


# --- limits in delta ------------------------------------------------------------------------------

def spec_s3_regimes() -> MapSpec:
    """GRQ-Claim-S3-regimes (Sec 3 L71-77): the downstream reduced dynamics
    phi' = eta_a eta_w b^2 |delta|^-1 phi (1 - phi^2) on the slow manifold mu = phi ||beta_*||."""
    rhs = form(REG["GRQ-Claim-S3-regimes"].printed.rhs)
    phi = 0.5

    def error(minus_delta, b):
        delta = -minus_delta
        mu = phi * b
        exact = 2 * mu * b * (1 - phi ** 2) / (np.sqrt(delta ** 2 + 4 * mu ** 2) - delta)
        return np.abs(rhs(b=b, delta=delta, eta_a=1.0, eta_w=1.0, phi=phi) / exact - 1)

    return MapSpec(
        "GRQ-Claim-S3-regimes",
        Axis("minus_delta", r"$-\delta$", 1e-2, 1e3), Axis("b", r"$||\beta_*||$", 0.1, 10.0),
        (Field("printed delayed-alignment rate (delta << 0)", error),),
        "rel. error of phi'", Boundary(r"$|\delta| = 2||\beta_*||$ (crossover of $\kappa$)",
                                       level=lambda minus_delta, b: minus_delta - 2 * b),
        ("<=", 1e-2), "Eq. (17) on the slow manifold mu = phi ||beta_*||",
        fixed="phi = 0.5, eta_a = eta_w = 1")


def _regime(delta, scale):
    """+1, 0, -1 for delta above, within and below the crossover band |delta| <= 2 scale."""
    return np.where(delta > 2 * scale, 1, np.where(delta < -2 * scale, -1, 0))


def _by_regime(reg, minus, zero, plus):
    """At each grid point the value of its regime ``reg`` (-1, 0, +1 of :func:`_regime`)."""
    index, *values = np.broadcast_arrays(reg + 1, minus, zero, plus)
    return np.choose(index, values)


DELTA_AXIS = Axis("delta", r"$\delta$", -1e3, 1e3, 61, scale="symlog", linthresh=1e-2)


def spec_mlimits() -> MapSpec:
    """GRQ-Claim-Mlimits (Sec 3 L96): M ~ delta I (delta >> 0), sqrt(eta_a eta_w)||beta||
    (I + bb^T/||b||^2) (delta = 0), |delta| bb^T/||b||^2 (delta << 0), each in its regime."""
    p = REG["GRQ-Claim-Mlimits"].printed
    eta_a, eta_w = 0.3, 2.5
    forms_ = [tuple(form(e) for e in p[k]) for k in ("delta_to_minus_inf", "delta_zero",
                                                      "delta_to_plus_inf")]

    def error(delta, r):
        # reference: M = eta_w a^2 I + eta_a w w^T at the weights realising (beta, delta)
        a2 = (delta + np.sqrt(delta ** 2 + 4 * eta_a * eta_w * r ** 2)) / (2 * eta_w)
        perp, along = eta_w * a2, eta_w * a2 + eta_a * r ** 2 / a2
        reg = _regime(delta, np.sqrt(eta_a * eta_w) * r)
        args = dict(delta=delta, r=r, eta_a=eta_a, eta_w=eta_w)
        got = [_by_regime(reg, *(f[i](**args) for f in forms_)) for i in (0, 1)]
        return np.sqrt((got[0] - perp) ** 2 + (got[1] - along) ** 2) / np.sqrt(perp ** 2 + along ** 2)

    return MapSpec(
        "GRQ-Claim-Mlimits", DELTA_AXIS, Axis("r", r"$||\beta||$", 1e-2, 1e2),
        (Field("printed limit of the regime", error),),
        "rel. error of M (Frobenius, d = 2)",
        Boundary(r"$|\delta| = 2\sqrt{\eta_a\eta_w}||\beta||$ (regime crossovers)",
                 level=lambda delta, r: np.abs(delta) - 2 * np.sqrt(eta_a * eta_w) * r),
        ("<=", 1e-2), "M = eta_w a^2 I + eta_a w w^T (Eq. 3) at the weights realising (beta, delta)",
        fixed=f"eta_a = {eta_a}, eta_w = {eta_w}; form of the regime: delta > 2c||b||: +oo, "
              "|delta| <= 2c||b||: 0, below: -oo")


def spec_eq92_96() -> MapSpec:
    """GRQ-Eq(92)-(96) (App B.1.2): the inverted funnel's M = p P + i I_c (h = d = 1) against the
    limit forms of Eq. (96), each in its regime."""
    claim = REG["GRQ-Eq(92)-(96)"]
    eta_a, eta_w, c_out = 0.3, 2.5, 3
    exact = {k: form(v) for k, v in claim.printed["M"].items()}

    def limits(minus):
        """The forms of the regimes -oo (``minus``), 0 and +oo."""
        return [{part: form(v) for part, v in dict(t).items()}
                for t in (minus, claim.printed["0"], claim.printed["+oo"])]

    def error(fs, delta, r2):
        args = dict(delta=delta, r2=r2, eta_a=eta_a, eta_w=eta_w)
        p, i = exact["P"](**args), exact["I"](**args)
        reg = _regime(delta, np.sqrt(eta_a * eta_w * r2))
        gp, gi = (_by_regime(reg, *(f[part](**args) for f in fs)) for part in ("P", "I"))
        # M = p P + i I_c with P a rank-one projector: Frobenius norms over the c eigenvalues
        num = np.sqrt((gp + gi - p - i) ** 2 + (c_out - 1) * (gi - i) ** 2)
        return num / np.sqrt((p + i) ** 2 + (c_out - 1) * i ** 2)

    return MapSpec(
        "GRQ-Eq(92)-(96)", DELTA_AXIS, Axis("r2", r"$||\beta||^2$", 1e-3, 1e3),
        (Field("printed Eq. (96), form of the regime", partial(error, limits(claim.printed["-oo"]))),
         Field("corrected (|delta| I_c as delta -> -oo)",
               partial(error, limits(claim.corrected["-oo"])))),
        "rel. error of M (Frobenius)",
        Boundary(r"$|\delta| = 2\sqrt{\eta_a\eta_w}||\beta||$ (regime crossovers)",
                 level=lambda delta, r2: np.abs(delta) - 2 * np.sqrt(eta_a * eta_w * r2)),
        ("<=", 1e-2), "Eq. (95) (exact; checked against the parameter M by the claim's check)",
        fixed=f"h = d = 1, c = {c_out}, eta_a = {eta_a}, eta_w = {eta_w}")


def _gram_function(eigvecs, eigvals, f):
    """V f(lambda) V^T over the grid: ``eigvals`` grid + (k,), ``eigvecs`` (k, k) fixed."""
    return np.einsum("ik,...k,jk->...ij", eigvecs, f(eigvals), eigvecs)


def _kron_sum(F1, F2):
    """F1 (x) I + I (x) F2 over the grid."""
    n1, n2 = F1.shape[-1], F2.shape[-1]
    return (np.einsum("...ij,kl->...ikjl", F1, np.eye(n2)) + np.einsum("ij,...kl->...ikjl", np.eye(n1), F2)
            ).reshape(F1.shape[:-2] + (n1 * n2, n1 * n2))


def spec_eq102() -> MapSpec:
    """GRQ-Eq(102) (App B.1.3): the square network's M (Delta = delta I) against its printed
    limits delta -> +-oo (delta I) and delta = 0, each in its regime."""
    claim = REG["GRQ-Eq(102)"]
    eta_a, eta_w = 0.5, 2.0
    c = eta_a * eta_w
    base = np.array([[1.0, 0.4], [-0.3, 0.6]])
    base /= np.linalg.norm(base, 2)
    lam_btb, V_btb = np.linalg.eigh(base.T @ base)
    lam_bbt, V_bbt = np.linalg.eigh(base @ base.T)
    grams = {"btb": (V_btb, lam_btb), "bbt": (V_bbt, lam_bbt)}

    def zero_form(spec, s):
        def side(f, g):
            V, lam = grams[g]
            fn = form(f)
            return _gram_function(V, s[..., None] ** 2 * lam,
                                  lambda x: np.broadcast_to(fn(x=x, eta_a=eta_a, eta_w=eta_w), x.shape))
        return _kron_sum(side(spec.left, spec.left_gram), side(spec.right, spec.right_gram))

    def error(table, delta, s):
        # reference: M = sqrt(c beta^T beta + delta^2/4) (x) I + I (x) sqrt(c beta beta^T + delta^2/4),
        # the Kronecker sum eta_w A^T A (+) eta_a W^T W of the weights with Delta = delta I
        root = lambda x: np.sqrt(c * x + delta[..., None] ** 2 / 4)   # noqa: E731
        M = _kron_sum(_gram_function(V_btb, s[..., None] ** 2 * lam_btb, root),
                      _gram_function(V_bbt, s[..., None] ** 2 * lam_bbt, root))
        reg = _regime(delta, np.sqrt(c) * (s * np.sqrt(lam_btb.max())))
        eye = np.eye(M.shape[-1])
        minus, plus = (form(table[k])(delta=delta)[..., None, None] * eye for k in ("-oo", "+oo"))
        approx = _by_regime(reg[..., None, None], minus, zero_form(table["0"], s), plus)
        return np.linalg.norm(approx - M, axis=(-2, -1)) / np.linalg.norm(M, axis=(-2, -1))

    return MapSpec(
        "GRQ-Eq(102)", DELTA_AXIS, Axis("s", r"$||\beta||_2$", 1e-2, 1e2),
        (Field("printed Eq. (102), form of the regime", partial(error, claim.printed)),
         Field("corrected (|delta| I; sqrt grams)", partial(error, claim.corrected))),
        "rel. error of M (Frobenius)",
        Boundary(r"$|\delta| = 2\sqrt{\eta_a\eta_w}||\beta||_2$ (regime crossovers)",
                 level=lambda delta, s: np.abs(delta) - 2 * np.sqrt(c) * s),
        ("<=", 1e-2), "M of the square network with Delta = delta I (Lemma B.3, Eqs. 97-99)",
        fixed=f"d = h = c = 2, eta_a = {eta_a}, eta_w = {eta_w}")


SPECS = {
    "GRQ-Conv-WLOG": spec_conv_wlog, "GRQ-Eq(26)-(27)": spec_eq26_27, "GRQ-Eq(28)": spec_eq28,
    "GRQ-Eq(31)-(32)": spec_eq31_32, "GRQ-Eq(33)": spec_eq33, "GRQ-Eq(34)-(35)": spec_eq34_35,
    "GRQ-Thm3.1": spec_thm31, "GRQ-Cons-delta": spec_cons_delta, "GRQ-Eq(50)-(54)": spec_eq50_54,
    "GRQ-DefB.7": spec_def_b7, "GRQ-Claim-S3-regimes": spec_s3_regimes,
    "GRQ-Claim-Mlimits": spec_mlimits, "GRQ-Eq(92)-(96)": spec_eq92_96, "GRQ-Eq(102)": spec_eq102,
}
