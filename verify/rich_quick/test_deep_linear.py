"""Deep linear networks, GRQ App. B.2 and Sec. 4 (L133): isotropic initialisation, the
polynomial identities, the preconditioner and the rich-limit implicit bias, against autograd and
gradient flow (all rates 1, as the section assumes)."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from numerics.rich_quick import linear_flows as lf
from numerics.rich_quick import linear_nets as ln
from theory.registry import REGISTRY
from verify.measurement import paper, reading
from verify.rich_quick import linear_checks as lc

ROUND = reading("the identities are exact; products and eigendecompositions round off at ~1e-14")
FLOW = reading("DOP853 at rtol 1e-11 (GF to convergence) and BFGS at gtol 1e-12")

CASES = [(4, 3, -0.7), (3, 2, -0.2), (5, 1, -1.3), (4, 4, -2.0)]      # (h = d, l, delta <= 0)


@pytest.mark.claim("GRQ-DefB.7")
def test_isotropic_init_exists_only_for_nonpositive_delta(claim):
    rng = np.random.default_rng(0)
    h, l, delta = 4, 3, -0.7
    Ws, a = ln.deep_isotropic_init(h, l, delta, rng)
    X, y = rng.standard_normal((3, h)), rng.standard_normal(3)

    def relations(W, a_):
        chain = [W[k + 1].T @ W[k + 1] - W[k] @ W[k].T for k in range(l - 1)]
        return np.concatenate([(np.outer(a_, a_) - W[-1] @ W[-1].T).ravel()]
                              + [c.ravel() for c in chain])
    drift = lf.deep_flow_drift(Ws, a, X, y, l, relations, t_end=3.0)
    residual0 = np.max(np.abs(relations(Ws, a) - np.concatenate(
        [(delta * np.eye(h)).ravel(), np.zeros(h * h * (l - 1))])))
    # positive delta, h >= 2: a a^T - delta I has eigenvalue -delta on a^perp, so W_l W_l^T = it is
    # impossible; the paper's own example has beta(0) = 0
    v = rng.standard_normal(h)
    v -= v @ a / (a @ a) * a
    neg = float(v @ (np.outer(a, a) - 0.5 * np.eye(h)) @ v / (v @ v))
    beta_example = ln.deep_beta([0.3 * np.linalg.qr(rng.standard_normal((h, h)))[0]
                                 for _ in range(l)], np.zeros(h))
    claim.holds_if(
        REGISTRY["GRQ-DefB.7"].condition,
        under=[claim.measure(f"Def. B.7 relations at the construction (delta {delta}, h {h}, l {l})",
                             residual0, "<=", 1e-12, source=ROUND),
               claim.measure("their drift along GF over t in [0, 3]", drift, "<=",
                             1e-9, source=reading("DOP853 at rtol 1e-11"))],
        without=[claim.measure("delta = +0.5: Rayleigh quotient of the required W_l W_l^T on a^perp",
                               neg, ">=", 0, source=reading("a Gram matrix is PSD")),
                 claim.measure("||beta(0)|| of the a = 0 example (Thm B.9 needs beta(0) != 0)",
                               np.linalg.norm(beta_example), ">", 0,
                               source=reading("beta(0) = 0 has no direction to preserve"))],
        counterexample=f"h={h}, delta=0.5: a a^T - delta I has eigenvalue -0.5 (not a Gram matrix); "
                       "a = 0, W_i = alpha O_i: beta(0) = 0")


@pytest.mark.claim("GRQ-Eq(116)-(117)", "GRQ-LemB.8")
def test_polynomial_identities_and_deep_preconditioner(claim):
    formulas = {**REGISTRY["GRQ-Eq(116)-(117)"].printed, "M": REGISTRY["GRQ-LemB.8"].printed}
    rng = np.random.default_rng(1)
    worst, psd = 0.0, True
    for h, l, delta in CASES:
        Ws, a = ln.deep_isotropic_init(h, l, delta, rng)
        errs = lc.deep_identity_errors(formulas, Ws, a, delta, l)
        worst = max(worst, *errs.values())
        psd &= np.linalg.eigvalsh(ln.deep_M_autograd(Ws, a)).min() > -1e-10
    claim.holds(claim.measure("max rel err of ||beta||^2, beta beta^T (Eqs. 116-117) and of M "
                              "(Eq. 118) vs the autograd M = J J^T", worst, "<=", 1e-10, source=ROUND),
                claim.measure("M is PSD (smallest eigenvalue above -1e-10)", bool(psd), "==", True,
                              source=ROUND),
                note=f"(h = d, l, delta) in {CASES}")


def _theorem_b9_data(seed, l, h=3, n=1, scale=0.7):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, h)), rng.standard_normal(n) + 1.0
    Ws, a = ln.deep_balanced_chain(h, l, scale, rng)
    return X, y, Ws, a


@pytest.mark.claim("GRQ-ThmB.9")
def test_rich_limit_preconditioner_and_implicit_bias(claim):
    pr, cr = REGISTRY["GRQ-ThmB.9"].printed, REGISTRY["GRQ-ThmB.9"].corrected
    rows, e121, inv_p, inv_c, e120, hess, gf = [], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    for seed, l in enumerate((1, 2, 3)):
        X, y, Ws, a = _theorem_b9_data(seed, l)
        beta = ln.deep_beta(Ws, a)
        r = np.linalg.norm(beta)
        M = lc.rank_one_update(pr["M (121)"], beta, l)
        e121 = max(e121, lc.rel(M, ln.deep_M_autograd(Ws, a)))
        e120 = max(e120, abs(a @ a - r ** (2 / (l + 1))) / (a @ a))
        inv_p = max(inv_p, lc.rel(M @ lc.rank_one_update(pr["M^-1 (122)"], beta, l), np.eye(3)))
        Minv = lc.rank_one_update(cr["M^-1 (122)"], beta, l)
        inv_c = max(inv_c, lc.rel(M @ Minv, np.eye(3)))
        # Hessian of Phi = (l+1)/(l+2) r^{(l+2)/(l+1)}: r^{p-2} I + (p-2) r^{p-4} beta beta^T
        p = (l + 2) / (l + 1)
        H = r ** (p - 2) * np.eye(3) + (p - 2) * r ** (p - 4) * np.outer(beta, beta)
        hess = max(hess, lc.rel(Minv, r ** (-l / (l + 1)) * H))
        end = lf.deep_flow_limit(Ws, a, X, y, l, t_end=200.0)
        arg = lc.implicit_bias_minimiser(lc.deep_objective(REGISTRY["GRQ-Claim-DeepQ"].corrected),
                                         X, y, beta, l)
        gf = max(gf, np.linalg.norm(end - arg) / np.linalg.norm(arg))
        rows.append(f"l={l}: GF beta(inf)={np.round(end, 5)}, Eq.(119) argmin={np.round(arg, 5)}")
    algebra = [claim.measure("Eq. (120) rel err", e120, "<=", 1e-10, source=ROUND),
               claim.measure("Eq. (121) vs autograd M, rel err", e121, "<=", 1e-10, source=ROUND),
               claim.measure("M^-1 = g Hess Phi, rel err", hess, "<=", 1e-10, source=ROUND),
               claim.measure("GF beta(inf) vs the Eq. (119) argmin, rel distance", gf, "<=", 1e-6,
                             source=FLOW)]
    claim.erratum(
        printed=algebra + [claim.measure("||M M^-1 - I|| / ||I||, Eq. (122) as printed", inv_p, "<=",
                                         1e-10, source=ROUND)],
        corrected=algebra + [claim.measure("||M M^-1 - I|| / ||I||, minus sign in Eq. (122)", inv_c,
                                           "<=", 1e-10, source=ROUND)],
        note="exactly balanced rank-one chains (delta = 0, d = h = 3, n = 1, seeds 0-2); " + "; ".join(rows))


@pytest.mark.claim("GRQ-Claim-DeepQ")
def test_main_text_exponent_and_depth_claim(claim, report_figure):
    rq = REGISTRY["GRQ-Claim-DeepQ"]
    rows, err_p, err_c = [], 0.0, 0.0
    for seed, l in enumerate((2, 3)):
        X, y, Ws, a = _theorem_b9_data(seed + 10, l, scale=0.5)
        beta0 = ln.deep_beta(Ws, a)
        end = lf.deep_flow_limit(Ws, a, X, y, l, t_end=300.0)
        bp = lc.implicit_bias_minimiser(lc.deep_objective(rq.printed), X, y, beta0, l)
        bc = lc.implicit_bias_minimiser(lc.deep_objective(rq.corrected), X, y, beta0, l)
        err_p = max(err_p, np.linalg.norm(end - bp) / np.linalg.norm(end))
        err_c = max(err_c, np.linalg.norm(end - bc) / np.linalg.norm(end))
        rows.append(f"l={l}, ||beta0||={np.linalg.norm(beta0):.3g}: GF {np.round(end, 4)}, "
                    f"printed {np.round(bp, 4)}, corrected {np.round(bc, 4)}")
    claim.erratum(
        printed=claim.measure("GF beta(inf) vs the argmin of the printed Q, rel distance", err_p,
                              "<=", 1e-6, source=FLOW),
        corrected=claim.measure("GF beta(inf) vs the argmin with exponent -l/(l+1), rel distance",
                                err_c, "<=", 1e-6, source=FLOW),
        counterexample=rows[0], note="GF from balanced rank-one chains (delta = 0, d = 3, n = 1)")
    # depth claim: cos(beta(inf), beta0) rises with l when y/(X beta0) > 0, not otherwise
    X = np.array([[1.0, 0.5, -0.3]])
    cos = {}
    for name, beta0, y in (("ray meets solutions", np.array([0.2, 0.6, 0.1]), np.array([1.0])),
                           ("ray misses solutions", np.array([0.2, 0.6, 0.1]), np.array([-1.0]))):
        cos[name] = []
        for l in (1, 2, 4, 8, 16, 32):
            b = lc.implicit_bias_minimiser(lc.deep_objective(rq.corrected), X, y, beta0, l)
            cos[name].append(b @ beta0 / (np.linalg.norm(b) * np.linalg.norm(beta0)))
    words = paper("L133", "with increased depth emphasizes")
    claim.holds_if(
        "y/(X beta0) > 0 (the ray through beta0 meets the interpolating set)",
        under=claim.measure("steps of cos(beta(inf), beta0) over l = 1..32, y = 1",
                            np.diff(cos["ray meets solutions"]), ">", 0, source=words),
        without=claim.measure("steps of cos(beta(inf), beta0) over l = 1..32, y = -1",
                              np.diff(cos["ray misses solutions"]), ">", 0, source=words),
        counterexample=f"y=-1: cos {np.round(cos['ray misses solutions'], 3)} not increasing with depth",
        note="Eq. (119) minimisers, X = [1, .5, -.3], beta0 = [.2, .6, .1]")
    fig, ax = plt.subplots(figsize=(5, 3.2))
    for name, mk in zip(cos, "os"):
        ax.plot([1, 2, 4, 8, 16, 32], cos[name], mk + "-", label=name)
    ax.set_xscale("log")
    ax.set_xlabel("depth l")
    ax.set_ylabel("cos(beta(inf), beta0)")
    ax.legend(fontsize=7)
    report_figure(fig, "Depth and direction preservation of the corrected Eq. (119) bias (lines "
                       "join the minimisers): increases with l only when y/(X beta0) > 0.")
