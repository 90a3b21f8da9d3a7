"""Evidence of the conventions and of the single-neuron model in parameter space (rich_quick
Sec. 1, Sec. 3 L52-65, App. A L276-308): loss and clock, the NTK, the kernel distance, delta,
the minima, conservation and the span.  Each function takes the forms under test and returns
measurements; flows come from ``numerics.rich_quick.single_neuron`` (time is gradient-flow time t).
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from numerics.rich_quick import formula_errors as fe
from numerics.rich_quick import single_neuron as sn
from numerics.rich_quick import single_neuron_paths as sns
from theory.conventions import convention, flow_time
from theory.rich_quick import single_neuron_symbols as S
from theory.rich_quick.single_neuron_exact import MU_PHI_ODE
from theory.rich_quick.single_neuron_model import ntk_expression
from verify.measurement import exact, measure, reading
from verify.properties import search
from verify.rich_quick.evidence import single_neuron as chk
from verify.rich_quick.evidence.searches import worst
from verify.rich_quick.single_neuron_strategies import weight_points

#: the general setting: non-whitened X (5 x 3), unequal rates with product != 1, ||beta_*|| != 1
DATA = np.random.default_rng(7)
X = DATA.standard_normal((5, 3))
Y = DATA.standard_normal(5) * 1.7
ETA_A, ETA_W = 0.3, 2.5


def registered_shape(K) -> tuple[int, int]:
    """(n, d) of an NTK matrix in the symbols x_i_j (input i, coordinate j) and w_j."""
    return K.shape[0], sum(1 for s in K.free_symbols if s.name.startswith("w_"))


def as_ntk(K):
    """A numpy callable (X, a, w, eta_a, eta_w) of an NTK matrix in x_i_j, w_j, a, eta_a, eta_w."""
    n, d = registered_shape(K)
    by = {s.name: s for s in K.free_symbols}
    xs = [by.get(f"x_{i}_{j}", sp.Symbol(f"x_{i}_{j}")) for i in range(n) for j in range(d)]
    ws = [by.get(f"w_{j}", sp.Symbol(f"w_{j}")) for j in range(d)]
    extra = [by.get(k, sym) for k, sym in (("a", S.a), ("eta_a", S.eta_a), ("eta_w", S.eta_w))]
    f = sp.lambdify([*extra, xs, ws], K, "numpy")
    return lambda X, a, w, ea, ew: np.asarray(f(a, ea, ew, list(X.ravel()), list(w)), float)


def ntk_against_autograd(registered) -> list:
    """GRQ-Eq(1), Eq(10)-(12): the printed NTK (for each shape, and the ``registered`` matrices)
    against the rate-weighted autograd NTK."""
    errs = []
    for n, d in [(4, 2), (5, 3), (3, 6), registered_shape(registered[0])]:  # non-square both ways
        rng = np.random.default_rng(n * d)
        Xd, a, w = rng.standard_normal((n, d)), rng.standard_normal() * 1.3, rng.standard_normal(d)
        ref = sn.ntk_autograd(Xd, a, w, ETA_A, ETA_W)
        forms = [as_ntk(ntk_expression(n, d)[0])] + [as_ntk(K) for K in registered
                                                     if registered_shape(K) == (n, d)]
        errs += [np.linalg.norm(f(Xd, a, w, ETA_A, ETA_W) - ref) / np.linalg.norm(ref) for f in forms]
    return [measure("max rel err, Eq. (1) vs rate-weighted autograd NTK", max(errs), "<=", 1e-12,
                    source=reading("both sides are float64 evaluations of the same bilinear form"))]


def weight_flow_against_autograd(rhs, rng) -> list:
    """GRQ-Eq(10)-(12): the weight flow ``rhs`` (Eqs. 11-12, a factory of (X, y, eta_a, eta_w))
    against -eta times the torch-autograd gradient of the 1/2-sum loss, at a = 0.8 and w drawn
    from ``rng``, on the module's data and rates."""
    err = fe.weight_flow_error(rhs, X, Y, 0.8, rng.standard_normal(3), ETA_A, ETA_W)
    return [measure("max abs err, Eqs. (11)-(12) vs -eta * autograd grad of the 1/2-sum loss", err,
                    "<=", 1e-12, source=reading("float64 evaluations of the same gradient"))]


