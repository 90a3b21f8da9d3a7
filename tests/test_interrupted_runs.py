"""A run killed anywhere leaves its reports all old or all new (issue 26, acceptance 3).

A tiny project of three claim tests (one saves a figure) runs once to make the old reports; then
each of ten runs is killed at one point -- in a test, at a report file being written, just
before or just after the switch that publishes the new generation -- by SIGINT or SIGKILL, sent
by the run to itself at that point (a conftest wraps the writer's functions), so every point is
hit exactly.  After each: the reports folder shows the old set or the complete new one, a
SIGINT ended the run with a line and no traceback, and the next writer leaves no orphan.
"""
import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from theory.registry import load_all
from verify.report import files, generations
from verify.report import record as R
from tests.test_report_files import report_files

load_all()

PROJECT = '''
import pytest
import matplotlib.pyplot as plt
from theory.registry import REGISTRY
from verify.measurement import exact, reading

@pytest.mark.claim("BL-Eq(7)")
def test_one(claim, report_figure):
    REGISTRY["BL-Eq(7)"].printed
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="theory")
    ax.set_xlabel("t"); ax.set_ylabel("a"); ax.legend()
    report_figure(fig, "a synthetic figure")

@pytest.mark.claim("BL-Def-EffRank")
def test_two(claim):
    REGISTRY["BL-Def-EffRank"].printed, REGISTRY["BL-Def-EffRank"].corrected
    claim.erratum(
        printed=claim.measure("printed rho(I_4) equals 4", -4.0, "==", 4.0, source=exact("sympy")),
        corrected=claim.measure("corrected rho(I_4) equals 4", 4.0, "==", 4.0, source=exact("sympy")))

@pytest.mark.claim("BL-Eq(12)")
def test_three(claim):
    REGISTRY["BL-Eq(12)"].printed["k"], REGISTRY["BL-Eq(12)"].printed["k_dot"]
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
'''

#: CLAIMS_KILL=<point>:<signal>: the run sends itself the signal at that point
KILLER = '''
import os
import signal

import pytest

POINT, _, SIGNAL = os.environ.get("CLAIMS_KILL", "").partition(":")


def kill():
    os.kill(os.getpid(), getattr(signal, SIGNAL))


@pytest.fixture(autouse=True)
def kill_in_test(request):
    if request.node.name == POINT:
        kill()
    yield


def pytest_configure(config):
    from numerics import atomic
    from verify.report import generations
    write_with, switch = atomic.write_with, generations._switch

    def writing(path, write, *args):
        if os.path.basename(str(path)) == POINT:
            kill()
        return write_with(path, write, *args)

    def switching(reports, generation):
        if POINT == "before switch":
            kill()
        switch(reports, generation)
        if POINT == "after switch":
            kill()
    atomic.write_with, generations._switch = writing, switching
'''

POINTS = [
    ("test_one", "SIGINT"),         # before any claim is judged: the record says it stopped
    ("test_two", "SIGKILL"),
    ("claims.json", "SIGINT"),
    ("timings.json", "SIGKILL"),
    ("bias.pdf", "SIGINT"),
    ("summary.pdf", "SIGKILL"),
    ("index.html", "SIGINT"),
    ("bias.html", "SIGKILL"),
    ("before switch", "SIGINT"),
    ("after switch", "SIGKILL"),
]


def complete(data: bytes, name: str) -> bool:
    if name.endswith(".pdf"):
        return data.rstrip().endswith(b"%%EOF")
    if name.endswith(".html"):
        return data.rstrip().endswith(b"</html>")
    if name.endswith(".json"):
        json.loads(data)
    return True


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The project and its old reports (one complete run)."""
    import subprocess
    import sys
    root = tmp_path_factory.mktemp("project")
    (root / "test_claims.py").write_text(PROJECT)
    (root / "conftest.py").write_text(KILLER)
    old = root / "old"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           f"--reports-dir={old}"], cwd=root, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1])))
    assert proc.returncode == 0, proc.stdout[-3000:]
    return root, old, report_files(old)


@pytest.mark.parametrize("point, sig", POINTS, ids=[f"{p}-{s}" for p, s in POINTS])
def test_a_run_killed_at_any_point_leaves_the_old_reports_or_the_new(project, tmp_path, point, sig):
    import subprocess
    import sys
    root, old_folder, old = project
    work = tmp_path / "reports"
    shutil.copytree(old_folder, work, symlinks=True)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           f"--reports-dir={work}"], cwd=root, capture_output=True, text=True,
                          env=dict(os.environ, CLAIMS_KILL=f"{point}:{sig}",
                                   PYTHONPATH=str(Path(__file__).parents[1])))
    if sig == "SIGKILL":
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == pytest.ExitCode.INTERRUPTED, proc.stdout[-3000:]
        assert "Traceback" not in proc.stdout + proc.stderr
    now = report_files(work)
    if now != old:
        assert set(now) == set(old), "a report is missing or extra: neither all old nor all new"
        assert all(complete(data, name) for name, data in now.items())
        doc = R.load(work / "claims.json")
        assert doc["generated"] != json.loads(old["claims.json"])["generated"]
        assert all(now[n] != old[n] for n in now if n.endswith(".pdf") or n.endswith(".html")), \
            "an old report beside the new record"
        if point == "test_one":  # stopped before any verdict: the record says it ran and stopped
            assert doc["interrupted"] is True
            assert all(c["run"]["generated"] != doc["generated"] for c in doc["claims"])
    if point in ("claims.json", "bias.pdf", "index.html", "before switch"):
        assert now == old and "nothing was published" in proc.stdout
    # the next writer removes whatever this one left
    from verify.report.writer import write_run
    prov = R.Provenance(R.now(), "abc", False, "ci", "ci", {}, "pytest", {})
    write_run(R.RunRecord(prov, []), work, render_reports=False, progress=lambda m: None)
    left = [p.name for p in work.iterdir() if p.name.startswith((generations.GENERATION,
                                                                 generations.STAGE))]
    assert left == [generations.current(work).name]
    assert not [p for p in work.rglob("*.tmp")]
    assert files.LOCK_NAME in os.listdir(work)
