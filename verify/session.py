"""The state of one run of claims, behind the pytest plugin (:mod:`verify.plugin`): the
:class:`ClaimsGate` registered in every session and the :class:`ClaimsSession` it starts for a run
of claims (the verdict items that judge each claim: :mod:`verify.verdict_item`).  Imported by the plugin at start-up,
so it imports neither torch, sympy nor the registry at module level (docs/DESIGN.md, "The
plugin")."""
from __future__ import annotations

import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from verify import ahead
from verify.blocks import DISTRIBUTED, VERDICT_ID, conftest_fixtures, order_blocks, scheduler_class
from verify.report import record as R
from verify.stash import FIGURES, GATE, PLUGIN, SESSION, SETUP_S, SUITE_ROOT, VERDICT, claim_ids, ids_of
from verify.verdict_item import ChecksPayload, VerdictItem, VerdictPayload



def _own_session(config) -> None:
    """What the suite sets in a session of its own, before its first test: hypothesis' ``ci``
    profile unless one was named (deterministic examples, drawn alike in every process), and
    torch's intra-op threads (:func:`numerics.models.configure_threads`), with the BLAS and
    OpenMP pools of numpy, scipy and scikit-learn on the same count."""
    from hypothesis import settings
    from threadpoolctl import threadpool_limits
    from verify.profiles import freeze_local_constants, register_profiles
    register_profiles(Path(str(config.rootpath)))
    if (config.getoption("hypothesis_profile", None) or "ci") == "ci":
        settings.load_profile("ci")
        freeze_local_constants()
    from numerics.models import configure_threads
    # Under -n auto every core runs a worker, and each worker's second BLAS thread spun on the
    # core the other worker needed: pytest verify -n 2 took 335 s, its tests 583 s of CPU; with
    # one thread a process, 307 s and 526 s, every measurement the same but one ill-conditioned
    # least-squares fit (GRQ-Eq(124)-(127), x1^2 at h = 400: equal to 3e-8 relative).
    threadpool_limits(configure_threads())


def _reports_dir(config) -> Path:
    return Path(config.getoption("--reports-dir")
                or Path(str(config.rootpath)) / "reports").absolute()


class ClaimsGate:
    """Registered in every session: watches the collection and starts a :class:`ClaimsSession`
    for a run of claims; every other session it leaves as it is."""

    def __init__(self, config: pytest.Config):
        self.config = config
        #: claim ID -> node IDs of every test tied to it, before any deselection
        self.claim_tests: dict[str, set] = {}
        self.owned = Path(str(config.rootpath)).resolve() == SUITE_ROOT
        #: the run store and helper of a serial session on two cores (:mod:`verify.ahead`)
        self.helper = None

    def pytest_sessionstart(self, session):
        """A serial session of the suite's checks shares its heavy runners with a helper on a
        second core, set up before the conftests that call them are imported."""
        if self.owned:
            self.helper = ahead.for_session(self.config)

    def stop_helper(self) -> None:
        """Stop the helper (before the reports are written: its core is theirs)."""
        if self.helper is not None:
            self.helper.stop()
            self.helper = None

    def pytest_unconfigure(self, config):
        self.stop_helper()

    def start(self, *, controller: bool = False) -> ClaimsSession:
        """The claims session of this config, started once."""
        if SESSION not in self.config.stash:
            session = ClaimsSession(self.config, claim_tests=self.claim_tests)
            self.config.stash[SESSION] = session
            self.config.pluginmanager.register(session, PLUGIN)
            if controller:  # its workers collected claims; it collects nothing itself
                session.prepare_run()
        return self.config.stash[SESSION]

    def pytest_itemcollected(self, item):
        for cid in claim_ids(item):
            self.claim_tests.setdefault(cid, set()).add(item.nodeid)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session, config, items):
        selecting = config.getoption("--claim") or config.getoption("--paper") \
            or config.getoption("--stale")
        if self.claim_tests or selecting:
            self.start().collection_modifyitems(items)

    def pytest_collection_finish(self, session):
        if (self.owned or SESSION in self.config.stash) and session.items \
                and not self.config.option.collectonly:
            _own_session(self.config)

    # -- xdist ------------------------------------------------------------------------------

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids):
        """The controller learns from its workers' collections that the run judges claims."""
        if any(VERDICT_ID.search(i) for i in ids):
            self.start(controller=True)

    @pytest.hookimpl(optionalhook=True, tryfirst=True)
    def pytest_xdist_make_scheduler(self, config, log):
        if config.getvalue("dist") in DISTRIBUTED:
            return scheduler_class(self._last_timings())(config, log)
        return None

    def _last_timings(self) -> dict:
        """Seconds per test node ID of the last run (``timings.json`` of the reports folder,
        else of ``<rootdir>/reports``): the order in which xdist hands out the claim blocks."""
        from verify.report.writer import load_timings
        for folder in (_reports_dir(self.config), Path(str(self.config.rootpath)) / "reports"):
            if seconds := load_timings(folder / "timings.json"):
                return seconds
        return {}

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node):
        """Workers parse the command line afresh: tell them to order their items in blocks and
        where the run stages its figures."""
        from verify.report.generations import stage
        node.workerinput["claims_blocks"] = node.config.getvalue("dist") in DISTRIBUTED
        node.workerinput["claims_stage"] = str(stage(_reports_dir(node.config)))


