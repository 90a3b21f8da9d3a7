"""Sec 4 / Apps D-E: the 3-context task, the ReLN against a trained ReLU net, Lemma 4.1,
Proposition 4.2 and its supporting results (MHS-S4-*, MHS-Lem4.1, MHS-Prop4.2, MHS-E-*,
MHS-Fig3, MHS-Fig4, MHS-C3.2).  Runs: numerics.haste_slowly.experiments (ci: lr 2e-3 x 4000
steps = the paper's 8000 epochs at lr 1e-3 in t/tau)."""
import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import experiments as E
from numerics.haste_slowly import lemma, reln
from numerics.haste_slowly.metrics import LEVELS, crossing_time, timing_gap
from verify.haste_slowly import checks
from verify.properties import search

X, Y = ds.section4()
L0 = 0.5 * float(np.sum(Y ** 2))


def _loss_gap(a, b):
    """(max over a's seeds of the relative timing gap to the loss levels, sup_t |L_a - L_b|/L(0))
    between runs a and b (b's first member)."""
    ep = E.epochs(a.hist.steps)
    gap = max(timing_gap(a.hist.loss[:, k], b.hist.loss[:, 0], ep, L0)
              for k in range(a.hist.loss.shape[1]))
    return gap, float(np.abs(a.hist.loss - b.hist.loss[:, :1]).max() / L0)


#: 10%: relative tolerance on the time to each loss level (as for Fig 2's time to criterion);
#: the 700-unit ReLU and the 100-unit pathways start from different effective init strengths
TIMING_TOL = 0.10


def _rdm(H):
    """(K, N, N) Euclidean distances between the columns (datapoints) of hidden activity."""
    sq = (H ** 2).sum(-2)
    return np.sqrt(np.maximum(sq[..., :, None] + sq[..., None, :] - 2 * H.transpose(0, 2, 1) @ H, 0))


@pytest.mark.claim("MHS-S4-Data")
def test_contextual_dataset(claim):
    R = Y - Y @ np.linalg.pinv(X) @ X
    one_hot = (X[:8].sum(0) == 1).all() and (X[8:].sum(0) == 1).all()
    every = {(int(np.argmax(X[:8, i])), int(np.argmax(X[8:, i]))) for i in range(24)}
    ctx = ds.context_of(3)
    own = all(np.all(Y[15 + 15 * c:30 + 15 * c][:, ctx != c] == 0) for c in range(3))
    plateau = 0.5 * float(np.sum(R ** 2))
    claim.defined(one_hot and len(every) == 24 and own and (Y >= 0).all()
                  and abs(L0 - 105.623) < 1e-9 and abs(plateau - 16.5084333) < 1e-6,
                  f"X (11, 24) one-hot item (+) context, all 24 (item, context) pairs; Y (60, 24) "
                  f">= 0, context block c zero off context c; L(0) = {L0:.3f}, least-squares "
                  f"plateau {plateau:.4f} (catalogue 105.623, 16.508)")


@pytest.mark.claim("MHS-S4-ReLN")
def test_reln_structure_and_training_variants(claim):
    split, joint = E.reln_run(), E.reln_run(split=False)
    net = split.net
    gates, mask = net.gates[0].numpy(), net.masks[0].numpy()
    um = split.unit_module
    ctx = ds.context_of(3)
    structure = (gates[um == 0] == 1).all() and (mask[um == 0] == 1).all()
    for m in range(1, 4):
        off = [c for c in range(3) if not gates[um == m][0][ctx == c].any()]
        structure &= len(off) == 1 and (mask[um == m][:, 8:] == 0).all()
    diff = float(np.max(np.abs(split.hist.loss[:, 0] - joint.hist.loss[:, 0])))
    diff_single = float(np.max(np.abs(E.reln_run(k=1).hist.loss[:, 0]
                                      - E.reln_run(k=1, split=False).hist.loss[:, 0])))
    claim.defined(structure, f"common pathway: always on, all 11 inputs; 3 contextual pathways: "
                             f"each off in exactly one context, item inputs only; split-gradient "
                             f"(code) vs joint GD (Eq. 2) loss curves differ by at most {diff:.3f} "
                             f"(L(0) = {L0:.1f}); for the single-context GDLN by {diff_single:.3f}")


