"""Two-layer ReLU regimes of GRQ Sec. 5 / Fig. 5, the conclusion, and the Fig. 1 set-up of
App. D.1, from one batched run (``numerics.rich_quick.relu_regimes``; time is gradient-flow
time t = lr * steps on the 1/2-sum loss)."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp
import torch

from numerics.rich_quick import linear_flows as lf
from numerics.rich_quick import piecewise as pw
from numerics.rich_quick import relu_regimes as rr
from numerics.rich_quick import relu_training as rt
from theory.registry import REGISTRY
from theory.rich_quick import experiments as rq_exp
from verify.measurement import Setup, paper, reading


def _setup():
    return Setup(scale="ci", ran=rr.RAN, paper=rq_exp.PAPER_SETTINGS["GRQ-Fig5"],
                 paper_source=rq_exp.PAPER_SOURCES["GRQ-Fig5"])


def _fmt(v):
    return np.array2string(np.asarray(v), precision=3, separator=",")


@pytest.mark.claim("GRQ-Claim-PL-regimes")
def test_downstream_frozen_balanced_two_phase_upstream_fast(claim):
    s = rr.summary()
    dn, bal, up = s[-1.0], s[0.0], s[1.0]
    claim.reproduced(
        claim.measure("downstream minus balanced Hamming distance of the patterns (360 directions) "
                      "when the loss first falls below 10% of L(0), per seed",
                      dn["ham_at_fit"] - bal["ham_at_fit"], "<", 0,
                      source=paper("L151", "the overall partition map doesn't change")),
        claim.measure("upstream minus balanced final parameter distance, per seed",
                      up["pd_end"] - bal["pd_end"], "<", 0,
                      source=paper("L169", "it is rich due to a changing activation pattern, but "
                                           "the dynamics do not move far in parameter space")),
        claim.measure("upstream minus balanced time for the Hamming distance to pass 0.1, per seed",
                      up["t_ham"] - bal["t_ham"], "<", 0,
                      source=paper("L169", "vanishing initializations prompting an extremely fast "
                                           "alignment phase")),
        claim.measure("downstream Hamming distance at 10% loss, per seed", dn["ham_at_fit"], "<", 0.05,
                      source=reading("'frozen' read as under 5% of the directions changing pattern")),
        claim.measure("downstream kernel distance S(0, end), per seed", dn["S_end"], "<", 0.05,
                      source=reading("'the NTK remains constant' (L151) read as S below 0.05")),
        claim.measure("balanced largest Hamming distance while max|f| < 0.1, per seed",
                      bal["ham_while_f_small"], ">", 0.1,
                      source=reading("'partition alignment' while f ~ 0 (L153) read as over 10% of "
                                     "the directions changing pattern")),
        setup=_setup(),
        note=f"fit times: balanced {_fmt(bal['t_fit'])}, upstream {_fmt(up['t_fit'])}")


@pytest.mark.claim("GRQ-Fig5")
def test_fig5_partition_frozen_downstream_moving_while_f_small(claim, report_figure):
    s = rr.summary()
    dn, bal, up = s[-1.0], s[0.0], s[1.0]
    claim.reproduced(
        claim.measure("downstream minus balanced Hamming distance when fitted, per seed",
                      dn["ham_at_fit"] - bal["ham_at_fit"], "<", 0,
                      source=paper("L158", "With a lazy downstream initialization (bottom), the "
                                           "activation partition is fixed")),
        claim.measure("balanced: time the Hamming distance passes 0.1 minus time the loss falls "
                      "below 10%, per seed", bal["t_ham"] - bal["t_fit"], "<", 0,
                      source=paper("L158", "an initial alignment phase where the partition map "
                                           "changes rapidly while the input-output map remains "
                                           "close to zero, followed by a data fitting phase")),
        claim.measure("upstream: the same difference, per seed", up["t_ham"] - up["t_fit"], "<", 0,
                      source=paper("L158", "With a rich balanced or upstream initialization (top)")),
        claim.measure("final loss / L(0), every configuration and seed",
                      np.concatenate([v["loss_end"] for v in s.values()]), "<", 0.05,
                      source=reading("'fits the data' read as the loss below 5% of L(0)")),
        setup=_setup(),
        note=f"balanced Hamming while max|f| < 0.1: {_fmt(bal['ham_while_f_small'])}")
    hist, *_ = rr.xor_runs()
    t = hist.time
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
    for (delta, name), col in zip(rr.NAMES.items(), ("C0", "C1", "C2")):
        ham = rr.per_config(hist, "hamming")[delta]
        loss = rr.per_config(hist, "loss")[delta]
        axes[0].plot(t, ham.mean(1), ".", ms=3, color=col, label=name)
        axes[1].plot(t, loss.mean(1) / loss[0].mean(), ".", ms=3, color=col, label=name)
    axes[0].set_xscale("symlog", linthresh=1e-2)
    axes[1].set_xscale("symlog", linthresh=1e-2)
    axes[1].set_yscale("log")
    axes[0].set_xlabel("t (gradient-flow time)")
    axes[1].set_xlabel("t (gradient-flow time)")
    axes[0].set_ylabel("Hamming distance of patterns from init")
    axes[1].set_ylabel("loss / L(0)")
    axes[0].legend(fontsize=7)
    report_figure(fig, "Fig. 5 (XOR-like task, 20 ReLU units, tau=1e-2, 4 seeds, markers = "
                       "seed means): the partition is frozen downstream and moves before the fit "
                       "for balanced and upstream initialisations.")
    _, trained, X, y, _ = rr.xor_runs()
    g = np.linspace(-2, 2, 161)
    G = torch.as_tensor(np.stack(np.meshgrid(g, g)).reshape(2, -1))
    fig, axes = plt.subplots(2, 3, figsize=(7.5, 5))
    for row, (label, model) in enumerate((("init", rr.initial_model()), ("end", trained))):
        with torch.no_grad():
            f = model(G)[:, 0].numpy()
        for col, (_, delta) in enumerate(rr.CONFIGS):
            k = col * len(rr.SEEDS)                           # seed 0 of each configuration
            ax = axes[row, col]
            vmax = max(np.abs(f[k]).max(), 1e-12)
            ax.imshow(f[k].reshape(161, 161), origin="lower", extent=(-2, 2, -2, 2), cmap="PuOr",
                      vmin=-vmax, vmax=vmax)
            for w in model.W1[k].numpy():                    # each unit's boundary w^T x = 0
                u = 3 * w / np.linalg.norm(w)
                ax.plot([-u[1], u[1]], [u[0], -u[0]], "k-", lw=0.5)
            ax.scatter(X[0], X[1], c=y, cmap="coolwarm", s=8, edgecolors="k", linewidths=0.2)
            ax.set_xlim(-2, 2)
            ax.set_ylim(-2, 2)
            ax.set_title(f"{rr.NAMES[delta]}, {label} (max|f| {vmax:.2g})", fontsize=7)
            ax.set_xticks([])
            ax.set_yticks([])
    report_figure(fig, "Fig. 5, seed 0: network output (colour, scaled per panel), unit "
                       "boundaries (lines) and data (markers) at init and after training; downstream "
                       "keeps its boundaries, balanced and upstream rotate them onto the data.")


@pytest.mark.claim("GRQ-Concl")
def test_conclusion_linear_vs_nonlinear_and_discretisation(claim):
    # (i) linear nets: the regime table of the wide linear networks (whitened, eta 0.5/3)
    res = lf.regime_table()
    i = {D: lf.REGIME_DELTAS.index(D) for D in lf.REGIME_DELTAS}
    balanced = np.array([v[i[0.0], 0] for v in res.values()])
    unbalanced_fast = np.array([min(v[i[30.0], 1], v[i[-30.0], 1]) for v in res.values()])
    # (ii) nonlinear: upstream against balanced on the XOR run
    s = rr.summary()
    # (iii) one GD step changes delta_i by exactly lr^2 ((w.xi)^2 - a^2 ||xi||^2) != 0
    (W, a), (W1, a1), X, y, lr = rr.one_gd_step()
    _, _, _, xi = pw.two_layer_parts(W, a, X.T, y, 0.0)
    before, after = a ** 2 - np.sum(W ** 2, 1), a1 ** 2 - np.sum(W1 ** 2, 1)
    predicted = lr ** 2 * (np.sum(W * xi, 1) ** 2 - a ** 2 * np.sum(xi ** 2, 1))
    claim.reproduced(
        claim.measure("linear nets (funnel, inverted, square): S(0, end) at delta = 0 minus the "
                      "smaller S after the fast phase at delta = +-30", balanced - unbalanced_fast,
                      ">", 0, source=paper("L11", "In linear networks, rapid feature learning only "
                                                  "occurs with balanced initializations")),
        claim.measure("linear nets (funnel, inverted, square): S(0, end) at delta = 0", balanced,
                      ">", 0.1, source=reading("'rich' read as the kernel moving by over 0.1")),
        claim.measure("linear nets: smaller S after the fast phase at delta = +-30", unbalanced_fast,
                      "<", 1e-3, source=reading("'lazy or delayed' read as S below 1e-3 after the "
                                                "fast phase")),
        claim.measure("ReLU: upstream minus balanced time for the Hamming distance to pass 0.1, "
                      "per seed", s[1.0]["t_ham"] - s[0.0]["t_ham"], "<", 0,
                      source=paper("L175", "unbalanced initializations, which promote faster "
                                           "learning at earlier layers, can actually accelerate "
                                           "rich learning")),
        claim.measure("largest change of delta_i in one GD step", np.max(np.abs(after - before)),
                      ">", 0, source=paper("L175", "discretization and stochastic effects of SGD, "
                                                    "which disrupt the conservation laws")),
        claim.measure("rel. error of lr^2((w.xi)^2 - a^2|xi|^2) as that change",
                      np.max(np.abs((after - before) - predicted)) / np.max(np.abs(predicted)),
                      "<=", 1e-6, source=reading("float64 round-off of delta_i against its one-step "
                                                 "change, with room")),
        setup=_setup(),
        note="linear part: wide linear nets, whitened X, ||beta_i(0)|| = 0.1, gradient flow")


@pytest.mark.claim("GRQ-Exp-D1")
def test_fig1_setup_and_the_delta_squared_typo(claim):
    r = REGISTRY["GRQ-Exp-D1"]
    W, a = rt.symmetrised_base(0, 2, 50)
    points = np.random.default_rng(1).standard_normal((2, 20))
    cases = ((0.1, 0.0), (2.0, 0.0), (0.1, 1.0), (0.1, -1.0), (0.7, 0.3))

    def miss(eq):
        """Largest |delta_i - delta| after the D.1 scaling with alpha from ``eq`` (inf: no
        positive real alpha)."""
        worst = 0.0
        for tau, delta in cases:
            sols = [v for v in sp.solve(eq.subs({rq_exp.tau: tau, rq_exp.delta: delta}), rq_exp.alpha)
                    if v.is_real and v > 0]
            if not sols:
                return np.inf
            alpha = float(sols[0])
            Ws, as_ = W * tau / alpha, a * tau * alpha
            worst = max(worst, float(np.max(np.abs(as_ ** 2 - np.sum(Ws ** 2, 1) - delta))))
        return worst
    tol = reading("float64 round-off of the scaled squares")
    where = f"(tau, delta) in {cases}"
    claim.erratum(
        printed=claim.measure(f"delta^2 = tau^2(alpha^2 - alpha^-2): max |delta_i - delta|, {where}",
                              miss(r.printed), "<=", 1e-9, source=tol),
        corrected=[claim.measure(f"delta = tau^2(alpha^2 - alpha^-2): max |delta_i - delta|, {where}",
                                 miss(r.corrected), "<=", 1e-9, source=tol),
                   claim.measure("symmetrised base init (h 50, d 2): max |f| on 20 random inputs",
                                 np.max(np.abs(a @ np.maximum(W @ points, 0))), "<=", 1e-12,
                                 source=reading("exact cancellation up to round-off")),
                   claim.measure("symmetrised base init: max |delta_i|",
                                 np.max(np.abs(a ** 2 - np.sum(W ** 2, 1))), "<=", 1e-12,
                                 source=reading("exact balance up to round-off"))],
        note="D.1 trains on an unnormalised 'mean square loss'; the suite's runs use the 1/2-sum "
             "loss with t = lr * steps")
