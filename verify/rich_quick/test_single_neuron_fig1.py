"""Fig. 1 of rich_quick: the (tau, delta) phase portrait of a teacher-student ReLU network (App D.1).

Time is matched through the paper's clock, not the step count: D.1 trains on a "mean square loss"
(read as EXPERIMENT_LOSS, the plain mean) with lr 1e-4 for 1e6 steps, i.e. flow time
``t = flow_time(1e6, 1e-4, n=20)`` = 10 on the 1/2-sum flow; ci reaches the same t with a larger
step (GD stays on the flow: checked by the two step sizes agreeing, see the evidence).
"""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from numerics.rich_quick import single_neuron_teacher_student as ts
from theory.conventions import flow_time
from theory.rich_quick.conventions_rich_quick import EXPERIMENT_LOSS

FIG1A = [(0.1, 0.0), (2.0, 0.0), (0.1, 1.0), (0.1, -1.0)]      # (tau, delta), D.1
SEEDS_A = (0, 1)


def angular_movement(W0, W1, a1):
    """Per member: contribution-weighted mean angle (rad) between w_i(0) and w_i(T)."""
    cos = np.einsum("khd,khd->kh", W0, W1) / (np.linalg.norm(W0, axis=-1) * np.linalg.norm(W1, axis=-1))
    weight = np.abs(a1) * np.linalg.norm(W1, axis=-1)
    return (np.arccos(np.clip(cos, -1, 1)) * weight).sum(-1) / weight.sum(-1)