@pytest.mark.claim("MHS-S4-C1")
def test_relu_loss_and_outputs_match_the_reln(claim):
    relu, rel = E.relu_run(), E.reln_run()
    gap, sup = _loss_gap(relu, rel)
    idx = [int(np.argmin(np.abs(E.epochs(relu.hist.steps) - e))) for e in (1000, 4000, 8000)]
    out_err = max(float(np.linalg.norm(relu.hist.records["out"][i, k] - rel.hist.records["out"][i, 0])
                        / np.linalg.norm(Y)) for i in idx for k in range(relu.hist.loss.shape[1]))
    # 10% of ||Y|| (catalogue): inits are random, agreement cannot be exact
    claim.reproduced(gap < TIMING_TOL and out_err < 0.1,
                     f"ReLU 11-700-60 (seed 0) vs 4-pathway ReLN (split-gradient): epochs to "
                     f"reach L = {LEVELS} x L(0) differ by at most {gap:.1%} (< 10%); sup_t |dL|/"
                     f"L(0) = {sup:.3f} (during the steep first drop); ||Y_relu - Y_reln||/||Y|| at "
                     f"epochs 1000, 4000, "
                     f"8000 max {out_err:.3f} < 0.1")


@pytest.mark.claim("MHS-S4-C2")
def test_latent_geometry_matches(claim, report_figure):
    import matplotlib.pyplot as plt
    from sklearn.manifold import MDS
    relu, rel = E.relu_run(), E.reln_run()
    ep = E.epochs(relu.hist.steps)
    iu = np.triu_indices(24, 1)
    corr, times = [], np.flatnonzero(ep >= 500)[::4]
    for i in times:
        a = _rdm(relu.hist.records["hidden"][i])
        b = _rdm(rel.hist.records["hidden"][i])[0]
        corr.append(min(np.corrcoef(a[k][iu], b[iu])[0, 1] for k in range(len(a))))
    corr = np.array(corr)
    below = ep[times][corr <= 0.95]
    # MDS as in the released code (stacked over time, random_state 42), on 6 sample times
    sample = np.flatnonzero(ep >= 500)[::32]
    fig, ax = plt.subplots(1, 3, figsize=(8, 3.0))
    for j, (name, H) in enumerate((("ReLU", relu.hist.records["hidden"][sample, 0]),
                                   ("ReLN", rel.hist.records["hidden"][sample, 0]))):
        pts = H.transpose(0, 2, 1).reshape(-1, H.shape[1])
        emb = MDS(n_components=2, random_state=42, normalized_stress="auto", init="random",
                  n_init=1).fit_transform(pts).reshape(len(sample), 24, 2)
        for c in range(3):
            ax[j].plot(emb[:, c * 8:(c + 1) * 8, 0], emb[:, c * 8:(c + 1) * 8, 1], ".",
                       color=f"C{c}", ms=3)
        ax[j].set(title=f"{name} latents (MDS)", xticks=[], yticks=[])
    ax[2].plot(ep[times], corr, "o", ms=3)
    ax[2].axhline(0.95, ls="--", color="grey")
    ax[2].set(xlabel="epoch", ylabel="RDM correlation ReLU-ReLN")
    report_figure(fig, "Fig 4c: MDS of hidden representations over training (simulation, colour "
                       "= context, epochs 500-8000) for the ReLU net and the ReLN, and the "
                       "correlation of their 24x24 representational distance matrices")
    # 0.95 Pearson between RDMs (catalogue; MDS itself is defined only up to rotation)
    claim.reproduced(min(corr) > 0.95,
                     f"Pearson correlation of the 24x24 hidden-representation RDMs, ReLU (700 units) "
                     f"vs ReLN (400 units), every 200 epochs from 500 to 8000: min "
                     f"{corr.min():.3f} (at epoch {ep[times][np.argmin(corr)]:.0f}), median "
                     f"{np.median(corr):.3f}; <= 0.95 from epoch "
                     f"{below.min() if below.size else 'never'} on (criterion > 0.95 throughout)")


