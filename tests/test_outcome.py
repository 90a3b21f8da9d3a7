"""Verdicts from measurements: each recorder maps measurements to one verdict, the strongest
verdict wins, and the symmetric verdict rule for empirical claims (docs/DESIGN.md) holds on
synthetic runs."""
import numpy as np
import pytest

from numerics.ran import Config, Ran
from theory.verdicts import PRECEDENCE, strongest
from verify import lexicon
from verify.measurement import code, exact, lexicon_source, measure, paper, reading
from verify.outcome import ClaimRecorder, decide
from verify.setup import UNKNOWN, Setup, released, stated
from verify.statements import mean_of
from verify.properties import search
from hypothesis import strategies as st

TOL = reading("synthetic tolerance")
STATED = paper("L1", "the rich regime moves further than the lazy one")


def recorder():
    results = {}
    return ClaimRecorder(results, ["X-1", "X-2"], test="t"), results


def ok(name="residual"):
    return measure(name, 1e-12, "<=", 1e-9, source=TOL)


def bad(name="residual"):
    return measure(name, 0.3, "<=", 1e-9, source=TOL)


def ran(scale="ci", **settings):
    return Ran.of(Config(scale=scale), "synthetic runner", **settings)


PAPER = {"data": stated("MNIST", "L1"), "seeds": stated(8, "L2")}
COST = "8 runs x 1e4 steps x 60k images; ~2 min on one GPU"
FAITHFUL = Setup(ran(data="MNIST", seeds=8), PAPER)
UNFAITHFUL = Setup(ran(data="digits 8x8", seeds=2), PAPER, cost=COST)


def test_one_refuting_check_outweighs_confirming_ones():
    rec, results = recorder()
    rec.holds(ok())
    rec.holds(bad("second"))
    assert results["X-1"].verdict == "fails" and results["X-2"].verdict == "fails"
    assert results["X-1"].evidence.startswith("[fails] second: 0.3 <= 1e-09 FAILED")


@pytest.mark.parametrize("call, verdict", [
    (lambda r: r.holds(ok()), "holds"),
    (lambda r: r.holds(ok(), bad()), "fails"),
    (lambda r: r.defined(ok()), "defined"),
    (lambda r: r.defined(bad()), "fails"),
    (lambda r: r.erratum(printed=bad(), corrected=ok()), "erratum"),
    (lambda r: r.erratum(printed=ok(), corrected=ok()), "holds"),
    (lambda r: r.erratum(printed=bad(), corrected=bad()), "fails"),
    (lambda r: r.holds_if("cond", under=ok(), without=bad()), "holds-if"),
    (lambda r: r.holds_if("cond", under=ok(), without=ok()), "holds"),
    (lambda r: r.holds_if("cond", under=bad(), without=bad()), "fails"),
    (lambda r: r.inconclusive("why"), "inconclusive"),
    (lambda r: r.untested("no data", setup=UNFAITHFUL), "untested"),
])
def test_each_recorder_maps_its_measurements_to_one_verdict(call, verdict):
    rec, results = recorder()
    call(rec)
    assert results["X-1"].verdict == verdict


@pytest.mark.parametrize("build", [
    lambda v: ("holds", dict(), [measure("residual", v, "<=", 1e-9, source=TOL)]),
    lambda v: ("erratum", dict(corrected=ok()), measure("printed residual", v, "<=", 1e-9, source=TOL)),
])
def test_a_perturbed_measurement_flips_the_verdict(build):
    """The same check, fed a measurement moved across its criterion, gives the other verdict."""
    verdicts = []
    for value in (1e-12, 1e-3):
        rec, results = recorder()
        method, kwargs, m = build(value)
        if method == "holds":
            rec.holds(*m)
        else:
            rec.erratum(printed=m, **kwargs)
        verdicts.append(results["X-1"].verdict)
    assert verdicts[0] != verdicts[1]


