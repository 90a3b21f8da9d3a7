"""The pytest plugin of the claims suite (loaded through the ``pytest11`` entry point).

* ``@pytest.mark.claim("ID", ...)`` ties a test to claims of ``theory``'s registry; unknown IDs are
  a usage error at collection, as are unknown ``--claim`` / ``--paper`` values and hypothesis
  profiles (each with the valid choices or a did-you-mean).
* The ``claim`` fixture is the test's :class:`verify.outcome.ClaimRecorder`.
* ``report_figure(fig, caption)`` saves a matplotlib figure under ``reports/figures/`` for the
  reports of the test's claims.
* A claim is judged when every test tied to it runs: a verdict item ``claim[ID]`` after its last
  test compares the aggregated verdict with the registry's expected verdict and fails with both
  verdicts and the evidence.  With ``-v`` it prints ``claim[ID] <verdict> (expected <verdict>)``.
* The verdict item runs where the checks ran and hands the claim's record (and the test reports
  hand their figures and hypothesis searches) to the controller through ``user_properties``, so a
  serial run and ``pytest -n auto`` (pytest-xdist; each group of claims sharing tests runs on one
  worker) aggregate the same way.  The controller merges the judged claims into
  ``reports/claims.json`` (:mod:`verify.report.record`) and re-renders every report from it.
* A failed verdict marks its claim's tests as failed for ``--lf`` / ``--ff``, so they rerun with it.
"""
from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from verify.outcome import ClaimRecorder, ClaimResult
from verify.profiles import register_profiles
from theory.names import did_you_mean

register_profiles()

#: The checkout the suite's code comes from: its commit is the provenance of a run.
SUITE_ROOT = Path(__file__).resolve().parents[1]
GROUP = re.compile(r"@claims-\w+$")


@dataclass
class Run:
    reports_dir: Path
    pdf: bool
    #: checks of the claims whose tests run in this process
    results: dict[str, ClaimResult] = field(default_factory=dict)
    #: claim ID -> node IDs of every test tied to it (this collection and the last record)
    claim_tests: dict[str, set] = field(default_factory=dict)
    #: claims judged by this run (a verdict item each)
    judged: set = field(default_factory=set)
    #: claims with some of their tests selected but not all: not judged, not recorded
    partial: set = field(default_factory=set)
    #: with --claim / --paper, the claims asked for
    selected: set | None = None
    started: float = field(default_factory=time.time)
    #: the last record's claims by ID (to name the conditions that moved in a regression message)
    previous: dict = field(default_factory=dict)
    # Gathered by the controller (or the serial process) from the reports:
    records: dict[str, dict] = field(default_factory=dict)
    figures: list = field(default_factory=list)
    exploration: list = field(default_factory=list)
    tests_ran: set = field(default_factory=set)
    timings: dict[str, dict] = field(default_factory=dict)
    written: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    doc: dict | None = None


RUN = pytest.StashKey[Run]()
#: The configs of the sessions running in this process, innermost last (pytester nests them), for
#: hooks that are not handed one (pytest_runtest_logreport).
_CONFIGS: list = []
LOG_START = pytest.StashKey[int]()


class VerdictRegression(Exception):
    pass


