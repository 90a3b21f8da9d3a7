"""Sec 5 / Apps F-G: C = 3, 4, 5 contexts (MHS-S5-*, MHS-F-*, MHS-Fig5, MHS-Disc).  Runs:
numerics.haste_slowly.experiments (ci: lr 2e-3 x 4000 steps; ReLU seed 0)."""
import numpy as np
import pytest
import sympy as sp
from scipy.optimize import brentq

from numerics.closed_forms import mode_strength
from numerics.datasets import modes
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import experiments as E
from numerics.haste_slowly import reln
from numerics.haste_slowly.metrics import crossing_time, timing_gap
from theory.conventions import flow_time
from theory.haste_slowly import contexts as th
from verify.checks.symbolic import is_zero, ode_residual
from verify.haste_slowly import checks

CS = (3, 4, 5)
TIMING_TOL = 0.10   # relative, on times to loss levels / half-rise (as Sec 4)


def _fit_a0(tt, series, s, d, level=0.5):
    """Initial strength a0 making the closed form cross level x s/d when ``series`` does."""
    t_half = crossing_time(series, tt, level * s / d)
    f = lambda la: mode_strength(t_half, s, d, 10 ** la) - level * s / d
    return 10 ** brentq(f, -300, 0) if f(-300) < 0 else 1e-300


def _rise(series, tt, plateau):
    """Time from 10% to 90% of the plateau (independent of the initial strength)."""
    return crossing_time(series, tt, 0.9 * plateau) - crossing_time(series, tt, 0.1 * plateau)


@pytest.mark.claim("MHS-S5-Data")
def test_context_datasets(claim):
    facts = []
    ok = True
    for C in CS:
        X, Y = ds.contexts(C)
        R = Y - Y @ np.linalg.pinv(X) @ X
        L0, plateau = 0.5 * np.sum(Y ** 2), 0.5 * np.sum(R ** 2)
        ok &= X.shape == (8 + C, 8 * C) and Y.shape == (15 * (C + 1), 8 * C)
        ok &= abs(L0 - 32 * C) < 1e-12 and abs(plateau - (C - 1) * 17 / 2) < 1e-9
        facts.append(f"C={C}: X {X.shape}, Y {Y.shape}, L(0) {L0:.0f}, plateau {plateau:.1f}")
    claim.defined(ok, "; ".join(facts) + " (= 32C and (C-1) 17/2; App F/G's 'Y in R^{2N-1 x N}', "
                                         "'X in R^{N+3 x N}' are inconsistent with N datapoints, "
                                         "MHS-E8); context scale of the code 1, 1.1, 1.35")


@pytest.mark.claim("MHS-S5-C1", "MHS-Disc")
def test_relu_units_serve_c_minus_one_contexts(claim):
    facts, ok, mean_ctx = [], True, []
    for C in CS:
        r = E.relu_run(C, seeds=(0,))
        pat, mass = r.hist.records["patterns"][-1, 0], r.hist.records["mass"][-1, 0]
        maj = reln.mass_shares(reln.context_usage(pat, C), mass, range(C + 1))
        anyc = reln.mass_shares(reln.context_usage(pat, C, majority=0), mass, range(C + 1))
        top = max(range(1, C), key=lambda k: maj[k])
        ok &= top == C - 1 and anyc[1] < 0.02
        mean_ctx.append(sum(k * v for k, v in maj.items()))
        facts.append(f"C={C}: mass on units on (item majority) in k contexts "
                     + ", ".join(f"{k}: {maj[k]:.2f}" for k in range(1, C + 1))
                     + f"; confined to one context {anyc[1]:.3f}")
    grows = all(np.diff(mean_ctx) > 0.5)
    # the single- vs (C-1)-context GDLN loss comparison is run for C = 3 in MHS-S4-C5/MHS-Fig4
    claim.reproduced(ok and grows,
                     "; ".join(facts) + f"; the most weight sits on (C-1)-context units for every "
                     f"C; mass-weighted contexts per unit {np.round(mean_ctx, 2)} grows with C "
                     "(reuse)")


