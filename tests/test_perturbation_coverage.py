"""A check that cannot fail is a defect (docs/DESIGN.md, "Checks that can fail"): every exact
claim of every paper has a test in ``tests/``, marked ``@pytest.mark.rejects("ID")``, showing that
its check rejects a perturbed version (a changed constant, a flipped sign, a dropped factor), and
every empirical claim one showing that its decision, fed a synthetic counter-scenario that
violates the paper's statement, does not give ``holds`` (and gives ``holds`` for one that
satisfies it)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from theory.papers import PAPERS
from theory.registry import load_all

#: definitions are decided by their consistency checks; nothing is claimed to perturb
UNCLAIMED = {"definition"}
TESTS = Path(__file__).parent


@pytest.fixture(scope="module")
def rejecting_tests(tmp_path_factory) -> dict[str, list[str]]:
    dump = tmp_path_factory.mktemp("rejects") / "marks.json"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-p", "no:xdist", str(TESTS)],
        env={**os.environ, "CLAIMS_REJECTS_DUMP": str(dump)}, capture_output=True, text=True,
        cwd=TESTS.parent, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(dump.read_text())


def test_rejects_markers_name_registered_claims(rejecting_tests):
    registry = load_all()
    unknown = {i: t for t, ids in rejecting_tests.items() for i in ids if i not in registry}
    assert not unknown, f"rejects markers name unregistered claims: {unknown}"


def _uncovered(paper: str, kinds, rejecting_tests) -> tuple[list[str], list[str]]:
    covered = {i for ids in rejecting_tests.values() for i in ids}
    claims = [c.id for c in load_all() if c.paper == paper and kinds(c.kind)]
    return claims, [i for i in claims if i not in covered]


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_exact_claim_has_a_test_that_rejects_a_perturbed_version(paper, rejecting_tests):
    exact, missing = _uncovered(paper, lambda k: k not in UNCLAIMED | {"empirical"},
                                rejecting_tests)
    assert not missing, (
        f"{paper}: {len(missing)} of {len(exact)} exact claims have no test marked "
        f"@pytest.mark.rejects(ID) in tests/: {missing}")


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_empirical_claim_has_a_test_that_feeds_it_a_counter_scenario(paper, rejecting_tests):
    empirical, missing = _uncovered(paper, lambda k: k == "empirical", rejecting_tests)
    assert not missing, (
        f"{paper}: {len(missing)} of {len(empirical)} empirical claims have no test marked "
        f"@pytest.mark.rejects(ID) in tests/ feeding their decision a synthetic counter-scenario: "
        f"{missing}")
