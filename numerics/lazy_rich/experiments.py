"""Cases of the LR- reproductions: problems with general parameters (a whitened task and a
lambda-balanced init), task-aligned and reversed inits, converged networks, the tasks of the
applications, and Monte Carlo samplers of balances and noisy losses.  Nothing here trains or
integrates (that is :mod:`numerics.lazy_rich.runs`) or decides (that is ``verify``).
"""
from __future__ import annotations

import numpy as np

from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import (
    aligned_init,
    balance,
    balanced_weights,
    lambda_balanced_init,
    layer_singular_values,
    random_orthogonal,
)
from numerics.lazy_rich._args import count, scalar
from numerics.lazy_rich.tasks import Task, random_task, whitened_inputs
from numerics.validation import InvalidArgument, finite_array


def _sigma(value) -> float:
    if isinstance(value, bool) or not np.isfinite(value) or value < 0:
        raise InvalidArgument(f"sigma={value!r} must be a finite non-negative noise s.d.")
    return float(value)


def _integer(value, name: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise InvalidArgument(f"{name}={value!r} must be an integer >= {least}")
    return int(value)


# ---------------------------------------------------------------- problems with general parameters
def horizon(task, lam: float, cap: float = 8.0) -> float:
    """t/tau with S_lam,max t <= 25: beyond, e^{2 S_lam t} makes the plain Theorem 4.3 ill-conditioned
    (LR-Impl)."""
    lam, cap = scalar(lam, "lam"), scalar(cap, "cap", positive=True)
    return min(cap, 25.0 / np.sqrt(task.svd.s.max() ** 2 + lam ** 2 / 4))


def problem(n_in: int, n_out: int, lam: float, seed: int, scale: float = 0.5, n_samples: int | None = None,
            target_std: float = 1.0):
    """A whitened random task and a random (non-aligned) lambda-balanced init with Nh = min(Ni, No)."""
    rng = np.random.default_rng(_integer(seed, "seed"))
    task = random_task(n_in, n_out, n_samples or max(n_in, n_out) + 4, rng, target_std)
    W1, W2 = lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, rng, scale=scale)
    return task, W1, W2


def problem_from_numbers(n_in: int, n_out: int, lam: float, scale: float, w1, w2, syx, rot: float):
    """A lambda-balanced problem built from drawn numbers only (so hypothesis can shrink it): Syx from
    ``syx`` (No x Ni entries), the initial function scale^2 W2 W1 from the entries ``w1`` (Nh x Ni) and
    ``w2`` (No x Nh), rebalanced to ``lam`` with the hidden rotation made of Givens rotations by the
    angles ``rot``, 2 rot, ...; whitened X = sqrt(P) [I 0] with P = max(Ni, No) + 2."""
    n_in, n_out = count(n_in, "n_in"), count(n_out, "n_out")
    nh = min(n_in, n_out)
    for name, value, size in (("syx", syx, n_out * n_in), ("w1", w1, nh * n_in), ("w2", w2, n_out * nh)):
        if np.size(value) != size:
            raise InvalidArgument(f"{name} has {np.size(value)} entries, expected {size} for (Ni, No) = "
                                  f"({n_in}, {n_out})")
    syx = finite_array(syx, "syx").reshape(n_out, n_in)
    product = scale ** 2 * finite_array(w2, "w2").reshape(n_out, nh) @ finite_array(w1, "w1").reshape(nh, n_in)
    P = max(n_in, n_out) + 2
    X = np.sqrt(P) * np.eye(n_in, P)
    U, s, Vt = np.linalg.svd(product, full_matrices=False)
    R = np.eye(nh)
    for i in range(nh - 1):
        c, sn = np.cos(rot * (i + 1)), np.sin(rot * (i + 1))
        G = np.eye(nh)
        G[i, i], G[i, i + 1], G[i + 1, i], G[i + 1, i + 1] = c, -sn, sn, c
        R = R @ G
    W1, W2 = balanced_weights(U, s, Vt.T, R, lam)
    return Task(X, syx @ X), W1, W2