@pytest.mark.claim("MHS-F-Common")
def test_common_pathway_closed_form(claim):
    worst_p, worst_c, spectra = 0.0, 0.0, True
    table = {3: (sp.Rational(55, 48), sp.Rational(11, 24)), 4: (sp.Rational(225, 256), sp.Rational(3, 8)),
             5: (sp.Rational(117, 160), sp.Rational(13, 40))}
    for C in CS:
        Xu, Yu = ds.contexts(C, 1.0)
        _, S1, _, D1, off = modes(Yu @ Xu.T / (8 * C), Xu @ Xu.T / (8 * C))
        spectra &= abs(S1[0] ** 2 - float(table[C][0])) < 1e-12 and abs(D1[0] - float(table[C][1])) < 1e-12
        X, Y = ds.contexts(C)
        N = X.shape[1]
        U, S, V, D, _ = modes(Y @ X.T / N, X @ X.T / N)
        run = E.reln_run(C)
        tt = flow_time(run.hist.steps, E.LR, N, "haste_slowly")
        proj = np.einsum("ma,tmn,na->ta", U[:, :3], run.hist.records["prod"][:, 0, 0], V[:, :3])
        for scale, name in ((N, "printed"), (1, "corrected")):
            # printed: Sigma* = Y X^T (and X X^T) unnormalised with tau = 1/(N eps); the rise
            # duration (10% -> 90% of the plateau) depends on the rate alone, not on pi0
            s_, d_ = S * scale, D * scale
            a0 = _fit_a0(tt, proj[:, 0], s_[0], d_[0])
            err = max(abs(_rise(proj[:, a], tt, S[a] / D[a])
                          - _rise(mode_strength(tt, s_[a], d_[a], a0), tt, S[a] / D[a]))
                      / _rise(proj[:, a], tt, S[a] / D[a]) for a in range(3))
            if name == "printed":
                worst_p = max(worst_p, err)
            else:
                worst_c = max(worst_c, err)
    claim.erratum(worst_p < TIMING_TOL, worst_c < TIMING_TOL and spectra,
                  f"common module of the trained ReLN (split-gradient, C = 3, 4, 5) projected on "
                  f"u_a, v_a; modes 1-3, time from 10% to 90% of the plateau, rel err "
                  f"with Sigma* = Y X^T as printed {worst_p:.2f}, with (1/N) Y X^T {worst_c:.3f} "
                  f"(tol 0.10); unit-scale spectra S_1^2 = 55/48, 225/256, 117/160 and D_1 = 11/24, "
                  f"3/8, 13/40 reproduced: {spectra}",
                  counterexample=f"unnormalised Sigma* with tau = 1/(N eps): modes rise N times too "
                                 f"early (rel err {worst_p:.2f})")


@pytest.mark.claim("MHS-F-Eq(race-overlap)")
def test_rho_and_race_with_overlaps(claim):
    rhos = {}
    for C in CS:
        X, Y = ds.contexts(C)
        rho = checks.overlap_and_rho(X, Y, C)[1]
        rhos[C] = float(np.mean(np.diag(rho)))
        rhos[C] = (rhos[C], float(np.abs(rho - th.RHO_PRINTED[C] * np.eye(8)).max()))
    race_err = {C: checks.data_race_error(C)[0] for C in CS}
    printed_eq6 = checks.data_race_error(3, np.ones((3, 3, 7)))[0]
    ok = all(v[1] < 1e-12 for v in rhos.values()) and max(race_err.values()) < 1e-6
    claim.holds(ok, f"Sigma^x(j, p) = rho Sigma^x(p, p) from the gates: rho = "
                    + ", ".join(f"C={C}: {v[0]:.4f} (err {v[1]:.0e})" for C, v in rhos.items())
                    + f" = (C-2)/(C-1) as printed; full matrix flow of the C contextual pathways on "
                      f"the residual statistics (aligned, symmetric init) vs the race with the "
                      f"data's overlaps: max rel err " + ", ".join(
                          f"C={C}: {e:.1g}" for C, e in race_err.items()) + f" (tol 1e-6); without "
                      f"the overlaps (Eq. 6 as printed), C = 3: {printed_eq6:.2f}")


@pytest.mark.claim("MHS-F-Overlap")
def test_output_overlaps(claim):
    errs_p = {C: checks.overlap_error(th.OVERLAP_PRINTED, C, *ds.contexts(C)) for C in CS}
    errs_c = {C: checks.overlap_error({C: th.OVERLAP.subs(th.C, C)}, C, *ds.contexts(C)) for C in CS}
    values = {C: round(float(np.diag(checks.overlap_and_rho(*ds.contexts(C), C)[0])[0]), 6) for C in CS}
    # 1e-12: exact rational data, float64 SVD
    claim.erratum(max(errs_p.values()) < 1e-12, max(errs_c.values()) < 1e-12,
                  f"U_0^T U_1 from the data (App F recipe, shared-V basis, 7 modes): {values}; max "
                  f"err vs printed {max(errs_p.values()):.3f}, vs -1/(C-1) {max(errs_c.values()):.1g}",
                  counterexample=f"C = 4: U^T U = {values[4]} I, printed -1/6; C = 5: {values[5]} I, "
                                 "printed -1/12")


