# torch cannot be imported twice in one process; pytester's in-process runs drop the modules
# they imported, so import the heavy ones before any of them runs.
import matplotlib.pyplot  # noqa: F401
import torch  # noqa: F401

import verify.report.pdf  # noqa: F401

pytest_plugins = ["pytester"]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "rejects(*ids): this test shows the checks of these exact claims reject a "
                   "perturbed version (changed constant, flipped sign, dropped factor)")