def aligned_problem(n_in: int, n_out: int, s_task, s0, lam: float, seed: int):
    """A whitened task with prescribed singular values and a task-aligned lambda-balanced init."""
    rng = np.random.default_rng(_integer(seed, "seed"))
    n_in, n_out = count(n_in, "n_in"), count(n_out, "n_out")
    m, P = min(n_in, n_out), max(n_in, n_out) + 3
    s_task = finite_array(s_task, "s_task", ndim=1)
    if s_task.shape != (m,):
        raise InvalidArgument(f"s_task has {s_task.size} values: a ({n_in}, {n_out}) task has min(Ni, No) "
                              f"= {m} values")
    U = random_orthogonal(n_out, rng)[:, :m]
    V = random_orthogonal(n_in, rng)[:, :m]
    X = np.sqrt(P) * np.linalg.qr(rng.standard_normal((P, n_in)))[0].T
    syx = (U * np.asarray(s_task)) @ V.T
    task = Task(X, syx @ X)                      # Y = Syx X gives Y X^T / P = Syx exactly
    W1, W2 = aligned_init(task.svd.U, task.svd.V, np.asarray(s0, dtype=float), lam, rng)
    return task, W1, W2


def invertible_b_init(task, lam: float, seed: int, scale: float, max_draws: int = 20):
    """First Alg.-1 init (successive draws of one generator) whose B is invertible (cond < 1e6).

    At lambda = 0 a square even-dimensional random init has B singular with probability 1/2 (the
    relative rotation has det -1, hence an eigenvalue -1: a reversed mode, LR-D.2), and then the
    flow stalls at a saddle; Thm B.5 / C.3 assume B invertible."""
    rng = np.random.default_rng(_integer(seed, "seed"))
    n_in, n_out = task.svd.n_in, task.svd.n_out
    for _ in range(_integer(max_draws, "max_draws", 1)):
        W1, W2 = lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, rng, scale=scale)
        if np.linalg.cond(so.init_variables(W1, W2, so.spectrum(task.svd, lam))[0]) < 1e6:
            return W1, W2
    raise RuntimeError(f"no init with invertible B in {max_draws} draws (lam={lam}, seed={seed})")


def balanced_family(task, lams, scales, rng: np.random.Generator, max_draws: int = 20):
    """One Gaussian draw N(0, 1) of both layers and one rotation R; for each absolute scale a of
    ``scales`` the network function a^2 W2W1 rebalanced to every lambda of ``lams`` (Algorithm 1:
    the same function at each lambda).  Redrawn until B is invertible (cond < 1e8) everywhere, the
    hypothesis of Thm B.5 / C.3 (at lambda = 0 a square net has a reversed mode with probability
    1/2).  Returns [[(W1, W2) per lambda] per scale]."""
    n_in, n_out = task.svd.n_in, task.svd.n_out
    nh = min(n_in, n_out)
    if not scales or any(not (np.isfinite(a) and a > 0) for a in scales):
        raise InvalidArgument(f"scales={scales!r} must be positive absolute scales")
    for _ in range(_integer(max_draws, "max_draws", 1)):
        U, s, Vt = np.linalg.svd(rng.standard_normal((n_out, nh)) @ rng.standard_normal((nh, n_in)),
                                 full_matrices=False)
        R = random_orthogonal(nh, rng)
        family = [[balanced_weights(U, a ** 2 * s, Vt.T, R, lam) for lam in lams] for a in scales]
        if all(np.linalg.cond(so.init_variables(W1, W2, so.spectrum(task.svd, lam))[0]) < 1e8
               for row in family for lam, (W1, W2) in zip(lams, row)):
            return family
    raise RuntimeError(f"no draw with B invertible at every lambda and scale in {max_draws} draws")


