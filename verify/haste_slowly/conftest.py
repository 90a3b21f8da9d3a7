"""Fixtures of the Make haste slowly checks: each calls a runner of ``numerics.haste_slowly``
once per process (the runners cache their results) for the configuration a test's ``scale``
picks."""
import pytest

from numerics.haste_slowly import configs
from numerics.haste_slowly import depth as D


@pytest.fixture(scope="session")
def depth():
    """``depth(scale, kind)``: the Sec 6 run of network ``kind`` ('relu', 'gdln', 'shallow') at
    ``configs.DEPTH[scale]``, all seeds (a ``numerics.haste_slowly.depth.DepthRun``)."""
    return lambda scale, kind: D.depth_run(kind, configs.DEPTH[scale])
