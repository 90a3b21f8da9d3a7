"""Representations and the finite-width NTK (LR-Eq4, LR-Eq5, LR-DefC.2), batched over leading axes.

NTK ordering: row/column (i, p) -> i * P + p (output index major, sample index minor)."""
from __future__ import annotations

import numpy as np

from numerics.lazy_rich._args import weights
from numerics.metrics import kernel_distance  # noqa: F401  (re-exported)
from numerics.validation import InvalidArgument, finite_array


def _t(a):
    return np.swapaxes(a, -1, -2)


def rsm_in(W1, X) -> np.ndarray:
    """RSM_I = X^T W1^T W1 X (P x P)."""
    W1, X = finite_array(W1, "W1"), finite_array(X, "X", ndim=2)
    if W1.ndim < 2 or W1.shape[-1] != X.shape[0]:
        raise InvalidArgument(f"W1 {W1.shape} must be (..., Nh, Ni) for X {X.shape}")
    H = W1 @ X
    return _t(H) @ H


def rsm_out(W2, Y) -> np.ndarray:
    """RSM_O = Y^T (W2 W2^T)^+ Y (P x P), Moore-Penrose pseudo-inverse."""
    W2, Y = finite_array(W2, "W2"), finite_array(Y, "Y", ndim=2)
    if W2.ndim < 2 or W2.shape[-2] != Y.shape[0]:
        raise InvalidArgument(f"W2 {W2.shape} must be (..., No, Nh) for Y {Y.shape}")
    return _t(Y) @ np.linalg.pinv(W2 @ _t(W2), hermitian=True) @ Y


def ntk_from_grams(gram_in, gram_out, X) -> np.ndarray:
    """NTK = I_No (x) X^T (W1^T W1) X + (W2 W2^T) (x) X^T X from the two weight Grams."""
    gram_in, gram_out = finite_array(gram_in, "gram_in"), finite_array(gram_out, "gram_out")
    X = finite_array(X, "X", ndim=2)
    if gram_in.ndim < 2 or gram_in.shape[-1] != X.shape[0] or gram_out.ndim < 2:
        raise InvalidArgument(f"gram_in {gram_in.shape} must be (..., Ni, Ni) for X {X.shape}; gram_out (..., No, No)")
    n_out = gram_out.shape[-1]
    k_in = _t(X) @ gram_in @ X
    xx = X.T @ X
    eye = np.eye(n_out)
    lead = np.broadcast_shapes(gram_in.shape[:-2], gram_out.shape[:-2])
    first = np.einsum("ij,...pq->...ipjq", eye, np.broadcast_to(k_in, lead + k_in.shape[-2:]))
    second = np.einsum("...ij,pq->...ipjq", gram_out, xx)
    P = X.shape[1]
    return (first + second).reshape(lead + (n_out * P, n_out * P))


def ntk(W1, W2, X) -> np.ndarray:
    """The NTK of the weights (Eq. 5)."""
    W1, W2 = weights(W1, W2)
    return ntk_from_grams(_t(W1) @ W1, W2 @ _t(W2), X)