def padded_init(n_in, n_hid, n_out, s, lam, seeds):
    """Braun-type init with Nh > min(Ni, No): W1 = R[:, :m] S1 V^T, W2 = U S2 R[:, :m]^T, plus
    sqrt(lam) on one extra hidden direction when Nh > Ni (feasible only for lam >= 0).  The unit
    ``R[:, m:]`` directions are returned too."""
    n_in, n_hid, n_out = count(n_in, "n_in"), count(n_hid, "n_hid"), count(n_out, "n_out")
    m = min(n_in, n_out)
    if n_hid < m:
        raise InvalidArgument(f"n_hid={n_hid} must be >= min(n_in, n_out) = {m}")
    if len(seeds) != 3:
        raise InvalidArgument(f"seeds={seeds!r} must be three seeds (R, V, U)")
    lam = scalar(lam, "lam")
    R = random_orthogonal(n_hid, np.random.default_rng(seeds[0]))
    s1, s2 = layer_singular_values(np.asarray(s, dtype=float), lam)
    V = random_orthogonal(n_in, np.random.default_rng(seeds[1]))[:, :m]
    U = random_orthogonal(n_out, np.random.default_rng(seeds[2]))
    W1 = R[:, :m] @ (s1[:, None] * V.T)
    W2 = (U[:, :m] * s2) @ R[:, :m].T
    if n_hid > m and n_out > m and lam > 0:
        W2 = W2 + np.sqrt(lam) * np.outer(U[:, m], R[:, m])
    return W1, W2, R[:, m:]


# ---------------------------------------------------------------- noise robustness (App C.3)
def converged(task, lam, seed):
    """A converged lambda-balanced net: W2W1 = Syx (Alg. 1 from Syx; Thm C.3 Grams)."""
    n_in, n_out = task.svd.n_in, task.svd.n_out
    return lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, np.random.default_rng(seed), syx=task.syx)


def noise_task(n_in, n_out):
    return random_task(n_in, n_out, 12, np.random.default_rng(n_in + 10 * n_out))


def input_noise_losses(task, W1, W2, sigma: float, draws: int, seed: int) -> np.ndarray:
    """Sampled 1/2-mean losses of W2W1 on X + sigma N(0, 1) (iid input noise)."""
    _integer(draws, "draws", 1)
    sigma = _sigma(sigma)
    noise = np.random.default_rng(seed).standard_normal((draws,) + task.X.shape)
    err = W2 @ W1 @ (task.X + sigma * noise) - task.Y
    return 0.5 * np.sum(err ** 2, axis=(1, 2)) / task.n_samples


def weight_noise_losses(task, W1, W2, sigma: float, draws: int, seed: int) -> np.ndarray:
    """Sampled 1/2-mean losses with iid N(0, sigma^2) noise on every entry of W1 and W2."""
    rng = np.random.default_rng(_integer(seed, "seed"))
    _integer(draws, "draws", 1)
    sigma = _sigma(sigma)
    A = W1 + sigma * rng.standard_normal((draws,) + W1.shape)
    B = W2 + sigma * rng.standard_normal((draws,) + W2.shape)
    return 0.5 * np.sum((B @ A @ task.X - task.Y) ** 2, axis=(1, 2)) / task.n_samples


# ---------------------------------------------------------------- random initialisations (App A.3)
def sample_balance(n_in, n_hid, n_out, var1, var2, draws, seed):
    """(draws, Nh, Nh) balance matrices of Gaussian W1 (Nh x Ni), W2 (No x Nh)."""
    for name, value in (("n_in", n_in), ("n_hid", n_hid), ("n_out", n_out), ("draws", draws)):
        _integer(value, name, 1)
    if not (np.isfinite(var1) and np.isfinite(var2) and var1 >= 0 and var2 >= 0):
        raise InvalidArgument(f"var1={var1!r}, var2={var2!r} must be finite and non-negative")
    rng = np.random.default_rng(_integer(seed, "seed"))
    W1 = np.sqrt(var1) * rng.standard_normal((draws, n_hid, n_in))
    W2 = np.sqrt(var2) * rng.standard_normal((draws, n_out, n_hid))
    return balance(W1, W2)


