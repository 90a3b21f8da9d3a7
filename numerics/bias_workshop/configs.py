"""The settings of the workshop paper's own experiments (001), which it does not print: the long
paper's (000 App E) where it has them, else the suite's choice, said so at each.  They run at
one scale (the theory-setting checks are cheap), so they are plain ``ci`` configurations."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.ran import Config, seeds

#: BA-T7's bias strength: the one c of the long paper's MNIST sweep the comparison is made at
HALF_WIDTH_C = 10.0
#: BA-Eq(2)'s two shapes (N_in, N_hid, N_out), one wider than deep and one not (chosen)
FLOW_SHAPES = ((5, 4, 3), (3, 6, 4))


@dataclass(frozen=True, kw_only=True)
class LinearRunConfig(Config):
    """Linear networks trained on the 4-item tree + bias (``numerics.bias.linear_runs``): GD
    steps at rate ``lr`` from N(0, std^2) weights, the data repeated ``duplicate`` times."""

    seeds: tuple[int, ...]
    n_hid: int
    std: float
    lr: float
    steps: int
    duplicate: int = 1


#: BA-S3's clock (chosen: 6 seeds, width 32, init std 3e-3, lr 2e-3, 3000 steps), and the same
#: clock with the data twice or the rate doubled (half the steps)
CLOCK = LinearRunConfig(scale="ci", seeds=seeds("ci", 6), n_hid=32, std=3e-3, lr=2e-3, steps=3000)
CLOCK_DATA_TWICE = CLOCK.replace(steps=1500, duplicate=2)
CLOCK_DOUBLE_RATE = CLOCK.replace(lr=4e-3, steps=1500)
#: BA-D2 / BA-X1's effective a0: 48 seeds at 000 App E's width 64, sigma^2 = 2e-4 and lr 2e-3
#: (2500 steps, chosen), and at half the width (BA-X1)
A0 = LinearRunConfig(scale="ci", seeds=seeds("ci", 48), n_hid=64, std=float(np.sqrt(2e-4)),
                     lr=2e-3, steps=2500)
A0_HALF_WIDTH = A0.replace(n_hid=32)
