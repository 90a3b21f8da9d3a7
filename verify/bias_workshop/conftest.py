"""The workshop paper's runs are the long paper's (``verify/bias/conftest.py``), plus the
linear networks of several widths against one ReLU network (BA-T7)."""
import re
from pathlib import Path

import pytest

from numerics.bias import configs
from numerics.bias.linear_flows import decoupled_flow
from numerics.bias.linear_runs import linear_modes
from verify.bias.conftest import (both_layers, hierarchy, hierarchy8, hierarchy_ci,  # noqa: F401
                                  image_runs, mnist, parallel, parallel_ci, xor, xor_ci)


@pytest.fixture
def half_width(scale):
    """{linear hidden width: runs} against one ReLU network of the config's width: a quarter,
    half and all of it (BA-T7), every member with the bias pixel."""
    config = configs.MNIST[scale].replace(cs=(10.0,))
    return {w: image_runs(config, w) for w in (config.n_hid // 4, config.n_hid // 2, config.n_hid)}


@pytest.fixture(scope="session")
def paper_texts():
    """{'000': the long paper's text, '001': the workshop paper's}, whitespace collapsed, from the
    suite's own copy of the two texts (``verify/bias_workshop/texts/``, copied from the shared
    papers folder) for BA-X1 and BA-X3."""
    folder = Path(__file__).with_name("texts")
    return {key: re.sub(r"\s+", " ", next(folder.glob(f"{key}_*.txt")).read_text(encoding="utf-8"))
            for key in ("000", "001")}


@pytest.fixture(scope="session")
def decoupled_flows():
    """BA-Eq(2): the matrix gradient flow from an aligned balanced init (True) and from a small
    random one of the same effective a0 (False), shapes (N_in, N_hid, N_out) = (5, 4, 3) and
    (3, 6, 4)."""
    return {aligned: [decoupled_flow(aligned, *shape, seed=k)
                      for k, shape in enumerate(((5, 4, 3), (3, 6, 4)))]
            for aligned in (True, False)}


@pytest.fixture(scope="session")
def trained_linear():
    """Trained linear networks on the 4-item tree + bias (``numerics.bias.linear_runs``):
    'clock' (6 seeds, lr 2e-3), 'clock, data twice' and 'clock, lr 4e-3' (BA-S3); 'a0' (48 seeds
    of width 64, sigma^2 = 2e-4, lr 2e-3; BA-D2) and 'a0, half width' (width 32; BA-X1)."""
    clock = dict(seeds=range(6), n_hid=32, std=3e-3)
    return {"clock": linear_modes(**clock, lr=2e-3, steps=3000),
            "clock, data twice": linear_modes(**clock, lr=2e-3, steps=1500, duplicate=2),
            "clock, lr 4e-3": linear_modes(**clock, lr=4e-3, steps=1500),
            "a0": linear_modes(seeds=range(48)),
            "a0, half width": linear_modes(seeds=range(48), n_hid=32)}
