"""GRQ-Fig1: the (tau, delta) phase portrait of a teacher-student ReLU network (Fig. 1 caption
L24, App D.1 L945-968).

Time is matched through the paper's clock, not the step count: D.1 trains on a "mean square
loss" (EXPERIMENT_LOSS, the plain mean), and ``theory.conventions.flow_time`` turns steps at a
learning rate into the flow time t of the paper's 1/2-sum flow.  Fig. 1(a): lr 1e-4 for 1e6
steps on n = 20 is t = 10.  Fig. 1(b): lr 5e-3/tau^2 for 1e5 steps on n = 1000 is t = 1/tau^2,
recorded below as ``t tau^2``.  The qualitative statements are decided by the directions the
caption states (``paper`` sources); the suite's own ratios add detail as ``reading``s.
"""
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest

from numerics import full_scale
from numerics.rich_quick import single_neuron_teacher_student as ts
from theory.conventions import flow_time
from theory.rich_quick.conventions_rich_quick import EXPERIMENT_LOSS
from verify.measurement import Setup, paper, reading

SOURCE = ("paper L24 (Fig. 1 caption), L945-968 (App D.1); where the paper is silent (grid, "
          "checkpoints, precision) the authors' code allanraventos/getrichquick "
          "two-layer-relu/run_grid.py and plot_fig1b.ipynb")
SCALE_WORDS = paper("L24", "The left plot confirms that small scale leads to rich and large scale to lazy")
UPSTREAM_WORDS = paper("L24", "an upstream initialization delta > 0 shows striking alignment to the "
                              "teacher (dotted lines), while a downstream initialization delta < 0 "
                              "shows no alignment")
LAZY_RICH_WORDS = paper("L24", "Lazy learning happens when tau is large, rich learning happens when "
                               "tau is small")
RAPID_WORDS = paper("L24", "rapid rich learning happens when both tau is small and delta is large")
TEST_WORDS = paper("L24", "This initialization also leads to the smallest test loss")

FIG1A_PAPER = dict(data="teacher-student, x ~ Unif(S^1)", d=2, h=50, k=3, n=20,
                   cells="(0.1, 0), (2, 0), (0.1, 1), (0.1, -1)", teachers=1,
                   **{"learning rate": 1e-4, "horizon t (flow time)": 10.0})
SEEDS_A = (0, 1)
LR_A = 5e-3          # the ci step; its sensitivity run doubles it at the same flow time


def flow_t(steps, lr, n):
    return float(flow_time(steps, lr, n, "rich_quick", trained_on=EXPERIMENT_LOSS))


def fig1a_metrics(seeds, lr, steps):
    """Per seed, cells in FIG1A order: S(0, T), contribution-weighted angular movement of the
    neuron directions, and the gain in weight share within 20 degrees of a teacher direction."""
    tasks, run = ts.fig1a_run(seeds, lr, steps)
    shape = (len(seeds), len(ts.FIG1A["cells"]))
    tw = np.stack([t.teacher_w for t in tasks])
    gain = (ts.teacher_alignment(run.W[-1], run.a[-1], tw, 20.0)
            - ts.teacher_alignment(run.W[0], run.a[0], tw, 20.0))
    return dict(S=run.kernel_distance[-1].reshape(shape),
                move=ts.angular_movement(run.W[0], run.W[-1], run.a[-1]).reshape(shape),
                gain=gain.reshape(shape)), tasks, run


