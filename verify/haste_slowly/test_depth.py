"""Sec 6: two hidden layers (MHS-S6-C1..C3, MHS-Fig6).  ci: width 128 (std scaled to keep the
per-unit pre-activation scale), 4 seeds, lr 4e-3 x 7500 steps (= 30000 epochs at lr 1e-3 in
t/tau).  The paper-scale experiment (width 420, 100 seeds each) is the ``full`` variant."""
import numpy as np
import pytest
from scipy.stats import ks_2samp

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import experiments as E
from numerics.haste_slowly import gate_finder as gf
from numerics.haste_slowly import reln
from numerics.haste_slowly.metrics import crossing_time

PROFILES = [pytest.param(E.DEPTH_CI, id="ci"),
            pytest.param(E.DEPTH_FULL, id="full", marks=pytest.mark.full)]
X, Y = ds.contexts(3, 1.0)
L0 = 0.5 * float(np.sum(Y ** 2))
PLATEAU = 17.0          # loss once the common pathway has converged (C = 3)


def _run(kind, cfg):
    return E.depth_runs(cfg, kinds=(kind,))[kind]


def _epochs(run, cfg):
    return run.hist.steps * cfg["lr"] / 1e-3


def _drop_times(run, cfg):
    """(K, 2) epochs of the common drop (L < 0.9 L(0)) and of the contextual drop (L < half the
    common-pathway plateau)."""
    ep = _epochs(run, cfg)
    return np.array([[crossing_time(run.hist.loss[:, k], ep, 0.9 * L0),
                      crossing_time(run.hist.loss[:, k], ep, PLATEAU / 2)]
                     for k in range(run.hist.loss.shape[1])])


@pytest.mark.claim("MHS-S6-C1")
@pytest.mark.parametrize("cfg", PROFILES)
def test_first_layer_ungated_second_gates_by_context(claim, cfg):
    run = _run("relu", cfg)
    g1, m1 = run.hist.records["g1"][-1], run.hist.records["m1"][-1]
    g2, m2 = run.hist.records["g2"][-1], run.hist.records["m2"][-1]
    always = float(np.mean([reln.mass_shares(g1[k].all(-1).astype(int), m1[k], (1,))[1]
                            for k in range(len(m1))]))
    rows = gf.collect(g2[None], m2[None])
    cents = gf.binarise(gf.find_gates(rows, 4))
    want = {tuple(np.ones(24))} | {tuple(r) for r in ds.context_gates(3, ds.k_of_c(3, 2))}
    per_ctx = [tuple(np.repeat(c.reshape(3, 8).mean(1) > 0.5, 8).astype(float)) for c in cents]
    found = set(per_ctx) == want
    # 0.9 (catalogue's proposed threshold) of the first layer's weight mass on always-on units
    claim.reproduced(always >= 0.9 and found,
                     f"{cfg['width']}-{cfg['width']} ReLU, {len(cfg['seeds'])} seeds, end of "
                     f"training: layer-1 mass on units on for all 24 datapoints {always:.2f} (criterion "
                     f">= 0.9); k-means (k = 4) on layer-2 patterns, binarised per context: "
                     f"{sorted(tuple(int(v) for v in c[::8]) for c in per_ctx)} (want all-on and "
                     "the three 2-of-3 patterns)")


