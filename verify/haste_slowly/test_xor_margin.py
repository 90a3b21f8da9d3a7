"""App C / Fig 2: the XoR-with-margin task (MHS-C-Eq(11,12) .. MHS-C-Eq(24-26), MHS-Fig2)."""
import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import strategies as st
from scipy.integrate import solve_ivp
from scipy.optimize import linprog

from numerics.closed_forms import hitting_time, mode_strength
from numerics.haste_slowly import xor
from theory.conventions import MEAN_HALF, flow_time
from theory.haste_slowly import xor_margin as th
from verify.haste_slowly import checks
from verify.properties import search

POS = (0, 1, 1, 0)


def _separable(delta: float) -> bool:
    """LP: is there w with y_i w.x_i >= 1 for all four points (bias-free linear separation)?"""
    X, y = xor.xor_margin(delta)
    res = linprog(np.zeros(3), A_ub=-(y * X).T, b_ub=-np.ones(4), bounds=[(None, None)] * 3)
    return res.status == 0


@pytest.mark.claim("MHS-C-Eq(11,12)")
def test_dataset_is_xor_plus_a_linear_margin(claim):
    X, y = xor.xor_margin(0.7)
    xor_ok = np.array_equal(np.sign(X[0] * X[1]), -y[0])
    sep = {dl: _separable(dl) for dl in (0.0, 1e-3, 0.7)}
    L0 = 0.5 * np.sum(y ** 2) / 4
    claim.defined(xor_ok and sep == {0.0: False, 1e-3: True, 0.7: True} and L0 == 0.5
                  and (sp.Matrix(X.tolist()) - th.X.subs(th.Delta, 0.7)).is_zero_matrix,
                  f"labels = XOR of the first two coordinates; linearly separable (LP) at Delta "
                  f"{sep}; L(0) = {L0} under 1/(2N)")


@pytest.mark.claim("MHS-C-Eq(13-16)")
def test_positive_pathway_statistics(claim):
    syx, sx = checks.pathway_statistics(th.X, th.Y, POS, th.N)
    ok = (syx - th.SYX_POS).is_zero_matrix and (sx - th.SX_POS).is_zero_matrix
    claim.holds(ok, f"sympy, Delta symbolic: (1/4) y_p X_p^T = {list(syx)}, (1/4) X_p X_p^T "
                    f"= printed Eq. (15, 16)")


@pytest.mark.claim("MHS-C-Eq(17-19)")
def test_linear_pathway_mode_and_trajectory(claim):
    syx, sx = checks.pathway_statistics(th.X, th.Y, POS, th.N)
    s_, d_ = checks.mode_of(syx, sx)
    traj19 = th.TRAJ_18.subs({th.s: s_, th.d: d_})
    res = checks.solves(th.TRAJ_19, 2 * th.a * (th.S_LIN - th.D_LIN * th.a) / th.tau, th.t, th.a,
                        th.a0)
    sym = (sp.simplify(s_ - th.S_LIN) == 0 and sp.simplify(d_ - th.D_LIN) == 0
           and sp.simplify(traj19 - th.TRAJ_19) == 0 and all(res.values())
           and sp.limit(th.TRAJ_19.subs({th.Delta: sp.Rational(3, 4), th.a0: sp.Rational(1, 100)}),
                        th.t, sp.oo) == sp.Rational(4, 3))
    f = sp.lambdify((th.t, th.Delta, th.a0, th.tau), th.TRAJ_19)
    worst = 0.0
    for dl, a0, tau in ((0.3, 1e-4, 2.5), (1.7, 2e-2, 7.0), (0.9, 3.0, 1.0)):
        grid = np.linspace(0, 20 * tau / dl, 50)
        sol = solve_ivp(lambda t, a: 2 * a * (dl / 2 - dl ** 2 / 2 * a) / tau, (0, grid[-1]), [a0],
                        t_eval=grid, rtol=1e-11, atol=1e-14)
        worst = max(worst, float(np.max(np.abs(f(grid, dl, a0, tau) - sol.y[0]) / sol.y[0])))
    # 1e-8: solve_ivp at rtol 1e-11
    claim.holds(sym and worst < 1e-8,
                f"sympy: s = Delta/2, d = Delta^2/2 from the statistics, Eq. 18 -> Eq. 19, residual "
                f"0, a(0) = a0, a(inf) = 1/Delta ({res}); solve_ivp (3 cases, a0 above plateau "
                f"too): max rel err {worst:.1g} < 1e-8")


