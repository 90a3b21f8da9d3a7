"""Sweeps (grid cells x seeds) as independent chunks behind a ``concurrent.futures.Executor``.

A sweep is a chunk function ``fn(config, cells, seeds) -> {name: array}``, a list of grid
``cells`` and a list of ``seeds``.  The (seed, cell) members are cut into rectangular chunks of
``chunk_seeds`` seeds x ``chunk_cells`` cells; each chunk is one call of ``fn`` (one batched
tensor program) whose arrays have leading axes ``(len(seeds), len(cells))``.  The chunks run on

* the local machine (default): one process per CUDA device, or per core group when ``workers``
  is given; a single worker runs in this process (no pickling, no start-up);
* a Dask distributed cluster when ``address`` is passed or ``DASK_SCHEDULER_ADDRESS`` is set
  (``pytest verify --dask ADDRESS`` sets it): ``distributed.Client(address).get_executor()``;
* any ``concurrent.futures.Executor`` handed in.

Resuming: with ``out_dir``, each chunk is written as it finishes (``chunk-NNNNN.npz``, written to
a temporary name and renamed, so a file on disk is always complete), and a later call with the
same sweep loads the chunks already there instead of rerunning them.  Every file carries the
sweep's fingerprint (chunk function, config, cells, seeds, chunk shape); a file with another
fingerprint is refused, never mixed in.

Checkpoints inside a chunk: a chunk function that takes a ``checkpoint`` argument is handed a
:class:`Checkpoint` (with ``out_dir`` and ``checkpoint_s``) bound to ``chunk-NNNNN.ckpt.npz``; it
saves its state whenever :meth:`Checkpoint.due` says so and starts from :meth:`Checkpoint.load`,
so a job killed in the middle of a long chunk loses at most ``checkpoint_s`` seconds of it, and
the resumed chunk is bit-identical to an uninterrupted one (the state is stored exactly).
``only=`` runs a subset of the chunks (one SLURM array task each, :mod:`numerics.cluster`);
:func:`chunk_cells_for` sizes chunks from a wall-time budget.

Results are assembled in (seed, cell) order.  They are bit-identical whatever the executor and
however often the sweep was interrupted, because each member's randomness is drawn from its own
seed and cell inside ``fn`` (never from a chunk index) and a chunk's arrays are stored exactly.
Another chunk shape gives the same values up to the rounding of the BLAS path a batch width
takes (the Fig. 1 trainer: bit-identical across seed blocks, within 1e-15 across cell blocks;
tests/test_sweep.py); the chunk shape is part of the fingerprint, so a resume never mixes two.
"""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import inspect
import json
import os
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from numerics.atomic import write_with
from numerics.validation import InvalidArgument

EXECUTORS = ("local", "inline", "dask")
#: seconds to wait for a Dask scheduler before :class:`SchedulerUnreachable`
CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Chunk:
    """One rectangular block of the sweep: ``seeds`` x ``cells`` positions (index ranges)."""

    index: int
    seeds: range
    cells: range


@dataclass
class SweepResult:
    """``arrays``: name -> array with leading axes (seeds, cells); ``computed``: the chunk
    indices run by this call (the others were loaded from ``out_dir``); ``chunk_seconds``: wall
    time of each chunk's ``fn`` call where it ran (loaded chunks keep their recorded time)."""

    arrays: dict
    chunks: list
    computed: list = field(default_factory=list)
    chunk_seconds: dict = field(default_factory=dict)
    fingerprint: str = ""


def plan(n_seeds: int, n_cells: int, chunk_seeds: int, chunk_cells: int) -> list[Chunk]:
    """The chunks of a ``n_seeds`` x ``n_cells`` sweep, seed blocks outermost."""
    for name, value in (("n_seeds", n_seeds), ("n_cells", n_cells)):
        if not (isinstance(value, (int, np.integer)) or (np.isfinite(value) and value == int(value))):
            raise InvalidArgument(f"{name}={value!r} must be a whole number")
    # the sizes first: an empty cell list also makes the default chunk_cells zero
    if n_seeds < 1 or n_cells < 1:
        raise InvalidArgument(f"the sweep is empty: {n_seeds} seeds x {n_cells} cells (cells and seeds "
                              "must each be non-empty)")
    for name, value in (("chunk_seeds", chunk_seeds), ("chunk_cells", chunk_cells)):
        if not np.isfinite(value) or int(value) != value or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be an integer >= 1")
    n_seeds, n_cells = int(n_seeds), int(n_cells)
    out = []
    for s0 in range(0, n_seeds, chunk_seeds):
        for c0 in range(0, n_cells, chunk_cells):
            out.append(Chunk(len(out), range(s0, min(s0 + chunk_seeds, n_seeds)),
                             range(c0, min(c0 + chunk_cells, n_cells))))
    return out


