"""Figures of Make haste slowly (MHS-): each function takes results (and the evidence's
numbers) and returns a matplotlib figure; the tests hand it to ``report_figure``."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from verify.haste_slowly import evidence as E


def depth_losses(relu, gdln, schedule):
    """Fig 6b: every run of the 2-hidden-layer ReLU net (lines) and of the depth GDLN (markers),
    the stereotypical run of each in bold; ``schedule`` the GDLN's (start, switch) epochs."""
    fig, ax = plt.subplots(figsize=(6, 3.6))
    t = relu.time
    Lr, Lg = np.asarray(relu.loss), np.asarray(gdln.loss)
    ax.plot(t, Lr, "-", color="tab:blue", alpha=0.2)
    ax.plot(t, Lr[:, E.stereotypical(Lr)], "-", color="tab:blue", lw=2, label="ReLU, stereotypical")
    ax.plot(gdln.time[::6], Lg[::6], ".", color="tab:orange", alpha=0.3, ms=2)
    ax.plot(gdln.time[::6], Lg[::6, E.stereotypical(Lg)], "o", color="tab:orange", ms=3,
            label="depth GDLN, stereotypical")
    for epoch in schedule:
        ax.axvline(epoch, color="grey", lw=0.8, ls=":")
    ax.set(xlabel="epoch", ylabel="loss (1/2 sum)")
    ax.legend(fontsize=7)
    return fig
