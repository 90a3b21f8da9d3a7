"""The relative scale lambda and the absolute scale decide the regime: LR-Framing (Fig. 1B) and
LR-A.4 (Figs. 8-10), with exact lambda-balanced whitened inits (the A.4 script drops both, E13)."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import balanced_weights, random_orthogonal
from numerics.lazy_rich.tasks import random_task
from numerics.lazy_rich.training import train_linear
from verify.lazy_rich.sizes import SIZES


def same_function_inits(n_in, n_out, lams, scale, seed):
    """Inits with one Gaussian network function W2W1(0) (same absolute scale), rebalanced to each lambda."""
    rng = np.random.default_rng(seed)
    nh = min(n_in, n_out)
    product = scale ** 2 * rng.standard_normal((n_out, nh)) @ rng.standard_normal((nh, n_in))
    U, s, Vt = np.linalg.svd(product, full_matrices=False)
    R = random_orthogonal(nh, rng)
    return product, [balanced_weights(U, s, Vt.T, R, lam) for lam in lams]


def framing_run(seed, lams=(-2.0, 0.0, 2.0), lr=1e-2, T=12.0):
    """One task (seed - 1) and three inits with one network function (seed), trained by batched GD, with the
    exact loss curves: the statistics of LR-Framing and what the figure draws."""
    task = random_task(5, 5, 10, np.random.default_rng(seed - 1))
    _, inits = same_function_inits(5, 5, lams, 0.05, seed=seed)
    W1s, W2s = np.stack([w[0] for w in inits]), np.stack([w[1] for w in inits])
    hist = train_linear(W1s, W2s, task.X, task.Y, lr=lr, steps=int(T / lr), record_every=int(0.4 / lr))
    t = np.linspace(0, T, 241)
    theory = np.stack([task.loss(so.blocks(so.qq_exact(t, *inits[k], task.svd, lam), 5)["W2W1"]) for k, lam in enumerate(lams)])
    final = [(hist.records["W1"][-1, k], hist.records["W2"][-1, k]) for k in range(len(lams))]
    ntk_move = [float(kn.kernel_distance(kn.ntk(*inits[k], task.X), kn.ntk(*final[k], task.X))) for k in range(len(lams))]
    grams_in = [float(np.linalg.norm(W1.T @ W1)) for W1, _ in final]
    half = [float(t[np.argmax(th - task.loss_constant <= 0.5 * (th[0] - task.loss_constant))]) for th in theory]
    gap = float(np.max(np.abs(theory[1] - theory[2])) / theory[1][0])
    # statistic: half-way time and NTK movement; lambda = 0 must be slower by > 2x and move its NTK > 3x more;
    # representations: lambda = -2 puts the scale in W1 (||W1^TW1|| large), lambda = +2 in W2: ratio > 4
    ok = (half[1] > 2 * max(half[0], half[2]) and ntk_move[1] > 3 * max(ntk_move[0], ntk_move[2]) and gap > 0.2
          and grams_in[0] > 4 * grams_in[2])
    return dict(ok=bool(ok), half=half, ntk_move=ntk_move, grams_in=grams_in, gap=gap, t=t, theory=theory, hist=hist)


@pytest.mark.claim("LR-Framing")
@pytest.mark.parametrize("size", SIZES)
def test_same_absolute_scale_different_lambda_different_learning(claim, report_figure, size):
    lams = (-2.0, 0.0, 2.0)
    runs = {seed: framing_run(seed, lams) for seed in size["framing_seeds"]}
    first = runs[size["framing_seeds"][0]]
    if size["name"] == "ci":
        fig, ax = plt.subplots(figsize=(6.5, 3.8))
        for k, lam in enumerate(lams):
            ax.plot(first["t"], first["theory"][k], color=f"C{k}", label=f"lambda={lam:g} theory")
            ax.plot(first["hist"].t_over_tau, first["hist"].loss[:, k], "o", ms=3, color=f"C{k}", label=f"lambda={lam:g} GD")
        ax.set_xlabel("t / tau = lr * steps")
        ax.set_ylabel("loss (1/2-mean)")
        ax.legend(fontsize=7)
        report_figure(fig, "Fig. 1B/2A: one random regression task (5,5,5), P = 10, three inits with the same network function "
                           "(absolute scale) and lambda = -2, 0, 2: exact loss (lines) and GD, lr 1e-2 (markers). lambda = 0: "
                           "plateau then drop (rich); lambda = +-2: immediate exponential decay (lazy).")
    passed = [seed for seed, r in runs.items() if r["ok"]]
    claim.reproduced(len(passed) == len(runs),
                     f"same W2W1(0) (scale 0.05), lambda = -2, 0, 2, {len(runs)} seed(s) {list(runs)}, criteria met for "
                     f"{passed}; seed {size['framing_seeds'][0]}: half-loss times {np.round(first['half'], 2).tolist()}; kernel "
                     f"distance S(NTK(0), NTK(12 tau)) {np.round(first['ntk_move'], 4).tolist()}; max loss-curve gap lambda 0 "
                     f"vs 2 = {first['gap']:.2f} of the initial loss; final ||W1^TW1||_F {np.round(first['grams_in'], 3).tolist()} "
                     "(lambda = -2 vs +2: different representations although the square net's loss curves coincide); "
                     "thresholds: lambda = 0 slower by 2x, NTK moving 3x more, input Gram ratio (-2 vs +2) > 4")


@pytest.mark.claim("LR-A.4")
def test_absolute_versus_relative_scale(claim, report_figure):
    archs = {"funnel (6,2,2)": (6, 2), "square (4,4,4)": (4, 4), "inverted (2,2,6)": (2, 6)}
    scales = np.geomspace(0.05, 1.5, 7)
    lams = np.linspace(-6, 6, 13)
    maps, init_loss_spread, final_loss_err, peaks = {}, 0.0, 0.0, {}
    fig, axes = plt.subplots(1, 3, figsize=(8, 3), sharey=True)
    for ax, (name, (ni, no)) in zip(axes, archs.items()):
        task = random_task(ni, no, 8, np.random.default_rng(3))
        S = np.zeros((len(scales), len(lams)))
        for a, scale in enumerate(scales):
            # seed 5: B invertible on the whole grid (seeds 4, 7, 9, 11 give the square net at lambda = 0 a
            # det -1 relative rotation, a reversed mode: B singular, the flow stalls at a saddle, LR-D.2)
            product, inits = same_function_inits(ni, no, lams, scale, seed=5)
            losses0 = [task.loss(w[1] @ w[0]) for w in inits]
            init_loss_spread = max(init_loss_spread, (max(losses0) - min(losses0)) / losses0[0])
            for b, (lam, (W1, W2)) in enumerate(zip(lams, inits)):
                spc = so.spectrum(task.svd, lam)
                slow = np.min(spc.s_lam - spc.lam_perp)
                qq = so.qq_stable([40 / slow], W1, W2, task.svd, lam)[0]
                bl = so.blocks(qq, ni)
                final_loss_err = max(final_loss_err, abs(task.loss(bl["W2W1"]) - task.loss_constant))
                S[a, b] = kn.kernel_distance(kn.ntk(W1, W2, task.X), kn.ntk_from_grams(bl["W1tW1"], bl["W2W2t"], task.X))
        maps[name] = S
        im = ax.imshow(np.log10(S + 1e-6), origin="lower", aspect="auto", cmap="viridis", vmin=-6, vmax=0,
                       extent=[lams[0], lams[-1], np.log10(scales[0]), np.log10(scales[-1])])
        ax.set_title(name, fontsize=8)
        ax.set_xlabel("lambda")
        peaks[name] = lams[np.argmax(S, axis=1)]
    axes[0].set_ylabel("log10 absolute scale (init std)")
    fig.colorbar(im, ax=axes, label="log10 kernel distance")
    report_figure(fig, "App A.4: closed-form log10 kernel distance S(NTK(0), NTK(oo)) over absolute scale x lambda for "
                       "three architectures (exact lambda-balanced whitened inits). Square: peaked at lambda = 0 at every "
                       "scale; funnel / inverted funnel: mirror images, lazy on one sign of lambda even at small scale.")
    sq, fu, inv = maps["square (4,4,4)"], maps["funnel (6,2,2)"], maps["inverted (2,2,6)"]
    # 1e-12: rebalancing keeps W2W1 (a construction check, round-off only); 1e-9: every run ends at the global
    # minimum c (t = 40/slowest rate, transient e^{-40}); 0.05 / 0.1: lazy vs moving kernels (both measured extremes are in the evidence)
    checks = {
        "initial loss depends only on the absolute scale (same W2W1 by construction)": bool(init_loss_spread < 1e-12),
        "final loss equal for all inits": bool(final_loss_err < 1e-9),
        "square peaks at lambda = 0 at every scale": bool(np.all(np.abs(peaks["square (4,4,4)"]) <= 1.0)),
        "funnel lazy at lambda = +6, inverted lazy at -6, every scale": bool(np.all(fu[:, -1] < 0.05) and np.all(inv[:, 0] < 0.05)),
        "funnel moves at lambda = -6, inverted at +6": bool(np.all(fu[:, 0] > 0.1) and np.all(inv[:, -1] > 0.1)),
    }
    lazy_max, move_min = float(max(fu[:, -1].max(), inv[:, 0].max())), float(min(fu[:, 0].min(), inv[:, -1].min()))
    claim.reproduced(all(checks.values()),
                     f"lazy sides max S {lazy_max:.2g}, moving sides min S {move_min:.2g}; 7 scales (0.05 .. 1.5) x 13 lambdas (-6 .. 6) per architecture, closed form at convergence: {checks}; "
                     f"initial-loss spread across lambda {init_loss_spread:.1g}; |final loss - c| <= {final_loss_err:.1g}; "
                     f"square argmax lambda per scale {peaks['square (4,4,4)'].tolist()}")
