"""One rule turns every paper's settings table (theory/<paper>/settings.py) into the paper's side
of a Setup (verify.settings_tables.paper_side)."""
import pytest

from theory.validation import InvalidArgument
from verify.settings_tables import paper_side
from verify.setup import UNKNOWN


def test_entries_become_stated_released_or_unknown():
    side = paper_side({"lr": ("stated", 0.1, "Fig. 1"), "seed": ("released", 7, "o/r/run.py"),
                       "init": None}, lr=("stated", 0.2, "Fig. 2"))
    assert (side["lr"].value, side["lr"].source.kind, side["lr"].source.where) == (0.2, "paper", "Fig. 2")
    assert (side["seed"].value, side["seed"].source.kind) == (7, "code")
    assert side["init"] is UNKNOWN


@pytest.mark.parametrize("entry", [("claimed", 1, "x"), ("stated", 1), "stated", 0.1])
def test_a_malformed_entry_is_refused_by_name(entry):
    with pytest.raises(InvalidArgument, match=r"\['lr'\] must be \(kind, value, where\)"):
        paper_side({"lr": entry, "ok": None})
