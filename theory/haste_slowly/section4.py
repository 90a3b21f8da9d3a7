"""Sec 4 / Apps D-E of Make haste slowly: the 3-context task, its 4-pathway ReLN, Lemma 4.1,
Proposition 4.2 and its supporting results (MHS-S4-*, MHS-Lem4.1, MHS-Prop4.2, MHS-E-*,
MHS-Fig3, MHS-Fig4)."""
from theory.registry import register

P = "haste_slowly"


def _empirical(id, where, title, statement, expected="holds", **kw):
    return register(id=id, paper=P, where=where, kind="empirical", title=title,
                    statement=statement, expected=expected, **kw)


register(id="MHS-S4-Data", paper=P, where="Sec 4, L111, Fig 3 L116-L118; App F L590",
         kind="definition", title="contextual dataset (items x contexts)",
         statement="one-hot item (+) one-hot context inputs; a context-independent hierarchy block "
                   "plus three context-specific blocks (released code: H, Ring, Cross)",
         expected="defined")
register(id="MHS-S4-ReLN", paper=P, where="Sec 4, L120; Fig 3 right; App F L598",
         kind="definition", title="4-pathway ReLN",
         statement="common pathway (all inputs, always on) + three pathways each on in 2 of 3 "
                   "contexts (item inputs only), all mapping to the full output",
         expected="defined",
         notes="released code trains it split-gradient: common on its own loss, contextual on the "
               "residual; joint GD differs little (measured).")
_empirical("MHS-S4-C1", "Sec 4, L120; Fig 4a, caption L129", "ReLU loss and outputs match the ReLN",
           "We see excellent agreement across all dynamics and outputs. (Fig 4 caption:) Example "
           "outputs from the ReLU network and ReLN are also shown and we see exact agreement "
           "between these output samples.",
           expected="inconclusive", expected_full="inconclusive",
           clauses={"excellent agreement across all dynamics": "seed-mean ReLN loss - seed-mean "
                                                               "ReLU loss",
                    "excellent agreement across all ... outputs": "read as 'excellent agreement'",
                    "we see exact agreement between these output samples": "read as 'exact "
                                                                            "agreement'"},
           notes="decided over the lexicon's readings (MHS-S4-C4 goes through the same function): "
                 "the loss gap is 0.67% of L(0) [0.60%, 0.73%] (full, 5 seeds), inside every "
                 "closeness reading, beside the single-context GDLN's 3.66%; the output samples "
                 "(RMS entry / the targets' range) differ by 0.37% at epoch 8000 but 2.2% at 4000 "
                 "and 6.2% over the whole run: 'exact agreement' depends on which epochs the "
                 "paper sampled (flip points 0.0031-0.064)")
_empirical("MHS-S4-C2", "Sec 4, L120; Fig 4c", "latent representations match (MDS)",
           "Further, comparing Figure 4(c) which show the Multi-dimensional Scaling (MDS) plots of "
           "the ReLU network and ReLN respectively, we see near exact correspondence between the "
           "relative positions of the latent representations of the dataset across both "
           "architectures.",
           expected="inconclusive", expected_full="not-reproduced",
           clauses={"we see near exact correspondence between the relative positions of the "
                    "latent representations": "1 - mean RDM correlation"},
           notes="identity word 'near exact' over its readings (strict: the ReLU runs' own RDM "
                 "disagreement; lenient: 1% at line width), over the whole phase and at the last "
                 "epoch; the single-context GDLN is the contrast.  Full: 0.147 [0.141, 0.154] at its "
                 "worst (the last epoch), beyond every reading; the single-context GDLN's 0.046")
_empirical("MHS-S4-C3", "Sec 4, L122", "no context-specific neurons",
           "By interpreting the corresponding ReLN, we find that there are no neurons in the ReLU "
           "network which are context specific. Instead, the ReLU network employs a strategy of "
           "mixed selectivity where neurons are active across multiple contexts.",
           expected="inconclusive", expected_full="inconclusive",
           clauses={"there are no neurons in the ReLU network which are context specific":
                        "on in exactly one context",
                    "mixed selectivity where neurons are active across multiple contexts":
                        "units on in 2 or 3 contexts"},
           notes="'no neurons' is an absence word (lexicon: none at all; threshold artefacts, "
                 "<= 1% of the units), on the share of weight-carrying units and of the weight "
                 "mass on units on in one context only: 0.93% [0.31%, 1.56%] of the units, 1.65% "
                 "of the mass (full, 5 seeds): not none at all, and the 1% reading straddles")
_empirical("MHS-S4-C4", "Sec 4, L118 (decided by L120)", "ReLN gating constant from the start",
           "Remarkably, in this setting the gating of the ReLN is constant from the start.",
           expected="supported", expected_full="holds",
           clauses={"the gating of the ReLN is constant from the start":
                        "seed-mean ReLN loss - seed-mean ReLU loss"},
           notes="the ReLN runs with its gates fixed from t = 0; that this suffices is decided by "
                 "the same function as MHS-S4-C1 (L120's 'excellent agreement' on the loss, over "
                 "the lexicon's readings: 0.67% [0.60%, 0.73%] of L(0), full); the ReLU net's own "
                 "gate drift is a reading beside")
