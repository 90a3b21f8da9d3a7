"""Datasets of "Make haste slowly" (columns are datapoints), built as the released code does.

* :func:`xor_margin` -- App C Eq. (11, 12), MHS-C-Eq(11,12).
* :func:`section4` -- the 3-context "diverse" task of Sec 4 (MHS-S4-Data; catalogue §9.3).
* :func:`contexts` -- the hierarchical C-context tasks of Sec 5/6 (MHS-S5-Data; catalogue §9.4).
* :func:`context_gates` -- the gate vectors of pathways active in a set of contexts.
"""
from __future__ import annotations

import itertools

import numpy as np

from numerics.datasets import hierarchy
from numerics.validation import InvalidArgument, finite_array, integer

N_ITEMS = 8
#: context one-hot scale of the released Sec 5 code (undocumented in the paper, MHS-E17)
CODE_CONTEXT_SCALE = {3: 1.0, 4: 1.1, 5: 1.35}


def xor_margin(delta: float):
    """(X (3, 4), y (1, 4)): XoR on the first two coordinates, margin +-delta on the third."""
    delta = float(finite_array(delta, "delta"))
    if delta < 0:
        raise InvalidArgument(f"delta={delta!r} must be non-negative")
    X = np.array([[-1.0, 1, -1, 1], [-1, -1, 1, 1], [-delta, delta, delta, -delta]])
    return X, np.array([[-1.0, 1, 1, -1]])


def hierarchy_block(n_items: int = N_ITEMS) -> np.ndarray:
    """The (2n-1, n) binary hierarchy H of Saxe et al. (2019), root row first."""
    if isinstance(n_items, bool) or int(n_items) != n_items or n_items < 2:
        raise InvalidArgument(f"n_items={n_items!r} must be a power of two >= 2")
    depth = int(np.log2(n_items))
    if 2 ** depth != n_items:
        raise InvalidArgument(f"n_items={n_items!r} must be a power of two")
    return hierarchy(depth)[1]


def ring_block() -> np.ndarray:
    """Context-2 block of Sec 4: the code's ring with literals 0.33/0.66 (not 1/3, 2/3)."""
    base = np.array([0, .33, .66, 1, 1, .66, .33, 0])
    rows = [np.ones(8)] + [np.roll(base, -k) for k in range(8)] + [np.roll(base, -k) for k in range(6)]
    return np.array(rows)


def cross_block() -> np.ndarray:
    """Context-3 block of Sec 4: H with its four pair rows crossed."""
    H = hierarchy_block()
    H[3:7] = [[1, 0, 1, 0, 0, 0, 0, 0], [0, 1, 0, 1, 0, 0, 0, 0],
              [0, 0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 0, 0, 1, 0, 1]]
    return H


def _assemble(blocks, scale: float):
    C, n = len(blocks), blocks[0].shape[1]
    X = np.vstack([np.tile(np.eye(n), C), scale * np.kron(np.eye(C), np.ones((1, n)))])
    common = np.tile(hierarchy_block(n), C)
    specific = np.block([[blocks[c] if k == c else np.zeros_like(blocks[c]) for k in range(C)]
                         for c in range(C)])
    Y = np.vstack([common, specific])
    return X, Y


def section4():
    """(X (11, 24), Y (60, 24)): items x contexts, context-major columns; blocks H, Ring, Cross."""
    return _assemble([hierarchy_block(), ring_block(), cross_block()], 1.0)


def contexts(C: int, scale: float | None = None):
    """(X (8+C, 8C), Y (15(C+1), 8C)): common H plus one H per context; ``scale`` multiplies the
    context one-hots (default: the released code's value, 1 / 1.1 / 1.35 for C = 3 / 4 / 5)."""
    if int(C) != C or C < 2:
        raise InvalidArgument(f"C={C!r} must be an integer >= 2")
    scale = CODE_CONTEXT_SCALE.get(C, 1.0) if scale is None else float(scale)
    if not np.isfinite(scale) or scale <= 0:
        raise InvalidArgument(f"scale={scale!r} must be positive")
    return _assemble([hierarchy_block()] * C, scale)


def context_of(C: int, n_items: int = N_ITEMS) -> np.ndarray:
    """(N,) context index of every datapoint (context-major columns)."""
    return np.repeat(np.arange(integer(C, "C")), integer(n_items, "n_items"))