def pytest_addoption(parser):
    group = parser.getgroup("claims", "claims suite")
    group.addoption("--reports-dir", default=None,
                    help="where claims.json, the PDFs and html/ go (default: <rootdir>/reports)")
    group.addoption("--no-pdf", action="store_true",
                    help="write claims.json only: no figure files, no PDFs, no HTML")
    group.addoption("--claim", action="append", default=[], metavar="ID",
                    help="run only the tests of this claim (repeatable)")
    group.addoption("--paper", action="append", default=[], metavar="KEY",
                    help="run only the tests of this paper's claims (repeatable)")
    group.addoption("--scale", choices=("ci", "full"), default="ci",
                    help="'full' also runs the full-scale reproductions marked 'full' and writes "
                         "their records to reports/paper_scale/")
    group.addoption("--dask", default=None, metavar="ADDRESS",
                    help="run sweeps on this Dask scheduler (default: $DASK_SCHEDULER_ADDRESS, "
                         "else the local machine)")


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    config.addinivalue_line("markers", "claim(*ids): ties a verify test to claim IDs")
    config.addinivalue_line("markers", "full: a full-scale reproduction (runs only with --scale=full)")
    _check_hypothesis_profile(config)
    register_profiles(Path(str(config.rootpath)))
    from theory.registry import PAPERS, READS, load_all
    registry = load_all()
    READS.clear()  # what theory reads of itself while registering is no check's evaluation
    for key in config.getoption("--paper"):
        if key not in PAPERS:
            raise pytest.UsageError("--paper: " + did_you_mean(key, list(PAPERS), "paper"))
    for cid in config.getoption("--claim"):
        if cid not in registry:
            raise pytest.UsageError("--claim: " + did_you_mean(cid, [c.id for c in registry], "claim"))
    if config.getoption("dist", "no") == "load":
        # The tests of one claim and its verdict item must share a worker (see module docstring).
        config.option.dist = "loadgroup"
    from numerics.models import configure_threads
    configure_threads()
    if config.getoption("--dask"):
        import os
        os.environ["DASK_SCHEDULER_ADDRESS"] = config.getoption("--dask")
    reports = Path(config.getoption("--reports-dir") or Path(str(config.rootpath)) / "reports")
    from verify.report.record import load
    previous, _ = (None, "") if _is_worker(config) else load(reports / "claims.json",
                                                             set_aside=False)
    run = Run(reports_dir=reports, pdf=not config.getoption("--no-pdf"),
              previous={c["id"]: c for c in (previous or {}).get("claims", [])})
    config.stash[RUN] = run
    _CONFIGS.append(config)


def _check_hypothesis_profile(config):
    from hypothesis import settings
    from hypothesis.errors import InvalidArgument
    from verify.profiles import PROFILES
    name = config.getoption("hypothesis_profile", None)
    if not name or name in PROFILES:
        return
    try:
        settings.get_profile(name)  # a profile the user registered themselves is fine too
    except InvalidArgument:
        raise pytest.UsageError("--hypothesis-profile: " + did_you_mean(name, PROFILES, "profile")) from None


def _moved(record: dict, previous: dict | None) -> str:
    """The conditions behind a changed verdict: those whose outcome moved since the last run's
    record, else the failed measurements."""
    lines = []
    if previous:
        before = {m["name"]: m["passed"] for m in previous.get("measurements", [])}
        for m in record["measurements"]:
            if m["name"] in before and before[m["name"]] != m["passed"]:
                lines.append(f"moved: {m['name']}: {'passed' if before[m['name']] else 'failed'} "
                             f"before, {'passed' if m['passed'] else 'failed'} now")
    if not lines:
        from verify.measurement import measurement_line
        lines = [f"deciding: {measurement_line(m)}" for m in record["measurements"]
                 if not m["passed"]][:5]
    return "".join(line + "\n" for line in lines)


def claim_ids(item) -> tuple[str, ...]:
    return tuple(i for m in item.iter_markers("claim") for i in m.args)


class VerdictItem(pytest.Item):
    """Compares one claim's aggregated verdict with its expected verdict, and hands the claim's
    record to the controller."""

    def __init__(self, *, claim_id: str, **kwargs):
        super().__init__(**kwargs)
        self.claim_id = claim_id

    def runtest(self):
        from theory.registry import REGISTRY
        from verify.report.record import claim_record
        run = self.config.stash[RUN]
        claim = REGISTRY[self.claim_id]
        result = run.results.get(self.claim_id)
        if result is None or not result.checks:
            self.user_properties.append(("verdict", {"id": self.claim_id, "verdict": None,
                                                     "expected": claim.expected}))
            raise VerdictRegression(
                f"{self.claim_id}: expected {claim.expected!r}, but no check recorded a verdict "
                "(did its tests error or skip?)")
        record = claim_record(claim, result, sorted(run.claim_tests.get(self.claim_id, ())))
        self.user_properties.append(("claims_record", record))
        self.user_properties.append(("verdict", {"id": self.claim_id, "verdict": record["verdict"],
                                                 "expected": record["expected"]}))
        if record["verdict"] != record["expected"]:
            raise VerdictRegression(
                f"{self.claim_id}: measured verdict {record['verdict']!r} != expected "
                f"{record['expected']!r}\n" + _moved(record, run.previous.get(self.claim_id))
                + f"evidence: {record['evidence']}")
        unread = claim.unread()
        if unread:
            raise VerdictRegression(
                f"{self.claim_id}: the registry holds encodings of this claim that no check "
                f"evaluated: {', '.join(unread)}; read each through the claim "
                f"(REGISTRY[{self.claim_id!r}].printed...) in a check, or drop it")
        if claim.kind == "empirical" and record["verdict"] != "untested" and "setups" not in record:
            raise VerdictRegression(
                f"{self.claim_id}: an empirical claim must record its setup (what ran beside the "
                "paper's settings): pass setup=Setup(...) to the recorder")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, VerdictRegression):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"claim[{self.claim_id}]"