@pytest.mark.claim("MHS-C-Eq(20-22)")
def test_linear_gdln_loss(claim):
    a, s, d = th.a, th.s, th.d
    u = sp.Matrix([1])
    syx, sx = checks.pathway_statistics(th.X, th.Y, POS, th.N)
    s_, d_ = checks.mode_of(syx, sx)
    W = a * u * (syx / s_)
    sy = (th.Y * sp.diag(*POS) * th.Y.T) / th.N
    exact = sp.simplify(sy.trace() / 2 - (W * syx.T).trace() + (W * sx * W.T).trace() / 2)
    sym = (sp.simplify(exact - th.LOSS_20.subs({s: s_, d: d_})) == 0
           and sp.simplify(exact - th.LOSS_21) == 0 and sp.simplify(2 * th.LOSS_21 - th.LOSS_22) == 0
           and th.LOSS_22.subs(a, 1 / th.Delta) == 0 and th.LOSS_22.subs(a, 0) == sp.Rational(1, 2))
    worst = 0.0
    for dl in (0.6, 1.4):
        # lr 0.05 (not Fig 2's 0.4, whose steps are 0.4-0.6 of a time constant): Eq. (22) is the
        # flow, and this keeps the GD discretisation below the tolerance
        hist, _ = xor.train_gdln(dl, xor.LINEAR_GATES, steps=1200, lr=0.05)
        tt = flow_time(hist.steps, 0.05, 4, "haste_slowly", trained_on=MEAN_HALF)
        L = hist.loss[:, 0]
        a_half = (1 - np.sqrt(2 * 0.25)) / dl
        k = int(np.argmax(L < 0.25))
        # a0 fitted once per Delta from the time the loss crosses 1/4 (alignment transient)
        a0 = a_half / (np.exp(dl * tt[k]) * (1 - a_half * dl) + a_half * dl)
        pred = 0.5 * (1 - dl * mode_strength(tt, dl / 2, dl ** 2 / 2, a0))
        pred = pred * (1 - dl * mode_strength(tt, dl / 2, dl ** 2 / 2, a0))
        worst = max(worst, float(np.max(np.abs(pred[5:] - L[5:]))))
    # 0.01 absolute on L(0) = 1/2 (catalogue); GD at lr 0.4 is a coarse discretisation
    claim.holds(sym and worst < 0.01,
                f"sympy: 1/2 Tr Sy - Tr(W Syx^T) + 1/2 Tr(W Sx W^T) for W = a u v^T equals Eq. "
                f"(20), (21); (22) = 2 x (21), L(0) = 1/2, L(1/Delta) = 0; 2-pathway GDLN (8 units "
                f"each, lr 0.05 mean loss) vs Eq. (22), Delta 0.6, 1.4, a0 fitted: max |dL| "
                f"{worst:.3f} < 0.01 after step 5 (t/tau > 0.25)")


