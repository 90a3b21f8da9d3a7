"""Sec 4 and App B: Riccati equation (LR-Lem4.1), Fukumizu's solution (LR-Eq7), eigendecomposition
of F (LR-Lem4.2), B, C, D (LR-Eq10-12), Theorem 4.3, the stable form B.5, its verification B.5.1,
the long-time instability (LR-Impl) and the conservation of the balance (LR-ThmA.2).
Time is t/tau (tau = 1/lr on the 1/2-mean loss).

Full scale (``--scale=full``, the ``[full]`` variants of ``verify.lazy_rich.sizes``), cost: FULL
draws 10x the ci samples (200,000 noise draws, 16 GD seeds x 16,000 steps of networks with <= 12
units a layer, 2,000 moment draws, 8 framing seeds), < 1e10 FLOP per test: seconds on 2 CPU cores
(measured 0.3-4.2 s), well under a minute on one H100.
"""
from dataclasses import asdict

import numpy as np
import pytest
import sympy as sp

from numerics.lazy_rich import comparisons as cmp
from numerics.lazy_rich import experiments as xp
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import lambda_balanced_init
from numerics.lazy_rich.tasks import Task, hierarchy_task
from numerics.metrics import rel_err
from numerics.closed_forms import compiled
from theory.lazy_rich.symbols import lam as LAM
from theory.lazy_rich.symbols import s as s_sym
from theory.registry import REGISTRY
from verify.lazy_rich import checks as ch
from numerics.lazy_rich import configs
from verify.measurement import exact, paper, reading
from verify.properties import search
from verify.strategies import BalancedProblem, balanced_problems

SHAPES = [(4, 4), (5, 3), (3, 5), (6, 2), (2, 6)]
LAMS = [-3.0, -0.7, 0.0, 0.7, 3.0]
CONFIGS = [(ni, no, lam) for ni, no in SHAPES for lam in LAMS]
FLOW = reading("closed form vs a solve_ivp flow at rtol 1e-12; <= 25 e-folds of growth amplify it < 1e3")


def horizon(task, lam, cap=8.0):
    """t/tau with S_lam,max t <= 25: beyond, e^{2 S_lam t} makes A ill-conditioned (LR-Impl)."""
    return min(cap, 25.0 / np.sqrt(task.svd.s.max() ** 2 + lam ** 2 / 4))


@pytest.mark.claim("LR-Lem4.1")
def test_riccati_equation_is_exact_for_rational_balanced_weights(claim):
    syx = sp.Matrix([[sp.Rational(3, 2), -sp.Rational(1, 3)], [sp.Rational(2, 7), 1]])
    rhs = REGISTRY["LR-Lem4.1"].printed
    nonzero = sum(sum(1 for e in ch.riccati_residual_exact(rhs, q, syx) if e != 0) for q in (1, -4, sp.Rational(9, 4)))
    claim.holds(claim.measure("nonzero entries of tau d(QQ^T)/dt - (F QQ^T + QQ^T F - (QQ^T)^2), exact rational "
                              "2x2x2 weights, lambda in {1, -4, 9/4}, non-symmetric Syx", nonzero, "==", 0,
                              source=exact("sympy simplify")))


@pytest.mark.claim("LR-Lem4.1")
def test_riccati_equation_holds_for_any_shape_and_lambda(claim):
    rhs = REGISTRY["LR-Lem4.1"].printed

    def residual(p):
        task, W1, W2 = xp.problem_from_numbers(**asdict(p))
        return cmp.riccati_residual(rhs, task, W1, W2, p.lam)
    result = search(residual, ("<=", 1e-10),
                    examples=[dict(p=BalancedProblem(n_in=6, n_out=1, lam=-10.0, scale=10.0, w1=[1.0] * 6, w2=[-2.0],
                                                     syx=[0.5, -1.0, 2.0, 0.0, 1.0, 3.0], rot=0.0)),
                              dict(p=BalancedProblem(n_in=1, n_out=6, lam=0.0, scale=1e-3, w1=[1.0],
                                                     w2=[1.0, 0, -1.0, 2.0, 0, 0], syx=[1.0, 2.0, 0, 0, -1.0, 0.5], rot=0.0))],
                    p=balanced_problems())
    task, W1, W2 = xp.problem(4, 4, 1.0, 7)
    unbalanced = cmp.riccati_residual(rhs, task, np.diag([1.5, 1.0, 1.0, 0.7]) @ W1, W2, 1.0)
    claim.holds(
        claim.measure("worst relative Riccati residual, Ni, No <= 6, lambda in [-10, 10], scale in [1e-3, 10]", result,
                      source=reading("round-off of O(scale^4) products that cancel")),
        claim.measure("control outside A2 (balance not prop. to I, (4,4,4)): relative residual", unbalanced, ">", 1e-3,
                      source=reading("the check discriminates: an O(1) violation of A2 gives an O(1) residual")))


