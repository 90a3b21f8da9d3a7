"""Sec 2-3: the GDLN formalism, the race reduction and the ReLN (MHS-Eq(1)..(6), MHS-Asm2.1,
MHS-Fig1, MHS-Def3.1, MHS-C3.1).  Runs and flows come from fixtures (``clock_runs``,
``race_runs``, ``relu_equivalence``)."""
import numpy as np
import pytest
import torch

from numerics.datasets import modes
from numerics.haste_slowly import analysis as A
from numerics.haste_slowly import configs
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import equivalence as eq
from numerics.haste_slowly import graph as G
from numerics.haste_slowly.gated import GatedNet, init_weights
from verify.haste_slowly import evidence as E
from verify.haste_slowly import settings
from verify.measurement import paper, reading

CASES = [G.random_case(s) for s in (0, 1, 2)]
MATRIX = reading("float64 sums of O(10) matrix products")


@pytest.mark.claim("MHS-Eq(1)")
def test_forward_pass_is_the_sum_over_gated_paths(claim):
    g, W, x = CASES[0][:3]
    all_off = G.forward(g, W, x, np.zeros((6, 7)), np.ones((8, 7)))
    claim.defined(
        claim.measure("recursive Eq. (1) vs explicit sum over 9 gated paths, max abs err",
                      max(A.path_sum_error(G.forward, c) for c in CASES), "<=", 1e-12,
                      source=reading("float64 sums of a handful of products of O(1) matrices")),
        claim.measure("output with every node gate 0",
                      max(float(np.abs(all_off[v]).max()) for v in (4, 5)), "==", 0.0,
                      source=paper("L49", "h_v = g_v \\sum_{q: t(q)=v} g_q W_q h_{s(q)}")),
        note="2 inputs, 2 outputs, paths of lengths 2 and 3, 7 datapoints, 3 seeds")


@pytest.mark.claim("MHS-Eq(2)", "MHS-Eq(4)")
def test_loss_and_statistics_use_all_n_datapoints(claim):
    g, W, x, y, ng, eg = CASES[0]
    h = G.forward(g, W, x, ng, eg)
    direct = sum(np.sum((y[v] - h[v]) ** 2) for v in g.outputs) / (2 * 7)
    claim.defined(
        claim.measure("|Eq. (2) - 1/(2N) sum of squared errors|, N = 7",
                      abs(G.loss(g, W, x, y, ng, eg) - direct), "<", 1e-14,
                      source=reading("float64 sum of 14 squares")),
        claim.measure("path gradient with statistics normalised by the full N vs autograd, max rel "
                      "err", max(A.path_gradient_error(c) for c in CASES), "<", 1e-10,
                      source=MATRIX))


@pytest.mark.claim("MHS-Eq(3)")
def test_path_form_gradient_is_exact(claim):
    claim.holds(claim.measure("path-form -dL/dW_e (Eq. 3, statistics Eq. 4) vs autograd of Eq. (2), "
                              "all 8 edges, 3 seeds: max rel err",
                              max(A.path_gradient_error(c) for c in CASES), "<=", 1e-10,
                              source=MATRIX),
                note="edges on several paths, cross-source Sigma^x(j,p)")


@pytest.mark.claim("MHS-Eq(3)")
def test_time_constant_of_gd_on_the_mean_loss(claim, clock_runs):
    printed, corrected = (A.relative_error(flow, gd) for gd, flow in
                          (clock_runs["printed"], clock_runs["corrected"]))
    tol = reading("GD vs flow differ by O(lr x rate x t) discretisation only; a wrong clock by N "
                  "= 6 is far above")
    claim.erratum(
        printed=claim.measure("GD (lr 2e-3, 1500 steps) on the 1/(2N) loss vs the flow with tau = "
                              "1/(N eps): max rel err of W2 W1", printed, "<", 2e-2, source=tol),
        corrected=claim.measure("the same with tau = 1/eps", corrected, "<", 2e-2, source=tol),
        counterexample=f"N = 6, eps = 2e-3: tau = 1/(N eps) makes the flow N times too fast "
                       f"(rel err {printed:.2g})")


