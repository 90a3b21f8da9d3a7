"""Validity maps (issue 18, item 2; docs/validity-maps.md): one picture per holds-if claim and
approximation of every paper, from the specs of its ``verify/<paper>/validity.py`` (a new paper's
maps are drawn here with no test of its own).  A map records no measurement: the claims' verdicts
stay decided by their checks."""
import pytest

from verify.validity import all_specs, claim_params, map_of

SPECS = all_specs()


@pytest.mark.parametrize("claim_id", claim_params(SPECS))
def test_validity_map(claim_id, report_figure):
    report_figure(*map_of(SPECS, claim_id))
