"""Figures of the rich_quick report: each function takes runner results and returns
``(matplotlib figure, caption)`` for ``report_figure``.  Nothing here measures or decides."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from numerics.rich_quick import single_neuron_teacher_student as ts


def fig1a(run):
    """Trajectories of |a_i| w_i of the first seed's four students, teacher directions dotted."""
    W, a = ts.cell_arrays(run, "W")[:, 0], ts.cell_arrays(run, "a")[:, 0]     # (T, cells, h, ...)
    fig, axs = plt.subplots(1, len(run.cells), figsize=(8, 2.4))
    for m, ax in enumerate(axs):
        P = np.abs(a[:, m, :, None]) * W[:, m]
        for i in range(P.shape[1]):
            ax.plot(P[:, i, 0], P[:, i, 1], "-", color="0.6", lw=0.5)
            ax.plot(P[-1, i, 0], P[-1, i, 1], "o", color="C0" if a[-1, m, i] > 0 else "C3", ms=2)
        lim = np.abs(P[-1]).max() * 1.2
        for w in run.teacher_w[0]:
            ax.plot([0, lim * w[0]], [0, lim * w[1]], "k:", lw=0.8)
        ax.set(xlim=(-lim, lim), ylim=(-lim, lim), xticks=[], yticks=[])
        tau, delta = run.cells[m]
        ax.set_title(rf"$\tau={tau:g}, \delta={delta:g}$", fontsize=8)
    steps = int(run.trajectory.steps[-1])
    return fig, (f"Fig. 1(a), {run.ran.scale} run, seed {run.seeds[0]}: trajectories of |a_i| w_i "
                 f"(lines, end markers coloured by sgn a_i) of the 50-neuron student over "
                 f"{steps:,} GD steps at lr {run.ran['learning rate']:g}; teacher directions dotted")


def fig1b(run):
    """Seed-mean S(0, t) and test MSE of each cell against GD steps."""
    S, test = ts.cell_arrays(run, "S").mean(1), ts.cell_arrays(run, "test").mean(1)
    steps = np.maximum(run.trajectory.steps, 1)
    fig, axs = plt.subplots(1, 2, figsize=(8, 3), layout="constrained")
    for j, (tau, delta) in enumerate(run.cells):
        style = "-" if tau == min(c[0] for c in run.cells) else "--"
        label = rf"$\tau={tau:.2g}, \delta={delta:g}$"
        axs[0].plot(steps, S[:, j], style + "o", ms=3, label=label)
        axs[1].plot(steps, test[:, j], style + "o", ms=3, label=label)
    for ax, name in zip(axs, ("kernel distance S(0, t)", "test MSE")):
        ax.set(xscale="log", xlabel="GD steps")
        ax.set_title(name, fontsize=9)
    axs[1].set_yscale("log")
    axs[0].legend(fontsize=6)
    return fig, (f"Fig. 1(b), {run.ran.scale} run: seed means over {len(run.seeds)} seeds of the "
                 f"kernel distance and the test MSE at the cells the caption compares, d = 100, "
                 f"n = 1000, lr 5e-3/tau^2 (step 0 drawn at 1)")


def _alpha_axis(ax, alphas):
    ax.set(xscale="log", xlabel="alpha (upstream > 1)")
    ax.set_xticks(alphas, [f"{a:g}" for a in alphas])
    ax.minorticks_off()


def fig6a(run):
    fig, axes = plt.subplots(1, 3, figsize=(8, 3))
    for ax, (name, v) in zip(axes, (("kernel distance", run.S), ("Hamming distance", run.hamming),
                                     ("relative parameter distance", run.param))):
        ax.plot(run.alphas, v.mean(1), "o")
        _alpha_axis(ax, run.alphas)
        ax.set_title(name, fontsize=8)
    return fig, (f"Fig. 6(a), {run.ran.scale} run: LeNet-5 on {run.ran['training images']} MNIST "
                 f"images after {run.ran['epochs']} epoch(s) ({run.ran['SGD steps']} SGD steps); "
                 "seed means of the NTK, activation and parameter movement against alpha")


