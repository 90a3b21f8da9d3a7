"""BL Fig 10 (App C.4): ReLU networks on the hierarchical task over the bias strength c, 5 seeds
per c, hidden width 64, sigma^2 = 2e-4, full-batch GD on the 1/2-sum loss at lr 5e-3 (25x the
paper's; time as t/tau through theory.conventions), 30 tau.  The effective bias is c b and its
learning rate scales with c^2 (BL-Def-Aug), so small c is slow.
"""
import numpy as np
import pytest

from numerics.bias import alignment as al
from numerics.bias import stats
from numerics.bias.experiments import c_sweep
from numerics.bias.units import unit_fractions
from verify.bias.exp_plots import figure, finish

CS = (0.0, 0.1, 0.5, 1.0, 2.0, 5.0)


@pytest.mark.claim("BL-Fig10")
def test_bias_strength_sweep(claim, report_figure):
    runs = c_sweep("ci", CS)
    lin, relu = runs["linear"], runs["relu"]
    t = relu.t
    on, off, gate = unit_fractions(relu.preactivation())
    rows = {}
    for c in CS:
        k = relu.select(c)
        rows[c] = dict(on=on[:, k].max(0), gate=gate[:, k], off=off[:, k],
                       gap=al.max_gap(relu.loss[:, k], lin.loss[:, k], t) / lin.loss[0, k].mean())
    base = rows[0.0]
    shoots = {c: bool(stats.less(base["on"], rows[c]["on"])[0] and rows[c]["on"].mean() > 0.3)
              for c in CS[1:]}
    i_mid = int(np.argmin(np.abs(t - 5)))
    gate_small = {c: bool(rows[c]["gate"][i_mid].mean() < 0.5 * base["gate"][i_mid].mean())
                  for c in CS[1:]}
    only_zero = {c: bool(stats.less(rows[c]["gap"], base["gap"])[0]) for c in CS[1:]}
    ok = all(shoots.values()) and all(gate_small.values()) and all(only_zero.values())
    claim.reproduced(ok, (
        "5 seeds per c, lr 25x paper, 30 tau; for every c > 0 against c = 0: max_t f_on higher "
        "(Welch p < 0.05) and > 0.3 -> " + str(shoots) + "; gating fraction at 5 tau below half "
        "the c = 0 value -> " + str(gate_small) + "; max|L_relu - L_lin|/L0 smaller than at c = 0"
        " (Welch p < 0.05) -> " + str(only_zero) + ".  Means per c (max f_on, gating at 5 tau, "
        "final dead, gap): " + "; ".join(
            f"c={c}: {rows[c]['on'].mean():.2f}, {rows[c]['gate'][i_mid].mean():.2f}, "
            f"{rows[c]['off'][-1].mean():.2f}, {rows[c]['gap'].mean():.3f}" for c in CS)
        + ".  Small c is slow because the bias learns at rate c^2 lr"))
    fig, axes = figure(4, width=8, height=2.8)
    cmap = __import__("matplotlib").colormaps["viridis"]
    for i, c in enumerate(CS):
        k = relu.select(c)
        colour = "red" if c == 0 else cmap(i / len(CS))
        every = slice(0, len(t), 3)
        axes[0].plot(t[every], relu.loss[every, k].mean(1), "o", ms=1.8, color=colour,
                     label=f"c={c}")
        axes[0].plot(t, lin.loss[:, k].mean(1), "-", lw=0.6, color=colour)
        for ax, key in zip(axes[1:], ("on", "gate", "off")):
            frac = {"on": on, "gate": gate, "off": off}[key][:, k].mean(1)
            ax.plot(t[every], frac[every], "o", ms=1.8, color=colour)
    for ax, title in zip(axes, ("loss (ReLU markers, linear lines)", "always-on", "gating",
                                "dead")):
        ax.set_title(title, fontsize=8)
        ax.set_xlabel("t / tau")
    axes[0].legend(fontsize=5)
    report_figure(finish(fig), "BL Fig 10 reproduced on the hierarchy over bias strength c "
                  "(red: c = 0): losses, and fractions of always-on, gating and dead units "
                  "(markers: seed means of ReLU simulations; lines: linear networks).")
