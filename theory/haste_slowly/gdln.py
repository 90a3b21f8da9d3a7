"""Sec 2-3 of Make haste slowly: the GDLN formalism, its race reduction and the ReLN
(MHS-Eq(1)..(6), MHS-Asm2.1, MHS-Fig1, MHS-Disc, MHS-Def3.1, MHS-C3.1, MHS-C3.2)."""
import sympy as sp

from theory.registry import register

N, eps = sp.symbols("N epsilon", positive=True)
#: the time constant as printed beside Eq. (2)-(3) (L59) and the one GD on Eq. (2) implies
TAU_PRINTED = 1 / (N * eps)
TAU_MEAN_LOSS = 1 / eps

P = "haste_slowly"

register(id="MHS-Eq(1)", paper=P, where="Sec 2, Eq. (1), L49; App A.2 L378", kind="definition",
         title="GDLN forward pass",
         statement=r"h_v = g_v \sum_{q: t(q)=v} g_q W_q h_{s(q)}; input nodes h_v = x_v",
         expected="defined",
         notes="Path gate g_p (never defined in the paper) read as the product of node and edge "
               "gates along p (Saxe et al. 2022).")
register(id="MHS-Eq(2)", paper=P, where="Sec 2, Eq. (2), L55; App A.2 L382", kind="definition",
         title="GDLN loss (mean, 1/(2N))",
         statement=r"L = \frac{1}{2N}\sum_i\sum_{v\in Out}\|y_v^i - h_v^i\|^2",
         expected="defined",
         notes="The experiments and App A use the 1/2-sum loss instead (MHS-E0; "
               "theory.conventions.convention('haste_slowly')).")
register(id="MHS-Eq(3)", paper=P, where="Sec 2, Eq. (3), L59-L61; App A.2 Eq. (8)",
         kind="identity", title="path-form gradient with tau = 1/(N eps)",
         statement=r"\tau \frac{dW_e}{dt} = -\frac{\partial L}{\partial W_e} = \sum_{p\in P(e)} "
                   r"W_{\bar t(p,e)}^T[\Sigma^{yx}(p) - \sum_{j\in T(t(p))} W_j \Sigma^x(j,p)]"
                   r"W_{\bar s(p,e)}^T, \tau = 1/(N\epsilon)",
         printed=TAU_PRINTED, corrected=TAU_MEAN_LOSS,
         corrected_statement="the path-form gradient is exact for the mean loss Eq. (2); GD with "
                             "learning rate eps on Eq. (2) has tau = 1/eps.  tau = 1/(N eps) holds "
                             "for eps the rate on the 1/2-sum loss (App A, released code) (MHS-E0)",
         expected="erratum")
register(id="MHS-Eq(4)", paper=P, where="Sec 2, Eq. (4), L65; L394", kind="definition",
         title="gated dataset statistics (1/N over all datapoints)",
         statement=r"\Sigma^{yx}(p) = \frac1N\sum_i g_p^i y^i_{t(p)} x^{iT}_{s(p)}, "
                   r"\Sigma^x(j,p) = \frac1N\sum_i g^i_j x^i_{s(j)} x^{iT}_{s(p)} g^i_p",
         expected="defined")
register(id="MHS-Eq(5)", paper=P, where="Sec 2, Eq. (5), L69; App A.2 Eq. (9)", kind="identity",
         title="SVD change of variables",
         statement=r"\Sigma^{yx}(p) = U_{t(p)} S(p) V_{s(p)}^T, \Sigma^x(j,p) = V_{s(j)} D(j,p) "
                   r"V_{s(p)}^T, W_e = R_{t(e)} B_e R_{s(e)}^T",
         expected="holds",
         notes="Under Asm 2.1 aligned weights stay aligned (diagonal B_e) under the flow; "
               "typo 'D(p)' for D(j,p).")
