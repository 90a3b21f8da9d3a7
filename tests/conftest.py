# torch cannot be imported twice in one process; pytester's in-process runs drop the modules
# they imported, so import the heavy ones before any of them runs.
import matplotlib.pyplot  # noqa: F401
import pytest
import torch  # noqa: F401

import verify.report.pdf  # noqa: F401

pytest_plugins = ["pytester"]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "rejects(*ids): this test shows the checks of these claims reject a perturbed "
                   "version (exact claims: a changed constant, flipped sign, dropped factor) or a "
                   "synthetic counter-scenario (empirical claims: not 'holds', while a scenario "
                   "that satisfies the paper gives 'holds')")


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


@pytest.fixture
def decide():
    """``decide(*measurements, faithful=True)``: the verdict the empirical verdict rule gives
    ``measurements`` from a run that is (or is not) faithful to the paper
    (``verify.outcome.decide``).  Rejection tests of empirical claims feed it the measurements
    their evidence functions make from a synthetic counter-scenario (and from one that
    satisfies the paper)."""
    from verify.outcome import decide as verdict
    return verdict
