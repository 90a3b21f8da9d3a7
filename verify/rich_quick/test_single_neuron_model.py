"""Conventions and the single-neuron model in parameter space (rich_quick Sec 1, Sec 3 L52-65,
App A L276-308): loss/clock, NTK, kernel distance, delta, minima, conservation, span.  Evidence:
``verify.rich_quick.evidence.model`` (gradient-flow time t)."""
import pytest
import sympy as sp

from numerics.rich_quick import formula_errors as fe
from theory.registry import REGISTRY
from theory.rich_quick import single_neuron_symbols as S
from verify.measurement import exact, reading
from verify.properties import search
from verify.rich_quick.evidence import model as M
from verify.rich_quick.evidence import single_neuron as chk
from verify.rich_quick.single_neuron_strategies import weight_points

SETTING = f"5x3 non-whitened X, eta_a={M.ETA_A}, eta_w={M.ETA_W}"


@pytest.mark.claim("GRQ-Eq(1)", "GRQ-Eq(10)-(12)")
def test_printed_ntk_equals_autograd_ntk(claim):
    registered = [REGISTRY[cid].printed for cid in ("GRQ-Eq(1)", "GRQ-Eq(10)-(12)")]
    claim.holds(*M.ntk_against_autograd(registered),
                note=f"eta_a={M.ETA_A}, eta_w={M.ETA_W}, (n, d) in (4, 2), (5, 3), (3, 6)")


@pytest.mark.claim("GRQ-Eq(10)-(12)")
def test_weight_flow_is_rate_weighted_gradient_of_half_sum_loss(claim, rng):
    err = fe.weight_flow_error(M.sn.weight_rhs, M.X, M.Y, 0.8, rng.standard_normal(3), M.ETA_A,
                                M.ETA_W)
    claim.holds(claim.measure("max abs err, Eqs. (11)-(12) vs -eta * autograd grad of the 1/2-sum "
                              "loss", err, "<=", 1e-12,
                              source=reading("float64 evaluations of the same gradient")),
                note=SETTING)


@pytest.mark.claim("GRQ-Conv-GF")
def test_gradient_descent_steps_follow_the_flow_at_t_equals_lr_times_steps(claim, rng):
    claim.defined(*M.gd_follows_the_flow(REGISTRY["GRQ-Conv-GF"].printed, rng),
                  note="GD on the 1/2-sum loss vs the flow at t = 2, 5x3 X, unit rates")


@pytest.mark.claim("GRQ-Def-NTK")
def test_function_moves_by_minus_ntk_times_residual(claim, rng):
    claim.defined(*M.function_moves_by_the_ntk(rng),
                  note=f"2 test points, rate-weighted autograd NTK ({SETTING}), t = 0.1, 0.5, 0.9")


@pytest.mark.claim("GRQ-Def-KD")
def test_kernel_distance_is_in_unit_interval_and_computable_from_M(claim):
    claim.defined(*M.kernel_distance_properties())


@pytest.mark.claim("GRQ-Def-delta")
def test_delta_definition_and_fig1_geometry(claim):
    claim.defined(*M.delta_definition(REGISTRY["GRQ-Def-delta"].printed),
                  note="5 (tau, delta) pairs, unit rates; names at eta_a=0.3, eta_w=2.5")


@pytest.mark.claim("GRQ-Claim-Minima")
def test_minima_hyperbola_and_saddles(claim, rng):
    claim.holds(*M.minima_and_saddles(rng), note=SETTING)


@pytest.mark.claim("GRQ-Cons-delta", "GRQ-Eq(13)")
def test_delta_is_conserved_symbolically_for_any_data(claim):
    g = sp.Matrix(sp.symbols("g1:4", real=True))       # any gradient X^T(X beta - y)
    w = sp.Matrix(sp.symbols("u1:4", real=True))
    a_dot, w_dot = -S.eta_a * (w.T * g)[0], -S.eta_w * S.a * g
    d_delta = 2 * S.eta_w * S.a * a_dot - 2 * S.eta_a * (w.T * w_dot)[0]
    printed = REGISTRY["GRQ-Cons-delta"].printed      # d delta/dt along the whitened flow
    along = fe.flow_rate(REGISTRY["GRQ-Eq(13)"].printed)  # Eq. (13)'s delta along Eqs. (14)-(15)
    claim.holds(claim.measure("d/dt of Eq. (13)'s delta along the whitened flow expands to 0",
                              sp.expand(along) == 0, "==", True, source=exact("sympy expand")),
                claim.measure("2 eta_w a a' - 2 eta_a w^T w' for a generic gradient vector (any X, "
                              "y, rates) expands to 0", sp.expand(d_delta) == 0, "==", True,
                              source=exact("sympy expand")),
                claim.measure("d delta/dt along the whitened flow Eqs. (14)-(15) expands to 0",
                              sp.expand(printed) == 0, "==", True, source=exact("sympy expand")))


