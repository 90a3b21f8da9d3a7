"""Paper-scale sweeps on a CPU cluster (docs/scale.md, "On a SLURM cluster"): the job script of a
SLURM array with one task per chunk, its wall time from the chunk budget, every task resuming in
one shared output folder; and, with the optional ``dask-jobqueue`` (``pip install -e
.[cluster]``), the same budget for a Dask ``SLURMCluster``.

Each array task runs ``python -m numerics.full_scale --chunk $SLURM_ARRAY_TASK_ID`` on the
folder: a finished chunk is loaded and the task ends, a chunk killed by its wall time resumes from
its checkpoint (``numerics.sweep.Checkpoint``), so resubmitting the same script finishes the grid
and a last run without ``--chunk`` assembles it.  Time units: wall seconds.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path
from numerics.validation import InvalidArgument

#: [D-]HH:MM:SS, as SLURM's --time takes it
WALLTIME = re.compile(r"^(?:(\d+)-)?(\d{1,2}):(\d{2}):(\d{2})$")


def walltime_seconds(walltime: str) -> int:
    """``walltime`` ('02:00:00', '1-00:00:00') in seconds."""
    match = WALLTIME.match(str(walltime).strip()) if isinstance(walltime, str) else None
    if not match:
        raise InvalidArgument(f"walltime={walltime!r} must be [D-]HH:MM:SS, e.g. '02:00:00'")
    days, hours, minutes, seconds = (int(g or 0) for g in match.groups())
    if minutes > 59 or seconds > 59:
        raise InvalidArgument(f"walltime={walltime!r}: minutes and seconds run 00-59")
    total = ((days * 24 + hours) * 60 + minutes) * 60 + seconds
    if total <= 0:
        raise InvalidArgument(f"walltime={walltime!r} must be positive")
    return total


def checkpoint_every(walltime: str) -> float:
    """How often a task saves its chunk: a tenth of its wall time, at most every 10 minutes (a
    killed task loses at most that much)."""
    return float(min(walltime_seconds(walltime) / 10, 600))


def slurm_array_script(*, out_dir, chunks: int, walltime: str, cpus: int,
                       experiment: str = "grq-fig1b", python: str = "python",
                       extra: tuple[str, ...] = ()) -> str:
    """The job script of a SLURM array over ``chunks`` chunks of ``experiment``, each task with
    ``cpus`` cores and ``walltime``, all writing to (and resuming from) ``out_dir``."""
    if not isinstance(chunks, int) or chunks < 1:
        raise InvalidArgument(f"chunks={chunks!r} must be an integer >= 1")
    if not isinstance(cpus, int) or cpus < 1:
        raise InvalidArgument(f"cpus={cpus!r} must be an integer >= 1")
    walltime_seconds(walltime)
    out = shlex.quote(str(Path(out_dir).resolve()))
    directives = [f"--job-name={experiment}", f"--array=0-{chunks - 1}", f"--time={walltime}",
                  f"--cpus-per-task={cpus}", "--ntasks=1", "--open-mode=append",
                  f"--output={Path(out_dir).resolve()}/slurm-%A_%a.out", *extra]
    return "\n".join(
        ["#!/bin/bash"] + [f"#SBATCH {d}" for d in directives] + [
            "# one chunk per array task; resubmit this script to resume: finished chunks are",
            "# loaded, a chunk killed at its wall time restarts from its checkpoint",
            "set -euo pipefail",
            f"export CLAIMS_TORCH_THREADS={cpus}",
            f"{python} -m numerics.full_scale --experiment {experiment} --fraction 1 "
            f"--out-dir {out} --walltime {walltime} --chunk \"$SLURM_ARRAY_TASK_ID\"",
            ""])


def dask_slurm_cluster(*, walltime: str, cpus: int, memory: str = "8GB", **kwargs):
    """A ``dask_jobqueue.SLURMCluster`` whose workers live ``walltime`` with ``cpus`` cores
    (``pip install -e .[cluster]``); its ``job_script()`` needs no scheduler to read."""
    try:
        from dask_jobqueue import SLURMCluster
    except ImportError:
        raise ImportError("dask_slurm_cluster needs the optional dask-jobqueue: pip install -e "
                          ".[cluster]") from None
    walltime_seconds(walltime)
    return SLURMCluster(cores=cpus, processes=1, memory=memory, walltime=walltime,
                        job_script_prologue=[f"export CLAIMS_TORCH_THREADS={cpus}"], **kwargs)
