"""Function-space dynamics of the single neuron (rich_quick Sec 3 Eqs. 3-4 and the limits of M,
App A.3 Eqs. 36-39 and the rate rescaling), with non-whitened X, unequal rates and d = 1..5."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import strategies as st

from numerics.rich_quick import formula_errors as fe
from theory.registry import REGISTRY
from theory.rich_quick import single_neuron_function_space as SNF
from theory.rich_quick import single_neuron_symbols as S
from theory.rich_quick.single_neuron_exact import BASIN_GENERAL
from verify.measurement import exact, reading
from verify.rich_quick.evidence import single_neuron as chk
from verify.rich_quick.evidence.searches import worst
from verify.rich_quick.single_neuron_strategies import rate_pair, signed, weight_points

DATA = np.random.default_rng(3)  # the module's fixed data, drawn at import
X = DATA.standard_normal((6, 4))
Y = DATA.standard_normal(6) * 2.1
weights = st.integers(1, 5).flatmap(lambda d: st.tuples(signed, st.lists(signed, min_size=d, max_size=d),
                                                        rate_pair()))


def sym_matrix(expr):
    return sp.lambdify([S.a, S.w1, S.w2, S.delta, S.eta_a, S.eta_w], expr, "numpy")


@pytest.mark.claim("GRQ-Eq(3)", "GRQ-Eq(36)-(39)")
def test_beta_flows_by_minus_M_times_the_loss_gradient(claim):
    printed = (sym_matrix(REGISTRY["GRQ-Eq(3)"].printed),
               sym_matrix(REGISTRY["GRQ-Eq(36)-(39)"].printed.M_weights))
    claim.holds(worst("worst rel err, a w' + a' w vs -(eta_w a^2 I + eta_a w w^T) X^T rho",
                      chk.beta_flow_error, printed, X, Y, criterion=("<=", 1e-12),
                      source=reading("float64 round-off"), aw=weights),
                note="6x4 non-whitened X, d = 1..4 (zero-padded), general rates")


@pytest.mark.claim("GRQ-Eq(4)", "GRQ-Eq(36)-(39)")
def test_M_in_terms_of_beta_and_delta(claim):
    r = REGISTRY["GRQ-Eq(36)-(39)"].printed
    forms = (sym_matrix(REGISTRY["GRQ-Eq(4)"].printed), sym_matrix(r.M_weights), sym_matrix(r.M_beta))
    ww = sp.Matrix([S.w1, S.w2]) * sp.Matrix([[S.w1, S.w2]])
    claim.holds(worst("worst rel err, Eq. (4)/(39) vs eta_w a^2 I + eta_a w w^T, d = 1..5, "
                      "general rates (the sympy form at d = 2)", chk.preconditioner_forms_error,
                      forms, criterion=("<=", 1e-12), source=reading("float64 round-off"),
                      aw=weights),
                chk.hp_worst("worst |Eqs. (37)-(38) - (a^2, w w^T)| from beta and delta",
                             chk.hp_abs_max, [r.a_sq - S.a ** 2, *(r.ww_T[i] - ww[i] for i in range(4))],
                             p=weight_points().map(fe.with_delta)))


@pytest.mark.claim("GRQ-Eq(36)-(39)")
def test_a_squared_stays_positive_without_a_sign_change(claim):
    claim.holds(*chk.a_keeps_away_from_zero(BASIN_GENERAL),
                note="whitened flows to t = 30 on a 601-point grid, eta_a=0.3, eta_w=2.5")


@pytest.mark.claim("GRQ-Claim-Mlimits")
def test_limits_of_M_symbolically(claim):
    printed = REGISTRY["GRQ-Claim-Mlimits"].printed

    def approaches(limit_form, to):
        """Each eigenvalue (across beta, along beta) over the printed one -> 1 as delta -> to;
        a printed 0 asks the eigenvalue itself -> 0."""
        return all(sp.limit(eig, S.delta, to) == 0 if lim == 0
                   else sp.limit(eig / lim, S.delta, to) == 1
                   for eig, lim in zip(SNF.M_EIGS, limit_form))
    sym = exact("sympy limit / simplify")
    claim.holds(
        claim.measure("delta -> +oo: eigenvalues / delta -> (1, 1) (M ~ delta I)",
                      approaches(printed["delta_to_plus_inf"], sp.oo), "==", True, source=sym),
        claim.measure("delta -> -oo: across-beta eigenvalue -> 0, along-beta / |delta| -> 1 "
                      "(M ~ |delta| bb^T/||b||^2)", approaches(printed["delta_to_minus_inf"], -sp.oo),
                      "==", True, source=sym),
        claim.measure("delta = 0: eigenvalues - sqrt(eta_a eta_w)||beta||(1, 2) simplify to 0",
                      all(sp.simplify(eig.subs(S.delta, 0) - lim) == 0
                          for eig, lim in zip(SNF.M_EIGS, printed["delta_zero"])),
                      "==", True, source=sym),
        note="eigenvalues (kappa+delta)/2 across beta and kappa along beta, general rates")


@pytest.mark.claim("GRQ-Claim-Mlimits")
def test_upstream_beta_path_approaches_linear_regression_flow(claim):
    claim.holds(*chk.upstream_path_to_regression(),
                note="whitened, beta_* = (0, 1.4), beta0 = (-0.8, 0.3), eta_a=0.5, eta_w=1.6, t to 8/delta")


@pytest.mark.claim("GRQ-Claim-A3-rescale")
def test_rate_product_rescaling_of_beta_and_y(claim, rng):
    claim.holds(*chk.rate_rescaling(X, Y, rng),
                note="6x4 X, (eta_a, eta_w, delta) = (0.3, 2.5, 0.7), (4, 0.5, -1.2), (0.2, 0.3, 0)")
