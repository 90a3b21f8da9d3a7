"""Conventions and the single-neuron model in parameter space (rich_quick Sec 1, Sec 3 L52-65,
App A L276-308): loss/clock, NTK, kernel distance, delta, minima, conservation, span."""
import numpy as np
import pytest
import sympy as sp
import torch
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from numerics.rich_quick import single_neuron as sn
from theory.conventions import convention, flow_time
from theory.registry import REGISTRY
from theory.rich_quick import single_neuron_symbols as S
from theory.rich_quick.single_neuron_model import ntk_expression
from verify.measurement import exact, paper, reading
from verify.properties import search
from verify.rich_quick import single_neuron_checks as chk
from verify.rich_quick.single_neuron_strategies import weight_points

# General setting: non-whitened X (5 x 3), unequal rates with product != 1, ||beta_*|| != 1.
DATA = np.random.default_rng(7)  # the module's fixed data, drawn at import
X = DATA.standard_normal((5, 3))
Y = DATA.standard_normal(5) * 1.7
ETA_A, ETA_W = 0.3, 2.5


def autograd_ntk(X, a, w, eta_a, eta_w):
    """Theta(x_i, x_j) = sum_p eta_p d_p f(x_i) d_p f(x_j) by torch autograd (float64)."""
    Xt = torch.as_tensor(X, dtype=torch.float64)
    at = torch.tensor(float(a), dtype=torch.float64, requires_grad=True)
    wt = torch.as_tensor(w, dtype=torch.float64).clone().requires_grad_(True)
    rows = []
    for i in range(Xt.shape[0]):
        ga, gw = torch.autograd.grad(at * (wt @ Xt[i]), (at, wt))
        rows.append(torch.cat([ga.reshape(1) * np.sqrt(eta_a), gw * np.sqrt(eta_w)]))
    J = torch.stack(rows)
    return (J @ J.T).numpy()


def printed_ntk(n, d):
    return as_ntk(ntk_expression(n, d)[0])


def registered_shape(K) -> tuple[int, int]:
    """(n, d) of an NTK matrix in the symbols x_i_j (input i, coordinate j) and w_j."""
    names = {s.name for s in K.free_symbols}
    d = sum(1 for nm in names if nm.startswith("w_"))
    return K.shape[0], d


def as_ntk(K):
    """A numpy callable (X, a, w, eta_a, eta_w) of an NTK matrix in x_i_j, w_j, a, eta_a, eta_w."""
    n, d = registered_shape(K)
    by = {s.name: s for s in K.free_symbols}
    xs = [by.get(f"x_{i}_{j}", sp.Symbol(f"x_{i}_{j}")) for i in range(n) for j in range(d)]
    ws = [by.get(f"w_{j}", sp.Symbol(f"w_{j}")) for j in range(d)]
    extra = [by.get(k, sym) for k, sym in (("a", S.a), ("eta_a", S.eta_a), ("eta_w", S.eta_w))]
    f = sp.lambdify([*extra, xs, ws], K, "numpy")
    return lambda X, a, w, ea, ew: np.asarray(f(a, ea, ew, list(X.ravel()), list(w)), float)


@pytest.mark.claim("GRQ-Eq(1)", "GRQ-Eq(10)-(12)")
def test_printed_ntk_equals_autograd_ntk(claim):
    errs = []
    registered = [REGISTRY[cid].printed for cid in ("GRQ-Eq(1)", "GRQ-Eq(10)-(12)")]
    for n, d in [(4, 2), (5, 3), (3, 6), registered_shape(registered[0])]:  # non-square both ways
        rng = np.random.default_rng(n * d)
        Xd, a, w = rng.standard_normal((n, d)), rng.standard_normal() * 1.3, rng.standard_normal(d)
        ref = autograd_ntk(Xd, a, w, ETA_A, ETA_W)
        forms = [printed_ntk(n, d)] + [as_ntk(K) for K in registered if K.shape == (n, n)
                                       and registered_shape(K) == (n, d)]
        errs += [np.linalg.norm(f(Xd, a, w, ETA_A, ETA_W) - ref) / np.linalg.norm(ref) for f in forms]
    claim.holds(claim.measure("max rel err, Eq. (1) vs rate-weighted autograd NTK", max(errs), "<=",
                              1e-12, source=reading("both sides are float64 evaluations of the same "
                                                    "bilinear form")),
                note=f"eta_a={ETA_A}, eta_w={ETA_W}, (n, d) in (4, 2), (5, 3), (3, 6)")


