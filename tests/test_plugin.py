"""The claims plugin end to end, on synthetic test files run by pytester."""
import json

import pytest

import verify.statements  # noqa: F401  (with numerics and scipy.stats: see below)
from theory.registry import load_all

# pytester's in-process runs drop the modules they import; the registry they share must hold
# every claim once, and a compiled module (numpy.fft under scipy.stats) cannot load twice:
# import them here, before any of those runs
load_all()


PASSING = """
import pytest
import matplotlib.pyplot as plt
from theory.registry import REGISTRY
from verify.measurement import exact, reading

@pytest.mark.claim("BL-Eq(7)")
def test_law(claim, report_figure):
    REGISTRY["BL-Eq(7)"].printed  # a check reads the encoding it verifies
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="theory")
    ax.plot([0, 1], [0, 1], "o", label="simulation")
    ax.set_xlabel("t"); ax.set_ylabel("a"); ax.legend()
    report_figure(fig, "a synthetic figure")

@pytest.mark.claim("BL-Def-EffRank")
def test_rank(claim):
    REGISTRY["BL-Def-EffRank"].printed, REGISTRY["BL-Def-EffRank"].corrected
    claim.erratum(
        printed=claim.measure("printed rho(I_4) equals 4", -4.0, "==", 4.0, source=exact("sympy")),
        corrected=claim.measure("corrected rho(I_4) equals 4", 4.0, "==", 4.0, source=exact("sympy")),
        counterexample="A = I_4 gives -4")
"""

REGRESSION = """
import pytest
from theory.registry import REGISTRY
from verify.measurement import reading

@pytest.mark.claim("BL-Eq(7)")
def test_law(claim):
    REGISTRY["BL-Eq(7)"].printed
    claim.holds(claim.measure("max rel err", 0.3, "<=", 1e-8, source=reading("rtol 1e-10")),
                counterexample="s=1, d=2")
"""


def run(pytester, source, *args):
    pytester.makepyfile(test_synthetic=source)
    reports = pytester.path / "out"
    return pytester.runpytest("-p", "no:cacheprovider", f"--reports-dir={reports}", *args), reports


def test_matching_verdicts_pass_and_write_the_record_pdfs_and_html(pytester):
    result, reports = run(pytester, PASSING)
    result.assert_outcomes(passed=4)  # two tests and two claim verdict items
    doc = json.loads((reports / "claims.json").read_text())
    assert {"generated", "commit", "profile", "scale", "selection", "command", "versions",
            "claims", "figures"} <= doc.keys()
    assert doc["profile"] == "ci" and doc["scale"] == "ci" and "sympy" in doc["versions"]
    by_id = {c["id"]: c for c in doc["claims"]}
    assert set(by_id) == {"BL-Eq(7)", "BL-Def-EffRank"}
    rank = by_id["BL-Def-EffRank"]
    assert rank["verdict"] == "erratum" and rank["counterexample"] == "A = I_4 gives -4"
    assert [m["role"] for m in rank["measurements"]] == ["printed", "corrected"]
    assert rank["run"]["generated"] == doc["generated"]
    # self-contained: the statement and both forms as LaTeX and sympy.srepr, the paper's title
    assert rank["statement"] and rank["printed"][0]["latex"] and rank["corrected"][0]["srepr"]
    assert doc["papers"]["bias"]["title"].startswith("Bias-mediated") and doc["format"] == 3
    [figure] = doc["figures"]
    assert figure["claims"] == ["BL-Eq(7)"] and (reports / figure["png"]).exists()
    assert (reports / "bias.pdf").stat().st_size > 5000 and (reports / "summary.pdf").exists()
    assert (reports / "html" / "index.html").exists()
    result.stdout.fnmatch_lines(["*claims: writing bias.pdf*", "*judged in this run: 2 claims*",
                                 "*differ from their baseline: 0*", "*html*index.html*"])


def test_verbose_runs_name_each_verdict_and_its_baseline(pytester):
    result, _ = run(pytester, PASSING, "-v", "--no-pdf")
    result.stdout.fnmatch_lines(["*claim[[]BL-Def-EffRank[]] erratum (expected erratum)*"])