def context_gates(C: int, active_sets, n_items: int = N_ITEMS) -> np.ndarray:
    """(len(active_sets), N) 0/1 gates: pathway k is on exactly on the contexts in active_sets[k]."""
    ctx = context_of(C, n_items)
    for k, s in enumerate(active_sets):
        if not set(s) <= set(range(int(C))):
            raise InvalidArgument(f"active_sets[{k}]={s!r} must name contexts in range({C})")
    return np.array([np.isin(ctx, list(s)).astype(float) for s in active_sets])


def k_of_c(C: int, k: int):
    """All k-subsets of the C contexts (pathways active in k contexts), in a fixed order."""
    integer(C, "C")
    if isinstance(k, bool) or int(k) != k:
        raise InvalidArgument(f"k={k!r} must be an integer in [1, C={C}]")
    if not 1 <= k <= C:
        raise InvalidArgument(f"k={k!r} must lie in [1, C={C}]")
    return [set(s) for s in itertools.combinations(range(int(C)), int(k))]


def zero_output_loss(Y) -> float:
    """L(0) = 1/2 ||Y||^2: the 1/2-sum loss of a network whose output is zero (the loss every run
    starts from, up to its small init)."""
    return 0.5 * float(np.sum(finite_array(Y, "Y") ** 2))


def contextual_statistics(X, Y, C: int, n_items: int = N_ITEMS):
    """Per (C-1)-context pathway p (off in context p): Sigma^yx(p) of the common pathway's
    residual R = Y - Y X^+ X on item inputs, and Sigma^x(j, p); 1/N over all datapoints (App F)."""
    X, Y = finite_array(X, "X", ndim=2), finite_array(Y, "Y", ndim=2)
    if X.shape[1] != Y.shape[1] or X.shape[1] != n_items * C:
        raise InvalidArgument(f"X {X.shape} and Y {Y.shape} must have {n_items} x C = {n_items * C} "
                              "datapoints")
    N = X.shape[1]
    R = Y - Y @ np.linalg.pinv(X) @ X
    G = context_gates(C, [set(range(C)) - {c} for c in range(C)], n_items)
    Xi = X[:n_items]
    syx = [(R * G[p]) @ Xi.T / N for p in range(C)]
    sx = [[(Xi * G[j]) @ (Xi * G[p]).T / N for p in range(C)] for j in range(C)]
    return syx, sx


def overlap_and_rho(X, Y, C: int):
    """(U_0^T U_1 in pathway 0's shared-V basis, rho = Sigma^x(1,0) Sigma^x(0,0)^+, S(0), D(0)):
    U_j := Sigma^yx(j) V_0 S_0^{-1} (App F's recipe)."""
    syx, sx = contextual_statistics(X, Y, C)
    U, S, Vt = np.linalg.svd(syx[0])
    r = int((S > 1e-10).sum())
    V0, S0 = Vt[:r].T, S[:r]
    U1 = syx[1] @ V0 / S0
    rho = sx[1][0] @ np.linalg.pinv(sx[0][0])
    return U[:, :r].T @ U1, rho, S0, float(sx[0][0][0, 0])


def all_tasks(cfg):
    """{name: (X, Y)} of every task of a ``configs.Tasks`` (the Sec 4 task, and the hierarchical
    C-context tasks at unit and released context scale) and the ``numerics.ran.Ran`` of the set."""
    from numerics.haste_slowly.configs import Tasks
    from numerics.ran import Ran
    if not isinstance(cfg, Tasks):
        raise InvalidArgument(f"cfg must be a configs.Tasks, got {type(cfg).__name__}")
    tasks = {"Sec 4": section4()}
    for C in cfg.contexts:
        for scale in sorted({1.0, CODE_CONTEXT_SCALE.get(C, 1.0)}):
            tasks[f"C = {C}, scale {scale:g}"] = contexts(C, scale)
    distinct = sum(len({tuple(c) for c in X.T}) for X, _ in tasks.values())
    points = sum(X.shape[1] for X, _ in tasks.values())
    ran = Ran.of(cfg, all_tasks, data=f"Sec 4 task and hierarchical C = "
                                      f"{', '.join(map(str, cfg.contexts))} tasks (unit and code "
                                      f"context scales): {points} datapoints, {distinct} distinct "
                                      "inputs")
    return tasks, ran
