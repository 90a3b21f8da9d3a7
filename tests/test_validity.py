"""The validity-map helper (verify.validity): the error field and its outline are right on a toy
formula with a known boundary, a perturbed formula moves the map, the shared closed-form reference
matches an integration, every holds-if claim and limit has a map, and bad input gets a named error."""

import numpy as np
import pytest
import sympy as sp

from numerics.rk4 import rk4
from theory.registry import load_all
from verify import validity as V

x_sym, y_sym = sp.symbols("x y", positive=True)
TOL = 1e-4
#: the relative error of 1 + x/2 against sqrt(1 + x) is x^2/8 (1 + O(x)): below TOL for x < ~sqrt(8 TOL)
EDGE = float(np.sqrt(8 * TOL))


def toy_spec(approximation, *, boundary=None, search=True, fields=None) -> V.MapSpec:
    f = V.form(approximation)

    def error(x, y):
        exact = np.sqrt(1 + x)
        return (f(x=x, y=y) - exact) / exact

    return V.MapSpec(
        "GRQ-Claim-Mlimits", V.Axis("x", "x", 1e-4, 10.0, 81), V.Axis("y", "y", 0.1, 10.0, 5),
        fields or (V.Field("printed 1 + x/2", error),), "relative error",
        boundary or V.Boundary("x = 2 sqrt(2 TOL)", level=lambda x, y: EDGE - x), ("<=", TOL),
        "sqrt(1 + x)", search=search)


def test_error_field_and_outline_on_a_toy_formula():
    vmap = V.compute(toy_spec(1 + x_sym / 2))
    x = vmap.X[0]
    expected = np.abs(1 + x / 2 - np.sqrt(1 + x)) / np.sqrt(1 + x)
    np.testing.assert_allclose(vmap.values[0][0], expected, rtol=1e-12)
    holds = vmap.holds[0][0]
    # the outline is where the criterion holds: up to the known edge, within one grid step
    step = x[1] / x[0]
    assert holds[x < EDGE / step].all() and not holds[x > EDGE * step].any()
    # the boundary's level changes sign on the grid, and the search found a point beyond it
    assert vmap.level.min() < 0 < vmap.level.max()
    assert vmap.counterexample is not None and vmap.counterexample.x > EDGE / step


def test_a_perturbed_formula_moves_the_map():
    right = V.compute(toy_spec(1 + x_sym / 2))
    wrong = V.compute(toy_spec(1 + x_sym / 3))      # first-order term changed: error ~ x/6
    assert wrong.holds[0].sum() < right.holds[0].sum()
    small = right.X[0] < 0.1
    assert np.all(wrong.values[0][:, small] > 10 * right.values[0][:, small])
    exact = V.compute(toy_spec(sp.sqrt(1 + x_sym)))   # the exact form: no counterexample
    assert exact.holds[0].all() and exact.counterexample is None


def test_the_search_is_deterministic_under_the_ci_profile():
    a, b = (V.compute(toy_spec(1 + x_sym / 3)).counterexample for _ in range(2))
    assert a == b


def test_draw_shows_every_field_and_a_shared_colour_scale():
    spec = toy_spec(1 + x_sym / 2, fields=(V.Field("printed", lambda x, y: x ** 2 / 8),
                                           V.Field("corrected", lambda x, y: 1e-17 * x)))
    fig = V.draw(V.compute(spec))
    panels = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert [ax.get_title() for ax in panels] == ["printed", "corrected"]
    meshes = [ax.collections[0] for ax in panels]
    assert meshes[0].norm is meshes[1].norm and all(m.colorbar is not None for m in meshes)
    assert "Validity map of GRQ-Claim-Mlimits" in V.caption(spec)


def test_form_evaluates_matrix_expressions_as_stacks():
    A, B = sp.MatrixSymbol("A", 2, 3), sp.MatrixSymbol("B", 3, 2)
    eps = sp.Symbol("eps")
    f = V.form(eps * A * B.T.T - (A * B).T)
    rng = np.random.default_rng(0)
    As, Bs, es = rng.standard_normal((4, 5, 2, 3)), rng.standard_normal((4, 5, 3, 2)), rng.standard_normal((4, 5))
    got = f(A=As, B=Bs, eps=es)
    want = np.array([[e * a @ b - (a @ b).T for a, b, e in zip(ar, br, er)]
                     for ar, br, er in zip(As, Bs, es)])
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("x0, target, half_gap", [(0.01, 1.0, 0.0), (0.01, 1.0, 0.5), (-0.3, 1.0, 0.2),
                                                  (-0.3, 1.0, 0.0), (1.5, 1.0, 0.3)])
