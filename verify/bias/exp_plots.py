"""Plot helpers shared by the empirical tests of both bias papers (theory as lines, simulation
as markers, DESIGN.md "Reports")."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

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
    ax.set_xlabel("t / tau")
    ax.set_ylabel(ylabel)
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
        m = [p[0] for p in pts]
        e = [p[1] for p in pts]
        ax.bar(x + (i - (n - 1) / 2) * 0.8 / n, m, 0.8 / n, yerr=e, capsize=3, label=label)
    ax.set_xticks(x, groups)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


def hierarchy_loss_figure(runs):
    """Two panels (with / without hidden bias): seed-mean losses and the Eq. (7) line."""
    from numerics.bias.mode_fit import fit_a0, theory_loss
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
    from scipy.linalg import orthogonal_procrustes

    from numerics.bias.representations import classical_mds
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
        ax.set_xlabel("MDS 1")
        ax.set_ylabel("MDS 2")
        ax.legend(fontsize=7)
    return finish(fig)


def xor_loss_figure(runs):
    lin, relu = runs["linear"], runs["relu"]
    fig, axes = figure(2)
    for ax, c, title in ((axes[0], 1.0, "with bias"), (axes[1], 0.0, "without bias")):
        k = lin.select(c)
        loss_panel(ax, lin.t, {"linear": (lin.loss[:, k], COLOURS["linear"], "o"),
                               "ReLU": (relu.loss[:, k], COLOURS["relu"], "s")}, title=title)
        ax.axhline(1.0, ls=":", color="grey")
    return finish(fig)


def both_bias_figure(hier, xor):
    fig, axes = figure(2)
    for ax, runs, title in ((axes[0], hier, "hierarchy, biases in both layers"),
                            (axes[1], xor, "XOR, biases in both layers")):
        lin, relu = runs["linear"], runs["relu"]
        k = lin.select(1.0)
        loss_panel(ax, lin.t, {"linear": (lin.loss[:, k], COLOURS["linear"], "o"),
                               "ReLU": (relu.loss[:, k], COLOURS["relu"], "s")}, title=title)
    return finish(fig)


def parallel_figure(runs, summary, designs):
    """Loss panels with the dotted linear-task line, and R^2 bars (mean, 95% t-CI)."""
    from scipy import stats as scipy_stats
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
