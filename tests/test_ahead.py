"""A serial session's second core (verify.ahead) and the run store it shares runs through
(numerics.run_store): a run is computed once across processes and read back bit-identical, the
helper never waits on a run another process holds, and the session runs a test as soon as its
runs are made (the verdict items after every test)."""
import pickle
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from filelock import FileLock

from numerics import run_store
from numerics.haste_slowly import configs, linear
from numerics.validation import InvalidArgument
from verify import ahead


def _counted():
    calls = []

    def runner(cfg, scale=1.0):
        calls.append((cfg, scale))
        return {"cfg": cfg, "value": cfg * scale}
    return run_store.shared(runner), calls


def test_without_a_store_a_run_is_cached_once_however_its_arguments_are_spelled(monkeypatch):
    monkeypatch.delenv(run_store.STORE, raising=False)
    run, calls = _counted()
    assert run(2) is run(2, 1.0) is run(cfg=2)
    assert calls == [(2, 1.0)]


def test_a_stored_run_is_read_by_another_process_not_recomputed(monkeypatch, tmp_path):
    monkeypatch.setenv(run_store.STORE, str(tmp_path))
    first, calls = _counted()
    first(3, scale=2.0)
    assert len(list(tmp_path.glob("*.pkl"))) == 1
    # a second process: its own wrapper and memo of the same runner, the same folder
    second, other_calls = _counted()
    assert second(3, 2.0) == {"cfg": 3, "value": 6.0}
    assert other_calls == []


def test_ahead_skips_a_run_another_process_holds_and_one_already_stored(monkeypatch, tmp_path):
    monkeypatch.setenv(run_store.STORE, str(tmp_path))
    run, calls = _counted()
    name = run_store._name(run.__wrapped__, (5, 1.0), {})
    with FileLock(f"{tmp_path / name}.pkl.lock"):
        assert run.ahead(5) is False
    assert calls == []
    assert run.ahead(5) is True and run.ahead(5) is False
    assert calls == [(5, 1.0)]


def test_an_argument_without_a_value_repr_is_refused_by_name(monkeypatch, tmp_path):
    monkeypatch.setenv(run_store.STORE, str(tmp_path))
    run, _ = _counted()
    with pytest.raises(InvalidArgument, match="no repr another process can share"):
        run(lambda: 1)
    monkeypatch.delenv(run_store.STORE)
    with pytest.raises(InvalidArgument, match="needs a run store: set CLAIMS_RUN_STORE"):
        run.ahead(1)
    with pytest.raises(InvalidArgument, match="fn must be a runner"):
        run_store.shared("relu_run")


def _item(path, name, scale=None, fixtures=(), module=None):
    callspec = None if scale is None else SimpleNamespace(params={"scale": scale})
    return SimpleNamespace(nodeid=f"{path}::{name}", callspec=callspec, fixtures=fixtures,
                           module=SimpleNamespace(__name__=module) if module else None)


def test_the_runs_tests_need_are_listed_once_in_the_order_they_need_them():
    plan = {("c", "heavy"): [("r.a", (1,)), ("r.b", (2,))], ("m.fig", ""): [("r.c", (3,))]}
    items = [_item("a.py", "t1", "ci", [("c", "heavy")]), _item("b.py", "t2"),
             _item("a.py", "t3"), _item("a.py", "t4", "full", [("c", "heavy")]),
             _item("c.py", "t5", module="m.fig"), _item("d.py", "t6", "ci", [("c", "heavy")]),
             _item("e.py", "t7")]
    assert ahead.needed(items, lambda item: item.fixtures, plan) == [
        ("r.a", (1,)), ("r.b", (2,)), ("r.c", (3,))]
    assert ahead.needed(items[1:4], lambda item: item.fixtures, plan) == []  # a full-scale test needs none


def test_the_schedule_runs_a_moved_test_once_its_runs_are_made_and_the_rest_from_the_last(monkeypatch):
    made = set()
    monkeypatch.setattr(ahead, "_call", lambda run, method: method == "ready" and run[0] in made)
    plan = {("c", "one"): [("r1", ())], ("c", "two"): [("r2", ())], ("c", "three"): [("r3", ())]}
    items = [_item("a.py", "light1"), _item("b.py", "heavy1", "ci", [("c", "one")]),
             _item("a.py", "light2"), _item("b.py", "heavy2", "ci", [("c", "two")]),
             _item("c.py", "heavy3", "ci", [("c", "three")]), _item("a.py", "claim[X]")]
    ran = []

    def protocol(item, nextitem):
        ran.append((item.nodeid.split("::")[1], nextitem and nextitem.nodeid.split("::")[1]))
        if item.nodeid.endswith("light1"):
            made.add("r2")  # the helper stored r2 while light1 ran
    hook = SimpleNamespace(pytest_runtest_protocol=protocol)
    for item in items:
        item.config = SimpleNamespace(hook=hook)
    schedule = ahead.Schedule(items, [ahead.runs_of(i, lambda item: item.fixtures, plan) for i in items],
                              lambda item: "claim[" in item.nodeid)
    assert ahead.run_loop(SimpleNamespace(shouldfail=False, shouldstop=False), schedule) is True
    # light2 was already picked as light1's next item when r2 was made: heavy2 follows it
    assert ran == [("light1", "light2"), ("light2", "heavy2"), ("heavy2", "heavy3"),
                   ("heavy3", "heavy1"), ("heavy1", "claim[X]"), ("claim[X]", None)]


def test_the_switch_takes_zero_or_one(monkeypatch):
    monkeypatch.setenv(ahead.SWITCH, "0")
    assert ahead.wanted() is False
    monkeypatch.setenv(ahead.SWITCH, "yes")
    with pytest.raises(InvalidArgument, match="CLAIMS_AHEAD='yes' must be 0"):
        ahead.wanted()


def test_the_helper_computes_a_run_that_reads_back_bit_identical_to_one_process(monkeypatch):
    monkeypatch.delenv(run_store.STORE, raising=False)
    cfg = configs.FIG7.replace(steps=400, seeds=(3, 4))
    original = linear.linear_run
    alone = pickle.dumps(original.__wrapped__(cfg))
    helper = ahead.Ahead()
    try:
        helper.share({("c", "f"): [("numerics.haste_slowly.linear.linear_run", (cfg,))]})
        assert linear.linear_run is not original
        helper.start([("numerics.haste_slowly.linear.linear_run", (cfg,))])
        deadline = time.time() + 120
        while not list(helper.folder.glob("linear_run-*.pkl")) and time.time() < deadline:
            time.sleep(0.1)
        assert list(helper.folder.glob("linear_run-*.pkl")), "the helper stored no run"
        assert pickle.dumps(linear.linear_run(cfg)) == alone
    finally:
        helper.stop()
    assert linear.linear_run is original and not helper.folder.exists()
    assert helper.process.returncode is not None


def _ended(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_a_helper_whose_session_was_killed_ends_by_itself(tmp_path):
    """A session killed before it hands its helper anything cannot kill the helper: the helper
    sees that its parent is gone and ends."""
    session = ("import os, subprocess, sys; print(subprocess.Popen([sys.executable, '-m', "
               f"'verify.ahead', {str(tmp_path)!r}, str(os.getpid())], stdout=subprocess.DEVNULL).pid)")
    pid = int(subprocess.run([sys.executable, "-c", session], capture_output=True, text=True,
                             check=True).stdout)
    deadline = time.time() + 120
    while not _ended(pid) and time.time() < deadline:
        time.sleep(0.2)
    assert _ended(pid), "the orphaned helper kept running"