@pytest.mark.claim("LR-Eq7")
def test_fukumizu_solution_matches_flow_including_singular_F(claim):
    errs, mins = [], []
    for ni, no, lam in [(4, 4, 0.7), (5, 3, 0.0), (2, 6, 0.0), (3, 5, -2.0)]:
        task, W1, W2 = xp.problem(ni, no, lam, seed=11 + ni)
        t = np.linspace(0, horizon(task, lam), 9)
        F = so.f_matrix(task.syx, lam)
        errs.append(cmp.solution_error(lambda tt, a, b, svd, lv: so.qq_fukumizu(tt, a, b, F), task, W1, W2, lam, t)[0])
        mins.append(np.linalg.eigvalsh(so.middle_matrix(t, W1, W2, F)).min())
    claim.holds(claim.measure("Fukumizu form vs the flow, 4 nets incl. lambda = 0 with Ni != No (F singular), max rel err",
                              max(errs), "<=", 1e-9, source=FLOW),
                claim.measure("smallest eigenvalue of the bracket I + Q0^T(int e^{2Fs})Q0", float(min(mins)), ">=", 1 - 1e-12,
                              source=reading("eigenvalues >= 1 up to round-off")))


@pytest.mark.claim("LR-Lem4.2")
def test_eigendecomposition_of_F(claim):
    errs = [cmp.eigen_error(so.spectrum, xp.problem(ni, no, lam, seed=ni * 7 + no)[0], lam)
            for ni, no, lam in CONFIGS + [(4, 4, 25.0), (3, 6, -40.0)]]
    rng = np.random.default_rng(5)                    # rank-deficient task: s~ = 0 modes (h -> sgn lam)
    X = np.sqrt(6) * np.linalg.qr(rng.standard_normal((6, 4)))[0].T
    errs.append(cmp.eigen_error(so.spectrum, Task(X, np.outer(rng.standard_normal(3), rng.standard_normal(6))), 1.3))
    drawn = search(lambda p: cmp.eigen_error(so.spectrum, xp.problem_from_numbers(**asdict(p))[0], p.lam), ("<=", 1e-12),
                   p=balanced_problems())
    pr = REGISTRY["LR-Lem4.2"].printed
    s_lam = compiled((LAM, s_sym), pr.S_lam)
    s_lam_err = max(rel_err(so.spectrum(task.svd, lam).s_lam, s_lam(lam, task.svd.s))
                    for task, lam in ((xp.problem(ni, no, lam, seed=ni * 7 + no)[0], lam) for ni, no, lam in CONFIGS))
    limits = [sp.limit(pr.H, LAM, 0), sp.limit(pr.H, LAM, sp.oo) - 1, sp.limit(pr.H, LAM, -sp.oo) + 1,
              sp.simplify(sp.limit(pr.G, LAM, sp.oo) - 1 / sp.sqrt(2))]
    claim.holds(
        claim.measure("max(||P^T P - I||, ||F - P Gamma P^T||/||F||), 28 tasks (square, funnels, lambda -40..25 incl. 0, "
                      "rank-deficient Syx)", max(errs), "<=", 1e-12, source=reading("round-off of a <= 12 x 12 matrix")),
        claim.measure("same, worst over drawn Syx (Ni, No <= 6, entries in [-3, 3], rank-deficient when shrunk), lambda in "
                      "[-10, 10]", drawn, source=reading("round-off of a <= 12 x 12 matrix")),
        claim.measure("per-mode block: max |P^T P - I|, |F P - P Gamma| (sympy, else 60 digits)",
                      ch.mode_eigen_residual(pr.F, pr.P, pr.Gamma), "<=", 1e-45, source=reading("60-digit evaluation")),
        claim.measure("printed S~_lam = (S~^2 + lambda^2/4)^(1/2) vs the eigenvalues of F in numerics, 25 tasks, max rel "
                      "err", s_lam_err, "<=", 1e-14, source=reading("round-off of a square root")),
        claim.measure("limits H -> 0 (lambda -> 0), +-1 (lambda -> +-oo), G -> 1/sqrt2: nonzero differences",
                      sum(1 for v in limits if v != 0), "==", 0, source=exact("sympy limit")))


