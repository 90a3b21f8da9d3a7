"""numerics.sweep: chunks behind an executor give the same arrays, bit for bit, whatever runs them
(in process, a two-worker Dask LocalCluster, another chunk shape), and an interrupted sweep
resumes from its chunk files without recomputing them.  The chunk function is the real
Fig. 1(b) trainer (GRQ-Fig1) on a tiny grid."""
import concurrent.futures as cf

import numpy as np
import pytest

from numerics import sweep as sw
from numerics.rich_quick.single_neuron_teacher_student import fig1a_chunk, fig1b_chunk, sweep_or_read

CONFIG = dict(d=5, h=8, k=2, n=30, n_test=40, base_lr=2e-2, steps=30, marks=(3,), dtype="float64")
CELLS = [(0.3, -0.5), (0.3, 0.5), (1.0, 0.0)]
SEEDS = [0, 1, 2]


def run(**kwargs):
    args = dict(config=CONFIG, chunk_seeds=1, chunk_cells=2, executor="inline", progress=False)
    args.update(kwargs)
    return sw.run_sweep(fig1b_chunk, CELLS, SEEDS, **args)


def same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def reference():
    return run()


class Counting(sw.InlineExecutor):
    """Counts submissions; with ``crash_after``, the machine is 'lost' at that submission."""

    def __init__(self, crash_after=None):
        self.calls, self.crash_after = 0, crash_after

    def submit(self, fn, /, *args, **kwargs):
        if self.calls == self.crash_after:
            raise KeyboardInterrupt("sweep interrupted")
        self.calls += 1
        return super().submit(fn, *args, **kwargs)


def test_chunks_tile_the_sweep_and_arrays_have_seed_and_cell_axes(reference):
    assert len(reference.chunks) == 3 * 2 and reference.computed == list(range(6))
    assert reference.arrays["S"].shape == (3, 3, 3)      # seeds, cells, records (0, 3, 30)


