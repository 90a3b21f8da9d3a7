"""Piecewise linear networks, GRQ Sec. 5 and App. C: per-neuron dynamics and conserved
quantities against autograd and gradient flow (ReLU and leaky ReLU, eta_a != eta_w), and the
activation partition (Def. C.1, Prop. C.2) on random small ReLU networks."""
import functools

import numpy as np
import pytest
from hypothesis import strategies as st

from numerics.rich_quick import piecewise as pw
from numerics.rich_quick import piecewise_errors as pe
from theory.registry import REGISTRY
from verify.measurement import exact, reading
from verify.properties import search
from verify.rich_quick import figures as F
from verify.rich_quick.evidence import piecewise as pc

ETA_A, ETA_W = 0.4, 2.2


@st.composite
def two_layer_setting(draw):
    d, h, n = draw(st.integers(1, 4)), draw(st.integers(1, 6)), draw(st.integers(1, 8))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 16)))
    scale = draw(st.floats(0.3, 3.0))
    return dict(W=scale * rng.standard_normal((h, d)), a=rng.standard_normal(h) / scale,
                X=rng.standard_normal((n, d)), y=rng.standard_normal(n),
                gamma=draw(st.sampled_from([0.0, 0.1, 0.5])),
                eta_a=draw(st.floats(0.1, 4.0)), eta_w=draw(st.floats(0.1, 4.0)))


def _fixed(seed=0, d=3, h=5, n=7, gamma=0.1):
    rng = np.random.default_rng(seed)
    return dict(W=rng.standard_normal((h, d)), a=rng.standard_normal(h), X=rng.standard_normal((n, d)),
                y=rng.standard_normal(n), gamma=gamma, eta_a=ETA_A, eta_w=ETA_W)


@pytest.mark.claim("GRQ-Eq(8)", "GRQ-Eq(9)")
def test_per_neuron_dynamics_match_autograd(claim):
    M8, eq9 = REGISTRY["GRQ-Eq(8)"].printed, REGISTRY["GRQ-Eq(9)"].printed

    def prop(s):
        e = pe.beta_dynamics_error(M8, **s)
        e9 = pe.spherical_error(eq9, **s)
        return max(e["beta_dot"], e["ntk"], e9, pe.delta_rate(**s))
    res = search(prop, ("<=", 1e-9), examples=[dict(s=_fixed()), dict(s=_fixed(1, gamma=0.0))],
                 s=two_layer_setting())
    drift = pe.fixed_setting_drift(_fixed(2), ETA_A, ETA_W)
    claim.holds(claim.measure("worst rel err of beta_i' = -M_i xi_i, of K_jk = sum_i c_ij x_j^T M_i "
                              "x_k c_ik (vs autograd NTK), of Eq. (9) mu_i', bhat_i' (chain rule) "
                              "and of d delta_i/dt, gamma in {0, .1, .5}, random rates", res,
                              source=reading("exact identities; float64 relative round-off")),
                claim.measure(f"drift of all delta_i along ReLU GF over t in [0, 0.1] (d 3, h 5, "
                              f"n 7, eta {ETA_A}/{ETA_W})", drift, "<=", 1e-9,
                              source=reading("DOP853 at rtol 1e-11")))


@pytest.mark.claim("GRQ-Eq(124)-(127)")
def test_appendix_c_dynamics_and_expressivity(claim, grq, report_figure):
    r = REGISTRY["GRQ-Eq(124)-(127)"]
    res = search(lambda s: pe.preconditioner_error(r.printed["M_i (126)"], s["W"], s["a"],
                                                   s["eta_a"], s["eta_w"]),
                 ("<=", 1e-10), examples=[dict(s=_fixed())], s=two_layer_setting())
    s = _fixed(3, gamma=0.3)
    e8 = pe.beta_dynamics_error(REGISTRY["GRQ-Eq(8)"].printed, **s)
    e9 = pe.spherical_error(REGISTRY["GRQ-Eq(9)"].printed, **s)
    round_off = reading("exact identities; float64 relative round-off")
    dynamics = [claim.measure("worst rel err of Eq. (126) M_i from (delta_i, beta_i) vs parameters",
                              res, source=round_off),
                claim.measure("Eqs. (124)-(125), (127) at gamma 0.3, max rel err",
                              max(max(e8.values()), e9), "<=", 1e-9, source=round_off)]
    fit = grq.expressivity()
    printed, corrected = pc.expressivity(fit)
    claim.erratum(printed=dynamics + printed, corrected=dynamics + corrected,
                  note=f"random-feature ridge fits (3000 points, radii in [0.5, 2]), widths "
                       f"{pe.EXPRESSIVITY_WIDTHS}: "
                       + "; ".join(f"{k} {np.round(v, 3)}" for k, v in fit.items()))
    report_figure(*F.expressivity(fit, pe.EXPRESSIVITY_WIDTHS))


