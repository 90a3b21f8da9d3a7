"""Figures of the rich_quick report: each function takes runner results and returns
``(matplotlib figure, caption)`` for ``report_figure``.  Nothing here measures or decides."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from verify.rich_quick import evidence as E


def fig1a(run):
    """Trajectories of |a_i| w_i of the first seed's four students, teacher directions dotted."""
    W, a = E.cell_arrays(run, "W")[:, 0], E.cell_arrays(run, "a")[:, 0]     # (T, cells, h, ...)
    fig, axs = plt.subplots(1, len(run.cells), figsize=(8, 2.4))
    for m, ax in enumerate(axs):
        P = np.abs(a[:, m, :, None]) * W[:, m]
        for i in range(P.shape[1]):
            ax.plot(P[:, i, 0], P[:, i, 1], "-", color="0.6", lw=0.5)
            ax.plot(P[-1, i, 0], P[-1, i, 1], "o", color="C0" if a[-1, m, i] > 0 else "C3", ms=2)
        lim = np.abs(P[-1]).max() * 1.2
        for w in run.teacher_w[0]:
            ax.plot([0, lim * w[0]], [0, lim * w[1]], "k:", lw=0.8)
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        tau, delta = run.cells[m]
        ax.set_title(rf"$\tau={tau:g}, \delta={delta:g}$", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    steps = int(run.trajectory.steps[-1])
    return fig, (f"Fig. 1(a), {run.ran.scale} run, seed {run.seeds[0]}: trajectories of |a_i| w_i "
                 f"(lines, end markers coloured by sgn a_i) of the 50-neuron student over "
                 f"{steps:,} GD steps at lr {run.ran['learning rate']:g}; teacher directions dotted")


def fig1b(run):
    """Seed-mean S(0, t) and test MSE of each cell against GD steps."""
    S, test = E.cell_arrays(run, "S").mean(1), E.cell_arrays(run, "test").mean(1)
    steps = np.maximum(run.trajectory.steps, 1)
    fig, axs = plt.subplots(1, 2, figsize=(8, 3), layout="constrained")
    for j, (tau, delta) in enumerate(run.cells):
        style = "-" if tau == min(c[0] for c in run.cells) else "--"
        label = rf"$\tau={tau:.2g}, \delta={delta:g}$"
        axs[0].plot(steps, S[:, j], style + "o", ms=3, label=label)
        axs[1].plot(steps, test[:, j], style + "o", ms=3, label=label)
    for ax, name in zip(axs, ("kernel distance S(0, t)", "test MSE")):
        ax.set_xscale("log")
        ax.set_xlabel("GD steps")
        ax.set_title(name, fontsize=9)
    axs[1].set_yscale("log")
    axs[0].legend(fontsize=6)
    return fig, (f"Fig. 1(b), {run.ran.scale} run: seed means over {len(run.seeds)} seeds of the "
                 f"kernel distance and the test MSE at the cells the caption compares, d = 100, "
                 f"n = 1000, lr 5e-3/tau^2 (step 0 drawn at 1)")


def _alpha_axis(ax, alphas):
    ax.set_xscale("log")
    ax.set_xticks(alphas, [f"{a:g}" for a in alphas])
    ax.minorticks_off()
    ax.set_xlabel("alpha (upstream > 1)")


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
    ax.set_xscale("log")
    ax.set_xlabel("training set size")
    ax.set_ylabel("test accuracy")
    ax.legend(fontsize=6)
    return fig, (f"Fig. 6(c), {run.ran.scale} run: RHM with L = {run.ran['RHM levels L']}, test "
                 f"accuracy against training size per alpha (seed means over {len(run.seeds)} "
                 "seeds, each with its own RHM)")


def regimes(run):
    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    for (name, v), mk in zip(run.table.items(), "osd"):
        ax.plot(run.deltas, np.maximum(v[:, 0], 1e-8), mk, label=f"{name}: S(0, end)")
        ax.plot(run.deltas, np.maximum(v[:, 1], 1e-8), mk, mfc="none", alpha=0.5,
                label=f"{name}: S(0, 5/|delta|)")
    ax.set_yscale("log")
    ax.set_xlabel("delta_i (all neurons)")
    ax.set_ylabel("kernel distance")
    ax.legend(fontsize=6)
    return fig, ("Funnel (d > h >= c) networks are lazy (S -> 0) as delta -> +oo, inverted funnels "
                 "as delta -> -oo, square networks both ways; the opposite limits are delayed rich "
                 "(open markers: S after the fast phase); balanced is rich.  Gradient flow, "
                 f"whitened data, rates {run.ran['rates (eta_a, eta_w)']}.")


def fig5_curves(run):
    t = np.asarray(run.trajectory.time)
    n_s = len(run.seeds)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
    for k, (delta, col) in enumerate(zip(run.deltas, ("C0", "C1", "C2"))):
        cols = slice(k * n_s, (k + 1) * n_s)
        ham = np.asarray(run.trajectory.records["hamming"])[:, cols]
        loss = np.asarray(run.trajectory.loss)[:, cols]
        name = {0: "downstream", 1: "balanced", 2: "upstream"}[k]
        axes[0].plot(t, ham.mean(1), ".", ms=3, color=col, label=f"{name} (delta {delta:g})")
        axes[1].plot(t, loss.mean(1) / loss[0].mean(), ".", ms=3, color=col)
    for ax in axes:
        ax.set_xscale("symlog", linthresh=1e-2)
        ax.set_xlabel("t (gradient-flow time)")
    axes[1].set_yscale("log")
    axes[0].set_ylabel("Hamming distance of patterns from init")
    axes[1].set_ylabel("loss / L(0)")
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
            ax.set_xlim(-2, 2)
            ax.set_ylim(-2, 2)
            ax.set_title(f"delta {run.deltas[col]:g}, {label} (max|f| {vmax:.2g})", fontsize=7)
            ax.set_xticks([])
            ax.set_yticks([])
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
        ax.set_xlabel("t")
        ax.set_ylabel(name)
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
    ax.set_xlabel(r"$\beta_1$")
    ax.set_ylabel(r"$\beta_2$")
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
    ax.set_xlabel(r"$\beta_1$")
    ax.set_ylabel(r"$\beta_2$")
    ax.legend(fontsize=7)
    return fig, ("Fig. 4 (right): low-rank D.2 data X = [[0.5, 1]], y = 1.1, beta0 = [0.4, 0.05]; "
                 "Eq. (72) limits (squares) and gradient-flow limits (dots, coloured by delta), "
                 "unit rates")