def test_a_regression_fails_naming_the_claim_both_verdicts_and_the_evidence(pytester):
    result, reports = run(pytester, REGRESSION, "--no-pdf")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*BL-Eq(7): measured verdict 'fails' != expected 'holds'*",
                                 "*max rel err: 0.3 <= 1e-08 FAILED*",
                                 "*differ from their baseline: 1*"])
    doc = json.loads((reports / "claims.json").read_text())
    assert doc["claims"][0]["verdict"] == "fails" and doc["claims"][0]["expected"] == "holds"


def test_a_partial_run_merges_into_the_record_and_keeps_each_claims_run(pytester):
    run(pytester, PASSING)
    result, reports = run(pytester, PASSING, "--claim", "BL-Def-EffRank", "--no-pdf")
    result.assert_outcomes(passed=2, deselected=1)
    doc = json.loads((reports / "claims.json").read_text())
    by_id = {c["id"]: c for c in doc["claims"]}
    assert set(by_id) == {"BL-Eq(7)", "BL-Def-EffRank"}
    assert doc["selection"]["claim"] == ["BL-Def-EffRank"]
    assert by_id["BL-Def-EffRank"]["run"]["generated"] == doc["generated"]
    assert len(doc["figures"]) == 1  # the figure of the claim not rerun is kept


def test_a_keyword_selection_judges_only_claims_whose_tests_all_ran(pytester):
    source = PASSING + """
@pytest.mark.claim("BL-Eq(7)")
def test_law_again(claim):
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
"""
    result, reports = run(pytester, source, "-k", "again", "--no-pdf")
    result.assert_outcomes(passed=1, deselected=2)
    result.stdout.fnmatch_lines(["*not judged (only some of their tests ran): BL-Eq(7)*"])
    assert not (reports / "claims.json").exists()


def test_a_damaged_record_stops_the_run_before_any_test_and_is_kept(pytester):
    reports = pytester.path / "out"
    reports.mkdir()
    (reports / "claims.json").write_text("{not json")
    (reports / "bias.pdf").write_text("the good old report")
    result, _ = run(pytester, PASSING)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*RecordDamaged: *claims.json is not a claims record*"])
    assert "test_law" not in result.stdout.str()  # no test ran
    assert sorted(p.name for p in reports.iterdir()) == ["bias.pdf", "claims.json"]
    assert (reports / "claims.json").read_text() == "{not json"


def test_a_test_that_raises_makes_its_claim_inconclusive(pytester):
    result, reports = run(pytester, """
import pytest
@pytest.mark.claim("BL-Eq(7)")
def test_law(claim):
    raise RuntimeError("integrator diverged")
""", "--no-pdf")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*BL-Eq(7): measured verdict 'inconclusive' != expected 'holds'*",
                                 "*raised RuntimeError: integrator diverged*"])


def test_an_unknown_claim_id_is_a_usage_error(pytester):
    pytester.makepyfile(test_bad="""
import pytest
@pytest.mark.claim("BL-Eq(999)")
def test_x(claim):
    pass
""")
    result = pytester.runpytest("-p", "no:cacheprovider", "--no-pdf",
                                f"--reports-dir={pytester.path / 'out'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*claim ID 'BL-Eq(999)' is not registered*"])


