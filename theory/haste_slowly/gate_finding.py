"""App B of Make haste slowly: Algorithm B.1 and Figs 8-9 (MHS-AlgB1, MHS-Fig8)."""
from theory.registry import register

P = "haste_slowly"
register(id="MHS-AlgB1", paper=P, where="App B, Algorithm 1, L412-L434", kind="algorithm",
         title="k-means on binary activation patterns finds the ReLN gates",
         statement="k-means (k = 4) on the ReLU units' binary activation patterns sampled every "
                   "100 epochs recovers all-on, not-ctx1, not-ctx2, not-ctx3",
         expected="holds")
register(id="MHS-Fig8", paper=P, where="App B, Figs 8-9", kind="empirical",
         title="centroids for k = 2, 3, 4; elbow at k = 4",
         statement="k = 2, 3 centroids are fractional (inconsistent gating); the performance "
                   "metric has its elbow at k = 4", expected="inconclusive",
         expected_full="not-reproduced",
         notes="'elbow' read as an elbow, two ways (largest curvature; kneedle point): both give "
               "k = 3 at full scale (loss MSE / L(0)^2 = 3.8e-3, 5.2e-4, 4.2e-4, 4.7e-4, 1.3e-3 "
               "for k = 2..6: the lowest point is k = 4, the largest drop ends at k = 3); the "
               "settings App B leaves open (runs pooled, GDLN init, range of k) move neither")