@pytest.mark.claim("MHS-Eq(5)")
def test_aligned_weights_stay_aligned(claim, race_runs):
    off, _ = A.race_errors(*race_runs["own"])
    claim.holds(claim.measure("max offdiag/diag of U^T W2 W1 V along the full flow", off, "<=", 1e-7,
                              source=reading("solve_ivp at rtol 1e-10 over 4 decades of mode "
                                             "strength")),
                note="2 pathways, 6 out, 5 in, 4 hidden, 3 modes, Sigma^x with variance off V")


@pytest.mark.claim("MHS-Eq(6)")
def test_race_reduction_needs_shared_output_vectors(claim, race_runs):
    shared, apart = (A.race_errors(*race_runs[k])[1] for k in ("eq6 shared", "eq6 apart"))
    tol = reading("race ODE and matrix flow both at rtol 1e-10")
    claim.holds_if(
        "paths into one node share its output singular vectors U",
        under=claim.measure("Eq. (6) as printed vs full flow, 2 pathways into one node, shared U: "
                            "max rel err", shared, "<=", 1e-6, source=tol),
        without=claim.measure("the same with U_1^T U_2 = -I/2", apart, "<=", 1e-6, source=tol),
        counterexample=f"U_1^T U_2 = -0.5 I: Eq. (6) misses the overlap, rel err {apart:.2g}")


@pytest.mark.claim("MHS-Asm2.1")
def test_mutual_diagonalisability_of_the_tasks(claim):
    tasks, ran = ds.all_tasks(configs.TASKS)
    off = {k: modes(Y @ X.T / X.shape[1], X @ X.T / X.shape[1])[4] for k, (X, Y) in tasks.items()}
    m = E.diagonalisable(max(v for k, v in off.items() if k != "Sec 4"), off["Sec 4"])
    claim.holds_if("the context-symmetric hierarchical tasks of Sec 5/6", under=m[0], without=m[1],
                   counterexample=f"Sec 4 (H, Ring, Cross) common pathway: offdiag {off['Sec 4']:.4f}")
    claim.reproduced(m[0], setup=settings.tasks(ran))


@pytest.mark.claim("MHS-C3.1")
def test_step_gated_gdln_reproduces_relu_training(claim, relu_equivalence):
    err = {k: (max(float((a[0] - b).abs().max()) for a, b in zip(dyn, ref)),
               max(float((a[0] - b).abs().max()) for a, b in zip(fix, ref)), flips)
           for k, (ref, dyn, fix, flips) in relu_equivalence.items()}
    same = reading("identical float64 arithmetic up to summation order")
    claim.holds_if(
        "gates recomputed at every step, G(x, t)",
        under=claim.measure("1 and 2 hidden layers (5-16-3, 5-12-9-3), 1000 GD steps lr 5e-3: GDLN "
                            "with step(pre-activation) gates vs autograd ReLU, max |dW|",
                            max(e[0] for e in err.values()), "<=", 1e-12, source=same),
        without=claim.measure("the same with gates fixed at init (Def. 3.1 G*(x))",
                              min(e[1] for e in err.values()), "<=", 1e-12, source=same),
        counterexample="fixed gates step(h(x, 0)) drift from the ReLU net by "
                       + ", ".join(f"{e[1]:.2g} ({e[2]} gate flips, {k})" for k, e in err.items()))


@pytest.mark.claim("MHS-Def3.1")
def test_relN_definition_is_consistent_at_init(claim):
    X = torch.tensor(np.random.default_rng(4).standard_normal((5, 10)))
    W = init_weights([1], [(16, 5), (3, 16)], [0.5, 0.5])
    relu_net = GatedNet(W, [None])
    pre = eq.gate_preactivations(relu_net, X)[0][0]
    gdln = GatedNet(W, [(pre > 0).double()])
    claim.defined(claim.measure("max |GDLN(W, step(h(x)), x) - ReLU(W, x)| on 10 inputs",
                                float((relu_net(X) - gdln(X)).abs().max()), "==", 0.0,
                                source=paper("L90", "GDLN(W(t), G^*(x^i), x^i) = ReLU(\\bar W(t), "
                                                    "x^i)")),
                  note="index i in {0..N} read as {1..N}")


@pytest.mark.claim("MHS-Fig1")
def test_schematic_gradient_is_a_sum_over_paths(claim):
    claim.defined(claim.measure("Fig 1b: gradient of each edge as the sum over the paths through "
                                "it, split at the edge into sbar and tbar, vs autograd: max rel err",
                                A.path_gradient_error(CASES[0]), "<=", 1e-10, source=MATRIX))