def test_balanced_mode_time_matches_an_integration(x0, target, half_gap):
    def rhs(_, v):
        return 2 * np.sqrt(v ** 2 + half_gap ** 2) * (target - v)
    end = rk4(rhs, np.array(x0), 3.0, 20000)
    assert V.balanced_mode_time(x0, end, target, half_gap) == pytest.approx(3.0, rel=1e-9)


def test_a_mode_that_must_cross_zero_at_zero_gap_never_arrives():
    assert np.isinf(V.balanced_mode_time(-0.3, 0.5, 1.0, 0.0))


def test_every_holds_if_claim_and_limit_has_a_validity_map():
    wanted = {c.id for c in load_all() if c.expected == "holds-if" or c.kind == "limit"}
    assert sorted(wanted - set(V.all_specs())) == []


def _bad(**changes):
    base = dict(name="x", label="x", lo=1e-3, hi=1.0, n=11, scale="log")
    return V.Axis(**{**base, **changes})


@pytest.mark.parametrize("changes, word", [
    (dict(lo=1.0, hi=1.0), "lo"), (dict(lo=-1.0), "lo"), (dict(n=1), "n"), (dict(n=2.5), "n"),
    (dict(scale="cubic"), "scale"), (dict(name="not valid"), "name"), (dict(hi=float("nan")), "hi"),
    (dict(scale="discrete"), "values"), (dict(scale="symlog", lo=-1.0, linthresh=0.0), "linthresh"),
    (dict(include=(5.0,)), "include"), (dict(label=""), "label"),
])
def test_bad_axes_get_a_named_error(changes, word):
    with pytest.raises(V.ValidityMapError, match=word):
        _bad(**changes)


def test_bad_specs_and_fields_get_a_named_error():
    ok = toy_spec(1 + x_sym / 2)
    with pytest.raises(V.ValidityMapError, match="criterion"):
        V.MapSpec(**{**ok.__dict__, "criterion": ("~", 1.0)})
    with pytest.raises(V.ValidityMapError, match="threshold must be > 0"):
        V.MapSpec(**{**ok.__dict__, "criterion": ("<=", 0.0)})
    with pytest.raises(V.ValidityMapError, match="fields"):
        V.MapSpec(**{**ok.__dict__, "fields": ()})
    with pytest.raises(V.ValidityMapError, match="share the name"):
        V.MapSpec(**{**ok.__dict__, "y": ok.x})
    with pytest.raises(V.ValidityMapError, match="not callable"):
        V.Field("printed", 3.0)
    with pytest.raises(V.ValidityMapError, match="no level, curve or points"):
        V.Boundary("nothing")
    with pytest.raises(V.ValidityMapError, match="curve"):
        V.Boundary("odd", curve=((0.0, 1.0), (0.0,)))


def test_a_field_of_the_wrong_shape_or_nowhere_finite_is_named():
    shape = toy_spec(1 + x_sym / 2, fields=(V.Field("printed", lambda x, y: np.ones(3)),))
    with pytest.raises(V.ValidityMapError, match="printed.*shape"):
        V.compute(shape)
    nan = toy_spec(1 + x_sym / 2, fields=(V.Field("printed", lambda x, y: np.full(x.shape, np.nan)),))
    with pytest.raises(V.ValidityMapError, match="not finite anywhere"):
        V.compute(nan)


def test_a_boundary_outside_the_window_is_named():
    spec = toy_spec(1 + x_sym / 2, boundary=V.Boundary("x = 100", level=lambda x, y: 100.0 - x))
    with pytest.raises(V.ValidityMapError, match="does not cross"):
        V.compute(spec)


def test_bad_input_to_form_rk4_and_draw_is_named():
    with pytest.raises(V.ValidityMapError, match="not a sympy expression"):
        V.form("x + 1")
    with pytest.raises(V.ValidityMapError, match=r"needs values for \['y'\]"):
        V.form(x_sym + y_sym)(x=1.0)
    with pytest.raises(ValueError, match="steps"):
        rk4(lambda t, v: v, 1.0, 1.0, 0)
    with pytest.raises(ValueError, match="t_end"):
        rk4(lambda t, v: v, 1.0, -1.0, 10)
    with pytest.raises(V.ValidityMapError, match="compute"):
        V.draw(toy_spec(1 + x_sym / 2))
    with pytest.raises(V.ValidityMapError, match="MapSpec"):
        V.compute("GRQ-Eq(28)")
    with pytest.raises(V.ValidityMapError, match="SPECS"):
        V.claim_params({})
