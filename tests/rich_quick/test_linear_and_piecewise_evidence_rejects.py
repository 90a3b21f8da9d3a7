"""Every exact-claim check of the GRQ wide/deep/piecewise part accepts the true formula and
rejects a perturbed one (changed constant, flipped sign, dropped factor, swapped slot)."""
import numpy as np
import pytest
import sympy as sp

from numerics.rich_quick import linear_errors as le
from numerics.rich_quick import linear_flows as lf
from numerics.rich_quick import linear_nets as ln
from numerics.rich_quick import piecewise as pw
from numerics.rich_quick import piecewise_errors as pe
from theory.registry import REGISTRY, Forms, load_all
from theory.rich_quick import deep_linear as dl
from theory.rich_quick import piecewise as tpw
from theory.rich_quick import wide_linear as wl
from verify.rich_quick.evidence import linear as lin
from verify.rich_quick.evidence import piecewise as pc

load_all()
EA, EW = 0.3, 2.5


@pytest.fixture
def wide():
    rng = np.random.default_rng(0)
    return dict(W=rng.standard_normal((3, 5)), A=rng.standard_normal((3, 2)),
                X=rng.standard_normal((7, 5)) / 3, Y=rng.standard_normal((7, 2)))


@pytest.mark.rejects("GRQ-Claim-Wide-Cons")
def test_conservation_check_rejects_a_flipped_sign(wide):
    good = REGISTRY["GRQ-Claim-Wide-Cons"].printed
    bad = wl.eta_w * wl.A * wl.A.T + wl.eta_a * wl.W * wl.W.T
    args = (wide["W"], wide["A"], wide["X"], wide["Y"], EA, EW)
    assert le.conservation_drift(good, *args) < 1e-9 < 1e-2 < le.conservation_drift(bad, *args)


@pytest.mark.rejects("GRQ-Eq-NTK-wide")
def test_ntk_check_rejects_swapped_rates(wide):
    good = REGISTRY["GRQ-Eq-NTK-wide"].printed
    bad = good.subs({wl.eta_a: wl.eta_w, wl.eta_w: wl.eta_a}, simultaneous=True)
    args = (wide["W"], wide["A"], wide["X"], EA, EW)
    assert le.ntk_error(good, *args) < 1e-10 < 1e-2 < le.ntk_error(bad, *args)


@pytest.mark.rejects("GRQ-Eq(6)", "GRQ-Eq(73)-(80)")
def test_vec_dynamics_check_rejects_a_wrong_rate(wide):
    good = REGISTRY["GRQ-Eq(6)"].printed
    bad = good.subs(wl.eta_w, wl.eta_a)
    args = (wide["W"], wide["A"], wide["X"], wide["Y"], EA, EW)
    assert le.vec_flow_error(good, *args) < 1e-10 < 1e-2 < le.vec_flow_error(bad, *args)


def test_eq78_as_printed_cannot_be_evaluated_for_c_ne_d(wide):
    with pytest.raises(Exception, match="shape"):
        le.vec_flow_error(REGISTRY["GRQ-Eq(73)-(80)"].printed["Eq. (78)"], wide["W"], wide["A"],
                          wide["X"], wide["Y"], EA, EW)


@pytest.mark.rejects("GRQ-Thm4.1", "GRQ-LemB.1")
def test_neuron_sum_check_rejects_swapped_coefficients(wide):
    good = REGISTRY["GRQ-Thm4.1"].printed
    bad = {"out": good["in"], "in": good["out"]}
    assert le.neuron_sum_error(good, wide["W"], wide["A"], EA, EW) < 1e-10
    assert le.neuron_sum_error(bad, wide["W"], wide["A"], EA, EW) > 1e-2


@pytest.mark.rejects("GRQ-LemB.1")
def test_restatement_check_rejects_swapped_coefficients():
    eq7, eq87 = REGISTRY["GRQ-Thm4.1"].printed, REGISTRY["GRQ-LemB.1"].printed
    swapped = Forms.of({"out": eq87["in"], "in": eq87["out"]})
    assert lin.restates(eq87, eq7, "Eq. (87)").passed
    assert not lin.restates(swapped, eq7, "Eq. (87)").passed