@pytest.mark.claim("MHS-F-Coef")
def test_effective_coefficient(claim):
    coefs, recon = {}, 0.0
    for C in CS:
        X, Y = ds.contexts(C)
        O, rho, S0, D0 = checks.overlap_and_rho(X, Y, C)
        coef = 1 + float(rho[0, 0]) * (C - 1) * float(O[0, 0])
        coefs[C] = (coef, abs(coef - float(th.COEF_PRINTED[C])))
        # at the fixed point B* = (C-1) S / D of every pathway, the gated contextual outputs
        # U_p B* V^T x sum to the common pathway's residual
        syx, _ = checks.contextual_statistics(X, Y, C)
        _, S, Vt = np.linalg.svd(syx[0])
        V0 = Vt[:7].T
        G = ds.context_gates(C, [set(range(C)) - {c} for c in range(C)])
        out = sum(((syx[p] @ V0 / S[:7]) @ np.diag((C - 1) * S[:7] / D0) @ V0.T @ X[:8]) * G[p]
                  for p in range(C))
        R = Y - Y @ np.linalg.pinv(X) @ X
        recon = max(recon, float(np.abs(out - R).max()))
    sym = sp.simplify(th.COEF_FROM_RACE.subs({th.rho: (th.C - 2) / (th.C - 1), th.O: th.OVERLAP})
                      - 1 / (th.C - 1)) == 0
    ok = all(v[1] < 1e-12 for v in coefs.values()) and sym and recon < 1e-10
    claim.holds(ok, "1 + rho (C-1) U_p^T U_j from the data: " + ", ".join(
        f"C={C}: {v[0]:.4f}" for C, v in coefs.items()) + f" = printed 1/(C-1); sympy: 1 + "
        f"(C-2)/(C-1) (C-1) (-1/(C-1)) = 1/(C-1) for all C: {sym}; gated outputs at B* = (C-1)S/D "
        f"reconstruct the residual to {recon:.1g}")


@pytest.mark.claim("MHS-F-Balanced")
def test_balanced_two_layer_pathway(claim):
    b0, b1 = sp.symbols("b_0 b_1", positive=True)
    S, D, kappa = th.S, th.D, th.kappa
    bracket = S - kappa * b1 * b0 * D
    db0, db1 = b1 * bracket, bracket * b0
    product = sp.expand(db1 * b0 + b1 * db0)
    balanced = is_zero(product.subs(b1, b0) - th.BALANCED_RHS.subs(th.B, b0 ** 2))
    conserved = is_zero(2 * b1 * db1 - 2 * b0 * db0)
    claim.holds(balanced and conserved,
                f"sympy: d(b1 b0) = b1' b0 + b1 b0' = 2B(S - kappa B D) at b0 = b1: {balanced}; "
                f"d/dt (b1^2 - b0^2) = 0 exactly: {conserved}")


@pytest.mark.claim("MHS-F-Closed")
def test_contextual_closed_form(claim):
    C_, t = th.C, th.t
    res_p = sp.simplify(ode_residual(th.CLOSED_PRINTED, th.CONTEXTUAL_RHS / th.tau, t, th.B))
    res_c = ode_residual(th.CLOSED_CORRECTED, th.CONTEXTUAL_RHS / th.tau, t, th.B)
    init_p = sp.simplify(th.CLOSED_PRINTED.subs(t, 0) / th.B0)
    corrected_sym = is_zero(res_c) and is_zero(th.CLOSED_CORRECTED.subs(t, 0) - th.B0)
    # numerics: the mean top singular value of the C contextual modules of the trained ReLN
    worst = 0.0
    for C in CS:
        X, Y = ds.contexts(C)
        N = X.shape[1]
        _, _, S0, D0 = checks.overlap_and_rho(X, Y, C)
        run = E.reln_run(C)
        tt = flow_time(run.hist.steps, E.LR, N, "haste_slowly")
        mean_top = run.hist.records["sv"][:, 0, 1:, 0].mean(1)
        K = (C - 1) * S0[0] / D0
        b0 = _fit_a0(tt, mean_top, S0[0], D0 / (C - 1), level=0.25)
        pred = mode_strength(tt, S0[0], D0 / (C - 1), b0)
        t_sim, t_th = crossing_time(mean_top, tt, 0.75 * K), crossing_time(pred, tt, 0.75 * K)
        worst = max(worst, abs(t_sim - t_th) / t_th, abs(mean_top[-1] - K) / K)
    claim.erratum(is_zero(res_p) and init_p == 1, corrected_sym and worst < TIMING_TOL,
                  f"sympy residual of the printed form in tau B' = 2B(S - BD/(C-1)): "
                  f"{'0' if is_zero(res_p) else 'nonzero'}, printed B(0)/B0 = {init_p}; corrected "
                  f"form residual 0 and B(0) = B0: {corrected_sym}; trained ReLN (C = 3, 4, 5): mean "
                  f"top contextual singular value vs corrected form (B0 fitted at 25% of K, "
                  f"checked at 75% and at the end) max rel dev {worst:.3f} (tol 0.10)",
                  counterexample=f"printed: B(0) = {init_p} B0 and exp(+2St/tau) sends B -> 0")


