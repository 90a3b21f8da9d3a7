"""Problem sizes of the LR- reproductions: ``ci`` (default, the whole LR part in under a minute on
2 cores) and ``full`` (more seeds, more Monte Carlo draws, longer training; only with --scale=full).

A test takes ``size`` through ``@pytest.mark.parametrize("size", SIZES)``: one function, two sizes."""
import pytest

CI = dict(name="ci", noise_draws=20000, gd_seeds=4, rep_steps=4000, moment_draws=200, framing_seeds=(1,))
FULL = dict(name="full", noise_draws=200000, gd_seeds=16, rep_steps=16000, moment_draws=2000,
            framing_seeds=(1, 2, 3, 4, 5, 6, 7, 8))

SIZES = [pytest.param(CI, id="ci"), pytest.param(FULL, id="full", marks=pytest.mark.full)]