@pytest.mark.claim("MHS-S6-C2")
@pytest.mark.parametrize("cfg", PROFILES)
def test_variance_appears_with_depth(claim, cfg):
    deep, shallow, gdln = _run("relu", cfg), _run("shallow", cfg), _run("gdln", cfg)
    # std across seeds of L(t)/L(0), max over t (log L is dominated by seed noise once L ~ 0)
    spread = {name: float(np.max(np.std(r.hist.loss, axis=1)) / L0)
              for name, r in (("deep", deep), ("shallow", shallow), ("gdln", gdln))}
    ratio = spread["deep"] / spread["shallow"]
    t_relu = _drop_times(deep, cfg)[:, 1]
    t_gdln = _drop_times(gdln, cfg)[:, 1]
    finite = np.isfinite(t_relu).all() and np.isfinite(t_gdln).all()
    p = ks_2samp(t_relu, t_gdln).pvalue if finite else 0.0
    # ratio > 5 and a KS test not rejecting at 0.05 (catalogue's proposed operationalisation)
    claim.reproduced(ratio > 5 and p > 0.05,
                     f"max over t of the std across {len(cfg['seeds'])} seeds of L/L(0): 2 hidden "
                     f"layers {spread['deep']:.3f}, 1 hidden layer {spread['shallow']:.4f} (ratio "
                     f"{ratio:.0f}, criterion > 5), depth-2 GDLN {spread['gdln']:.3f}; contextual drop epochs "
                     f"ReLU {np.round(t_relu)}, GDLN {np.round(t_gdln)}: KS p = {p:.2g} (criterion > 0.05)")


@pytest.mark.claim("MHS-S6-C3")
@pytest.mark.parametrize("cfg", PROFILES)
def test_relu_onset_times(claim, cfg):
    t = _drop_times(_run("relu", cfg), cfg)
    med = np.median(t, axis=0)
    # within a factor 2 of the paper's epochs 500 and 12000 (only the ReLU timing is emergent;
    # the released GDLN hard-codes both onsets, MHS-E16)
    ok = 250 <= med[0] <= 1000 and 6000 <= med[1] <= 24000
    claim.reproduced(ok, f"{cfg['width']}-{cfg['width']} ReLU, {len(cfg['seeds'])} seeds: common "
                         f"drop (L < 0.9 L(0)) at epochs {np.round(t[:, 0])} (median {med[0]:.0f}; "
                         f"paper ~500), contextual drop (L < 8.5) at {np.round(t[:, 1])} (median "
                         f"{med[1]:.0f}; paper ~12000); tolerance a factor 2")


@pytest.mark.claim("MHS-Fig6")
@pytest.mark.parametrize("cfg", PROFILES)
def test_stereotypical_trajectories(claim, report_figure, cfg):
    import matplotlib.pyplot as plt
    deep, gdln = _run("relu", cfg), _run("gdln", cfg)
    ep = _epochs(deep, cfg)

    def stereotypical(L):
        return int(np.argmin(((L - L.mean(1, keepdims=True)) ** 2).sum(0)))
    kr, kg = stereotypical(deep.hist.loss), stereotypical(gdln.hist.loss)
    Lr, Lg = deep.hist.loss[:, kr], gdln.hist.loss[:, kg]
    end_gap = abs(Lr[-1] - Lg[-1]) / L0
    dev = float(np.max(np.abs(Lr - Lg)) / L0)
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.plot(ep, deep.hist.loss, "-", color="tab:blue", alpha=0.25)
    ax.plot(ep, Lr, "-", color="tab:blue", lw=2, label="ReLU, stereotypical")
    ax.plot(ep[::6], gdln.hist.loss[::6], ".", color="tab:orange", alpha=0.3, ms=2)
    ax.plot(ep[::6], Lg[::6], "o", color="tab:orange", ms=3, label="depth-2 GDLN, stereotypical")
    ax.set(xlabel="epoch", ylabel="loss (1/2 sum)", yscale="log")
    ax.legend(fontsize=7)
    report_figure(fig, f"Fig 6b: {len(cfg['seeds'])} runs of the 2-hidden-layer ReLU net "
                       f"(lines, width {cfg['width']}) and of the depth-2 GDLN trained jointly "
                       "without the released code's frozen schedule (markers); bold: the run "
                       "closest to the mean")
    # 5% of L(0) (as MHS-S4-C1's catalogue tolerance)
    claim.reproduced(dev < 0.05,
                     f"stereotypical runs (argmin squared distance to the mean, {len(cfg['seeds'])} "
                     f"seeds each): sup_t |L_ReLU - L_GDLN| / L(0) = {dev:.2f} (criterion < 0.05), final "
                     f"losses {Lr[-1]:.2f} vs {Lg[-1]:.2f}")
