"""Measurements of Sec 5 and App C: the singular values (Thm 5.1), weights, representations and the
NTK."""
from __future__ import annotations


import numpy as np

from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich.configs import ARCHITECTURES
from numerics.lazy_rich.init import layer_singular_values
from numerics.lazy_rich.tasks import random_task
from numerics.metrics import rel_err
from theory.lazy_rich import symbols as sy
from verify.measurement import (
    Measurement,
    exact,
    measure,
    paper,
    reading,
)
from verify.statements import Estimate, each, mean_of
from verify.lazy_rich.evidence.errors import converged_gram_error, gram_limit_distances, kernel_movement, late_rate, ntk_formula_error, representation_stats, weight_recovery_error
from verify.lazy_rich.evidence.exact import layer_relation_failures, series_mismatches
from verify.lazy_rich.evidence.exact_solution import invertible_b_nets
from verify.lazy_rich.evidence.setting import FLOW


# ========================================================================= Sec 5, App C: weights, representations, NTK
#: the kernel distance S = 1 - cosine is quadratic in a small NTK change: O(1/|lambda|) change -> slope -2
SLOPE = reading("S quadratic in the NTK change: an O(1/|lambda|) change gives slope -2; -1.8 leaves 10%")


def weight_recovery(printed, flows) -> list[Measurement]:
    """LR-Thm5.2: the printed S1, S2 satisfy the layer relations and recover the weights along flows."""
    failures = layer_relation_failures(printed.S1.subs(sy.sn, sy.s), printed.S2.subs(sy.sn, sy.s))
    return [measure("relations violated among S2^2 - S1^2 = lambda, S1 S2 = s, the large-lambda series, S1 -> 0",
                    len(failures), "==", 0, source=exact("sympy simplify, series, limit")),
            measure("along 5 flows (square, funnels, lambda both signs and 0): max(||R^T R - I||, ||W2 - U S2 R^T||), "
                    "R := W1 V S1^-1", max(weight_recovery_error(printed.S1, printed.S2, r) for r in flows), "<=", 1e-10,
                    source=reading("R through S1^-1 of O(0.1) singular values from an rtol 1e-12 flow"))]


def convergence(printed, run) -> list[Measurement]:
    """LR-ThmC.3: the stable form far out against Syx and the printed Grams on 15 nets; a flow to 40."""
    configs_ = [(ni, no, lam) for ni, no in [(4, 4), (5, 3), (3, 5), (6, 2), (2, 6)] for lam in (-2.5, 0.0, 1.5)]
    errs = [converged_gram_error(printed.gram_in, printed.gram_out, *net)
            for net in invertible_b_nets(configs_, lambda ni, no: 90 + 5 * ni + no)]
    return [measure(f"{len(errs)} nets with B invertible at t = 30/(S_lam - lam_perp)_min: W2W1 -> Syx, W1^TW1 -> "
                    "V~(S~_lam - lam/2)V~^T, W2W2^T -> U~(S~_lam + lam/2)U~^T, max rel err", max(errs), "<=", 1e-10,
                    source=reading("transient e^-30 ~ 1e-13 plus round-off of the stable form's solve")),
            measure("flow to t/tau = 40, (5,3,3), lambda 1.5: ||W2W1 - Syx|| rel",
                    rel_err(run.W2t[-1] @ run.W1t[-1], run.task.syx), "<=", 1e-10,
                    source=reading("decay e^{-40 x 0.5} plus rtol 1e-12"))]


#: the limit a form names -> the columns of gram_limit_distances measuring it (output side at
#: +lambda, input side at -lambda): the identity, or the projectors U~U~^T and V~V~^T
LIMIT_COLUMNS = {"I": (0, 1), "U~U~^T": (2, 3)}


def layer_limits(printed, corrected, grams) -> dict:
    """LR-ThmC.4's erratum: the large layer's Gram / |lambda| against the limit each form names
    (printed: I; corrected: the projector); both forms' series against Taylor."""
    dist = gram_limit_distances(grams.gram_in, grams.gram_out)
    near = reading("converged Grams differ from lambda x projector by O(s~^2/lambda^2) (<= 2e-3 at lambda = 20)")

    def side(form):
        if form.limit.name not in LIMIT_COLUMNS:
            raise ValueError(f"limit={form.limit!r} is not one of {sorted(LIMIT_COLUMNS)}")
        a, b = LIMIT_COLUMNS[form.limit.name]
        return [measure("expansions in 1/lambda that differ from the Taylor series of (sqrt(lam^2 + 4s^2) +- lam)/2",
                        series_mismatches(form.series_big, form.series_small), "==", 0, source=exact("sympy series")),
                measure(f"max over 3 architectures, lambda = 20, 80 of ||W2W2^T/lambda - L|| and ||W1^TW1/|lambda| - L||"
                        f" (at -lambda), L = {form.limit.name}", max(max(d[a], d[b]) for d in dist.values()), "<",
                        1e-2, source=near)]
    return dict(
        printed=side(printed),
        corrected=side(corrected) + [
            measure("distance to the projector at lambda = 80 over lambda = 20 (O(lambda^-2) decay)",
                    max(dist[n, 80.0][2] / dist[n, 20.0][2] for n, _, _ in ARCHITECTURES), "<", 0.1,
                    source=reading("(20/80)^2 = 0.0625 with margin"))])