class _FullCollection:
    """Records every claim's tests before any deselection (-k, --claim, --lf)."""

    def __init__(self, run: Run):
        self.run = run

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, items):
        for item in items:
            for cid in claim_ids(item):
                self.run.claim_tests.setdefault(cid, set()).add(item.nodeid)


def pytest_sessionstart(session):
    session.config.pluginmanager.register(_FullCollection(session.config.stash[RUN]),
                                          "claims-full-collection")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    from theory.registry import load_all
    registry = load_all()
    run = config.stash[RUN]
    for item in items:
        for cid in claim_ids(item):
            if cid not in registry:
                raise pytest.UsageError(f"{item.nodeid}: claim ID {cid!r} is not registered")
    _select(config, items, registry)
    _add_tests_of_files_not_collected(run, items, Path(str(config.rootpath)))
    if config.getoption("--scale") != "full":
        skip_full = pytest.mark.skip(reason="full-scale reproduction: run with --scale=full")
        for item in items:
            if item.get_closest_marker("full"):
                item.add_marker(skip_full)
    _place_verdict_items(config, items)


def _add_tests_of_files_not_collected(run: Run, items, root: Path):
    """Tests the last record names in files this collection did not reach (a path argument,
    --lf skipping files): a claim with such tests is not complete here."""
    collected = {item.nodeid.split("::")[0] for item in items} | {
        n.split("::")[0] for tests in run.claim_tests.values() for n in tests}
    for cid, rec in run.previous.items():
        for nodeid in rec.get("tests", []):
            if nodeid.split("::")[0] not in collected and (root / nodeid.split("::")[0]).exists():
                run.claim_tests.setdefault(cid, set()).add(nodeid)


def _place_verdict_items(config, items):
    """One verdict item after the last test of each claim whose tests all run (see module doc)."""
    run = config.stash[RUN]
    items[:] = [i for i in items if not isinstance(i, VerdictItem)]
    present = {GROUP.sub("", i.nodeid) for i in items}
    last, touched = {}, set()
    for index, item in enumerate(items):
        for cid in claim_ids(item):
            touched.add(cid)
            last[cid] = index
    complete = {cid for cid in touched if run.claim_tests.get(cid, set()) <= present}
    if run.selected is not None:
        complete &= run.selected
    run.judged, run.partial = complete, touched - complete - (set() if run.selected is None
                                                                 else touched - run.selected)
    verdicts = {}
    for cid in complete:
        verdicts.setdefault(last[cid], []).append(cid)
    out = []
    for index, item in enumerate(items):
        out.append(item)
        for cid in sorted(verdicts.get(index, [])):
            out.append(VerdictItem.from_parent(item.parent, name=f"claim[{cid}]", claim_id=cid))
    items[:] = out
    if getattr(config, "workerinput", {}).get("claims_loadgroup"):
        _group_for_xdist(items)


def _group_for_xdist(items):
    """Put each set of claims connected by shared tests, with their verdict items, in one xdist
    group named after its first claim ID (xdist's own suffixing ran before the verdict items
    existed)."""
    parent: dict[str, str] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    def ids_of(item):
        return claim_ids(item) or ((item.claim_id,) if isinstance(item, VerdictItem) else ())
    for item in items:
        ids = ids_of(item)
        for cid in ids[1:]:
            a, b = find(cid), find(ids[0])
            parent[max(a, b)] = min(a, b)
    for item in items:
        ids = ids_of(item)
        if ids and not GROUP.search(item.nodeid):
            _set_nodeid(item, f"{item.nodeid}@claims-{re.sub(r'[^A-Za-z0-9]', '_', find(ids[0]))}")