def fig6b(run):
    fig, ax = plt.subplots(figsize=(4.5, 3))
    ax.plot(run.alphas, run.rough_init.mean(1), "s", label="init")
    ax.plot(run.alphas, run.rough_end.mean(1), "o", label="trained")
    _alpha_axis(ax, run.alphas)
    ax.set_ylabel("Eq. (128) value (lower = smoother)")
    ax.legend(fontsize=7)
    return fig, (f"Fig. 6(b)/11, {run.ran.scale} run on {run.ran['data']}: first-layer filter "
                 "roughness (Eq. 128, printed kernel) against alpha; markers are seed means")


def fig6c(run):
    fig, ax = plt.subplots(figsize=(4.5, 3))
    for k, a in enumerate(run.alphas):
        ax.plot(run.sizes, run.accuracy[:, :, k].mean(0), "o-", ms=3, label=f"alpha={a:g}")
    ax.set(xscale="log", xlabel="training set size", ylabel="test accuracy")
    ax.legend(fontsize=6)
    return fig, (f"Fig. 6(c), {run.ran.scale} run: RHM with L = {run.ran['RHM levels L']}, test "
                 f"accuracy against training size per alpha (seed means over {len(run.seeds)} "
                 "seeds, each with its own RHM)")


def fig6d(run):
    """Fig. 6(d)/12: per seed, the first step with >= 99% train (open) and test (filled) accuracy
    against alpha, one colour per tau; a run that never gets there is drawn at the step budget
    (dotted line)."""
    budget = run.ran["step budget"]
    fig, ax = plt.subplots(figsize=(4.5, 3))
    for t, tau in enumerate(run.taus):
        for hits, fill, what in ((run.hit_train, "none", "train"), (run.hit_test, f"C{t}", "test")):
            h = np.asarray(hits, float)[t]                                   # (alphas, seeds)
            ax.plot(np.repeat(run.alphas, h.shape[1]), np.where(np.isfinite(h), h, budget).ravel(),
                    "o", color=f"C{t}", mfc=fill, ms=4, alpha=0.7, label=f"tau {tau:g}, {what}")
    ax.axhline(budget, color="grey", ls=":", lw=1)
    _alpha_axis(ax, run.alphas)
    ax.set_ylabel("steps to 99% accuracy")
    ax.legend(fontsize=6)
    return fig, (f"Fig. 6(d), {run.ran.scale} run: steps to 99% train (open) and test (filled) "
                 f"accuracy per seed against alpha; dotted: the {budget}-step budget, where a run "
                 "that never gets there is drawn")


def regimes(run):
    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    for (name, v), mk in zip(run.table.items(), "osd"):
        ax.plot(run.deltas, np.maximum(v[:, 0], 1e-8), mk, label=f"{name}: S(0, end)")
        ax.plot(run.deltas, np.maximum(v[:, 1], 1e-8), mk, mfc="none", alpha=0.5,
                label=f"{name}: S(0, 5/|delta|)")
    ax.set(yscale="log", xlabel="delta_i (all neurons)", ylabel="kernel distance")
    ax.legend(fontsize=6)
    return fig, ("Funnel (d > h >= c) networks are lazy (S -> 0) as delta -> +oo, inverted funnels "
                 "as delta -> -oo, square networks both ways; the opposite limits are delayed rich "
                 "(open markers: S after the fast phase); balanced is rich.  Gradient flow, "
                 f"whitened data, rates {run.ran['rates (eta_a, eta_w)']}.")


def fig5_curves(run):
    t = np.asarray(run.trajectory.time)
    n_s = len(run.seeds)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
    for k, (delta, col, name) in enumerate(zip(run.deltas, ("C0", "C1", "C2"),
                                               ("downstream", "balanced", "upstream"))):
        cols = slice(k * n_s, (k + 1) * n_s)
        ham = np.asarray(run.trajectory.records["hamming"])[:, cols]
        loss = np.asarray(run.trajectory.loss)[:, cols]
        axes[0].plot(t, ham.mean(1), ".", ms=3, color=col, label=f"{name} (delta {delta:g})")
        axes[1].plot(t, loss.mean(1) / loss[0].mean(), ".", ms=3, color=col)
    for ax in axes:
        ax.set_xscale("symlog", linthresh=1e-2)
        ax.set_xlabel("t (gradient-flow time)")
    axes[0].set_ylabel("Hamming distance of patterns from init")
    axes[1].set(yscale="log", ylabel="loss / L(0)")
    axes[0].legend(fontsize=7)
    return fig, (f"Fig. 5 (XOR-like task, 20 ReLU units, tau = {run.ran['scale tau']:g}, "
                 f"{n_s} seeds, markers = seed means): the partition is frozen downstream and moves "
                 "before the fit for balanced and upstream initialisations.")