@pytest.mark.claim("GRQ-Eq(10)-(12)")
def test_weight_flow_is_rate_weighted_gradient_of_half_sum_loss(claim, rng):
    err = chk.weight_flow_error(sn.weight_rhs, X, Y, 0.8, rng.standard_normal(3), ETA_A, ETA_W)
    claim.holds(claim.measure("max abs err, Eqs. (11)-(12) vs -eta * autograd grad of the 1/2-sum "
                              "loss", err, "<=", 1e-12,
                              source=reading("float64 evaluations of the same gradient")),
                note=f"5x3 non-whitened X, eta_a={ETA_A}, eta_w={ETA_W}")


@pytest.mark.claim("GRQ-Conv-GF")
def test_gradient_descent_steps_follow_the_flow_at_t_equals_lr_times_steps(claim, rng):
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
    ratio = errs[2e-3][1] / errs[1e-3][1]
    printed = REGISTRY["GRQ-Conv-GF"].printed.doit()
    named = {s.name: s for s in printed.free_symbols}
    gap = sp.simplify(printed.subs({named["n"]: 5, named["f_i"]: S.r, named["y_i"]: 0})
                      - convention("rich_quick").train.factor(5) * 5 * S.r ** 2)
    claim.defined(
        claim.measure("printed loss (1/2) sum (f_i - y_i)^2 minus the suite's rich_quick training "
                      "loss, 5 equal residuals r", str(gap), "==", "0", source=exact("sympy")),
        claim.measure("|flow_time('rich_quick') - lr*steps|", max(e[0] for e in errs.values()), "<=",
                      1e-12, source=reading("float64 round-off of a product")),
        claim.measure("rel err of beta, GD at lr 1e-3 vs flow at t = lr*steps", errs[1e-3][1], "<=",
                      2e-2, source=reading("first-order discretisation error ~ lr * t")),
        claim.measure("error ratio lr 2e-3 / lr 1e-3 (first order: 2)", ratio, "within", (1.6, 2.4),
                      source=reading("first order in lr, 20% slack")),
        note=f"GD on the 1/2-sum loss vs the flow at t = {t_end}, 5x3 X, unit rates")


@pytest.mark.claim("GRQ-Def-NTK")
def test_function_moves_by_minus_ntk_times_residual(claim, rng):
    a0, w0 = 0.7, rng.standard_normal(3)
    x_test = rng.standard_normal((2, 3))
    flow = sn.integrate(X, Y, a0, w0, 1.0, eta_a=ETA_A, eta_w=ETA_W, t_eval=[0, 1.0])
    errs = []
    for t in (0.1, 0.5, 0.9):
        h = 1e-5
        f = [x_test @ (p["a"] * p["w"]) for p in (flow.at(t + h), flow.at(t - h))]
        dfdt = (f[0] - f[1]) / (2 * h)
        p = flow.at(t)
        Xall = np.vstack([x_test, X])
        K = autograd_ntk(Xall, p["a"], p["w"], ETA_A, ETA_W)[:2, 2:]
        pred = -K @ (X @ (p["a"] * p["w"]) - Y)
        errs.append(np.max(np.abs(dfdt - pred)) / np.max(np.abs(pred)))
    claim.defined(claim.measure("max rel err, d f(x)/dt vs -sum_i Theta(x, x_i) rho_i", max(errs),
                                "<=", 1e-6, source=reading("central difference h = 1e-5 (error ~h^2) "
                                                           "of the rtol-1e-12 dense output")),
                  note=f"2 test points, rate-weighted autograd NTK (eta_a={ETA_A}, eta_w={ETA_W}), "
                       f"t = 0.1, 0.5, 0.9")