def fig1a_checks(claim, m):
    """The Fig. 1(a) statements, per seed: cells are (0.1, 0), (2, 0), (0.1, 1), (0.1, -1)."""
    S, move, gain = m["S"], m["move"], m["gain"]
    return [claim.measure("S(0,T) at (tau 0.1, delta 0) minus at (tau 2, delta 0), per seed",
                          S[:, 0] - S[:, 1], ">", 0, source=SCALE_WORDS),
            claim.measure("S(0,T) ratio (tau 0.1) / (tau 2) at delta 0, per seed", S[:, 0] / S[:, 1],
                          ">", 20, source=reading("rich vs lazy read as a wide separation of S")),
            claim.measure("gain in weight share within 20 deg of a teacher, upstream minus "
                          "downstream (tau 0.1, delta +1 vs -1), per seed", gain[:, 2] - gain[:, 3],
                          ">", 0, source=UPSTREAM_WORDS),
            claim.measure("same gain difference, seed mean", (gain[:, 2] - gain[:, 3]).mean(), ">", 0.05,
                          source=reading("'striking' read as a visible share of the weight")),
            claim.measure("angular movement of neuron directions, upstream / downstream, per seed",
                          move[:, 2] / move[:, 3], ">", 5,
                          source=reading("upstream neurons turn toward the teacher, downstream stay"))]


def stated_margin(m):
    """The smallest margin of the two stated Fig. 1(a) directions over seeds (> 0: both hold)."""
    return min((m["S"][:, 0] - m["S"][:, 1]).min(), (m["gain"][:, 2] - m["gain"][:, 3]).min())