def gd_follows_the_flow(printed_loss, rng) -> list:
    """GRQ-Conv-GF: the printed 1/2-sum loss is the suite's training loss, and GD at lr for
    t/lr steps follows the flow at time t to first order in lr."""
    a0, w0 = 0.5, rng.standard_normal(3) * 0.4
    t_end = 2.0
    ref = sn.integrate(X, Y, a0, w0, t_end, eta_a=1.0, eta_w=1.0, t_eval=[0, t_end])
    beta_ref = ref.states["a"][-1] * ref.states["w"][:, -1]
    errs = {}
    for lr in (2e-3, 1e-3):
        steps = int(round(t_end / lr))
        a, w = sn.gradient_descent(X, Y, a0, w0, lr, steps)
        t = float(flow_time(steps, lr, X.shape[0], "rich_quick"))
        errs[lr] = (abs(t - t_end), np.linalg.norm(a * w - beta_ref) / np.linalg.norm(beta_ref))
    printed = printed_loss.doit()
    named = {s.name: s for s in printed.free_symbols}
    third = sp.Rational(1, 3)
    gap = sp.simplify(printed.subs({named["n"]: 5, named["f_i"]: S.r + third, named["y_i"]: third})
                      - convention("rich_quick").train.factor(5) * 5 * S.r ** 2)
    return [measure("printed loss (1/2) sum (f_i - y_i)^2 minus the suite's rich_quick training "
                    "loss, 5 equal residuals r (f_i = r + 1/3, y_i = 1/3)", str(gap), "==", "0",
                    source=exact("sympy")),
            measure("|flow_time('rich_quick') - lr*steps|", max(e[0] for e in errs.values()),
                    "<=", 1e-12, source=reading("float64 round-off of a product")),
            measure("rel err of beta, GD at lr 1e-3 vs flow at t = lr*steps", errs[1e-3][1], "<=",
                    2e-2, source=reading("first-order discretisation error ~ lr * t")),
            measure("error ratio lr 2e-3 / lr 1e-3 (first order: 2)",
                    errs[2e-3][1] / errs[1e-3][1], "within", (1.6, 2.4),
                    source=reading("first order in lr, 20% slack"))]


def function_moves_by_the_ntk(rng) -> list:
    """GRQ-Def-NTK: d f(x)/dt = -sum_i Theta(x, x_i) rho_i along the flow (central differences
    of the dense output)."""
    a0, w0 = 0.7, rng.standard_normal(3)
    x_test = rng.standard_normal((2, 3))
    flow = sn.integrate(X, Y, a0, w0, 1.0, eta_a=ETA_A, eta_w=ETA_W, t_eval=[0, 1.0])
    errs = []
    for t in (0.1, 0.5, 0.9):
        h = 1e-5
        f = [x_test @ (p["a"] * p["w"]) for p in (flow.at(t + h), flow.at(t - h))]
        p = flow.at(t)
        K = sn.ntk_autograd(np.vstack([x_test, X]), p["a"], p["w"], ETA_A, ETA_W)[:2, 2:]
        pred = -K @ (X @ (p["a"] * p["w"]) - Y)
        errs.append(np.max(np.abs((f[0] - f[1]) / (2 * h) - pred)) / np.max(np.abs(pred)))
    return [measure("max rel err, d f(x)/dt vs -sum_i Theta(x, x_i) rho_i", max(errs), "<=", 1e-6,
                    source=reading("central difference h = 1e-5 (error ~h^2) of the rtol-1e-12 "
                                   "dense output"))]


def kernel_distance_properties() -> list:
    """GRQ-Def-KD: S in [0, 1] for PSD pairs; with whitened X it is computable from M alone."""
    rng = np.random.default_rng(3)
    vals, gaps = [], []
    for _ in range(200):
        A, B = rng.standard_normal((2, 6, 4))
        vals.append(float(sn.kernel_distance(A @ A.T, B @ B.T)))
    Xw = np.linalg.qr(rng.standard_normal((6, 3)))[0]
    for _ in range(50):
        (a1, a2), w_1, w_2 = rng.standard_normal(2), rng.standard_normal(3), rng.standard_normal(3)
        M1, M2 = sn.preconditioner(a1, w_1, ETA_A, ETA_W), sn.preconditioner(a2, w_2, ETA_A, ETA_W)
        gaps.append(abs(sn.kernel_distance(Xw @ M1 @ Xw.T, Xw @ M2 @ Xw.T)
                        - sn.kernel_distance(M1, M2)))
    roundoff = reading("float64 round-off")
    return [measure("S over 200 random PSD pairs", np.array(vals), "within", (-1e-15, 1 + 1e-15),
                    source=roundoff),
            measure("max |S(X M1 X^T, X M2 X^T) - S(M1, M2)|, whitened X, 50 pairs", max(gaps),
                    "<=", 1e-13, source=roundoff)]