def fig1a_runs(lr, steps):
    tasks = [ts.make_task(s, d=2, h=50, k=3, n=20, n_test=500) for s in SEEDS_A]
    taus, deltas = np.array([c[0] for c in FIG1A]), np.array([c[1] for c in FIG1A])
    return [t for t in tasks for _ in FIG1A], ts.train(
        tasks, taus, deltas, lr=lr, steps=steps, record_steps=np.arange(0, steps + 1, steps // 20),
        keep_weights=True, progress=False)


@pytest.mark.claim("GRQ-Fig1")
def test_fig1a_scale_and_geometry_in_two_dimensions(claim, report_figure):
    t_paper = float(flow_time(1_000_000, 1e-4, 20, "rich_quick", trained_on=EXPERIMENT_LOSS))
    lr = 5e-3
    steps = int(round(t_paper / float(flow_time(1, lr, 20, "rich_quick", trained_on=EXPERIMENT_LOSS))))
    tasks, run = fig1a_runs(lr, steps)
    K = len(tasks)
    S = run.kernel_distance[-1].reshape(len(SEEDS_A), len(FIG1A))
    move = angular_movement(run.W[0], run.W[-1], run.a[-1]).reshape(len(SEEDS_A), len(FIG1A))
    tw = np.stack([t.teacher_w for t in tasks])
    gain = (ts.teacher_alignment(run.W[-1], run.a[-1], tw, 20.0)
            - ts.teacher_alignment(run.W[0], run.a[0], tw, 20.0)).reshape(len(SEEDS_A), len(FIG1A))
    rich_lazy = bool(np.all(S[:, 0] > 20 * S[:, 1]))
    up_moves = bool(np.all(move[:, 2] > 5 * move[:, 3]))
    up_aligns = bool(gain[:, 2].mean() > gain[:, 3].mean() + 0.05)
    fig, axs = plt.subplots(1, 4, figsize=(8, 2.4))
    for m, ax in enumerate(axs):
        P = np.abs(run.a[:, m, :, None]) * run.W[:, m]
        for i in range(P.shape[1]):
            col = "C0" if run.a[0, m, i] > 0 else "C3"
            ax.plot(P[:, i, 0], P[:, i, 1], "o", color=col, ms=0.8)
        lim = np.abs(P[-1]).max() * 1.2
        for w in tasks[m].teacher_w:
            ax.plot([0, lim * w[0]], [0, lim * w[1]], "k:", lw=0.8)
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_title(rf"$\tau={FIG1A[m][0]:g}, \delta={FIG1A[m][1]:g}$", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    report_figure(fig, f"Fig. 1(a): trajectories of |a_i| w_i (markers every {steps // 20} GD steps, "
                       f"colour sgn a_i) of a 50-neuron student, d = 2, n = 20, seed 0, to flow time "
                       f"t = {t_paper:g}; teacher directions dotted (lines)")
    claim.reproduced(rich_lazy and up_moves and up_aligns,
                     f"Fig. 1(a) at the paper's flow time t = {t_paper:g} ({steps} GD steps, lr {lr}), "
                     f"seeds {SEEDS_A}: S(0,T) [tau,delta]=(0.1,0),(2,0),(0.1,1),(0.1,-1): "
                     f"{np.round(S, 4).tolist()} (rich/lazy: need > 20x: {rich_lazy}); weighted angular"
                     f" movement of neuron directions {np.round(move, 3).tolist()} (upstream > 5x "
                     f"downstream: {up_moves}); gain in weight share within 20 deg of a teacher "
                     f"{np.round(gain, 2).tolist()} (upstream > downstream + 0.05: {up_aligns})")


def fig1b_statements(run, S, test):
    """The Fig. 1(b) statements on seed-averaged (tau, delta) grids (tau ascending, delta ascending)."""
    S_end, test_end = S[-1].mean(0), test[-1].mean(0)
    early = S[np.searchsorted(run.steps, run.steps[-1] // 100)].mean(0)[0]   # S after 1% at smallest tau
    return {"S grows as tau shrinks": bool(np.all(S_end[0] > S_end[-1])),
            "lazy at the largest tau (S < 0.05)": bool(np.all(S_end[-1] < 0.05)),
            "S rises fastest at small tau, delta = +1": bool(np.argmax(early) == early.size - 1),
            "smallest test loss at small tau, delta = +1": bool(np.argmin(test_end) == test_end.size - 1)}, \
        S_end, test_end, early


@pytest.mark.claim("GRQ-Fig1")
def test_fig1b_reduced_sweep(claim, report_figure):
    cfg = ts.FIG1B_CI
    taus, deltas = np.array(cfg["taus"]), np.array(cfg["deltas"])
    ok, S_end, test, half = fig1b_statements(*ts.fig1b_sweep(cfg, progress=False))
    fig, axs = plt.subplots(1, 2, figsize=(7, 3))
    for ax, Z, name in ((axs[0], np.log10(test), "log10 test MSE"), (axs[1], S_end, "S(0,T)")):
        im = ax.imshow(Z, origin="lower", cmap="viridis", aspect="auto")
        ax.set_xticks(range(len(deltas)), [f"{x:g}" for x in deltas])
        ax.set_yticks(range(len(taus)), [f"{x:g}" for x in taus])
        ax.set_xlabel(r"$\delta$")
        ax.set_ylabel(r"$\tau$")
        ax.set_title(name, fontsize=9)
        fig.colorbar(im, ax=ax)
    report_figure(fig, "Fig. 1(b), reduced (d = 10, n = 100, h = 50, k = 3, 2 seeds, 3x3 grid, 3000 GD "
                       "steps at lr 5e-3/tau^2): simulated test loss and kernel distance (grid cells)")
    claim.reproduced(all(ok.values()),
                     f"reduced Fig. 1(b), seeds (0,1), tau {taus.tolist()} x delta {deltas.tolist()}: "
                     f"S(0,T) {np.round(S_end, 3).tolist()}; test MSE {np.round(test, 5).tolist()}; "
                     f"S after 1% of training at tau=0.1: {np.round(half, 4).tolist()}; "
                     + "; ".join(f"{k}: {v}" for k, v in ok.items()))


@pytest.mark.full
@pytest.mark.claim("GRQ-Fig1")
def test_fig1b_full_sweep(claim):
    ok, S_end, test, _ = fig1b_statements(*ts.fig1b_sweep(ts.FIG1B_FULL))
    claim.reproduced(all(ok.values()), f"full Fig. 1(b) (16 seeds, 8x9 grid, 1e5 steps, float32 "
                                       f"training, float64 diagnostics): S "
                                       f"{np.round(S_end, 3).tolist()}, test {np.round(test, 5).tolist()}; "
                                       + "; ".join(f"{k}: {v}" for k, v in ok.items()))
