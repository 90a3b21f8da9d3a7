"""A serial ``pytest verify`` on two cores: the second core computes, ahead of the tests, the
ci runs they will need.

:mod:`verify.ahead_plan` names the ci runs behind the heavy fixtures of each paper's conftest.  In
a serial session of the suite's claims on a machine with a second core (not under xdist, whose
workers already use every core; not with ``CLAIMS_AHEAD=0``):

* :class:`Ahead` starts one helper process first (``python -m verify.ahead FOLDER PID``), so that its
  imports overlap the plan's and the collection; then, before the conftests are imported, the
  session replaces each runner the plan names by ``numerics.run_store.shared`` of it (in its
  module, for the session; the helper does the same), and points ``numerics.run_store.STORE`` at
  the folder;
* the helper computes the runs the collected tests need (:func:`needed`) in the order they need
  them;
* the tests run in the order a :class:`Schedule` picks as they go: a test that needs runs as soon
  as they are made, the light tests meanwhile, and the tests left at the end from the last, so the
  session computes those runs itself while the helper works from the first (the two meet once,
  where at most one waits for the other); the verdict items run after every test, as a test may
  read another claim's encodings.

The helper runs the same code on the same thread settings, and a stored run is read back exactly,
so every measurement is the one a single process makes (``tests/test_ahead.py``).  The helper is
stopped, the runners restored and the folder removed when the session ends.
"""
from __future__ import annotations

import collections
import importlib
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

#: ``CLAIMS_AHEAD=0`` keeps a serial session on one core
SWITCH = "CLAIMS_AHEAD"
#: the files of the store folder that hand the helper the plan (at its start) and the runs the
#: collected tests need
PLAN, RUNS = "plan.pkl", "runs.pkl"


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def wanted() -> bool:
    """Whether a serial session should use a helper: a second core, and not switched off."""
    text = os.environ.get(SWITCH, "1")
    if text not in ("0", "1"):
        from numerics.validation import InvalidArgument
        raise InvalidArgument(f"{SWITCH}={text!r} must be 0 (one core) or 1 (a helper on a second core)")
    return text == "1" and cores() >= 2


def _split(name: str):
    module, _, attr = name.rpartition(".")
    return importlib.import_module(module), attr


def share(plan: dict) -> list:
    """Replace every runner ``plan`` names by its shared form; returns what :func:`restore`
    needs."""
    from numerics.run_store import shared
    names = sorted({run[0] for runs in plan.values() for run in runs})
    saved = []
    for name in names:
        module, attr = _split(name)
        original = getattr(module, attr)
        saved.append((module, attr, original))
        setattr(module, attr, shared(original))
    return saved


def restore(saved: list) -> None:
    for module, attr, original in saved:
        setattr(module, attr, original)