def delta_definition(printed_delta) -> list:
    """GRQ-Def-delta: the printed delta is numerics' delta_of; the Fig. 1 init gives
    delta = tau^2 (alpha^2 - alpha^-2); upstream / downstream name its sign."""
    rng = np.random.default_rng(11)
    errs = []
    for tau, delta in [(0.1, 0.0), (2.0, 0.0), (0.1, 1.0), (0.1, -1.0), (0.7, 0.3)]:
        alpha2 = (delta / tau ** 2 + np.sqrt(delta ** 2 / tau ** 4 + 4)) / 2
        w = rng.standard_normal(5)
        w *= np.sqrt(1 / alpha2) * tau / np.linalg.norm(w)   # Unif(S^{d-1}(tau/alpha))
        a = tau * np.sqrt(alpha2)
        errs.append(abs(sn.delta_of(a, w) - delta))
        errs.append(abs(tau ** 2 * (alpha2 - 1 / alpha2) - delta))
    a, w = 1.3, rng.standard_normal(4)
    # upstream = first layer small relative to second: delta > 0 iff eta_w a^2 > eta_a ||w||^2
    names_ok = ((sn.delta_of(a, w * 0.1, ETA_A, ETA_W) > 0)
                and (sn.delta_of(a * 0.01, w, ETA_A, ETA_W) < 0))
    printed = sp.lambdify([S.a, S.w1, S.w2, S.eta_a, S.eta_w], printed_delta)
    form_gap = max(abs(printed(a_, *v, ea, ew) - sn.delta_of(a_, v, ea, ew))
                   for a_, v, ea, ew in ((1.3, (0.2, -0.7), ETA_A, ETA_W), (0.4, (1.1, 0.5), 1, 1)))
    return [measure("|printed eta_w a^2 - eta_a ||w||^2 - numerics delta_of| at two points",
                    form_gap, "<=", 1e-14, source=reading("float64 round-off")),
            measure("max err of delta = tau^2(alpha^2 - alpha^-2) at the Fig. 1 init |a| = tau "
                    "alpha, ||w|| = tau/alpha, alpha^2 = (delta/tau^2 + sqrt(delta^4/tau^4 + 4))/2",
                    max(errs), "<=", 1e-12, source=reading("float64 round-off")),
            measure("delta > 0 for a small first layer and < 0 for a small readout (upstream / "
                    "downstream names)", bool(names_ok), "==", True, source=exact("sign test"))]


def minima_and_saddles(rng) -> list:
    """GRQ-Claim-Minima: the minima are a w = beta_* on both branches, a = 0 with w^T X^T y = 0 is
    a strict saddle, and flows from random inits reach beta_*."""
    G, r = X.T @ X, X.T @ Y
    beta_star = np.linalg.solve(G, r)

    def grad(a, w):
        g = G @ (a * w) - r
        return np.concatenate([[w @ g], a * g])

    def hessian(a, w, h=1e-6):
        th = np.concatenate([[a], w])
        return np.stack([(grad(*np.split(th + h * e, [1])) - grad(*np.split(th - h * e, [1])))
                         / (2 * h) for e in np.eye(4)]).reshape(4, 4)
    at_minima = max(np.linalg.norm(grad(s, beta_star / s)) for s in (-2.0, -0.3, 0.5, 3.0))
    w_saddle = np.cross(r, rng.standard_normal(3))            # w^T X^T y = 0
    g_nonsaddle = np.linalg.norm(grad(0.0, rng.standard_normal(3)))
    eig = np.linalg.eigvalsh(hessian(0.0, w_saddle))
    ends = [np.linalg.norm(sn.flow_end(X, Y, s, 300.0, ETA_A, ETA_W) - beta_star)
            for s in range(100, 106)]
    roundoff = reading("float64 round-off of a vanishing gradient")
    return [measure("max |grad| on a w = beta_*, 4 points on both branches", at_minima, "<=",
                    1e-10, source=roundoff),
            measure("|grad| at a = 0, w^T X^T y = 0", np.linalg.norm(grad(0.0, w_saddle)), "<=",
                    1e-10, source=roundoff),
            measure("|grad| at a = 0 with w^T X^T y != 0 (not critical)", g_nonsaddle, ">", 1e-3,
                    source=reading("well above round-off")),
            measure("Hessian eigenvalues at the saddle: (min, -max) both negative",
                    np.array([eig.min(), -eig.max()]), "<", -1e-6,
                    source=reading("central-difference Hessian, h = 1e-6")),
            measure("max ||beta(300) - beta_*|| over 6 random inits", max(ends), "<=", 1e-6,
                    source=reading("solve_ivp rtol 1e-10 at t = 300, convergence ~e^-t"))]


