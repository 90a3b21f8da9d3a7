"""Figures of the cross-paper checks (the effective rank, the mode law against trained
networks): each function returns a matplotlib figure.  Time is the papers' t/tau."""
from __future__ import annotations

import numpy as np

from verify.bias.figures import figure


def effective_rank_figure(printed, corrected):
    """BL-Def-EffRank: the printed and corrected Eq. (1) (callables on singular values) over
    spectra (1, m, m, m) from one dominant value (m = 0) to flat (m = 1), and
    ``numerics.metrics.effective_rank`` of 6 x 6 matrices with those spectra."""
    from numerics.metrics import effective_rank
    mix = np.linspace(0, 1, 9)
    spectra = [[1.0] + [m] * 3 for m in mix]
    fig, axes = figure(1, width=6, height=3.6)
    ax = axes[0]
    for rank, label, style in ((printed, "Eq. (1) as printed", "--"),
                               (corrected, "corrected (no minus)", "-")):
        ax.plot(mix, [rank(sv) for sv in spectra], style, label=label)
    rng = np.random.default_rng(0)
    Q1, Q2 = (np.linalg.qr(rng.standard_normal((6, 4)))[0] for _ in range(2))
    ax.plot(mix, [effective_rank(Q1 @ np.diag(sv) @ Q2.T) for sv in spectra], "o",
            label="numerics.effective_rank of 6x6 matrices")
    ax.set_xlabel("singular values (1, m, m, m): m")
    ax.set_ylabel("effective rank rho")
    ax.axhline(0, color="grey", lw=0.5)
    ax.legend(fontsize=7)
    return fig


def mode_law_figure(law, time, strengths, s, d, a0):
    """Mode strengths of trained linear networks (markers, all seeds) against the closed form
    ``law(t, s, d, a0)`` with the median fitted a0 (lines)."""
    import matplotlib.pyplot as plt
    fig, axes = figure(1, width=7, height=4)
    ax = axes[0]
    grid = np.linspace(0, time[-1], 400)
    for m, colour in zip(range(len(s)), plt.cm.viridis(np.linspace(0, 0.85, len(s)))):
        ax.plot(grid, law(grid, s[m], d[m], np.median(a0[:, m])), color=colour,
                label=f"Eq. (7): s={s[m]:.3f}, d={d[m]:.2f}")
        ax.plot(time[::6], strengths[::6, :, m], "o", ms=2.5, color=colour, alpha=0.5)
    ax.set_xlabel("t / tau  (tau = 1/(P lr) steps)")
    ax.set_ylabel("mode strength a(t)")
    ax.set_title("Linear network with hidden bias, 4-item hierarchy")
    ax.legend(fontsize=7)
    return fig


def hitting_figure(hitting_time, observed, levels, s, d, a0):
    """Time each mode first reaches a fraction ``levels`` of its plateau (markers) against the
    hitting-time formula with the median fitted a0 (lines); ``observed`` (levels, K, modes)."""
    import matplotlib.pyplot as plt
    fig, axes = figure(1, width=7, height=4)
    ax = axes[0]
    grid = np.linspace(0.02, 0.97, 200)
    for m, colour in zip(range(len(s)), plt.cm.viridis(np.linspace(0, 0.85, len(s)))):
        ax.plot(grid, hitting_time(grid * s[m] / d[m], s[m], d[m], np.median(a0[:, m])),
                color=colour, label=f"Eq. (13), s={s[m]:.3f}")
        for f, obs in zip(levels, observed[:, :, m]):
            ax.plot(np.full(len(obs), f), obs, "o", color=colour, ms=3, alpha=0.6)
    ax.set_xlabel("threshold rho / (s/d)")
    ax.set_ylabel("hitting time t_hat / tau")
    ax.legend(fontsize=7)
    ax.set_title("Hitting times: formula (lines) and trained networks (markers)")
    return fig
