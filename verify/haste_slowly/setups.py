"""What the Sec 4-5 and App B runs of Make haste slowly ran beside the paper's settings.

The paper's values come from Table 1 (App H, L805-L822: lr 1e-3, 8000 epochs, ReLU width 700,
100 units per module) and, where it is silent or inconsistent (MHS-E9), from the released code
CAandL-Lab/make-haste-slowly (one random seed per run, Jax float32, init stds 0.005/H and
0.0005/(100 M) x 10 or 20, ReLU widths 500 / 600 for C = 4 / 5).  Horizons are in the paper's
own clock t/tau = epochs x lr x N (theory.conventions.flow_time), so a run at another step size
over the same t/tau deviates only in the step size.
"""
from __future__ import annotations

from numerics.haste_slowly import experiments as E
from theory.conventions import flow_time
from verify.measurement import Setup

SOURCE = ("paper Table 1 (App H, L805-L822); released code CAandL-Lab/make-haste-slowly "
          "3_context_diff/relu.py, gdln.py and diff_context_num/relu{3,4,5}.py where the paper "
          "is silent (seed, dtype, init, widths)")

#: a faithful Sec 4-5 configuration costs seconds: every run is small (N <= 40, H <= 700)
COST = ("1 seed x 8000 full-batch steps x (11-700-60 ReLU + 7 x 100-unit GDLN), ~6e10 FLOP per "
        "run; under a minute per claim on 2 CPU cores (pytest verify --scale=full)")


def _data(Cs):
    if Cs == (None,):
        return "Sec 4 task (code's H, Ring, Cross blocks), 24 datapoints"
    return f"hierarchical C-context tasks, C = {Cs} (code's context scale), 8C datapoints"


def sec45(cfg: dict, C=None, seeds=(0,), networks: str = "ReLU and ReLN",
          sensitivity: dict | None = None) -> Setup:
    """The Setup of a Sec 4 (``C=None``) or Sec 5 run (``C`` one count or a tuple of them) of
    ``cfg`` (E.SEC45_CI or E.SEC45_FULL)."""
    Cs = tuple(C) if isinstance(C, (tuple, list)) else (C,)
    n = [24 if c is None else 8 * c for c in Cs]
    widths = [{None: 700, 3: 700, 4: 500, 5: 600}[c] for c in Cs]
    scale = "full" if cfg == E.SEC45_FULL else "ci"
    common = {"data": _data(Cs), "networks": networks, "ReLU width": widths,
              "units per module": 100, "ReLU init std": [f"0.005/{w}" for w in widths]}
    ran = dict(common, **{"learning rate": cfg["lr"],
                          "horizon t/tau": [flow_time(cfg["steps"], cfg["lr"], k, "haste_slowly")
                                            for k in n],
                          "seeds": len(seeds), "dtype": cfg["dtype"]})
    paper = dict(common, **{"learning rate": E.PAPER_LR,
                            "horizon t/tau": [flow_time(8000, E.PAPER_LR, k, "haste_slowly")
                                              for k in n],
                            "seeds": 1, "dtype": "float32"})
    return Setup(scale=scale, ran=ran, paper=paper, paper_source=SOURCE,
                 sensitivity=sensitivity or {}, cost=COST)


#: ci and full configurations, for ``pytest.mark.parametrize("cfg", CONFIGS)``
def configs():
    import pytest
    return [pytest.param(E.SEC45_CI, id="ci"),
            pytest.param(E.SEC45_FULL, id="full", marks=pytest.mark.full)]
