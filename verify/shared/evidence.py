"""What the shared checks (BL-Def-EffRank; the mode law, its layer ODEs and hitting time) measure,
given the formula under test; time in the units of tau."""
from __future__ import annotations

import numpy as np
import sympy as sp

from numerics.closed_forms import hitting_time
from numerics.metrics import crossing_time, effective_rank, rel_err
from numerics.mode_flows import aligned_flow, layer_flow_drift
from theory import mode_law as ml
from verify.checks.mode_law import matrix_flow_error
from verify.lexicon import decide
from verify.measurement import measure, paper
from verify.statements import each, seed_mean


def effective_rank_error(rank_fn, shape, seed) -> float:
    """Rel err of ``numerics.metrics.effective_rank`` against ``rank_fn`` (singular values ->
    rank) on a random matrix of ``shape`` scaled by -2, 0.01 or 5."""
    A = np.random.default_rng(seed).standard_normal(shape) * np.random.default_rng(seed).choice(
        [-2.0, 0.01, 5.0])
    return rel_err(effective_rank(A), rank_fn(list(np.linalg.svd(A, compute_uv=False))))


def gram_rank_gap() -> float:
    """|rho(H^T H) - rho(H)| for a 16 x 4 Gaussian H (seed 1)."""
    gram = np.random.default_rng(1).standard_normal((16, 4))
    return abs(effective_rank(gram.T @ gram) - effective_rank(gram))


def aligned_flow_error(law, s, d, a0, tau, shape=(5, 3, 4), imbalance=1.0) -> tuple:
    """(max rel err of the mode ``law``, drift of W2'W2 - W1W1') along the matrix flow of a
    linear net (N_in, N_out, N_hid) from an aligned init, layers unbalanced by ``imbalance``."""
    t, modes, drift = aligned_flow(*shape, s, d, a0, tau, imbalance=imbalance)
    return matrix_flow_error(law, t, modes, s, d, a0, tau), drift


def balance_drift(form, s, d, tau, w1, w2, t_end) -> float:
    """MHS-A-Mode: drift of (w1)^2 - (w2)^2 along ``form.dw1``, ``form.dw2`` from (w1, w2)."""
    f = sp.lambdify((ml.w1, ml.w2, ml.s, ml.d, ml.tau), (form.dw1, form.dw2))
    return layer_flow_drift(lambda a, b: f(a, b, s, d, tau), w1, w2, t_end)


def threshold_crossings(strengths, time, s, d, a0, levels) -> tuple:
    """First crossings of each level (fraction of s/d) by trained modes ``strengths`` (T, K, M),
    (levels, K, M), and the closed-form hitting times from a0, (levels, M)."""
    _, K, M = strengths.shape
    observed = np.array([[[crossing_time(strengths[:, k, m], time, f * s[m] / d[m])
                           for m in range(M)] for k in range(K)] for f in levels])
    return observed, np.stack([hitting_time(f * s / d, s, d, a0) for f in levels])


# ---- one rule for the sentences "X networks enter the lazy regime as lambda/delta -> +-oo; in the
# opposite limits a lazy phase is followed by a delayed rich one; as it -> 0 all are rich"
# (GRQ Sec. 4 L129 funnels and LR Sec. 5 l.105-106 Fig. 5: the same kind of sentence, decided here
# for both papers; docs/DESIGN.md, "One rule per kind of sentence").

def _smaller(what, smaller, larger, source, names):
    """The stated order ``smaller`` < ``larger`` of each network (the sentences are about every
    network of an architecture, docs/DESIGN.md "Statements over seeds"): unanimity over seeds of
    the difference, or its sign for one deterministic flow."""
    a, b = np.asarray(smaller, dtype=float).ravel(), np.asarray(larger, dtype=float).ravel()
    if a.size == 1 and b.size == 1:
        return measure(f"{what}: {names[0]} minus {names[1]}", float(a[0] - b[0]), "<", 0,
                       source=source, details={names[0]: float(a[0]), names[1]: float(b[0])})
    return each(f"{what}: {names[0]} minus {names[1]}", a - b, "<", 0, source=source,
                details={names[0]: a.tolist(), names[1]: b.tolist()})


def enters_lazy_regime(what: str, far, near, *, where: str, words: str, rich=None) -> list:
    """"... networks enter the lazy regime as [the relative scale] -> +-oo": the kernel distance
    S(K(0), K(end)) at the far end of the limit (``far``, per seed or one flow) is negligible on
    its [0, 1] plot (the lexicon's 'lazy regime', every reading) and below ``near``, a value
    nearer the balanced point (the limit is approached).  ``rich`` (S at the balanced point) is
    the contrast the paper draws, reported beside."""
    return [decide("lazy regime", f"{what}: kernel distance S at the far end of the limit",
                   seed_mean(far), where=where, words=words,
                   contrast=None if rich is None else seed_mean(rich),
                   contrast_name="S at the balanced point (rich)"),
            _smaller(f"{what}: S at the far end below S nearer the balanced point", far, near,
                     paper(where, words), ("far", "near"))]


def lazy_then_rich(what: str, early, end, *, where: str, words: str) -> list:
    """"In the opposite limits ... a lazy [phase] followed by a (delayed) rich [phase]": the kernel
    distance at the end of the initial phase (``early``) is negligible (the lexicon's 'lazy
    regime', every reading) and the kernel moves after it (S at the end above ``early``)."""
    return [decide("lazy regime", f"{what}: kernel distance S at the end of the initial phase",
                   seed_mean(early), where=where, words=words,
                   contrast=seed_mean(end), contrast_name="S at the end (the rich phase)"),
            _smaller(f"{what}: S at the end of the initial phase below S at the end", early, end,
                     paper(where, words), ("initial phase", "end"))]


def rich_at_balance(what: str, balanced, lazy_end, *, where: str, words: str) -> list:
    """"as [the relative scale] -> 0, all networks transition into the rich regime": the kernel
    distance at the balanced point above that at the lazy end of the limit, for each network."""
    return [_smaller(f"{what}: S at the lazy end below S at the balanced point", lazy_end, balanced,
                     paper(where, words), ("lazy end", "balanced"))]
