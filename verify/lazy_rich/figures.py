"""Figures of the LR- reports: each function takes a result of ``numerics.lazy_rich`` (and the
closed form it is drawn against, where there is one) and returns ``(figure, caption)`` for the
``report_figure`` fixture.  Nothing here measures.  Time is t/tau = lr x steps."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from numerics.lazy_rich.tasks import ITEMS


def framing(run):
    """Fig. 1B: the excess-loss curves of the first seed's three lambdas (both draws)."""
    excess = run.excess()[:, 0, 0]                               # (T, L, D)
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for k, lam in enumerate(run.lams):
        for d, style in enumerate(("-", ":")):
            ax.semilogx(run.trajectory.time[1:], excess[1:, k, d], style, color=f"C{k}",
                        label=f"lambda={lam:g}" if d == 0 else None)
    ax.set_xlabel("t / tau = lr * steps")
    ax.set_ylabel("loss - c (1/2-mean)")
    ax.legend(fontsize=7)
    return fig, ("Fig. 1B at the released settings ((3,3,3), P = 10, lr 2e-4, 50,000 steps, sigma 1): excess loss of "
                 "GD from Algorithm-1 inits at lambda = -50, 0.01, 50 on one random task, two init draws per lambda "
                 "(solid, dotted). lambda = +-50 converge at rate ~|lambda|; lambda ~ 0 is slower and its two draws differ "
                 "less from each other than from the other lambdas.")


def fig1c(run, predicted_mean: float):
    fig, ax = plt.subplots(figsize=(4.5, 4), layout="tight")    # constrained layout divides by zero here
    im = ax.imshow(run.balances[0], cmap="RdBu_r", vmin=-2.5, vmax=2.5)
    fig.colorbar(im, ax=ax)
    ax.set_title(f"LeCun (40,120,250): W2^T W2 - W1 W1^T; E[lambda] = {predicted_mean:.3f}", fontsize=8)
    return fig, ("Balance matrix of one LeCun draw (Fig. 1C): the diagonal stands out of the off-diagonal noise "
                 f"(diagonal mean close to No/Nh - 1 = {predicted_mean:.3f}).")


def architectures(run):
    """Fig. 5B (kernel distance over lambda, first seed) and Fig. 5C (over time)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    for a, name in enumerate(run.names):
        left.plot(run.lams, run.converged[0, a], "--", color=f"C{a}", label=f"{name}: t -> oo")
        left.plot(run.lams, run.at_horizon[0, a], "-", color=f"C{a}", label=f"{name}: closed form, horizon")
        left.plot(run.lams, run.gd[0, a], "o", ms=4, color=f"C{a}", label=f"{name}: GD")
        for c, style in zip(range(3), (":", "-", "--")):
            right.plot(run.times, run.curves[0, a, c], style, color=f"C{a}", label=name if c == 1 else None)
    left.set_xlabel("lambda")
    left.set_ylabel("kernel distance S(NTK(0), NTK(t))")
    right.set_xlabel("t / tau (dotted -c, solid 0, dashed +c)")
    for ax in (left, right):
        ax.legend(fontsize=5)
    fig.tight_layout()
    return fig, ("Fig. 5B/C (suite's sizes): kernel distance from the initial NTK over lambda (left: converged, at the "
                 "horizon and batched GD) and over time (right). Funnels are lazy for lambda -> +oo and delayed-rich "
                 "for lambda -> -oo, inverted funnels the mirror image, square nets symmetric.")


def scale_map(run):
    fig, axes = plt.subplots(1, 3, figsize=(8, 3), sharey=True)
    for ax, a in zip(axes, range(len(run.names))):
        im = ax.imshow(np.log10(run.distance[0, a] + 1e-6), origin="lower", aspect="auto", cmap="viridis", vmin=-6,
                       vmax=0, extent=[run.lams[0], run.lams[-1], np.log10(run.scales[0]), np.log10(run.scales[-1])])
        ax.set_title(run.names[a], fontsize=8)
        ax.set_xlabel("lambda")
    axes[0].set_ylabel("log10 absolute scale")
    fig.colorbar(im, ax=axes, label="log10 kernel distance")
    return fig, ("App A.4 (suite's grid): closed-form log10 kernel distance S(NTK(0), NTK(oo)) over absolute scale x "
                 "lambda (first seed). Square: peaked at lambda = 0; funnel / inverted funnel: mirror images; at the "
                 "largest scales the kernel moves at every lambda.")


def transfer(run, truths):
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.5))
    for lam, col in ((run.lams[0], "C0"), (0.0, "C1"), (run.lams[-1], "C2")):
        left.plot(range(len(ITEMS)), run.predictions[int(np.argmin(np.abs(run.lams - lam)))], "o-", color=col,
                  label=f"lambda={lam:g}")
    left.set_xticks(range(len(ITEMS)))
    left.set_xticklabels(ITEMS, fontsize=6, rotation=45)
    left.set_ylabel("predicted new feature")
    left.legend(fontsize=6)
    untrained = np.arange(len(ITEMS)) != run.trained_item
    for k, (words, truth) in enumerate(truths.items()):
        right.plot(run.lams, np.mean((run.predictions[:, untrained] - truth[untrained]) ** 2, axis=1), color=f"C{k}",
                   label=words[:40])
    right.set_xlabel("lambda")
    right.set_ylabel("generalisation loss (untrained items)")
    right.legend(fontsize=5)
    fig.tight_layout()
    return fig, ("Fig. 13: a new feature learned on fish1 by a new output row of the converged hierarchy network. Left: "
                 "the feature predicted on every item; right: the generalisation loss on the 7 untrained items under "
                 "the two readings of its ground truth.")


def fine_tuning(run):
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for k, ln in enumerate(run.lam_news):
        ax.semilogy(run.gd_trajectory.time, run.exact[:, k] + 1e-16, color=f"C{k}", label=f"lambda_new={ln:g}")
        ax.semilogy(run.gd_trajectory.time, run.gd[:, k] + 1e-16, "o", ms=3, color=f"C{k}")
    ax.set_xlabel("t / tau of fine-tuning")
    ax.set_ylabel("excess loss")
    ax.legend(fontsize=6)
    return fig, ("Fine-tuning the converged hierarchy network on T3 (singular values x2) after re-balancing to "
                 "lambda_new: exact solution (lines) and batched GD (markers). Larger |lambda_new| converges faster.")
