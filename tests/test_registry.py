"""The claim registry: IDs from the project's own index, validation of every field."""
import json
import subprocess
import sys

import pytest
import sympy as sp

from theory.papers import PAPERS, read_record
from theory.registry import Claim, Registry, RegistryError, catalogue_ids, load_all

FIELDS = dict(id="BL-Eq(7)", paper="bias", where="Eq. (7)", statement="a(t) = ...",
              kind="ode-solution", expected="holds")


def claim(**changes):
    return Claim(**{**FIELDS, **changes})


def test_every_paper_record_lists_its_catalogue_ids_and_every_id_is_registered():
    ids = catalogue_ids()
    assert len(ids) == sum(len(p.ids) for p in PAPERS.values())
    assert all(ids[i] == key for key, p in PAPERS.items() for i in p.ids)
    assert not load_all().missing(), "every catalogue ID has a registered claim"


def test_papers_are_discovered_from_their_own_records(tmp_path):
    folder = tmp_path / "draft"
    folder.mkdir()
    record = {"key": "draft", "prefix": "DR-", "title": "A draft", "position": 9,
              "convention": {"flow": "sum_half", "train": {"mean": True, "half": True},
                             "clock": "steps"}, "ids": ["DR-1"]}
    (folder / "paper.json").write_text(json.dumps(record))
    paper = read_record(folder / "paper.json")
    assert paper.key == "draft" and paper.ids == ("DR-1",) and paper.convention.train.mean
    for change, message in [({"prefix": "DR"}, "prefix="), ({"key": "other"}, "must name its"),
                            ({"position": "9"}, "position must"), ({"ids": "DR-1"}, "ids must"),
                            ({"convention": {"flow": "sum", "train": "sum_half", "clock": "t"}},
                             "convention.flow=")]:
        (folder / "paper.json").write_text(json.dumps({**record, **change}))
        with pytest.raises(ValueError, match=message):
            read_record(folder / "paper.json")


def test_registering_a_duplicate_id_is_an_error():
    registry = Registry()
    registry.add(claim())
    with pytest.raises(RegistryError, match="twice"):
        registry.add(claim())


def test_registering_an_unknown_id_is_an_error():
    with pytest.raises(RegistryError, match="not in theory/ids.tsv"):
        Registry().add(claim(id="BL-Eq(999)"))


def test_an_id_must_belong_to_its_paper():
    with pytest.raises(RegistryError, match="prefix"):
        claim(paper="rich_quick")
    with pytest.raises(RegistryError, match="belongs to paper"):
        Registry({"BL-Eq(7)": "bias_workshop"}).add(claim())


@pytest.mark.parametrize("changes, message", [
    (dict(kind="theorem"), "kind="),
    (dict(expected="true"), "expected="),
    (dict(expected="erratum"), "corrected form"),
    (dict(expected="holds-if"), "condition"),
    (dict(where=""), "where and statement"),
    (dict(paper="nope"), "paper="),
])
def test_bad_fields_are_rejected_with_the_field_named(changes, message):
    with pytest.raises(RegistryError, match=message):
        claim(**changes)


def test_an_erratum_with_its_correction_and_a_holds_if_with_its_condition_register():
    assert claim(expected="erratum", corrected=sp.Integer(1)).expected == "erratum"
    assert claim(expected="holds-if", condition="a0 > 0").condition == "a0 > 0"


def test_load_all_registers_claims_and_lists_missing_ones():
    registry = load_all()
    assert "BL-Eq(7)" in registry and registry["BL-Eq(7)"].printed is not None
    assert set(registry.missing()).isdisjoint(c.id for c in registry)
    with pytest.raises(KeyError, match="not registered"):
        Registry()["BL-Eq(7)"]


def test_python_m_theory_lists_claims_with_expected_verdicts():
    out = subprocess.run([sys.executable, "-m", "theory", "--paper", "bias"], capture_output=True,
                         text=True, check=True).stdout
    assert "BL-Eq(7)" in out and "holds" in out and "expected verdicts:" in out
