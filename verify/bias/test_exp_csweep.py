"""BL Fig 10 (App C.4): ReLU networks on the hierarchical task over the bias strength c, 5 seeds
per c, hidden width 64, sigma^2 = 2e-4, full-batch GD on the 1/2-sum loss at lr 5e-3 (scale
'ci', 25x the paper's) or 2e-4 (scale 'full'); time as t/tau through theory.conventions, 30 tau.
The effective bias is c b and its learning rate scales with c^2 (BL-Def-Aug), so small c is slow.

Full scale (``--scale=full``, the ``[full]`` variants), cost: the same runs at the paper's lr 2e-4
(25x the steps): 2 activations x 20-50 members x 37,500-75,000 full-batch steps of a 64-unit network
on 4-8 items, ~1e5 FLOP per member-step (~1e12 FLOP per task); ~1 min per task on one H100, 1-2 min
on 2 CPU cores (measured: all toy full variants 3 min here).
"""
import numpy as np
import pytest

from numerics.bias import alignment as al
from numerics.bias.experiments import c_sweep
from numerics.bias.units import unit_fractions
from verify.bias.evidence import direction, toy_setup
from verify.bias.exp_plots import figure, finish
from verify.measurement import reading

CS = (0.0, 0.1, 0.5, 1.0, 2.0, 5.0)
L614 = "L614"


#: a smaller rate at the same horizon in t/tau, for the cases the claim turns on (c = 0, 0.1)
SENSITIVITY_LR, SENSITIVITY_CS = 1e-3, (0.0, 0.1)


def sweep_rows(runs, cs):
    """Per c: max_t f_on, gating and dead fractions (T, seeds), max|L_relu - L_lin| / L0, and the
    index of t = 5 tau."""
    lin, relu = runs["linear"], runs["relu"]
    on, off, gate = unit_fractions(relu.preactivation())
    rows = {}
    for c in cs:
        k = relu.select(c)
        rows[c] = dict(on=on[:, k].max(0), gate=gate[:, k], off=off[:, k],
                       gap=al.max_gap(relu.loss[:, k], lin.loss[:, k], relu.t)
                       / lin.loss[0, k].mean())
    return rows, int(np.argmin(np.abs(relu.t - 5)))


def lr_sensitivity(claim, rows, i_mid):
    """The ci deviation (lr 25x the paper's) against a 5x smaller rate at the same t/tau: the
    seed means the claim turns on (max f_on, gating at 5 tau, gap; c = 0 and 0.1) move by at most
    a twentieth."""
    def means(r, i, c):
        return np.array([r[c]["on"].mean(), r[c]["gate"][i].mean(), r[c]["gap"].mean()])

    slow, j_mid = sweep_rows(c_sweep("ci", SENSITIVITY_CS, lr=SENSITIVITY_LR), SENSITIVITY_CS)
    moved = max(np.abs(means(rows, i_mid, c) - means(slow, j_mid, c)).max()
                for c in SENSITIVITY_CS)
    return claim.measure(f"c in {SENSITIVITY_CS}: largest change of a seed-mean statistic (max "
                         f"f_on, gating at 5 tau, gap / L0) from lr 5e-3 to lr {SENSITIVITY_LR:g}"
                         " at the same t/tau", moved, "<=", 0.05,
                         source=reading("a twentieth of a unit fraction or of L0"))


@pytest.mark.claim("BL-Fig10")
def test_bias_strength_sweep(claim, report_figure, scale_name):
    runs = c_sweep(scale_name, CS)
    lin, relu = runs["linear"], runs["relu"]
    t = relu.t
    on, off, gate = unit_fractions(relu.preactivation())
    rows, i_mid = sweep_rows(runs, CS)
    base = rows[0.0]
    sensitivity = {"learning rate": lr_sensitivity(claim, rows, i_mid)} if scale_name == "ci" \
        else None
    ms = []
    for c in CS[1:]:
        r = rows[c]
        ms += direction(claim, f"c = {c}: max_t f_on (always-on fraction), c = 0 below", base["on"],
                        r["on"], L614, "the fraction of neural network units that perform "
                        "effectively linear shoots up early in training whenever c > 0")
        ms += direction(claim, f"c = {c}: gating fraction at 5 tau below c = 0",
                        r["gate"][i_mid], base["gate"][i_mid], L614, "the number of neurons which "
                        "perform gating is small unless c = 0")
        ms += direction(claim, f"c = {c}: max|L_relu - L_lin| / L0 below c = 0", r["gap"],
                        base["gap"], L614, "only networks with no bias term significantly diverge "
                        "from linear dynamics")
        ms.append(claim.measure(f"c = {c}: seed-mean max_t f_on", r["on"].mean(), ">", 0.3,
                                source=reading("'shoots up': to at least 0.3")))
        ms.append(claim.measure(f"c = {c}: seed-mean gating fraction at 5 tau over that at c = 0",
                                r["gate"][i_mid].mean() / base["gate"][i_mid].mean(), "<", 0.5,
                                source=reading("'small unless c = 0': below half the c = 0 "
                                               "value")))
    claim.reproduced(
        *ms, setup=toy_setup(scale_name, "4-item hierarchy (X = I_4), c in " + str(CS),
                             int(relu.select(0.0).size), 30.0, sensitivity=sensitivity),
        note="means per c (max f_on, gating at 5 tau, final dead, gap): " + "; ".join(
            f"c={c}: {rows[c]['on'].mean():.2f}, {rows[c]['gate'][i_mid].mean():.2f}, "
            f"{rows[c]['off'][-1].mean():.2f}, {rows[c]['gap'].mean():.3f}" for c in CS)
        + "; the bias learns at rate c^2 lr, so small c is slow")
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