def delta_conserved_symbolically(eq13_delta, printed_rate) -> list:
    """GRQ-Cons-delta, Eq(13): d/dt of Eq. (13)'s delta (``eq13_delta``) along the whitened flow
    Eqs. (14)-(15), 2 eta_w a a' - 2 eta_a w^T w' for a generic gradient vector (any X, y, rates),
    and the printed d delta/dt along the whitened flow (``printed_rate``) all expand to 0."""
    g = sp.Matrix(sp.symbols("g1:4", real=True))       # any gradient X^T(X beta - y)
    w = sp.Matrix(sp.symbols("u1:4", real=True))
    a_dot, w_dot = -S.eta_a * (w.T * g)[0], -S.eta_w * S.a * g
    d_delta = 2 * S.eta_w * S.a * a_dot - 2 * S.eta_a * (w.T * w_dot)[0]
    expand = exact("sympy expand")
    return [measure("d/dt of Eq. (13)'s delta along the whitened flow expands to 0",
                    sp.expand(fe.flow_rate(eq13_delta)) == 0, "==", True, source=expand),
            measure("2 eta_w a a' - 2 eta_a w^T w' for a generic gradient vector (any X, y, rates) "
                    "expands to 0", sp.expand(d_delta) == 0, "==", True, source=expand),
            measure("d delta/dt along the whitened flow Eqs. (14)-(15) expands to 0",
                    sp.expand(printed_rate) == 0, "==", True, source=expand)]


def delta_drift_along_flows() -> list:
    """GRQ-Cons-delta, Eq(13): delta's drift along integrated flows at three rate pairs."""
    drifts = [sn.flow_drift(X, Y, k, 50.0, ea, ew)
              for k, (ea, ew) in enumerate([(ETA_A, ETA_W), (4.0, 0.2), (1.0, 1.0)])]
    return [measure("max drift of delta relative to max(1, |delta0|)", max(drifts), "<=", 1e-9,
                    source=reading("integrator rtol 1e-12 over t = 50"))]


def surface_sheets() -> tuple[dict, dict]:
    """GRQ-Cons-delta: Fig. 2's sheets from the connected components of grid samples of the
    conserved surfaces (``single_neuron.surface_components``): (measurements per dimension d,
    the component counts by (delta, d))."""
    words = {-0.5: ("one-sheeted hyperboloid", 1), 0.0: ("double cone", 1),
             0.5: ("two-sheeted hyperboloid", 2)}
    counts = {(dl, d): sn.surface_components(dl, d, ETA_A, ETA_W) for dl in words for d in (1, 2)}
    source = exact("the sheets L58 names ('constrains the trajectory to: (a) a one-sheeted "
                   "hyperboloid for downstream initializations, (b) a double cone ..., (c) a "
                   "two-sheeted hyperboloid') counted as connected components of grid samples")
    return {d: [measure(f"connected components at delta = {dl}, d = {d} ({name})",
                        counts[(dl, d)], "==", n, source=source)
                for dl, (name, n) in words.items()] for d in (1, 2)}, counts