def fig5_surfaces(run):
    import torch

    from numerics.models import TwoLayerEnsemble
    g = np.linspace(-2, 2, 161)
    G = torch.as_tensor(np.stack(np.meshgrid(g, g)).reshape(2, -1))
    fig, axes = plt.subplots(2, 3, figsize=(7.5, 5))
    n_s = len(run.seeds)
    for row, label in enumerate(("init", "end")):
        W1, W2 = (torch.as_tensor(np.asarray(w[row], dtype=float)) for w in (run.W1, run.W2))
        with torch.no_grad():
            f = TwoLayerEnsemble(W1, W2, "relu")(G)[:, 0].numpy()
        for col in range(3):
            k = col * n_s                                       # seed 0 of each delta
            ax = axes[row, col]
            vmax = max(np.abs(f[k]).max(), 1e-12)
            ax.imshow(f[k].reshape(161, 161), origin="lower", extent=(-2, 2, -2, 2), cmap="PuOr",
                      vmin=-vmax, vmax=vmax)
            for w in W1[k].numpy():                             # each unit's boundary w^T x = 0
                u = 3 * w / np.linalg.norm(w)
                ax.plot([-u[1], u[1]], [u[0], -u[0]], "k-", lw=0.5)
            ax.scatter(run.X[0], run.X[1], c=run.y, cmap="coolwarm", s=8, edgecolors="k",
                       linewidths=0.2)
            ax.set(xlim=(-2, 2), ylim=(-2, 2), xticks=[], yticks=[])
            ax.set_title(f"delta {run.deltas[col]:g}, {label} (max|f| {vmax:.2g})", fontsize=7)
    return fig, ("Fig. 5, first seed: network output (colour, scaled per panel), unit boundaries "
                 "(lines) and data (markers) at init and after training; downstream keeps its "
                 "boundaries, balanced and upstream rotate them onto the data.")


def fig3(run):
    fig, axs = plt.subplots(1, 3, figsize=(8, 3))
    colors = plt.cm.coolwarm(np.linspace(0, 1, len(run.deltas)))
    for d, col in zip(run.deltas, colors):
        p = run.paths[(0, d)]
        for ax, name in zip(axs, ("mu", "phi", "S")):
            ax.plot(p["exact"]["t"], p["exact"][name], "-", color=col, lw=1.5,
                    label=rf"$\delta={d:g}$")
            ax.plot(p["flow"]["t"], p["flow"][name], "o", color=col, ms=3)
    for ax, name in zip(axs, (r"$\mu$", r"$\phi$", r"$S(0,t)$")):
        ax.set(xlabel="t", ylabel=name)
    axs[0].legend(fontsize=6)
    return fig, ("Fig. 3: mu, phi, S(0,t) for X^T X = I, beta_* = [0,1], beta0 = [-1,0], a0 > 0, "
                 f"rates {run.ran['rates (eta_a, eta_w)']}; exact solution (lines) vs gradient "
                 "flow (markers)")


def fig4(run):
    fig, ax = plt.subplots(figsize=(4.5, 4))
    for d, col in zip(run.deltas, ("C3", "C7", "C0")):
        p = run.paths[(0, d)]
        ax.plot(*np.asarray(p["exact"]["beta"]), "-", color=col, label=rf"theory $\delta={d:g}$")
        ax.plot(*np.asarray(p["flow"]["beta"]), "o", color=col, ms=3, label="GF")
    ax.plot(*run.beta0s[0], "k^")
    ax.plot(*run.ran["beta_*"], "k*")
    ax.set(xlabel=r"$\beta_1$", ylabel=r"$\beta_2$")
    ax.legend(fontsize=6)
    return fig, ("Fig. 4 (left): beta(t) for X^T X = I, beta_* = [0,1], beta0 = [-1,0], unit "
                 "rates: exact (mu, phi) solution (lines) vs gradient flow (markers)")