@pytest.mark.parametrize("value, setup, verdict", [
    (0.3, FAITHFUL, "holds"), (0.3, UNFAITHFUL, "supported"),
    (-0.2, FAITHFUL, "not-reproduced"), (-0.2, UNFAITHFUL, "inconclusive")])
def test_the_rule_is_symmetric_an_unfaithful_run_neither_confirms_nor_refutes(value, setup, verdict):
    rec, results = recorder()
    assert rec.reproduced(measure("S(rich) - S(lazy)", value, ">", 0, source=STATED),
                          setup=setup) == verdict
    if not setup.faithful:
        assert COST in results["X-1"].evidence and "data digits 8x8" in results["X-1"].evidence


def test_a_claim_decided_by_several_runs_is_faithful_only_if_every_run_is():
    rec, results = recorder()
    m = measure("S(rich) - S(lazy)", 0.3, ">", 0, source=STATED)
    assert rec.reproduced(m, setup=[FAITHFUL, UNFAITHFUL]) == "supported"
    rec2, results2 = recorder()
    rec2.reproduced(m, setup=FAITHFUL)
    rec2.reproduced(m, setup=UNFAITHFUL)
    assert results2["X-1"].verdict == "supported" and len(results2["X-1"].setups) == 2


def test_an_unknown_setting_makes_a_run_unfaithful_unless_shown_harmless():
    paper_side = dict(PAPER, init=UNKNOWN)
    run = ran(data="MNIST", seeds=8, init="normal(0, 0.1)")
    with pytest.raises(ValueError, match="cost must say"):
        Setup(run, paper_side)
    setup = Setup(run, paper_side, cost=COST)
    assert not setup.faithful and setup.unknown == ["init"]
    assert "the paper does not give it" in setup.text()
    check = measure("outcome at init std 0.1 and 0.01 agrees", True, "==", True, source=TOL)
    assert Setup(run, paper_side, sensitivity={"init": check}).faithful
    fixed = Setup(run, dict(PAPER, init=released("normal(0, 0.1)", "owner/repo/init.py")))
    assert fixed.faithful and fixed.as_dict()["paper_sources"]["init"] == "code owner/repo/init.py"


def test_every_setting_the_run_used_must_be_declared_on_the_papers_side():
    with pytest.raises(ValueError, match="does not declare the settings \\['init'\\]"):
        Setup(ran(data="MNIST", seeds=8, init="normal"), PAPER)
    with pytest.raises(ValueError, match="does not report the settings \\['seeds'\\]"):
        Setup(ran(data="MNIST"), PAPER)
    with pytest.raises(TypeError, match="ran must be the numerics.ran.Ran"):
        Setup({"data": "MNIST", "seeds": 8}, PAPER)


def test_readings_alone_decide_nothing_in_either_direction():
    for value in (0.01, 0.3):
        rec, results = recorder()
        verdict = rec.reproduced(measure("theory vs simulation, max rel err", value, "<=", 0.02,
                                         source=reading("2%: float32 training")), setup=FAITHFUL)
        assert verdict == "inconclusive"
        assert "readings decide nothing" in results["X-1"].evidence


def test_a_lexicon_word_decides_both_ways_and_else_depends_on_the_reading():
    def gap(values):
        return lexicon.decide("closely tracks", "GDLN to ReLU gap / L(0)", mean_of(values),
                              where="L171", words="closely tracks")
    for values, verdict, unfaithful in (([0.001, 0.002, 0.0015], "holds", "supported"),
                                        ([0.30, 0.32, 0.31], "not-reproduced", "inconclusive"),
                                        ([0.014, 0.015, 0.016], "inconclusive", "inconclusive")):
        rec, results = recorder()
        assert rec.reproduced(gap(values), setup=FAITHFUL) == verdict
        assert decide(gap(values), faithful=False) == unfaithful
    assert "depends on the reading" in results["X-1"].evidence
    # one refuted clause refutes even where another depends on the reading
    assert decide(gap([0.014, 0.015, 0.016]), gap([0.30, 0.32, 0.31])) == "not-reproduced"


