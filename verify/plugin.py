"""The pytest plugin of the claims suite (loaded through the ``pytest11`` entry point).

* ``@pytest.mark.claim("ID", ...)`` ties a test to claims of ``theory``'s registry; unknown IDs are
  a usage error at collection.
* The ``claim`` fixture is the test's :class:`verify.outcome.ClaimRecorder`.
* ``report_figure(fig, caption)`` hands a matplotlib figure to the report of the test's claims.
* After the last test of each claim, a verdict item ``claim[ID]`` compares the aggregated verdict
  with the registry's expected verdict and fails with both verdicts and the evidence.
* Every run that collected a claim test writes ``reports/claims.json`` (only the claims that ran)
  and, unless ``--no-pdf``, the per-paper PDFs and ``summary.pdf``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from verify.outcome import ClaimRecorder, ClaimResult
from verify.profiles import register_profiles

register_profiles()


@dataclass
class FigureEntry:
    figure: object
    caption: str
    claims: tuple[str, ...]


@dataclass
class Run:
    reports_dir: Path
    pdf: bool
    results: dict[str, ClaimResult] = field(default_factory=dict)
    timings: dict[str, dict] = field(default_factory=dict)
    figures: list[FigureEntry] = field(default_factory=list)
    claim_items: int = 0
    #: with --claim / --paper, the claims asked for: tests selected through them may record
    #: other claims too, whose verdicts would then rest on part of their checks only
    selected: set | None = None
    started: float = field(default_factory=time.time)
    #: the last run's claims by ID (to name the conditions that moved in a regression message)
    previous: dict = field(default_factory=dict)


RUN = pytest.StashKey[Run]()


class VerdictRegression(Exception):
    pass


def pytest_addoption(parser):
    group = parser.getgroup("claims", "claims suite")
    group.addoption("--reports-dir", default=None,
                    help="where claims.json and the PDFs go (default: <rootdir>/reports)")
    group.addoption("--no-pdf", action="store_true", help="write claims.json only")
    group.addoption("--claim", action="append", default=[], metavar="ID",
                    help="run only the tests of this claim (repeatable)")
    group.addoption("--paper", action="append", default=[], metavar="KEY",
                    help="run only the tests of this paper's claims (repeatable)")
    group.addoption("--scale", choices=("ci", "full"), default="ci",
                    help="'full' also runs the full-scale reproductions marked 'full'")
    group.addoption("--dask", default=None, metavar="ADDRESS",
                    help="run sweeps on this Dask scheduler (default: $DASK_SCHEDULER_ADDRESS, "
                         "else the local machine)")


def pytest_configure(config):
    config.addinivalue_line("markers", "claim(*ids): ties a verify test to claim IDs")
    config.addinivalue_line("markers", "full: a full-scale reproduction (run with --scale=full)")
    from numerics.models import configure_threads
    configure_threads()
    if config.getoption("--dask"):
        import os
        os.environ["DASK_SCHEDULER_ADDRESS"] = config.getoption("--dask")
    reports = config.getoption("--reports-dir") or Path(str(config.rootpath)) / "reports"
    config.stash[RUN] = Run(reports_dir=Path(reports), pdf=not config.getoption("--no-pdf"),
                            previous=_previous_record(Path(reports)))


def _moved(result, previous: dict | None) -> str:
    """The conditions behind a changed verdict: those whose outcome moved since the last run's
    record, else the failed conditions of the deciding checks."""
    lines = []
    if previous:
        before = {m["name"]: m["passed"] for m in previous.get("measurements", [])}
        for m in result.deciding_measurements:
            if m.name in before and before[m.name] != m.passed:
                lines.append(f"moved: {m.name}: {'passed' if before[m.name] else 'failed'} before, "
                             f"{'passed' if m.passed else 'failed'} now ({m.text()})")
    if not lines:
        lines = [f"deciding: {m.text()}" for m in result.deciding_measurements if not m.passed][:5]
    return "".join(line + "\n" for line in lines)


def _previous_record(reports_dir: Path) -> dict:
    """The last run's claims by ID, to name the conditions that moved; empty if unreadable."""
    import json
    try:
        doc = json.loads((reports_dir / "claims.json").read_text())
        return {c["id"]: c for c in doc.get("claims", []) if isinstance(c, dict) and "id" in c}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def claim_ids(item) -> tuple[str, ...]:
    return tuple(i for m in item.iter_markers("claim") for i in m.args)