@pytest.mark.claim("MHS-S4-C3")
def test_no_context_specific_neurons(claim):
    relu = E.relu_run()
    pat, mass = relu.hist.records["patterns"][-1], relu.hist.records["mass"][-1]
    confined = reln.context_usage(pat, 3, majority=0)
    shares = [reln.mass_shares(confined[k], mass[k], (1, 2, 3)) for k in range(1)]
    single = max(s[1] for s in shares)
    # catalogue: context-specific share < 2% of the weight mass (units > 1% of the max mass)
    claim.reproduced(single < 0.02,
                     f"weight-mass share of ReLU units active in exactly 1 / 2 / 3 contexts "
                     f"(any item on) after 8000 epochs, seed 0: "
                     + "; ".join(f"{s[1]:.3f} / {s[2]:.3f} / {s[3]:.3f}" for s in shares)
                     + f"; context-specific {single:.3f} < 0.02")


@pytest.mark.claim("MHS-C3.2")
def test_few_gating_patterns_make_modules(claim):
    relu, rel = E.relu_run(), E.reln_run()
    distinct_reln = len({tuple(g) for g in rel.net.gates[0].numpy()})
    pat, mass = relu.hist.records["patterns"][-1][0], relu.hist.records["mass"][-1][0]
    big = mass > 0.01 * mass.max()
    distinct_relu = len({tuple(p) for p in pat[big]})
    claim.defined(distinct_reln == 4, f"the ReLN has {distinct_reln} unique gating patterns over "
                                      f"400 units (the goal); the trained ReLU net's {big.sum()} "
                                      f"large units show {distinct_relu} distinct exact patterns, "
                                      "so modules need clustering (App B)")


@pytest.mark.claim("MHS-S4-C4")
def test_reln_gating_constant_from_the_start(claim):
    relu, rel = E.relu_run(), E.reln_run()
    ep = E.epochs(relu.hist.steps)
    gap, _ = _loss_gap(relu, rel)
    pats, mass = relu.hist.records["patterns"], relu.hist.records["mass"][-1]
    w = mass * (mass > 0.01 * mass.max(axis=1, keepdims=True))
    flips = {e: float(((w * (pats[np.argmin(np.abs(ep - e))] != pats[-1]).mean(-1)).sum()
                       / w.sum())) for e in (1000, 4000)}
    # the claim is about the ReLN: gates fixed at t = 0 must suffice to track the ReLU loss
    # (as MHS-S4-C1); the ReLU units' own pattern drift is reported
    claim.reproduced(gap < TIMING_TOL,
                     f"ReLN with gates fixed from t = 0 tracks the ReLU loss: times to the loss "
                     f"levels differ by at most {gap:.1%} (< 10%); the ReLU units' own binary patterns still "
                     f"differ from their final ones on a mass-weighted {flips[1000]:.0%} of "
                     f"datapoints at epoch 1000, {flips[4000]:.0%} at 4000")


