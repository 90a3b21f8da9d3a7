"""Every command line misuse is a one-line usage error with a non-zero exit (issue 18 item 4), and
the layers hold: ``python -m theory`` lists claims without importing verify; ``show`` lives in
``python -m verify``."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, env=ENV,
                          cwd=cwd, timeout=300)


def usage_error(proc, *words):
    """Exit status 2, no traceback, and the last line of stderr names the problem."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr[-500:])
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    for word in words:
        assert word in last, (word, last)


@pytest.mark.parametrize("args, words", [
    (["theory", "--paper", ""], ["--paper: paper '' is not known", "valid: bias"]),
    (["theory", "--paper", "richquick"], ["did you mean 'rich_quick'"]),
    (["theory", "show", "BL-Eq(13)"], ["python -m verify show ID"]),
    (["verify", "show", "BL-Eq14", "--reports-dir", "MISSING"], ["no record at MISSING"]),
    (["verify"], ["the following arguments are required"]),
    (["verify.report", "--reports-dir"], ["expected one argument"]),
    (["verify.report", "--reports-dir", "MISSING"], ["MISSING is not a folder"]),
])
def test_misuse_is_a_one_line_usage_error(args, words):
    usage_error(run(*args), *words)


def test_show_with_an_unknown_id_suggests_the_record_ids(tmp_path):
    from verify.report import files
    from tests.test_report_files import make_record
    files.write_json(tmp_path / "claims.json", make_record(["BL-Eq(14)", "BL-Eq(13)"], "t"))
    usage_error(run("verify", "show", "BL-Eq14", f"--reports-dir={tmp_path}"),
                "claim 'BL-Eq14' is not known; did you mean 'BL-Eq(14)'")
    (tmp_path / "claims.json").write_text("{")
    usage_error(run("verify", "show", "BL-Eq(14)", f"--reports-dir={tmp_path}"), "RecordDamaged")


def test_a_catalogue_id_missing_from_a_partial_record_says_which_run_judges_it(tmp_path):
    from verify.report import files
    from tests.test_report_files import make_record
    files.write_json(tmp_path / "claims.json", make_record(["BL-Eq(14)"], "t"))
    usage_error(run("verify", "show", "GRQ-Fig1", f"--reports-dir={tmp_path}"),
                "claim 'GRQ-Fig1' is not in this record (run pytest verify --claim 'GRQ-Fig1', "
                "or --paper rich_quick)")


@pytest.mark.parametrize("command", [["show", "BL-Eq(14)"], ["findings"]])
def test_output_into_a_closed_pipe_ends_quietly(tmp_path, command):
    """``python -m verify show ID | head``: the reader goes away; no BrokenPipeError trace."""
    from verify.report import files
    from tests.test_report_files import make_record
    files.write_json(tmp_path / "claims.json", make_record(["BL-Eq(14)"], "t"))
    code = ("import os, sys; r, w = os.pipe(); os.close(r); os.dup2(w, 1)\n"
            "from verify.__main__ import main\n"
            f"sys.exit(main({command + ['--reports-dir', str(tmp_path)]!r}))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_missing_ids_are_listed_or_said_to_be_none():
    proc = run("theory", "--missing")
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith(
        ("every ID of the catalogue is encoded", "0 IDs")) or "not encoded" in proc.stdout
    proc = run("theory", "--missing", "--paper", "bias")
    assert proc.returncode == 0 and "paper bias" in proc.stdout


def test_listing_claims_imports_nothing_of_verify():
    code = ("import runpy, sys; sys.argv = ['theory', '--paper', 'bias']; "
            "sys.stdout = open('/dev/null', 'w')\n"
            "try:\n    runpy.run_module('theory', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(','.join(m for m in sys.modules if m.split('.')[0] in "
            "('verify', 'numerics')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_show_and_the_html_load_neither_the_pdf_backend_nor_the_claims():
    code = ("import sys, verify.__main__, verify.report.html, verify.report.show; "
            "from theory.registry import REGISTRY; "
            "print(sorted(m for m in sys.modules if m in ('verify.report.pdf', "
            "'matplotlib.backends.backend_pdf')), len(REGISTRY))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV,
                          cwd=ROOT, timeout=300)
    assert proc.stdout.strip() == "[] 0", proc.stdout + proc.stderr


def test_an_unreachable_dask_scheduler_is_a_usage_error(monkeypatch, capsys):
    pytest.importorskip("distributed")
    from numerics import full_scale, sweep
    monkeypatch.setattr(sweep, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(SystemExit) as stop:
        full_scale.main(["--dask", "tcp://127.0.0.1:9", "--out", os.devnull])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "--dask: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in err[-1]
