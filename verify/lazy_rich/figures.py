"""Figures of the LR- reports: each function takes a result of ``numerics.lazy_rich`` (and the
closed form it is drawn against, where there is one) and returns ``(figure, caption)`` for the
``report_figure`` fixture.  Nothing here measures.  Time is t/tau = lr x steps."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from numerics.lazy_rich.runs import reversed_modes
from numerics.lazy_rich.tasks import ITEMS


def framing(run):
    """Fig. 1B: the excess-loss curves of the first seed's three lambdas (both draws)."""
    excess = run.excess()[:, 0, 0]                               # (T, L, D)
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for k, lam in enumerate(run.lams):
        for d, style in enumerate(("-", ":")):
            ax.semilogx(run.trajectory.time[1:], excess[1:, k, d], style, color=f"C{k}",
                        label=f"lambda={lam:g}" if d == 0 else None)
    ax.set(xlabel="t / tau = lr * steps", ylabel="loss - c (1/2-mean)")
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
    left.set(xlabel="lambda", ylabel="kernel distance S(NTK(0), NTK(t))")
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
    right.set(xlabel="lambda", ylabel="generalisation loss (untrained items)")
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
    ax.set(xlabel="t / tau of fine-tuning", ylabel="excess loss")
    ax.legend(fontsize=6)
    return fig, ("Fine-tuning the converged hierarchy network on T3 (singular values x2) after re-balancing to "
                 "lambda_new: exact solution (lines) and batched GD (markers). Larger |lambda_new| converges faster.")


def singular_values(trajectory_fn, run, s0):
    """Fig. 3: the singular values of W2W1 from aligned inits, Thm 5.1 (lines, ``trajectory_fn`` in
    (lam, s~, s0, t, tau)) and batched GD (markers)."""
    t = np.asarray(run.trajectory.time)
    sim = np.diagonal(run.task.svd.U.T @ (run.W2t @ run.W1t) @ run.task.svd.V, axis1=-2, axis2=-1)
    fig, axes = plt.subplots(1, len(run.lams), figsize=(8, 3), sharey=True)
    tt = np.linspace(0, t[-1], 400)
    for k, (ax, lam) in enumerate(zip(axes, run.lams)):
        for i, col in enumerate(("C0", "C1", "C2")):
            s = run.task.svd.s[i]
            ax.plot(tt, trajectory_fn(lam, s, s0[i], tt, 1.0), color=col, label=f"theory s~={s:.2f}")
            ax.plot(t[::2], sim[::2, k, i], "o", ms=3, color=col, label="GD" if i == 0 else None)
        ax.set(title=f"lambda = {lam:g}", xlabel="t / tau = lr * steps")
    axes[0].set_ylabel("singular value s_i(t)")
    axes[0].legend(fontsize=6)
    return fig, ("Singular values of W2W1 from an aligned lambda-balanced init (s0 = 1e-3, (4,3,3)): Thm 5.1 (lines) vs "
                 "batched GD, lr = 2e-3 (markers). lambda = 0: staggered sigmoids, largest s~ first; |lambda| = 5: "
                 "exponentials at a common rate, identical for +-lambda.")


def hierarchy_grams(run, steps: int):
    fig, axes = plt.subplots(2, len(run.lams) + 1, figsize=(8, 4.2))
    titles = [f"lambda={lam:g}" for lam in run.lams] + ["large Gaussian"]
    for k in range(len(titles)):
        for row, G in enumerate((run.W1_end[k].T @ run.W1_end[k], run.W2_end[k] @ run.W2_end[k].T)):
            ax = axes[row, k]
            ax.imshow(G, cmap="RdBu_r", vmin=-np.abs(G).max(), vmax=np.abs(G).max())
            ax.set_xticks([]), ax.set_yticks([])
            ax.set_title(("W1^T W1 " if row == 0 else "W2 W2^T ") + titles[k], fontsize=7)
    return fig, (f"Hierarchy task (8 items, X = sqrt8 I): simulated converged weight Grams (GD, lr 5e-3, {steps} steps) "
                 "for lambda = -10, 0, 10 and a large unbalanced Gaussian init, against Thm C.3. lambda = 0: both "
                 "hierarchical; lambda = +10: W2W2^T ~ 10 I, W1^TW1 ~ V~S~^2V~^T/10; lambda = -10: the mirror image; "
                 "large Gaussian: unstructured.")


