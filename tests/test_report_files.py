"""Reports that survive interruption and misuse (issue 18): SIGINT and SIGKILL while reports are
written leave every report either the old one or the complete new one; three concurrent writers
of ``claims.json`` lose nothing; ``python -m verify.report`` on a damaged record or a missing
folder changes no file; a read-only reports folder fails before the first test; an interrupted
run says so in its record; timings merge like claims."""
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from theory.registry import REGISTRY, load_all
from verify.report import files
from verify.report import record as R

load_all()
ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def make_record(ids, generated: str) -> dict:
    claims = [R.ClaimRecord(id=c.id, paper=c.paper, where=c.where, kind=c.kind, title=c.title,
                            statement=c.statement, verdict=c.expected, expected=c.expected,
                            evidence="e", checks=1, seconds=0.1, tests=(f"verify/t.py::test_{k}",),
                            measurements=({"name": "residual", "value": 1e-13,
                                           "criterion": "<= 1e-08", "passed": True,
                                           "source": "reading: rtol", "source_kind": "reading"},))
              for k, c in enumerate(REGISTRY[i] for i in ids)]
    prov = R.Provenance(generated, "abc", False, "ci", "ci", {}, "pytest verify", {})
    doc, _ = R.merge(None, R.RunRecord(prov, claims), [c.id for c in REGISTRY])
    return doc


def report_files(folder: Path) -> dict[str, bytes]:
    """Every report a reader sees in ``folder``, through the links of the published generation."""
    out = {}
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name == "paper_scale":
            continue
        if path.is_dir():
            out.update({f"{path.name}/{p.relative_to(path.resolve())}": p.read_bytes()
                        for p in sorted(path.resolve().rglob("*")) if p.is_file()})
        elif path.exists():
            out[path.name] = path.read_bytes()
    return out


def pdf_pages(data: bytes) -> int | None:
    """Pages of a complete PDF, None for a truncated one."""
    proc = subprocess.run(["pdfinfo", "-"], input=data, capture_output=True)
    if proc.returncode != 0 or not data.rstrip().endswith(b"%%EOF"):
        return None
    return int(next(line.split()[-1] for line in proc.stdout.decode().splitlines()
                    if line.startswith("Pages:")))


@pytest.fixture(scope="module")
def old_and_new(tmp_path_factory):
    """A reports folder that published the reports of record A beside record B as claims.json
    (as after a run whose rendering failed); and B's reports rendered elsewhere."""
    from verify.report import generations, paper_scale
    from verify.report.writer import render
    lazy = [c.id for c in REGISTRY if c.paper == "lazy_rich"]
    old_doc = make_record(lazy[:5], "2026-01-01T00:00:00+00:00")
    new_doc = make_record(lazy[:40] + [c.id for c in REGISTRY if c.paper == "bias"][:15],
                          "2026-01-02T00:00:00+00:00")
    reference = tmp_path_factory.mktemp("new")
    # as python -m verify.report does: the repository's paper-scale records beside the claims
    paper_scale.attach(new_doc, reference)
    start = time.perf_counter()
    render(reference, new_doc, progress=lambda m: None, workers=1)
    seconds = time.perf_counter() - start
    files.write_json(reference / "claims.json", new_doc)
    old = tmp_path_factory.mktemp("old")

    def build(generation):
        render(generation, old_doc, progress=lambda m: None, workers=1)
        files.write_json(generation / "claims.json", new_doc)
    generations.publish(old, build)
    return old, report_files(old), report_files(reference), seconds


@pytest.mark.skipif(not shutil.which("pdfinfo"), reason="poppler-utils not installed")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_an_interrupted_rendering_leaves_the_reports_all_old_or_all_new(old_and_new, tmp_path, sig):
    from verify.report import generations
    folder, old, new, seconds = old_and_new
    for fraction in (0.15, 0.45, 0.75):
        work = tmp_path / f"r{fraction}"
        shutil.copytree(folder, work, symlinks=True)
        proc = subprocess.Popen([sys.executable, "-m", "verify.report", f"--reports-dir={work}"],
                                env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5 + fraction * seconds)  # start-up (imports), then a share of the rendering
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
        now = report_files(work)
        if now != old:
            assert set(now) == set(new), "neither all old nor all new"
            for name, data in now.items():
                assert data == new[name] or name.endswith(".pdf") and \
                    pdf_pages(data) == pdf_pages(new[name]), f"{name}: not the complete new report"
        if sig == signal.SIGINT:
            assert "Traceback" not in err and len(err.strip().splitlines()) <= 1
            hidden = [p.name for p in work.iterdir() if p.name.startswith(".gen-")]
            assert hidden == [generations.current(work).name], "a generation left by SIGINT"
            assert not list(work.rglob("*.tmp")), "a temporary file left by SIGINT"