_empirical("MHS-S4-C5", "Sec 4, L122-L131; Fig 4b", "pathways do feature learning",
           "These pathways are still doing feature learning, however, as evidenced by the "
           "effective datasets which we uncover and the corresponding singular value trajectories "
           "for each summarized in Figure 4(b).",
           expected="supported", expected_full="holds",
           clauses={"These pathways are still doing feature learning":
                        "growth of the contextual pathways' top singular value",
                    "the corresponding singular value trajectories for each summarized in Figure "
                    "4(b)": "common pathway top-4 modes"})
register(id="MHS-Lem4.1", paper=P, where="Sec 4, Lemma 4.1, L133-L139; App D L526-L534",
         kind="identity", title="implementable gatings: context-, item-consistent or single point",
         statement=r"for any gating implementable by the ReLU network there is G(x_c) with "
                   r"G(x_c)_j = step(\bar h_j) or G(x_c)_j = 1(x)",
         corrected_statement="a bias-free ReLU unit on one-hot item (+) context inputs is on "
                             "exactly on {(i,k): a_i + c_k > 0}; the realisable patterns are those "
                             "with no 2x2 XOR submatrix (staircases), a strict superset of the "
                             "context-/item-consistent/single-datapoint ones (MHS-E2)",
         corrected="no 2x2 XOR submatrix", expected="erratum")
register(id="MHS-Prop4.2", paper=P, where="Sec 4, Prop. 4.2, L143-L147; App E L536-L586",
         kind="bound", title="unique ReLN imitates the ReLU net and wins the race",
         statement=r"unique G^*(X) with L_{GDLN}(W(t),G^*) = L_{ReLU}(\tilde W(t)) \forall t, and "
                   r"L_{GDLN}(W(t),G^*) < L_{GDLN}(W(t),G') for alternative G' \forall t",
         corrected_statement="L(G*) <= L(G') for all t with strict inequality on an interval "
                             "(equal at t = 0 and as t -> inf); the ReLU match is empirical (MHS-E3)",
         corrected="<= for all t, < on an interval", expected="erratum")
register(id="MHS-E-Interlace", paper=P, where="App E, L540-L582", kind="bound",
         title="interlacing for non-square submatrices",
         statement=r"\beta_j \le \alpha_j \le \sigma_j for B = \Sigma_{yx}[\mu|\nu], "
                   r"A = \Sigma_{yx}V[1..n|\nu]",
         expected="holds", notes="proof sloppiness (dimension counts, mu/nu roles) is cosmetic.")
register(id="MHS-E-Nonneg", paper=P, where="App E, L582", kind="bound",
         title="removing datapoints cannot increase sigma_1 (non-negative data)",
         statement=r"for X, Y \ge 0: \sigma_1(\hat Y \hat X^T) \le \sigma_1(Y X^T)",
         expected="holds",
         notes="the precondition (non-negative data) is stated; signed data give counterexamples.")
register(id="MHS-E-Resid", paper=P, where="App E, L584", kind="identity",
         title="no context-label correlation after the common pathway converges",
         statement=r"R = Y - Y X^+ X: R X_c^T = 0", expected="holds")
_empirical("MHS-E-Six", "App E, L586", "single-context modules stay inactive among all six",
           "Indeed even if all six possible modules are trained simultaneously, the pathways active "
           "for a single context remain inactive.", expected="inconclusive",
           expected_full="inconclusive",
           clauses={"the pathways active for a single context remain inactive":
                        "the single-context pathways' part at the end"},
           notes="'inactive' is a negligibility word over the lexicon's readings, read two ways: "
                 "the loss the single-context pathways remove at the end (/ L(0)) and their share "
                 "of the contextual top singular values; they grow ~1e7-fold from init.  Full: "
                 "0.14% of L(0) (negligible at every reading) but 9.8% [9.4%, 10.3%] of the top "
                 "singular values (not negligible at any): the reading decides")
register(id="MHS-Fig3", paper=P, where="Fig 3, L116", kind="definition",
         title="dataset and ReLN schematic; contextual modules create errors others remove",
         statement="inputs, outputs, hierarchy and the four ReLN pathways", expected="defined")
_empirical("MHS-Fig4", "Fig 4a, caption L129", "Sec 4 results: loss, singular values, MDS",
           "(a) Comparison of loss trajectories between the ReLU, empirical and predicted ReLN, and "
           "alternate GDLN which does not imitate the ReLU network loss trajectory. We find that a "
           "GDLN (here called \u201cGDLN Single\u201d) which has contextual pathways active for "
           "individual contexts is unable to imitate the loss trajectory of the ReLU network.",
           expected="inconclusive",
           clauses={"Comparison of loss trajectories between the ReLU, empirical ... ReLN":
                        "seed-mean ReLN loss - seed-mean ReLU loss",
                    "and predicted ReLN": "not testable: the predicted curve is the race "
                                          "reduction's, checked as singular values in MHS-S4-C5 "
                                          "(Fig 4b), not as a loss curve",
                    "alternate GDLN which does not imitate ... is unable to imitate the loss "
                    "trajectory of the ReLU network": "seed-mean single-context GDLN loss"},
           notes="the ReLN's loss agreement (L120's 'excellent agreement') and the single-context "
                 "GDLN's failure to imitate, each over the lexicon's readings: full, the GDLN "
                 "Single lies 3.66% [3.57%, 3.74%] of L(0) from the ReLU runs, apart beyond a "
                 "marker (2.5%) but not 'clearly apart' (5%): depends on the reading")