@pytest.mark.claim("LR-Eq10-12")
def test_initialisation_variables_project_Q0_on_the_eigenbasis(claim):
    errs = [cmp.init_variable_error(so.init_variables, *xp.problem(ni, no, lam, seed=3 * ni + no), lam)
            for ni, no, lam in CONFIGS]
    drawn = search(lambda p: cmp.init_variable_error(so.init_variables, *xp.problem_from_numbers(**asdict(p)), p.lam),
                   ("<=", 1e-13), p=balanced_problems())
    same = reading("the same products of orthonormal matrices in another order")
    pr = REGISTRY["LR-Eq10-12"].printed
    printed = []
    for ni, no, lam in [(2, 4, 1.3), (5, 3, -0.7)]:
        task, W1, W2 = xp.problem(ni, no, lam, seed=33 + ni)
        numeric = so.init_variables(W1, W2, so.spectrum(task.svd, lam))
        printed += [rel_err(cmp.printed_theorem_value(getattr(pr, name), 0.0, W1, W2, task.svd, lam), value)
                    for name, value in zip("BCD", numeric)]
    claim.holds(
        claim.measure("printed B, C, D by substitution vs numerics, (2,2,4) lambda 1.3 and (5,3,3) lambda -0.7, max rel "
                      "err", max(printed), "<=", 1e-12, source=same),claim.measure("Q0^T P vs [B/sqrt2, -C/sqrt2, D], 25 nets (5 shapes x 5 lambdas), max rel err", max(errs),
                              "<=", 1e-13, source=same),
                claim.measure("same, worst over drawn nets and tasks (Ni, No <= 6, lambda in [-10, 10], scale in "
                              "[1e-3, 10])", drawn, source=same))


@pytest.mark.claim("LR-Thm4.3")
def test_exact_solution_matches_gradient_flow(claim):
    errs, drifts = [], []
    for ni, no, lam in CONFIGS:
        task, W1, W2 = xp.problem(ni, no, lam, seed=100 + 5 * ni + no, scale=0.4)
        err, drift = cmp.solution_error(so.qq_exact, task, W1, W2, lam, np.linspace(0, horizon(task, lam), 9))
        errs.append(err)
        drifts.append(drift)
    claim.holds(claim.measure("QQ^T of Thm 4.3 vs the flow, 25 random non-aligned nets, 9 times up to S_lam t/tau = 25, "
                              "max rel err", max(errs), "<=", 1e-9, source=FLOW),
                claim.measure("balance drift along the flows", max(drifts), "<=", 1e-8,
                              source=reading("conserved quantity at rtol 1e-12")))


@pytest.mark.claim("LR-Thm4.3")
def test_exact_solution_edge_cases(claim):
    W1, W2 = lambda_balanced_init(0.5, 8, 8, 8, np.random.default_rng(9), scale=0.1)
    cases = {"hierarchy (degenerate S~), lambda 0.5":
             cmp.solution_error(so.qq_exact, hierarchy_task(), W1, W2, 0.5, np.linspace(0, 6, 7))[0]}
    t2, a, b = xp.problem(3, 5, 0.0, seed=21)
    cases["lambda = 0, Ni != No"] = cmp.solution_error(so.qq_exact, t2, a, b, 0.0, np.linspace(0, 8, 7))[0]
    t3, a, b = xp.problem(4, 2, -1.5, seed=22, scale=3.0)
    cases["init scale 3"] = cmp.solution_error(so.qq_exact, t3, a, b, -1.5, np.linspace(0, 1.5, 7))[0]
    t4, _, _ = xp.problem(3, 3, 0.0, seed=23)
    O = np.linalg.qr(np.random.default_rng(1).standard_normal((3, 3)))[0]
    cases["zero function W1 = 0, W2 = sqrt2 O"] = cmp.solution_error(so.qq_exact, t4, np.zeros((3, 3)), np.sqrt(2) * O,
                                                                      2.0, np.linspace(0, 6, 7))[0]
    claim.holds(*(claim.measure(f"{name}: max rel err vs the flow", v, "<=", 1e-9, source=FLOW) for name, v in cases.items()))