def _canonical(value):
    """The settings as hashed by :func:`fingerprint`: numpy scalars and arrays as Python numbers
    and lists, keys sorted, every digit kept, anything else refused (a record's JSON converter,
    ``verify.measurement.as_json``, summarises large arrays and so cannot serve here)."""
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_canonical(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise InvalidArgument(f"{value!r} ({type(value).__name__}) is not a plain setting: cells, seeds and "
                          "config must be numbers, strings, lists or dicts")


def fingerprint(fn, config: dict, cells, seeds, chunk_seeds: int, chunk_cells: int) -> str:
    doc = {"fn": f"{fn.__module__}.{fn.__qualname__}", "config": _canonical(config),
           "cells": _canonical(list(cells)), "seeds": _canonical(list(seeds)),
           "chunk": [int(chunk_seeds), int(chunk_cells)]}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:20]


class InlineExecutor(cf.Executor):
    """Runs each submission at once in this process: the executor of a single local worker."""

    def submit(self, fn, /, *args, **kwargs):
        future = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 -- handed to the caller through the future
            future.set_exception(exc)
        return future


def _init_worker(counter, threads_per_worker):
    """Process-pool initialiser: worker i takes CUDA device i (mod count) or a core group."""
    import torch
    with counter.get_lock():
        index = counter.value
        counter.value += 1
    if torch.cuda.is_available():
        torch.cuda.set_device(index % torch.cuda.device_count())
    elif threads_per_worker:
        torch.set_num_threads(threads_per_worker)


def local_executor(workers: int | None = None) -> cf.Executor:
    """One process per CUDA device (or ``workers`` processes splitting the cores); a single
    worker is :class:`InlineExecutor`."""
    import multiprocessing as mp

    import torch
    if workers is None:
        workers = torch.cuda.device_count() if torch.cuda.is_available() else 1
    if int(workers) != workers or workers < 1:
        raise InvalidArgument(f"workers={workers!r} must be an integer >= 1")
    if workers == 1:
        return InlineExecutor()
    ctx = mp.get_context("spawn")  # CUDA cannot be re-initialised in a forked child
    threads = max(1, (os.cpu_count() or 1) // workers)
    return cf.ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker,
                                  initargs=(ctx.Value("i", 0), threads))


class DaskExecutor(cf.Executor):
    """The ``concurrent.futures`` face of a Dask cluster, owning its client (``pure=False``:
    every chunk runs, none is taken from Dask's cache of equal calls)."""

    def __init__(self, address: str, timeout: float | None = None):
        from distributed import Client
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            self.client = Client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SchedulerUnreachable(
                f"cannot reach the Dask scheduler at {address!r} within {timeout:g} s "
                f"({type(exc).__name__}): start it, or run without --dask / "
                "$DASK_SCHEDULER_ADDRESS to use this machine") from None
        self._executor = self.client.get_executor(pure=False)

    def submit(self, fn, /, *args, **kwargs):
        return self._executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait=True, *, cancel_futures=False):
        self._executor.shutdown(wait=wait and not cancel_futures)
        self.client.close()


def make_executor(executor=None, *, address: str | None = None, workers: int | None = None):
    """(executor, owned): ``owned`` executors are shut down by :func:`run_sweep`."""
    if isinstance(executor, cf.Executor):
        return executor, False
    address = address or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    if executor is None:
        executor = "dask" if address else "local"
    if executor not in EXECUTORS:
        raise InvalidArgument(f"executor={executor!r} must be a concurrent.futures.Executor or one of "
                              f"{EXECUTORS}")
    if executor == "dask":
        if not address:
            raise InvalidArgument("executor='dask' needs address= or $DASK_SCHEDULER_ADDRESS")
        return DaskExecutor(address), True
    return (InlineExecutor() if executor == "inline" else local_executor(workers)), True


