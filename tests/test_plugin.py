"""The claims plugin end to end, on synthetic test files run by pytester."""
import json

import pytest

PASSING = """
import pytest
import matplotlib.pyplot as plt

@pytest.mark.claim("BL-Eq(7)")
def test_law(claim, report_figure):
    claim.holds(True, "residual 0")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="theory")
    ax.plot([0, 1], [0, 1], "o", label="simulation")
    ax.set_xlabel("t"); ax.set_ylabel("a"); ax.legend()
    report_figure(fig, "a synthetic figure")

@pytest.mark.claim("BL-Def-EffRank")
def test_rank(claim):
    claim.erratum(False, True, "printed -n", counterexample="A = I_4 gives -4")
"""

REGRESSION = """
import pytest

@pytest.mark.claim("BL-Eq(7)")
def test_law(claim):
    claim.holds(False, "max rel err 0.3 > 1e-8", counterexample="s=1, d=2")
"""


def run(pytester, source, *args):
    pytester.makepyfile(test_synthetic=source)
    reports = pytester.path / "out"
    return pytester.runpytest("-p", "no:cacheprovider", f"--reports-dir={reports}", *args), reports


def test_matching_verdicts_pass_and_write_claims_json_and_pdfs(pytester):
    result, reports = run(pytester, PASSING)
    result.assert_outcomes(passed=4)  # two tests and two claim verdict items
    doc = json.loads((reports / "claims.json").read_text())
    assert {"generated", "profile", "versions", "claims"} <= doc.keys()
    assert doc["profile"] == "ci" and "sympy" in doc["versions"]
    by_id = {c["id"]: c for c in doc["claims"]}
    assert set(by_id) == {"BL-Eq(7)", "BL-Def-EffRank"}  # only the claims that ran
    rank = by_id["BL-Def-EffRank"]
    assert {"id", "paper", "where", "kind", "verdict", "expected", "evidence", "checks",
            "seconds"} <= rank.keys()
    assert rank["verdict"] == "erratum" and rank["counterexample"] == "A = I_4 gives -4"
    assert (reports / "bias.pdf").stat().st_size > 5000 and (reports / "summary.pdf").exists()


def test_a_regression_fails_naming_the_claim_both_verdicts_and_the_evidence(pytester):
    result, reports = run(pytester, REGRESSION)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*BL-Eq(7): measured verdict 'fails' != expected 'holds'*",
                                 "*evidence: [[]fails[]] max rel err 0.3 > 1e-8*"])
    doc = json.loads((reports / "claims.json").read_text())
    assert doc["claims"][0]["verdict"] == "fails" and doc["claims"][0]["expected"] == "holds"


def test_partial_runs_write_only_the_claims_that_ran(pytester):
    result, reports = run(pytester, PASSING, "-k", "rank", "--no-pdf")
    result.assert_outcomes(passed=2, deselected=1)
    doc = json.loads((reports / "claims.json").read_text())
    assert [c["id"] for c in doc["claims"]] == ["BL-Def-EffRank"]
    assert not (reports / "bias.pdf").exists()


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
    claim.holds(True, "x")
""")
    result = pytester.runpytest("-p", "no:cacheprovider", "--no-pdf",
                                f"--reports-dir={pytester.path / 'out'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*claim ID 'BL-Eq(999)' is not registered*"])


def test_runs_without_claim_tests_leave_reports_alone(pytester):
    pytester.makepyfile(test_plain="def test_x():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider", f"--reports-dir={pytester.path / 'o'}")
    result.assert_outcomes(passed=1)
    assert not (pytester.path / "o").exists()


def test_claim_and_paper_options_select_the_tests_of_those_claims(pytester):
    result, reports = run(pytester, PASSING, "--claim", "BL-Def-EffRank", "--no-pdf")
    result.assert_outcomes(passed=2, deselected=1)
    result, _ = run(pytester, PASSING, "--paper", "rich_quick", "--no-pdf")
    result.assert_outcomes(deselected=2)
    result, _ = run(pytester, PASSING, "--claim", "GRQ-Nope")
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_a_selection_reports_only_the_claims_asked_for(pytester):
    result, reports = run(pytester, """
import pytest
@pytest.mark.claim("BL-Eq(7)", "BA-Eq(3)")
def test_shared(claim):
    claim.holds(True, "shared check")
""", "--paper", "bias", "--no-pdf")
    result.assert_outcomes(passed=2)   # the test and claim[BL-Eq(7)]; BA-Eq(3) is not judged
    doc = json.loads((reports / "claims.json").read_text())
    assert [c["id"] for c in doc["claims"]] == ["BL-Eq(7)"]
