"""A serial ``pytest verify`` on two cores: the second core computes, ahead of the tests, the
ci runs they will need.

:mod:`verify.ahead_plan` names the ci runs behind the heavy fixtures of each paper's conftest.  In
a serial session of the suite's claims on a machine with a second core (not under xdist, whose
workers already use every core; not with ``CLAIMS_AHEAD=0``):

* :func:`share`, before the conftests are imported, replaces each runner the plan names by
  ``numerics.run_store.shared`` of it (in its module, for the session), and points
  ``numerics.run_store.STORE`` at a temporary folder;
* :func:`order` moves the tests that use those fixtures after the others (stably; the verdict
  items are placed after it), so the light tests run while the runs are computed;
* :class:`Ahead` starts one helper process (``python -m verify.ahead FOLDER``), which imports
  while the tests are collected, shares the same runners and then computes the runs the collected
  tests need, from the last to the first;
* a test that needs a run reads it from the folder, or computes it itself if the helper has not
  started it (the helper then skips it): the two meet once, where at most one waits for the
  other.

The helper runs the same code on the same thread settings, and a stored run is read back exactly,
so every measurement is the one a single process makes (``tests/test_ahead.py``).  The helper is
stopped, the runners restored and the folder removed when the session ends.
"""
from __future__ import annotations

import importlib
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def order(items, fixtures, plan: dict) -> list:
    """The runs to compute ahead, each once, in the order the tests need them; ``items``
    reordered in place so that the files with tests needing them come last.  Whole files move,
    each keeping the order of its items: a test may read another claim's encodings in the same
    file before that claim's verdict item.  (Ordering the moved files by tests per run instead
    left the helper's longest run, App B's GDLNs, as the one the two processes meet on: the
    tests waited 19 s for it.)"""
    needs = [runs_of(item, fixtures, plan) for item in items]
    moved = {item.nodeid.split("::")[0] for item, n in zip(items, needs) if n}
    late = [item.nodeid.split("::")[0] in moved for item in items]
    items[:] = [i for i, m in zip(items, late) if not m] + [i for i, m in zip(items, late) if m]
    # every test that needs a run moved, keeping its order: the runs are listed in that order
    out, seen = [], set()
    for run in (r for n in needs for r in n):
        if repr(run) not in seen:
            seen.add(repr(run))
            out.append(run)
    return out


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
    helper's runs would go unread.  A bad :data:`SWITCH` is a usage error."""
    import pytest
    from numerics.validation import InvalidArgument
    try:
        if not (serial_checks(config) and wanted()):
            return None
    except InvalidArgument as exc:
        raise pytest.UsageError(str(exc)) from None
    from verify.ahead_plan import plan
    runs = plan()
    return None if any(module in sys.modules for module, _ in runs) else Ahead(runs)


class Ahead:
    """The run store of one serial session and its helper process, started before the
    collection so that its imports overlap it."""

    def __init__(self, plan: dict):
        from numerics.run_store import STORE
        self.plan = plan
        self.saved = share(self.plan)
        self.folder = Path(tempfile.mkdtemp(prefix="claims-runs-"))
        (self.folder / PLAN).write_bytes(pickle.dumps(plan))
        self.previous = os.environ.get(STORE)
        os.environ[STORE] = str(self.folder)
        self.process = subprocess.Popen([sys.executable, "-m", "verify.ahead", str(self.folder)],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, env=dict(os.environ))

    def start(self, runs: list) -> None:
        """Hand the helper ``runs`` ((runner, args[, kwargs]) in the order the tests need them)."""
        from numerics.atomic import write_with
        data = pickle.dumps(runs)
        write_with(self.folder / RUNS, lambda tmp: tmp.write_bytes(data))

    def stop(self) -> None:
        from numerics.run_store import STORE
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        restore(self.saved)
        if self.previous is None:
            os.environ.pop(STORE, None)
        else:
            os.environ[STORE] = self.previous
        shutil.rmtree(self.folder, ignore_errors=True)


def main(folder: str) -> None:
    """The helper, on the session's thread settings: its imports while the tests are collected,
    then the runs it is handed, last first."""
    from threadpoolctl import threadpool_limits
    from numerics.models import configure_threads
    threadpool_limits(configure_threads())
    share(pickle.loads((Path(folder) / PLAN).read_bytes()))
    path = Path(folder) / RUNS
    while not path.exists():  # the session kills the helper when it ends
        time.sleep(0.05)
    for name, args, *kwargs in reversed(pickle.loads(path.read_bytes())):
        module, attr = _split(name)
        try:
            getattr(module, attr).ahead(*args, **(kwargs[0] if kwargs else {}))
        except Exception:  # noqa: BLE001 - the test that needs the run computes it and reports
            continue


if __name__ == "__main__":
    main(sys.argv[1])