def test_a_two_worker_dask_cluster_gives_the_single_process_result(reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        result = run(executor="dask", address=cluster.scheduler_address)
    assert same(result.arrays, reference.arrays)


def test_seed_blocks_do_not_change_the_result_and_cell_blocks_only_by_rounding(reference):
    assert same(run(chunk_seeds=3).arrays, reference.arrays)
    # a wider network of cells takes another BLAS path: float64 rounding, never more
    other = run(chunk_seeds=3, chunk_cells=3).arrays
    assert all(np.allclose(other[k], reference.arrays[k], rtol=0, atol=1e-14) for k in other)


def test_an_unkept_run_is_one_chunk_of_every_seed_with_the_kept_runs_numbers(tmp_path):
    config = dict(d=5, h=8, k=2, n=30, teacher_seed=None, lr=2e-2, steps=40, records=4)
    one, _ = sweep_or_read(fig1a_chunk, config, CELLS, SEEDS, None, True, None)
    kept, _ = sweep_or_read(fig1a_chunk, config, CELLS, SEEDS, tmp_path, True, None)
    assert len(list(tmp_path.glob("*.npz"))) == len(SEEDS)     # kept: one chunk per seed
    assert same(one, kept)


def test_an_interrupted_sweep_resumes_without_recomputing_its_chunks(reference, tmp_path):
    with pytest.raises(KeyboardInterrupt):
        run(out_dir=tmp_path, executor=Counting(crash_after=4))
    assert len(list(tmp_path.glob("chunk-*.npz"))) == 4 and not list(tmp_path.glob(".*.tmp"))
    again = Counting()
    result = run(out_dir=tmp_path, executor=again)
    assert again.calls == 2 and result.computed == [4, 5]
    assert same(result.arrays, reference.arrays)
    assert run(out_dir=tmp_path, executor=Counting(crash_after=0)).computed == []


def test_a_failing_chunk_raises_and_keeps_the_finished_ones(tmp_path):
    with pytest.raises(ValueError, match="steps"):
        run(config=dict(CONFIG, steps=0), out_dir=tmp_path)
    assert not list(tmp_path.glob("chunk-*"))


def test_chunk_files_of_another_sweep_are_refused(tmp_path):
    run(out_dir=tmp_path, chunk_cells=3)
    with pytest.raises(ValueError, match="another sweep"):
        run(out_dir=tmp_path, chunk_cells=3, config=dict(CONFIG, base_lr=1e-2))


def test_a_local_pool_of_processes_is_a_standard_executor():
    pool = sw.local_executor(workers=2)
    try:
        assert isinstance(pool, cf.ProcessPoolExecutor)
    finally:
        pool.shutdown()
    assert isinstance(sw.local_executor(workers=1), sw.InlineExecutor)


@pytest.mark.parametrize("kwargs, match", [
    (dict(cells=[]), "empty"), (dict(seeds=[]), "empty"), (dict(chunk_cells=0), "chunk_cells"),
    (dict(chunk_seeds=1.5), "chunk_seeds"), (dict(executor="threads"), "executor"),
    (dict(executor="dask", address=None), "address"), (dict(workers=0, executor="local"), "workers"),
])
def test_bad_arguments_raise_naming_the_argument(kwargs, match, monkeypatch):
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    cells, seeds = kwargs.pop("cells", CELLS), kwargs.pop("seeds", SEEDS)
    args = dict(config=CONFIG, chunk_cells=2, executor="inline", progress=False)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        sw.run_sweep(fig1b_chunk, cells, seeds, **args)


def test_the_dask_address_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:1")
    monkeypatch.setattr(sw, "DaskExecutor", lambda address: ("dask", address))
    assert sw.make_executor() == (("dask", "tcp://127.0.0.1:1"), True)


@pytest.mark.parametrize("damage", [b"", b"not a zip file", None])
def test_a_damaged_chunk_file_is_named_with_what_to_do(reference, tmp_path, damage):
    run(out_dir=tmp_path)
    path = tmp_path / "chunk-00002.npz"
    path.write_bytes(path.read_bytes()[:100] if damage is None else damage)
    with pytest.raises(sw.ChunkFileDamaged, match=r"chunk-00002\.npz.*delete it and run the same "
                                                  r"command again"):
        run(out_dir=tmp_path)
    path.unlink()
    again = run(out_dir=tmp_path)
    assert again.computed == [2] and same(again.arrays, reference.arrays)


def test_an_unreachable_dask_scheduler_is_a_named_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(sw, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(sw.SchedulerUnreachable, match="cannot reach the Dask scheduler"):
        run(executor="dask", address="tcp://127.0.0.1:9")


LONG = dict(CONFIG, steps=400, marks=(3, 150))


def test_a_chunk_interrupted_in_the_middle_resumes_from_its_checkpoint_bit_identically(
        tmp_path, monkeypatch):
    whole = run(config=LONG, chunk_cells=3)
    saves = []
    real_save = sw.Checkpoint.save

    def save_then_die(self, state):
        real_save(self, state)
        saves.append(int(state["done"]))
        if len(saves) == 3:     # the job is killed right after its third checkpoint
            raise KeyboardInterrupt("job killed")

    monkeypatch.setattr(sw.Checkpoint, "save", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        run(config=LONG, chunk_cells=3, out_dir=tmp_path, checkpoint_s=0.0)
    assert 0 < saves[-1] < LONG["steps"] and list(tmp_path.glob("*.ckpt.npz"))
    monkeypatch.setattr(sw.Checkpoint, "save", real_save)
    resumed = run(config=LONG, chunk_cells=3, out_dir=tmp_path, checkpoint_s=0.0)
    assert same(resumed.arrays, whole.arrays) and not list(tmp_path.glob("*.ckpt.npz"))


def test_only_runs_the_named_chunks_and_the_last_one_assembles(tmp_path, reference):
    first = run(out_dir=tmp_path, only=[0, 1])
    assert first.computed == [0, 1] and first.arrays == {}
    rest = run(out_dir=tmp_path, only=[2, 3, 4, 5])
    assert rest.computed == [2, 3, 4, 5] and same(rest.arrays, reference.arrays)
    with pytest.raises(ValueError, match="only="):
        run(out_dir=tmp_path, only=[6])
    with pytest.raises(ValueError, match="checkpoint_s needs out_dir"):
        run(checkpoint_s=1.0)


def test_a_chunk_is_sized_from_the_wall_time_budget():
    # 1 ms per member-step, 1e5 steps: a cell takes 100 s; a 2 h budget at half safety holds 36
    assert sw.chunk_cells_for(7200, 1e-3, 100_000, 289) == 36
    assert sw.chunk_cells_for(10, 1e-3, 100_000, 289) == 1      # one cell, resumed by checkpoints
    assert sw.chunk_cells_for(1e9, 1e-3, 100_000, 289) == 289
    with pytest.raises(ValueError, match="budget_s="):
        sw.chunk_cells_for(0, 1e-3, 10, 5)