@pytest.mark.claim("GRQ-Def-KD")
def test_kernel_distance_is_in_unit_interval_and_computable_from_M(claim):
    rng = np.random.default_rng(3)
    vals, gaps = [], []
    for _ in range(200):
        A, B = rng.standard_normal((2, 6, 4))
        vals.append(float(sn.kernel_distance(A @ A.T, B @ B.T)))
    Xw = np.linalg.qr(rng.standard_normal((6, 3)))[0]
    for _ in range(50):
        (a1, a2), w_1, w_2 = rng.standard_normal(2), rng.standard_normal(3), rng.standard_normal(3)
        M1, M2 = sn.preconditioner(a1, w_1, ETA_A, ETA_W), sn.preconditioner(a2, w_2, ETA_A, ETA_W)
        gaps.append(abs(sn.kernel_distance(Xw @ M1 @ Xw.T, Xw @ M2 @ Xw.T) - sn.kernel_distance(M1, M2)))
    roundoff = reading("float64 round-off")
    claim.defined(claim.measure("S over 200 random PSD pairs", np.array(vals), "within",
                                (-1e-15, 1 + 1e-15), source=roundoff),
                  claim.measure("max |S(X M1 X^T, X M2 X^T) - S(M1, M2)|, whitened X, 50 pairs",
                                max(gaps), "<=", 1e-13, source=roundoff))


@pytest.mark.claim("GRQ-Def-delta")
def test_delta_definition_and_fig1_geometry(claim):
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
    # upstream = first layer small relative to second (at these rates): delta > 0 iff
    # eta_w a^2 > eta_a ||w||^2
    names_ok = (sn.delta_of(a, w * 0.1, ETA_A, ETA_W) > 0) and (sn.delta_of(a * 0.01, w, ETA_A, ETA_W) < 0)
    printed = sp.lambdify([S.a, S.w1, S.w2, S.eta_a, S.eta_w], REGISTRY["GRQ-Def-delta"].printed)
    form_gap = max(abs(printed(a, *v, ea, ew) - sn.delta_of(a, v, ea, ew))
                   for a, v, ea, ew in ((1.3, (0.2, -0.7), ETA_A, ETA_W), (0.4, (1.1, 0.5), 1.0, 1.0)))
    claim.defined(
        claim.measure("|printed eta_w a^2 - eta_a ||w||^2 - numerics delta_of| at two points", form_gap,
                      "<=", 1e-14, source=reading("float64 round-off")),
        claim.measure("max err of delta = tau^2(alpha^2 - alpha^-2) at the Fig. 1 init |a| = tau "
                      "alpha, ||w|| = tau/alpha, alpha^2 = (delta/tau^2 + sqrt(delta^4/tau^4 + 4))/2",
                      max(errs), "<=", 1e-12, source=reading("float64 round-off")),
        claim.measure("delta > 0 for a small first layer and < 0 for a small readout (upstream / "
                      "downstream names)", bool(names_ok), "==", True, source=exact("sign test")),
        note="5 (tau, delta) pairs, unit rates; names at eta_a=0.3, eta_w=2.5")


