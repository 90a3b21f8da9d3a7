"""Figures of Make haste slowly (MHS-): each function takes results (and the evidence's
numbers) and returns a matplotlib figure; the tests hand it to ``report_figure``."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from numerics.haste_slowly import analysis as A


def depth_losses(relu, gdln, schedule):
    """Fig 6b: every run of the 2-hidden-layer ReLU net (lines) and of the depth GDLN (markers),
    the stereotypical run of each in bold; ``schedule`` the GDLN's (start, switch) epochs."""
    fig, ax = plt.subplots(figsize=(6, 3.6))
    t = relu.time
    Lr, Lg = np.asarray(relu.loss), np.asarray(gdln.loss)
    ax.plot(t, Lr, "-", color="tab:blue", alpha=0.2)
    ax.plot(t, Lr[:, A.stereotypical(Lr)], "-", color="tab:blue", lw=2, label="ReLU, stereotypical")
    ax.plot(gdln.time[::6], Lg[::6], ".", color="tab:orange", alpha=0.3, ms=2)
    ax.plot(gdln.time[::6], Lg[::6, A.stereotypical(Lg)], "o", color="tab:orange", ms=3,
            label="depth GDLN, stereotypical")
    for epoch in schedule:
        ax.axvline(epoch, color="grey", lw=0.8, ls=":")
    ax.set(xlabel="epoch", ylabel="loss (1/2 sum)")
    ax.legend(fontsize=7)
    return fig


def first_layer_gating(trajectory):
    """MHS-S6-C1 (L162, "all neurons are active for all datapoints"): per run of the
    2-hidden-layer ReLU net, the share of its weight-carrying layer-1 units that are off for some
    datapoint, over training (epochs), against the paper's none."""
    fig, ax = plt.subplots(figsize=(6, 3.2))
    t = np.asarray(trajectory.time)
    ax.plot(t, 1 - np.asarray(trajectory.records["on1"], float), "-", color="tab:blue", lw=0.8,
            alpha=0.5)
    ax.axhline(0.0, color="k", ls="--", lw=1, label="L162: all active for all datapoints")
    ax.set(xlabel="epoch", ylabel="layer-1 units off for some datapoint", ylim=(-0.05, 1.05))
    ax.legend(fontsize=7)
    return fig


def reuse_by_depth(served):
    """MHS-Disc's depth clause (L177): the mass-weighted number of contexts a unit serves, per
    run, in the single-hidden-layer net and in each layer of the two-hidden-layer net
    (``served``: :func:`verify.haste_slowly.evidence.contexts_served`); the paper states more
    reuse with depth (higher to the right)."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    for x, (name, values) in enumerate(served.items()):
        values = np.asarray(values, float)
        ax.plot(np.full(values.size, x) + np.linspace(-0.15, 0.15, values.size), values, "o",
                ms=3, alpha=0.6)
        ax.plot([x - 0.25, x + 0.25], [values.mean()] * 2, "k-", lw=2)
    ax.set_xticks(range(len(served)), [n.replace(", ", "\n") for n in served], fontsize=7)
    ax.set(ylabel="contexts a unit serves (mass-weighted)")
    return fig


def context_selectivity(patterns, mass, C: int = 3):
    """MHS-S4-C3 (L122, "no neurons ... context specific", "mixed selectivity"): per trained ReLU
    run, the share of its weight mass on units on in 0, 1, 2 or 3 contexts (final ``patterns``
    (K, H, 8C), ``mass`` (K, H)); the paper's claim is no mass at 1."""
    shares = A.context_specific_units(np.asarray(patterns, float), mass, C)[2]
    fig, ax = plt.subplots(figsize=(5, 3.2))
    j = np.arange(C + 1)
    for k, s in enumerate(shares):
        ax.plot(j + 0.08 * (k - (len(shares) - 1) / 2), [s[i] for i in j], "o", ms=4, alpha=0.7)
    ax.set_xticks(j, [str(i) for i in j])
    ax.set(xlabel="contexts a unit is on in", ylabel="share of the weight mass", ylim=(0, 1))
    return fig