def test_a_paper_criterion_states_its_number():
    with pytest.raises(ValueError, match="not a number the paper states"):
        measure("share", 0.7, ">", 0.6, source=paper("L1", "most units"))
    assert measure("share", 0.7, ">", 0.6, source=paper("L1", "over 60% of units")).passed
    assert measure("count", 3, "==", 3, source=paper("L1", "three of 3 units")).passed
    assert measure("p", 0.01, "<", 0.05, source=paper("L1", "lower")).passed   # the test level


def test_readings_of_an_ambiguous_sentence_that_disagree_are_inconclusive():
    literal = paper("L900", "small initialization (alpha < 1) is smoother", "alpha < 1 literally")
    scaled = paper("L900", "small initialization (alpha < 1) is smoother", "D.3 divides by alpha")
    rec, results = recorder()
    verdict = rec.reproduced(measure("smoothness", 1.0, ">", 0, source=literal),
                             measure("smoothness", -1.0, ">", 0, source=scaled), setup=FAITHFUL)
    assert verdict == "inconclusive" and "depends on the reading" in results["X-1"].evidence
    rec, _ = recorder()
    assert rec.reproduced(measure("smoothness", 1.0, ">", 0, source=literal),
                          measure("smoothness", 2.0, ">", 0, source=scaled),
                          setup=FAITHFUL) == "holds"


def test_faithful_run_against_the_stated_direction_is_not_reproduced():
    rec, results = recorder()
    verdict = rec.reproduced(measure("S(rich) - S(lazy)", -0.2, ">", 0, source=STATED), setup=FAITHFUL)
    assert verdict == "not-reproduced"
    assert "FAILED" in results["X-1"].counterexample


def test_unfaithful_run_against_the_stated_direction_is_inconclusive_naming_what_is_missing():
    rec, results = recorder()
    verdict = rec.reproduced(measure("S(rich) - S(lazy)", -0.2, ">", 0, source=STATED),
                             setup=UNFAITHFUL)
    assert verdict == "inconclusive"
    evidence = results["X-1"].evidence
    assert "data digits 8x8 (paper MNIST)" in evidence and "~2 min on one GPU" in evidence


def test_a_deviation_shown_harmless_by_a_sensitivity_check_keeps_the_run_faithful():
    check = measure("outcome at 2 and at 8 seeds agrees", 0.01, "<=", 0.05, source=TOL)
    seeds = {"seeds": stated(8, "L2")}
    setup = Setup(ran(seeds=2), seeds, sensitivity={"seeds": check})
    assert setup.faithful and setup.deviations[0].shown_harmless_by == check.name
    failed = measure("outcome at 2 and at 8 seeds agrees", 0.4, "<=", 0.05, source=TOL)
    with pytest.raises(ValueError, match="cost must say"):
        Setup(ran(seeds=2), seeds, sensitivity={"seeds": failed})
    rec, results = recorder()
    rec.reproduced(measure("S(rich) - S(lazy)", -0.2, ">", 0, source=STATED), setup=setup)
    assert results["X-1"].verdict == "not-reproduced"


def test_an_invented_threshold_cannot_overturn_the_stated_direction():
    rec, results = recorder()
    verdict = rec.reproduced(
        measure("S(rich) - S(lazy)", 0.4, ">", 0, source=STATED),
        measure("S(rich) / S(lazy)", 3.0, ">", 20, source=reading("a ratio the suite chose")),
        setup=FAITHFUL)
    assert verdict == "holds"
    assert "S(rich) / S(lazy): 3 > 20 FAILED" in results["X-1"].evidence


def test_the_authors_code_decides_like_the_paper():
    m = measure("loss plateau count", 2, "==", 3, source=code("owner/repo/run.py", "three plateaus"))
    rec, results = recorder()
    assert rec.reproduced(m, setup=FAITHFUL) == "not-reproduced"


