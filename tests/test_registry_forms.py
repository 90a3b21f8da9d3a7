"""Every encoding a ``Forms`` (issue 26, item 3): a claim registered with a plain dict gets it as
Forms, so the unread-encoding check covers dict encodings too, nested ones included."""
import pytest
import sympy as sp

from theory.registry import READS, Claim, Forms, unlogged

x, mu = sp.symbols("x mu")


def claim(**forms) -> Claim:
    return Claim(id="BL-Eq(12)", paper="bias", where="Sec 5.3", statement="k", kind="identity",
                 expected="holds", **forms)


def test_a_dict_becomes_forms_with_its_keys_of_any_kind():
    c = claim(printed={"k": x, mu: 2 * x, 3: sp.Rational(1, 2), "note": "text", "f": len})
    form = object.__getattribute__(c, "printed")
    assert isinstance(form, Forms) and form[mu] == 2 * x and form[3] == sp.Rational(1, 2)
    assert sorted(map(str, (p for _, p in c.encodings()))) == ["3", "k", "mu"]  # text, code: not


def test_reads_by_key_items_and_values_are_logged():
    c = claim(printed={"k": x, "k_dot": 2 * x}, corrected={"nested": {"a": x}})
    READS.difference_update({r for r in READS if r[0] == c.id})
    assert c.unread() == ["printed.k", "printed.k_dot", "corrected.nested"]
    c.printed["k"]
    assert c.unread() == ["printed.k_dot", "corrected.nested"]
    dict(c.corrected.items())
    assert c.unread() == ["printed.k_dot"]
    list(c.printed.values())
    assert c.unread() == []


def test_a_picture_reads_without_counting_and_unpacking_is_refused():
    c = claim(printed={"k": x})
    READS.difference_update({r for r in READS if r[0] == c.id})
    with unlogged():
        c.printed["k"]
    assert c.unread() == ["printed.k"]
    with pytest.raises(TypeError, match="read by name"):
        k, = c.printed
    with pytest.raises(KeyError, match=r"no part 'q'; it has 'k'"):
        c.printed["q"]
    assert "k" in c.printed and len(c.printed) == 1 and c.printed.get("q") is None