@pytest.mark.claim("MHS-C-Eq(23)")
def test_xor_gdln_loss_reaches_zero(claim):
    a, s, d = th.a, th.s, th.d
    syx, sx = checks.pathway_statistics(th.X, th.Y, (1, 0, 0, 0), th.N)
    s_, d_ = checks.mode_of(syx, sx)
    printed_end = checks.loss_at_plateau(th.LOSS_23, th.S_XOR, th.D_XOR_PRINTED, a, s, d)
    corrected_end = checks.loss_at_plateau(th.LOSS_23, th.S_XOR, th.D_XOR, a, s, d)
    hist, _ = xor.train_gdln(1.0, xor.XOR_GATES, steps=400)
    sim_end = float(hist.loss[-1, 0])
    printed_ok = sp.simplify(d_ - th.D_XOR_PRINTED) == 0 and printed_end == 0
    corrected_ok = (sp.simplify(s_ - th.S_XOR) == 0 and sp.simplify(d_ - th.D_XOR) == 0
                    and corrected_end == 0 and sim_end < 1e-6)
    claim.erratum(printed_ok, corrected_ok,
                  f"from the statistics: s = {s_} (printed ok), d = v^T Sx(1) v = {d_}; Eq. (23) at "
                  f"a* = s/d: printed d -> {printed_end}, corrected d -> {corrected_end}; trained "
                  f"XoR GDLN (Delta 1, 400 steps lr 0.4) ends at L = {sim_end:.1g}",
                  counterexample=f"printed d = 1/8 + Delta^2/16 gives L(a*) = {printed_end} < 0 for "
                                 f"every Delta; d = {d_} = 4 s^2")


@pytest.mark.claim("MHS-C-Eq(24-26)")
def test_crossover_is_sqrt_two_thirds(claim):
    gap, roots = checks.crossover_check(th.S_LIN, th.S_XOR, th.CROSSOVER, th.Delta)
    with mpmath.workdps(50):
        value = mpmath.sqrt(mpmath.mpf(2) / 3)
        digits = mpmath.nstr(value, 50)
    target = float(th.CROSSOVER)

    def sign_agrees(delta):
        diff = float(th.S_LIN.subs(th.Delta, delta) - th.S_XOR.subs(th.Delta, delta))
        return (np.sign(diff) == np.sign(delta - target) or abs(delta - target) < 1e-12), abs(diff)
    res = search(sign_agrees, examples=[dict(delta=0.0), dict(delta=target + 1e-9),
                                        dict(delta=target - 1e-9), dict(delta=10.0)],
                 delta=st.floats(0.0, 10.0))
    # exact time-to-criterion (L = 0.2) crossover with equal raw a0 (catalogue derivation)
    crosses = [_criterion_crossover(a0) for a0 in (1e-3, 1e-6, 1e-12)]
    approach = all(c > target for c in crosses) and crosses[0] > crosses[1] > crosses[2]
    claim.holds(gap < 1e-45 and roots == [th.CROSSOVER] and res.ok and approach,
                f"sympy roots of Eq. (24): {roots}; |s_lin - s_xor| at sqrt(2/3) = {digits} is "
                f"{gap:.1g} at 50 digits; " + res.evidence("sign(s_lin - s_xor) = sign(Delta - "
                "sqrt(2/3)), Delta in [0, 10]") + f"; time-to-L=0.2 crossover with equal a0 = "
                f"1e-3, 1e-6, 1e-12: {np.round(crosses, 4)} > sqrt(2/3), decreasing to it")


def _times(delta, a0, criterion=0.2):
    """Flow times (t/tau) for the linear and the XoR GDLN to reach the loss criterion."""
    rf = 1 - np.sqrt(2 * criterion)
    s_x = np.sqrt(1 / 8 + delta ** 2 / 16)
    t_xor = hitting_time(rf / (4 * s_x), s_x, 4 * s_x ** 2, a0)
    t_lin = hitting_time(rf / delta, delta / 2, delta ** 2 / 2, a0) if delta > 0 else np.inf
    return t_lin, t_xor


def _criterion_crossover(a0):
    from scipy.optimize import brentq
    return brentq(lambda dl: np.subtract(*_times(dl, a0)), 0.5, 3.0, xtol=1e-12)