def span_and_decay() -> list:
    """GRQ-Claim-Span: w stays in span{w0, beta_*}, its part orthogonal to beta_* decays as
    exp(-eta_w int a^2), and w aligns with +-beta_* (d = 4 whitened flows, three rate pairs)."""
    worst_plane, worst_decay, worst_align = 0.0, 0.0, 0.0
    for k, (ea, ew) in enumerate([(ETA_A, ETA_W), (2.0, 0.5), (1.0, 1.0)]):
        rng = np.random.default_rng(20 + k)
        bs = rng.standard_normal(4) * 1.6
        Xw, y = sns.whitened_data(bs, seed=k)
        a0, w0 = abs(rng.standard_normal()) + 0.3, rng.standard_normal(4)
        flow = sn.integrate_with_a_sq_integral(Xw, y, a0, w0, 60.0, eta_a=ea, eta_w=ew,
                                               t_eval=np.linspace(0, 60, 121))
        basis = np.linalg.qr(np.column_stack([w0, bs]))[0]
        W = flow.states["w"]
        worst_plane = max(worst_plane, np.max(np.linalg.norm(W - basis @ (basis.T @ W), axis=0))
                          / np.linalg.norm(w0))
        P = np.eye(4) - np.outer(bs, bs) / (bs @ bs)
        pred = (P @ w0)[:, None] * np.exp(-ew * flow.states["A"])[None, :]
        worst_decay = max(worst_decay, np.max(np.abs(P @ W - pred)) / np.linalg.norm(w0))
        _, phi = sn.mu_phi(flow.states["a"], W, bs)
        worst_align = max(worst_align, 1 - abs(phi[-1]))
    tol = reading("integrator rtol 1e-12 over t = 60")
    return [measure("max out-of-span{w0, beta_*} norm of w(t) / ||w0||", worst_plane, "<=", 1e-10,
                    source=tol),
            measure("max |P_perp w(t) - exp(-eta_w int a^2) P_perp w0| / ||w0||", worst_decay,
                    "<=", 1e-10, source=tol),
            measure("1 - |phi(60)| (w aligned to +-beta_*)", worst_align, "<=", 1e-8,
                    source=reading("exponential alignment by t = 60"))]


def general_flow_in_plane() -> dict:
    """Eqs. (11)-(12) with X^T X = I and X^T y = beta_* = (b, 0), in the plane coordinates."""
    grad = sp.Matrix([S.a * S.w1 - S.b, S.a * S.w2])
    w = sp.Matrix([S.w1, S.w2])
    a_dot = -S.eta_a * (w.T * grad)[0]
    w_dot = -S.eta_w * S.a * grad
    return {S.a: a_dot, S.w1: w_dot[0], S.w2: w_dot[1]}


def whitened_flow_is_general(printed) -> list:
    """GRQ-Eq(14)-(15): the whitened flow (``printed``, keyed by a, w1, w2) against
    :func:`general_flow_in_plane`, general rates, 30 digits."""
    return [worst("worst |Eqs. (14)-(15) - Eqs. (11)-(12) with X^T X = I, X^T y = beta_*| at 30 "
                  "digits, general rates", chk.hp_abs_max,
                  [printed[s] - f for s, f in general_flow_in_plane().items()],
                  criterion=("<=", 1e-25), source=reading("30-digit round-off"), p=weight_points())]


def rates_through_product(printed) -> list:
    """GRQ-Conv-WLOG: the rates enter Eqs. (16)-(17) only through eta_a eta_w and delta (in
    mu' = c mu, b' = c b they are Eqs. (16)-(17) at the printed product ``printed``, an Eq in
    eta_a, eta_w), and the beta dynamics only through M(beta, delta)."""
    named = {s.name: s for s in printed.free_symbols}
    eta_w_one = sp.solve(printed, named["eta_w"])[0].subs(named["eta_a"], S.eta_a)
    c = sp.sqrt(S.eta_a * S.eta_w)
    mu_p, b_p = sp.symbols("mu_p b_p", real=True)
    primed, prime = {S.mu: mu_p / c, S.b: b_p / c}, {S.mu: mu_p, S.b: b_p}
    lhs = (c * MU_PHI_ODE[S.mu].subs(primed), MU_PHI_ODE[S.phi].subs(primed))
    rhs = tuple(MU_PHI_ODE[k].subs({S.eta_w: eta_w_one}).subs(prime) for k in (S.mu, S.phi))
    res = search(lambda p: max(fe.hp_abs(l_ - r_, {**p, "mu_p": p["a"] * p["w1"], "b_p": p["b"],
                                                    "phi": 0.3, "delta": p["w2"]})
                               for l_, r_ in zip(lhs, rhs)), ("<=", 1e-20), p=weight_points())
    return [measure("worst |(16)-(17) at general rates in mu' = c mu, b' = c b - (16)-(17) at the "
                    "printed eta_a eta_w = 1|", res, source=reading(chk.HP_WHY)),
            measure("largest |M - M at rates (2 eta_a, eta_w / 2)| over inits with one beta and "
                    "delta (beta dynamics through the product only)",
                    fe.rate_pair_preconditioner_gap(), "<=", 1e-12,
                    source=reading("float64 round-off of M"))]
