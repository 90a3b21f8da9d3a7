"""A grid a CPU cluster can finish (numerics.cluster, numerics.full_scale): the SLURM array's job
script takes its wall time from the chunk budget and resumes in one folder; the plan is kept so
every task cuts the grid alike; a full-scale sweep killed (SIGKILL) in the middle of a chunk
resumes bit-identically from its checkpoint.  The grid is GRQ-Fig1's trainer on a tiny grid."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from numerics import cluster, full_scale
from numerics.rich_quick import single_neuron_teacher_student as ts

ROOT = Path(__file__).resolve().parents[1]
TINY = dict(ts.FIG1B_FULL, taus=(0.3, 1.0), deltas=(-0.5, 0.5), seeds=(0, 1), d=5, n=30,
            n_test=40, h=8, steps=6000, marks=(10, 100, 1000))


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(ts, "FIG1B_FULL", TINY)
    # 0.5 s per network-step: a cell of 6,000 steps takes 3,000 s, so a 1 h job holds one cell
    monkeypatch.setattr(full_scale, "rate", lambda cfg, steps=5: 0.5)


def test_the_slurm_script_takes_its_wall_time_from_the_budget_and_resumes_in_one_folder(
        tmp_path, tiny):
    script = tmp_path / "job.sh"
    out = full_scale.main(["--out-dir", str(tmp_path / "sweep"), "--walltime", "01:00:00",
                           "--slurm", str(script), "--cpus", "8", "--fraction", "1"])
    plan = json.loads((tmp_path / "sweep" / "plan.json").read_text())
    assert plan == out["plan"] and plan["chunk_cells"] == 1 and plan["chunks"] == 2 * 4
    assert plan["checkpoint_s"] == 360.0                        # a tenth of the hour
    text = script.read_text()
    assert "#SBATCH --time=01:00:00" in text and "#SBATCH --array=0-7" in text
    assert "#SBATCH --cpus-per-task=8" in text and "export CLAIMS_TORCH_THREADS=8" in text
    assert f"--out-dir {(tmp_path / 'sweep').resolve()}" in text
    assert '--chunk "$SLURM_ARRAY_TASK_ID"' in text and "--walltime 01:00:00" in text
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    # a later call (another task) keeps the plan, whatever this machine measures then
    again = full_scale.chunk_plan(TINY, tmp_path / "sweep", "08:00:00", 1e-9)
    assert again == plan


def test_walltimes_and_bad_arguments_are_named():
    assert cluster.walltime_seconds("1-02:03:04") == 93784
    assert cluster.checkpoint_every("48:00:00") == 600.0
    for bad in ("2h", "00:61:00", "00:00:00", 7200):
        with pytest.raises(ValueError, match="walltime="):
            cluster.walltime_seconds(bad)
    with pytest.raises(ValueError, match="chunks="):
        cluster.slurm_array_script(out_dir="x", chunks=0, walltime="01:00:00", cpus=1)


@pytest.mark.parametrize("argv, message", [
    (["--chunk", "0"], "--chunk and --slurm need --out-dir"),
    (["--out-dir", "x", "--slurm", "job.sh"], "--slurm needs --walltime"),
    (["--out-dir", "x", "--walltime", "2h"], "--walltime: walltime='2h'"),
    (["--fraction", "2"], "--fraction=2.0 must lie in"),
])
def test_cli_misuse_is_a_usage_error(argv, message, capsys, tiny):
    with pytest.raises(SystemExit) as stop:
        full_scale.main(argv + ["--out", os.devnull])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_dask_jobqueue_takes_the_same_wall_time():
    pytest.importorskip("dask_jobqueue")
    with cluster.dask_slurm_cluster(walltime="02:00:00", cpus=4) as slurm:
        assert "#SBATCH -t 02:00:00" in slurm.job_script()


KILLED = f"""
import sys
from numerics import full_scale
from numerics.rich_quick import single_neuron_teacher_student as ts
ts.FIG1B_FULL = {TINY!r}
full_scale.rate = lambda cfg, steps=5: 1e-6
full_scale.main(sys.argv[1:])
"""


def test_a_full_scale_sweep_killed_in_the_middle_of_a_chunk_resumes_bit_identically(
        tmp_path, tiny):
    folder = tmp_path / "sweep"
    full_scale.chunk_plan(TINY, folder, None, 1.0)
    plan = json.loads((folder / "plan.json").read_text())
    plan["checkpoint_s"] = 0.0       # checkpoint as often as the trainer looks at the clock
    (folder / "plan.json").write_text(json.dumps(plan))
    args = ["--fraction", "1", "--out-dir", str(folder), "--out", os.devnull]
    proc = subprocess.Popen([sys.executable, "-c", KILLED, *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not list(folder.glob("chunk-00000.ckpt.npz")) and time.monotonic() < deadline:
        assert proc.poll() is None, "the sweep ended before its first checkpoint"
        time.sleep(0.05)
    time.sleep(0.3)                  # a few checkpoints into the first chunk
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (folder / "chunk-00000.npz").exists(), "the first chunk finished before the kill"
    saved = np.load(folder / "chunk-00000.ckpt.npz")
    assert 0 < int(saved["a.done"]) < TINY["steps"]
    row = plan["chunk_cells"]       # the plan's chunks: a tau row each
    assert row == len(TINY["deltas"])
    _, S, test, resumed = ts.fig1b_sweep(TINY, out_dir=folder, checkpoint_s=0.0, chunk_cells=row,
                                         progress=False)
    _, S0, test0, _ = ts.fig1b_sweep(TINY, chunk_cells=row, progress=False)
    assert np.array_equal(S, S0) and np.array_equal(test, test0)
    assert 0 in resumed.computed and not list(folder.glob("*.ckpt.npz"))
