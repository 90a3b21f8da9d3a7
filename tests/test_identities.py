"""verify.checks.identities decides an identity instead of trusting ``simplify(expr) == 0``: a
true identity sympy leaves unsimplified holds (numerically, and says so), a false one is refuted
with its counterexample, and only a zero sympy reaches counts as proven."""
import pytest
import sympy as sp

from verify.checks.identities import NUMERICAL, PROVEN, REFUTED, UNDECIDED, decide, measure_zero

x = sp.Symbol("x", positive=True)
r = sp.Symbol("r", real=True)
n = sp.Symbol("n", integer=True, positive=True)

#: true identities that sympy's simplify leaves as they are: the old pattern called them false
MISSED = {"atan(x) + atan(1/x) = pi/2 for x > 0": sp.atan(x) + sp.atan(1 / x) - sp.pi / 2,
          "asinh(r) = log(r + sqrt(r^2 + 1))": sp.asinh(r) - sp.log(r + sp.sqrt(r ** 2 + 1)),
          "atanh(tanh(r)) = r": sp.atanh(sp.tanh(r)) - r}
#: 2 atan(x) = atan(2x / (1 - x^2)) holds for |x| < 1 only: past 1 the two differ by pi
DOUBLE_ANGLE = 2 * sp.atan(x) - sp.atan(2 * x / (1 - x ** 2))


@pytest.mark.parametrize("name", list(MISSED))
def test_a_true_identity_that_simplify_misses_holds_numerically(name):
    expr = MISSED[name]
    assert sp.simplify(expr) != 0  # the pattern this module replaces reports it false
    d = decide(expr)
    assert (d.status, d.holds, d.points, d.digits) == (NUMERICAL, True, 24, 30)
    m = measure_zero(name, expr)
    assert m.passed and m.source.kind == "exact" and "24 random real points" in m.source.text
    assert m.details["decided"] == NUMERICAL and not m.counterexample


def test_a_zero_sympy_reaches_is_proven():
    d = decide((x + 1) ** 2 - x ** 2 - 2 * x - 1)
    assert (d.status, d.holds) == (PROVEN, True) and "sympy" in d.how
    assert decide(sp.Matrix([[sp.sin(r) ** 2 + sp.cos(r) ** 2 - 1, 0]])).status == PROVEN


def test_a_false_identity_is_refuted_with_its_counterexample():
    d = decide(DOUBLE_ANGLE)
    assert (d.status, d.holds) == (REFUTED, False)
    assert d.counterexample["x"] > 1 and d.residual == pytest.approx(sp.N(sp.pi), rel=1e-12)
    # the counterexample is one: the expression is pi there, not 0
    assert float(DOUBLE_ANGLE.subs(x, d.counterexample["x"])) == pytest.approx(float(sp.pi))
    m = measure_zero("2 atan(x) - atan(2x / (1 - x^2))", DOUBLE_ANGLE)
    assert not m.passed and m.source.kind == "exact" and "not 0" in m.source.text
    assert m.counterexample.startswith("x = ") and m.details["at"] == dict(d.counterexample)
    assert "counterexample x = " in m.text()


def test_the_condition_of_an_identity_is_its_range():
    d = decide(DOUBLE_ANGLE, ranges={"x": (0.01, 0.99)})
    assert d.status == NUMERICAL and d.holds


def test_a_near_miss_constant_and_a_perturbed_identity_are_refuted():
    d = decide(sp.pi - sp.Rational(355, 113))  # 2.7e-7: a float test at 1e-6 calls it zero
    assert d.status == REFUTED and d.residual == pytest.approx(-2.667641890624e-07)
    wrong = MISSED["atan(x) + atan(1/x) = pi/2 for x > 0"] + sp.Rational(1, 10 ** 20)
    assert decide(wrong).status == REFUTED


def test_an_expression_real_nowhere_is_undecided_and_does_not_hold():
    d = decide(sp.sqrt(-1 - r ** 2))
    assert d.status == UNDECIDED and not d.holds
    assert not measure_zero("sqrt(-1 - r^2)", sp.sqrt(-1 - r ** 2)).passed


def test_a_matrix_is_decided_entry_by_entry():
    d = decide(sp.Matrix([[0, MISSED["atanh(tanh(r)) = r"]], [DOUBLE_ANGLE, 0]]))
    assert d.status == REFUTED and d.how.startswith("entry (1, 0)")
    assert decide(sp.Matrix([MISSED["atanh(tanh(r)) = r"], 0])).status == NUMERICAL


def test_symbols_are_drawn_within_their_assumptions():
    # sqrt(x^2) = x only for x >= 0; (-1)^(2n) = 1 only for integer n
    assert decide(sp.sqrt(sp.Symbol("y", nonnegative=True) ** 2) - sp.Symbol("y", nonnegative=True)).holds
    assert decide(sp.sqrt(r ** 2) - r).status == REFUTED
    assert decide(sp.cos(sp.pi * n) ** 2 - 1).holds


@pytest.mark.parametrize("options", [{"points": 0}, {"digits": 45}, {"seed": -1}, {"points": True},
                                     {"ranges": {"x": (2, 1)}}])
def test_bad_options_are_refused(options):
    with pytest.raises(ValueError):
        decide(sp.atan(x) + sp.atan(1 / x) - sp.pi / 2, **options)
