"""App A beyond the mode law (MHS-A-Eq(loss, MHS-A-SVD, MHS-A-CoV, MHS-A-NonDiag, MHS-A-C1,
MHS-A-C2, MHS-Fig7)."""
import numpy as np
import pytest
import sympy as sp
import torch

from numerics.closed_forms import hitting_time, mode_strength
from numerics.datasets import correlations, hierarchy, modes
from numerics.haste_slowly.gated import GatedNet, init_weights, train
from numerics.haste_slowly.metrics import crossing_time
from theory import mode_law as ml
from theory.conventions import SUM_HALF, flow_time, tau
from theory.haste_slowly import linear_background as th
from verify.haste_slowly import checks


def _linear_net(seed, sizes, std, N):
    W = init_weights([seed], list(zip(sizes[1:], sizes[:-1])), [std] * (len(sizes) - 1))
    return GatedNet(W, [np.ones((n, N)) for n in sizes[1:-1]])


@pytest.mark.claim("MHS-A-Eq(loss")
def test_learning_rules(claim):
    printed = checks.learning_rule_error(int(th.STEP_SIGN_PRINTED))
    corrected = checks.learning_rule_error(int(th.STEP_SIGN))
    clock = abs(tau(0.01, 9, "haste_slowly") - 1 / (9 * 0.01))
    # 1e-12: float64 autograd vs closed expressions
    claim.erratum(printed < 1e-12, corrected < 1e-12 and clock < 1e-12,
                  f"autograd of sum_i 1/2||Y_i - W2 W1 X_i||^2 (P 9, 4 in, 3 hidden, 5 out): "
                  f"+eps dL/dW vs the displayed rules rel err {printed:.2g}; -eps dL/dW "
                  f"{corrected:.1g}; CONVENTIONS tau = 1/(P eps) to {clock:.0e}",
                  counterexample=f"Delta W = +eps dL/dW is gradient ascent: opposite sign "
                                 f"(rel err {printed:.2g})")


@pytest.mark.claim("MHS-A-SVD")
def test_narrow_network_learns_the_top_modes(claim):
    X, Y = hierarchy(2)
    syx, sx = correlations(X, Y)
    U, S, V, D, _ = modes(syx, sx)
    net = _linear_net(0, (4, 2, 7), 1e-3, 4)
    train(net, X, Y, lr=0.05, steps=600, record_every=600)
    W = (net.weights[1] @ net.weights[0])[0].numpy()
    target = sum(S[a] / D[a] * np.outer(U[:, a], V[:, a]) for a in range(2))
    err = float(np.linalg.norm(W - target) / np.linalg.norm(target))
    # 1e-3 relative (catalogue); t/tau = 120 leaves the top-2 modes converged to ~1e-10
    claim.holds(err < 1e-3, f"4-2-7 linear net (n_h = 2 < rank 4) on the 4-item hierarchy, 600 "
                            f"GD steps lr 0.05 (1/2-sum): ||W2W1 - sum_(a<=2) (lambda/delta) u v^T||"
                            f"/||.|| = {err:.1g} < 1e-3")


@pytest.mark.claim("MHS-A-CoV")
def test_change_of_variables_diagonal(claim):
    rng = np.random.default_rng(8)
    m, d, h, r = 6, 5, 4, 3
    U = np.linalg.qr(rng.standard_normal((m, r)))[0]
    V = np.linalg.qr(rng.standard_normal((d, r)))[0]
    R = np.linalg.qr(rng.standard_normal((h, r)))[0]
    S, D = np.diag(rng.uniform(0.5, 2, r)), np.diag(rng.uniform(0.5, 2, r))
    w1, w2 = np.diag(rng.uniform(0.1, 1, r)), np.diag(rng.uniform(0.1, 1, r))
    W1, W2 = R @ w1 @ V.T, U @ w2 @ R.T
    E = U @ S @ V.T - W2 @ W1 @ V @ D @ V.T
    d1, d2 = W2.T @ E, E @ W1.T
    err = max(np.abs(d1 - R @ (w2 @ (S - w2 @ w1 @ D)) @ V.T).max(),
              np.abs(d2 - U @ (w1 @ (S - w2 @ w1 @ D)) @ R.T).max())
    # 1e-13: float64 products of O(1) matrices
    claim.holds(err < 1e-13, f"non-square U (6x3), V (5x3), R (4x3), diagonal Wbar: full flow "
                             f"equals R[W2bar(S - W2bar W1bar D)]V^T and U[W1bar(...)]R^T to "
                             f"{err:.1g}")


@pytest.mark.claim("MHS-A-NonDiag")
def test_reduction_without_shared_v(claim):
    printed = checks.nondiag_reduction_error(lambda w1, w2, M, D: w2 @ (M - w2 @ w1 @ D),
                                             lambda w1, w2, M, D: w1 @ (M - w2 @ w1 @ D))
    corrected = checks.nondiag_reduction_error(lambda w1, w2, M, D: w2.T @ (M - w2 @ w1 @ D),
                                               lambda w1, w2, M, D: (M - w2 @ w1 @ D) @ w1.T)
    claim.erratum(printed < 1e-12, corrected < 1e-12,
                  f"random non-commuting Sigma^yx = U S Vhat^T, Sigma^x = V D V^T, general Wbar "
                  f"(4x4): printed reduction rel err {printed:.2g}; transposes restored and W1bar^T "
                  f"on the right {corrected:.1g} (tol 1e-12)",
                  counterexample=f"seed 7, n = 4: printed right-hand sides differ from the rotated "
                                 f"gradient by {printed:.2g} (relative)")