def representations(printed, run) -> dict:
    """LR-Sec5-Rep-claims' holds-if on the trained hierarchy nets: 'representations' as the weight
    Grams (under) or as the RSMs of Eq. 4 (without)."""
    v = representation_stats(printed.gram_in, printed.gram_out, run)
    identity = reading("normalised Frobenius distance to I of an 8 x 8 matrix; the hierarchy's own structure sits at ~2")
    common = [measure("trained Grams vs the per-mode formulas of Thm C.3, max rel err", v["sim_err"], "<=", 1e-2,
                      source=reading("GD at lr 5e-3 is O(lr) from the flow")),
              measure("lambda = 10: ||10 W1^TW1 - V~S~^2V~^T|| / ||S~^2|| (task-specific, scale 1/lambda)", v["struct"],
                      "<", 0.05, source=reading("O(s~^2/lambda^2) = 1% at lambda = 10")),
              each("large Gaussian inits: NTK movement S(NTK(0), NTK(end)) over that of the lambda = 0 net",
                   v["lazy_big"] / v["rich_small"], "<", 1.0,
                   source=paper("l.97", "leading to lazy learning that maintains a fixed NTK"),
                   # 'fixed' is the limit of 'large Gaussian values', which the paper does not size:
                   # the movement at the suite's own N(0, 1) entries is shown, not decided by the
                   # lexicon (it is 0.07-0.08 there, above a twentieth)
                   details={"large": v["lazy_big"], "rich": v["rich_small"],
                            "large inits' NTK movement S (the suite's N(0, 1) entries)": v["lazy_big"]}),
              each("large Gaussian inits: kernel distance of the final W1^TW1 to V~S~V~^T over that of the "
                   "lambda = 0 net", v["to_task"] / v["to_task_rich"], ">", 1.0,
                   source=paper("l.97", "but lacks any structural representation"),
                   details={"large": v["to_task"], "rich": v["to_task_rich"]})]
    return dict(under=common + [measure("lambda = 10: normalised distance of W2W2^T to I (task-agnostic)",
                                        v["gram_out_to_eye"], "<", 0.1, source=identity)],
                without=common + [measure("lambda = 10: normalised distance of RSM_O = Y^T(W2W2^T)^+Y (Eq. 4) to I",
                                          v["rsm_out_to_eye"], "<", 0.1, source=identity)])


def _seed_estimate(values) -> Estimate:
    """The seed mean of ``values`` with its interval (a point for one value)."""
    x = np.asarray(values, dtype=float).ravel()
    return Estimate.point(float(x[0])) if x.size == 1 else mean_of(x)


def kernel_distance_definition() -> list[Measurement]:
    """LR-DefC.2: S is scale-free, zero on itself, in [0, 1] on PSD kernels, 1 on orthogonal ones."""
    rng = np.random.default_rng(4)
    A = rng.standard_normal((6, 6))
    K = A @ A.T
    same = max(abs(float(kn.kernel_distance(K, K))), abs(float(kn.kernel_distance(K, 3.7 * K))))
    pairs = [(a @ a.T, b @ b.T) for a, b in (rng.standard_normal((2, 6, 3)) for _ in range(200))]
    dists = np.array([kn.kernel_distance(a, b) for a, b in pairs])
    ortho = float(kn.kernel_distance(np.diag([1.0, 0, 0]), np.diag([0, 1.0, 0])))
    roundoff = reading("round-off of a 6 x 6 Frobenius product")
    return [measure("|S(K, K)|, |S(K, 3.7K)| (scale-free, zero on itself)", same, "<=", 1e-14, source=roundoff),
            measure("S over 200 random PSD pairs", dists, "within", (-1e-14, 1.0), source=roundoff),
            measure("|S(orthogonal PSD kernels) - 1|", abs(ortho - 1), "<=", 1e-14, source=roundoff)]