@pytest.mark.claim("MHS-S4-C5", "MHS-Fig4")
def test_pathway_singular_values_and_losses(claim, report_figure):
    import matplotlib.pyplot as plt
    from numerics.datasets import modes
    from numerics.closed_forms import mode_strength
    from theory.conventions import flow_time
    relu, rel, single = E.relu_run(), E.reln_run(), E.reln_run(k=1)
    ep = E.epochs(rel.hist.steps)
    tt = flow_time(rel.hist.steps, E.LR, 24, "haste_slowly")
    U, S, V, D, _ = modes(Y @ X.T / 24, X @ X.T / 24)
    sv = rel.hist.records["sv"][:, 0]                       # (T, modules, 11)
    common = np.einsum("ma,tmn,na->ta", U[:, :4], rel.hist.records["prod"][:, 0, 0], V[:, :4])
    # pi0 fitted once (top mode, half-way time); the other modes use the same pi0
    half = int(np.argmax(common[:, 0] > 0.5 * S[0] / D[0]))
    from scipy.optimize import brentq
    a0 = 10 ** brentq(lambda la: mode_strength(tt[half], S[0], D[0], 10 ** la) - 0.5 * S[0] / D[0],
                      -20, -1)
    theory = np.stack([mode_strength(tt, S[a], D[a], a0) for a in range(4)], 1)
    t_half_sim = [crossing_time(common[:, a], ep, 0.5 * S[a] / D[a]) for a in range(4)]
    t_half_th = [crossing_time(theory[:, a], ep, 0.5 * S[a] / D[a]) for a in range(4)]
    rel_t = max(abs(a - b) / b for a, b in zip(t_half_sim, t_half_th))
    ctx_growth = float(np.min(sv[-1, 1:, 0] / sv[0, 1:, 0]))
    d_relu, _ = _loss_gap(relu, rel)
    d_single, _ = _loss_gap(relu, single)
    fig, ax = plt.subplots(1, 2, figsize=(8, 3.6))
    ax[0].plot(ep, relu.hist.loss[:, 0], "-", color="k", label="ReLU")
    ax[0].plot(ep[::8], rel.hist.loss[::8, 0], "o", ms=3, label="ReLN (common + 2-of-3)")
    ax[0].plot(ep[::8], single.hist.loss[::8, 0], "x", ms=3, label="GDLN single-context")
    ax[0].set(xlabel="epoch", ylabel="loss (1/2 sum)", yscale="log")
    ax[0].legend(fontsize=7)
    for a in range(4):
        ax[1].plot(ep, theory[:, a], "-", color=f"C{a}")
        ax[1].plot(ep[::6], common[::6, a], "o", ms=2.5, color=f"C{a}")
    for m in range(1, 4):
        ax[1].plot(ep[::6], sv[::6, m, 0], "^", ms=2.5, color="grey")
    ax[1].set(xlabel="epoch", ylabel="mode strength u'Wv / singular value")
    report_figure(fig, "Fig 4a/b: loss of the ReLU net (line) vs the ReLN and the single-context "
                       "GDLN (markers); right: common-pathway singular values, closed form Eq. (7) "
                       "(lines, one fitted pi0) vs the trained ReLN (circles), contextual modules' "
                       "top singular value (grey triangles)")
    # 10% on the half-rise epoch: lr 2e-3 GD runs ~5% behind the flow, and Sec 4 data are only
    # approximately mutually diagonalisable (Asm 2.1)
    ok_c5 = rel_t < 0.10 and ctx_growth > 1e3
    ok_f4 = d_relu < TIMING_TOL and d_single > TIMING_TOL
    claim.reproduced(ok_c5 and ok_f4,
                     f"common pathway top-4 modes: half-rise epochs sim {np.round(t_half_sim)} vs "
                     f"closed form {np.round(t_half_th)} (max rel dev {rel_t:.3f} < 0.10); "
                     f"contextual modules' top singular value grows x{ctx_growth:.2g} (> 1e3); "
                     f"timing gap to the loss levels: ReLU vs ReLN {d_relu:.1%} (< 10%), vs "
                     f"single-context GDLN {d_single:.1%} (> 10%)")


@pytest.mark.claim("MHS-Lem4.1")
def test_implementable_gatings(claim):
    cases = {(2, 2): None, (2, 3): None, (3, 3): None}
    beyond, exact = {}, True
    for n, C in cases:
        pats = lemma.enumerate_patterns(n, C)
        real = [p for p, ok in pats if ok]
        beyond[(n, C)] = (len(pats), len(real), sum(not lemma.lemma_form(p) for p in real))
        exact &= all(ok == (not lemma.has_xor_submatrix(p)) for p, ok in pats)
    xor_block = np.array([[0, 1], [1, 0]])
    proof_core = not lemma.realisable(xor_block) and not lemma.realisable(xor_block, bias=True)
    stair = np.array([[1, 1], [1, 0]])
    claim.erratum(all(v[2] == 0 for v in beyond.values()), exact and proof_core,
                  f"LP over all patterns (items x contexts: patterns, realisable, realisable but not "
                  f"context-/item-consistent/single-point): {beyond}; realisable <=> no 2x2 XOR "
                  f"submatrix in every case: {exact}; App D's XOR pattern infeasible with and "
                  f"without bias: {proof_core}",
                  counterexample=f"a = (1, 0), c = (0.5, -0.5): on for x1, x2, x3, off for x4 "
                                 f"(pattern {stair.tolist()}, LP-feasible {lemma.realisable(stair)})")