def _fig7_run():
    X, Y = hierarchy(2)
    syx, sx = correlations(X, Y)
    U, S, V, D, _ = modes(syx, sx)
    net = _linear_net(1, (4, 16, 7), 1e-4, 4)
    rec = lambda n: {"prod": n.weights[1] @ n.weights[0]}
    hist = train(net, X, Y, lr=0.01, steps=2000, record_every=5, record=rec)
    tt = flow_time(hist.steps, 0.01, 4, "haste_slowly")
    proj = np.einsum("ma,tmn,na->ta", U, hist.records["prod"][:, 0], V)
    return tt, proj, U, S, V, D, hist


@pytest.mark.claim("MHS-A-C1", "MHS-Fig7")
def test_mode_strengths_follow_the_closed_form(claim, report_figure):
    import matplotlib.pyplot as plt
    tt, proj, U, S, V, D, hist = _fit = _fig7_run()
    full = np.einsum("ma,tmn,nb->tab", U, hist.records["prod"][:, 0], V)
    # modes 3 and 4 are degenerate (sigma = 1): only the split between distinct modes is defined
    distinct = np.abs(S[:, None] - S[None, :]) > 1e-9
    off_transient = float(np.max(np.abs(full[tt > 1][:, distinct])))
    off = float(np.max(np.abs(full[tt > 40][:, distinct])))
    plateau = S / D
    devs, curves = [], []
    for a in range(4):
        t_half = crossing_time(proj[:, a], tt, 0.5 * plateau[a])
        from scipy.optimize import brentq
        a0 = 10 ** brentq(lambda la: mode_strength(t_half, S[a], D[a], 10 ** la) - 0.5 * plateau[a],
                          -20, 0)
        th_curve = mode_strength(tt, S[a], D[a], a0)
        curves.append(th_curve)
        late = tt > t_half / 2
        devs.append(float(np.max(np.abs(proj[late, a] - th_curve[late])) / plateau[a]))
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for a in range(4):
        ax.plot(tt, curves[a], "-", color=f"C{a}", label=f"Eq. (7), mode {a + 1}")
        ax.plot(tt[::12], proj[::12, a], "o", ms=3, color=f"C{a}")
    ax.set(xlabel="t / tau", ylabel="mode strength u'W2W1v")
    ax.legend(fontsize=7)
    report_figure(fig, "Fig 7c: the 4-item hierarchy, 4-16-7 linear net (lr 0.01, 1/2-sum loss, "
                       "tau = 25 steps): mode strengths, Eq. (7) (lines, pi0 fitted per mode) vs "
                       "simulation (markers)")
    # 2% of the plateau after half the rise time (catalogue); off-diagonal 1e-3 once every mode
    # has risen (t/tau > 40; the slowest rises by t/tau ~ 30)
    claim.holds(max(devs) < 0.02 and off < 1e-3,
                f"4-16-7 linear net, init std 1e-4: |u_a'W v_b| (distinct modes) <= {off:.1g} for "
                f"t/tau > 40 (< 1e-3; {off_transient:.2g} during the rise, t/tau > 1); "
                f"mode strengths vs Eq. (7) max dev {max(devs):.3f} of the plateau (< 0.02) for "
                f"t > t_half/2; plateaus {np.round(plateau, 3)} = (sqrt 7, sqrt 3, 1, 1)")


@pytest.mark.claim("MHS-A-C2")
def test_time_course_depends_on_delta(claim):
    printed = sp.simplify(th.T_FRACTION.diff(ml.d))
    s, a0, f = 0.7, 1e-3, 0.9
    times = [float(th.T_FRACTION.subs({ml.tau: 1, ml.s: s, ml.a0: a0, th.f: f, ml.d: d}))
             for d in (0.5, 2.0)]
    numeric = [float(hitting_time(f * s / d, s, d, a0)) for d in (0.5, 2.0)]
    tt = np.linspace(12, 16, 5)
    rates = [np.polyfit(tt, np.log(s / d - mode_strength(tt, s, d, a0)), 1)[0] for d in (0.5, 2.0)]
    corrected_ok = (np.allclose(times, numeric, rtol=1e-10)
                    and np.allclose(rates, -2 * s, rtol=1e-4))  # fit on t in [12, 16]: O(pi0 d/s e^{-2st}) bias
    claim.erratum(printed == 0, corrected_ok,
                  f"d t_f / d delta = {printed} (sympy); s = {s}, pi0 = {a0}: time to 90% of the "
                  f"plateau {np.round(times, 3)} for delta = 0.5, 2 (hitting_time agrees: "
                  f"{np.round(numeric, 3)}); late exponential rates {np.round(rates, 6)} = -2 lambda "
                  "for both",
                  counterexample=f"lambda = 0.7, pi0 = 1e-3: t_90% = {times[0]:.3f} (delta 0.5) vs "
                                 f"{times[1]:.3f} (delta 2)")
