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


def pytest_collection_finish(session):
    """With ``CLAIMS_REJECTS_DUMP=path``, write {test id: claim IDs of its rejects marker} there
    (read by tests/test_perturbation_coverage.py)."""
    import json
    import os
    path = os.environ.get("CLAIMS_REJECTS_DUMP")
    if path:
        marks = {item.nodeid: [i for m in item.iter_markers("rejects") for i in m.args]
                 for item in session.items}
        with open(path, "w") as fh:
            json.dump({k: v for k, v in marks.items() if v}, fh)