@st.composite
def relu_net(draw, redundant=False):
    d = draw(st.integers(2, 3))
    widths = draw(st.lists(st.integers(3, 10), min_size=1, max_size=3))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 16)))
    net = pw.DeepReLU.random(d, widths, rng, biases=draw(st.booleans()))
    if redundant:       # duplicate a first-layer unit with a positive rescaling: flips together
        W, b = net.weights[0], None if net.biases is None else net.biases[0]
        net.weights[0] = np.vstack([W, 2.0 * W[:1]])
        if b is not None:
            net.biases[0] = np.append(b, 2.0 * b[0])
        if len(net.weights) > 1:
            net.weights[1] = np.hstack([net.weights[1], rng.standard_normal((net.weights[1].shape[0], 1))])
        else:
            net.readout = np.append(net.readout, rng.standard_normal())
    return net, rng


@pytest.mark.claim("GRQ-PropC.2", "GRQ-Claim-Regions")
def test_partition_is_two_colourable_by_parity(claim):
    skipped = []

    def prop(case):
        net, rng = case
        hams, flips, _, degenerate = pe.crossing_statistics(net, rng, lines=3)
        skipped.append(degenerate)
        return int(np.sum(hams != 1)) + int(np.sum(~flips))
    res = search(prop, ("==", 0), case=relu_net())
    n_skipped = sum(skipped)
    neg = search(prop, ("==", 0), case=relu_net(redundant=True))
    claim.holds(
        claim.measure("boundary crossings along random chords (bisection to 1e-12) with Hamming "
                      "distance != 1 or no parity flip; 1-3 hidden layers of 3-10 units, d in "
                      "{2, 3}, with and without biases", res, source=exact("count of violations")),
        claim.measure("negative control, a duplicated (redundant) unit: a violation is found",
                      not neg.ok, "==", True, source=exact("the hypothesis excludes redundancy")),
        note=f"{n_skipped} crossings skipped as degenerate (a bias-free layer entirely inactive: "
             "z = 0 on an open set, in no Def. C.1 region)")