def static_ntk(printed, run) -> dict:
    """LR-ThmC.5's holds-if: the NTK formula along a flow, and S(NTK(0), NTK(oo)) -> 0 as O(1/lambda^2)
    on the narrow side (under) but not on the other (without)."""
    arch = {n: (ni, no) for n, ni, no in ARCHITECTURES}
    lams = np.array([5.0, 20.0, 80.0])

    def moved(name, sign):
        return kernel_movement(printed.gram_in, printed.gram_out, *arch[name], sign * lams)
    sides = (("square (4,4,4)", 1), ("square (4,4,4)", -1), ("funnel (6,2,2)", 1), ("inverted funnel (2,2,6)", -1))
    curves = [moved(n, s) for n, s in sides]
    slopes = [float(np.polyfit(np.log(lams), np.log(c), 1)[0]) for c in curves]
    static = reading("S below 1e-2 at |lambda| = 80", "l.97 (reconstructed, catalogue)", "NTK(t) - NTK(0) = O(1/|lambda|) -> 0")
    return dict(
        under=[measure("NTK from V*(S*_lam - lam/2)V*^T, U*(S*_lam + lam/2)U*^T vs from the weights along a flow, "
                       "max rel err", ntk_formula_error(printed.gram_in, printed.gram_out, run), "<=", 1e-10, source=FLOW),
               measure("log-log slope in |lambda| (5, 20, 80) of S(NTK(0), NTK(oo)): square +-, funnel +, inverted -",
                       np.array(slopes), "<=", -1.8, source=SLOPE),
               measure("S(NTK(0), NTK(oo)) at |lambda| = 80 on those sides",
                       np.array([c[-1] for c in curves]), "<", 1e-2, source=static)],
        without=measure("S(NTK(0), NTK(oo)) at |lambda| = 80 on the other sides (inverted +, funnel -)",
                        np.array([moved("inverted funnel (2,2,6)", 1)[-1], moved("funnel (6,2,2)", -1)[-1]]),
                        "<", 1e-2, source=static))


def layer_singular_values_at_convergence(printed) -> list[Measurement]:
    """LR-C.2.4-relations: the printed a, b satisfy the relations; numerics keeps them at lambda = 1e4."""
    s1, s2 = layer_singular_values(np.array([0.3, 1.0, 2.5]), 1e4)
    return [measure("relations violated among b^2 - a^2 = lambda, a b = s~, b^2 = lambda + s~^2/lambda + ..., a -> 0",
                    len(layer_relation_failures(printed.a, printed.b)), "==", 0, source=exact("sympy simplify, series, limit")),
            measure("float at lambda = 1e4: max |a b - s~|", float(np.max(np.abs(s1 * s2 - [0.3, 1.0, 2.5]))), "<=", 1e-12,
                    source=reading("no cancellation in numerics.layer_singular_values")),
            measure("float at lambda = 1e4: max |b^2 - a^2 - lambda|", float(np.max(np.abs(s2 ** 2 - s1 ** 2 - 1e4))),
                    "<=", 1e-9, source=reading("1e-13 relative to lambda"))]


def delayed_rich_rate(rate) -> dict:
    """LR-ThmC.6's holds-if: the printed slow rate on the delayed-rich side (under), not on the other (without)."""
    lams = (5.0, 10.0, 20.0, 40.0)
    under = [late_rate(rate, 2, 5, lam) for lam in lams] + [late_rate(rate, 5, 2, -lam) for lam in (5.0, 20.0)]
    err = max(abs(f - p) / p for f, p in under)
    inv = [f * lam for (f, _), lam in zip(under[:4], lams)]
    s2 = random_task(2, 5, 8, np.random.default_rng(8)).svd.s.min() ** 2
    other = np.array([late_rate(rate, 2, 5, -lam)[0] for lam in (5.0, 20.0, 40.0)])
    slow = reading("a delayed-rich rate ~ s~_min^2/|lambda| is below 5 s~_min^2; the lazy rate ~|lambda| is not")
    return dict(
        under=[measure("fitted late rates vs (S~_lam - |lambda|/2)_min, inverted funnel lambda 5..40, funnel -5, -20, "
                       "worst rel err", err, "<=", 0.02, source=reading("fit over 8-14 e-folds; the next mode has "
                                                                        "decayed by >= e^-6")),
               measure("rate x |lambda| spread, max / min (-> s~_min^2)", max(inv) / min(inv), "<", 1.2,
                       source=reading("O(s~^2/lambda^2) corrections")),
               measure("those late rates over s~_min^2 (slow)", np.array([f for f, _ in under[:4]]) / s2, "<", 5,
                       source=slow)],
        without=measure("inverted funnel at lambda = -5, -20, -40: late rates over s~_min^2", other / s2, "<", 5,
                        source=slow))
