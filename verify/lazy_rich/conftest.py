"""Fixtures of the LR- checks: each calls a runner of ``numerics.lazy_rich`` at the configuration of
the test's scale (``numerics/lazy_rich/configs.py``), once per configuration (results are cached
so that a claim's tests and its figure share one run)."""
from functools import cache

import pytest

from numerics.lazy_rich import configs, empirical


@cache
def _run(runner, config):
    return runner(config)


@pytest.fixture
def framing(scale):
    return _run(empirical.framing, configs.FRAMING[scale])


@pytest.fixture
def lecun_balance(scale):
    return _run(empirical.lecun_balance, configs.BALANCE[scale])


@pytest.fixture
def architectures():
    return _run(empirical.architectures, configs.ARCH)


@pytest.fixture
def scale_map():
    return _run(empirical.scale_map, configs.SCALE_MAP)


@pytest.fixture
def transfer():
    return _run(empirical.transfer, configs.TRANSFER)


@pytest.fixture
def fine_tuning():
    return _run(empirical.fine_tuning, configs.FINE_TUNING)
