"""The workshop paper's own figures (BA Fig 2A, Fig 3B, BA-T7, BA-S3): each function takes its
runs and returns a matplotlib figure; the figures it shares with the long paper are
``verify.bias.figures``'.  Time is the paper's t/tau."""
from __future__ import annotations

import numpy as np

from numerics.bias.representations import linear_cka
from numerics.closed_forms import mode_strength
from theory.conventions import flow_time
from verify.bias import evidence as ev
from verify.bias.figures import COLOURS, figure, finish
from verify.checks.mode_law import fit_a0_from_half_rise


def cka_figure(pair):
    """BA Fig 2A: linear CKA of linear and ReLU hidden representations over training."""
    lin, relu = pair["linear"], pair["relu"]
    fig, axes = figure(1, width=5.5, height=3.2)
    for c, name, marker in ((1.0, "bias", "o"), (0.0, "no bias", "s")):
        k = lin.select(c)
        value = linear_cka(lin.hidden()[1:, k], relu.hidden()[1:, k]).mean(1)
        axes[0].plot(lin.t[1:][::3], value[::3], marker, ms=3, mfc="none", label=name)
    axes[0].set(xlabel="t / tau", ylabel="linear CKA (linear vs ReLU)")
    axes[0].legend(fontsize=7)
    return finish(fig)


def task_losses_figure(pair, summary):
    """BA Fig 3B: per-task losses of ReLU networks with and without bias (seed means)."""
    t = pair["relu"].t
    fig, axes = figure(2)
    for ax, key in zip(axes, summary):
        ax.plot(t, summary[key]["lin_task"].mean(1), "o", ms=2, color=COLOURS["linear"],
                label="linear-task loss")
        ax.plot(t, summary[key]["xor_task"].mean(1), "s", ms=2, color=COLOURS["relu"],
                label="XOR-task loss")
        ax.set(xlim=(0, 25), xlabel="t / tau")
        ax.set_title(f"ReLU {key}", fontsize=9)
        ax.legend(fontsize=7)
    return finish(fig)


def half_width_figure(pairs, n_hid):
    """BA-T7: ReLU-linear loss gap (bias pixel) against the linear hidden width (seed means
    +-1 sd); ``pairs``: linear width -> runs."""
    ws = sorted(pairs)
    gaps = [ev.image_gaps(pairs[w], ev.BIAS_PIXEL, until=None) for w in ws]
    fig, axes = figure(1)
    axes[0].errorbar(ws, [g.mean() for g in gaps], yerr=[g.std() for g in gaps], fmt="o")
    axes[0].axvline(n_hid // 2, ls=":", color="grey")
    axes[0].set_xscale("log", base=2)
    axes[0].set(xlabel=f"linear hidden width (ReLU: {n_hid})", ylabel="max loss gap / L0")
    return finish(fig)


def trained_modes_figure(trained):
    """BA-S3: mode strengths of a trained linear network (seed 0, markers) against Eq. (3) with
    tau = 1/(N eps) and a0 fitted from each mode's half-rise (lines); ``trained``:
    ``numerics.bias.linear_runs.LinearModes``."""
    run, s, d = trained.run, trained.s, trained.d
    t = flow_time(run.steps, trained.lr, trained.samples, "bias_workshop")
    fig, (ax,) = figure(1, width=6.5, height=3.8)
    fine = np.linspace(0, t[-1], 400)
    for a in range(3):
        a0 = fit_a0_from_half_rise(t, run.modes[:, 0, a], s[a], d[a], 1.0)
        line, = ax.plot(fine, mode_strength(fine, s[a], d[a], a0), lw=1.5,
                        label=f"Eq. (3), s = {s[a]:.3f}")
        ax.plot(t[::12], run.modes[::12, 0, a], "o", ms=3, color=line.get_color(),
                label=f"GD, mode {a}")
    ax.set(xlabel="t / tau  (tau = 1/(N eps))", ylabel="mode strength a(t)")
    ax.legend(fontsize=7, ncol=2)
    return fig
