"""lambda-balanced initialisations (LR-A2, LR-DefA.1, LR-Alg1) and the weight maps of LR-Thm5.2.

W1 = R S1 V^T, W2 = U S2 R^T with S1^2 = (sqrt(lam^2 + 4 S^2) - lam)/2 and
S2^2 = (sqrt(lam^2 + 4 S^2) + lam)/2, so that W2^T W2 - W1 W1^T = lam I and W2 W1 = U S V^T.
Sign convention (catalogue Sec 1): lam > 0 means the second layer W2 is larger.
"""
from __future__ import annotations

import numpy as np

from numerics.lazy_rich._args import count, generator, scalar, weights
from numerics.linalg import random_orthogonal
from numerics.validation import InvalidArgument, finite_array


def layer_singular_values(s, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """(S1, S2) of LR-Thm5.2 for network singular values ``s`` >= 0 and balance ``lam``."""
    s = finite_array(s, "s")
    if np.any(s < 0):
        raise InvalidArgument("s must be non-negative singular values")
    lam = float(finite_array(lam, "lam"))
    root = np.sqrt(lam ** 2 + 4 * s ** 2)
    # (root - lam)/2 written as 2 s^2/(root + lam) for lam > 0: no cancellation when |lam| >> s.
    sq1 = np.where(lam > 0, 2 * s ** 2 / np.where(root + lam > 0, root + lam, 1.0), (root - lam) / 2)
    sq2 = np.where(lam < 0, 2 * s ** 2 / np.where(root - lam > 0, root - lam, 1.0), (root + lam) / 2)
    return np.sqrt(sq1), np.sqrt(sq2)


def balanced_weights(U, s, V, R, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """W1 = R S1 V^T (Nh, Ni), W2 = U S2 R^T (No, Nh) with Nh = len(s) (LR-A3)."""
    U, V, R = (finite_array(a, n, ndim=2) for a, n in ((U, "U"), (V, "V"), (R, "R")))
    s1, s2 = layer_singular_values(s, lam)
    if not (U.shape[1] == V.shape[1] == R.shape[0] == R.shape[1] == len(s1)):
        raise InvalidArgument(f"shapes U {U.shape}, V {V.shape}, R {R.shape}, s {len(s1)} disagree")
    return R @ (s1[:, None] * V.T), (U * s2) @ R.T


def lambda_balanced_init(lam: float, n_in: int, n_hid: int, n_out: int,
                         rng: np.random.Generator, scale: float = 1.0,
                         syx=None) -> tuple[np.ndarray, np.ndarray]:
    """LR-Alg1: draw Gaussian W2 W1 (or take ``syx``), keep its SVD, rebalance to ``lam``.

    ``scale`` is sigma of the Gaussian draws (the absolute scale).  Needs Nh = min(Ni, No) (A3).
    """
    n_in, n_hid, n_out = count(n_in, "n_in"), count(n_hid, "n_hid"), count(n_out, "n_out")
    lam, scale, rng = scalar(lam, "lam"), scalar(scale, "scale", nonnegative=True), generator(rng)
    if n_hid != min(n_in, n_out):
        raise InvalidArgument(f"n_hid={n_hid} must equal min(n_in, n_out)={min(n_in, n_out)} (LR-A3)")
    if syx is None:
        W1 = scale * rng.standard_normal((n_hid, n_in))
        W2 = scale * rng.standard_normal((n_out, n_hid))
        target = W2 @ W1
    else:
        target = finite_array(syx, "syx", shape=(n_out, n_in))
    U, s, Vt = np.linalg.svd(target, full_matrices=False)
    return balanced_weights(U, s, Vt.T, random_orthogonal(n_hid, rng), lam)


def aligned_init(U, V, s0, lam: float, rng: np.random.Generator):
    """Task-aligned lambda-balanced init W1 = R S1(s0) V~^T, W2 = U~ S2(s0) R^T (LR-Thm5.1)."""
    generator(rng)
    return balanced_weights(U, s0, V, random_orthogonal(len(np.atleast_1d(s0)), rng), lam)


def balance(W1, W2) -> np.ndarray:
    """Balance matrix W2^T W2 - W1 W1^T (LR-DefA.1), batched over leading axes."""
    W1, W2 = weights(W1, W2)
    return np.swapaxes(W2, -1, -2) @ W2 - W1 @ np.swapaxes(W1, -1, -2)


def weights_from_product(product, lam: float, R=None) -> tuple[np.ndarray, np.ndarray]:
    """LR-Thm5.2 inverse map: lambda-balanced (W1, W2) with W2 W1 = ``product`` (Nh = min(Ni, No)),
    R = I unless given.  Used to continue a closed-form trajectory (QQ^T fixes W up to R)."""
    product = finite_array(product, "product", ndim=2)
    U, s, Vt = np.linalg.svd(product, full_matrices=False)
    return balanced_weights(U, s, Vt.T, np.eye(len(s)) if R is None else R, lam)