WRITER = textwrap.dedent('''
    import sys
    from theory.registry import REGISTRY, load_all
    from verify.report import record as R
    from verify.report.writer import write_run
    from pathlib import Path
    load_all()
    writer, folder = int(sys.argv[1]), Path(sys.argv[2])
    ids = [c.id for c in REGISTRY][writer * 8:(writer + 1) * 8]
    for k, cid in enumerate(ids):
        c = REGISTRY[cid]
        rec = R.ClaimRecord(id=cid, paper=c.paper, where=c.where, kind=c.kind, title=c.title,
                            statement=c.statement, verdict=c.expected, expected=c.expected,
                            evidence="e", checks=1, seconds=0.1, tests=(f"t.py::test_{cid}",))
        prov = R.Provenance(f"2026-01-01T00:00:{writer}{k}+00:00", "abc", False, "ci", "ci",
                            {"claim": [cid]}, "pytest", {})
        write_run(R.RunRecord(prov, [rec], timings={f"t.py::test_{cid}": R.Timing(0.5, (cid,))}),
                  folder, render_reports=False, progress=lambda m: None)
''')


def test_three_concurrent_writers_lose_nothing(tmp_path):
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    folder = tmp_path / "reports"
    procs = [subprocess.Popen([sys.executable, str(script), str(w), str(folder)], env=ENV,
                              stderr=subprocess.PIPE, text=True) for w in range(3)]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    doc = R.load(folder / "claims.json")
    expected = [c.id for c in REGISTRY][:24]
    assert sorted(c["id"] for c in doc["claims"]) == sorted(expected)
    timings = json.loads((folder / "timings.json").read_text())["tests"]
    assert sorted(timings) == sorted(f"t.py::test_{cid}" for cid in expected)
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def run_report(folder: Path):
    return subprocess.run([sys.executable, "-m", "verify.report", f"--reports-dir={folder}"],
                          env=ENV, capture_output=True, text=True, timeout=300)


def test_verify_report_refuses_a_damaged_record_and_changes_no_file(tmp_path):
    (tmp_path / "claims.json").write_text('{"claims": [{"id": 1}]}')
    (tmp_path / "summary.pdf").write_bytes(b"%PDF good old summary")
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "index.html").write_text("<html>good</html>")
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.rglob("*") if p.is_file()}
    proc = run_report(tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    [line] = proc.stderr.strip().splitlines()[-1:]
    assert "RecordDamaged" in line and "claims.json" in line
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.rglob("*") if p.is_file()}
    assert after == before


@pytest.mark.parametrize("make, message", [
    (lambda d: d / "missing", "is not a folder"),
    (lambda d: d, "no record at"),
])
def test_verify_report_without_a_record_is_a_one_line_usage_error(tmp_path, make, message):
    proc = run_report(make(tmp_path))
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []


PASSING = """
import pytest
from theory.registry import REGISTRY
from verify.measurement import reading

@pytest.mark.claim("BL-Eq(7)")
def test_law(claim):
    REGISTRY["BL-Eq(7)"].printed
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
"""


def unwritable(tmp_path: Path) -> Path:
    """A folder this process cannot write: read-only by mode, or (as root, who ignores modes) a
    place the kernel refuses."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        files.check_writable(folder)
    except files.ReportsNotWritable:
        return folder
    return Path("/sys/claims-reports")


def test_a_read_only_reports_folder_fails_before_the_first_test(pytester, tmp_path):
    pytester.makepyfile(test_synthetic=PASSING)
    folder = unwritable(tmp_path)
    result = pytester.runpytest("-p", "no:cacheprovider", f"--reports-dir={folder}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ReportsNotWritable: *is not writable*"])
    assert "test_law" not in result.stdout.str() and "passed" not in result.stdout.str()


def test_an_interrupted_run_is_marked_in_its_record_and_footer(pytester):
    pytester.makepyfile(test_synthetic=PASSING + """
@pytest.mark.claim("BL-Def-EffRank")
def test_stop(claim):
    raise KeyboardInterrupt
""")
    reports = pytester.path / "out"
    # in a subprocess: an in-process run hands the KeyboardInterrupt on to this session
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--reports-dir={reports}")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    doc = R.load(reports / "claims.json")
    assert doc["interrupted"] is True and [c["id"] for c in doc["claims"]] == ["BL-Eq(7)"]
    from verify.report.text import provenance_line
    assert "last run: interrupted, judged only part of" in provenance_line(doc)
    assert "last run: all claims" not in provenance_line(doc)
    html = (reports / "html" / "index.html").read_text()
    assert "last run: interrupted" in html


def test_timings_of_a_partial_run_merge_with_the_others(pytester):
    pytester.makepyfile(test_synthetic=PASSING + """
@pytest.mark.claim("BL-Def-EffRank")
def test_rank(claim):
    REGISTRY["BL-Def-EffRank"].printed, REGISTRY["BL-Def-EffRank"].corrected
    claim.defined(claim.measure("x", 0.0, "<=", 1.0, source=reading("r")))
""")
    reports = pytester.path / "out"
    args = ["-p", "no:cacheprovider", f"--reports-dir={reports}", "--no-pdf"]
    pytester.runpytest(*args)
    pytester.runpytest(*args, "--claim", "BL-Eq(7)")
    timings = json.loads((reports / "timings.json").read_text())
    assert set(timings["tests"]) == {"test_synthetic.py::test_law", "test_synthetic.py::test_rank"}
    assert timings["tests"]["test_synthetic.py::test_law"]["generated"] == timings["generated"] == \
        R.load(reports / "claims.json")["generated"]
