"""The bias mode (Prop. 1, App F.1) and what follows from it (L221)."""
from functools import partial

import numpy as np
import pytest
import sympy as sp
from hypothesis import strategies as st

from theory.bias import bias_mode as bm
from theory.registry import REGISTRY
from verify.bias import figures
from verify.bias import symbolic as sym
from verify.strategies import bias_strengths, equal_overlap_labels, label_matrices, \
    unbalanced_classes
from verify.measurement import exact, reading
from verify.properties import search

GAP_TOL = 1e-10
SVD = reading("|s0 - sigma_1| / sigma_1: float64 SVD of matrices of size <= 15 x 9")
SYMPY = exact("sympy simplify")
UNBALANCED = np.array([[1, 1, 1, 0], [0, 0, 0, 1.0]])      # one-hot classes of sizes 3 and 1
SIGNED = np.array([[1.0, -1.0], [0.1, 0.1]])                # equal overlap, ybar small


@pytest.mark.claim("BL-Prop1", "BL-Def-BiasMode")
def test_eigen_statements_and_eq5_hold_symbolically(claim):
    proposition = bm.PROP1.printed
    eig = {P: sym.eigen_statements(proposition, P) for P in range(2, 7)}
    image = {P: sym.image_identity(proposition, P, n_out) for P, n_out in ((2, 1), (3, 2), (5, 3))}
    claim.holds(
        *(claim.measure(f"P = {P}: {what}", ok, "==", True, source=SYMPY)
          for P, r in eig.items() for what, ok in r.items()),
        *(claim.measure(f"Eq. (5) Syx~ v~0/||v~0|| = sign(c) sqrt(c^2+1/P) ybar, symbolic Y, "
                        f"(P, N_out) = {key}, c of both signs", ok, "==", True, source=SYMPY)
          for key, ok in image.items()),
        note="symbolic c: spec(Sx~) = {c^2+1/P, 1/P (x P-1), 0}, Sx~ v~0 = (c^2+1/P) v~0, [0; q] "
             "(1^T q = 0) in the 1/P eigenspace, Sx~ [1; -c 1] = 0")


@pytest.mark.claim("BL-Prop1")
def test_s0_is_the_top_singular_value_only_for_equal_overlap_labels(claim, report_figure,
                                                                    tree_labels):
    gap = partial(sym.top_singular_gap, bm.PROP1.printed["s0"])
    under = search(gap, ("<=", GAP_TOL),
                   examples=[dict(Y=tree_labels[4], c=1.0), dict(Y=tree_labels[8], c=0.01),
                             dict(Y=np.eye(3), c=-50.0)],
                   Y=equal_overlap_labels(), c=bias_strengths)
    without = search(gap, ("<=", GAP_TOL), examples=[dict(Y=UNBALANCED, c=1.0)],
                     Y=st.one_of(unbalanced_classes(), label_matrices(nonnegative=True)),
                     c=bias_strengths)
    report_figure(figures.s0_figure({"4-item tree": tree_labels[4], "classes 3 + 1": UNBALANCED,
                                         "signed y = (1, .1), (-1, .1)": SIGNED}), "BL-Prop1: top singular value of Syx~ (markers, SVD) divided by "
                  "Eq. (5)'s s0 = sqrt(c^2 + 1/P)||ybar|| (line at 1) over the bias strength c: "
                  "exact for the 4-item tree (equal overlap), above it for one-hot classes of "
                  "sizes 3 and 1 and for signed labels (where the bias mode is not the top mode "
                  "until c ~ 7)")
    claim.holds_if(
        REGISTRY["BL-Prop1"].condition,
        under=claim.measure("|sqrt(c^2+1/P)||ybar|| - sigma_1(Syx~)| / sigma_1, X = I_P, "
                            "non-negative equal-overlap labels, c both signs", under, source=SVD),
        without=claim.measure("the same for unbalanced one-hot classes / general non-negative "
                              "labels", without, source=SVD),
        counterexample=without.counterexample
        + " e.g. classes of sizes 3 and 1, c = 1: sigma_1 = 0.8955 > s0 = 0.8839")


