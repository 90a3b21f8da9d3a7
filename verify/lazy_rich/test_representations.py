"""Weights, representations and NTK across lambda: LR-Thm5.2, LR-ThmC.3, LR-ThmC.4,
LR-Sec5-Rep-claims, LR-DefC.2, LR-ThmC.5, LR-C.2.4-relations, LR-Sec5-Arch, LR-ThmC.6.
Time is t/tau = lr x steps (tau = 1/lr, 1/2-mean loss).

Full scale (``--scale=full``, the ``[full]`` variants of ``verify.lazy_rich.sizes``), cost: FULL
draws 10x the ci samples (200,000 noise draws, 16 GD seeds x 16,000 steps of networks with <= 12
units a layer, 2,000 moment draws, 8 framing seeds), < 1e10 FLOP per test: seconds on 2 CPU cores
(measured 0.3-4.2 s), well under a minute on one H100.
"""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from numerics.lazy_rich import comparisons as cmp
from numerics.lazy_rich import experiments as xp
from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import layer_singular_values
from numerics.lazy_rich.tasks import random_task
from numerics.metrics import rel_err
from theory.lazy_rich import symbols as sy
from theory.registry import REGISTRY
from verify.lazy_rich import checks as ch
from numerics.lazy_rich import configs
from verify.lazy_rich import evidence, figures
from verify.measurement import exact, paper, reading

ARCHS = xp.ARCHS
GRAMS = REGISTRY["LR-ThmC.3"].printed     # per-mode converged Grams (S_lam - lam/2, S_lam + lam/2)
FLOW = reading("solve_ivp at rtol 1e-12")
#: the kernel distance S = 1 - cosine is quadratic in a small NTK change: O(1/|lambda|) change -> slope -2
SLOPE = reading("S quadratic in the NTK change: an O(1/|lambda|) change gives slope -2; -1.8 leaves 10%")


def kernel_movement(ni, no, lams, t_end=None, seed=5):
    return xp.kernel_movement(GRAMS.gram_in, GRAMS.gram_out, ni, no, lams, t_end=t_end, seed=seed)


@pytest.mark.claim("LR-Thm5.2")
def test_weights_are_recovered_up_to_an_orthogonal_matrix(claim):
    pr = REGISTRY["LR-Thm5.2"].printed
    failures = ch.layer_relation_failures(pr.S1.subs(sy.sn, sy.s), pr.S2.subs(sy.sn, sy.s))
    errs = []
    for ni, no, lam in [(4, 4, -1.3), (5, 3, 0.6), (3, 5, -2.2), (6, 2, 0.0), (2, 6, 3.0)]:
        task, W1, W2 = xp.problem(ni, no, lam, seed=70 + ni, scale=0.6)
        W1t, W2t, _ = xp.integrate(task, W1, W2, np.linspace(0, 4, 5))
        errs.append(cmp.weight_recovery_error(pr.S1, pr.S2, W1t, W2t, lam))
    claim.holds(
        claim.measure("relations violated among S2^2 - S1^2 = lambda, S1 S2 = s, the large-lambda series, S1 -> 0",
                      len(failures), "==", 0, source=exact("sympy simplify, series, limit")),
        claim.measure("along 5 flows (square, funnels, lambda both signs and 0): max(||R^T R - I||, ||W2 - U S2 R^T||), "
                      "R := W1 V S1^-1", max(errs), "<=", 1e-10,
                      source=reading("R through S1^-1 of O(0.1) singular values from an rtol 1e-12 flow")))