@pytest.mark.claim("GRQ-Claim-Minima")
def test_minima_hyperbola_and_saddles(claim, rng):
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
    g_saddle = np.linalg.norm(grad(0.0, w_saddle))
    g_nonsaddle = np.linalg.norm(grad(0.0, rng.standard_normal(3)))
    eig = np.linalg.eigvalsh(hessian(0.0, w_saddle))
    ends = []
    for k in range(6):
        rng = np.random.default_rng(100 + k)
        flow = sn.integrate(X, Y, rng.standard_normal(), rng.standard_normal(3), 300.0,
                            eta_a=ETA_A, eta_w=ETA_W, t_eval=[0, 300.0], rtol=1e-10)
        ends.append(np.linalg.norm(flow.states["a"][-1] * flow.states["w"][:, -1] - beta_star))
    roundoff = reading("float64 round-off of a vanishing gradient")
    claim.holds(
        claim.measure("max |grad| on a w = beta_*, 4 points on both branches", at_minima, "<=", 1e-10,
                      source=roundoff),
        claim.measure("|grad| at a = 0, w^T X^T y = 0", g_saddle, "<=", 1e-10, source=roundoff),
        claim.measure("|grad| at a = 0 with w^T X^T y != 0 (not critical)", g_nonsaddle, ">", 1e-3,
                      source=reading("well above round-off")),
        claim.measure("Hessian eigenvalues at the saddle: (min, -max) both negative",
                      np.array([eig.min(), -eig.max()]), "<", -1e-6,
                      source=reading("central-difference Hessian, h = 1e-6")),
        claim.measure("max ||beta(300) - beta_*|| over 6 random inits", max(ends), "<=", 1e-6,
                      source=reading("solve_ivp rtol 1e-10 at t = 300, convergence ~e^-t")),
        note=f"5x3 non-whitened X, eta_a={ETA_A}, eta_w={ETA_W}")


@pytest.mark.claim("GRQ-Cons-delta", "GRQ-Eq(13)")
def test_delta_is_conserved_symbolically_for_any_data(claim):
    g = sp.Matrix(sp.symbols("g1:4", real=True))       # any gradient X^T(X beta - y)
    w = sp.Matrix(sp.symbols("u1:4", real=True))
    a_dot, w_dot = -S.eta_a * (w.T * g)[0], -S.eta_w * S.a * g
    d_delta = 2 * S.eta_w * S.a * a_dot - 2 * S.eta_a * (w.T * w_dot)[0]
    printed = REGISTRY["GRQ-Cons-delta"].printed      # d delta/dt along the whitened flow
    along = chk.flow_rate(REGISTRY["GRQ-Eq(13)"].printed)  # Eq. (13)'s delta along Eqs. (14)-(15)
    claim.holds(claim.measure("d/dt of Eq. (13)'s delta along the whitened flow expands to 0",
                              sp.expand(along) == 0, "==", True, source=exact("sympy expand")),
                claim.measure("2 eta_w a a' - 2 eta_a w^T w' for a generic gradient vector (any X, "
                              "y, rates) expands to 0", sp.expand(d_delta) == 0, "==", True,
                              source=exact("sympy expand")),
                claim.measure("d delta/dt along the whitened flow Eqs. (14)-(15) expands to 0",
                              sp.expand(printed) == 0, "==", True, source=exact("sympy expand")))


@pytest.mark.claim("GRQ-Cons-delta", "GRQ-Eq(13)")
def test_delta_is_conserved_along_integrated_flows(claim):
    drifts = []
    for k, (ea, ew) in enumerate([(ETA_A, ETA_W), (4.0, 0.2), (1.0, 1.0)]):
        rng = np.random.default_rng(k)
        flow = sn.integrate(X, Y, rng.standard_normal() * 2, rng.standard_normal(3), 50.0,
                            eta_a=ea, eta_w=ew, conservation_tol=None)
        drifts.append(flow.drift["delta"])
    claim.holds(claim.measure("max drift of delta relative to max(1, |delta0|)", max(drifts), "<=",
                              1e-9, source=reading("integrator rtol 1e-12 over t = 50")),
                note="Eqs. (11)-(12) on a 5x3 non-whitened X, rate pairs (0.3, 2.5), (4, 0.2), (1, 1)")


