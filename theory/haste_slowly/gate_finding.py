"""App B of Make haste slowly: Algorithm B.1 and Figs 8-9 (MHS-AlgB1, MHS-Fig8)."""
from theory.registry import register

P = "haste_slowly"
register(id="MHS-AlgB1", paper=P, where="App B, Algorithm 1, L412-L434", kind="algorithm",
         title="k-means on binary activation patterns finds the ReLN gates",
         statement="k-means (k = 4) on the ReLU units' binary activation patterns sampled every "
                   "100 epochs recovers all-on, not-ctx1, not-ctx2, not-ctx3",
         expected="holds")
register(id="MHS-Fig8", paper=P, where="App B, Fig 8 caption L443; L445", kind="empirical",
         title="centroids for k = 2, 3, 4; elbow at k = 4",
         statement="(Fig 8:) Note the inconsistency in gating patterns arising from having too "
                   "few clusters. (L445:) We show this elbow in Figure 9 and see that the "
                   "4-Cluster model is the appropriate choice for the elbow, as expected.",
         expected="inconclusive", expected_full="inconclusive",
         clauses={"Note the inconsistency in gating patterns arising from having too few "
                  "clusters": "share of fractional centroid entries",
                  "the 4-Cluster model is the appropriate choice for the elbow":
                      "elbow of the loss MSE"},
         notes="'elbow' read three ways, each measured: largest curvature and the kneedle point "
               "give k = 3 at full scale, the smallest loss MSE k = 4 (loss MSE / L(0)^2 = "
               "3.8e-3, 5.2e-4, 4.2e-4, 4.7e-4, 1.3e-3 for k = 2..6); the readings disagree, so "
               "the claim depends on the reading")