@pytest.mark.rejects("GRQ-Eq(81)-(86)")
def test_gram_check_rejects_a_changed_constant(wide):
    good = REGISTRY["GRQ-Eq(81)-(86)"].corrected
    bad = {k: 2 * v for k, v in good.items()}
    assert le.neuron_gram_error(good, wide["W"], wide["A"], EA, EW) < 1e-10
    assert le.neuron_gram_error(bad, wide["W"], wide["A"], EA, EW) > 0.1


@pytest.mark.rejects("GRQ-LemB.2")
def test_rank_bound_formula_is_tested_against_measured_ranks():
    rng = np.random.default_rng(1)
    bound = REGISTRY["GRQ-LemB.2"].corrected["rank bound (88)"]
    perturbed = wl.d * wl.c        # 'always full rank' would be wrong for h < c
    for d, h, c in [(2, 3, 6), (6, 3, 2)]:
        rank = le.lazy_limit_ranks(d, h, c, rng, +1)[0]
        assert rank == int(bound.subs({wl.d: d, wl.h: h, wl.c: c}))
    rank = le.lazy_limit_ranks(2, 3, 6, rng, +1)[0]
    assert rank != int(perturbed.subs({wl.d: 2, wl.c: 6}))


@pytest.mark.rejects("GRQ-LemB.2")
def test_rank_evidence_reads_each_bound_it_is_given():
    r = REGISTRY["GRQ-LemB.2"]

    def passes(printed=None, corrected=None):
        evidence = lin.lazy_limit_rank_evidence({**r.printed, **(printed or {})},
                                                {**r.corrected, **(corrected or {})})
        return all(m.passed for m in evidence["corrected"])
    assert passes()
    # one less than Eq. (88)'s bound, Eq. (90)'s printed bound as the sum of ranks, h as the rank
    # of the sum: each fails on the measured ranks
    assert not passes(printed={"rank bound (88)": wl.d * sp.Min(wl.h, wl.c) - 1})
    assert not passes(corrected={"sum of ranks (90)": r.printed["sum of ranks (90)"]})
    assert not passes(corrected={"rank of the sum": wl.h})


@pytest.mark.rejects("GRQ-Eq(92)-(96)")
def test_limit_check_distinguishes_the_sign():
    M = REGISTRY["GRQ-Eq(92)-(96)"].printed["M"]
    flipped = {k: v.subs(wl.delta, -wl.delta) for k, v in M.items()}
    assert le.coefficient_limit(M, -sp.oo) != le.coefficient_limit(flipped, -sp.oo)


@pytest.mark.rejects("GRQ-Eq(102)")
def test_square_limit_check_rejects_a_doubled_limit():
    W, A = ln.init_square_isotropic(4, -1e4, 0.5, 2.0, np.random.default_rng(2))
    M = ln.wide_M(W, A, 0.5, 2.0)
    good = float(REGISTRY["GRQ-Eq(102)"].corrected["-oo"].subs(wl.delta, -1e4))
    assert le.rel(M, good * np.eye(16)) < 1e-2 < 0.4 < le.rel(M, 2 * good * np.eye(16))


@pytest.mark.rejects("GRQ-Eq(102)")
def test_square_limit_check_reads_the_plus_infinity_limit():
    r = REGISTRY["GRQ-Eq(102)"]
    doubled = {**r.corrected, "+oo": 2 * r.corrected["+oo"]}
    assert all(m.passed for m in lin.square_limits(r.printed, r.corrected)["corrected"])
    assert not all(m.passed for m in lin.square_limits(r.printed, doubled)["corrected"])


@pytest.mark.rejects("GRQ-ThmB.9")
def test_inverse_preconditioner_check_rejects_a_dropped_factor():
    rng = np.random.default_rng(0)
    Ws, a = ln.deep_balanced_chain(3, 2, 0.7, rng)
    beta = ln.deep_beta(Ws, a)
    M = le.rank_one_update(REGISTRY["GRQ-ThmB.9"].printed["M (121)"], beta, 2)
    good = REGISTRY["GRQ-ThmB.9"].corrected["M^-1 (122)"]
    bad = Forms(identity=good.identity, outer=good.outer * (dl.l + 1) / dl.l)
    assert le.rel(M @ le.rank_one_update(good, beta, 2), np.eye(3)) < 1e-10
    assert le.rel(M @ le.rank_one_update(bad, beta, 2), np.eye(3)) > 1e-2


