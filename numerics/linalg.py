"""Small linear-algebra constructions shared by the papers' checks."""
from __future__ import annotations

import numpy as np


def random_orthogonal(n: int, rng: np.random.Generator) -> np.ndarray:
    """A Haar-distributed n x n orthogonal matrix (QR of a Gaussian with the signs of R fixed)."""
    if int(n) != n or n < 1:
        raise ValueError(f"n={n!r} must be a positive integer")
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diag(r))