@pytest.mark.claim("MHS-Fig5")
def test_effect_of_the_number_of_contexts(claim, report_figure):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 3, figsize=(8, 4.5))
    gaps, devs = {}, {}
    for col, C in enumerate(CS):
        X, Y = ds.contexts(C)
        N = X.shape[1]
        L0 = 0.5 * np.sum(Y ** 2)
        relu, run = E.relu_run(C, seeds=(0,)), E.reln_run(C)
        ep = E.epochs(run.hist.steps)
        tt = flow_time(run.hist.steps, E.LR, N, "haste_slowly")
        U, S, V, D, _ = modes(Y @ X.T / N, X @ X.T / N)
        proj = np.einsum("ma,tmn,na->ta", U[:, :3], run.hist.records["prod"][:, 0, 0], V[:, :3])
        a0 = _fit_a0(tt, proj[:, 0], S[0], D[0])
        _, _, S0, D0 = checks.overlap_and_rho(X, Y, C)
        mean_top = run.hist.records["sv"][:, 0, 1:, 0].mean(1)
        b0 = _fit_a0(tt, mean_top, S0[0], D0 / (C - 1), level=0.25)
        # closed-form loss: common modes + contextual modes (the data's full spectrum)
        common_th = np.stack([mode_strength(tt, S[a], D[a], a0) for a in range(len(S))], 1)
        ctx_th = mode_strength(tt[:, None], S0[None], D0 / (C - 1), b0)
        L_th = (0.5 * np.sum(Y ** 2) - 0.5 * N * np.sum(2 * S * common_th - D * common_th ** 2, 1)
                - 0.5 * N * C * np.sum(2 * S0 * ctx_th - D0 / (C - 1) * ctx_th ** 2, 1)
                * 1.0)
        gaps[C] = timing_gap(relu.hist.loss[:, 0], run.hist.loss[:, 0], ep, L0)
        devs[C] = timing_gap(L_th, run.hist.loss[:, 0], ep, L0)
        ax[0, col].plot(ep, L_th, "-", color="k", label="closed form")
        ax[0, col].plot(ep[::8], relu.hist.loss[::8, 0], "o", ms=2.5, label="ReLU")
        ax[0, col].plot(ep[::8], run.hist.loss[::8, 0], "x", ms=2.5, label="ReLN")
        ax[0, col].set(title=f"C = {C}", yscale="log", xlabel="epoch")
        for a in range(3):
            ax[1, col].plot(ep, common_th[:, a], "-", color=f"C{a}")
            ax[1, col].plot(ep[::8], proj[::8, a], "o", ms=2, color=f"C{a}")
        ax[1, col].plot(ep, ctx_th[:, 0], "-", color="grey")
        ax[1, col].plot(ep[::8], mean_top[::8], "^", ms=2, color="grey")
        ax[1, col].set(xlabel="epoch")
    ax[0, 0].set_ylabel("loss (1/2 sum)")
    ax[1, 0].set_ylabel("mode strength")
    ax[0, 0].legend(fontsize=6)
    report_figure(fig, "Fig 5: C = 3, 4, 5 contexts. Top: closed-form loss (line; common modes "
                       "Eq. 7, contextual modes corrected F-Closed, pi0/B0 fitted) vs ReLU and ReLN "
                       "(markers). Bottom: common-pathway modes 1-3 (colours) and mean top "
                       "contextual singular value (grey), closed form (lines) vs ReLN (markers)")
    claim.reproduced(max(gaps.values()) < TIMING_TOL and max(devs.values()) < 0.2,
                     "timing gap to the loss levels, ReLU vs ReLN: " + ", ".join(
                         f"C={C}: {g:.1%}" for C, g in gaps.items()) + " (criterion < 10%); closed-form "
                     "loss vs ReLN: " + ", ".join(f"C={C}: {d:.1%}" for C, d in devs.items())
                     + " (< 20%: two fitted initial strengths, GD at lr 2e-3 vs flow)")
