"""Gating patterns a bias-free ReLU unit can implement on one-hot item (+) one-hot context
inputs (MHS-Lem4.1, App D): exhaustive enumeration with an LP feasibility test per pattern.

A unit with item weights a and context weights c is on for datapoint (i, k) iff a_i + c_k > 0.
"""
from __future__ import annotations

import itertools

import numpy as np
from scipy.optimize import linprog

from numerics.validation import InvalidArgument, integer

#: strict ">" as ">= MARGIN" with weights in [-BOUND, BOUND]; the system is scale-free, so any
#: feasible pattern is feasible with margin 1e-3 inside this box.
MARGIN, BOUND = 1e-3, 10.0


def realisable(pattern: np.ndarray, bias: bool = False) -> bool:
    """Is the (n_items, C) 0/1 ``pattern`` = step(a_i + c_k [+ b]) for some weights?"""
    pattern = np.asarray(pattern)
    if pattern.ndim != 2 or not np.isin(pattern, (0, 1)).all():
        raise InvalidArgument(f"pattern must be a 2-D 0/1 array, got {pattern!r}")
    n, C = pattern.shape
    nv = n + C + bias
    rows, rhs = [], []
    for i, k in itertools.product(range(n), range(C)):
        row = np.zeros(nv)
        row[i] = row[n + k] = 1.0
        if bias:
            row[-1] = 1.0
        if pattern[i, k]:
            rows.append(-row)
            rhs.append(-MARGIN)
        else:
            rows.append(row)
            rhs.append(0.0)
    res = linprog(np.zeros(nv), A_ub=np.array(rows), b_ub=np.array(rhs),
                  bounds=[(-BOUND, BOUND)] * nv, method="highs")
    return res.status == 0


def has_xor_submatrix(pattern) -> bool:
    """Two items and two contexts on which the pattern is an XOR (a 2x2 [[1,0],[0,1]] minor)."""
    P = np.asarray(pattern)
    for i, j in itertools.combinations(range(P.shape[0]), 2):
        for k, l in itertools.combinations(range(P.shape[1]), 2):
            if P[i, k] == P[j, l] != P[i, l] == P[j, k]:
                return True
    return False


def lemma_form(pattern) -> bool:
    """The patterns Lemma 4.1 admits: context-consistent (constant over items in each context),
    item-consistent (constant over contexts for each item), or a single datapoint."""
    P = np.asarray(pattern)
    return bool((P == P[:1]).all() or (P == P[:, :1]).all() or P.sum() == 1)


def enumerate_patterns(n_items: int, C: int, bias: bool = False):
    """Every (n_items, C) pattern with its realisability; a list of (pattern, realisable)."""
    n_items, C = integer(n_items, "n_items"), integer(C, "C")
    if n_items * C > 16:
        raise InvalidArgument(f"n_items*C={n_items * C} > 16: 2**(n*C) patterns is too many")
    out = []
    for bits in itertools.product((0, 1), repeat=n_items * C):
        P = np.array(bits).reshape(n_items, C)
        out.append((P, realisable(P, bias)))
    return out


def survey(cases=((2, 2), (2, 3), (3, 3))) -> tuple[dict, bool]:
    """Over every (n_items, C) pattern of each case: ({case: number of realisable patterns Lemma
    4.1 does not admit}, whether realisable <=> no 2x2 XOR submatrix holds for every pattern)."""
    beyond, exact_ok = {}, True
    for n, C in cases:
        pats = enumerate_patterns(n, C)
        beyond[(n, C)] = sum(not lemma_form(p) for p, ok in pats if ok)
        exact_ok &= all(ok == (not has_xor_submatrix(p)) for p, ok in pats)
    return beyond, exact_ok