def runs_of(item, fixtures, plan: dict) -> list:
    """The ci runs ``item`` needs ahead: those ``plan`` lists for its conftest fixtures
    (``fixtures(item)``: (module, fixture name) pairs) and for its module, (module, '');
    none for a full-scale test."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("scale", "ci") != "ci":
        return []
    module = getattr(getattr(item, "module", None), "__name__", None)
    return [run for key in (*fixtures(item), (module, "")) for run in plan.get(key, [])]


def needed(items, fixtures, plan: dict) -> list:
    """The runs the tests among ``items`` need ahead, each once, in the order they need them."""
    out, seen = [], set()
    for run in (r for item in items for r in runs_of(item, fixtures, plan)):
        if repr(run) not in seen:
            seen.add(repr(run))
            out.append(run)
    return out


def _call(run, method: str):
    """``method`` (``ahead``, ``ready``) of the shared runner ``run`` names, on its arguments."""
    name, args, *kwargs = run
    module, attr = _split(name)
    return getattr(getattr(module, attr), method)(*args, **(kwargs[0] if kwargs else {}))


class Schedule:
    """The order of a serial session with a helper, picked as the tests run: first a test whose
    runs are all made (its evidence runs while the helper computes the next runs), else the next
    light test, else the tests left that need runs, from the last (the helper computes from the
    first, so the two meet once); the verdict items last.  Running the tests that need runs
    after the others, in their order, left about 27 s of their evidence after the helper's last
    run, on one core; moving whole files (so that a test read another claim's encodings before
    that claim's verdict) left 13 s more."""

    def __init__(self, items, needs: list, is_verdict):
        self.light = collections.deque(i for i, n in zip(items, needs) if not n and not is_verdict(i))
        self.heavy = [(i, n) for i, n in zip(items, needs) if n]
        self.verdicts = collections.deque(i for i in items if is_verdict(i))
        self.made: set[str] = set()

    def _ready(self, runs) -> bool:
        for run in runs:
            if repr(run) not in self.made:
                if not _call(run, "ready"):
                    return False
                self.made.add(repr(run))
        return True

    def next(self):
        """The item to run next, or None when every item has run."""
        for k, (item, runs) in enumerate(self.heavy):
            if self._ready(runs):
                del self.heavy[k]
                return item
        if self.light:
            return self.light.popleft()
        if self.heavy:
            return self.heavy.pop()[0]
        return self.verdicts.popleft() if self.verdicts else None


def serial_checks(config) -> bool:
    """``config`` runs every test in this process (no xdist), and only the suite's checks: every
    path it names lies in the ``verify`` folder."""
    from verify.stash import SUITE_ROOT
    if (hasattr(config, "workerinput") or config.option.collectonly
            or getattr(config.option, "dist", "no") != "no"
            or getattr(config.option, "numprocesses", None)):
        return False
    here, checks = Path(str(config.invocation_params.dir)), SUITE_ROOT / "verify"
    paths = [(here / a.split("::")[0]).resolve() for a in config.args]
    return all(p == checks or checks in p.parents for p in paths)


def for_session(config):
    """The :class:`Ahead` of a serial session of the suite's checks with a second core, or None:
    also where a conftest the plan names is already imported (``pytest verify/bias`` imports its
    conftest before the session starts): its fixtures hold the runners as they were, and the
    helper's runs would go unread.  It is registered as a plugin for its test loop.  A bad
    :data:`SWITCH` is a usage error."""
    from numerics.validation import InvalidArgument
    try:
        if not (serial_checks(config) and wanted()):
            return None
    except InvalidArgument as exc:
        raise pytest.UsageError(str(exc)) from None
    helper = Ahead()
    try:
        from verify.ahead_plan import plan
        runs = plan()
        if any(module in sys.modules for module, _ in runs):
            helper.stop()
            return None
        helper.share(runs)
    except BaseException:
        helper.stop()
        raise
    helper.manager = config.pluginmanager
    helper.manager.register(helper)  # its test loop (pytest_runtestloop)
    return helper


class Ahead:
    """The run store of one serial session and its helper process, started first, so that its
    imports overlap the plan's and the collection."""

    def __init__(self):
        from numerics.run_store import STORE
        self.plan, self.saved, self.manager = {}, [], None
        self.folder = Path(tempfile.mkdtemp(prefix="claims-runs-"))
        self.previous = os.environ.get(STORE)
        os.environ[STORE] = str(self.folder)
        self.process = subprocess.Popen([sys.executable, "-m", "verify.ahead", str(self.folder),
                                         str(os.getpid())],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, env=dict(os.environ))

    def share(self, plan: dict) -> None:
        """Share the runners ``plan`` names, here and in the helper."""
        from numerics.atomic import write_with
        data = pickle.dumps(plan)
        write_with(self.folder / PLAN, lambda tmp: tmp.write_bytes(data))
        self.plan, self.saved = plan, share(plan)

    def start(self, runs: list) -> None:
        """Hand the helper ``runs`` ((runner, args[, kwargs]) in the order the tests need them)."""
        from numerics.atomic import write_with
        data = pickle.dumps(runs)
        write_with(self.folder / RUNS, lambda tmp: tmp.write_bytes(data))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        """The session's tests in the order a :class:`Schedule` picks as they run (after a
        collection error, pytest's own loop stops the session)."""
        if session.testsfailed:
            return None
        from verify.blocks import conftest_fixtures
        from verify.verdict_item import VerdictItem
        needs = [runs_of(item, conftest_fixtures, self.plan) for item in session.items]
        return run_loop(session, Schedule(session.items, needs,
                                          lambda item: isinstance(item, VerdictItem)))

    def stop(self) -> None:
        from numerics.run_store import STORE
        if self.manager is not None and self.manager.is_registered(self):
            self.manager.unregister(self)
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        restore(self.saved)
        if self.previous is None:
            os.environ.pop(STORE, None)
        else:
            os.environ[STORE] = self.previous
        shutil.rmtree(self.folder, ignore_errors=True)


def run_loop(session, schedule: Schedule) -> bool:
    """pytest's test loop (``_pytest.main.pytest_runtestloop``) over the items as ``schedule``
    picks them; each test is handed pytest the item that truly runs after it, so fixtures are
    torn down as in any order."""
    item = schedule.next()
    while item is not None:
        nextitem = schedule.next()
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
        if session.shouldfail:
            raise session.Failed(session.shouldfail)
        if session.shouldstop:
            raise session.Interrupted(session.shouldstop)
        item = nextitem
    return True


def _orphaned(parent: int) -> None:
    """End the helper if the session that started it has gone (the session kills the helper
    when it ends, but a killed session cannot)."""
    if os.getppid() != parent:
        sys.exit(0)


def _handed(path: Path, parent: int):
    """What the session wrote to ``path``, once it is there."""
    while not path.exists():
        _orphaned(parent)
        time.sleep(0.05)
    return pickle.loads(path.read_bytes())


def main(folder: str, parent: int) -> None:
    """The helper of the session with process ID ``parent``, on its thread settings: its imports
    while the session plans and collects, then the runs it is handed, in their order."""
    from threadpoolctl import threadpool_limits
    from numerics.models import configure_threads
    threadpool_limits(configure_threads())
    share(_handed(Path(folder) / PLAN, parent))
    for run in _handed(Path(folder) / RUNS, parent):
        _orphaned(parent)
        try:
            _call(run, "ahead")
        except Exception:  # noqa: BLE001 - the test that needs the run computes it and reports
            continue


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