class VerdictItem(pytest.Item):
    """Compares one claim's aggregated verdict with its expected verdict."""

    def __init__(self, *, claim_id: str, **kwargs):
        super().__init__(**kwargs)
        self.claim_id = claim_id

    def runtest(self):
        from theory.registry import REGISTRY
        result = self.config.stash[RUN].results.get(self.claim_id)
        expected = REGISTRY[self.claim_id].expected
        if result is None or not result.checks:
            raise VerdictRegression(
                f"{self.claim_id}: expected {expected!r}, but no check recorded a verdict "
                "(did its tests error or skip?)")
        if result.verdict != expected:
            raise VerdictRegression(
                f"{self.claim_id}: measured verdict {result.verdict!r} != expected {expected!r}\n"
                + _moved(result, self.config.stash[RUN].previous.get(self.claim_id))
                + f"evidence: {result.evidence}")
        if REGISTRY[self.claim_id].kind == "empirical" and result.setup is None:
            raise VerdictRegression(
                f"{self.claim_id}: an empirical claim must record its setup (what ran beside the "
                "paper's settings): pass setup=Setup(...) to the recorder")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, VerdictRegression):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"claim[{self.claim_id}]"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    from theory.registry import load_all
    registry = load_all()
    _select(config, items, registry)
    selected = config.stash[RUN].selected
    last = {}
    for index, item in enumerate(items):
        for cid in claim_ids(item):
            if cid not in registry:
                raise pytest.UsageError(f"{item.nodeid}: claim ID {cid!r} is not registered")
            if selected is None or cid in selected:
                last[cid] = index
    config.stash[RUN].claim_items = sum(1 for item in items if claim_ids(item))
    if not config.getoption("--scale") == "full":
        skip_full = pytest.mark.skip(reason="full-scale reproduction: run with --scale=full")
        for item in items:
            if item.get_closest_marker("full"):
                item.add_marker(skip_full)
    inserts = sorted(((i, cid) for cid, i in last.items()), reverse=True)
    for index, cid in inserts:
        parent = items[index].parent
        verdict = VerdictItem.from_parent(parent, name=f"claim[{cid}]", claim_id=cid)
        items.insert(index + 1, verdict)


def _select(config, items, registry):
    """Apply --claim / --paper: keep the tests tied to those claims, deselect the rest."""
    wanted_ids, papers = set(config.getoption("--claim")), set(config.getoption("--paper"))
    for cid in wanted_ids:
        if cid not in registry:
            raise pytest.UsageError(f"--claim {cid!r} is not a registered claim")
    if not wanted_ids and not papers:
        return
    config.stash[RUN].selected = wanted_ids | {c.id for c in registry if c.paper in papers}
    keep, drop = [], []
    for item in items:
        ids = claim_ids(item)
        chosen = any(c in wanted_ids or registry[c].paper in papers for c in ids if c in registry)
        (keep if chosen else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture
def claim(request) -> ClaimRecorder:
    ids = claim_ids(request.node)
    if not ids:
        raise pytest.UsageError(f"{request.node.nodeid} uses 'claim' without @pytest.mark.claim")
    return ClaimRecorder(request.config.stash[RUN].results, ids, test=request.node.name)


@pytest.fixture
def report_figure(request):
    """``report_figure(fig, caption)``: put ``fig`` into the report of this test's claims."""
    ids = claim_ids(request.node)
    if not ids:
        raise pytest.UsageError(f"{request.node.nodeid} uses 'report_figure' without a claim mark")
    run = request.config.stash[RUN]

    def add(fig, caption: str):
        if not caption:
            raise ValueError("caption must say what the figure shows")
        run.figures.append(FigureEntry(fig, caption, ids))
        return fig
    return add


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if isinstance(item, VerdictItem):
        return
    ids = claim_ids(item)
    if not ids:
        return
    run = item.config.stash[RUN]
    # Setup counts too: module-scoped fixtures (shared training runs) are paid for there.
    timing = run.timings.setdefault(item.nodeid, {"seconds": 0.0, "claims": list(ids)})
    timing["seconds"] += call.duration
    for cid in ids:
        run.results.setdefault(cid, ClaimResult(cid)).seconds += call.duration
    report = outcome.get_result()
    if call.when == "call" and report.failed and call.excinfo is not None:
        ClaimRecorder(run.results, ids, test=item.name).inconclusive(
            f"test {item.name} raised {call.excinfo.typename}: {str(call.excinfo.value)[:200]}")


def pytest_sessionfinish(session, exitstatus):
    run = session.config.stash.get(RUN, None)
    if run is None or not run.claim_items or not any(r.checks for r in run.results.values()):
        return
    from verify.report.writer import write_reports
    if run.selected is not None:
        run.results = {c: r for c, r in run.results.items() if c in run.selected}
    write_reports(run, profile=_hypothesis_profile())


def _hypothesis_profile() -> str:
    from hypothesis import settings
    return settings._current_profile or "default"
