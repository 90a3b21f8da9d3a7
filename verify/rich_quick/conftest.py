"""Fixtures of the rich_quick verify tests."""
import zlib

import numpy as np
import pytest


@pytest.fixture
def rng(request) -> np.random.Generator:
    """A generator seeded by the test's own name: its draws do not depend on which tests ran
    before it in the process (a serial run and ``-n 2`` measure the same values)."""
    return np.random.default_rng(zlib.crc32(request.node.originalname.encode()))
