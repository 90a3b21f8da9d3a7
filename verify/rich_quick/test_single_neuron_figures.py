"""Figures of the single-neuron part (rich_quick Figs. 2, 3, 8, the timescales of Sec 3, the
potentials of App A.4) with theory as lines and gradient flow as markers."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp

from numerics.rich_quick import single_neuron as sn
from theory.rich_quick import single_neuron_implicit_bias as B
from theory.rich_quick import single_neuron_symbols as S
from theory.registry import REGISTRY
from verify.measurement import reading
from verify.rich_quick import single_neuron_checks as chk

def exact_path(beta0, beta_star, delta, t, eta_a=1.0, eta_w=1.0, sign=1.0):
    a0, w0 = sn.balanced_init(beta0, delta, eta_a, eta_w, sign)
    ex = sn.exact_solution(t, a0, w0, beta_star, eta_a, eta_w)
    a, w = sn.recover_weights(ex.mu, ex.phi, w0, beta_star, delta, eta_a, eta_w)
    return ex, a, w, (a0, w0)


def first_time(t, mask):
    return float(t[np.argmax(mask)]) if mask.any() else np.inf


@pytest.mark.claim("GRQ-Claim-S3-regimes")
def test_timescales_of_the_three_regimes(claim, report_figure):
    ea, ew, bs = 0.5, 1.6, np.array([0.0, 1.3])        # c = sqrt(eta_a eta_w) = 0.894, b = 1.3
    c, b = np.sqrt(ea * ew), 1.3
    beta0 = np.array([1.0, 0.4]) * 0.5
    up, down = [], []
    for D in (10.0, 30.0, 100.0):
        t = np.linspace(0, 5 / D ** 0.5, 4001)
        ex, a, w, _ = exact_path(beta0, bs, D, t, ea, ew)
        up.append((first_time(t, np.abs(ex.phi) > 0.99) * D, sn.kernel_distance_path(a, w).max()))
        t = np.linspace(0, 8 * D, 8001)
        ex, a, w, _ = exact_path(beta0, bs, -D, t, ea, ew)
        down.append(first_time(t, sn.kernel_distance_path(a, w) > 0.5) / D)
    fits = []
    for mu0 in (1e-2, 1e-4, 1e-6):
        t = np.linspace(0, 40, 8001)
        ex, *_ = exact_path(beta0 / np.linalg.norm(beta0) * mu0, bs, 0.0, t, ea, ew)
        fits.append((first_time(t, ex.phi > 0.99), first_time(t, ex.mu > b / 2)))
    slope = np.polyfit(np.log(1 / np.array([1e-2, 1e-4, 1e-6])), [f[1] for f in fits], 1)[0]
    up_ratio = max(u[0] for u in up) / min(u[0] for u in up)
    down_ratio = max(down) / min(down)
    align_spread = max(f[0] for f in fits) - min(f[0] for f in fits)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for D, style in ((10.0, "-"), (30.0, "--")):
        t = np.linspace(0, 3 * D, 601)
        ex, a, w, _ = exact_path(beta0, bs, -D, t, ea, ew)
        ax.plot(t / D, sn.kernel_distance_path(a, w), "k" + style, label=rf"theory $\delta=-{D:g}$")
        a0, w0 = sn.balanced_init(beta0, -D, ea, ew)
        ref = chk.flow_coordinates({"a0": a0, "w0": w0, "beta_star": bs, "eta_a": ea, "eta_w": ew},
                                   3 * D, 31)
        ax.plot(ref["t"] / D, sn.kernel_distance_path(ref["a"], ref["w"]), "o", ms=3,
                label=rf"GF $\delta=-{D:g}$")
    ax.set_xlabel(r"$t/|\delta|$")
    ax.set_ylabel(r"$S(0,t)$")
    ax.legend(fontsize=7)
    report_figure(fig, "Sec 3 downstream regime: S(0,t) against t/|delta| collapses (delay ~ |delta|); "
                       "eta_a = 0.5, eta_w = 1.6, ||beta_*|| = 1.3; theory lines, gradient-flow markers")
    scaling = reading("a timescale law holds when the rescaled times agree within 20% over a "
                      "factor 10 in delta")
    rate = REGISTRY["GRQ-Claim-S3-regimes"].printed.rhs
    at = {"phi": 0.3, "b": b, "eta_a": ea, "eta_w": ew, "delta": -1e6}
    exact_rate = REGISTRY["GRQ-Eq(2)"].printed[S.phi].subs(S.mu, S.phi * S.b)
    limit_ratio = float((exact_rate.subs({getattr(S, k): v for k, v in at.items()})
                         / rate.subs({s_: at[s_.name] for s_ in rate.free_symbols})))
    claim.holds(
        claim.measure("downstream: Eq. (17)'s phi' at mu = phi b over the printed limit "
                      "b^2 eta_a eta_w phi (1 - phi^2)/|delta|, delta = -1e6", limit_ratio, "within",
                      (1 - 1e-4, 1 + 1e-4), source=reading("relative corrections O(mu^2/|delta|)")),
        claim.measure("upstream: max/min of delta x t(|phi| > 0.99) over delta = 10, 30, 100 (time "
                      "~1/delta)", up_ratio, "<", 1.2, source=scaling),
        claim.measure("upstream: max S(0, t) at delta = 10, 30, 100 (small, falling)",
                      np.array([u[1] for u in up]), "<", 0.05, source=reading("'minimal kernel "
                                                                              "movement'")),
        claim.measure("upstream: max S at delta = 100 minus at delta = 10", up[-1][1] - up[0][1], "<", 0,
                      source=reading("S -> 0 as delta grows")),
        claim.measure("downstream: max/min of t(S > 0.5)/|delta| (delay ~|delta|)", down_ratio, "<", 1.2,
                      source=scaling),
        claim.measure("balanced: spread of the alignment times for mu0 = 1e-2, 1e-4, 1e-6",
                      align_spread, "<", 0.05, source=reading("alignment decouples from mu0 -> 0")),
        claim.measure("balanced: fitting-time slope vs ln(1/mu0) times 2 sqrt(eta_a eta_w) b (= 1 for "
                      "time ~ ln(1/mu0))", slope * 2 * c * b, "within", (0.9, 1.1),
                      source=reading("Bernoulli fitting time ln(1/mu0)/(2 c b), 10%")),
        note="exact solution at eta_a = 0.5, eta_w = 1.6, ||beta_*|| = 1.3")


@pytest.mark.claim("GRQ-Cons-delta")
def test_trajectories_on_the_conserved_surfaces(claim, report_figure):
    bs, beta0 = np.array([0.0, 1.0]), np.array([-1.0, 0.0]) * 0.6
    fig = plt.figure(figsize=(8, 3.2))
    drifts = []
    for i, d in enumerate((-1.0, 0.0, 1.0)):
        ax = fig.add_subplot(1, 3, i + 1, projection="3d")
        uu, rr = np.meshgrid(np.linspace(0, 2 * np.pi, 40), np.linspace(0, 1.6, 20))
        rho = np.sqrt(max(-d, 0)) + rr
        A = np.sqrt(np.maximum(d + rho ** 2, 0))
        for s in (1, -1):
            ax.plot_surface(rho * np.cos(uu), rho * np.sin(uu), s * A, alpha=0.15, color="grey", lw=0)
        for sign, col in ((1, "C0"), (-1, "C3")):
            a0, w0 = sn.balanced_init(beta0, d, sign=sign)
            ref = chk.flow_coordinates({"a0": a0, "w0": w0, "beta_star": bs, "eta_a": 1.0,
                                        "eta_w": 1.0}, 15.0, 61)
            drifts.append(ref["drift"])
            ax.plot(ref["w"][0], ref["w"][1], ref["a"], "o", color=col, ms=2)
        ax.set_title(rf"$\delta={d:g}$", fontsize=9)
        ax.set_xlabel("$w_1$", fontsize=7)
        ax.set_ylabel("$w_2$", fontsize=7)
        ax.set_zlabel("$a$", fontsize=7)
    report_figure(fig, "Fig. 2: conserved surfaces eta_w a^2 - eta_a ||w||^2 = delta (grey, theory) and "
                       "gradient-flow trajectories (markers) from a0 w0 = beta0 with both signs of a0: "
                       "one sheet (delta<0), cone (0), two sheets (delta>0)")
    claim.holds(claim.measure("max drift of delta on the 6 plotted trajectories", max(drifts), "<=",
                              1e-9, source=reading("integrator rtol 1e-12 over t = 15")))


@pytest.mark.claim("GRQ-Eq(59)-(67)")
def test_potential_limits(claim, report_figure):
    q = sp.lambdify([S.r, S.delta], B.PHI_POTENTIAL, "numpy")
    r = np.linspace(0, 3, 200)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for d in (-4.0, -1.0, 0.0, 1.0, 4.0):
        ax.plot(r, q(r, d), "-", label=rf"$\Phi_\delta$, $\delta={d:g}$")
    ax.set_xlabel(r"$\|\beta\|$")
    ax.set_ylabel(r"$\Phi_\delta$")
    ax.legend(fontsize=7)
    report_figure(fig, "Potentials Phi_delta(||beta||) of Eq. (67) (theory only): l2-like for delta > 0, "
                       "l1-like cone for delta < 0")
    big = 1e6
    l2 = q(1.7, big) * np.sqrt(2 * big) / 1.7 ** 2
    l1 = q(1.7, -big) / (np.sqrt(2 * big) * 1.7)
    lim = reading("relative corrections O(r^2/|delta|) ~ 3e-6 at |delta| = 1e6")
    claim.holds(claim.measure("Phi(r) sqrt(2 delta)/r^2 at delta = 1e6, r = 1.7 (l2 limit)", l2,
                              "within", (1 - 1e-3, 1 + 1e-3), source=lim),
                claim.measure("Phi(r)/(sqrt(2|delta|) r) at delta = -1e6, r = 1.7 (l1 limit)", l1,
                              "within", (1 - 1e-3, 1 + 1e-3), source=lim))