def test_deviations_and_faithful_are_computed_from_the_settings():
    assert FAITHFUL.faithful and FAITHFUL.deviations == []
    assert not UNFAITHFUL.faithful
    assert [d.setting for d in UNFAITHFUL.deviations] == ["data", "seeds"]
    close = Setup(ran(lr=1e-4 * (1 + 1e-12)), {"lr": stated(1e-4, "L3")})
    assert close.faithful
    record = UNFAITHFUL.as_dict()
    assert {"scale", "faithful", "deviations", "cost", "runner", "unknown"} <= record.keys()


def test_measurement_records_carry_name_value_criterion_passed_source():
    m = measure("max error", np.array([1e-10, 2e-10]), "<=", 1e-9, source=TOL)
    assert m.as_dict() == {"name": "max error", "value": [1e-10, 2e-10], "criterion": "<= 1e-09",
                           "passed": True, "source": "reading: synthetic tolerance",
                           "source_kind": "reading"}
    assert measure("in range", 0.5, "within", (0, 1), source=TOL).passed
    assert not measure("in range", 1.5, "within", (0, 1), source=TOL).passed
    assert measure("sympy residual is zero", True, "==", True, source=exact("simplify")).decisive
    assert not m.decisive


def test_a_search_result_is_one_measurement_with_its_own_criterion():
    result = search(lambda x: x * x, ("<=", 0.5), x=st.floats(0, 1))
    m = measure("x^2 over [0, 1]", result, source=TOL)
    assert not m.passed and m.examples >= 1 and m.criterion == "<= 0.5" and m.counterexample
    passing = measure("x^2 over [0, 0.5]", search(lambda x: x * x, ("<=", 0.5),
                                                  x=st.floats(0, 0.5)), source=TOL)
    assert passing.passed and passing.value <= 0.25


def test_precedence_order_is_the_design_order():
    assert PRECEDENCE[0] == "fails" and PRECEDENCE[-1] == "holds"
    assert strongest(["holds", "erratum", "defined"]) == "erratum"
    assert strongest(["holds", "untested"]) == "untested"
    with pytest.raises(ValueError, match="empty"):
        strongest([])
    with pytest.raises(ValueError, match="verdict='maybe'"):
        strongest(["maybe"])