def surface_components(delta, d, eta_a=ETA_A, eta_w=ETA_W, n=80):
    """Connected components of a dense grid sample of {eta_w a^2 - eta_a ||w||^2 = delta} in
    R^{1+d}, d in {1, 2} (w = rho u, u on a grid of the unit sphere; a = +-sqrt((delta +
    eta_a rho^2)/eta_w)), linking points closer than 0.2 (grid spacing <= 0.17)."""
    rho_min = np.sqrt(max(-delta, 0) / eta_a)
    rho = rho_min + np.linspace(0, 0.8, n)
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    u = np.array([[1.0], [-1.0]]) if d == 1 else np.column_stack([np.cos(ang), np.sin(ang)])
    R, U = np.repeat(rho, len(u)), np.tile(u, (n, 1))
    a_abs = np.sqrt(np.maximum(delta + eta_a * R ** 2, 0) / eta_w)
    pts = np.vstack([np.column_stack([s * a_abs, R[:, None] * U]) for s in (1, -1)])
    pairs = cKDTree(pts).query_pairs(r=0.2, output_type="ndarray")
    adj = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(len(pts),) * 2)
    return connected_components(adj, directed=False)[0]


@pytest.mark.claim("GRQ-Cons-delta")
def test_conserved_surface_sheets(claim):
    counts = {(dl, d): surface_components(dl, d) for dl in (-0.5, 0.0, 0.5) for d in (1, 2)}
    words = {-0.5: ("one-sheeted hyperboloid", 1), 0.0: ("double cone", 1),
             0.5: ("two-sheeted hyperboloid", 2)}

    def sheets(d):
        return [claim.measure(f"connected components at delta = {dl}, d = {d} ({name})",
                              counts[(dl, d)], "==", n,
                              source=paper("L58", "constrains the trajectory to: (a) a one-sheeted "
                                                  "hyperboloid for downstream initializations, (b) a "
                                                  "double cone ..., (c) a two-sheeted hyperboloid"))
                for dl, (name, n) in words.items()]
    claim.holds_if(REGISTRY["GRQ-Cons-delta"].condition, under=sheets(2), without=sheets(1),
                   note=f"4000-point grid samples of eta_w a^2 - eta_a ||w||^2 = delta linked below "
                        f"the grid spacing, eta {ETA_A}/{ETA_W}",
                   counterexample=f"d = 1, delta = -0.5: {counts[(-0.5, 1)]} components (w cannot "
                                  f"change sign), not one sheet")


@pytest.mark.claim("GRQ-Eq(14)-(15)")
def test_whitened_flow_is_the_general_flow_at_identity_covariance(claim):
    printed = REGISTRY["GRQ-Eq(14)-(15)"].printed
    res = search(lambda p: max(chk.hp_abs(printed[s] - f, p)
                               for s, f in _general_flow_in_plane().items()), ("<=", 1e-25),
                 p=weight_points())
    claim.holds(claim.measure("worst |Eqs. (14)-(15) - Eqs. (11)-(12) with X^T X = I, X^T y = "
                              "beta_*| at 30 digits, general rates", res,
                              source=reading("30-digit round-off")))


def _general_flow_in_plane():
    """Eqs. (11)-(12) with X^T X = I and X^T y = beta_* = (b, 0), in the plane coordinates."""
    grad = sp.Matrix([S.a * S.w1 - S.b, S.a * S.w2])
    w = sp.Matrix([S.w1, S.w2])
    a_dot = -S.eta_a * (w.T * grad)[0]
    w_dot = -S.eta_w * S.a * grad
    return {S.a: a_dot, S.w1: w_dot[0], S.w2: w_dot[1]}


