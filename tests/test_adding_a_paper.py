"""docs/adding-a-paper.md cannot rot: its code blocks, written verbatim into a copy of the
repository, add a paper (one claim of each recorder verb) that runs in ``pytest verify`` and
reaches the run record, whose paper-scale run (``--scale=full``, an open setting shown harmless
by the sensitivity rule) is faithful, is recorded with the hashes of the code it imports and
leads the claim's report while that code is unchanged, and the copy still passes ``pytest
tests``: adding a paper edits no file outside the paper's own folders."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from theory.papers import PAPERS
from verify.report.paper_scale import attach, stale_claims
from verify.report.record import headline

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "adding-a-paper.md"
BLOCK = re.compile(r"<!-- file: (\S+) -->\n```(?:python|json)\n(.*?)```", re.S)
PAPER_FOLDERS = ("theory/toy/", "numerics/toy/", "verify/toy/", "tests/toy/")
#: the paper-scale record of the toy's Fig. 1 test (named by the plugin after the test)
FIG1_RECORD = "paper_scale/test_fig1_gradient_descent_reaches_s_full.json"


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
    assert paths >= {"theory/toy/paper.json", "theory/toy/__init__.py", "theory/toy/notation.py",
                     "numerics/toy/configs.py",
                     "numerics/toy/__init__.py", "verify/toy/__init__.py", "verify/toy/conftest.py",
                     "verify/toy/evidence.py", "verify/toy/validity.py",
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


def run_pytest(repo: Path, env: dict, *args: str, timeout: int) -> subprocess.CompletedProcess:
    run = subprocess.run([sys.executable, "-m", "pytest", *args, "-p", "no:cacheprovider", "-q"],
                         cwd=repo, env=env, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    return run


def toy_claims(out: Path) -> dict:
    record = json.loads((out / "claims.json").read_text())
    return {c["id"]: c for c in record["claims"] if c["paper"] == "toy"}


def test_the_guide_adds_a_paper_that_runs_in_the_suite(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=copied_without_outputs)
    apply_guide(repo)
    env = {**os.environ, "PYTHONPATH": str(repo)}
    out = tmp_path / "out"
    run_pytest(repo, env, "verify", "--paper", "toy", f"--reports-dir={out}", "-p", "no:xdist",
               timeout=600)
    toy = toy_claims(out)
    assert {c: r["verdict"] for c, r in toy.items()} == {
        "TOY-Def-Loss": "defined", "TOY-Eq(1)": "holds", "TOY-Eq(2)": "erratum",
        "TOY-Eq(3)": "holds-if", "TOY-Fig1": "supported"}
    assert toy["TOY-Eq(1)"]["measurements"] and (out / "toy.pdf").exists(), sorted(
        p.name for p in out.iterdir())
    # the ci run has 3 of the paper's 16 seeds: not faithful, though the open setting is harmless
    (ci_setup,) = toy["TOY-Fig1"]["setups"]
    deviations = {d["setting"]: d for d in ci_setup["deviations"]}
    assert not ci_setup["faithful"] and ci_setup["unknown"] == ["init_std"]
    assert not deviations["seeds"].get("shown_harmless_by") and deviations["init_std"]["shown_harmless_by"]
    ci_record = json.loads((out / "claims.json").read_text())

    # the paper-scale run: the same test at 'full', faithful, decides 'holds' (expected_full)
    run_pytest(repo, env, "verify", "--paper", "toy", "--scale=full", f"--reports-dir={out}",
               "--no-pdf", "-p", "no:xdist", timeout=600)
    fig1 = toy_claims(out)["TOY-Fig1"]
    assert (fig1["verdict"], fig1["expected"], fig1["expected_full"], fig1["scale"]) == (
        "holds", "holds", "holds", "full")
    paper_scale = json.loads((out / FIG1_RECORD).read_text())
    assert paper_scale["claims"]["TOY-Fig1"]["verdict"] == "holds"
    assert paper_scale["claims"]["TOY-Fig1"]["faithful"]
    imports = set(paper_scale["imports"])
    assert {"verify/toy/test_toy.py", "verify/toy/conftest.py", "verify/toy/evidence.py",
            "numerics/toy/__init__.py", "numerics/toy/configs.py",
            "verify/checks/identities.py"} <= imports, sorted(imports)
    others = sorted(f for f in imports for key in PAPERS if key != "toy"
                    for layer in ("theory", "numerics", "verify") if f.startswith(f"{layer}/{key}/"))
    assert not others, f"the toy's record hashes another paper's files: {others}"
    # written where --reports-dir points, read against the copy's own tree (its hashes match the
    # copy's files), and never into a checkout's committed records
    assert fig1["paper_scale"]["file"] == FIG1_RECORD and fig1["paper_scale"]["code_changed"] == []
    assert not (repo / "reports" / FIG1_RECORD).exists() and not (ROOT / "reports" / FIG1_RECORD).exists()

    # the record leads the ci run's report while the code it imported is unchanged ...
    ci_fig1 = next(c for c in attach(ci_record, out, repo)["claims"] if c["id"] == "TOY-Fig1")
    assert ci_fig1["verdict"] == "supported" and headline(ci_fig1) == ("holds", "holds")
    # ... and an edit to that code flags it: it no longer leads, and --stale would decide it again
    configs = repo / "numerics" / "toy" / "configs.py"
    text = configs.read_text()
    configs.write_text(text + "# edited\n")
    ci_fig1 = next(c for c in attach(ci_record, out, repo)["claims"] if c["id"] == "TOY-Fig1")
    assert ci_fig1["paper_scale"]["code_changed"] == ["numerics/toy/configs.py"]
    assert headline(ci_fig1) == ("supported", "supported") and "TOY-Fig1" in stale_claims(out, repo)
    configs.write_text(text)
    assert "TOY-Fig1" not in stale_claims(out, repo)

    # the paper's own tests outside a claims run (the registry loaded by load_all)
    run_pytest(repo, env, "tests/toy", "-p", "no:xdist", timeout=300)
    # the machinery tests that know nothing of papers (killed runs, sweeps, cluster scripts,
    # benchmarks) start their own processes for minutes and cannot see the new paper: the copy
    # runs every other test, on two processes (it was half of `pytest tests` run serially, and
    # nothing else runs beside it)
    paper_blind = ("test_adding_a_paper", "test_interrupted_runs", "test_cluster", "test_sweep",
                   "test_bench")
    run_pytest(repo, env, "tests", "-x", "-n", "2",
               *(f"--ignore=tests/{name}.py" for name in paper_blind), timeout=1200)
