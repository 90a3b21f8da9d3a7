"""App B: Algorithm B.1, k-means on the ReLU units' binary activation patterns (MHS-AlgB1,
MHS-Fig8).  Runs: ``numerics.haste_slowly.gate_finder`` at ``configs.GATES[scale]`` on the
Sec 4 ReLU runs of ``configs.SEC45[scale]`` (ci: 2 runs, lr 2e-3 in float64; full: 5 runs at the
paper's lr 1e-3 x 8000 epochs in float32), and the GDLNs built from the k centroids."""
import pytest

from numerics.haste_slowly import datasets as ds
from verify.haste_slowly import evidence as E
from verify.haste_slowly import figures, settings

L0 = ds.zero_output_loss(ds.section4()[1])


@pytest.mark.claim("MHS-AlgB1")
def test_kmeans_recovers_the_reln_gates(claim, gates):
    run = gates("ci")
    claim.holds(*E.kmeans_recovers(run.centroids),
                note=f"{run.rows} binary patterns (large units of the Sec 4 ReLU runs, every 100 "
                     "epochs, ci configuration)")


@pytest.mark.claim("MHS-Fig8")
def test_elbow_at_four(claim, report_figure, gates, scale):
    run = gates(scale)
    ms, sensitivity, mse = E.elbow_evidence(run, L0)
    claim.reproduced(*ms, setup=settings.gates(run, sensitivity))
    if scale == "ci":
        report_figure(figures.elbow(mse, run.centroids[4]),
                      "Figs 8-9: k-means centroids of ReLU activation patterns (k = 4) and the "
                      "elbow metric: loss MSE between the ReLU runs and the GDLNs built from the k "
                      "binarised centroids (one line per GDLN init std)")