def six_pathways(trajectory):
    """MHS-E-Six (App E, L586): the top singular value of each pathway of the 7-module GDLN over
    training (epochs), every seed: common, the three 2-of-3-context and the three single-context
    pathways; the paper says the single-context ones stay inactive."""
    sv = np.asarray(trajectory.records["sv"], float)[..., 0]          # (T, K, 7)
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for p, colour, name in ((slice(0, 1), "k", "common"), (slice(1, 4), "tab:blue", "2 contexts"),
                            (slice(4, 7), "tab:red", "1 context")):
        lines = sv[:, :, p].reshape(len(sv), -1)
        ax.plot(trajectory.time, lines, "-", color=colour, lw=0.8, alpha=0.6)
        ax.plot([], [], "-", color=colour, label=name)
    ax.set(xlabel="epoch", ylabel="top singular value of the pathway")
    ax.legend(fontsize=7)
    return fig


def latents(relu, reln, correlations):
    """Fig 4c: MDS of the hidden representations over training (as the released code: stacked
    over time, random_state 42) of the first ReLU run and the ReLN, and the RDM correlations of
    :func:`verify.haste_slowly.evidence.latent_geometry` (``correlations``: its reading's details)."""
    from sklearn.manifold import MDS
    sample = np.flatnonzero(np.asarray(relu.time) >= 500)[::32]
    fig, ax = plt.subplots(1, 3, figsize=(8, 3.0))
    for j, (name, t) in enumerate((("ReLU", relu), ("ReLN", reln))):
        H = np.asarray(t.records["hidden"], dtype=float)[sample, 0]
        pts = H.transpose(0, 2, 1).reshape(-1, H.shape[1])
        emb = MDS(n_components=2, random_state=42, normalized_stress="auto", init="random",
                  n_init=1).fit_transform(pts).reshape(len(sample), H.shape[2], 2)
        for c in range(3):
            ax[j].plot(emb[:, c * 8:(c + 1) * 8, 0], emb[:, c * 8:(c + 1) * 8, 1], ".",
                       color=f"C{c}", ms=3)
        ax[j].set(title=f"{name} latents (MDS)", xticks=[], yticks=[])
    for key, marker in (("ReLN", "o"), ("single-context GDLN", "x"), ("ReLU-ReLU", "s")):
        ax[2].plot(correlations["epochs"], correlations[key], marker, ms=3, label=key)
    ax[2].set(xlabel="epoch", ylabel="RDM correlation with ReLU")
    ax[2].legend(fontsize=6)
    return fig


def section4(relu, reln, single):
    """Fig 4a/b: the loss curves of the ReLU runs, the ReLN and the single-context GDLN; the
    ReLN's pathway singular values (first seed)."""
    fig, ax = plt.subplots(1, 2, figsize=(8, 3.6))
    ax[0].plot(relu.time, relu.loss, "-", color="k", lw=0.8)
    ax[0].plot(reln.time[::8], reln.loss[::8, 0], "o", ms=3, label="ReLN (common + 2-of-3)")
    ax[0].plot(single.time[::8], single.loss[::8, 0], "x", ms=3, label="GDLN single-context")
    ax[0].set(xlabel="epoch", ylabel="loss (1/2 sum)", yscale="log")
    ax[0].legend(fontsize=7)
    sv = np.asarray(reln.records["sv"], dtype=float)[:, 0]
    ax[1].plot(reln.time[::6], sv[::6, 0, :4], "o", ms=2.5)      # the common pathway's modes 1-4
    ax[1].plot(reln.time[::6], sv[::6, 1:, 0], "^", ms=2.5, color="grey")
    ax[1].set(xlabel="epoch", ylabel="pathway singular value")
    return fig


def dataset_and_pathway(X, Y, run):
    """Fig 3: the Sec 4 inputs and targets, and the output of the first contextual pathway of
    the trained ReLN ``run`` (first seed)."""
    from numerics.haste_slowly import reln
    out = reln.module_outputs(run.net, run.unit_module, X)[0][1]
    fig, ax = plt.subplots(1, 3, figsize=(8, 3.2))
    ax[0].imshow(X, cmap="Greys")
    ax[0].set(title=f"X ({X.shape[0]} x {X.shape[1]})", xlabel="datapoint")
    ax[1].imshow(Y, cmap="Greys", aspect="auto")
    ax[1].set(title=f"Y ({Y.shape[0]} x {Y.shape[1]})", xlabel="datapoint")
    ax[2].imshow(out, cmap="RdBu", aspect="auto", vmin=-1, vmax=1)
    ax[2].set(title="a contextual pathway's output", xlabel="datapoint")
    return fig