@pytest.mark.rejects("GRQ-ThmB.9")
def test_the_erratum_of_eq_122_is_the_outer_sign_alone():
    printed, corrected = (REGISTRY["GRQ-ThmB.9"].printed["M^-1 (122)"],
                          REGISTRY["GRQ-ThmB.9"].corrected["M^-1 (122)"])
    assert lin.parts_beyond_the_sign(printed, corrected) == 0
    shifted = Forms(identity=printed.identity * dl.r, outer=printed.outer)
    assert lin.parts_beyond_the_sign(shifted, corrected) == 1


@pytest.mark.rejects("GRQ-ThmB.9")
def test_eq120_and_hessian_checks_reject_shifted_exponents_and_factors():
    Ws, a = ln.deep_balanced_chain(3, 2, 0.7, np.random.default_rng(1))
    beta = ln.deep_beta(Ws, a)
    printed = REGISTRY["GRQ-ThmB.9"].printed
    Minv = le.rank_one_update(REGISTRY["GRQ-ThmB.9"].corrected["M^-1 (122)"], beta, 2)
    assert lin.eq120_error(printed["a_norm2 (120)"], Ws, a, 2) < 1e-10
    assert lin.eq120_error(dl.r ** (2 / dl.l), Ws, a, 2) > 1e-2
    phi, g = printed["Phi"], printed["g"]
    assert lin.hessian_error(Minv, phi, g, beta, 2) < 1e-10
    assert lin.hessian_error(Minv, 2 * phi, g, beta, 2) > 0.1
    assert lin.hessian_error(Minv, phi, dl.r ** (-(dl.l + 2) / (dl.l + 1)), beta, 2) > 1e-2


@pytest.fixture(scope="module")
def deep_problem():
    """(X, y, Ws, a, beta0, GF's limit): a balanced depth-3 chain on one sample (GRQ-Claim-DeepQ,
    GRQ-ThmB.9)."""
    rng = np.random.default_rng(10)
    X, y = rng.standard_normal((1, 3)), rng.standard_normal(1) + 1.0
    Ws, a = ln.deep_balanced_chain(3, 2, 0.5, rng)
    beta0 = ln.deep_beta(Ws, a)
    return X, y, Ws, a, beta0, lf.deep_flow_limit(Ws, a, X, y, 2, t_end=300.0)


@pytest.mark.rejects("GRQ-ThmB.9")
def test_eq119_objective_rejects_the_main_text_exponent(deep_problem):
    # the main text's -(l+2)/(l+1) on ||beta0|| (GRQ-Claim-DeepQ) moves the argmin off GF's limit
    X, y, Ws, a, beta0, end = deep_problem
    printed = REGISTRY["GRQ-ThmB.9"].printed
    phi, bad = printed["Phi"], dl.r ** (-(dl.l + 2) / (dl.l + 1))

    def off_gf(coefficient):
        objective = le.deep_objective(lin.eq119_objective(phi, coefficient))
        return np.linalg.norm(le.implicit_bias_minimiser(objective, X, y, beta0, 2) - end)
    assert off_gf(printed["grad coefficient"]) < 1e-6 < 1e-2 < off_gf(bad)
    assert lin.is_grad_phi(phi, printed["grad coefficient"]) and not lin.is_grad_phi(phi, bad)


@pytest.mark.rejects("GRQ-LemB.3")
def test_square_check_rejects_a_changed_constant():
    W, A = ln.init_square_isotropic(4, -1.3, 0.5, 2.0, np.random.default_rng(0))
    good = REGISTRY["GRQ-LemB.3"].printed["(97)"]
    bad = wl.gram_kron(good.left.subs(wl.delta ** 2 / 4, wl.delta ** 2 / 2), good.left_gram,
                       good.right, good.right_gram)
    assert le.square_M_error(good, W, A, 0.5, 2.0, -1.3) < 1e-10
    assert le.square_M_error(bad, W, A, 0.5, 2.0, -1.3) > 1e-3


@pytest.mark.rejects("GRQ-AssB.4")
def test_potential_check_rejects_a_halved_potential():
    q = REGISTRY["GRQ-AssB.4"].corrected["q"]
    lams = np.linspace(0.1, 2, 9)
    assert le.potential_curvature_error(q, EA, EW, -2.0, lams) < 1e-10
    assert le.potential_curvature_error(q / 2, EA, EW, -2.0, lams) > 0.1


