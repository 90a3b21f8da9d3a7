"""Figures of the single-neuron part (rich_quick Figs. 2, 3, 8, the timescales of Sec 3, the
potentials of App A.4) with theory as lines and gradient flow as markers."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp

from numerics.rich_quick import single_neuron as sn
from theory.rich_quick import single_neuron_implicit_bias as B
from theory.rich_quick import single_neuron_symbols as S
from verify.rich_quick import single_neuron_checks as chk

FIG3_DELTAS = (-3.0, -1.0, 0.0, 1.0, 3.0)
FIG3 = dict(beta_star=np.array([0.0, 1.0]), beta0=np.array([-1.0, 0.0]))   # App D.2, full rank


def exact_path(beta0, beta_star, delta, t, eta_a=1.0, eta_w=1.0, sign=1.0):
    a0, w0 = sn.balanced_init(beta0, delta, eta_a, eta_w, sign)
    ex = sn.exact_solution(t, a0, w0, beta_star, eta_a, eta_w)
    a, w = sn.recover_weights(ex.mu, ex.phi, w0, beta_star, delta, eta_a, eta_w)
    return ex, a, w, (a0, w0)


@pytest.mark.claim("GRQ-Fig3")
def test_fig3_exact_dynamics_against_gradient_flow(claim, report_figure):
    t = np.linspace(0, 20, 401)
    fig, axs = plt.subplots(1, 3, figsize=(8, 3))
    colors = plt.cm.coolwarm(np.linspace(0, 1, len(FIG3_DELTAS)))
    errs, shape = [], {}
    for d, col in zip(FIG3_DELTAS, colors):
        ex, a, w, (a0, w0) = exact_path(FIG3["beta0"], FIG3["beta_star"], d, t)
        S_t = sn.kernel_distance_path(a, w)
        case = {"a0": a0, "w0": w0, "beta_star": FIG3["beta_star"], "eta_a": 1.0, "eta_w": 1.0}
        ref = chk.flow_coordinates(case, 20.0, 21)
        S_ref = sn.kernel_distance_path(ref["a"], ref["w"])
        errs.append(max(chk.trajectory_error({"mu": ex.mu[::20], "phi": ex.phi[::20]}, ref),
                        float(np.max(np.abs(S_t[::20] - S_ref)))))
        shape[d] = dict(mu_min=ex.mu.min(), mu_dev=np.max(np.abs(ex.mu - 1)), S2=S_t[40], Smax=S_t.max(),
                        phi20=ex.phi[-1], t_half=t[np.argmax(S_t > 0.5)] if S_t.max() > 0.5 else np.inf)
        for ax, th, sim in zip(axs, (ex.mu, ex.phi, S_t), (ref["mu"], ref["phi"], S_ref)):
            ax.plot(t, th, "-", color=col, lw=1.5, label=rf"$\delta={d:g}$")
            ax.plot(ref["t"], sim, "o", color=col, ms=3)
    for ax, name in zip(axs, (r"$\mu$", r"$\phi$", r"$S(0,t)$")):
        ax.set_xlabel("t")
        ax.set_ylabel(name)
    axs[0].legend(fontsize=6)
    report_figure(fig, "Fig. 3: mu, phi, S(0,t) for X^T X = I, beta_* = [0,1], beta0 = [-1,0], a0 > 0,"
                       " unit rates; exact solution (lines) vs gradient flow (markers)")
    up, bal, down = shape[3.0], shape[0.0], shape[-3.0]
    ok = (max(errs) < 1e-8 and up["Smax"] < 0.01 and abs(up["phi20"] - 1) < 1e-3
          and bal["S2"] > 0.1 and down["mu_min"] < 0.2 and down["S2"] < 0.05 and down["Smax"] > 0.5
          and down["t_half"] > 5 and abs(down["phi20"] - 1) < 1e-2)
    claim.holds(ok, f"theory vs GF (rtol 1e-12) max err {max(errs):.1g} over delta {FIG3_DELTAS}; "
                    f"upstream (3): max S {up['Smax']:.3g}, phi(20) {up['phi20']:.4f}, max|mu-1| "
                    f"{up['mu_dev']:.2f}; balanced: S(2) {bal['S2']:.2f}; downstream (-3): min mu "
                    f"{down['mu_min']:.2f}, S(2) {down['S2']:.3f}, S crosses 0.5 at t = "
                    f"{down['t_half']:.1f}, phi(20) {down['phi20']:.3f}")


@pytest.mark.claim("GRQ-Fig8")
def test_fig8_temporal_dynamics(claim, report_figure):
    bs = np.array([np.cos(np.pi / 4), np.sin(np.pi / 4)])
    t = np.linspace(0, 10, 201)
    delta = 0.5          # the figure's delta is not stated; upstream keeps nu defined
    fig, axs = plt.subplots(3, 4, figsize=(8, 5.5), sharex=True)
    errs = []
    for row, ang in enumerate((3 * np.pi / 2, -np.pi / 4, np.pi / 4)):
        beta0 = np.array([np.cos(ang), np.sin(ang)])
        ex, a, w, (a0, w0) = exact_path(beta0, bs, delta, t)
        ref = chk.flow_coordinates({"a0": a0, "w0": w0, "beta_star": bs, "eta_a": 1.0, "eta_w": 1.0},
                                   10.0, 21)
        theory = {"nu": ex.omega / ex.a, "phi": ex.phi, "omega": ex.omega, "a": ex.a}
        errs.append(chk.trajectory_error({k: v[::10] for k, v in theory.items()}, ref))
        errs.append(float(np.max(np.abs(w[:, ::10] - ref["w"]))))
        for ax, (name, th) in zip(axs[row], [("nu", theory["nu"]), ("phi", theory["phi"]),
                                             ("omega", theory["omega"]), ("a", theory["a"])]):
            ax.plot(t, th, "k-", lw=1.2, label="theory")
            ax.plot(ref["t"], ref[name], "o", color="C1", ms=3, label="GF")
            ax.set_ylabel({"omega": r"$\omega$ ('$\zeta$'?)", "nu": r"$\nu$", "phi": r"$\phi$",
                           "a": r"$a$"}[name])
        for j, col in ((0, "C2"), (1, "C4")):
            axs[row, 3].plot(t, w[j], "-", color=col, lw=0.8, label=f"$w_{j + 1}$ theory")
            axs[row, 3].plot(ref["t"], ref["w"][j], "s", color=col, ms=2, label=f"$w_{j + 1}$ GF")
    axs[0, 0].legend(fontsize=6)
    axs[0, 3].legend(fontsize=5)
    for ax in axs[-1]:
        ax.set_xlabel("t")
    report_figure(fig, "Fig. 8: nu, phi, omega = w^T beta_* (our reading of the undefined 'zeta') and "
                       "a (with w1, w2 in the last panel), beta_* at pi/4, beta0 at 3pi/2, -pi/4, pi/4"
                       " (rows), delta = 0.5, a0 > 0; theory lines, gradient-flow markers")
    claim.holds(max(errs) < 1e-8, f"closed forms (nu Riccati, a Bernoulli, Eq. 35 w) vs GF for the 3 "
                                  f"rows: max err {max(errs):.1g}; 'zeta' undefined in the paper, read"
                                  f" as omega")


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
    ok = (up_ratio < 1.2 and up[-1][1] < up[0][1] < 0.05 and down_ratio < 1.2 and align_spread < 0.05
          and abs(slope * 2 * c * b - 1) < 0.1)
    claim.holds(ok, f"upstream: D * t(|phi|>0.99) = {[f'{u[0]:.3f}' for u in up]} for D = 10, 30, "
                    f"100 (ratio {up_ratio:.2f} < 1.2), max S = {[f'{u[1]:.1g}' for u in up]} falling;"
                    f" downstream: t(S>0.5)/D = {[f'{x:.2f}' for x in down]} (ratio {down_ratio:.2f});"
                    f" balanced: alignment time {[f'{f[0]:.2f}' for f in fits]} for mu0 = 1e-2,-4,-6,"
                    f" fitting time slope vs ln(1/mu0) {slope:.3f} = 1/(2 c b) x "
                    f"{slope * 2 * c * b:.3f} (general rates 0.5/1.6, b = 1.3)")


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
    claim.holds(max(drifts) < 1e-9, f"drift of delta on the 6 plotted trajectories: max {max(drifts):.1g}")


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
    claim.holds(abs(l2 - 1) < 1e-3 and abs(l1 - 1) < 1e-3,
                f"Phi(r) sqrt(2 delta)/r^2 = {l2:.6f} at delta = 1e6 (l2 limit) and Phi(r)/(sqrt(2|delta|)"
                f" r) = {l1:.6f} at delta = -1e6 (l1 limit), r = 1.7")


@pytest.mark.claim("GRQ-Fig4")
def test_fig4_whitened_beta_trajectories(claim, report_figure):
    bs, beta0 = FIG3["beta_star"], FIG3["beta0"]
    fig, ax = plt.subplots(figsize=(4.5, 4))
    errs, dev, early_angle = [], {}, None
    for d, col in ((10.0, "C3"), (0.0, "C7"), (-10.0, "C0")):
        t = np.linspace(0, 60, 3001)
        ex, a, w, (a0, w0) = exact_path(beta0, bs, d, t)
        beta = a * w
        ref = chk.flow_coordinates({"a0": a0, "w0": w0, "beta_star": bs, "eta_a": 1.0, "eta_w": 1.0}, 60.0, 31)
        errs.append(float(np.max(np.abs(beta[:, ::100] - ref["a"] * ref["w"]))))
        # distance of the path from the straight segment beta0 -> beta_* (GF on beta's path)
        seg = bs - beta0
        s = np.clip((beta - beta0[:, None]).T @ seg / (seg @ seg), 0, 1)
        dev[d] = float(np.max(np.linalg.norm(beta.T - (beta0 + s[:, None] * seg), axis=1)))
        if d < 0:   # the first, lazy phase moves along beta0: angle to beta0 when |beta| is smallest
            k = int(np.argmin(np.linalg.norm(beta, axis=0)))
            early_angle = float(np.degrees(np.arccos(beta[:, k] @ beta0 / np.linalg.norm(beta[:, k]))))
        ax.plot(beta[0], beta[1], "-", color=col, label=rf"theory $\delta={d:g}$")
        ax.plot(ref["a"] * ref["w"][0], ref["a"] * ref["w"][1], "o", color=col, ms=3, label="GF")
    ax.plot(*beta0, "k^")
    ax.plot(*bs, "k*")
    ax.set_xlabel(r"$\beta_1$")
    ax.set_ylabel(r"$\beta_2$")
    ax.legend(fontsize=6)
    report_figure(fig, "Fig. 4 (left): beta(t) for X^T X = I, beta_* = [0,1], beta0 = [-1,0], delta = 10, 0,"
                       " -10, unit rates: exact (mu, phi) solution (lines) vs gradient flow (markers)")
    # 1e-6: t runs to 60 (the delta = -10 path needs it) with a stiffness ratio ~|delta|
    ok = (max(errs) < 1e-6 and dev[10.0] < 0.01 < dev[0.0] < dev[-10.0] and early_angle < 10)
    claim.holds(ok, f"beta(t) theory vs GF max err {max(errs):.1g}; max distance from the straight "
                    f"GF-on-beta segment: upstream {dev[10.0]:.3g}, balanced {dev[0.0]:.3g}, downstream "
                    f"{dev[-10.0]:.3g}; downstream direction at its smallest |beta| is {early_angle:.2g} "
                    f"deg from beta0 (moves along beta0 first)")
