"""docs/adding-a-paper.md cannot rot: its code blocks, written verbatim into a copy of the
repository, add a paper (one claim of each recorder verb) that runs in ``pytest verify`` and
reaches the run record, and the copy still passes ``pytest tests``: adding a paper edits no file
outside the paper's own folders."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "adding-a-paper.md"
BLOCK = re.compile(r"<!-- file: (\S+) -->\n```(?:python|json)\n(.*?)```", re.S)
PAPER_FOLDERS = ("theory/toy/", "numerics/toy/", "verify/toy/", "tests/toy/")


def copied_without_outputs(folder, names):
    """What ``copytree`` leaves out: git, caches and the reports a run writes (the committed
    paper-scale records and the reports' README stay, as in a checkout)."""
    skip = shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", ".hypothesis")(folder, names)
    if Path(folder) == ROOT / "reports":
        skip |= set(names) - {"paper_scale", "README.md"}
    return skip


def guide_blocks():
    blocks = BLOCK.findall(GUIDE.read_text())
    paths = {path for path, _ in blocks}
    assert paths >= {"theory/toy/paper.json", "theory/toy/__init__.py", "numerics/toy/configs.py",
                     "numerics/toy/__init__.py", "verify/toy/__init__.py", "verify/toy/conftest.py",
                     "verify/toy/evidence.py", "verify/toy/validity.py", "verify/toy/test_validity.py",
                     "verify/toy/figures.py", "verify/toy/test_toy.py",
                     "tests/toy/test_toy_rejects.py"}, "the guide lost a step"
    outside = sorted(p for p in paths if not p.startswith(PAPER_FOLDERS))
    assert not outside, f"the guide writes files outside the toy paper's folders: {outside}"
    return blocks


def apply_guide(repo: Path):
    for path, code in guide_blocks():
        target = repo / path
        assert not target.exists(), f"the guide overwrites {path}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code)


def test_the_guide_adds_a_paper_that_runs_in_the_suite(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=copied_without_outputs)
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
    assert {c: r["verdict"] for c, r in toy.items()} == {
        "TOY-Def-Loss": "defined", "TOY-Eq(1)": "holds", "TOY-Eq(2)": "erratum",
        "TOY-Eq(3)": "holds-if", "TOY-Fig1": "holds"}
    assert all(s["faithful"] for s in toy["TOY-Fig1"]["setups"]) and toy["TOY-Eq(1)"]["measurements"]
    assert (out / "toy.pdf").exists(), sorted(p.name for p in out.iterdir())
    # the machinery tests that know nothing of papers (killed runs, sweeps, cluster scripts,
    # benchmarks) start their own processes for minutes and cannot see the new paper: the copy
    # runs every other test
    paper_blind = ("test_adding_a_paper", "test_interrupted_runs", "test_cluster", "test_sweep",
                   "test_bench")
    machinery = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "-p", "no:cacheprovider", "-q", "-x",
         *(f"--ignore=tests/{name}.py" for name in paper_blind)],
        cwd=repo, env=env, capture_output=True, text=True, timeout=1200)
    assert machinery.returncode == 0, machinery.stdout[-4000:] + machinery.stderr[-2000:]