@pytest.mark.claim("LR-Thm4.3")
def test_printed_matrix_form_equals_the_vectorised_solution(claim):
    task, W1, W2 = xp.problem(2, 4, 1.3, seed=33)
    value = cmp.printed_theorem_value(REGISTRY["LR-Thm4.3"].printed, 0.9, W1, W2, task.svd, 1.3)
    claim.holds(claim.measure("printed Z A^-1 Z^T by substitution vs numerics.qq_exact, (2,2,4), lambda 1.3, t/tau = 0.9",
                              rel_err(value, so.qq_exact(0.9, W1, W2, task.svd, 1.3)[0]), "<=", 1e-12,
                              source=reading("the same closed form evaluated twice; round-off of a 6 x 6 solve")))


@pytest.mark.claim("LR-Thm4.3")
def test_exact_solution_matches_batched_gradient_descent(claim, scale):
    """Many seeds and lambdas as one torch program; GD deviates from the flow by O(lr)."""
    config = configs.GRADIENT_DESCENT[scale]
    members = [(lam, seed) for lam in config.lams for seed in config.seeds]
    lrs = config.lrs
    devs = cmp.gd_deviation_from_theorem(so.qq_exact, members, lrs)
    slope = float(np.polyfit(np.log(lrs), np.log(devs), 1)[0])
    claim.holds(claim.measure("log-log slope of the max deviation GD vs Thm 4.3 in lr (4e-3, 2e-3, 1e-3)", slope,
                              "within", (0.85, 1.15), source=reading("first-order GD error: slope 1 +- 0.15")),
                claim.measure("max rel deviation at lr 1e-3", devs[-1], "<", 1e-2, source=reading("O(lr) at lr 1e-3")),
                note=f"{len(members)} nets (5 lambdas x {len(config.seeds)} seeds, (5,3,3), P = 10) as one batch, t/tau up to 2")


@pytest.mark.claim("LR-ThmB.5")
def test_stable_form_equals_theorem_and_reaches_far_times(claim):
    errs = []
    for ni, no, lam in CONFIGS:
        task, W1, W2 = xp.problem(ni, no, lam, seed=400 + 5 * ni + no)
        if np.linalg.cond(so.init_variables(W1, W2, so.spectrum(task.svd, lam))[0]) > 1e8:
            continue                                  # B singular: outside the theorem's hypothesis
        t = np.linspace(0, horizon(task, lam), 9)
        errs.append(rel_err(so.qq_stable(t, W1, W2, task.svd, lam), so.qq_exact(t, W1, W2, task.svd, lam)))
    finite, lim_err = [], []
    for ni, no, lam in [(2, 5, 20.0), (5, 2, -20.0), (2, 5, 5.0), (6, 2, -10.0), (4, 4, 3.0)]:
        task, W1, W2 = xp.problem(ni, no, lam, seed=500 + ni)
        qq = so.qq_stable(np.array([0.0, 50 * abs(lam), 1e4]), W1, W2, task.svd, lam)
        spc = so.spectrum(task.svd, lam)
        limit = np.concatenate([task.svd.V * spc.g * (1 - spc.h), task.svd.U * spc.g * (1 + spc.h)]) * np.sqrt(2)
        finite.append(bool(np.all(np.isfinite(qq))))
        lim_err.append(rel_err(qq[-1], (limit * spc.s_lam) @ limit.T / 2))
    pr = REGISTRY["LR-ThmB.5"].printed
    task, W1, W2 = xp.problem(2, 4, 1.3, seed=33)
    printed = rel_err(cmp.printed_theorem_value(pr.Z * sp.Inverse(pr.A) * pr.Z.T, 0.9, W1, W2, task.svd, 1.3),
                      so.qq_stable(0.9, W1, W2, task.svd, 1.3)[0])
    claim.holds(
        claim.measure("printed Z A^-1 Z^T by substitution vs the stable form, (2,2,4), lambda 1.3, t/tau = 0.9, rel err",
                      printed, "<=", 1e-12, source=reading("the same solution in two forms; round-off of a 6 x 6 solve")),
        claim.measure(f"stable form vs Thm 4.3 on {len(errs)} nets with B invertible, max rel diff", max(errs), "<=", 1e-10,
                      source=reading("plain form's round-off grows with cond(A) ~ e^{2 S_lam t} <= e^{50}")),
        claim.measure("finite at t/tau = 50|lambda| and 1e4 (5 nets, |lambda| up to 20)", all(finite), "==", True,
                      source=paper("L72", "numerically stable")),
        claim.measure("QQ^T(1e4) vs the limit of Thm C.3, max rel err", max(lim_err), "<=", 1e-12,
                      source=reading("transient gone; round-off of C_s^-1")))


