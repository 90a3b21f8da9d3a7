"""Every catalogue ID is encoded, and every encoded claim has a verify test that decides it."""
from pathlib import Path

import pytest

from theory.registry import load_all
from verify.plugin import claim_ids

ROOT = Path(__file__).resolve().parents[1]


class _Collector:
    def __init__(self):
        self.ids = set()

    def pytest_collection_modifyitems(self, items):
        for item in items:
            self.ids.update(claim_ids(item))


def test_every_catalogue_id_is_registered():
    assert load_all().missing() == []


def test_every_registered_claim_has_a_verify_test():
    collector = _Collector()
    code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "--no-pdf",
                        "--scale=ci", str(ROOT / "verify")], plugins=[collector])
    assert code == pytest.ExitCode.OK
    untested = [c.id for c in load_all() if c.id not in collector.ids]
    assert untested == []
