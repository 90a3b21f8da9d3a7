"""The figures of the long bias paper's empirical claims, shared with the workshop paper where
the two report the same experiment (theory as lines, simulation as markers):
each function takes the runs (``numerics.bias.experiments.ToyPair``) and returns a matplotlib
figure.  Time is the paper's t/tau."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import sympy as sp
from scipy import stats as scipy_stats
from scipy.linalg import orthogonal_procrustes

from numerics.bias.mode_fit import fit_a0, theory_loss
from numerics.bias.representations import classical_mds
from numerics.bias.units import kinks, unit_fractions
from numerics.datasets import correlations
from theory.bias import hitting as h
from verify.bias import evidence as ev
from verify.bias import symbolic as sym

COLOURS = {"linear": "tab:blue", "relu": "tab:red", "theory": "black"}


def loss_panel(ax, t, curves, *, title, theory=None, every=None, ylabel="loss L (1/2-sum)"):
    """``curves``: {label: (loss (T, K), colour, marker)}; seed means as markers with +-1 sd
    bands; ``theory``: optional (t, L) line."""
    every = every or max(1, len(t) // 40)
    for label, (loss, colour, marker) in curves.items():
        mean, sd = loss.mean(1), loss.std(1)
        ax.fill_between(t, mean - sd, mean + sd, color=colour, alpha=0.15, lw=0)
        ax.plot(t[::every], mean[::every], marker, color=colour, ms=3.5, mfc="none", ls="none",
                label=label)
    if theory is not None:
        ax.plot(*theory, "-", color=COLOURS["theory"], lw=1, label="closed form, fitted a0")
    ax.set(xlabel="t / tau", ylabel=ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


def figure(ncols, width=8.0, height=3.2):
    # the report keeps every figure open until it writes the PDF: many figures are expected
    with plt.rc_context({"figure.max_open_warning": 0}):
        fig, axes = plt.subplots(1, ncols, figsize=(width, height), squeeze=False)
    return fig, axes[0]


def finish(fig):
    fig.tight_layout()
    return fig


def bars(ax, groups, values, *, ylabel, title):
    """``values``: {series: [(mean, ci_half), ...] per group}."""
    n = len(values)
    x = np.arange(len(groups))
    for i, (label, pts) in enumerate(values.items()):
        means, halves = zip(*pts)
        ax.bar(x + (i - (n - 1) / 2) * 0.8 / n, means, 0.8 / n, yerr=halves, capsize=3,
               label=label)
    ax.set_xticks(x, groups)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


def hierarchy_loss_figure(runs):
    """Two panels (with / without hidden bias): seed-mean losses and the Eq. (7) line."""
    lin, relu = runs["linear"], runs["relu"]
    t = lin.t
    fig, axes = figure(2)
    for ax, c, title in ((axes[0], 1.0, "with bias (c = 1)"), (axes[1], None, "without bias")):
        k = lin.select(c or 0.0)
        a0 = fit_a0(t, relu.loss[:, k].mean(1), lin.X, lin.Y, c)[0]
        loss_panel(ax, t, {"linear": (lin.loss[:, k], COLOURS["linear"], "o"),
                           "ReLU": (relu.loss[:, k], COLOURS["relu"], "s")},
                   title=title, theory=(t, theory_loss(t, lin.X, lin.Y, c, a0)))
    return finish(fig)


def mds_figure(runs, seed_index=0):
    """Classical MDS of linear and ReLU hidden representations over training, the ReLU
    embedding Procrustes-aligned to the linear one."""
    lin, relu = runs["linear"], runs["relu"]
    t = lin.t
    n_items = lin.X.shape[-1]
    fig, axes = figure(2)
    sel = slice(0, len(t), max(1, len(t) // 30))
    for ax, c, title in ((axes[0], 1.0, "with bias"), (axes[1], 0.0, "without bias")):
        k = lin.select(c)[seed_index]
        # each network embedded on its own (rows: (time, item) hidden vectors), both
        # standardised, and the ReLU embedding rotated onto the linear one (Procrustes)
        xy = []
        for run in (lin, relu):
            e = classical_mds(run.hidden()[sel, k].transpose(0, 2, 1).reshape(-1, run.W1.shape[2]))
            e = e - e.mean(0)
            xy.append(e / np.linalg.norm(e))
        rot, _ = orthogonal_procrustes(xy[1], xy[0])
        xy = np.stack([xy[0], xy[1] @ rot]).reshape(2, -1, n_items, 2)
        for run_xy, colour, marker, name in ((xy[0], COLOURS["linear"], "o", "linear"),
                                             (xy[1], COLOURS["relu"], "s", "ReLU")):
            for item in range(n_items):
                ax.plot(run_xy[:, item, 0], run_xy[:, item, 1], marker, color=colour, ms=2.5,
                        alpha=0.3 + 0.7 * item / max(1, n_items - 1),
                        label=name if item == 0 else None)
        ax.set_title(f"{title}: classical MDS, seed {seed_index}", fontsize=9)
        ax.set(xlabel="MDS 1", ylabel="MDS 2")
        ax.legend(fontsize=7)
    return finish(fig)


def parallel_figure(runs, summary, designs):
    """Loss panels with the dotted linear-task line, and R^2 bars (mean, 95% t-CI)."""
    lin, relu = runs["linear"], runs["relu"]
    fig, axes = figure(3, width=8, height=3)
    for ax, key, title in ((axes[0], "bias", "with bias"), (axes[1], "no bias", "without bias")):
        k = summary[key]["k"]
        loss_panel(ax, relu.t, {"linear": (lin.loss[:, k], COLOURS["linear"], "o"),
                                "ReLU": (relu.loss[:, k], COLOURS["relu"], "s")}, title=title)
        ax.axhline(1.0, ls=":", color="k")
        ax.set_xlim(0, 25)

    def mean_ci(x):
        return x.mean(), scipy_stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size)
    bars(axes[2], list(designs), {key: [mean_ci(summary[key]["r2"][d]) for d in designs]
                                  for key in summary},
         ylabel="R^2 (centred)", title="representational variance explained")
    return finish(fig)


def mechanism_figure(pair):
    """BL Fig 3A-C (c = 1): norms of hidden biases and weights, ReLU bias trajectories of seed 0,
    fractions of always-on / always-off / gating units."""
    lin, relu = pair["linear"], pair["relu"]
    t, kb = relu.t, relu.select(1.0)
    fig, axes = figure(3, width=8, height=3)
    for run, marker in ((lin, "o"), (relu, "s")):
        b_norm, w_norm = ev.bias_weight_norms(run, kb)
        axes[0].plot(t, b_norm.mean(1), marker, ms=2, color=COLOURS[run.activation],
                     label=f"||b|| {run.activation}")
        axes[0].plot(t, w_norm.mean(1), marker, ms=2, mfc="none", color=COLOURS[run.activation],
                     label=f"||W1|| {run.activation}")
    axes[0].set_title("A: norms (seed mean)", fontsize=9)
    axes[1].plot(t, relu.W1[:, kb[0], :, 0], ".", ms=1, color="tab:red")
    axes[1].set_title("B: ReLU biases b_j (seed 0)", fontsize=9)
    for mask, name, colour in zip(ev.unit_masks(pair),
                                  ("always-on", "always-off", "gating"),
                                  ("tab:green", "k", "tab:orange")):
        axes[2].plot(t, mask.mean(-1).mean(1), "o", ms=2, color=colour, label=name)
    axes[2].set_title("C: unit fractions (seed mean)", fontsize=9)
    for ax in axes:
        ax.set_xlabel("t / tau")
    axes[0].legend(fontsize=6)
    axes[2].legend(fontsize=6)
    return finish(fig)


def gated_linear_figure(pair, seeds=(0, 1)):
    """BL Fig 4: the ReLU loss (markers) and the gated linear closed form from t* (line)."""
    relu = pair["relu"]
    t, kb = relu.t, relu.select(1.0)
    idx, preds = ev.gated_predictions(pair)
    fig, axes = figure(len(seeds))
    for ax, j in zip(axes, seeds):
        i, k = int(idx[j]), kb[j]
        ax.plot(t[::3], relu.loss[::3, k], "s", ms=3, mfc="none", color=COLOURS["relu"],
                label="ReLU (simulation)")
        ax.plot(t, preds[j], "-", color="k", lw=1, label="gated linear from t*")
        ax.axvline(t[i], ls=":", color="grey")
        ax.set_title(f"seed {j}: t* = {t[i]:.1f} tau", fontsize=9)
        ax.set(xlabel="t / tau", ylabel="loss")
        ax.legend(fontsize=7)
    return finish(fig)


def kinks_figure(pair):
    """BL Fig 12: kinks of the ReLU units of seed 0 over training; red dashed line at 0."""
    relu = pair["relu"]
    k = kinks(relu.W1[:, relu.select(1.0)[0]], 1.0)
    fig, (ax,) = figure(1, width=5, height=3.2)
    ax.plot(relu.t, k, ".", ms=1, color="tab:purple")
    ax.axhline(0, ls="--", color="red")
    ax.set(ylim=(-2, 2), xlabel="t / tau", ylabel="kink k_j")
    return finish(fig)


def margin_sweep_figure(pair):
    """BL Fig 11: XOR reliance with and without bias, and the shift-aligned ReLU-linear gap,
    over the margin Delta (seed means)."""
    relu = pair["relu"]
    grid = sorted(set(pair.delta.tolist()))
    rows = []
    for d in grid:
        kb, kn = ev.margin_members(pair, d, 1.0), ev.margin_members(pair, d, 0.0)
        rows.append((ev.xor_reliance(relu, kb, 1.0).mean(), ev.xor_reliance(relu, kn, 0.0).mean(),
                     ev.shifted_gap(pair, kb).mean()))
    rows = np.array(rows)
    fig, axes = figure(2)
    axes[0].plot(grid, rows[:, 0], "o", color="tab:red", label="ReLU bias")
    axes[0].plot(grid, rows[:, 1], "s", color="grey", label="ReLU no bias")
    axes[0].set_ylabel("XOR reliance (0 linear, 1 XOR)")
    axes[1].plot(grid, rows[:, 2], "o", color="tab:purple", label="bias, whole run")
    axes[1].set_ylabel("shift-aligned max gap / L0")
    for ax in axes:
        ax.set(xscale="log", xlabel="Delta")
        ax.legend(fontsize=7)
    return finish(fig)


def c_sweep_figure(pair):
    """BL Fig 10: losses and always-on / gating / dead fractions over the bias strength c (red:
    c = 0; ReLU markers, linear lines; seed means)."""
    lin, relu = pair["linear"], pair["relu"]
    t = relu.t
    fractions = dict(zip(("on", "off", "gate"), unit_fractions(relu.preactivation())))
    cs = sorted(set(relu.c.tolist()))
    fig, axes = figure(4, width=8, height=2.8)
    cmap = matplotlib.colormaps["viridis"]
    every = slice(0, len(t), 3)
    for i, c in enumerate(cs):
        k = relu.select(c)
        colour = "red" if c == 0 else cmap(i / len(cs))
        axes[0].plot(t[every], relu.loss[every, k].mean(1), "o", ms=1.8, color=colour,
                     label=f"c={c}")
        axes[0].plot(t, lin.loss[:, k].mean(1), "-", lw=0.6, color=colour)
        for ax, key in zip(axes[1:], ("on", "gate", "off")):
            ax.plot(t[every], fractions[key][every][:, k].mean(1), "o", ms=1.8, color=colour)
    for ax, title in zip(axes, ("loss (ReLU markers, linear lines)", "always-on", "gating",
                                "dead")):
        ax.set_title(title, fontsize=8)
        ax.set_xlabel("t / tau")
    axes[0].legend(fontsize=5)
    return finish(fig)


def gated_delay_figure(delays):
    """BL-Eq(14): trained half-rise delays (mean, 2 SE) against (tau/2s) ln(1/g), g the alive
    fraction (solid) and the dead rate as printed (dashed); ``delays``: symbolic.gated_delays."""
    dead, mean, shifts, s, tau = (delays[k] for k in ("dead", "mean", "shifts", "s", "tau"))
    fig, (ax,) = figure(1, width=6.5, height=3.8)
    f = np.linspace(0.02, 0.9, 100)
    se = shifts.std(axis=2, ddof=1) / np.sqrt(shifts.shape[2])
    for a in range(len(s)):
        line, = ax.plot(f, tau / (2 * s[a]) * np.log(1 / (1 - f)), "-",
                        label=f"alive-fraction reading, s = {s[a]:.3f}")
        ax.plot(f, tau / (2 * s[a]) * np.log(1 / f), "--", color=line.get_color(), lw=0.8)
        ax.errorbar(dead, mean[:, a], yerr=2 * se[:, a], fmt="o", ms=4, color=line.get_color())
    ax.set(xlabel="fraction of hidden units gated off", ylabel="delay of the half-rise [steps]",
           ylim=(0, 1.3 * mean.max()))
    ax.legend(fontsize=7, title="dashed: g = dead rate (as printed)", title_fontsize=7)
    return fig


def delay_figure():
    """BL-Eq(14): the corrected delay in units of tau/(2s) against the alive fraction g, the
    hitting-time differences of the mode law at several rho, and the printed reading."""
    s, d, a0 = 1.0, 1.0, 1e-3
    g = np.linspace(0.05, 1.0, 60)
    corrected = [float(sp.N(h.delay_corrected.subs({h.s: s, h.d: d, h.a0: a0, h.tau: 2.0,
                                                   h.g: v}))) for v in g]
    fig, (ax,) = figure(1, width=6.5, height=3.8)
    ax.plot(g, corrected, "-", label="Eq. (14) corrected, g = alive fraction")
    ax.plot(1 - g, corrected, "--", label="as printed, g read as dead rate (plotted vs alive)")
    for rho, marker in ((0.01, "o"), (0.3, "s"), (0.9, "^")):
        gm = np.linspace(0.1, 1.0, 10)
        shift = [sym.a0_shift(rho, s, d, a0, 2.0, v) for v in gm]
        ax.plot(gm, shift, marker, ms=4, ls="none", label=f"t^(g a0) - t^(a0), rho = {rho}")
    ax.set(xlabel="fraction of units alive at init", ylabel="delay  [tau / (2 s)]", ylim=(0, 4))
    ax.legend(fontsize=7)
    return fig


def s0_figure(labels):
    """BL-Prop1: the top singular value of Sigma~yx (SVD, markers) over Eq. (5)'s s0 (line at 1)
    against the bias strength c, for each label matrix of ``labels`` (name -> Y), X = I_P."""
    cs = np.logspace(-2, 2, 25)
    fig, (ax,) = figure(1, width=6.5, height=3.8)
    ax.plot(cs, np.ones_like(cs), "-", color="k",
            label="Eq. (5): sigma_1 = sqrt(c^2 + 1/P)||ybar||")
    for (name, Y), marker in zip(labels.items(), "os^v"):
        P, ybar = Y.shape[1], np.linalg.norm(Y.mean(1))
        sig = [np.linalg.svd(correlations(np.eye(P), Y, c)[0], compute_uv=False)[0] for c in cs]
        ax.plot(cs, sig / (np.sqrt(cs ** 2 + 1 / P) * ybar), marker, ms=4, ls="none",
                label=f"SVD, {name}")
    ax.set(xscale="log", yscale="log", xlabel="bias strength c",
           ylabel="sigma_1(Syx~) / s0 formula")
    ax.legend(fontsize=7)
    return fig


def loss_figure(panels, *, hline=None, per_sample=False):
    """One panel per ``(title, runs, members)``: seed-mean losses (markers, +-1 sd bands) of the
    linear and ReLU networks ``members`` of ``runs``; ``hline``: a dotted level (the linear
    optimum); ``per_sample``: the loss per training sample (image runs)."""
    fig, axes = figure(len(panels))
    for ax, (title, runs, k) in zip(axes, panels):
        lin, relu = runs["linear"], runs["relu"]
        n = min(len(lin.t), len(relu.t))
        scale = 1 / relu.n_train if per_sample else 1.0
        loss_panel(ax, relu.t[:n], {"linear": (scale * lin.loss[:n, k], COLOURS["linear"], "o"),
                                    "ReLU": (scale * relu.loss[:n, k], COLOURS["relu"], "s")},
                   title=title, ylabel="training loss per sample" if per_sample else
                   "loss L (1/2-sum)")
        if hline is not None:
            ax.axhline(hline, ls=":", color="grey")
    return finish(fig)


def bias_panels(runs, title, c=1.0):
    """The two panels of a with / without bias figure: members of bias strength c and 0."""
    return [(f"{title}: with bias", runs, np.flatnonzero(np.isclose(runs["relu"].c, c))),
            (f"{title}: without bias", runs, np.flatnonzero(runs["relu"].c == 0))]


def both_layer_panels(studies):
    """The panels of BL Fig 9 / BA Fig 5: the hierarchy and XOR runs with biases in both layers."""
    return [(f"{name}, biases in both layers", s.base, s.base.relu.select(1.0))
            for name, s in zip(("hierarchy", "XOR"), studies)]