@pytest.mark.rejects("GRQ-Eq(73)-(80)")
def test_erratum_pins_eq78_to_its_swapped_identity_sizes():
    # the printed sum cannot be formed (c != d) whatever its signs, so only the swapped-back form
    # tells a wrong sign from the misprint
    r = REGISTRY["GRQ-Eq(73)-(80)"]
    plus = r.printed["Eq. (78)"]
    bad = {**r.printed, "Eq. (78)": plus.args[0] - plus.args[1]}
    assert all(m.passed for m in lin.eq78_and_appendix_delta(r.printed, r.corrected, EA, EW)["corrected"])
    assert not all(m.passed for m in lin.eq78_and_appendix_delta(bad, r.corrected, EA, EW)["corrected"])


@pytest.mark.rejects("GRQ-Eq(73)-(80)")
def test_eq79_80_check_rejects_a_wrong_rate():
    r = REGISTRY["GRQ-Eq(73)-(80)"]
    bad = {**r.printed, "Eqs. (79)-(80)": r.printed["Eqs. (79)-(80)"].subs(wl.eta_w, wl.eta_a)}
    assert lin.eq78_and_appendix_delta(r.printed, r.corrected, EA, EW)["corrected"][0].passed
    assert not lin.eq78_and_appendix_delta(bad, r.corrected, EA, EW)["corrected"][0].passed


@pytest.mark.rejects("GRQ-AssB.4")
def test_erratum_pins_the_printed_potential_to_its_missing_scale_factors():
    # a wrong rate inside the printed q fails as printed too, so only the pinned measurement
    # (the printed q is right where the correction's factors are 1) tells it from the misprint
    r = REGISTRY["GRQ-AssB.4"]
    bad = {**r.printed, "q (Thm B.6)": r.printed["q (Thm B.6)"].subs(wl.eta_w, 1 / wl.eta_w)}
    assert all(m.passed for m in lin.task_aligned_mirror_flow(r.printed, r.corrected, EA, EW)["corrected"])
    assert not all(m.passed for m in lin.task_aligned_mirror_flow(bad, r.corrected, EA, EW)["corrected"])


@pytest.mark.rejects("GRQ-AssB.4")
def test_mode_ode_check_rejects_a_dropped_factor():
    Dv = np.array([1.0, 0.5, 2.0])
    modes, _, S, _ = lf.aligned_square_flow(3, 0.8, EA, EW, np.random.default_rng(2), Dv, t_end=2.0)
    good = REGISTRY["GRQ-AssB.4"].corrected["Lambda ODE"]
    bad = good.subs(wl.eta_a, 1)
    assert le.mode_ode_error(good, modes, Dv, S, EA, EW, 0.8) < 1e-8
    assert le.mode_ode_error(bad, modes, Dv, S, EA, EW, 0.8) > 1e-2


@pytest.mark.rejects("GRQ-Eq(116)-(117)", "GRQ-LemB.8")
def test_deep_identity_check_rejects_shifted_exponents():
    Ws, a = ln.deep_isotropic_init(4, 3, -0.7, np.random.default_rng(3))
    good = {**REGISTRY["GRQ-Eq(116)-(117)"].printed, "M": REGISTRY["GRQ-LemB.8"].printed}
    bad = {"norm2": dl.s * (dl.s - dl.delta) ** (dl.l + 1), "outer": dl.x ** dl.l + dl.delta * dl.x ** dl.l,
           "M": dl.x ** dl.l + dl.s * sp.Sum((dl.s - dl.delta) ** dl.i * dl.x ** (dl.l - dl.i),
                                             (dl.i, 0, dl.l - 1))}
    assert max(le.deep_identity_errors(good, Ws, a, -0.7, 3).values()) < 1e-10
    assert min(le.deep_identity_errors(bad, Ws, a, -0.7, 3).values()) > 1e-2


