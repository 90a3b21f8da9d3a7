"""Metrics of representations and spectra."""
from __future__ import annotations

import numpy as np

from numerics.checks import finite_array


def effective_rank(A) -> float:
    """Roy-Vetterli effective rank ``exp(-sum sbar log sbar)`` of a matrix (BL-Def-EffRank,
    corrected form of BL Eq. (1); the printed leading minus sign is an erratum).

    Zero singular values contribute 0 (0 log 0 = 0).  The paper applies it to ``H.T @ H``.
    """
    A = finite_array(A, "A", ndim=2)
    sv = np.linalg.svd(A, compute_uv=False)
    total = sv.sum()
    if total == 0:
        raise ValueError("A is the zero matrix: its effective rank is 0/0")
    p = sv[sv > 0] / total
    return float(np.exp(-np.sum(p * np.log(p))))