def balance_spread(widths=(1, 2, 4), dims=(40, 120, 250)):
    """LeCun balance at widths k x (Ni, Nh, No): mean entrywise off-diagonal s.d. and mean
    ||Bal - lambda I||_F / ||lambda I||_F (lambda = No/Nh - 1), two draws per width."""
    if not widths or any(isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1 for k in widths):
        raise InvalidArgument(f"widths={widths!r} must be positive integers (width multipliers)")
    ni, nh, no = (count(v, f"dims[{i}]") for i, v in enumerate(dims))
    lam = no / nh - 1
    sd, spread = [], []
    for k in widths:
        b = sample_balance(ni * k, nh * k, no * k, 1 / (ni * k), 1 / (nh * k), 2, seed=k)
        eye = lam * np.eye(nh * k)
        spread.append(float(np.mean([np.linalg.norm(x - eye) / np.linalg.norm(eye) for x in b])))
        sd.append(float(np.mean([np.std(x[np.triu_indices(nh * k, 1)]) for x in b])))
    return np.array(sd), np.array(spread)


# ---------------------------------------------------------------- applications (Sec 6, App D)
def continual_tasks(n=5, P=25, count=4, seed=0):
    """``count`` tasks on one whitened input set (n inputs, P samples), independent N(0, 1) targets."""
    _integer(count, "count", 1)
    rng = np.random.default_rng(_integer(seed, "seed"))
    X = whitened_inputs(n, P, rng)
    return [Task(X, rng.standard_normal((n, P))) for _ in range(count)]


def reversal_problem(lam, s_task=(1.0, 0.8, 0.5), s0=0.5, seed=0):
    """Square (3,3,3) task-aligned init with the first left singular vector reversed (LR-D.2)."""
    rng = np.random.default_rng(seed)
    U, V = random_orthogonal(3, rng), random_orthogonal(3, rng)
    X = whitened_inputs(3, 6, rng)
    task = Task(X, (U * np.asarray(s_task)) @ V.T @ X)
    W1, W2 = aligned_init(task.svd.U, task.svd.V, np.full(3, s0), lam, rng)
    return task, W1, task.svd.U @ np.diag([-1.0, 1.0, 1.0]) @ task.svd.U.T @ W2


def reversed_mode(task, W1t, W2t):
    """u~_1^T W2W1(t) v~_1: the reversed mode of a ``reversal_problem`` along a run."""
    W1t, W2t = finite_array(W1t, "W1t"), finite_array(W2t, "W2t")
    if W1t.ndim != 3 or W2t.ndim != 3 or W1t.shape[2] != task.svd.n_in or W2t.shape[1] != task.svd.n_out:
        raise InvalidArgument(f"W1t {W1t.shape} and W2t {W2t.shape} do not fit the task ((T, Nh, {task.svd.n_in}) "
                              f"and (T, {task.svd.n_out}, Nh))")
    return np.einsum("i,tij,j->t", task.svd.U[:, 0], W2t @ W1t, task.svd.V[:, 0])


def fine_tuning_tasks(base):
    """LR-D.4's three fine-tuning tasks built from the hierarchy ``base`` (catalogue protocol)."""
    if not isinstance(base, Task) or base.X.shape != (8, 8) or base.Y.shape != (8, 8):
        raise InvalidArgument("base must be the 8-item hierarchy task (tasks.hierarchy_task())")
    t1 = base.Y.copy()
    t1[4, 2] = 1.0                                      # bird1 also gets fish1's leaf feature
    U, s, V = base.svd.U, base.svd.s, base.svd.V
    return {"T1 feature added": Task(base.X, t1),
            "T2 reversal": Task(base.X, (U * s) @ np.diag([-1.0] + [1.0] * 7) @ V.T @ base.X),
            "T3 singular values x2": Task(base.X, 2 * base.Y)}