@pytest.mark.claim("LR-ThmC.3")
def test_convergence_to_the_global_minimum_and_converged_grams(claim):
    errs = []
    for ni, no in [(4, 4), (5, 3), (3, 5), (6, 2), (2, 6)]:
        for lam in (-2.5, 0.0, 1.5):
            task, W1, W2 = xp.problem(ni, no, lam, seed=90 + 5 * ni + no)
            if np.linalg.cond(so.init_variables(W1, W2, so.spectrum(task.svd, lam))[0]) > 1e8:
                continue                               # B singular: outside the theorem's hypothesis
            errs.append(cmp.converged_gram_error(GRAMS.gram_in, GRAMS.gram_out, task, W1, W2, lam))
    task, W1, W2 = xp.problem(5, 3, 1.5, seed=3)
    W1t, W2t, _ = xp.integrate(task, W1, W2, np.array([0.0, 40.0]))
    claim.holds(
        claim.measure(f"{len(errs)} nets with B invertible at t = 30/(S_lam - lam_perp)_min: W2W1 -> Syx, W1^TW1 -> "
                      "V~(S~_lam - lam/2)V~^T, W2W2^T -> U~(S~_lam + lam/2)U~^T, max rel err", max(errs), "<=", 1e-10,
                      source=reading("transient e^-30 ~ 1e-13 plus round-off of the stable form's solve")),
        claim.measure("flow to t/tau = 40, (5,3,3), lambda 1.5: ||W2W1 - Syx|| rel", rel_err(W2t[-1] @ W1t[-1], task.syx),
                      "<=", 1e-10, source=reading("decay e^{-40 x 0.5} plus rtol 1e-12")))


@pytest.mark.claim("LR-ThmC.4")
def test_large_layer_gram_tends_to_identity_only_if_it_is_the_narrow_side(claim):
    pr = REGISTRY["LR-ThmC.4"].printed
    corrected = REGISTRY["LR-ThmC.4"].corrected
    dist = cmp.gram_limit_distances(GRAMS.gram_in, GRAMS.gram_out)
    near = reading("converged Grams differ from lambda x projector by O(s~^2/lambda^2) (<= 2e-3 at lambda = 20)")

    def series(form):
        return claim.measure("expansions in 1/lambda that differ from the Taylor series of (sqrt(lam^2 + 4s^2) +- lam)/2",
                             ch.series_mismatches(form.series_big, form.series_small), "==", 0, source=exact("sympy series"))
    claim.erratum(
        printed=[series(pr),
                 claim.measure("max over 3 architectures, lambda = 20, 80 of ||W2W2^T/lambda - I|| and ||W1^TW1/|lambda| - I|| "
                               "(at -lambda)", max(max(d[0], d[1]) for d in dist.values()), "<", 1e-2, source=near)],
        corrected=[series(corrected),
                   claim.measure("same, against the projectors U~U~^T and V~V~^T", max(max(d[2], d[3]) for d in dist.values()),
                                 "<", 1e-2, source=near),
                   claim.measure("distance to the projector at lambda = 80 over lambda = 20 (O(lambda^-2) decay)",
                                 max(dist[n, 80.0][2] / dist[n, 20.0][2] for n in ARCHS), "<", 0.1,
                                 source=reading("(20/80)^2 = 0.0625 with margin"))],
        counterexample="inverted funnel (2,2,6), lambda = 80: W2W2^T/lambda is near the rank-2 projector U~U~^T, "
                       "a whole rank away from I_6 (lambda -> -oo: funnel W1^TW1/|lambda| likewise)")


