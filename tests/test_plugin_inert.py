"""The plugin is a good citizen of every pytest session in its environment (issue 26): a session
that collects no claim-marked test imports neither torch, sympy nor the registry, keeps torch's
thread count and hypothesis' profile, and never reads the record; usage errors and
``--collect-only`` answer before anything heavy is loaded.  Each run is a fresh process
(``runpytest_subprocess``): what a session imports is the point."""
import subprocess
import sys
import time

import pytest

PLAIN = """
import sys

def test_nothing_heavy_was_imported():
    assert not {"torch", "sympy", "theory.registry", "verify.outcome"} & set(sys.modules)

def test_hypothesis_keeps_its_own_profile():
    from hypothesis import settings
    print("profile", settings.get_current_profile_name())

def test_torch_keeps_its_default_threads():
    import torch
    print("threads", torch.get_num_threads())
"""

CLAIMED = """
import pytest
from theory.registry import REGISTRY
from verify.measurement import reading

@pytest.mark.claim("BL-Eq(7)")
def test_law(claim):
    REGISTRY["BL-Eq(7)"].printed
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
"""


def damaged_record(pytester) -> list[str]:
    """A reports folder whose record is damaged: only a run that judges claims may stop on it."""
    reports = pytester.path / "reports"
    reports.mkdir()
    (reports / "claims.json").write_text("{not json")
    return ["-p", "no:cacheprovider", f"--reports-dir={reports}"]


def without_the_plugin(expression: str) -> str:
    """What a bare process prints for ``expression``: the session's value must equal it (hypothesis
    itself loads its own ``ci`` profile where a CI variable is set, torch picks its threads from
    the cores)."""
    return subprocess.run([sys.executable, "-c", f"print({expression})"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_a_session_without_claims_is_left_as_it_is(pytester):
    pytester.makepyfile(test_plain=PLAIN)
    result = pytester.runpytest_subprocess(*damaged_record(pytester), "-s")
    result.assert_outcomes(passed=3)
    profile = without_the_plugin("__import__('hypothesis').settings.get_current_profile_name()")
    threads = without_the_plugin("__import__('torch').get_num_threads()")
    result.stdout.fnmatch_lines([f"*profile {profile}*", f"*threads {threads}*"])
    assert "claims" not in result.stdout.str().split("passed")[-1]
    assert (pytester.path / "reports" / "claims.json").read_text() == "{not json"


def test_collect_only_lists_claim_tests_without_reading_the_record(pytester):
    pytester.makepyfile(test_claimed=CLAIMED)
    result = pytester.runpytest_subprocess(*damaged_record(pytester), "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*test_claimed.py::test_law*", "*test_claimed.py::claim[[]BL-Eq(7)[]]*"])


def test_a_run_that_judges_claims_still_stops_on_a_damaged_record(pytester):
    pytester.makepyfile(test_claimed=CLAIMED)
    result = pytester.runpytest_subprocess(*damaged_record(pytester))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*RecordDamaged: *claims.json is not a claims record*"])


@pytest.mark.parametrize("args, message", [
    (["--paper", "nosuch"], "*--paper: paper 'nosuch' is not known; valid: bias, *"),
    (["--claim", "BL-Eq13"], "*--claim: claim 'BL-Eq13' is not known; did you mean 'BL-Eq(13)'*"),
])
def test_a_misspelt_selection_answers_before_the_registry_loads(pytester, args, message):
    """The check reads the paper records and catalogue IDs only; the conftest below would fail
    the run if anything imported sympy or torch first."""
    pytester.makeconftest("""
import sys
def pytest_configure(config):
    assert not {"torch", "sympy"} & set(sys.modules), "loaded before the usage error"
""")
    pytester.makepyfile(test_claimed=CLAIMED)
    start = time.perf_counter()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert time.perf_counter() - start < 30  # seconds even on a loaded machine; 2 s when idle


def test_xdist_controller_starts_its_session_from_the_workers_collection(pytester):
    """The controller collects nothing: the verdict items its workers collected start its
    session, which reads the record before any test is scheduled."""
    pytester.makepyfile(test_claimed=CLAIMED)
    args = damaged_record(pytester)
    result = pytester.runpytest_subprocess(*args, "-n", "2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*RecordDamaged:*"])
    (pytester.path / "test_claimed.py").unlink()
    pytester.makepyfile(test_plain="def test_x():\n    pass\n")
    result = pytester.runpytest_subprocess(*args, "-n", "2")
    result.assert_outcomes(passed=1)


POOLS = """
import pytest
import torch
from threadpoolctl import threadpool_info
from theory.registry import REGISTRY
from verify.measurement import reading

@pytest.mark.claim("BL-Eq(7)")
def test_law(claim):
    REGISTRY["BL-Eq(7)"].printed
    print("pools", sorted({p["num_threads"] for p in threadpool_info()}), "torch", torch.get_num_threads())
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
"""


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_claims_session_runs_every_thread_pool_on_the_trainers_count(pytester, monkeypatch,
                                                                       threads):
    """torch, numpy's and scipy's BLAS and the OpenMP pools all take CLAIMS_TORCH_THREADS (one
    by default): under -n auto a second BLAS thread per worker spins on the other's core."""
    monkeypatch.setenv("CLAIMS_TORCH_THREADS", threads)
    pytester.makepyfile(test_claimed=POOLS)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", "--no-pdf")
    result.stdout.fnmatch_lines([f"*pools [[]{threads}[]] torch {threads}*"])


def test_only_the_last_open_session_of_the_suite_freezes_the_heap_and_the_next_unfreezes(
        monkeypatch, tmp_path):
    """The heap is frozen (``gc.freeze``: the collections at exit skip it) only when the last
    session of the suite's own folder in the process ends: not by a nested one, nor by a
    session of another folder."""
    import gc
    from types import SimpleNamespace

    from verify import heap, plugin, session
    monkeypatch.setattr(heap, "_OPEN", [0])

    def ends(root):
        gate = session.ClaimsGate(SimpleNamespace(rootpath=root))
        plugin.pytest_unconfigure(SimpleNamespace(pluginmanager=SimpleNamespace(get_plugin=lambda name: gate)))
    try:
        heap.opened()
        heap.opened()
        ends(session.SUITE_ROOT)  # the nested session
        ends(tmp_path)  # a session of another folder
        assert gc.get_freeze_count() == 0
        ends(session.SUITE_ROOT)
        assert gc.get_freeze_count() > 0
        heap.opened()
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
