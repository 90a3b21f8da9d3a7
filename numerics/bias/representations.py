"""Representation metrics for the bias papers: linear CKA (BA-Fig2A), classical MDS and RSA
(BL-Fig2E, BA-Fig2B) and the representational R^2 of App D (BL-Def-R2, BA-Fig3C).

Representations are (..., d, P): hidden units as rows, the P inputs as columns.
"""
from __future__ import annotations

import numpy as np

from numerics.validation import InvalidArgument, finite_array


def _centre(H):
    return H - H.mean(axis=-1, keepdims=True)


def linear_cka(A, B, eps: float = 1e-300):
    """Linear CKA (Kornblith et al. 2019) between (..., d_a, P) and (..., d_b, P), centred over
    the P samples: ``||A_c^T B_c||_F^2 / (||A_c^T A_c||_F ||B_c^T B_c||_F)`` (Gram form)."""
    A, B = _centre(finite_array(A, "A")), _centre(finite_array(B, "B"))
    if A.shape[-1] != B.shape[-1]:
        raise InvalidArgument(f"A and B must share the sample axis: {A.shape} vs {B.shape}")
    Ka = np.swapaxes(A, -1, -2) @ A
    Kb = np.swapaxes(B, -1, -2) @ B
    num = np.sum(Ka * Kb, axis=(-2, -1))
    den = np.linalg.norm(Ka, axis=(-2, -1)) * np.linalg.norm(Kb, axis=(-2, -1))
    if np.any(den <= eps):
        raise InvalidArgument("a representation is constant over the samples: CKA is 0/0")
    return num / den


def distance_matrix(H):
    """Euclidean distances between the P columns of (..., d, P) -> (..., P, P)."""
    H = finite_array(H, "H")
    diff = H[..., :, :, None] - H[..., :, None, :]
    return np.sqrt(np.sum(diff ** 2, axis=-3))


def rsa(A, B):
    """Pearson correlation of the upper-triangular item distances of A and B (..., d, P); NaN where
    a representation has all its item distances equal (the correlation is 0/0: callers average
    over members with ``nanmean``)."""
    Da, Db = distance_matrix(A), distance_matrix(B)
    iu = np.triu_indices(Da.shape[-1], 1)
    a, b = Da[..., iu[0], iu[1]], Db[..., iu[0], iu[1]]
    a, b = a - a.mean(-1, keepdims=True), b - b.mean(-1, keepdims=True)
    den = np.sqrt(np.sum(a * a, -1) * np.sum(b * b, -1))
    return np.sum(a * b, -1) / np.where(den > 0, den, np.nan)


def classical_mds(points, dim: int = 2):
    """Classical (Torgerson) MDS of the rows of ``points`` (n, d) -> (n, dim) coordinates."""
    points = finite_array(points, "points", ndim=2)
    if isinstance(dim, bool) or int(dim) != dim or not 1 <= dim <= points.shape[0]:
        raise InvalidArgument(f"dim={dim!r} must be an integer in [1, {points.shape[0]}] (the points)")
    D2 = np.sum((points[:, None] - points[None]) ** 2, axis=-1)
    n = D2.shape[0]
    J = np.eye(n) - 1.0 / n
    Bm = -0.5 * J @ D2 @ J
    w, v = np.linalg.eigh(Bm)
    order = np.argsort(w)[::-1][:dim]
    return v[:, order] * np.sqrt(np.clip(w[order], 0, None))


def variance_explained(H, design, centre: bool = True):
    """App D R^2 (BL-Def-R2): fit ``H^T ~ F W`` by least squares, ``R^2 = 1 - ||res||^2/||H^T||^2``.

    ``H`` (..., d, P); ``design`` (P, q) features per input (q = 1 or 2).  ``centre``: centre both
    over the P inputs (the catalogue's reading of the undefined Y~, X~: "variance across inputs").
    """
    H = finite_array(H, "H")
    F = finite_array(design, "design")
    F = F[:, None] if F.ndim == 1 else F
    if F.shape[0] != H.shape[-1]:
        raise InvalidArgument(f"design has {F.shape[0]} rows but H has {H.shape[-1]} inputs")
    Yt = np.moveaxis(H, -1, 0)                       # (P, ..., d): rows are inputs
    if centre:
        Yt, F = Yt - Yt.mean(0), F - F.mean(0)
    flat = Yt.reshape(F.shape[0], -1)
    coef, *_ = np.linalg.lstsq(F, flat, rcond=None)
    res = (flat - F @ coef).reshape(Yt.shape)
    tot = np.sum(Yt ** 2, axis=(0, -1))
    if np.any(tot <= 0):
        raise InvalidArgument("H has no variance across inputs: R^2 is 0/0")
    return 1.0 - np.sum(res ** 2, axis=(0, -1)) / tot
