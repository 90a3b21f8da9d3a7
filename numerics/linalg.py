"""Small linear-algebra constructions shared by the papers' checks."""
from __future__ import annotations

import numpy as np
from numerics.validation import InvalidArgument

#: the largest n of an n x n construction here (3.2 GB of float64): beyond, a typo, not a task
MAX_SIZE = 20_000


def random_orthogonal(n: int, rng: np.random.Generator) -> np.ndarray:
    """A Haar-distributed n x n orthogonal matrix (QR of a Gaussian with the signs of R fixed)."""
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise InvalidArgument(f"n={n!r} must be a positive integer")
    if n > MAX_SIZE:
        raise InvalidArgument(f"n={n!r} is too large: an n x n matrix of float64 needs "
                              f"{8 * n * n / 2 ** 30:.3g} GiB (at most n = {MAX_SIZE})")
    if not isinstance(rng, np.random.Generator):
        raise InvalidArgument(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diag(r))