@pytest.mark.parametrize("call, message", [
    (lambda: measure("", 1.0, "<=", 1, source=TOL), "name="),
    (lambda: measure("x", float("nan"), "<=", 1, source=TOL), "NaN"),
    (lambda: measure("x", 1.0, "~", 1, source=TOL), "op="),
    (lambda: measure("x", 1.0, "<=", 1, source="my guess"), "source must be made"),
    (lambda: measure("x", 1.0, source=TOL), "op is required"),
    (lambda: paper("", "words"), "where="),
    (lambda: reading(""), "why="),
    (lambda: Config(scale="huge"), "scale="),
    (lambda: Ran.of(Config(scale="ci"), "runner"), "settings must map"),
    (lambda: Setup(ran(a=2), {"a": stated(1, "L1")}), "cost must say"),
    (lambda: Setup(ran(a=2), {"a": 1}), "must be stated"),
    (lambda: reading("why", where="L1"), "where and words"),
    (lambda: lexicon_source("L1", "close", ""), "phrase="),
    (lambda: recorder()[0].holds(), "measurements is empty"),
    (lambda: recorder()[0].holds(True), "must hold Measurements"),
    (lambda: recorder()[0].erratum(printed=[], corrected=ok()), "printed is empty"),
    (lambda: recorder()[0].holds_if("", under=ok(), without=bad()), "condition must"),
    (lambda: recorder()[0].reproduced(ok(), setup=None), "setup must be"),
])
def test_bad_input_is_rejected_with_the_argument_named(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_a_paper_scale_run_supersedes_the_reduced_runs_of_its_claim():
    rec, results = recorder()
    stated = measure("S(rich) - S(lazy)", -0.2, ">", 0, source=STATED)
    rec.reproduced(stated, setup=UNFAITHFUL)
    assert results["X-1"].verdict == "inconclusive"
    full = Setup(ran("full", data="MNIST", seeds=8), PAPER)
    rec.reproduced(measure("S(rich) - S(lazy)", 0.3, ">", 0, source=STATED), setup=full)
    assert results["X-1"].verdict == "holds"
    assert results["X-1"].scale == "full" and "[inconclusive]" in results["X-1"].evidence
    rec.holds(bad("an exact check of the same claim"))
    assert results["X-1"].verdict == "fails"


@pytest.fixture
def profile_with_database():
    from hypothesis import settings
    from hypothesis.database import InMemoryExampleDatabase
    db, before = InMemoryExampleDatabase(), settings.get_current_profile_name()

    def load(max_examples):
        settings.register_profile("_db_test", database=db, derandomize=False,
                                  max_examples=max_examples, deadline=None)
        settings.load_profile("_db_test")
    yield db, load
    settings.load_profile(before)


def test_each_property_keeps_its_own_counterexamples_in_the_example_database(profile_with_database):
    db, load = profile_with_database
    def identity(x):
        return x

    load(50)
    assert not search(identity, ("<=", 0.5), x=st.floats(0, 1)).ok
    first = set(db.data)
    assert search(lambda y: -y, ("<=", 0.0), y=st.floats(0, 1)).ok
    assert first and set(db.data) == first, "a passing property files nothing under another's key"
    load(1)
    assert not search(identity, ("<=", 0.5), x=st.floats(0, 1)).ok, \
        "the saved counterexample is replayed at the next run, even with one example"


def test_ambiguity_is_judged_per_sentence():
    """Readings of two different sentences are not pooled: a sentence measured under one
    reading is an ordinary measurement, and one that fails under its only reading refutes."""
    first = paper("L10", "the loss drops early", "drop before t = 1")
    second = paper("L20", "the units stay silent", "silent at the end")
    rec, _ = recorder()
    assert rec.reproduced(measure("drop", 1.0, ">", 0, source=first),
                          measure("silence", -1.0, ">", 0, source=second),
                          setup=FAITHFUL) == "not-reproduced"


def test_decide_gives_the_verdict_of_a_faithful_or_unfaithful_run():
    from verify.outcome import decide
    ok = measure("S(rich) - S(lazy)", 0.3, ">", 0, source=STATED)
    bad = measure("S(rich) - S(lazy)", -0.3, ">", 0, source=STATED)
    assert decide(ok) == "holds" and decide(bad) == "not-reproduced"
    assert decide(ok, faithful=False) == "supported" and decide(bad, faithful=False) == "inconclusive"


def test_a_grid_setting_compares_each_statement_over_its_grid():
    """verify.sensitivity.unmoved with ``statement``: the variant grid measures other points,
    so what must not move is each statement's outcome over the grid (one fails: fails)."""
    import re
    from verify.sensitivity import unmoved
    decisive = exact("synthetic decisive criterion")

    def grid(values):
        return [measure(f"c = {c}: gating fraction", v, "<=", 0.1, source=decisive) for c, v in values]

    def statement(m):
        return re.sub(r"c = [0-9.]+", "c", m.name)

    base = grid([(0.1, 0.05), (1.0, 0.02)])
    same = unmoved("bias strengths c", {"run": base, "variant": grid([(0.05, 0.07), (0.2, 0.03),
                                                                      (3.0, 0.01)])},
                   plausible="another grid", statement=statement)
    assert same.passed and same.value == 0
    moved = unmoved("bias strengths c", {"run": base, "variant": grid([(0.05, 0.4), (3.0, 0.01)])},
                    plausible="another grid", statement=statement)
    assert not moved.passed and moved.value == 1
    with pytest.raises(ValueError, match="same decisive measurements"):
        unmoved("bias strengths c", {"run": base, "variant": grid([(0.05, 0.07)])},
                plausible="another grid")
    other = [measure("c = 0.05: always-on rise", 2.0, ">", 1, source=decisive)]
    with pytest.raises(ValueError, match="same statements"):
        unmoved("bias strengths c", {"run": base, "variant": other}, plausible="another grid",
                statement=statement)