def _set_nodeid(item, nodeid: str) -> None:
    """Give ``item`` the node ID ``nodeid``, as xdist's own 'loadgroup' suffixing does.

    pytest has no public setter: up to 9.1 the ID is the string ``_nodeid``; from 9.2 it is the
    structured ``_id`` (``_pytest.nodeid.NodeId``).  tests/test_plugin.py runs ``-n 2`` for real,
    so a pytest that changes this again fails there, not silently.
    """
    if hasattr(item, "_id"):
        from _pytest.nodeid import NodeId
        item._id = NodeId.parse(nodeid)
    else:
        item._nodeid = nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Tell each xdist worker to group the tests of connected claims (workers parse the command
    line afresh, so the controller's choice of 'loadgroup' does not reach them otherwise)."""
    node.workerinput["claims_loadgroup"] = node.config.getoption("dist") == "loadgroup"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session):
    """After --lf / --ff filtered or reordered the items: place the verdict items again."""
    if any(isinstance(i, VerdictItem) for i in session.items) or session.config.stash[RUN].judged:
        _place_verdict_items(session.config, session.items)


def _select(config, items, registry):
    """Apply --claim / --paper: keep the tests tied to those claims, deselect the rest."""
    wanted_ids, papers = set(config.getoption("--claim")), set(config.getoption("--paper"))
    if not wanted_ids and not papers:
        return
    config.stash[RUN].selected = wanted_ids | {c.id for c in registry if c.paper in papers}
    keep, drop = [], []
    for item in items:
        ids = claim_ids(item)
        chosen = any(c in wanted_ids or registry[c].paper in papers for c in ids)
        (keep if chosen else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_report_collectionfinish(config, items):
    run = config.stash.get(RUN, None)
    if run is None or not run.judged:
        return None
    tests = sum(1 for i in items if claim_ids(i))
    verdicts = sum(1 for i in items if isinstance(i, VerdictItem))
    return (f"claims: {tests} tests tied to claims + {verdicts} verdict items (one per judged claim)"
            f" = {len(items)} items to run" + (f"; {len(run.partial)} claims with only some of "
                                               "their tests selected are not judged"
                                               if run.partial else ""))


@pytest.fixture
def claim(request) -> ClaimRecorder:
    ids = claim_ids(request.node)
    if not ids:
        raise pytest.UsageError(f"{request.node.nodeid} uses 'claim' without @pytest.mark.claim")
    return ClaimRecorder(request.config.stash[RUN].results, ids, test=request.node.name)


def pytest_generate_tests(metafunc):
    """The one scale concept: a test that asks for ``scale`` runs at ``'ci'`` always and at
    ``'full'`` (marked ``full``) with ``--scale=full``; it picks its configuration from its
    paper's ``numerics.ran.Scales`` records (``configs.DEPTH[scale]``)."""
    if "scale" in metafunc.fixturenames:
        # session scope: module- and session-scoped fixtures that run a configuration may take it
        metafunc.parametrize("scale", ["ci", pytest.param("full", marks=pytest.mark.full)],
                             scope="session")


@pytest.fixture
def report_figure(request):
    """``report_figure(fig, caption)``: save ``fig`` for the reports of this test's claims."""
    ids = claim_ids(request.node)
    if not ids:
        raise pytest.UsageError(f"{request.node.nodeid} uses 'report_figure' without a claim mark")
    run = request.config.stash[RUN]
    node = GROUP.sub("", request.node.nodeid)
    count = [0]

    def add(fig, caption: str):
        if not caption:
            raise ValueError("caption must say what the figure shows")
        from verify.report.figures import save, slug
        if not run.pdf:  # --no-pdf: no report shows it, and the record keeps the last saved one
            import matplotlib.pyplot as plt
            plt.close(fig)
            return fig
        count[0] += 1
        paths = save(fig, run.reports_dir / "figures", slug(f"{node}-{count[0]}"))
        request.node.user_properties.append(
            ("figure", dict(paths, caption=caption, claims=list(ids), test=node)))
        return fig
    return add


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    from verify.properties import LOG
    item.stash[LOG_START] = len(LOG)
    ids = claim_ids(item)
    if ids:
        item.user_properties.append(("claims", list(ids)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    if call.when == "teardown" and not isinstance(item, VerdictItem):
        from verify.properties import LOG
        node = GROUP.sub("", item.nodeid)
        for entry in LOG[item.stash.get(LOG_START, len(LOG)):]:
            item.user_properties.append(("search", dict(entry, test=node)))
    outcome = yield
    if isinstance(item, VerdictItem):
        return
    ids = claim_ids(item)
    if not ids:
        return
    run = item.config.stash[RUN]
    # Setup counts too: module-scoped fixtures (shared training runs) are paid for there.
    for cid in ids:
        run.results.setdefault(cid, ClaimResult(cid)).seconds += call.duration
    report = outcome.get_result()
    if call.when == "call" and report.failed and call.excinfo is not None:
        ClaimRecorder(run.results, ids, test=item.name).inconclusive(
            f"test {item.name} raised {call.excinfo.typename}: {str(call.excinfo.value)[:200]}")
    if (call.when == "call" and item.get_closest_marker("full")
            and item.config.getoption("--scale") == "full"):
        from verify.report.paper_scale import write_record
        write_record(run.reports_dir, item, run.results, ids, call.duration)


def pytest_report_teststatus(report, config):
    if report.when != "call":
        return None
    verdict = next((value for key, value in report.user_properties if key == "verdict"), None)
    if verdict is None:
        return None
    word = f"{verdict['verdict'] or 'no verdict'} (expected {verdict['expected']})"
    if report.passed:
        return "passed", ".", (word, {"green": True})
    return "failed", "F", (f"FAILED {word}", {"red": True})


def pytest_runtest_logreport(report):
    config = _CONFIGS[-1] if _CONFIGS else None
    if config is None or RUN not in config.stash or _is_worker(config):
        return
    run = config.stash[RUN]
    node = GROUP.sub("", report.nodeid)
    props = dict(report.user_properties) if report.user_properties else {}
    if "claims" in props:
        entry = run.timings.setdefault(node, {"seconds": 0.0, "claims": props["claims"]})
        entry["seconds"] = round(entry["seconds"] + report.duration, 3)
    if report.when == "call" and "verdict" in props and report.failed:
        _mark_tests_failed(config, props["verdict"]["id"], report.nodeid)
    if report.when != "teardown":
        return
    for key, value in report.user_properties:
        if key == "claims_record":
            run.records[value["id"]] = value
        elif key == "figure":
            run.figures.append(value)
        elif key == "search":
            run.exploration.append(value)
        elif key == "claims":
            run.tests_ran.add(node)


def _mark_tests_failed(config, cid: str, verdict_nodeid: str):
    """So that --lf reruns a failed claim's tests with its verdict item."""
    lf = config.pluginmanager.get_plugin("lfplugin")
    if lf is None:
        return
    match = GROUP.search(verdict_nodeid)
    suffix = match.group(0) if match else ""
    for nodeid in config.stash[RUN].claim_tests.get(cid, ()) or \
            config.stash[RUN].previous.get(cid, {}).get("tests", []):
        lf.lastfailed[nodeid + suffix] = True


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if config in _CONFIGS:
        _CONFIGS.remove(config)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session, exitstatus):
    config = session.config
    run = config.stash.get(RUN, None)
    if run is None or _is_worker(config) or not run.records:
        return
    from verify.report.writer import write_run
    terminal = config.pluginmanager.get_plugin("terminalreporter")

    started = []

    def progress(message: str):
        if terminal is not None and config.get_verbosity() >= -1:
            if not started:  # the progress dots leave the line open
                terminal.write("\n")
                started.append(True)
            terminal.write_line(f"claims: {message}")
    run.doc, run.written, dropped, problem = write_run(
        run, provenance=dict(root=SUITE_ROOT, profile=_hypothesis_profile(),
                             scale=config.getoption("--scale"), selection=_selection(config),
                             command=_command(config)),
        progress=progress)
    if problem:
        run.notes.append(problem)
    if dropped:
        run.notes.append(f"dropped {len(dropped)} claims of the old record that are no longer "
                         f"registered: {', '.join(dropped)}")


def _selection(config) -> dict:
    args = [str(a) for a in config.args]
    return {"paper": list(config.getoption("--paper")), "claim": list(config.getoption("--claim")),
            "keyword": config.getoption("keyword") or "", "marker": config.getoption("markexpr") or "",
            "last_failed": bool(config.getoption("lf", False)),
            "paths": [a for a in args if Path(a).resolve() != Path(str(config.rootpath), "verify")]}


def _command(config) -> str:
    return "pytest " + " ".join(shlex.quote(str(a)) for a in config.invocation_params.args)


def _hypothesis_profile() -> str:
    from hypothesis import settings
    return settings.get_current_profile_name() or "default"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    run = config.stash.get(RUN, None)
    if run is None or _is_worker(config):
        return
    from verify.report.terminal import summary_lines
    lines = summary_lines(run, show_statistics=bool(config.getoption("hypothesis_show_statistics",
                                                                     False)))
    if not lines:
        return
    terminalreporter.section("claims")
    for line, markup in lines:
        terminalreporter.write_line(line, **markup)