@pytest.mark.claim("GRQ-Claim-Span")
def test_w_stays_in_the_plane_and_its_orthogonal_part_decays_exactly(claim):
    worst_plane, worst_decay, worst_align = 0.0, 0.0, 0.0
    for k, (ea, ew) in enumerate([(ETA_A, ETA_W), (2.0, 0.5), (1.0, 1.0)]):
        rng = np.random.default_rng(20 + k)
        d = 4
        bs = rng.standard_normal(d) * 1.6
        Xw, y = chk.whitened_data(bs, seed=k)
        a0, w0 = abs(rng.standard_normal()) + 0.3, rng.standard_normal(d)
        flow = sn.integrate_with_a_sq_integral(Xw, y, a0, w0, 60.0, eta_a=ea, eta_w=ew,
                                               t_eval=np.linspace(0, 60, 121))
        basis = np.linalg.qr(np.column_stack([w0, bs]))[0]
        W = flow.states["w"]
        out_of_plane = W - basis @ (basis.T @ W)
        worst_plane = max(worst_plane, np.max(np.linalg.norm(out_of_plane, axis=0)) / np.linalg.norm(w0))
        P = np.eye(d) - np.outer(bs, bs) / (bs @ bs)
        pred = (P @ w0)[:, None] * np.exp(-ew * flow.states["A"])[None, :]
        worst_decay = max(worst_decay, np.max(np.abs(P @ W - pred)) / np.linalg.norm(w0))
        _, phi = sn.mu_phi(flow.states["a"], W, bs)
        worst_align = max(worst_align, 1 - abs(phi[-1]))
    tol = reading("integrator rtol 1e-12 over t = 60")
    claim.holds(
        claim.measure("max out-of-span{w0, beta_*} norm of w(t) / ||w0||", worst_plane, "<=", 1e-10,
                      source=tol),
        claim.measure("max |P_perp w(t) - exp(-eta_w int a^2) P_perp w0| / ||w0||", worst_decay, "<=",
                      1e-10, source=tol),
        claim.measure("1 - |phi(60)| (w aligned to +-beta_*)", worst_align, "<=", 1e-8,
                      source=reading("exponential alignment by t = 60")),
        note="d = 4 whitened flows, rate pairs (0.3, 2.5), (2, 0.5), (1, 1)")


@pytest.mark.claim("GRQ-Conv-WLOG")
def test_rates_enter_only_through_their_product(claim):
    """Decided on its own statement: the rates enter the (mu, phi) dynamics (Eqs. 16-17) only
    through eta_a eta_w and delta, absorbed by mu' = c mu, b' = c b into the form at the printed
    eta_a eta_w = 1; and the beta dynamics only through M(beta, delta), the same for every rate
    pair with one product."""
    from theory.rich_quick.single_neuron_exact import MU_PHI_ODE
    printed = REGISTRY["GRQ-Conv-WLOG"].printed
    named = {s.name: s for s in printed.free_symbols}
    eta_w_one = sp.solve(printed, named["eta_w"])[0].subs(named["eta_a"], S.eta_a)
    c = sp.sqrt(S.eta_a * S.eta_w)
    mu_p, b_p = sp.symbols("mu_p b_p", real=True)
    primed, prime = {S.mu: mu_p / c, S.b: b_p / c}, {S.mu: mu_p, S.b: b_p}
    lhs = (c * MU_PHI_ODE[S.mu].subs(primed), MU_PHI_ODE[S.phi].subs(primed))
    rhs = tuple(MU_PHI_ODE[k].subs({S.eta_w: eta_w_one}).subs(prime) for k in (S.mu, S.phi))
    res = search(lambda p: max(chk.hp_abs(l_ - r_, {**p, "mu_p": p["a"] * p["w1"], "b_p": p["b"],
                                                    "phi": 0.3, "delta": p["w2"]})
                               for l_, r_ in zip(lhs, rhs)), ("<=", 1e-20), p=weight_points())
    hp = reading(chk.HP_WHY)
    claim.holds(
        claim.measure("worst |(16)-(17) at general rates in mu' = c mu, b' = c b - (16)-(17) at "
                      "the printed eta_a eta_w = 1|", res, source=hp),
        claim.measure("largest |M - M at rates (2 eta_a, eta_w / 2)| over inits with one beta "
                      "and delta (beta dynamics through the product only)",
                      chk.rate_pair_preconditioner_gap(), "<=", 1e-12,
                      source=reading("float64 round-off of M")))


HP = chk.HP_TOL