def fig8(run):
    fig, axs = plt.subplots(3, 4, figsize=(8, 5.5), sharex=True)
    labels = {"nu": r"$\nu$", "phi": r"$\phi$", "omega": r"$\omega$ ('$\zeta$'?)", "a": r"$a$"}
    for row in range(3):
        p = run.paths[(row, run.deltas[0])]
        for ax, name in zip(axs[row], labels):
            ax.plot(p["exact"]["t"], p["exact"][name], "k-", lw=1.2)
            ax.plot(p["flow"]["t"], p["flow"][name], "o", color="C1", ms=3)
            ax.set_ylabel(labels[name])
    for ax in axs[-1]:
        ax.set_xlabel("t")
    return fig, ("Fig. 8: nu, phi, omega = w^T beta_* (our reading of the undefined 'zeta') and a, "
                 "beta_* at pi/4, beta0 at 3pi/2, -pi/4, pi/4 (rows), delta = "
                 f"{run.deltas[0]:g}, a0 > 0; theory lines, gradient-flow markers")


def fig4_lowrank(run, predicted):
    fig, ax = plt.subplots(figsize=(5.5, 4), layout="constrained")
    b = np.linspace(0.6, 1.85, 50)
    ax.plot(b, (run.y[0] - run.X[0, 0] * b) / run.X[0, 1], "k-", lw=0.8,
            label=r"interpolants $X\beta = y$")
    ax.plot(predicted[:, 0], predicted[:, 1], "C0s", ms=7, mfc="none", label="Eq. (72)")
    sc = ax.scatter(run.limits[:, 0], run.limits[:, 1], c=run.deltas, cmap="coolwarm", zorder=3,
                    label="GF limit")
    fig.colorbar(sc, ax=ax, label=r"$\delta$")
    ax.plot(*run.beta0, "k^", label=r"$\beta_0$")
    ax.set(xlabel=r"$\beta_1$", ylabel=r"$\beta_2$")
    ax.legend(fontsize=7)
    return fig, ("Fig. 4 (right): low-rank D.2 data X = [[0.5, 1]], y = 1.1, beta0 = [0.4, 0.05]; "
                 "Eq. (72) limits (squares) and gradient-flow limits (dots, coloured by delta), "
                 "unit rates")


def s3_downstream(ts):
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for (D, c), style in zip(ts.curves.items(), ("-", "--")):
        ax.plot(c["t"] / D, c["S"], "k" + style, label=rf"theory $\delta=-{D:g}$")
        ax.plot(c["flow_t"] / D, c["flow_S"], "o", ms=3, label=rf"GF $\delta=-{D:g}$")
    ax.set(xlabel=r"$t/|\delta|$", ylabel=r"$S(0,t)$")
    ax.legend(fontsize=7)
    return fig, ("Sec 3 downstream regime: S(0,t) against t/|delta| collapses (delay ~ |delta|); "
                 f"eta_a, eta_w = {ts.rates}, ||beta_*|| = {ts.b:g}; theory lines, gradient-flow "
                 "markers")


def conserved_surfaces(flows):
    fig = plt.figure(figsize=(8, 3.2))
    deltas = sorted({d for d, _ in flows})
    for i, d in enumerate(deltas):
        ax = fig.add_subplot(1, len(deltas), i + 1, projection="3d")
        uu, rr = np.meshgrid(np.linspace(0, 2 * np.pi, 40), np.linspace(0, 1.6, 20))
        rho = np.sqrt(max(-d, 0)) + rr
        A = np.sqrt(np.maximum(d + rho ** 2, 0))
        for s in (1, -1):
            ax.plot_surface(rho * np.cos(uu), rho * np.sin(uu), s * A, alpha=0.15, color="grey",
                            lw=0)
        for sign, col in ((1.0, "C0"), (-1.0, "C3")):
            f = flows[(d, sign)]
            ax.plot(f["w"][0], f["w"][1], f["a"], "o", color=col, ms=2)
        ax.set_title(rf"$\delta={d:g}$", fontsize=9)
        for setter, name in ((ax.set_xlabel, "$w_1$"), (ax.set_ylabel, "$w_2$"),
                             (ax.set_zlabel, "$a$")):
            setter(name, fontsize=7)
    return fig, ("Fig. 2: conserved surfaces eta_w a^2 - eta_a ||w||^2 = delta (grey, theory) and "
                 "gradient-flow trajectories (markers) from a0 w0 = beta0 with both signs of a0: "
                 "one sheet (delta<0), cone (0), two sheets (delta>0)")