@pytest.mark.parametrize("args, message", [
    (["--paper", "richquick"], "*paper 'richquick' is not known; did you mean 'rich_quick'?*"),
    (["--claim", "BL-Eq13"], "*claim 'BL-Eq13' is not known; did you mean 'BL-Eq(13)'*"),
    (["--hypothesis-profile=fast"], "*profile 'fast' is not known; valid: ci, dev, explore*"),
])
def test_bad_selections_are_usage_errors_with_the_valid_choices(pytester, args, message):
    result, _ = run(pytester, PASSING, "--no-pdf", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_runs_without_claim_tests_leave_reports_alone(pytester):
    pytester.makepyfile(test_plain="def test_x():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider", f"--reports-dir={pytester.path / 'o'}")
    result.assert_outcomes(passed=1)
    assert not (pytester.path / "o").exists()


def test_claim_and_paper_options_select_the_tests_of_those_claims(pytester):
    result, _ = run(pytester, PASSING, "--claim", "BL-Def-EffRank", "--no-pdf")
    result.assert_outcomes(passed=2, deselected=1)
    result, _ = run(pytester, PASSING, "--paper", "rich_quick", "--no-pdf")
    result.assert_outcomes(deselected=2)


def test_a_selection_reports_only_the_claims_asked_for(pytester):
    result, reports = run(pytester, """
import pytest
from theory.registry import REGISTRY
from verify.measurement import reading
@pytest.mark.claim("BL-Eq(7)", "BA-Eq(3)")
def test_shared(claim):
    REGISTRY["BL-Eq(7)"].printed
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
""", "--paper", "bias", "--no-pdf")
    result.assert_outcomes(passed=2)   # the test and claim[BL-Eq(7)]; BA-Eq(3) is not judged
    doc = json.loads((reports / "claims.json").read_text())
    assert [c["id"] for c in doc["claims"]] == ["BL-Eq(7)"]


def test_markers_are_registered_once(pytester):
    result = pytester.runpytest("--markers")
    lines = [line for line in result.stdout.lines if line.startswith(("@pytest.mark.claim",
                                                                       "@pytest.mark.full"))]
    assert len(lines) == 2 and "--scale=full" in " ".join(lines)


def test_last_failed_reruns_a_failed_claims_tests_with_its_verdict(pytester):
    pytester.makepyfile(test_synthetic=REGRESSION + """
@pytest.mark.claim("BL-Eq(7)")
def test_law_too(claim):
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))

def test_unrelated():
    pass
""")
    args = [f"--reports-dir={pytester.path / 'out'}", "--no-pdf"]
    pytester.runpytest(*args).assert_outcomes(passed=3, failed=1)
    result = pytester.runpytest("--lf", *args)
    result.assert_outcomes(passed=2, failed=1)  # both tests of BL-Eq(7) and its verdict item


def test_xdist_gives_the_same_record_as_a_serial_run(pytester):
    pytester.makepyfile(test_synthetic=PASSING + REGRESSION.replace("test_law", "test_law_2"))
    serial, parallel = pytester.path / "serial", pytester.path / "parallel"
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-pdf", f"--reports-dir={serial}")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-pdf", "-n", "2",
                                           f"--reports-dir={parallel}")
    result.assert_outcomes(passed=4, failed=1)

    def claims(folder):
        doc = json.loads((folder / "claims.json").read_text())
        return [{k: v for k, v in c.items() if k not in ("seconds", "run")} for c in doc["claims"]]
    assert claims(serial) == claims(parallel) and len(claims(serial)) == 2


BIG = """
import pytest
from numerics.ran import Config, Ran
from verify.measurement import paper
from verify.setup import Setup, stated
from trainer import train

@pytest.mark.full
@pytest.mark.claim("BL-Fig2")
def test_big(claim):
    ran = Ran.of(Config(scale="full"), "numerics.ran.seeds", n=4)
    claim.reproduced(claim.measure("loss", train(), "<", 1.0, source=paper("L1", "a loss below 1")),
                     setup=Setup(ran, {"n": stated(4, "L1")}))
"""


def test_full_scale_tests_write_paper_scale_records_shown_beside_the_ci_verdict(pytester):
    pytester.makepyfile(trainer="def train():\n    return 0.1\n")
    result, reports = run(pytester, BIG, "--scale=full", "--no-pdf")
    record = json.loads((reports / "paper_scale" / "test_big.json").read_text())
    assert record["claims"]["BL-Fig2"]["verdict"] == "holds"
    assert record["claims"]["BL-Fig2"]["faithful"] is True
    assert {"experiment", "device", "wall_s", "started", "commit", "dirty", "imports"} <= record.keys()
    # the deciding code: every file of the project the test imports (the suite's own modules
    # are outside this project's root), each with its hash
    assert sorted(record["imports"]) == ["test_synthetic.py", "trainer.py"]
    doc = json.loads((reports / "claims.json").read_text())
    row = doc["claims"][0]["paper_scale"]
    assert row["file"] == "paper_scale/test_big.json" and row["code_changed"] == []