@pytest.mark.claim("LR-Sec5-Rep-claims")
def test_converged_representations_of_the_hierarchy(claim, report_figure, scale):
    lams = (-10.0, 0.0, 10.0)
    config = configs.HIERARCHY[scale]
    task, W1s, W2s, W1T, W2T = xp.train_hierarchy(lams, steps=config.steps, seed=config.seeds[0])
    own = REGISTRY["LR-Sec5-Rep-claims"].printed
    v = cmp.representation_stats(own.gram_in, own.gram_out, task, lams, W1s, W2s, W1T, W2T)
    fig, axes = plt.subplots(2, 4, figsize=(8, 4.2))
    titles = [f"lambda={lam:g}" for lam in lams] + ["large Gaussian"]
    for k in range(4):
        for row, G in enumerate((W1T[k].T @ W1T[k], W2T[k] @ W2T[k].T)):
            ax = axes[row, k]
            ax.imshow(G, cmap="RdBu_r", vmin=-np.abs(G).max(), vmax=np.abs(G).max())
            ax.set_xticks([]), ax.set_yticks([])
            ax.set_title(("W1^T W1 " if row == 0 else "W2 W2^T ") + titles[k], fontsize=7)
    report_figure(fig, f"Hierarchy task (8 items, X = sqrt8 I): simulated converged weight Grams (GD, lr 5e-3, {config.steps} "
                       "steps) for lambda = -10, 0, 10 and a large unbalanced Gaussian init, against Thm C.3. lambda = 0: both "
                       "hierarchical; lambda = +10: W2W2^T ~ 10 I, W1^TW1 ~ V~S~^2V~^T/10; lambda = -10: the mirror image; "
                       "large Gaussian: unstructured.")
    identity = reading("normalised Frobenius distance to I of an 8 x 8 matrix; the hierarchy's own structure sits at ~2")
    common = [claim.measure("trained Grams vs the per-mode formulas of Thm C.3, max rel err", v["sim_err"], "<=", 1e-2,
                            source=reading("GD at lr 5e-3 is O(lr) from the flow")),
              claim.measure("lambda = 10: ||10 W1^TW1 - V~S~^2V~^T|| / ||S~^2|| (task-specific, scale 1/lambda)", v["struct"],
                            "<", 0.05, source=reading("O(s~^2/lambda^2) = 1% at lambda = 10")),
              claim.measure("large Gaussian init: kernel distance of its final W1^TW1 to the initial one, x2, vs to V~S~V~^T "
                            "(unstructured)", 2 * v["keep"] - v["to_task"], "<", 0,
                            source=paper("L93-99", "no structured representation"))]
    claim.holds_if(
        REGISTRY["LR-Sec5-Rep-claims"].condition,
        under=common + [claim.measure("lambda = 10: normalised distance of W2W2^T to I (task-agnostic)", v["gram_out_to_eye"],
                                      "<", 0.1, source=identity)],
        without=common + [claim.measure("lambda = 10: normalised distance of RSM_O = Y^T(W2W2^T)^+Y (Eq. 4) to I",
                                        v["rsm_out_to_eye"], "<", 0.1, source=identity)],
        counterexample="lambda = 10: RSM_O of Eq. 4 equals RSM_I and is far from I; only the Gram W2W2^T ~ 10 I")


@pytest.mark.claim("LR-DefC.2")
def test_kernel_distance_properties(claim):
    rng = np.random.default_rng(4)
    A = rng.standard_normal((6, 6))
    K = A @ A.T
    same = max(abs(float(kn.kernel_distance(K, K))), abs(float(kn.kernel_distance(K, 3.7 * K))))
    pairs = [(a @ a.T, b @ b.T) for a, b in (rng.standard_normal((2, 6, 3)) for _ in range(200))]
    dists = np.array([kn.kernel_distance(a, b) for a, b in pairs])
    ortho = float(kn.kernel_distance(np.diag([1.0, 0, 0]), np.diag([0, 1.0, 0])))
    roundoff = reading("round-off of a 6 x 6 Frobenius product")
    claim.defined(claim.measure("|S(K, K)|, |S(K, 3.7K)| (scale-free, zero on itself)", same, "<=", 1e-14, source=roundoff),
                  claim.measure("S over 200 random PSD pairs", dists, "within", (-1e-14, 1.0), source=roundoff),
                  claim.measure("|S(orthogonal PSD kernels) - 1|", abs(ortho - 1), "<=", 1e-14, source=roundoff))


@pytest.mark.claim("LR-ThmC.5")
def test_ntk_formula_and_its_static_limit(claim):
    task, W1, W2 = xp.problem(5, 3, -1.1, seed=13, n_samples=7)
    W1t, W2t, _ = xp.integrate(task, W1, W2, np.linspace(0, 3, 4))
    own = REGISTRY["LR-ThmC.5"].printed
    err = cmp.ntk_formula_error(own.gram_in, own.gram_out, task.X, W1t, W2t, -1.1)
    lams = np.array([5.0, 20.0, 80.0])
    slopes = {}
    for name, sign in (("square (4,4,4)", 1), ("square (4,4,4)", -1), ("funnel (6,2,2)", 1), ("inverted funnel (2,2,6)", -1)):
        slopes[name, sign] = float(np.polyfit(np.log(lams), np.log(kernel_movement(*ARCHS[name], sign * lams)[1]), 1)[0])
    wrong_i = kernel_movement(*ARCHS["inverted funnel (2,2,6)"], lams)[1]
    wrong_f = kernel_movement(*ARCHS["funnel (6,2,2)"], -lams)[1]
    static = paper("L97 (reconstructed, catalogue)", "NTK(t) - NTK(0) = O(1/|lambda|) -> 0")
    claim.holds_if(
        REGISTRY["LR-ThmC.5"].condition,
        under=[claim.measure("NTK from V*(S*_lam - lam/2)V*^T, U*(S*_lam + lam/2)U*^T vs from the weights along a flow, "
                             "max rel err", err, "<=", 1e-10, source=FLOW),
               claim.measure("log-log slope in |lambda| (5, 20, 80) of S(NTK(0), NTK(oo)): square +-, funnel +, inverted -",
                             np.array(list(slopes.values())), "<=", -1.8, source=SLOPE),
               claim.measure("S(NTK(0), NTK(oo)) at |lambda| = 80 on those sides",
                             np.array([kernel_movement(*ARCHS[n], [s * 80.0])[1][0] for n, s in slopes]), "<", 1e-2,
                             source=static)],
        without=claim.measure("S(NTK(0), NTK(oo)) at |lambda| = 80 on the other sides (inverted +, funnel -)",
                              np.array([wrong_i[-1], wrong_f[-1]]), "<", 1e-2, source=static),
        counterexample="inverted funnel (2,2,6) at lambda = +80 and funnel (6,2,2) at -80: the NTK moves by O(1)")


