"""docs/adding-a-paper.md cannot rot: its code blocks, applied verbatim to a copy of the
repository, add a paper with one exact and one empirical claim that runs in ``pytest verify`` and
reaches the run record."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "adding-a-paper.md"
BLOCK = re.compile(r"<!-- (file|append): (\S+) -->\n```python\n(.*?)```", re.S)


def guide_blocks():
    blocks = BLOCK.findall(GUIDE.read_text())
    assert {path for _, path, _ in blocks} >= {"theory/papers.py", "theory/toy/__init__.py",
                                                "numerics/toy/__init__.py", "verify/toy/test_toy.py",
                                                "tests/toy/test_toy_checks.py"}, "the guide lost a step"
    return blocks


def apply_guide(repo: Path):
    for action, path, code in guide_blocks():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if action == "append":
            target.write_text(target.read_text() + "\n\n" + code)
        else:
            target.write_text(code)


def test_the_guide_adds_a_paper_that_runs_in_the_suite(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(
        ".git", "reports", "__pycache__", "*.egg-info", ".hypothesis", "docs"))
    apply_guide(repo)
    env = {**os.environ, "PYTHONPATH": str(repo)}
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "verify", "--paper", "toy", f"--reports-dir={out}",
         "-p", "no:cacheprovider", "-p", "no:xdist", "-q"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    record = json.loads((out / "claims.json").read_text())
    toy = {c["id"]: c for c in record["claims"] if c["paper"] == "toy"}
    assert set(toy) == {"TOY-Eq(1)", "TOY-Fig1"}
    assert toy["TOY-Eq(1)"]["verdict"] == "holds" and toy["TOY-Fig1"]["verdict"] == "holds"
    assert toy["TOY-Fig1"]["setup"]["faithful"] is True and toy["TOY-Eq(1)"]["measurements"]
    assert (out / "toy.pdf").exists(), sorted(p.name for p in out.iterdir())
    checks = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/toy", "-p", "no:cacheprovider", "-q"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert checks.returncode == 0, checks.stdout[-3000:]