@pytest.mark.claim("MHS-Prop4.2")
def test_reln_wins_the_race(claim):
    relu, rel, single = E.relu_run(), E.reln_run(), E.reln_run(k=1)
    Ls, Ld = single.hist.loss[:, 0], rel.hist.loss[:, 0]
    gap0 = (Ls[0] - Ld[0]) / L0
    gap = (Ls - Ld) / L0
    d_relu, _ = _loss_gap(relu, rel)
    strict_interval = np.mean(gap > 0.01)
    corrected_ok = gap.min() > -0.01 and strict_interval > 0.3 and d_relu < TIMING_TOL
    claim.erratum(bool(np.all(gap > 1e-6)), corrected_ok,
                  f"ReLN vs single-context GDLN (both from init std ~1e-8): (L'-L*)/L(0) at t = 0 "
                  f"{gap0:.1g}, min over t {gap.min():.3f}, > 0.01 on {strict_interval:.0%} of the "
                  f"run; ReLU vs ReLN timing gap to the loss levels {d_relu:.1%} (< 10%)",
                  counterexample=f"t = 0: both losses equal L(0) = {L0:.3f} up to {abs(gap0):.1g} "
                                 "relative (and both -> 0 as t -> inf): strict '<' for all t fails")


def _sub_sv(M, rows, cols):
    return np.linalg.svd(M[np.ix_(rows, cols)], compute_uv=False)


@st.composite
def matrix_and_subsets(draw, nonneg=False):
    m, n = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    elems = st.floats(0 if nonneg else -5, 5, allow_nan=False)
    M = draw(hnp.arrays(float, (m, n), elements=elems))
    rows = draw(st.lists(st.integers(0, m - 1), min_size=1, max_size=m, unique=True))
    cols = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    return M, sorted(rows), sorted(cols)


def interlacing_violation(case):
    """max_j (beta_j - alpha_j, alpha_j - sigma_j): submatrix B, column-restricted A, full M."""
    M, rows, cols = case
    s = np.linalg.svd(M, compute_uv=False)
    a = _sub_sv(M, list(range(M.shape[0])), cols)
    b = _sub_sv(M, rows, cols)
    return max(float(np.max(b - a[:len(b)])), float(np.max(a - s[:len(a)])))


@pytest.mark.claim("MHS-E-Interlace")
def test_interlacing(claim):
    # 1e-10 x scale: float64 SVD of entries up to 5
    res = search(lambda case: (interlacing_violation(case) <= 1e-10 * (1 + np.abs(case[0]).max()),
                               interlacing_violation(case)),
                 case=matrix_and_subsets())
    claim.holds(res.ok, res.evidence("beta_j <= alpha_j <= sigma_j for random real m x n "
                                     "(1..8), row/column subsets"))


def sigma1_increase(X_, Y_, keep):
    full = np.linalg.norm(Y_ @ X_.T, 2)
    return float(np.linalg.norm(Y_[:, keep] @ X_[:, keep].T, 2) - full)


@st.composite
def data_and_kept(draw, nonneg=True):
    d, m, N = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(2, 8))
    el = st.floats(0 if nonneg else -3, 3, allow_nan=False)
    X_ = draw(hnp.arrays(float, (d, N), elements=el))
    Y_ = draw(hnp.arrays(float, (m, N), elements=el))
    keep = draw(st.lists(st.integers(0, N - 1), min_size=1, max_size=N - 1, unique=True))
    return X_, Y_, sorted(keep)


@pytest.mark.claim("MHS-E-Nonneg")
def test_removing_datapoints_cannot_speed_up(claim):
    prop = lambda case: ((lambda e: (e <= 1e-9 * (1 + np.abs(case[1]).max() * np.abs(case[0]).max()
                                                  * 8), e))(sigma1_increase(*case)))
    res = search(prop, case=data_and_kept(nonneg=True))
    signed = search(prop, case=data_and_kept(nonneg=False),
                    examples=[dict(case=(np.array([[1.0, -1.0]]), np.array([[1.0, 1.0]]), [0]))])
    sec4 = max(sigma1_increase(X, Y, [i for i in range(24) if i != j]) for j in range(24))
    claim.holds(res.ok and sec4 <= 1e-12,
                res.evidence("sigma_1(Y_S X_S^T) <= sigma_1(Y X^T) for entrywise non-negative X, Y "
                             "and any kept subset S") + f"; Sec 4 data, each datapoint removed: max "
                f"increase {sec4:.1g}; signed data (precondition needed): counterexample "
                f"{'found' if not signed.ok else 'not found'}")


