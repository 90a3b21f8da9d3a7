"""Cases and runs of the LR- reproductions: problems with general parameters, reference gradient
flows (``solve_ivp`` through :func:`numerics.ode.integrate_flow`), batched GD runs and the figure
sweeps.  Every function returns numbers; none decides a verdict (that is ``verify``'s job).

Time is the paper's dimensionless ``t / tau`` (tau = 1/lr on the 1/2-mean loss; k GD steps at
learning rate lr are ``t / tau = k * lr``, ``theory.conventions.flow_time``).
"""
from __future__ import annotations

import functools

import numpy as np
import sympy as sp

from numerics.closed_forms import compiled
from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import (aligned_init, balance, balanced_weights, lambda_balanced_init,
                                     layer_singular_values, random_orthogonal, weights_from_product)
from numerics.lazy_rich.tasks import Task, hierarchy_task, random_task, whitened_inputs
from numerics.lazy_rich.training import train_linear
from numerics.validation import finite_array
from numerics.metrics import rel_err
from numerics.ode import integrate_flow
from theory.lazy_rich import symbols as sy

#: the three architectures of Fig. 5 (Ni, No) with Nh = min(Ni, No) (catalogue Sec 10 defaults)
ARCHS = {"funnel (6,2,2)": (6, 2), "square (4,4,4)": (4, 4), "inverted funnel (2,2,6)": (2, 6)}


def mode_function(expr):
    """Vectorised float evaluation of a per-mode sympy formula in (lam, s~, s0, t, tau), compiled once."""
    return compiled((sy.lam, sy.s, sy.s0, sy.t, sy.tau), expr)


# ---------------------------------------------------------------- problems with general parameters
def problem(n_in: int, n_out: int, lam: float, seed: int, scale: float = 0.5, n_samples: int | None = None,
            target_std: float = 1.0):
    """A whitened random task and a random (non-aligned) lambda-balanced init with Nh = min(Ni, No)."""
    rng = np.random.default_rng(seed)
    task = random_task(n_in, n_out, n_samples or max(n_in, n_out) + 4, rng, target_std)
    W1, W2 = lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, rng, scale=scale)
    return task, W1, W2


def problem_from_numbers(n_in: int, n_out: int, lam: float, scale: float, w1, w2, syx, rot: float):
    """A lambda-balanced problem built from drawn numbers only (so hypothesis can shrink it): Syx from
    ``syx`` (No x Ni entries), the initial function scale^2 W2 W1 from the entries ``w1`` (Nh x Ni) and
    ``w2`` (No x Nh), rebalanced to ``lam`` with the hidden rotation made of Givens rotations by the
    angles ``rot``, 2 rot, ...; whitened X = sqrt(P) [I 0] with P = max(Ni, No) + 2."""
    nh = min(n_in, n_out)
    syx = np.asarray(syx, dtype=float).reshape(n_out, n_in)
    product = scale ** 2 * np.asarray(w2, dtype=float).reshape(n_out, nh) @ np.asarray(w1, dtype=float).reshape(nh, n_in)
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


def integrate(task, W1, W2, t_eval):
    """Gradient flow of the weights (solve_ivp, rtol 1e-12) with the balance monitored:
    (W1(t), W2(t)) with a leading time axis, and the balance drift."""
    flow = integrate_flow(so.flow_rhs(task.syx, task.sxx), {"W1": W1, "W2": W2}, float(t_eval[-1]),
                          t_eval=t_eval, rtol=1e-12, atol=1e-14,
                          conserved={"balance": lambda p: balance(p["W1"], p["W2"])}, conservation_tol=1e-8)
    W1t, W2t = np.moveaxis(flow.states["W1"], -1, 0), np.moveaxis(flow.states["W2"], -1, 0)
    return W1t, W2t, flow.drift["balance"]


def aligned_problem(n_in: int, n_out: int, s_task, s0, lam: float, seed: int):
    """A whitened task with prescribed singular values and a task-aligned lambda-balanced init."""
    rng = np.random.default_rng(seed)
    m, P = min(n_in, n_out), max(n_in, n_out) + 3
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
    rng = np.random.default_rng(seed)
    n_in, n_out = task.svd.n_in, task.svd.n_out
    for _ in range(max_draws):
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
    for _ in range(max_draws):
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
    m = min(n_in, n_out)
    R = random_orthogonal(n_hid, np.random.default_rng(seeds[0]))
    s1, s2 = layer_singular_values(np.asarray(s, dtype=float), lam)
    V = random_orthogonal(n_in, np.random.default_rng(seeds[1]))[:, :m]
    U = random_orthogonal(n_out, np.random.default_rng(seeds[2]))
    W1 = R[:, :m] @ (s1[:, None] * V.T)
    W2 = (U[:, :m] * s2) @ R[:, :m].T
    if n_hid > m and n_out > m and lam > 0:
        W2 = W2 + np.sqrt(lam) * np.outer(U[:, m], R[:, m])
    return W1, W2, R[:, m:]


