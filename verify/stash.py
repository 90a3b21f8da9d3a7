"""What the claims plugin's modules share (:mod:`verify.plugin`, :mod:`verify.session`,
:mod:`verify.verdict_item`): the names the plugin registers under, the stash keys its state travels
in, and the claims a test is tied to."""
from __future__ import annotations

from pathlib import Path

import pytest

#: The checkout the suite's code comes from: its commit is the provenance of a run.
SUITE_ROOT = Path(__file__).resolve().parents[1]
PLUGIN = "claims-session"
GATE = "claims-gate"
SESSION = pytest.StashKey["ClaimsSession"]()
FIGURES = pytest.StashKey[list]()
VERDICT = pytest.StashKey["VerdictPayload"]()
#: seconds a test's setup took (the fixtures' training runs it paid for), for its paper-scale record
SETUP_S = pytest.StashKey[float]()


def claim_ids(item) -> tuple[str, ...]:
    return tuple(i for m in item.iter_markers("claim") for i in m.args)


def ids_of(item) -> tuple[str, ...]:
    """The claims of a test, or the one claim a verdict item judges."""
    return (item.claim_id,) if hasattr(item, "claim_id") else claim_ids(item)