def test_a_trainer_edit_makes_its_paper_scale_record_stale_and_stale_decides_only_its_claims(pytester):
    """Acceptance 2 of issue 26: a paper-scale record knows the code it imported; an edit to the
    trainer flags it stale and demotes it from the headline, and ``--stale`` decides again just
    that record's claims."""
    from verify.report import paper_scale as P
    from verify.report import record as R
    pytester.makepyfile(trainer="def train():\n    return 0.1\n", test_law=LAW.format(
        ids='"BL-Eq(7)"', name="law"))
    _, reports = run(pytester, BIG, "--scale=full", "--no-pdf")
    fresh = P.read(reports, root=pytester.path)["BL-Fig2"]
    assert fresh["code_changed"] == [] and not P.staleness(fresh)
    headline = R.headline(dict(verdict="inconclusive", expected="inconclusive", paper_scale=fresh))
    assert headline[0] == "holds"  # a faithful, current paper-scale record leads
    (pytester.path / "trainer.py").write_text("def train():\n    return 0.2  # a faster schedule\n")
    stale = P.read(reports, root=pytester.path)["BL-Fig2"]
    assert stale["code_changed"] == ["trainer.py"] and "trainer.py" in P.staleness(stale)
    assert R.headline(dict(verdict="inconclusive", expected="inconclusive",
                           paper_scale=stale))[0] == "inconclusive"
    assert P.stale_claims(reports, root=pytester.path) == {"BL-Fig2"}
    result = pytester.runpytest("-p", "no:cacheprovider", f"--reports-dir={reports}", "--no-pdf",
                                "--stale", "-v")
    result.stdout.fnmatch_lines(["*test_big PASSED*", "*claim[[]BL-Fig2[]]*"])
    assert "test_law" not in result.stdout.str()
    assert P.read(reports, root=pytester.path)["BL-Fig2"]["code_changed"] == []
    again = pytester.runpytest("-p", "no:cacheprovider", f"--reports-dir={reports}", "--no-pdf",
                               "--stale")
    again.stdout.fnmatch_lines(["*--stale: every paper-scale record is as recent as the code*"])
    # with --paper, --stale decides the stale claims of that paper only
    (pytester.path / "trainer.py").write_text("def train():\n    return 0.3\n")
    other = pytester.runpytest("-p", "no:cacheprovider", f"--reports-dir={reports}", "--no-pdf",
                               "--stale", "--paper", "rich_quick")
    other.stdout.fnmatch_lines(["*--stale: no claim named by --claim / --paper has a stale*"])
    assert "test_big" not in other.stdout.str()


def test_a_record_without_import_hashes_is_flagged_and_does_not_lead():
    """Records made before ``imports`` cannot say whether their code (or the rule that decided
    them) changed: flagged, decided again by ``--stale``, and shown beside the run's own verdict,
    which leads."""
    from verify.report import paper_scale as P
    from verify.report import record as R
    row = {"verdict": "holds", "faithful": True, "code_changed": None}
    assert "may predate its code" in P.staleness(row) and P.stale(row)
    assert R.headline(dict(verdict="inconclusive", expected="inconclusive",
                           paper_scale=row))[0] == "inconclusive"
    assert R.headline(dict(verdict="inconclusive", expected="inconclusive",
                           paper_scale=dict(row, code_changed=[])))[0] == "holds"


LAW = """
import pytest
from theory.registry import REGISTRY
from verify.measurement import reading

@pytest.mark.claim({ids})
def test_{name}(claim):
    REGISTRY["BL-Eq(7)"].printed
    claim.holds(claim.measure("residual", 0.0, "<=", 1e-12, source=reading("float64 rounding")))
"""


def test_claim_blocks_keep_tests_in_several_files_with_their_verdict_under_xdist(pytester):
    """BL-Eq(7) has a test in each of two files, one shared with BA-Eq(3); other files hold other
    claims: under -n 2 every claim is judged from all its tests' checks, as in a serial run."""
    pytester.makepyfile(
        test_one=LAW.format(ids='"BL-Eq(7)"', name="law"),
        test_two=LAW.format(ids='"BL-Eq(7)", "BA-Eq(3)"', name="shared"),
        test_three=LAW.format(ids='"BL-Eq(13)"', name="other"),
        test_four=LAW.format(ids='"BA-Eq(3)"', name="again") + "\ndef test_plain():\n    pass\n")
    serial, parallel = pytester.path / "serial", pytester.path / "parallel"
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-pdf", f"--reports-dir={serial}")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-pdf", "-n", "2",
                                           f"--reports-dir={parallel}", "-v")
    result.stdout.fnmatch_lines(["*scheduling tests via ClaimBlockScheduling*"])

    def claims(folder):
        doc = json.loads((folder / "claims.json").read_text())
        return {c["id"]: (c["checks"], c["tests"]) for c in doc["claims"]}
    assert claims(serial) == claims(parallel)
    assert claims(parallel)["BL-Eq(7)"][0] == 2 and claims(parallel)["BA-Eq(3)"][0] == 2


