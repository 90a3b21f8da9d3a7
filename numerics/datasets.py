"""Synthetic tasks of the papers (columns are samples) and their correlation statistics."""
from __future__ import annotations

import numpy as np

from numerics.validation import InvalidArgument, finite_array, number

#: the deepest hierarchy :func:`hierarchy` builds (1024 items; the papers use 2 and 3)
MAX_DEPTH = 10


def hierarchy(depth: int = 2):
    """Binary-tree hierarchy of Saxe et al. (2019): ``2**depth`` one-hot items (X = I) and one
    feature per tree node, root first (BL §6 "hierarchical task"; MHS-Fig7).

    depth=2 gives the 4-item, 7-feature task, singular values of Y (sqrt 7, sqrt 3, 1, 1);
    depth=3 the 8-item, 15-feature task; at most :data:`MAX_DEPTH` (1024 items).
    """
    if isinstance(depth, bool) or int(depth) != depth or depth < 1:
        raise InvalidArgument(f"depth={depth!r} must be a positive integer")
    if depth > MAX_DEPTH:
        raise InvalidArgument(f"depth={depth!r} is too large: 2**depth items (at most depth {MAX_DEPTH})")
    n = 2 ** depth
    rows = []
    for level in range(depth + 1):
        for node in range(2 ** level):
            rows.append([1.0 if i >> (depth - level) == node else 0.0 for i in range(n)])
    return np.eye(n), np.array(rows)


def augment(X, c):
    """``[c 1^T; X]``: the constant bias input of strength c (BL-Def-Aug); c=None: X itself."""
    X = finite_array(X, "X", ndim=2)
    if c is None:
        return X
    return np.vstack([np.full((1, X.shape[1]), number(c, "c")), X])


def correlations(X, Y, c=None):
    """``(Sigma_yx, Sigma_x) = (Y X~^T / P, X~ X~^T / P)`` with the optional bias row of strength c."""
    X = augment(X, c)
    Y = finite_array(Y, "Y", ndim=2)
    if X.shape[1] != Y.shape[1]:
        raise InvalidArgument(f"X has {X.shape[1]} samples but Y has {Y.shape[1]}")
    P = X.shape[1]
    return Y @ X.T / P, X @ X.T / P


def modes(sigma_yx, sigma_x, tol: float = 1e-10):
    """SVD ``Sigma_yx = U S V^T`` with ``d_a = v_a^T Sigma_x v_a`` (BL Eq. 4 / BL-Def-SimDiag).

    Returns ``(U, s, V, d, offdiag)``, where ``offdiag`` is the largest off-diagonal entry of
    ``V^T Sigma_x V`` over the modes with s > tol: zero when the two share V (Eq. 4 holds).
    """
    sigma_yx = finite_array(sigma_yx, "sigma_yx", ndim=2)
    sigma_x = finite_array(sigma_x, "sigma_x", ndim=2)
    tol = number(tol, "tol", nonnegative=True)
    if sigma_x.shape != (sigma_yx.shape[1],) * 2:
        raise InvalidArgument(f"sigma_x must be {(sigma_yx.shape[1],) * 2}, got {sigma_x.shape}")
    U, s, Vt = np.linalg.svd(sigma_yx, full_matrices=False)
    keep = s > tol
    U, s, V = U[:, keep], s[keep], Vt[keep].T
    D = V.T @ sigma_x @ V
    offdiag = float(np.max(np.abs(D - np.diag(np.diag(D))))) if D.size else 0.0
    return U, s, V, np.diag(D).copy(), offdiag