def contexts(panels):
    """Fig 5: per C, the closed-form loss against the ReLU and ReLN runs (top) and the common and
    mean contextual modes, closed form against the ReLN (bottom); ``panels[C]`` the curves of
    ``numerics.haste_slowly.analysis.reln_closed_form`` with the runs' losses."""
    fig, ax = plt.subplots(2, len(panels), figsize=(8, 4.5))
    for col, (C, p) in enumerate(panels.items()):
        ep = p["epochs"]
        ax[0, col].plot(ep, p["loss"], "-", color="k", label="closed form")
        ax[0, col].plot(ep[::8], p["relu"][::8, 0], "o", ms=2.5, label="ReLU")
        ax[0, col].plot(ep[::8], p["reln"][::8, 0], "x", ms=2.5, label="ReLN")
        ax[0, col].set(title=f"C = {C}", yscale="log", xlabel="epoch")
        for a in range(3):
            ax[1, col].plot(ep, p["common"][:, a], "-", color=f"C{a}")
            ax[1, col].plot(ep[::8], p["common simulated"][::8, a], "o", ms=2, color=f"C{a}")
        ax[1, col].plot(ep, p["contextual"], "-", color="grey")
        ax[1, col].plot(ep[::8], p["contextual simulated"][::8], "^", ms=2, color="grey")
        ax[1, col].set(xlabel="epoch")
    ax[0, 0].set_ylabel("loss (1/2 sum)")
    ax[1, 0].set_ylabel("mode strength")
    ax[0, 0].legend(fontsize=6)
    return fig


def elbow(mse, centroids):
    """Figs 8-9: the loss MSE over k (one line per GDLN init std) and the k = 4 centroids."""
    fig, ax = plt.subplots(1, 2, figsize=(8, 3.4))
    for (which, std), by_k in mse.items():
        ks = sorted(by_k)
        ax[0].plot(ks, [by_k[k] for k in ks], "o-", label=f"{which} runs, GDLN init std {std:.2g}")
    ax[0].set(xlabel="k (clusters)", ylabel="MSE(loss ReLU, GDLN_k) / L(0)^2", yscale="log")
    ax[0].legend(fontsize=7)
    ax[1].imshow(centroids, cmap="viridis", vmin=0, vmax=1, aspect="auto")
    ax[1].set(xlabel="datapoint (context-major)", ylabel="centroid (k = 4)")
    return fig


def xor(outcomes):
    """Fig 2d: the ReLU nets' time to the loss criterion against the two GDLNs' closed forms
    across Delta, and the share of their units following the linear gating."""
    from theory.haste_slowly import xor_margin as tx
    d = outcomes["deltas"]
    fig, ax = plt.subplots(1, 2, figsize=(8, 3.6))
    ax[0].plot(d, outcomes["t_gdln"][:, 0], "-", color="tab:blue", label="linear GDLN (theory)")
    ax[0].plot(d, outcomes["t_gdln"][:, 1], "-", color="tab:orange", label="XoR GDLN (theory)")
    ax[0].plot(d, outcomes["t_relu"].mean(1), "o", color="tab:green", ms=4, label="ReLU (sim)")
    ax[0].set(xlabel=r"$\Delta$", ylabel="t/tau to loss 0.2", ylim=(0, 70))
    ax[0].legend(fontsize=7)
    ax[1].plot(d, outcomes["linear share"].mean(1), "s", label="linear-gated units")
    ax[1].set(xlabel=r"$\Delta$", ylabel="share of large units (sim)")
    for a in ax:
        a.axvline(float(tx.CROSSOVER), ls="--", color="grey")
    return fig


def modes(tt, proj, curves):
    """Fig 7c: mode strengths of the trained linear net (markers) and Eq. (7) (lines)."""
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for a in range(proj.shape[1]):
        ax.plot(tt, curves[:, a], "-", color=f"C{a}", label=f"Eq. (7), mode {a + 1}")
        ax.plot(tt[::12], proj[::12, a], "o", ms=3, color=f"C{a}")
    ax.set(xlabel="t / tau", ylabel="mode strength u'W2W1v")
    ax.legend(fontsize=7)
    return fig