@pytest.mark.claim("MHS-E-Resid")
def test_no_context_label_correlation_after_common(claim):
    worst, worst_all, mirror = 0.0, 0.0, 0.0
    for C in (None, 3, 4, 5):
        X_, Y_ = E.task(C)
        n = 3 if C is None else C
        R = Y_ - Y_ @ np.linalg.pinv(X_) @ X_
        worst = max(worst, float(np.abs(R @ X_[8:].T).max()))
        worst_all = max(worst_all, float(np.abs(R @ X_.T).max()))
        g = ds.context_gates(n, [{c} for c in range(n)])
        for c in range(n):
            mirror = max(mirror, float(np.abs(R * g[c] @ X_[:8].T + R * (1 - g[c]) @ X_[:8].T).max()))
    # 1e-10: exact rational data, float64 pseudo-inverse
    claim.holds(worst < 1e-10,
                f"R = Y - Y X^+ X on Sec 4 and C = 3, 4, 5 hierarchical data: max |R X_c^T| "
                f"{worst:.1g}; stronger: max |R X^T| {worst_all:.1g}; Sigma^yx(not c) = "
                f"-Sigma^yx(only c) on the residual to {mirror:.1g} (MHS-E4)")


@pytest.mark.claim("MHS-E-Six")
def test_single_context_modules_stay_inactive(claim):
    six = E.reln_run(k=2, extra_k=(1,))
    sv = six.hist.records["sv"][:, 0, :, 0]                     # (T, 7 modules) top singular value
    doubles, singles = sv[:, 1:4], sv[:, 4:7]
    ratio = float(singles.max() / doubles[-1].min())
    four = E.reln_run()
    dl = np.max(np.abs(six.hist.loss[:, 0] - four.hist.loss[:, 0])) / L0
    # 5%: proposed by the catalogue (the paper gives no threshold)
    claim.reproduced(ratio < 0.05 and dl < 0.05,
                     f"7-module GDLN (common, 3 double, 3 single; equal init scale 20x): max_t "
                     f"sigma_1(single modules) / sigma_1(double modules, end) = {ratio:.3f} (criterion < 0.05); "
                     f"loss vs the 4-pathway ReLN sup|dL|/L(0) = {dl:.3f}")


@pytest.mark.claim("MHS-Fig3")
def test_contextual_modules_create_errors_others_remove(claim, report_figure):
    import matplotlib.pyplot as plt
    import torch
    rel = E.reln_run()
    net, um = rel.net, rel.unit_module
    Xt = torch.tensor(X)
    h = net.hidden(Xt)[0]
    W2 = net._w(1)[0]
    outs = [(W2[:, um == m] @ h[um == m]).numpy() for m in range(4)]
    ctx = ds.context_of(3)
    gates = net.gates[0].numpy()
    # on a datapoint of context cp where module m is on, the block of every other context c has
    # target 0; the module still writes there (its item-only input cannot tell cp from c)
    leak = min(float(np.abs(outs[m][15 + 15 * c:30 + 15 * c][:, ctx == cp]).max())
               for m in range(1, 4) for cp in range(3) for c in range(3)
               if c != cp and gates[um == m][0][ctx == cp].all())
    resid = Y - outs[0]
    recon = float(np.linalg.norm(sum(outs[1:]) - resid) / np.linalg.norm(resid))
    fig, ax = plt.subplots(1, 3, figsize=(8, 3.2))
    ax[0].imshow(X, cmap="Greys"); ax[0].set(title="X (11 x 24)", xlabel="datapoint")
    ax[1].imshow(Y, cmap="Greys", aspect="auto"); ax[1].set(title="Y (60 x 24)", xlabel="datapoint")
    ax[2].imshow(outs[1], cmap="RdBu", aspect="auto", vmin=-1, vmax=1)
    off = [c + 1 for c in range(3) if not gates[um == 1][0][ctx == c].any()][0]
    ax[2].set(title=f"pathway off in ctx {off}: output", xlabel="datapoint")
    report_figure(fig, "Fig 3: the Sec 4 dataset (released code's H, Ring, Cross blocks) and the "
                       "output of one trained contextual pathway (simulation), which writes into "
                       "context blocks whose target is zero")
    claim.defined(leak > 0.05 and recon < 0.05,
                  f"after training, each contextual pathway writes |out| >= {leak:.2f} into a "
                  f"context block whose target is 0 on datapoints where it is on; the contextual "
                  f"outputs sum to the common pathway's residual (rel err {recon:.3f})")
