"""App B: Algorithm B.1, k-means on the ReLU units' binary activation patterns (MHS-AlgB1,
MHS-Fig8).  Uses the Sec 4 ReLU runs of numerics.haste_slowly.experiments: ci, one seed at lr 2e-3
x 4000 steps in float64; full, five seeds at the paper's lr 1e-3 x 8000 epochs in float32."""
import numpy as np
import pytest

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import experiments as E
from numerics.haste_slowly import gate_finder as gf
from numerics.haste_slowly.gated import train
from verify.haste_slowly.setups import sec45
from verify.measurement import paper, reading

KS = (2, 3, 4, 5, 6)
#: Algorithm B.1 pools several training runs (L412 "We then run the training of the network
#: multiple times"); the paper does not say how many, the catalogue's cost table takes 5
FULL_SEEDS = (0, 1, 2, 3, 4)
CONFIGS = [pytest.param(E.SEC45_CI, (0,), id="ci"),
           pytest.param(E.SEC45_FULL, FULL_SEEDS, id="full", marks=pytest.mark.full)]


def _rows(cfg=E.SEC45_CI, seeds=(0,), max_rows=6000, seed=0):
    """Pattern rows sampled every 100 epochs (every 2nd record), large units only, pooled over
    the seeds' runs; subsampled."""
    rows = []
    for s in seeds:
        run = E.relu_run(seeds=(s,), **cfg)
        every = int(round(100 / (run.epochs[1] - run.epochs[0])))
        rows.append(gf.collect(run.hist.records["patterns"][::every],
                               run.hist.records["mass"][::every]))
    rows = np.concatenate(rows)
    rng = np.random.default_rng(seed)
    return rows[rng.choice(len(rows), min(max_rows, len(rows)), replace=False)]


def _reln_patterns():
    return {tuple(np.ones(24))} | {tuple(r) for r in ds.context_gates(3, ds.k_of_c(3, 2))}


@pytest.mark.claim("MHS-AlgB1")
def test_kmeans_recovers_the_reln_gates(claim):
    rows = _rows()
    cents = {k: gf.find_gates(rows, k) for k in KS}
    per_ctx = {k: {tuple(np.repeat(c.reshape(3, 8).mean(1) > 0.5, 8).astype(float)) for c in v}
               for k, v in cents.items()}
    exact4 = {tuple(r) for r in gf.binarise(cents[4])}
    common = all(any(np.all(c > 0.5) for c in v) for v in cents.values())
    claim.holds(
        claim.measure("k = 4 centroids binarised per context (majority of items) are all-on, "
                      "not-1, not-2, not-3", per_ctx[4] == _reln_patterns(), "==", True,
                      source=paper("L438", "We note that when using 4-clusters the exact gating pattern used in Section 4 emerges")),
        claim.measure(f"an all-on (common) centroid for every k in {KS}", common, "==", True,
                      source=paper("L438", "all of the clusterings find a common pathway")),
        note=f"{len(rows)} binary patterns (large units of the Sec 4 ReLU net, every 100 epochs, "
             f"ci run); exact per-datapoint binarisation matches {len(exact4 & _reln_patterns())}/4")


def _setup(cfg, seeds):
    base = sec45(cfg, seeds=seeds, networks="ReLU 11-700-60; GDLNs from the k centroids")
    runs = "multiple runs" if len(seeds) > 1 else "1 run"
    return type(base)(scale=base.scale, ran=dict(base.ran, seeds=runs),
                      paper=dict(base.paper, seeds="multiple runs"),
                      paper_source=base.paper_source + "; Algorithm B.1 (L412) for the runs",
                      cost=base.cost)


@pytest.mark.claim("MHS-Fig8")
@pytest.mark.parametrize("cfg, seeds", CONFIGS)
def test_elbow_at_four(claim, report_figure, cfg, seeds):
    """Full: 5 ReLU runs + one batched GDLN run over k = 2..6, each 8000 steps x ~7e6 FLOP per
    step (~6e10 FLOP); ~30 s on 2 CPU cores, about a second on one H100."""
    X, Y = ds.section4()
    L0 = 0.5 * float(np.sum(Y ** 2))
    rows = _rows(cfg, seeds)
    cents = [gf.find_gates(rows, k) for k in KS]
    relu = E.relu_run(**cfg)
    net = gf.gdlns_from_centroids(cents, X.shape[0], Y.shape[0], width=20,
                                  std=0.005 / 700 * np.sqrt(700 / 120))
    hist = train(net, X, Y, lr=cfg["lr"], steps=cfg["steps"],
                 record_every=int(round(E.RECORD_EPOCHS * E.PAPER_LR / cfg["lr"])))
    mse = ((hist.loss - relu.hist.loss[:, :1]) ** 2).mean(0) / L0 ** 2
    fractional = {k: float(np.mean((c > 0.1) & (c < 0.9))) for k, c in zip(KS, cents)}
    if cfg == E.SEC45_CI:
        _figure(report_figure, mse, cents)
    i3, i4, i5 = KS.index(3), KS.index(4), KS.index(5)
    claim.reproduced(
        claim.measure("k after which more clusters stop lowering the loss MSE between the ReLU "
                      "net and the GDLN from the k centroids", KS[int(np.argmin(mse))], "==", 4,
                      source=paper("L445", "the 4-Cluster model is the appropriate choice for the elbow")),
        claim.measure("share of fractional centroid entries (0.1-0.9): k = 2 and k = 3 minus k = 4",
                      [fractional[2] - fractional[4], fractional[3] - fractional[4]], ">", 0,
                      source=paper("L443", "Note the inconsistency in gating patterns arising from having too few clusters")),
        claim.measure("MSE(4) / MSE(3)", float(mse[i4] / mse[i3]), "<", 0.3,
                      source=reading("catalogue's proposed elbow: a drop to under 0.3")),
        claim.measure("MSE(5) / MSE(4)", float(mse[i5] / mse[i4]), ">", 0.7,
                      source=reading("catalogue's proposed elbow: flat after, above 0.7")),
        setup=_setup(cfg, seeds),
        note=f"MSE(k)/L(0)^2 for k = {KS}: {', '.join(f'{v:.2e}' for v in mse)}; fractional "
             f"shares {({k: round(v, 2) for k, v in fractional.items()})}")


def _figure(report_figure, mse, cents):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(8, 3.4))
    ax[0].plot(KS, mse, "o-")
    ax[0].set(xlabel="k (clusters)", ylabel="MSE(loss ReLU, GDLN_k)/L(0)^2", yscale="log")
    ax[1].imshow(cents[2], cmap="viridis", vmin=0, vmax=1, aspect="auto")
    ax[1].set(xlabel="datapoint (context-major)", ylabel="centroid (k = 4)")
    report_figure(fig, "Figs 8-9: k-means centroids of ReLU activation patterns (k = 4, "
                       "simulation) and the elbow metric: loss MSE between the ReLU net and the "
                       "GDLN built from the k binarised centroids (markers, all k one batched run)")
