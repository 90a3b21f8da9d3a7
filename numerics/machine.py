"""Where a measurement ran: the device's name and the suite's git commit, stated by every record
of a timing or a paper-scale verdict; and how a timing is taken (:func:`best_time`)."""
from __future__ import annotations

import platform
import subprocess
import time
from pathlib import Path

#: the repository root, where ``git`` is asked
ROOT = Path(__file__).resolve().parents[1]


def device_name() -> str:
    """``'cuda: <GPU name>'`` when torch sees a GPU, else ``'cpu: <processor>'``."""
    import torch
    if torch.cuda.is_available():
        return f"cuda: {torch.cuda.get_device_name(0)}"
    return f"cpu: {platform.processor() or platform.machine()}"


def git_commit(root: Path = ROOT) -> tuple[str, bool]:
    """The checked-out commit and whether tracked files differ from it ('unknown' outside git)."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                              timeout=20, check=True).stdout.strip()
    try:
        return git("rev-parse", "HEAD"), bool(git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return "unknown", False


def best_time(fn, repeat: int = 1):
    """(result, best wall time in seconds of ``repeat`` runs of ``fn``): the minimum is the least
    noisy estimate on a shared machine."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return out, best
