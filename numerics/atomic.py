"""The one atomic writer of the project: every file a run keeps (reports, paper-scale records,
sweep chunks and checkpoints, stored runs, benchmarks) is written here.

A file is written under a temporary name unique to its writer, in the target's folder,
``.<name>.<pid>.<random>.tmp``, then renamed over the target (``os.replace``, atomic on one file
system): a reader, or a run interrupted by SIGINT or SIGKILL at any moment, sees the file either
as it was or complete as new, never half written.  An interrupted writer removes its temporary
file; one still pending when the process exits (a KeyboardInterrupt between two statements) is
removed at exit; a killed writer's is named by its process, so a later run can tell it from a live
writer's (``verify.report.files.remove_orphans``).
"""
from __future__ import annotations

import atexit
import os
import tempfile
from pathlib import Path

#: temporary files of this process not yet renamed: removed at exit whatever interrupted their
#: writer, even between two statements of :func:`write_with`
_PENDING: set[Path] = set()


@atexit.register
def _remove_pending() -> None:
    for tmp in list(_PENDING):
        tmp.unlink(missing_ok=True)


def write_with(path: Path, write, mode: int = 0o644) -> Path:
    """Call ``write(temporary_path)`` and rename the result to ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    tmp = Path(name)
    _PENDING.add(tmp)
    try:
        os.close(fd)
        write(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        _PENDING.discard(tmp)
        raise
    _PENDING.discard(tmp)
    return path


def write_text(path: Path, text: str) -> Path:
    return write_with(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