@pytest.mark.rejects("GRQ-Claim-DeepQ", "GRQ-ThmB.9")
def test_implicit_bias_check_separates_the_exponents(deep_problem):
    X, y, Ws, a, beta0, end = deep_problem
    rq = REGISTRY["GRQ-Claim-DeepQ"]
    good = le.implicit_bias_minimiser(le.deep_objective(rq.corrected), X, y, beta0, 2)
    bad = le.implicit_bias_minimiser(le.deep_objective(rq.printed), X, y, beta0, 2)
    assert np.linalg.norm(good - end) < 1e-6 < 1e-2 < np.linalg.norm(bad - end)


@pytest.fixture
def relu():
    rng = np.random.default_rng(4)
    return dict(W=rng.standard_normal((5, 3)), a=rng.standard_normal(5), X=rng.standard_normal((7, 3)),
                y=rng.standard_normal(7), gamma=0.1, eta_a=EA, eta_w=EW)


@pytest.mark.rejects("GRQ-Eq(8)", "GRQ-Eq(9)", "GRQ-Eq(124)-(127)")
def test_pl_checks_reject_swapped_rates_and_flipped_signs(relu):
    M8 = REGISTRY["GRQ-Eq(8)"].printed
    swapped = {"I": tpw.eta_a * sp.Symbol("a") ** 2, "ww": tpw.eta_w}
    assert max(pe.beta_dynamics_error(M8, **relu).values()) < 1e-9
    assert pe.beta_dynamics_error(swapped, **relu)["beta_dot"] > 1e-2
    eq9 = REGISTRY["GRQ-Eq(9)"].printed
    flipped = {"radial": eq9["radial"], "angular": -(tpw.kappa_mu - tpw.delta) / (2 * tpw.mu)}
    assert pe.spherical_error(eq9, **relu) < 1e-9 < 1e-2 < pe.spherical_error(flipped, **relu)
    M126 = REGISTRY["GRQ-Eq(124)-(127)"].printed["M_i (126)"]
    bad126 = {"I": M126["bb"], "bb": M126["I"]}
    assert pe.preconditioner_error(M126, relu["W"], relu["a"], EA, EW) < 1e-10
    assert pe.preconditioner_error(bad126, relu["W"], relu["a"], EA, EW) > 1e-2


@pytest.mark.rejects("GRQ-Claim-Regions")
def test_region_count_rejects_a_linear_bound():
    h = 8
    g = np.linspace(-20, 20, 500)
    net = pw.DeepReLU.random(2, [h], np.random.default_rng(h), biases=True)
    count = len({p.tobytes() for p in net.patterns(np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)).T})
    assert count <= 1 + h + h * (h - 1) // 2 and count > 1 + h


@pytest.mark.rejects("GRQ-Claim-Regions")
def test_region_order_check_rejects_a_linear_order():
    order = REGISTRY["GRQ-Claim-Regions"].printed["one hidden layer, d = 2, with biases"]
    assert pc.arrangement_order(order).passed
    assert not pc.arrangement_order(tpw.h).passed


@pytest.mark.rejects("GRQ-PropC.2", "GRQ-Claim-Regions")
def test_parity_check_flags_a_redundant_unit():
    rng = np.random.default_rng(5)
    net = pw.DeepReLU.random(2, [6], rng, biases=True)
    net.weights[0] = np.vstack([net.weights[0], 3.0 * net.weights[0][:1]])
    net.biases[0] = np.append(net.biases[0], 3.0 * net.biases[0][0])
    net.readout = np.append(net.readout, 1.0)
    hams, flips, _, _ = pe.crossing_statistics(net, rng, lines=20)
    assert np.any(hams == 2) and not np.all(flips)


def test_bad_arguments_raise_naming_the_argument():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="beta_norms"):
        ln.init_wide(3, 2, 2, 0.0, -1.0, 1.0, 1.0, rng)
    with pytest.raises(ValueError, match="eta_a"):
        ln.wide_rhs(np.eye(2), np.eye(2), 0.0, 1.0)
    with pytest.raises(ValueError, match="delta"):
        ln.deep_isotropic_init(3, 2, 0.5, rng)
    with pytest.raises(ValueError, match="gamma"):
        pw.two_layer_parts(np.ones((2, 2)), np.ones(2), np.ones((3, 2)), np.ones(3), 1.0)
    with pytest.raises(ValueError, match="non-finite"):
        pw.two_layer_parts(np.full((2, 2), np.nan), np.ones(2), np.ones((3, 2)), np.ones(3), 0.0)