register(id="MHS-Eq(6)", paper=P, where="Sec 2, Eq. (6), L75; App A.2 Eq. (10)", kind="identity",
         title="neural race reduction",
         statement=r"\tau \frac{dB_e}{dt} = \sum_{p\in P(e)} B_{p\setminus e}[S(p) - "
                   r"\sum_{j\in T(t(p))} B_j D(j,p)]",
         condition="paths ending at the same node share its output singular vectors "
                   "(U_{t(p)}^T U_{t(j)} = I); otherwise the overlap enters (MHS-F-Eq(race-overlap))",
         expected="holds-if")
register(id="MHS-Asm2.1", paper=P, where="Sec 2, L79-L84; L296", kind="empirical",
         title="mutual diagonalisability verified for the tasks considered",
         statement="To solve for the dynamics we require that Sigma^{yx} and Sigma^x are mutually "
                   "diagonalizable such that the right singular vectors V of Sigma^{yx} are also "
                   "the singular vectors of Sigma^x. We verify that this is true for the tasks "
                   "considered in this work and assume it to be true for these derivations.",
         condition="the context-symmetric hierarchical tasks (Sec 5, 6); the Sec 4 task is only "
                   "approximately diagonalisable and its contextual pathways do not share V",
         expected="holds-if",
         clauses={"We verify that this is true for the tasks considered in this work":
                      "max |offdiag(V^T Sigma^x V)|",
                  "and assume it to be true for these derivations": "not testable: an assumption "
                      "of the derivations, not an outcome (Assumption 2.1.2, the weights' "
                      "alignment, is checked as MHS-Eq(5))"})
register(id="MHS-Fig1", paper=P, where="Fig 1, L45", kind="definition",
         title="GDLN schematic", statement="gates on nodes and edges; gradient of an edge as a "
                                           "sum over the paths through it",
         expected="defined")
register(id="MHS-Disc", paper=P, where="Discussion L177 (abstract L22, contributions L34)",
         kind="empirical",
         title="the bias towards node reuse grows with more contexts and greater depth",
         statement="Moreover, we find that the bias towards node reuse increases with the addition "
                   "of more contexts and greater depth.",
         expected="inconclusive", expected_full="not-reproduced",
         clauses={"the bias towards node reuse increases with the addition of more contexts":
                      "mass-weighted number of contexts a unit serves, C =",
                  "and greater depth": "1-hidden-layer ReLU below the 2-hidden-layer ReLU's"},
         notes="the contexts clause by the Sec 5 runs (MHS-S5-C1), the depth clause by the Sec 6 "
               "runs: node reuse (Sec 5's mass-weighted number of contexts a unit serves) of the "
               "single-hidden-layer net against each layer of the two-hidden-layer net.  ci: not "
               "below layer 2 (one-sided Welch p = 1), below layer 1 (p = 0.003), so the depth "
               "clause fails at ci (not faithful: inconclusive).  Paper scale (the released depth "
               "recipe, 32 seeds): the 1-hidden-layer net's units serve 2.08 contexts, more than "
               "the 2-hidden-layer net's layer 2 (1.85; Welch p = 1 for 'below') though fewer "
               "than its layer 1 (2.65): the depth clause is not reproduced in layer 2")
register(id="MHS-Def3.1", paper=P, where="Sec 3, Def. 3.1, L90", kind="definition",
         title="Rectified Linear Network",
         statement=r"GDLN(W(t), G^*(x^i), x^i) = ReLU(\bar W(t), x^i)\ \forall t, i",
         expected="defined", notes="index i in {0..N} should be {1..N}.")
register(id="MHS-C3.1", paper=P, where="Sec 3, L92", kind="identity",
         title="trivial ReLN: gate each neuron by step(pre-activation)",
         statement=r"\sigma(\bar h_j) = step(\bar h_j)\bar h_j: a GDLN with G(x)_j = "
                   r"step(\bar h_j) reproduces the ReLU network; 'always' possible",
         condition="the gates may change with time, G(x, t) = step(h_j(x, t)); Def. 3.1's "
                   "fixed gates G*(x) do not reproduce a ReLU net whose units change sign (MHS-E13)",
         expected="holds-if")
register(id="MHS-C3.2", paper=P, where="Sec 3, L92", kind="definition",
         title="few unique gating patterns = functional modules",
         statement="the goal is a ReLN with few unique gating patterns", expected="defined")