@functools.cache
def region_facts():
    """Measured properties of the partition of a (8, 8) ReLU net with biases (seed 3) and region
    counts of one-hidden-layer nets."""
    rng = np.random.default_rng(3)
    net = pw.DeepReLU.random(2, [8, 8], rng, biases=True)
    # linear inside a region: the predictor is constant over points sharing a pattern
    P = rng.uniform(-2, 2, (3000, 2))
    keys = {}
    for x, p in zip(P, net.patterns(P).T):
        keys.setdefault(p.tobytes(), []).append(x)
    spread = max(np.max(np.abs(np.array([net.input_gradient(x) for x in xs[:10]])
                               - net.input_gradient(xs[0]))) for xs in keys.values())
    # continuity: |f| jump across boundaries at 1e-9 separation
    jumps = []
    for _ in range(3):
        p0, p1 = rng.uniform(-2, 2, (2, 2))
        for s, *_ in pw.boundary_crossings(net, p0, p1):
            x = p0 + s * (p1 - p0)
            e = 1e-9 * (p1 - p0)
            jumps.append(abs(net((x + e)[None])[0] - net((x - e)[None])[0]))
    # convexity: midpoints of same-pattern pairs keep the pattern
    conv_bad = 0
    for xs in list(keys.values())[:40]:
        if len(xs) > 1:
            m = (np.asarray(xs[0]) + np.asarray(xs[-1])) / 2
            conv_bad += int(not np.array_equal(net.patterns(m[None])[:, 0],
                                               net.patterns(np.asarray(xs[0])[None])[:, 0]))
    _, _, aligns, _ = pe.crossing_statistics(net, rng, lines=4)
    # region count of one hidden layer (h lines in the plane): at most 1 + h + h(h-1)/2
    counts = []
    g = np.linspace(-20, 20, 500)
    G = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    for h in (4, 8, 16):
        one = pw.DeepReLU.random(2, [h], np.random.default_rng(h), biases=True)
        counts.append((h, len({p.tobytes() for p in one.patterns(G).T}), 1 + h + h * (h - 1) // 2))
    return dict(spread=spread, jump=max(jumps), n_jumps=len(jumps), conv_bad=conv_bad,
                aligns=aligns, counts=counts)


def _region_measurements(claim, f):
    return [claim.measure("predictor spread within regions", f["spread"], "<=", 1e-12,
                          source=reading("predictors are exact per region; float64 round-off")),
            claim.measure(f"max |f| jump across {f['n_jumps']} boundaries at 1e-9 separation",
                          f["jump"], "<=", 1e-7, source=reading("Lipschitz constant x 1e-9 step")),
            claim.measure("midpoints of same-pattern pairs that change pattern (convexity)",
                          f["conv_bad"], "==", 0, source=exact("count")),
            claim.measure("regions found on a grid minus 1 + h + h(h-1)/2, one hidden layer, "
                          f"h in {[h for h, _, _ in f['counts']]}",
                          [c - b for _, c, b in f["counts"]], "<=", 0,
                          source=exact("line-arrangement bound in the plane"))]


@pytest.mark.claim("GRQ-Claim-Regions")
def test_regions_are_linear_continuous_and_polynomially_many(claim):
    claim.holds(*_region_measurements(claim, region_facts()),
                note="2-layer (8, 8) ReLU net with biases, seed 3")


@pytest.mark.claim("GRQ-DefC.1")
def test_activation_regions_definition_is_consistent(claim):
    f = region_facts()
    claim.defined(*_region_measurements(claim, f)[:3],
                  claim.measure(f"min |cos| between the predictor jump and the flipped unit's normal "
                                f"over {len(f['aligns'])} crossings", np.min(f["aligns"]), ">=",
                                1 - 1e-6, source=reading("a 1e-7 step off the boundary")),
                  note="2-layer (8, 8) ReLU net with biases, seed 3")


@pytest.mark.claim("GRQ-Fig9")
def test_fig9_cones_without_biases_polytopes_with(claim, report_figure):
    ms, note = pc.cones_and_polytopes()
    claim.defined(*ms, note=note)
    report_figure(*F.fig9())


@pytest.mark.claim("GRQ-Claim-C-intro")
def test_function_space_dynamics_is_not_autonomous(claim):
    # two parameter settings with the same function on the data and different NTKs: the dynamics
    # of f (or beta) is not a function of f alone, so no mirror flow in function space exists
    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((6, 2)), rng.standard_normal(6)
    W = rng.standard_normal((4, 2))
    W1 = np.vstack([W[:2], W[:2]])           # mirrored pairs: f = 0 for both settings
    W2 = np.vstack([W[2:], W[2:]])
    a1 = a2 = np.array([1.0, 1.0, -1.0, -1.0])
    _, f1, _, _ = pw.two_layer_parts(W1, a1, X, y, 0.0)
    _, f2, _, _ = pw.two_layer_parts(W2, a2, X, y, 0.0)
    _, _, K1 = pw.two_layer_autograd(W1, a1, X, y, 0.0, 1.0, 1.0)
    _, _, K2 = pw.two_layer_autograd(W2, a2, X, y, 0.0, 1.0, 1.0)
    diff = np.linalg.norm(K1 @ (f1 - y) - K2 @ (f2 - y))
    claim.defined(
        claim.measure("max output difference of the two nets on 6 points", np.max(np.abs(f1 - f2)),
                      "<=", 1e-12, source=reading("float64 round-off")),
        claim.measure("norm of the difference of their function velocities", diff, ">", 1e-3,
                      source=reading("well above round-off")),
        note="scope statement; supporting computation: equal outputs, different function "
             "velocities, so PL function-space dynamics are not autonomous")
