"""Tasks of "From lazy to rich": whitened random regression (LR-T1, LR-A1), the 8-item semantic
hierarchy (LR-T2), and the task SVD with its orthogonal completion (Sec 4, l.57-58).

Columns are samples: X is (Ni, P), Y is (No, P).  Statistics use the paper's 1/P convention
(Eq. 2): Sxx = X X^T / P, Syx = Y X^T / P.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from numerics.lazy_rich._args import count, generator
from numerics.validation import InvalidArgument, finite_array


@dataclass(frozen=True)
class TaskSVD:
    """Compact SVD Syx = U diag(s) V^T plus the completion U_perp (No > Ni) or V_perp (Ni > No);
    the empty side is a zero block of the same width (l.57-58)."""

    U: np.ndarray        # (No, Nm)
    s: np.ndarray        # (Nm,), descending
    V: np.ndarray        # (Ni, Nm)
    U_perp: np.ndarray   # (No, |No - Ni|)
    V_perp: np.ndarray   # (Ni, |No - Ni|)

    @property
    def n_in(self) -> int:
        return self.V.shape[0]

    @property
    def n_out(self) -> int:
        return self.U.shape[0]


def task_svd(syx) -> TaskSVD:
    """SVD of an (No, Ni) correlation matrix with the completion of the larger side."""
    syx = finite_array(syx, "syx", ndim=2, nonempty=True)
    n_out, n_in = syx.shape
    U_full, s, Vt_full = np.linalg.svd(syx)
    m = min(n_in, n_out)
    U, V = U_full[:, :m], Vt_full[:m].T
    extra = abs(n_out - n_in)
    U_perp = U_full[:, m:] if n_out > n_in else np.zeros((n_out, extra))
    V_perp = Vt_full[m:].T if n_in > n_out else np.zeros((n_in, extra))
    return TaskSVD(U, s[:m], V, U_perp, V_perp)


@dataclass(frozen=True)
class Task:
    X: np.ndarray  # (Ni, P)
    Y: np.ndarray  # (No, P)

    def __post_init__(self):
        X, Y = finite_array(self.X, "X", ndim=2), finite_array(self.Y, "Y", ndim=2)
        if X.shape[1] != Y.shape[1] or X.shape[1] == 0:
            raise InvalidArgument(f"X {X.shape} and Y {Y.shape} must share a positive number of samples")
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "Y", Y)

    @property
    def n_samples(self) -> int:
        return self.X.shape[1]

    @cached_property
    def sxx(self) -> np.ndarray:
        return self.X @ self.X.T / self.n_samples

    @cached_property
    def syx(self) -> np.ndarray:
        return self.Y @ self.X.T / self.n_samples

    @cached_property
    def svd(self) -> TaskSVD:
        return task_svd(self.syx)

    @property
    def loss_constant(self) -> float:
        """c in L = 1/2 ||W2W1 - Syx||_F^2 + c for whitened inputs (LR-Thm4.3, derived loss)."""
        return 0.5 * (np.sum(self.Y ** 2) / self.n_samples - np.sum(self.syx ** 2))

    def loss(self, product) -> np.ndarray:
        """The paper's 1/2-mean loss (1/2P) ||W2W1 X - Y||^2 for product(s) (..., No, Ni)."""
        err = np.asarray(product) @ self.X - self.Y
        return 0.5 * np.sum(err ** 2, axis=(-2, -1)) / self.n_samples


def whitened_inputs(n_in: int, n_samples: int, rng: np.random.Generator, centred: bool = False) -> np.ndarray:
    """X = sqrt(P) * (orthonormal rows), so Sxx = X X^T / P = I exactly (LR-A1; needs P >= Ni).

    ``centred``: the released generator (``utils.py`` ``whiten``: standardise, PCA, rescale by
    sqrt(P/(P-1))), whose rows are also orthogonal to the ones vector (needs P > Ni)."""
    n_in, n_samples = count(n_in, "n_in"), count(n_samples, "n_samples")
    rng = generator(rng)
    if n_samples < n_in + centred:
        raise InvalidArgument(f"n_samples={n_samples} < n_in={n_in}{' + 1' if centred else ''}: Sxx = I "
                              f"needs P >= Ni{' + 1 for centred inputs' if centred else ''} (LR-A1)")
    draw = rng.standard_normal((n_samples, n_in))
    if centred:
        draw = draw - draw.mean(axis=0)
        q = np.linalg.svd(draw / draw.std(axis=0), full_matrices=False)[0]
    else:
        q = np.linalg.qr(draw)[0]
    return np.sqrt(n_samples) * q.T


def random_task(n_in: int, n_out: int, n_samples: int, rng: np.random.Generator,
                target_std: float = 1.0, centred: bool = False) -> Task:
    """LR-T1: whitened Gaussian inputs, independent Gaussian targets N(0, target_std^2)
    (``centred``: the released generator, ``utils.py`` ``get_random_regression_task``)."""
    if not (np.isfinite(target_std) and target_std > 0):
        raise InvalidArgument(f"target_std={target_std!r} must be positive and finite")
    X = whitened_inputs(n_in, n_samples, rng, centred)
    return Task(X, target_std * rng.standard_normal((count(n_out, "n_out"), n_samples)))


#: LR-T2 labels, rows = items (fish1, fish2, bird1, bird2, algae1, algae2, flower1, flower2),
#: columns = features (root, animal/plant, fish/bird, algae/flower, then the four leaf pairs).
HIERARCHY_LABELS = np.array([
    [1, 1, 1, 0, 1, 0, 0, 0], [1, 1, 1, 0, -1, 0, 0, 0],
    [1, 1, -1, 0, 0, 1, 0, 0], [1, 1, -1, 0, 0, -1, 0, 0],
    [1, -1, 0, 1, 0, 0, 1, 0], [1, -1, 0, 1, 0, 0, -1, 0],
    [1, -1, 0, -1, 0, 0, 0, 1], [1, -1, 0, -1, 0, 0, 0, -1]], dtype=float)
ITEMS = ("fish1", "fish2", "bird1", "bird2", "algae1", "algae2", "flower1", "flower2")


def hierarchy_task() -> Task:
    """LR-T2 with one-hot items scaled to X = sqrt(8) I so that Sxx = I (A1; X = I would give I/8)."""
    n = len(ITEMS)
    return Task(np.sqrt(n) * np.eye(n), HIERARCHY_LABELS.T.copy())