@pytest.mark.claim("BL-Def-BiasMode")
def test_bias_direction_maps_onto_the_mean_label(claim):
    res = search(sym.bias_direction_error, ("<=", 1e-12), Y=label_matrices(), c=bias_strengths)
    claim.defined(claim.measure("right vector [1; 1/(cP) 1]: eigen-residual in Sx~ and 1 - cos of "
                                "its Syx~ image with ybar, general signed Y, worst", res,
                                source=reading("float64 rounding of a (P+1)-vector product")))


@pytest.mark.claim("BL-Claim-cIndep")
def test_bias_mode_leads_for_every_c_but_its_speed_depends_on_c(claim, tree_labels):
    s0 = REGISTRY["BL-Claim-cIndep"].printed
    gap = partial(sym.top_singular_gap, s0)
    under = search(gap, ("<=", GAP_TOL),
                   examples=[dict(Y=tree_labels[4], c=1e-2), dict(Y=tree_labels[4], c=1e2)],
                   Y=equal_overlap_labels(), c=bias_strengths)
    without = search(gap, ("<=", GAP_TOL), examples=[dict(Y=SIGNED, c=0.5)], Y=label_matrices(),
                     c=bias_strengths)
    times = {c: sym.bias_mode_half_time(s0, tree_labels[4], c) for c in (0.1, 10.0)}
    claim.holds_if(
        REGISTRY["BL-Claim-cIndep"].condition,
        under=[claim.measure("bias mode = top singular value (gap) over c in +-[1e-2, 1e2], "
                             "equal-overlap labels", under, source=SVD),
               claim.measure("bias-mode hitting time (t/tau, 4-item tree), c = 0.1 over c = 10",
                             times[0.1] / times[10.0], ">", 1,
                             source=reading("only the speed depends on c: any ratio above 1"))],
        without=claim.measure("the same gap for general signed labels", without, source=SVD),
        counterexample=without.counterexample
        + " e.g. y = (1, 0.1), (-1, 0.1): the bias mode leads only for c > ~7")


@pytest.mark.claim("BL-Claim-ybar")
def test_bias_mode_plateau_outputs_the_mean_label(claim, tree_labels):
    # exact: the saturated bias mode maps every input to ybar, for every Y and c != 0
    Y = sp.Matrix(2, 3, lambda i, j: sp.Symbol(f"y{i}{j}", real=True))
    exact = all(sym.is_zero(e) for c in (bm.c, -sp.Symbol("cp", positive=True))
                for e in bm.saturated_bias_mode_outputs(Y, c) - bm.mean_label(Y) * sp.ones(1, 3))
    tol = reading("the next mode has grown to ~1e-4..1e-3 of its plateau at the sampled time")
    under = sym.mean_label_plateau_errors(tree_labels[4], (0.3, 1.0, -2.0))
    without = sym.mean_label_plateau_errors(UNBALANCED, (0.3, 1.0, 5.0))
    claim.holds_if(
        REGISTRY["BL-Claim-ybar"].condition,
        under=[claim.measure("u0 (s0/d0) v^0^T x~_i - ybar simplifies to 0, symbolic Y (2x3), c "
                             "both signs", exact, "==", True, source=SYMPY),
               claim.measure("linear flow from a0 = 1e-8, first plateau, max_i ||y^_i - ybar|| / "
                             "||ybar||, 4-item tree, c = 0.3, 1, -2", under, "<=",
                             2e-2, source=tol)],
        without=claim.measure("the same for one-hot classes of sizes 3 and 1, c = 0.3, 1, 5",
                              without, "<=", 2e-2, source=tol),
        counterexample="one-hot classes of sizes 3 and 1: the first plateau does not "
                                  "output ybar = (0.75, 0.25) for every input")
