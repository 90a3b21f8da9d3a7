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