class Checkpoint:
    """The saved state of one chunk in the middle of its run (module docstring): a dict of arrays
    written atomically to ``path`` with the sweep's fingerprint, at most every ``every_s`` wall
    seconds."""

    def __init__(self, path, fingerprint_: str, every_s: float):
        if not (isinstance(every_s, (int, float)) and np.isfinite(every_s) and every_s >= 0):
            raise InvalidArgument(f"every_s={every_s!r} must be a finite number of seconds >= 0")
        self.path, self.fingerprint, self.every_s = Path(path), fingerprint_, float(every_s)
        self._last = time.monotonic()
        self.saves = 0

    def due(self) -> bool:
        return time.monotonic() - self._last >= self.every_s

    def save(self, state: dict) -> None:
        _save(self.path, state, 0.0, self.fingerprint)
        self._last = time.monotonic()
        self.saves += 1

    def load(self) -> dict | None:
        """The state saved by an earlier, interrupted run of this chunk, or None."""
        return _load(self.path, self.fingerprint)[0] if self.path.is_file() else None

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def _takes_checkpoint(fn) -> bool:
    try:
        return "checkpoint" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _run_chunk(fn, config, cells, seeds, checkpoint=None):
    """What a worker runs: the chunk function, timed (with its checkpoint when it takes one)."""
    start = time.perf_counter()
    arrays = fn(config, cells, seeds, **({"checkpoint": checkpoint} if checkpoint else {}))
    return {k: np.asarray(v) for k, v in arrays.items()}, time.perf_counter() - start