# ---------------------------------------------------------------- representations and NTK (Sec 5, App C)
def converged_grams(task, lam: float, gram_in, gram_out):
    """W1^T W1 -> V~ gram_in(s~, lam) V~^T and W2 W2^T -> U~ gram_out(s~, lam) U~^T (per-mode formulas)."""
    gi, go = mode_function(gram_in), mode_function(gram_out)
    s = task.svd.s
    return ((task.svd.V * gi(lam, s, 0, 0, 1)) @ task.svd.V.T, (task.svd.U * go(lam, s, 0, 0, 1)) @ task.svd.U.T)


def kernel_movement(gram_in, gram_out, ni, no, lams, t_end=None, seed=5):
    """Kernel distance S(NTK(0), NTK(t_end)) over lambdas on one task: t_end None uses the converged
    per-mode Grams ``gram_in``/``gram_out`` (Thm C.3), a finite t_end the stable closed form (Thm B.5)."""
    task = random_task(ni, no, 8, np.random.default_rng(seed))
    out = []
    for lam in lams:
        W1, W2 = lambda_balanced_init(lam, ni, min(ni, no), no, np.random.default_rng(seed + 1), scale=0.2)
        if t_end is None:
            gi, go = converged_grams(task, lam, gram_in, gram_out)
        else:
            b = so.blocks(so.qq_stable([t_end], W1, W2, task.svd, lam)[0], ni)
            gi, go = b["W1tW1"], b["W2W2t"]
        out.append(float(kn.kernel_distance(kn.ntk(W1, W2, task.X), kn.ntk_from_grams(gi, go, task.X))))
    return task, np.array(out)


def train_hierarchy(lams, steps: int, lr: float = 5e-3, seed: int = 2, scale: float = 0.03):
    """Hierarchy task, lambda-balanced inits with B invertible for ``lams`` plus one large unbalanced
    Gaussian init (Fig. 4D), trained by batched GD: (task, initial W1s, W2s, final W1s, W2s)."""
    task = hierarchy_task()
    W1s, W2s = map(list, zip(*[invertible_b_init(task, lam, seed=seed, scale=scale) for lam in lams]))
    big = np.random.default_rng(seed + 1)
    W1s.append(big.standard_normal((8, 8)))
    W2s.append(big.standard_normal((8, 8)))
    hist = train_linear(np.stack(W1s), np.stack(W2s), task.X, task.Y, lr=lr, steps=steps, record_every=steps)
    return task, W1s, W2s, hist.records["W1"][-1], hist.records["W2"][-1]


# ---------------------------------------------------------------- noise robustness (App C.3)
def converged(task, lam, seed):
    """A converged lambda-balanced net: W2W1 = Syx (Alg. 1 from Syx; Thm C.3 Grams)."""
    n_in, n_out = task.svd.n_in, task.svd.n_out
    return lambda_balanced_init(lam, n_in, min(n_in, n_out), n_out, np.random.default_rng(seed), syx=task.syx)


def noise_task(n_in, n_out):
    return random_task(n_in, n_out, 12, np.random.default_rng(n_in + 10 * n_out))


def input_noise_losses(task, W1, W2, sigma: float, draws: int, seed: int) -> np.ndarray:
    """Sampled 1/2-mean losses of W2W1 on X + sigma N(0, 1) (iid input noise)."""
    noise = np.random.default_rng(seed).standard_normal((draws,) + task.X.shape)
    err = W2 @ W1 @ (task.X + sigma * noise) - task.Y
    return 0.5 * np.sum(err ** 2, axis=(1, 2)) / task.n_samples


def weight_noise_losses(task, W1, W2, sigma: float, draws: int, seed: int) -> np.ndarray:
    """Sampled 1/2-mean losses with iid N(0, sigma^2) noise on every entry of W1 and W2."""
    rng = np.random.default_rng(seed)
    A = W1 + sigma * rng.standard_normal((draws,) + W1.shape)
    B = W2 + sigma * rng.standard_normal((draws,) + W2.shape)
    return 0.5 * np.sum((B @ A @ task.X - task.Y) ** 2, axis=(1, 2)) / task.n_samples