def test_block_scopes_end_at_verdict_items_and_leave_other_tests_alone():
    from verify.blocks import block_scopes
    ids = ["a.py::t1", "b.py::t2", "b.py::claim[X]", "a.py::t3", "a.py::claim[Y]",
           "a.py::claim[Z]", "c.py::plain", "c.py::other"]
    scopes = block_scopes(ids)
    assert scopes["a.py::t1"] == scopes["b.py::t2"] == scopes["b.py::claim[X]"]
    assert scopes["a.py::t3"] == scopes["a.py::claim[Y]"] == scopes["a.py::claim[Z]"]
    assert len({scopes[i] for i in ids}) == 4


def test_files_sharing_a_run_form_one_block_with_their_verdicts_last():
    """Claims X and Y have no test in common, but their files use one conftest run: one block
    (a worker trains the run once); Z's file uses another run and stays a block of its own."""
    from types import SimpleNamespace

    from verify.blocks import block_scopes, order_blocks

    def item(nodeid, claims=(), runs=(), verdict=False):
        return SimpleNamespace(nodeid=nodeid, claims=claims, runs=runs, verdict=verdict)
    items = [item("a.py::t1", ("X",), ("hierarchy",)), item("c.py::t3", ("Z",), ("xor",)),
             item("b.py::t2", ("Y",), ("hierarchy",)), item("a.py::claim[X]", ("X",), verdict=True),
             item("c.py::claim[Z]", ("Z",), verdict=True), item("b.py::claim[Y]", ("Y",), verdict=True),
             item("d.py::plain", runs=("hierarchy",))]
    ordered = order_blocks(items, lambda i: i.claims, lambda i: i.verdict, lambda i: i.runs)
    ids = [i.nodeid for i in ordered]
    assert ids == ["a.py::t1", "b.py::t2", "a.py::claim[X]", "b.py::claim[Y]", "c.py::t3",
                   "c.py::claim[Z]", "d.py::plain"]
    scopes = block_scopes(ids)
    assert len({scopes[i] for i in ids[:4]}) == 1 and scopes[ids[4]] == scopes[ids[5]] != scopes[ids[0]]
    claims_only = [i.nodeid for i in order_blocks(items, lambda i: i.claims, lambda i: i.verdict)]
    assert claims_only.index("c.py::t3") < claims_only.index("b.py::t2")   # a rejection case


RUN_CONFTEST = """
import os
import pytest

@pytest.fixture(scope="session")
def run():
    with open(os.environ["RUN_LOG"], "a") as log:
        log.write(f"{os.environ.get('PYTEST_XDIST_WORKER')}\\n")
    return 0.0
"""

USES_RUN = """
import pytest
from theory.registry import REGISTRY
from verify.measurement import reading

@pytest.mark.claim({ids})
def test_{name}(claim, run):
    REGISTRY["BL-Eq(7)"].printed
    claim.holds(claim.measure("residual", run, "<=", 1e-12, source=reading("float64 rounding")))
"""


def test_a_run_two_files_share_is_computed_once_under_xdist(pytester, monkeypatch):
    log = pytester.path / "runs.log"
    monkeypatch.setenv("RUN_LOG", str(log))
    pytester.makeconftest(RUN_CONFTEST)
    pytester.makepyfile(test_one=USES_RUN.format(ids='"BL-Eq(7)"', name="one"),
                        test_two=USES_RUN.format(ids='"BL-Eq(13)"', name="two"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-pdf", "-n", "2", "-v")
    result.stdout.fnmatch_lines(["*PASSED test_one.py::test_one*"])
    result.stdout.fnmatch_lines(["*PASSED test_two.py::test_two*"])
    assert len(log.read_text().split()) == 1