@dataclass(eq=False)  # a plugin object is hashed by identity
class ClaimsSession:
    """The plugin's state for one run of claims (one per config; pytester nests them)."""

    config: pytest.Config
    #: claim ID -> node IDs of every test tied to it (this collection and the last record)
    claim_tests: dict[str, set] = field(default_factory=dict)
    #: checks of the claims whose tests run in this process (claim ID -> verify.outcome.ClaimResult)
    results: dict = field(default_factory=dict)
    #: claims judged by this run (a verdict item each)
    judged: set = field(default_factory=set)
    #: claims with some of their tests selected but not all: not judged, not recorded
    partial: set = field(default_factory=set)
    #: with --claim / --paper / --stale, the claims asked for
    selected: set | None = None
    started: float = field(default_factory=time.time)
    #: the last record's claims by ID (to name the conditions that moved in a regression message)
    previous: dict = field(default_factory=dict)
    # Gathered by the controller (or the serial process) from the test reports:
    records: dict[str, R.ClaimRecord] = field(default_factory=dict)
    figures: list[R.FigureRecord] = field(default_factory=list)
    tests_ran: set = field(default_factory=set)
    timings: dict[str, R.Timing] = field(default_factory=dict)
    written: object = None
    notes: list = field(default_factory=list)
    #: this process writes the run's record (the serial process or the xdist controller)
    recorder: bool = False

    def __post_init__(self):
        from theory.registry import READS, load_all
        config = self.config
        self.registry = load_all()
        READS.clear()  # what theory read of itself while registering is no check's evaluation
        self.is_worker = hasattr(config, "workerinput")
        self.reports_dir = _reports_dir(config)
        workerinput = getattr(config, "workerinput", {})
        from verify.report.generations import stage
        self.stage = Path(workerinput.get("claims_stage") or stage(self.reports_dir))
        self.pdf = not config.getoption("--no-pdf")
        self.stale = config.getoption("--stale")
        self.scale = "full" if self.stale else config.getoption("--scale")
        self.blocks = bool(workerinput.get("claims_blocks"))

    def prepare_run(self):
        """Before the first test of a run that judges claims (the serial process or the xdist
        controller): the last record is read -- a damaged one stops the run -- and the reports
        folder must take files."""
        from verify.report.files import ReportsNotWritable, check_writable
        try:
            previous = R.load(self.reports_dir / "claims.json")
        except R.RecordDamaged as exc:
            raise pytest.UsageError(f"RecordDamaged: {exc}") from None
        self.previous = {c["id"]: c for c in (previous or {}).get("claims", [])}
        self.recorder = True
        try:
            check_writable(self.reports_dir)
        except ReportsNotWritable as exc:
            raise pytest.UsageError(f"ReportsNotWritable: {exc}") from None

    # -- collection -------------------------------------------------------------------------

    def collection_modifyitems(self, items):
        """Check the claim IDs, apply the selection, skip the full-scale tests unless asked,
        and place the verdict items (called by the gate, which started this session in the
        middle of pytest's hook of that name)."""
        for item in items:
            for cid in claim_ids(item):
                if cid not in self.registry:
                    raise pytest.UsageError(f"{item.nodeid}: claim ID {cid!r} is not registered")
        self._select(items)
        if not self.is_worker and not self.config.option.collectonly \
                and any(claim_ids(i) for i in items):
            self.prepare_run()
        self._add_tests_of_files_not_collected(items)
        if self.scale != "full":
            skip_full = pytest.mark.skip(reason="full-scale reproduction: run with --scale=full")
            for item in items:
                if item.get_closest_marker("full"):
                    item.add_marker(skip_full)
        self._place_verdict_items(items)

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_finish(self, session):
        """After --lf / --ff filtered or reordered the items: place the verdict items again.  A
        serial session of the suite's own claims hands the runs its tests need to a second core
        (:mod:`verify.ahead`)."""
        gate = self.config.pluginmanager.get_plugin(GATE)
        runs = []
        if any(isinstance(i, VerdictItem) for i in session.items) or self.judged:
            runs = ahead.needed(session.items, conftest_fixtures, gate.helper.plan) if gate.helper else []
            self._place_verdict_items(session.items)
        if runs:
            gate.helper.start(runs)
        else:
            gate.stop_helper()

    def _select(self, items):
        """Apply --claim / --paper / --stale: keep the tests tied to those claims, deselect the
        rest."""
        registry = self.registry
        papers = set(self.config.getoption("--paper"))
        named = set(self.config.getoption("--claim")) | {c.id for c in registry if c.paper in papers}
        if self.stale:
            # with --claim / --paper, the stale claims among those named
            from verify.report.paper_scale import stale_claims
            stale = stale_claims(self.reports_dir, Path(str(self.config.rootpath)))
            self.selected = stale & named if named else stale
            if not self.selected:
                self.notes.append(("--stale: no claim named by --claim / --paper has a stale "
                                   "paper-scale record" if stale else
                                   "--stale: every paper-scale record is as recent as the code "
                                   "that decides it") + "; nothing to decide again")
        elif not named:
            return
        else:
            self.selected = named
        keep, drop = [], []
        for item in items:
            (keep if set(claim_ids(item)) & self.selected else drop).append(item)
        if drop:
            self.config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def _add_tests_of_files_not_collected(self, items):
        """Tests the last record names in files this collection did not reach (a path argument,
        --lf skipping files): a claim with such tests is not complete here."""
        root = Path(str(self.config.rootpath))
        collected = {item.nodeid.split("::")[0] for item in items} | {
            n.split("::")[0] for tests in self.claim_tests.values() for n in tests}
        for cid, rec in self.previous.items():
            for nodeid in rec.get("tests", []):
                if nodeid.split("::")[0] not in collected and (root / nodeid.split("::")[0]).exists():
                    self.claim_tests.setdefault(cid, set()).add(nodeid)

    def _place_verdict_items(self, items):
        """One verdict item after the last test of each claim whose tests all run."""
        items[:] = [i for i in items if not isinstance(i, VerdictItem)]
        present = {i.nodeid for i in items}
        last, touched = {}, set()
        for index, item in enumerate(items):
            for cid in claim_ids(item):
                touched.add(cid)
                last[cid] = index
        complete = {cid for cid in touched if self.claim_tests.get(cid, set()) <= present}
        if self.selected is not None:
            complete &= self.selected
        self.judged = complete
        self.partial = touched - complete - (set() if self.selected is None else touched - self.selected)
        # each judged claim's verdict item goes right after the last of its tests
        after: dict[int, list[str]] = {}
        for cid in sorted(complete):
            after.setdefault(last[cid], []).append(cid)
        out = []
        for index, item in enumerate(items):
            out += [item] + [VerdictItem.from_parent(item.parent, name=f"claim[{cid}]", claim_id=cid)
                             for cid in after.get(index, [])]
        items[:] = order_blocks(out, ids_of, lambda item: isinstance(item, VerdictItem),
                                conftest_fixtures) if self.blocks else out

    def pytest_report_collectionfinish(self, config, items):
        if not self.judged:
            return None
        tests = sum(1 for i in items if claim_ids(i))
        verdicts = sum(1 for i in items if isinstance(i, VerdictItem))
        return (f"claims: {tests} tests tied to claims + {verdicts} verdict items (one per judged "
                f"claim) = {len(items)} items to run" + (
                    f"; {len(self.partial)} claims with only some of their tests selected are "
                    "not judged" if self.partial else ""))

    # -- running ----------------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        if isinstance(item, VerdictItem):
            if call.when == "call" and VERDICT in item.stash:
                report.claims_verdict = item.stash[VERDICT].as_json()
            return report
        ids = claim_ids(item)
        if not ids:
            return report
        from verify.outcome import ClaimRecorder, ClaimResult
        # Setup counts too: module-scoped fixtures (shared training runs) are paid for there.
        for cid in ids:
            self.results.setdefault(cid, ClaimResult(cid)).seconds += call.duration
        if call.when == "setup":
            item.stash[SETUP_S] = call.duration
        if call.when == "call" and report.failed and call.excinfo is not None:
            ClaimRecorder(self.results, ids, test=item.name).inconclusive(
                f"test {item.name} raised {call.excinfo.typename}: {str(call.excinfo.value)[:200]}")
        if call.when == "call" and item.get_closest_marker("full") and self.scale == "full":
            self._write_paper_scale(item, ids, call)
        figures = item.stash.get(FIGURES, []) if call.when == "teardown" else []
        report.claims_test = ChecksPayload(ids, tuple(f.as_json() for f in figures)).as_json()
        return report

    def _write_paper_scale(self, item, ids, call):
        """The test's paper-scale record, with a hash of every project file its code imports."""
        from verify.outcome import ClaimResult
        from verify.report import code
        from verify.report import paper_scale as P
        from verify.report.figures import slug
        claims = {}
        for cid in ids:
            checks = [c for c in self.results.get(cid, ClaimResult(cid)).checks
                      if c.test == item.name]
            if checks:
                claims[cid] = P.claim_entry(checks)
        if claims:
            root = Path(str(self.config.rootpath))
            runners = [str(s.get("runner", "")) for c in claims.values() for s in c["setups"]]
            files = code.deciding_files(item.path, [r for r in runners if r], root)
            P.write_record(self.reports_dir, experiment=item.nodeid, name=slug(item.name),
                           claims=claims, wall_s=item.stash.get(SETUP_S, 0.0) + call.duration,
                           started=R.now(call.start), imports=code.hashes(files, root))

    def pytest_report_teststatus(self, report, config):
        payload = getattr(report, "claims_verdict", None)
        if report.when != "call" or payload is None:
            return None
        verdict = VerdictPayload.from_json(payload)
        word = f"{verdict.verdict or 'no verdict'} (expected {verdict.expected})"
        if report.passed:
            return "passed", ".", (word, {"green": True})
        return "failed", "F", (f"FAILED {word}", {"red": True})

    def pytest_runtest_logreport(self, report):
        if self.is_worker:
            return
        test = getattr(report, "claims_test", None)
        if test is not None:
            payload = ChecksPayload.from_json(test)
            before = self.timings.get(report.nodeid, R.Timing(0.0, payload.claims))
            self.timings[report.nodeid] = R.Timing(round(before.seconds + report.duration, 3),
                                                       payload.claims)
            if report.when == "teardown":
                self.tests_ran.add(report.nodeid)
                self.figures += [R.FigureRecord.from_json(f) for f in payload.figures]
        verdict = getattr(report, "claims_verdict", None)
        if verdict is not None:
            payload = VerdictPayload.from_json(verdict)
            if payload.record is not None:
                self.records[payload.id] = R.ClaimRecord.from_json(payload.record)
            if report.failed:
                self._mark_tests_failed(payload.id)

    def _mark_tests_failed(self, cid: str):
        """So that --lf reruns a failed claim's tests with its verdict item."""
        lf = self.config.pluginmanager.get_plugin("lfplugin")
        if lf is None:
            return
        for nodeid in self.claim_tests.get(cid, ()) or self.previous.get(cid, {}).get("tests", []):
            lf.lastfailed[nodeid] = True

    # -- writing ----------------------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session, exitstatus):
        """Write the run's record and reports; a run stopped before its first verdict records
        that it ran and stopped.  Ctrl-C while writing publishes nothing and says so in one
        line (the reports stay as they were)."""
        self.config.pluginmanager.get_plugin(GATE).stop_helper()
        interrupted = (exitstatus == pytest.ExitCode.INTERRUPTED or bool(session.shouldstop)
                       or bool(session.shouldfail))
        if not self.recorder or not (self.records or interrupted):
            return
        try:
            self._write(interrupted)
        except KeyboardInterrupt:
            self.written = None
            self.notes.append("interrupted while writing the reports: nothing was published, "
                              f"{self.reports_dir} is as it was before this run")
            session.exitstatus = pytest.ExitCode.INTERRUPTED

    def _write(self, interrupted: bool):
        from verify.report.writer import write_run
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        started = []

        def progress(message: str):
            if terminal is not None and self.config.get_verbosity() >= -1:
                if not started:  # the progress dots leave the line open
                    terminal.write("\n")
                    started.append(True)
                terminal.write_line(f"claims: {message}")
        from hypothesis import settings
        run = R.RunRecord(
            R.Provenance.of_this_run(root=SUITE_ROOT,
                                     profile=settings.get_current_profile_name() or "default",
                                     scale=self.scale, selection=self._selection(),
                                     command="pytest " + shlex.join(
                                         str(a) for a in self.config.invocation_params.args),
                                     interrupted=interrupted),
            [self.records[c] for c in sorted(self.records)], self.figures, self.tests_ran,
            self.tests_ran if self.pdf else set(), self.timings, time.time() - self.started,
            set().union(*self.claim_tests.values()))
        try:
            self.written = write_run(run, self.reports_dir, render_reports=self.pdf,
                                     progress=progress, root=Path(str(self.config.rootpath)),
                                     stage=self.stage)
        except R.RecordDamaged as exc:  # damaged since this run started: write nothing
            self.notes.append(f"RecordDamaged: {exc}")
            return
        self.notes += self.written.notes
        if self.written.dropped:
            self.notes.append(f"dropped {len(self.written.dropped)} claims of the old record that "
                              f"are no longer registered: {', '.join(self.written.dropped)}")
        if interrupted:
            self.notes.append("the run stopped early: the record says so, and holds the claims "
                              "judged before it stopped" if self.records else
                              "the run stopped before it judged a claim: the record says it ran "
                              "and stopped, and keeps the claims it held")

    def _selection(self) -> dict:
        config = self.config
        args = [str(a) for a in config.args]
        return {"paper": list(config.getoption("--paper")), "claim": list(config.getoption("--claim")),
                "keyword": config.getoption("keyword") or "",
                "marker": config.getoption("markexpr") or "",
                "last_failed": bool(config.getoption("lf", False)),
                "paths": [a for a in args if Path(a).resolve() != Path(str(config.rootpath), "verify")]}

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config):
        if self.is_worker:
            return
        from verify.report.terminal import summary_lines
        lines = summary_lines(self, show_statistics=bool(
            config.getoption("hypothesis_show_statistics", False)))
        if not lines:
            return
        terminalreporter.section("claims")
        for line, markup in lines:
            terminalreporter.write_line(line, **markup)