@pytest.mark.claim("LR-C.2.4-relations")
def test_converged_layer_singular_values(claim):
    pr = REGISTRY["LR-C.2.4-relations"].printed
    s1, s2 = layer_singular_values(np.array([0.3, 1.0, 2.5]), 1e4)
    claim.holds(
        claim.measure("relations violated among b^2 - a^2 = lambda, a b = s~, b^2 = lambda + s~^2/lambda + ..., a -> 0",
                      len(ch.layer_relation_failures(pr.a, pr.b)), "==", 0, source=exact("sympy simplify, series, limit")),
        claim.measure("float at lambda = 1e4: max |a b - s~|", float(np.max(np.abs(s1 * s2 - [0.3, 1.0, 2.5]))), "<=", 1e-12,
                      source=reading("no cancellation in numerics.layer_singular_values")),
        claim.measure("float at lambda = 1e4: max |b^2 - a^2 - lambda|", float(np.max(np.abs(s2 ** 2 - s1 ** 2 - 1e4))),
                      "<=", 1e-9, source=reading("1e-13 relative to lambda")))


@pytest.mark.claim("LR-Sec5-Arch")
def test_kernel_movement_by_architecture(claim, report_figure, architectures):
    claim.reproduced(*evidence.architectures(architectures), setup=evidence.architectures_setup(architectures))
    report_figure(*figures.architectures(architectures))


@pytest.mark.claim("LR-ThmC.6")
def test_delayed_rich_rate_is_inverse_in_lambda(claim):
    rate = REGISTRY["LR-ThmC.6"].printed.slow_rate
    lams = (5.0, 10.0, 20.0, 40.0)
    under = [cmp.late_rate(rate, 2, 5, lam) for lam in lams] + [cmp.late_rate(rate, 5, 2, -lam) for lam in (5.0, 20.0)]
    err = max(abs(f - p) / p for f, p in under)
    inv = [f * lam for (f, _), lam in zip(under[:4], lams)]
    s2 = random_task(2, 5, 8, np.random.default_rng(8)).svd.s.min() ** 2
    other = np.array([cmp.late_rate(rate, 2, 5, -lam)[0] for lam in (5.0, 20.0, 40.0)])
    slow = reading("a delayed-rich rate ~ s~_min^2/|lambda| is below 5 s~_min^2; the lazy rate ~|lambda| is not")
    claim.holds_if(
        REGISTRY["LR-ThmC.6"].condition,
        under=[claim.measure("fitted late rates vs (S~_lam - |lambda|/2)_min, inverted funnel lambda 5..40, funnel -5, -20, "
                             "worst rel err", err, "<=", 0.02,
                             source=reading("fit over 8-14 e-folds; the next mode has decayed by >= e^-6")),
               claim.measure("rate x |lambda| spread, max / min (-> s~_min^2)", max(inv) / min(inv), "<", 1.2,
                             source=reading("O(s~^2/lambda^2) corrections")),
               claim.measure("those late rates over s~_min^2 (slow)", np.array([f for f, _ in under[:4]]) / s2, "<", 5,
                             source=slow)],
        without=claim.measure("inverted funnel at lambda = -5, -20, -40: late rates over s~_min^2", other / s2, "<", 5,
                              source=slow),
        counterexample="inverted funnel with lambda < 0: the late rate grows like |lambda| (lazy, fast)")
