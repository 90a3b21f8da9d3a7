"""The code follows the linter rules configured under ``[tool.ruff]`` in pyproject.toml (issue 17,
item 5): pyflakes, pycodestyle errors and warnings, no blind ``except``, no stale ``noqa``."""
import subprocess
from pathlib import Path

from ruff.__main__ import find_ruff_bin

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([find_ruff_bin(), "check", "--no-cache", "--output-format", "concise", str(ROOT)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, f"ruff check (pyproject [tool.ruff]):\n{done.stdout}{done.stderr}"