@pytest.mark.claim("GRQ-Cons-delta", "GRQ-Eq(13)")
def test_delta_is_conserved_along_integrated_flows(claim):
    claim.holds(*M.delta_drift_along_flows(),
                note="Eqs. (11)-(12) on a 5x3 non-whitened X, rate pairs (0.3, 2.5), (4, 0.2), (1, 1)")


@pytest.mark.claim("GRQ-Cons-delta")
def test_conserved_surface_sheets(claim):
    sheets, counts = M.surface_sheets()
    claim.holds_if(REGISTRY["GRQ-Cons-delta"].condition, under=sheets[2], without=sheets[1],
                   note=f"4000-point grid samples of eta_w a^2 - eta_a ||w||^2 = delta linked below "
                        f"the grid spacing, eta {M.ETA_A}/{M.ETA_W}",
                   counterexample=f"d = 1, delta = -0.5: {counts[(-0.5, 1)]} components (w cannot "
                                  f"change sign), not one sheet")


@pytest.mark.claim("GRQ-Eq(14)-(15)")
def test_whitened_flow_is_the_general_flow_at_identity_covariance(claim):
    printed = REGISTRY["GRQ-Eq(14)-(15)"].printed
    res = search(lambda p: max(fe.hp_abs(printed[s] - f, p)
                               for s, f in M.general_flow_in_plane().items()), ("<=", 1e-25),
                 p=weight_points())
    claim.holds(claim.measure("worst |Eqs. (14)-(15) - Eqs. (11)-(12) with X^T X = I, X^T y = "
                              "beta_*| at 30 digits, general rates", res,
                              source=reading("30-digit round-off")))


@pytest.mark.claim("GRQ-Claim-Span")
def test_w_stays_in_the_plane_and_its_orthogonal_part_decays_exactly(claim):
    claim.holds(*M.span_and_decay(), note="d = 4 whitened flows, rate pairs (0.3, 2.5), (2, 0.5), "
                                          "(1, 1)")


@pytest.mark.claim("GRQ-Conv-WLOG")
def test_rates_enter_only_through_their_product(claim):
    """Decided on its own statement: the rates enter the (mu, phi) dynamics (Eqs. 16-17) only
    through eta_a eta_w and delta, absorbed by mu' = c mu, b' = c b into the form at the printed
    eta_a eta_w = 1; and the beta dynamics only through M(beta, delta), the same for every rate
    pair with one product."""
    from theory.rich_quick.single_neuron_exact import MU_PHI_ODE
    printed = REGISTRY["GRQ-Conv-WLOG"].printed
    named = {s.name: s for s in printed.free_symbols}
    eta_w_one = sp.solve(printed, named["eta_w"])[0].subs(named["eta_a"], S.eta_a)
    c = sp.sqrt(S.eta_a * S.eta_w)
    mu_p, b_p = sp.symbols("mu_p b_p", real=True)
    primed, prime = {S.mu: mu_p / c, S.b: b_p / c}, {S.mu: mu_p, S.b: b_p}
    lhs = (c * MU_PHI_ODE[S.mu].subs(primed), MU_PHI_ODE[S.phi].subs(primed))
    rhs = tuple(MU_PHI_ODE[k].subs({S.eta_w: eta_w_one}).subs(prime) for k in (S.mu, S.phi))
    res = search(lambda p: max(fe.hp_abs(l_ - r_, {**p, "mu_p": p["a"] * p["w1"], "b_p": p["b"],
                                                    "phi": 0.3, "delta": p["w2"]})
                               for l_, r_ in zip(lhs, rhs)), ("<=", 1e-20), p=weight_points())
    hp = reading(chk.HP_WHY)
    claim.holds(
        claim.measure("worst |(16)-(17) at general rates in mu' = c mu, b' = c b - (16)-(17) at "
                      "the printed eta_a eta_w = 1|", res, source=hp),
        claim.measure("largest |M - M at rates (2 eta_a, eta_w / 2)| over inits with one beta "
                      "and delta (beta dynamics through the product only)",
                      fe.rate_pair_preconditioner_gap(), "<=", 1e-12,
                      source=reading("float64 round-off of M")))