# ---------------------------------------------------------------- random initialisations (App A.3)
def sample_balance(n_in, n_hid, n_out, var1, var2, draws, seed):
    """(draws, Nh, Nh) balance matrices of Gaussian W1 (Nh x Ni), W2 (No x Nh)."""
    rng = np.random.default_rng(seed)
    W1 = np.sqrt(var1) * rng.standard_normal((draws, n_hid, n_in))
    W2 = np.sqrt(var2) * rng.standard_normal((draws, n_out, n_hid))
    return balance(W1, W2)


def balance_spread(widths=(1, 2, 4), dims=(40, 120, 250)):
    """LeCun balance at widths k x (Ni, Nh, No): mean entrywise off-diagonal s.d. and mean
    ||Bal - lambda I||_F / ||lambda I||_F (lambda = No/Nh - 1), two draws per width."""
    ni, nh, no = dims
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
    rng = np.random.default_rng(seed)
    X = whitened_inputs(n, P, rng)
    return [Task(X, rng.standard_normal((n, P))) for _ in range(count)]


def chained_function(tasks, W1, W2, lam, durations, grid=None, solver=so.qq_exact):
    """Network function W2W1 along a task sequence from the closed form, re-started at each switch
    through the Thm 5.2 weights (QQ^T determines the dynamics; R is irrelevant)."""
    products, times, t0 = [], [], 0.0
    for task, T in zip(tasks, durations):
        t = np.linspace(0, T, grid or 2)
        fn = so.blocks(solver(t, W1, W2, task.svd, lam), W1.shape[1])["W2W1"]
        products.append(fn)
        times.append(t0 + t)
        t0 += T
        W1, W2 = weights_from_product(fn[-1], lam)
    return np.concatenate(times), np.concatenate(products)


def continual_gd(tasks, W1, W2, T, lr, records=8):
    """GD through the task sequence, T (t/tau) per task: (times, W2W1 at each record)."""
    steps = int(round(T / lr))
    sims, w1, w2 = [], W1[None], W2[None]
    for task in tasks:
        hist = train_linear(w1, w2, task.X, task.Y, lr=lr, steps=steps, record_every=steps // records)
        sims.append(hist.records["W2"][:, 0] @ hist.records["W1"][:, 0])
        w1, w2 = hist.records["W1"][-1], hist.records["W2"][-1]
    t = np.concatenate([k * T + np.linspace(0, T, records + 1) for k in range(len(tasks))])
    return t, np.concatenate(sims)


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
    return np.einsum("i,tij,j->t", task.svd.U[:, 0], W2t @ W1t, task.svd.V[:, 0])


def reversal_gd(lams, lr, T, every):
    """Batched GD of the ``reversal_problem`` nets: (times, reversed mode per lambda (T, K))."""
    probs = [reversal_problem(lam) for lam in lams]
    task = probs[0][0]
    hist = train_linear(np.stack([p[1] for p in probs]), np.stack([p[2] for p in probs]), task.X, task.Y,
                        lr=lr, steps=int(round(T / lr)), record_every=every)
    modes = np.stack([reversed_mode(p[0], hist.records["W1"][:, k], hist.records["W2"][:, k])
                      for k, p in enumerate(probs)], axis=1)
    return hist.time, modes


def new_feature_row(W1, task, item: int = 0, y_new: float = 1.0, steps: int = 200) -> np.ndarray:
    """LR-D.3: a new output row w trained by GD from w = 0 on ``item`` alone (W1 frozen, lr
    0.5/|h|^2), read out on every item: w W1 X."""
    W1 = finite_array(W1, "W1", ndim=2)
    if not 0 <= item < task.n_samples:
        raise ValueError(f"item={item!r} must index one of the {task.n_samples} items")
    h0 = W1 @ task.X[:, item]
    w = np.zeros(W1.shape[0])
    lr = 0.5 / (h0 @ h0)
    for _ in range(steps):
        w -= lr * (w @ h0 - y_new) * h0
    return w @ W1 @ task.X


def fine_tuning_tasks(base):
    """LR-D.4's three fine-tuning tasks built from the hierarchy ``base`` (catalogue protocol)."""
    t1 = base.Y.copy()
    t1[4, 2] = 1.0                                      # bird1 also gets fish1's leaf feature
    U, s, V = base.svd.U, base.svd.s, base.svd.V
    return {"T1 feature added": Task(base.X, t1),
            "T2 reversal": Task(base.X, (U * s) @ np.diag([-1.0] + [1.0] * 7) @ V.T @ base.X),
            "T3 singular values x2": Task(base.X, 2 * base.Y)}
