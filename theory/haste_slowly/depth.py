"""Sec 6 of Make haste slowly: two hidden layers (MHS-S6-C1..C3, MHS-Fig6)."""
from theory.registry import register

P = "haste_slowly"
register(id="MHS-S6-C1", paper=P, where="Sec 6, L162", kind="empirical",
         title="first layer ungated, second layer gates like Sec 4",
         statement="all first-layer neurons are active for all datapoints; the second layer gates "
                   "as a common pathway plus pathways active in 2 of 3 contexts",
         expected="inconclusive")
register(id="MHS-S6-C2", paper=P, where="Sec 6, L164, L171", kind="empirical",
         title="run-to-run variance appears with depth",
         statement="there is now variance in the trajectories of both networks, which was not the "
                   "case for the single-hidden-layer architectures", expected="holds")
register(id="MHS-S6-C3", paper=P, where="Sec 6, L171", kind="empirical",
         title="common pathway aligns near epoch 500, contextual pathways near 12000",
         statement="the common pathway aligns around epoch 500, the contextual pathways appear at "
                   "epoch 12000", expected="holds",
         notes="the released GDLN hard-codes these onsets (frozen to 500, common-only to 12000, "
               "MHS-E16); only the ReLU timing is tested.")
register(id="MHS-Fig6", paper=P, where="Fig 6, L169", kind="empirical",
         title="depth results: many ReLU/ReLN runs, stereotypical trajectory",
         statement="100 runs of each; the stereotypical run (closest to the mean) of the ReLN "
                   "matches the ReLU's", expected="inconclusive")