def chunk_cells_for(budget_s: float, member_step_s: float, steps: int, n_cells: int,
                    chunk_seeds: int = 1, safety: float = 0.5) -> int:
    """The most cells per chunk whose estimated run (``member_step_s`` seconds per member and GD
    step on this machine, ``steps`` steps, ``chunk_seeds`` seeds) fits ``safety`` x ``budget_s``;
    at least one (a single cell longer than the budget resumes from its checkpoints)."""
    for name, value in (("budget_s", budget_s), ("member_step_s", member_step_s)):
        if not (isinstance(value, (int, float)) and np.isfinite(value) and value > 0):
            raise InvalidArgument(f"{name}={value!r} must be a positive number of seconds")
    if not 0 < safety <= 1:
        raise InvalidArgument(f"safety={safety!r} must lie in (0, 1]")
    per_cell = member_step_s * int(steps) * int(chunk_seeds)
    return int(min(max(budget_s * safety // per_cell, 1), n_cells))


def _chunk_path(out_dir: Path, chunk: Chunk) -> Path:
    return out_dir / f"chunk-{chunk.index:05d}.npz"


def _save(path: Path, arrays: dict, seconds: float, print_: str) -> None:
    """A chunk file, complete or absent (:func:`numerics.atomic.write_with`)."""
    def dump(tmp: Path) -> None:
        with tmp.open("wb") as fh:
            np.savez(fh, **{f"a.{k}": v for k, v in arrays.items()},
                     _fingerprint=np.array(print_), _seconds=np.array(seconds))
    write_with(path, dump)


class ChunkFileDamaged(ValueError):
    """A chunk file of a sweep cannot be read back (truncated, not an npz, missing fields)."""


class SchedulerUnreachable(ConnectionError):
    """The Dask scheduler named by ``address`` / ``$DASK_SCHEDULER_ADDRESS`` does not answer."""


def _load(path: Path, print_: str):
    try:
        with np.load(path, allow_pickle=False) as z:
            found = str(z["_fingerprint"])
            arrays = {k[2:]: z[k] for k in z.files if k.startswith("a.")}
            seconds = float(z["_seconds"])
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise ChunkFileDamaged(
            f"{path}: damaged chunk file ({type(exc).__name__}: {exc}); delete it and run the "
            "same command again: the sweep recomputes that chunk and keeps the others") from None
    if found != print_:
        raise InvalidArgument(f"{path} belongs to another sweep (fingerprint {found}, this sweep "
                              f"{print_}): use another out_dir or delete it")
    return arrays, seconds


def _check_shapes(arrays: dict, chunk: Chunk, name: str):
    for key, value in arrays.items():
        if value.shape[:2] != (len(chunk.seeds), len(chunk.cells)):
            raise InvalidArgument(f"{name} returned {key!r} of shape {value.shape}; its leading axes "
                                  f"must be (seeds, cells) = ({len(chunk.seeds)}, {len(chunk.cells)})")


def run_sweep(fn, cells, seeds, *, config: dict | None = None, chunk_seeds: int = 1,
              chunk_cells: int | None = None, out_dir=None, executor=None,
              address: str | None = None, workers: int | None = None, progress=None,
              desc: str = "sweep", checkpoint_s: float | None = None,
              only=None) -> SweepResult:
    """Run ``fn(config, cells[chunk], seeds[chunk])`` over every chunk and assemble the arrays.

    ``fn`` must be importable by name (a module-level function) for process and Dask workers.
    ``chunk_cells`` defaults to all cells.  ``out_dir``: where chunks are written as they finish
    and read back on a later call (resume).  ``executor``: None (Dask if ``address`` or
    ``$DASK_SCHEDULER_ADDRESS``, else local), ``'local'``, ``'inline'``, ``'dask'`` or an
    Executor.  On an error in one chunk, the chunks not yet started are cancelled, those that
    finished are kept on disk, and the error is raised.  ``checkpoint_s`` (with ``out_dir``, for
    a chunk function that takes ``checkpoint``): save a running chunk's state this often.
    ``only``: the chunk indices to run (the others are loaded if on disk); the arrays are
    assembled only when every chunk is done (else ``arrays`` is empty).
    """
    cells, seeds, config = list(cells), list(seeds), dict(config or {})
    chunk_cells = len(cells) if chunk_cells is None else chunk_cells
    chunks = plan(len(seeds), len(cells), chunk_seeds, chunk_cells)
    print_ = fingerprint(fn, config, cells, seeds, chunk_seeds, chunk_cells)
    if checkpoint_s is not None and (out_dir is None or not _takes_checkpoint(fn)):
        raise InvalidArgument("checkpoint_s needs out_dir and a chunk function that takes checkpoint=")
    wanted = {c.index for c in chunks} if only is None else set(only)
    if not wanted <= {c.index for c in chunks} or not wanted:
        raise InvalidArgument(f"only={only!r} must name chunks of the sweep, 0 to {len(chunks) - 1}")
    name = f"{fn.__module__}.{fn.__qualname__}"
    done, seconds = {}, {}
    if out_dir is not None:
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        for chunk in chunks:
            path = _chunk_path(out_dir, chunk)
            if path.is_file():
                done[chunk.index], seconds[chunk.index] = _load(path, print_)
    todo = iter([c for c in chunks if c.index not in done and c.index in wanted])
    computed = []
    if not wanted <= set(done):
        pool, owned = make_executor(executor, address=address, workers=workers)
        # an in-process executor computes at submission: submit one chunk at a time so that each
        # is on disk before the next starts; other executors get every chunk at once
        window = 1 if isinstance(pool, InlineExecutor) else len(chunks)
        pending, error = {}, None
        bar = tqdm(total=len(chunks), initial=len(done), desc=desc, leave=False,
                   disable=(len(chunks) < 2) if progress is None else not progress)

        def top_up():
            while error is None and len(pending) < window:
                chunk = next(todo, None)
                if chunk is None:
                    return
                ckpt = (Checkpoint(_chunk_path(out_dir, chunk).with_suffix(".ckpt.npz"), print_,
                                   checkpoint_s) if checkpoint_s is not None else None)
                pending[pool.submit(_run_chunk, fn, config, [cells[i] for i in chunk.cells],
                                    [seeds[i] for i in chunk.seeds], ckpt)] = chunk

        try:
            top_up()
            while pending:
                finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    chunk = pending.pop(future)
                    if future.cancelled():
                        continue
                    if future.exception() is not None:
                        error = error or future.exception()
                        for other in pending:
                            other.cancel()
                        continue
                    arrays, secs = future.result()
                    _check_shapes(arrays, chunk, name)
                    if out_dir is not None:
                        _save(_chunk_path(out_dir, chunk), arrays, secs, print_)
                        _chunk_path(out_dir, chunk).with_suffix(".ckpt.npz").unlink(missing_ok=True)
                    done[chunk.index], seconds[chunk.index] = arrays, secs
                    computed.append(chunk.index)
                    bar.update(1)
                top_up()
        finally:
            bar.close()
            if owned:
                pool.shutdown(wait=True, cancel_futures=True)   # nothing pending unless interrupted
        if error is not None:
            raise error
    arrays = _assemble(chunks, done, len(seeds), len(cells)) if len(done) == len(chunks) else {}
    return SweepResult(arrays, chunks, sorted(computed), seconds, print_)


def _assemble(chunks, done, n_seeds, n_cells) -> dict:
    keys = done[chunks[0].index].keys()
    out = {}
    for key in keys:
        first = done[chunks[0].index][key]
        full = np.empty((n_seeds, n_cells) + first.shape[2:], dtype=first.dtype)
        for chunk in chunks:
            full[chunk.seeds.start:chunk.seeds.stop, chunk.cells.start:chunk.cells.stop] = \
                done[chunk.index][key]
        out[key] = full
    return out
