"""Measurements and setups shared by the empirical tests of the bias paper (BL).

A qualitative claim of the paper comparing two conditions is decided by the direction it states,
shown over seeds: a one-sided seed test of that direction at the conventional 5% level, measured
with the paper's words as the source (a seed-mean difference alone would pass half the time by
chance when the conditions do not differ).  The setups name the settings of App E (L648-L660) that
each run changed; time is always the paper's t/tau (``theory.conventions.flow_time``).
"""
from __future__ import annotations

import numpy as np
from scipy.stats import ttest_1samp

from numerics.bias import stats
from numerics.bias.experiments import N_HID, scale
from verify.measurement import Setup, paper, reading

#: App E (L654-L658): the toy tasks' settings, the same for Figs 2-6 and 9-12.
TOY_PAPER = {"hidden width": 64, "init variance sigma^2": 2e-4, "optimiser": "full-batch GD",
             "learning rate": 2e-4, "loss": "squared error (1/2-sum)"}
TOY_SOURCE = "paper App E L654-L658 (hidden 64, sigma^2 = 2e-4, full-batch GD, lr 2e-4)"
TOY_COST = ("the same runs at lr 2e-4 (25x the steps): 2 activations x 20-50 members x "
            "37,500-75,000 full-batch steps of a 64-unit network on 4 items; ~1 min per task on one "
            "H100, 1-2 min on 2 CPU cores (verify --scale=full)")


def toy_setup(scale_name: str, task: str, seeds: int, horizon_tau: float, sensitivity=None,
              **extra) -> Setup:
    """The Setup of a toy-task run at ``scale_name`` ('ci': lr 25x the paper's; 'full': paper's);
    ``sensitivity`` maps a deviating setting to the measurement showing it harmless."""
    sc = scale(scale_name)
    ran = {"task": task, "hidden width": N_HID, "init variance sigma^2": 2e-4,
           "optimiser": "full-batch GD", "learning rate": sc.lr, "loss": "squared error (1/2-sum)",
           "seeds": seeds, "horizon": f"{horizon_tau:g} t/tau", "dtype": "float64", **extra}
    return Setup(scale=scale_name, ran=ran, paper=dict(TOY_PAPER), paper_source=TOY_SOURCE,
                 sensitivity=sensitivity or {}, cost=TOY_COST)


def direction(claim, what: str, smaller, larger, where: str, words: str, paired: bool = False):
    """The paper's stated direction mean(smaller) < mean(larger), shown over seeds by a one-sided
    Welch (or paired) t-test at the 5% level (decisive: the paper's words are the source)."""
    smaller, larger = np.asarray(smaller, float), np.asarray(larger, float)
    test = stats.paired_less if paired else stats.less
    _, p = test(smaller, larger)
    return [claim.measure(f"{what}: one-sided {'paired' if paired else 'Welch'} t-test p over "
                          f"{smaller.size} + {larger.size} seeds", p, "<", 0.05,
                          source=paper(where, words))]


def majority(claim, what: str, fractions, where: str, words: str):
    """'Most units': the seed-mean fraction above one half (decisive, the paper's word), and a
    one-sided one-sample t-test of it over seeds (the suite's reading of the margin)."""
    fractions = np.asarray(fractions, float)
    p = float(ttest_1samp(fractions, 0.5, alternative="greater").pvalue)
    return [claim.measure(f"{what}: seed mean", float(fractions.mean()), ">", 0.5,
                          source=paper(where, words)),
            claim.measure(f"{what}: one-sided one-sample t-test p of a mean above 1/2 over "
                          f"{fractions.size} seeds", p, "<", 0.05,
                          source=reading("the margin over one half, at the conventional 5% level"))]
