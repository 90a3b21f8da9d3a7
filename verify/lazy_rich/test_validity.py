"""Validity maps of the lazy_rich claims (issue 18, item 2): one picture per holds-if claim and
approximation, from the specs of ``verify/lazy_rich/validity.py``.  A map records no measurement:
the claims' verdicts stay decided by their checks."""
import pytest

from verify.lazy_rich.validity import SPECS
from verify.validity import claim_params, map_of


@pytest.mark.parametrize("claim_id", claim_params(SPECS))
def test_validity_map(claim_id, report_figure):
    report_figure(*map_of(SPECS, claim_id))