def draw_fig1a(report_figure, tasks, run, steps, t):
    fig, axs = plt.subplots(1, 4, figsize=(8, 2.4))
    for m, ax in enumerate(axs):
        P = np.abs(run.a[:, m, :, None]) * run.W[:, m]
        for i in range(P.shape[1]):
            ax.plot(P[:, i, 0], P[:, i, 1], "o", color="C0" if run.a[0, m, i] > 0 else "C3", ms=0.8)
        lim = np.abs(P[-1]).max() * 1.2
        for w in tasks[m].teacher_w:
            ax.plot([0, lim * w[0]], [0, lim * w[1]], "k:", lw=0.8)
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        tau, delta = ts.FIG1A["cells"][m]
        ax.set_title(rf"$\tau={tau:g}, \delta={delta:g}$", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    report_figure(fig, f"Fig. 1(a): trajectories of |a_i| w_i (markers every {steps // 20} GD steps, "
                       f"colour sgn a_i) of a 50-neuron student, d = 2, n = 20, seed 0, to flow time "
                       f"t = {t:g}; teacher directions dotted (lines)")


@pytest.mark.claim("GRQ-Fig1")
def test_fig1a_scale_and_geometry_in_two_dimensions(claim, report_figure):
    t = FIG1A_PAPER["horizon t (flow time)"]
    steps = int(round(t / flow_t(1, LR_A, FIG1A_PAPER["n"])))
    m, tasks, run = fig1a_metrics(SEEDS_A, LR_A, steps)
    double, _, _ = fig1a_metrics(SEEDS_A, 2 * LR_A, steps // 2)
    checks = fig1a_checks(claim, m)
    change = claim.measure(
        f"largest change of S(0,T) and of the teacher-alignment gain, lr {LR_A:g} vs {2 * LR_A:g} at "
        f"flow time t = {t:g}", max(np.abs(m["S"] - double["S"]).max(), np.abs(m["gain"] - double["gain"]).max()),
        "<=", 0.02, source=reading("GD close to the flow at both steps"))
    step_size = claim.measure(f"stated directions at lr {2 * LR_A:g} (same flow time): smallest margin "
                              "over seeds and statements", stated_margin(double), ">", 0,
                              source=reading("the outcome does not move with the step"))
    per_teacher = claim.measure("stated directions on each teacher alone: smallest margin over seeds "
                                "and statements", stated_margin(m), ">", 0,
                                source=reading("the paper's single teacher is any one of these"))
    ran = dict(FIG1A_PAPER, teachers=len(SEEDS_A), dtype="float64",
               **{"learning rate": LR_A, "horizon t (flow time)": flow_t(steps, LR_A, FIG1A_PAPER["n"])})
    setup = Setup(scale="ci", ran=ran, paper=FIG1A_PAPER, paper_source=SOURCE,
                  sensitivity={"learning rate": step_size, "teachers": per_teacher},
                  cost="4 runs x 1e6 steps x 8e3 FLOP at lr 1e-4; ~5 min on one CPU core")
    claim.reproduced(*checks, change, setup=setup, note="Fig. 1(a), seeds (0, 1)")
    draw_fig1a(report_figure, tasks, run, steps, t)


@pytest.mark.full
@pytest.mark.claim("GRQ-Fig1")
def test_fig1a_full_at_the_papers_step(claim):
    """Fig. 1(a) at D.1's own step: lr 1e-4 for 1e6 steps (t = 10), one teacher.  Cost: 4 runs x
    1e6 steps x 8e3 FLOP (4 n h d) = 3.2e10 FLOP, bound by the per-step overhead: 4.6 min
    measured on a shared 2-core CPU; about the same on one H100."""
    lr, steps = FIG1A_PAPER["learning rate"], 1_000_000
    m, _, _ = fig1a_metrics((0,), lr, steps)
    ran = dict(FIG1A_PAPER, dtype="float64", **{"horizon t (flow time)": flow_t(steps, lr, 20)})
    setup = Setup(scale="full", ran=ran, paper=FIG1A_PAPER, paper_source=SOURCE)
    claim.reproduced(*fig1a_checks(claim, m), setup=setup, note="Fig. 1(a) at lr 1e-4, seed 0")


def fig1b_checks(claim, steps, S, test):
    """The Fig. 1(b) statements on seed means of the (tau, delta) grids (both ascending); the
    'rapid' statement is read at 1% of the run's steps."""
    S_end, test_end = S[-1].mean(0), test[-1].mean(0)
    early = S[list(steps).index(steps[-1] // 100)].mean(0)[0]
    corner = test_end[0, -1]
    others = np.delete(test_end.ravel(), test_end.shape[1] - 1)
    return [claim.measure("S(0,T) at the smallest tau minus at the largest tau, per delta",
                          S_end[0] - S_end[-1], ">", 0, source=LAZY_RICH_WORDS),
            claim.measure("S(0,T) at the largest tau (lazy), per delta", S_end[-1], "<", 0.05,
                          source=reading("lazy read as a kernel that barely moves")),
            claim.measure("S(0, 1% of training) at the smallest tau: delta = +1 minus the largest "
                          "other delta's", early[-1] - early[:-1].max(), ">", 0, source=RAPID_WORDS),
            claim.measure("test MSE: smallest over the other cells minus at (smallest tau, delta "
                          "+1)", others.min() - corner, ">", 0, source=TEST_WORDS)], S_end, test_end


def fig1b_setup(cfg, scale, cost="") -> Setup:
    def settings(c):
        return {"data": "teacher-student, x ~ Unif(S^(d-1))", "d": c["d"], "h": c["h"], "k": c["k"],
                "n": c["n"], "test points": c["n_test"],
                "grid (tau x delta)": f"{len(c['taus'])} x {len(c['deltas'])}, tau in "
                                      f"[{min(c['taus']):g}, {max(c['taus']):g}], delta in "
                                      f"[{min(c['deltas']):g}, {max(c['deltas']):g}]",
                "seeds": len(c["seeds"]), "learning rate": f"{c['base_lr']:g}/tau^2",
                "horizon t tau^2 (flow time)": flow_t(c["steps"], c["base_lr"], c["n"]),
                "dtype": c["dtype"]}
    return Setup(scale=scale, ran=settings(cfg), paper=settings(ts.FIG1B_FULL), paper_source=SOURCE,
                 cost=cost)


def draw_fig1b(report_figure, cfg, S_end, test_end, caption):
    fig, axs = plt.subplots(1, 2, figsize=(7, 3), layout="constrained")
    for ax, Z, name in ((axs[0], np.log10(test_end), "log10 test MSE"), (axs[1], S_end, "S(0,T)")):
        im = ax.imshow(Z, origin="lower", cmap="viridis", aspect="auto")
        ticks = lambda v: [f"{x:.2g}" for x in v]  # noqa: E731
        ax.set_xticks(range(len(cfg["deltas"])), ticks(cfg["deltas"]), fontsize=6)
        ax.set_yticks(range(len(cfg["taus"])), ticks(cfg["taus"]), fontsize=6)
        ax.set_xlabel(r"$\delta$")
        ax.set_ylabel(r"$\tau$")
        ax.set_title(name, fontsize=9)
        fig.colorbar(im, ax=ax)
    report_figure(fig, caption)


@pytest.mark.claim("GRQ-Fig1")
def test_fig1b_reduced_sweep(claim, report_figure):
    cfg = ts.FIG1B_CI
    steps, S, test, _ = ts.fig1b_sweep(cfg, executor="inline", chunk_seeds=len(cfg["seeds"]))
    checks, S_end, test_end = fig1b_checks(claim, steps, S, test)
    setup = fig1b_setup(cfg, "ci", cost=ts.fig1b_cost(ts.FIG1B_FULL)
                        + "; est. 5-15 min on one H100 (python -m numerics.bench measures it)")
    claim.reproduced(*checks, setup=setup, note=f"Fig. 1(b) at d = {cfg['d']}, n = {cfg['n']}, "
                                                f"{steps[-1]} GD steps, seeds {cfg['seeds']}")
    draw_fig1b(report_figure, cfg, S_end, test_end,
               f"Fig. 1(b), reduced grid at the paper's d = 100, n = 1000 ({steps[-1]} GD steps at "
               f"lr {cfg['base_lr']:g}/tau^2, {len(cfg['seeds'])} seeds): test loss and kernel "
               f"distance, seed means (grid cells)")


@pytest.mark.full
@pytest.mark.claim("GRQ-Fig1")
def test_fig1b_full_released_grid(claim, report_figure, request):
    """Fig. 1(b) at the released grid: 17 x 17 (tau, delta) cells x 16 seeds = 4,624 runs of
    d = 100, h = 50, n = 1000, 1e5 GD steps at lr 5e-3/tau^2, float64 (FIG1B_FULL).

    Cost: 4,624 runs x 1e5 steps x 2e7 FLOP (4 n d h) = 9.25e15 FLOP: the float64 floor on one
    H100 (67 TFLOP/s) is 2.3 min; ~5-15 min expected (elementwise passes over the (n, 289 h)
    activations cost about as much as the products); ~5 days at 20 GFLOP/s on 2 CPU cores.
    Runs through ``numerics.sweep`` in 16 chunks (one seed's grid each) written to
    ``<reports-dir>/sweeps/grq-fig1b`` (an interrupted run resumes), on Dask with --dask ADDRESS.
    Writes its FLOP/s and figure data to ``<reports-dir>/paper_scale/data/grq-fig1b.json``."""
    cfg = ts.FIG1B_FULL
    reports = Path(request.config.getoption("--reports-dir") or "reports")
    record = full_scale.timed(lambda: ts.fig1b_sweep(cfg, out_dir=reports / "sweeps" / "grq-fig1b",
                                                     progress=True))
    steps, S, test, sweep = record.pop("result")
    checks, S_end, test_end = fig1b_checks(claim, steps, S, test)
    verdict = claim.reproduced(*checks, setup=fig1b_setup(cfg, "full"),
                               note="Fig. 1(b), released grid, 16 seeds")
    full_scale.write_record("grq-fig1b", claim="GRQ-Fig1", verdict=verdict, checks=checks,
                            flop=len(cfg["seeds"]) * len(cfg["taus"]) * len(cfg["deltas"])
                            * cfg["steps"] * ts.fig1b_flop_per_step(cfg),
                            figure={"taus": cfg["taus"], "deltas": cfg["deltas"], "steps": steps,
                                    "S": S.mean(1), "test": test.mean(1)},
                            chunks_run=len(sweep.computed), out_dir=reports / "paper_scale",
                            **record)
    draw_fig1b(report_figure, cfg, S_end, test_end,
               "Fig. 1(b) at the released grid (17 x 17 cells x 16 seeds, 1e5 steps, float64): "
               "test loss and kernel distance, seed means (grid cells)")