@pytest.mark.claim("MHS-Fig2")
def test_relu_follows_the_faster_gated_network(claim, report_figure):
    import matplotlib.pyplot as plt
    deltas = np.round(np.linspace(0.0, 2.0, 21), 3)
    seeds = (0, 1, 2)
    hist, net, X, member_delta = xor.train_relu(deltas, seeds, steps=250)
    steps_to = xor.first_below(hist.loss, 0.2)
    t_relu = steps_to.reshape(len(deltas), len(seeds)).mean(1)
    # a0: the effective initial mode strength, fitted once at Delta = 0 (XoR only), reused
    from scipy.optimize import brentq
    a0 = brentq(lambda la: _times(0.0, 10 ** la)[1] - t_relu[0] * 0.4, -14, -1)
    a0 = 10 ** a0
    t_lin, t_xor = np.array([[_times(dl, a0)[i] / 0.4 for dl in deltas] for i in (0, 1)])
    fastest = np.minimum(t_lin, t_xor)
    away = np.abs(deltas - float(th.CROSSOVER)) > 0.15
    rel = np.abs(t_relu - fastest) / fastest
    # gating of the large-weight units: single-example vs linear (class) patterns
    pre = (net.weights[0] @ X) > 0                              # (K, H, 4)
    mass = (net.weights[0].norm(dim=2) * net.weights[1].norm(dim=1)).numpy()
    big = mass > 0.05 * mass.max(axis=1, keepdims=True)
    pat = pre.numpy()
    linear = ((pat == [0, 1, 1, 0]).all(-1) | (pat == [1, 0, 0, 1]).all(-1)) & big
    single = (pat.sum(-1) == 1) & big
    lin_share = (linear.sum(1) / np.maximum(big.sum(1), 1)).reshape(len(deltas), len(seeds)).mean(1)
    sgl_share = (single.sum(1) / np.maximum(big.sum(1), 1)).reshape(len(deltas), len(seeds)).mean(1)
    lo, hi = deltas < 0.6, deltas > 1.1
    switch = lin_share[lo].max() < 0.1 and lin_share[hi].min() > 0.5 and sgl_share[lo][1:].min() > 0.5
    # 10% on the time to L = 0.2 away from the crossover (catalogue tolerance)
    ok = rel[away].max() < 0.10 and switch
    fig, ax = plt.subplots(1, 2, figsize=(8, 3.6))
    ax[0].plot(deltas, t_lin, "-", color="tab:blue", label="linear GDLN (theory)")
    ax[0].plot(deltas, t_xor, "-", color="tab:orange", label="XoR GDLN (theory)")
    ax[0].plot(deltas, t_relu, "o", color="tab:green", ms=4, label="ReLU (sim, 3 seeds)")
    ax[0].axvline(float(th.CROSSOVER), ls="--", color="grey")
    ax[0].set(xlabel=r"$\Delta$", ylabel="steps to loss 0.2", ylim=(0, 160))
    ax[0].legend(fontsize=7)
    ax[1].plot(deltas, lin_share, "s", label="linear-gated units")
    ax[1].plot(deltas, sgl_share, "^", label="single-example units")
    ax[1].axvline(float(th.CROSSOVER), ls="--", color="grey")
    ax[1].set(xlabel=r"$\Delta$", ylabel="share of large units (sim)")
    ax[1].legend(fontsize=7)
    report_figure(fig, "Fig 2d: time to loss 0.2 vs margin; lines: linear/XoR GDLN closed forms "
                       "(a0 fitted at Delta = 0, corrected d of Eq. 23), markers: ReLU 3-128-1 nets "
                       "(lr 0.4, mean loss); right: gating pathway the ReLU units follow")
    claim.reproduced(ok, f"3-128-1 bias-free ReLU, lr 0.4 on the mean loss, init var 4e-8/128, "
                         f"{len(deltas)} Delta in [0, 2] x seeds {seeds} (one batched program): "
                         f"|T_ReLU - min(T_lin, T_xor)|/min max {rel[away].max():.3f} < 0.10 for "
                         f"|Delta - sqrt(2/3)| > 0.15 (near it: {rel[~away].max():.3f}); share of "
                         f"linear-gated units {lin_share[lo].max():.2f} (Delta < 0.6) -> "
                         f"{lin_share[hi].min():.2f} (Delta > 1.1); single-example share below "
                         f"0.6 >= {sgl_share[lo][1:].min():.2f}; fitted a0 {a0:.2g}")
