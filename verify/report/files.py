"""Every file of ``reports/`` is written through the project's one atomic writer
(:mod:`numerics.atomic`): to a temporary name unique to the writer, in the same
folder, then renamed over the target, so a reader, or a run interrupted by SIGINT or SIGKILL at any
moment, sees each report either as it was or complete as new.  A killed writer's
``.<name>.<pid>.*.tmp`` is named by its process, so the next writer removes it once that process is
gone (:func:`remove_orphans`) and never a live writer's.

Writers of ``claims.json`` and ``timings.json`` read, merge and write under one lock
(:func:`lock`, the ``filelock`` library), so concurrent runs sharing a reports folder lose nothing.
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from numerics import atomic

LOCK_NAME = ".reports.lock"
#: seconds a writer waits for another run's report writing before it gives up
LOCK_TIMEOUT = 600


class ReportsNotWritable(OSError):
    """The reports folder cannot be written: checked before any test runs."""


def write_json(path: Path, doc) -> Path:
    return atomic.write_text(path, json.dumps(doc, indent=1))


def lock(reports: Path):
    """The lock every reader-merger-writer of ``reports`` holds while it merges and renders."""
    from filelock import FileLock
    Path(reports).mkdir(parents=True, exist_ok=True)
    return FileLock(str(Path(reports) / LOCK_NAME), timeout=LOCK_TIMEOUT)


def check_writable(folder: Path) -> None:
    """Raise :class:`ReportsNotWritable` unless ``folder`` (or, if it does not exist yet, the
    nearest folder above it, where it would be made) takes a new file.  Nothing is left behind."""
    folder = Path(folder).absolute()
    probe_in = next((p for p in (folder, *folder.parents) if p.exists()), Path(folder.anchor))
    if not probe_in.is_dir():
        raise ReportsNotWritable(f"{folder} cannot be made: {probe_in} is not a folder")
    try:
        fd, name = tempfile.mkstemp(dir=probe_in, prefix=".write-probe.")
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise ReportsNotWritable(f"{folder} is not writable ({exc.strerror or exc}): point "
                                 "--reports-dir at a folder you can write") from None


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (on this machine): a writer whose files must be kept."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def writer_pid(name: str) -> int | None:
    """The process named in a temporary file's name ``.<name>.<pid>.<random>.tmp`` (None for a
    name written before temporary files carried their writer's process)."""
    parts = name.split(".")
    return int(parts[-3]) if len(parts) >= 5 and parts[-3].isdigit() else None


def orphaned(path: Path) -> bool:
    """A temporary file no live process will rename: its writer is gone (or, for a name without
    a writer, it is older than any writer's lock wait)."""
    pid = writer_pid(path.name)
    if pid is not None:
        return not alive(pid)
    try:
        return time.time() - path.lstat().st_mtime > LOCK_TIMEOUT
    except FileNotFoundError:  # renamed by its writer meanwhile
        return False


def remove_orphans(folder: Path) -> list[Path]:
    """Remove the temporary files under ``folder`` that killed writers left; the paths removed."""
    removed = []
    for tmp in Path(folder).rglob(".*.tmp"):
        if tmp.is_file() and orphaned(tmp):
            tmp.unlink(missing_ok=True)
            removed.append(tmp)
    return removed
