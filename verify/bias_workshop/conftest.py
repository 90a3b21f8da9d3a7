"""The workshop paper's runs are the long paper's (``verify/bias/conftest.py``), plus its own
(``numerics.bias_workshop.runs``): the linear networks of several widths against one ReLU
network (BA-T7), the matrix flows of BA-Eq(2) and the trained linear networks of BA-S3/D2/X1."""
import re
from pathlib import Path

import pytest

from numerics.bias_workshop import runs
from verify.bias.conftest import (both_layers, hierarchy, hierarchy8, hierarchy_ci,  # noqa: F401
                                  image_runs, mnist, parallel, parallel_ci, xor, xor_ci)


@pytest.fixture
def half_width(scale):
    """{linear hidden width: runs} against one ReLU network (BA-T7;
    ``numerics.bias_workshop.runs.half_width_setting``)."""
    config, widths = runs.half_width_setting(scale)
    return {w: image_runs(config, w) for w in widths}


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
    """BA-Eq(2)'s flows (``numerics.bias_workshop.runs.decoupled_flows``)."""
    return runs.decoupled_flows()


@pytest.fixture(scope="session")
def trained_linear():
    """BA-S3/D2/X1's trained linear networks (``numerics.bias_workshop.runs.trained_linear``)."""
    return runs.trained_linear()