def noise_against_lambda(input_level: float, input_run, weight_runs, curve):
    """Fig. 4E: input noise (flat line ``input_level``) and weight noise (``curve(run, lambdas)``) with
    Monte Carlo markers of 2 standard errors."""
    fine = np.linspace(input_run.lams[0], input_run.lams[-1], 121)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.6))

    def markers(ax, run, col, label):
        se = run.losses.std(axis=1) / np.sqrt(run.losses.shape[1])
        ax.errorbar(run.lams, run.losses.mean(axis=1), yerr=2 * se, fmt="o", ms=4, color=col, label=label)
    left.plot(fine, np.full_like(fine, input_level), "-", color="C0", label="theory c + sigma^2/2 ||Syx||^2")
    markers(left, input_run, "C0", "Monte Carlo (2 s.e.)")
    left.set_title(f"input noise, sigma = {input_run.sigma}, (5,3,3)", fontsize=8)
    for run, col in zip(weight_runs, ("C1", "C2", "C3")):
        ni, no = run.task.svd.n_in, run.task.svd.n_out
        right.plot(fine, curve(run, fine), "-", color=col, label=f"theory ({ni},{min(ni, no)},{no})")
        markers(right, run, col, f"Monte Carlo ({ni},{min(ni, no)},{no})")
    right.set_title(f"weight noise, sigma = {weight_runs[0].sigma}", fontsize=8)
    for ax in (left, right):
        ax.set_xlabel("lambda")
        ax.legend(fontsize=6)
    left.set_ylabel("expected loss (1/2-mean)")
    fig.tight_layout()
    return fig, ("Fig. 4E: loss of converged nets under noise against lambda. Left: iid input noise, flat in lambda "
                 "(Eq. 172). Right: iid weight noise, Eq. (173) with the per-mode norms of Eqs. (174)-(175) (lines), "
                 "minimal at lambda = 0 for the square net and shifted for funnel / inverted funnel; Monte Carlo "
                 f"markers ({input_run.losses.shape[1]} draws, 2 s.e. bars).")


def continual(closed, sim):
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for i, task in enumerate(closed.tasks):
        ax.plot(closed.times, task.loss(closed.products), color=f"C{i}", label=f"task {i + 1} theory")
        ax.plot(sim.times, task.loss(sim.products), "o", ms=3, color=f"C{i}", label=f"task {i + 1} GD" if i == 0 else None)
    ax.set(xlabel="t / tau (tasks switch every 8)", ylabel="loss of each task")
    ax.legend(fontsize=6, ncol=2)
    return fig, ("Continual learning on 4 random tasks (5,5,5), P = 25, lambda = 2: losses of all tasks from the chained "
                 "exact solution (lines) and GD, lr 1e-2 (markers). Training on a task overwrites the others; the final "
                 "forgetting is 1/2(||S_k - S_i||^2 - ||S_j - S_i||^2) for every lambda.")


def reversal(curve, gd):
    """Fig. 12: the reversed mode, the exact per-mode solution ``curve(lam, t)`` (lines) and GD's."""
    modes = reversed_modes(gd)
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    tf = np.linspace(0, 8.0, 300)
    for k, v in enumerate(gd.lams):
        ax.plot(tf, curve(v, tf), color=f"C{k}", label=f"lambda={v:g}")
        ax.plot(gd.trajectory.time, modes[:, k], "o", ms=3, color=f"C{k}")
    ax.axhline(0, color="k", lw=0.5)
    ax.set(xlabel="t / tau", ylabel="reversed mode u~_1^T W2W1 v~_1")
    ax.legend(fontsize=7)
    return fig, ("Reversal learning (3,3,3), s~ = 1, s(0) = -0.5: the exact per-mode solution (lines) and batched GD, lr "
                 "5e-3 (markers). lambda = 0 sits on the saddle at 0; any lambda != 0 reverses, faster for larger |lambda|; "
                 "+lambda and -lambda coincide (aligned square net: lambda enters through lambda^2).")