def potentials(potential, symbols):
    import sympy as sp
    q = sp.lambdify(symbols, potential, "numpy")
    r = np.linspace(0, 3, 200)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for d in (-4.0, -1.0, 0.0, 1.0, 4.0):
        ax.plot(r, q(r, d), "-", label=rf"$\Phi_\delta$, $\delta={d:g}$")
    ax.set(xlabel=r"$\|\beta\|$", ylabel=r"$\Phi_\delta$")
    ax.legend(fontsize=7)
    return fig, ("Potentials Phi_delta(||beta||) of Eq. (67) (theory only): l2-like for delta > 0, "
                 "l1-like cone for delta < 0")


def potential_curvatures(printed, eta_a, eta_w):
    """Thm B.6 / Eq. (114): the printed potentials' q'' against 1/sqrt(4 eta_a eta_w x^2 +
    delta^2)."""
    import sympy as sp

    from theory.rich_quick import wide_linear as wl
    lams = np.linspace(0.05, 3.0, 25)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    x = np.linspace(0.01, 3, 200)
    for delta, col in ((2.0, "C0"), (-2.0, "C1")):
        ax.plot(x, 1 / np.sqrt(4 * eta_a * eta_w * x ** 2 + delta ** 2), color=col,
                label=f"target 1/sqrt(4 eta_a eta_w x^2 + delta^2), delta={delta:+}")
        for key, mk in (("q (Thm B.6)", "x"), ("q (114)", "+")):
            f = sp.lambdify([wl.lam], sp.diff(printed[key], wl.lam, 2).subs(
                {wl.eta_a: eta_a, wl.eta_w: eta_w, wl.delta: delta}), "numpy")
            ax.plot(lams, f(lams), mk, color=col, label=f"{key}'' (printed), delta={delta:+}")
    ax.set(xlabel="singular value x", ylabel="q''(x)")
    ax.legend(fontsize=6)
    return fig, ("Theorem B.6 / Eq. (114) potentials: target curvature (lines) vs the printed q'' "
                 f"(markers) at eta_a={eta_a}, eta_w={eta_w}; the corrected q matches the lines.")


def _series(x, series: dict, figsize, **axes):
    """Each of ``series`` (label: values) against ``x``, markers joined by lines; ``axes`` set
    the axes (scales, labels)."""
    fig, ax = plt.subplots(figsize=figsize)
    for (label, v), mk in zip(series.items(), "os^"):
        ax.plot(x, v, mk + "-", label=label)
    ax.set(**axes)
    ax.legend(fontsize=7)
    return fig


def depth_alignment(cos, depths):
    return (_series(depths, cos, (5, 3.2), xscale="log", xlabel="depth l",
                    ylabel="cos(beta(inf), beta0)"),
            "Depth and direction preservation of the corrected Eq. (119) bias (lines join the "
            "minimisers): increases with l only when y/(X beta0) > 0.")


def expressivity(fit, widths):
    fig = _series(widths, fit, (4.5, 3), xscale="log", yscale="log", xlabel="hidden width h",
                  ylabel="rel. test error")
    return fig, ("Expressivity of bias-free ReLU networks (L923): random-feature fits (markers) reach "
                 "1-homogeneous targets with a linear odd part, not r cos(3 theta) nor x1^2.")


def fig9():
    from numerics.rich_quick import piecewise as pw
    fig, axes = plt.subplots(1, 2, figsize=(8, 4))
    g = np.linspace(-3, 3, 300)
    G = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    for ax, biases in zip(axes, (True, False)):
        net = pw.DeepReLU.random(2, [20, 20, 20], np.random.default_rng(9), biases=biases)
        ax.imshow((net.patterns(G).sum(0) % 2).reshape(300, 300), origin="lower",
                  extent=(-3, 3, -3, 3), cmap="Greys", interpolation="nearest")
        ax.set_title(f"3-layer ReLU, 20/layer, {'with' if biases else 'without'} biases", fontsize=8)
        ax.set(xlabel="x1", ylabel="x2")
    return fig, ("Fig. 9 reproduction: activation regions of a 3-layer ReLU net at init coloured by "
                 "the parity of active units (polytopes with biases, cones without).")
