"""App B: Algorithm B.1, k-means on the ReLU units' binary activation patterns (MHS-AlgB1,
MHS-Fig8).  Uses the Sec 4 ReLU run of numerics.haste_slowly.experiments."""
import numpy as np
import pytest

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import experiments as E
from numerics.haste_slowly import gate_finder as gf
from numerics.haste_slowly.gated import train

KS = (2, 3, 4, 5, 6)


def _rows(max_rows=6000, seed=0):
    """Pattern rows sampled every 100 epochs (every 2nd record), large units only; subsampled."""
    run = E.relu_run()
    every = int(round(100 / (E.EVERY * E.EPOCHS_PER_STEP)))
    pats = run.hist.records["patterns"][::every]
    mass = run.hist.records["mass"][::every]
    rows = gf.collect(pats, mass)
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
    ok = per_ctx[4] == _reln_patterns() and common
    claim.holds(ok, f"{len(rows)} binary patterns (large units of the Sec 4 ReLU net, every 100 "
                    f"epochs): k = 4 centroids binarised per context (majority of items) = "
                    f"{sorted(tuple(int(x) for x in p[::8]) for p in per_ctx[4])} (want all-on, not-1, "
                    f"not-2, not-3); exact per-datapoint binarisation matches "
                    f"{len(exact4 & _reln_patterns())}/4; an all-on (common) centroid for every k in "
                    f"{KS}: {common}")


@pytest.mark.claim("MHS-Fig8")
def test_elbow_at_four(claim, report_figure):
    import matplotlib.pyplot as plt
    X, Y = ds.section4()
    L0 = 0.5 * float(np.sum(Y ** 2))
    rows = _rows()
    cents = [gf.find_gates(rows, k) for k in KS]
    relu = E.relu_run()
    net = gf.gdlns_from_centroids(cents, X.shape[0], Y.shape[0], width=20,
                                  std=0.005 / 700 * np.sqrt(700 / 120))
    hist = train(net, X, Y, lr=E.LR, steps=E.STEPS, record_every=E.EVERY)
    mse = ((hist.loss - relu.hist.loss[:, :1]) ** 2).mean(0) / L0 ** 2
    fractional = {k: float(np.mean((c > 0.1) & (c < 0.9))) for k, c in zip(KS, cents)}
    fig, ax = plt.subplots(1, 2, figsize=(8, 3.4))
    ax[0].plot(KS, mse, "o-")
    ax[0].set(xlabel="k (clusters)", ylabel="MSE(loss ReLU, GDLN_k)/L(0)^2", yscale="log")
    ax[1].imshow(cents[2], cmap="viridis", vmin=0, vmax=1, aspect="auto")
    ax[1].set(xlabel="datapoint (context-major)", ylabel="centroid (k = 4)")
    report_figure(fig, "Figs 8-9: k-means centroids of ReLU activation patterns (k = 4, "
                       "simulation) and the elbow metric: loss MSE between the ReLU net and the "
                       "GDLN built from the k binarised centroids (markers, all k one batched run)")
    elbow = mse[KS.index(4)] / mse[KS.index(3)] < 0.3 and mse[KS.index(5)] / mse[KS.index(4)] > 0.7
    frac = fractional[2] > fractional[4] and fractional[3] > fractional[4]
    claim.reproduced(elbow and frac,
                     f"MSE(k)/L(0)^2 for k = {KS}: {', '.join(f'{v:.2e}' for v in mse)}; "
                     f"MSE(4)/MSE(3) "
                     f"= {mse[2] / mse[1]:.2f} (criterion < 0.3), MSE(5)/MSE(4) = {mse[3] / mse[2]:.2f} (criterion > 0.7, "
                     f"catalogue's proposed thresholds); share of fractional centroid entries "
                     f"(0.1-0.9) {({k: round(v, 2) for k, v in fractional.items()})}")