@pytest.mark.claim("LR-ThmB.5")
def test_stable_form_matches_long_flow(claim):
    task, W1, W2 = xp.problem(2, 5, 4.0, seed=77)
    err, _ = cmp.solution_error(so.qq_stable, task, W1, W2, 4.0, np.linspace(0, 60, 7))
    claim.holds(claim.measure("inverted funnel (2,2,5), lambda 4, t/tau up to 60 (S_lam t ~ 130): rel err vs the flow",
                              err, "<=", 1e-10, source=reading("rtol 1e-12 flow contracting onto its fixed point")))


@pytest.mark.claim("LR-Impl")
def test_plain_form_breaks_down_where_stable_form_does_not(claim):
    plain_err, stable_finite = cmp.long_time_breakdown(so.qq_exact, so.qq_stable)
    claim.holds(
        claim.measure("at S_lam,max t/tau = 400, (4,4,4), lambda 1: plain Thm 4.3 vs the stable form, rel err (inf: "
                      "overflow)", plain_err, ">", 1e-6,
                      source=paper("L72", "can be numerically unstable when simulating it for long time")),
        claim.measure("stable form finite there", stable_finite, "==", True, source=paper("L72", "numerically stable")))


@pytest.mark.claim("LR-B.5.1")
def test_closed_form_satisfies_the_riccati_equation(claim):
    rhs = REGISTRY["LR-B.5.1"].printed
    errs = [cmp.closed_form_riccati_error(rhs, so.qq_exact, *xp.problem(ni, no, lam, seed=600 + ni), lam)
            for ni, no, lam in [(4, 4, 0.0), (5, 3, 1.2), (3, 5, -0.8), (6, 2, 2.5)]]
    claim.holds(claim.measure("central difference (h = 1e-5) of the closed form vs F QQ + QQ F - QQ^2, 3 times x 4 nets, "
                              "max rel err", max(errs), "<=", 1e-7,
                              source=reading("truncation O(h^2) plus round-off O(eps/h)")))


@pytest.mark.claim("LR-ThmA.2")
def test_balance_is_conserved(claim):
    task, W1, W2 = xp.problem(5, 3, 0.6, seed=12)
    tk = Task(task.X * np.random.default_rng(0).uniform(0.5, 2.0, size=(5, 1)), task.Y)     # Sxx != I
    _, _, flow_drift = xp.integrate(tk, W1, W2, np.linspace(0, 10, 11))
    claim.holds(
        claim.measure("nonzero entries of the printed d/dt balance, rational unwhitened data (Ni=3, Nh=2, No=4, P=5)",
                      ch.balance_rate_nonzero_entries(REGISTRY["LR-ThmA.2"].printed), "==", 0, source=exact("sympy")),
        claim.measure("one GD step (lr 0.05, Sxx != I) vs lr^2 (W1E^TEW1^T - W2^TEE^TW2): rel err",
                      cmp.gd_balance_step_error(tk, W1, W2, 0.05), "<=", 1e-10, source=reading("exact algebra in float64")),
        claim.measure("balance drift of the flow over t/tau = 10 (unwhitened)", flow_drift, "<=", 1e-9,
                      source=reading("conserved quantity at rtol 1e-12")))
