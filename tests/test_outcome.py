"""Verdict aggregation: the recorders map measurements to verdicts; the strongest verdict wins."""
import numpy as np
import pytest

from theory.verdicts import PRECEDENCE, strongest
from verify.outcome import ClaimRecorder


def record(*calls):
    results = {}
    rec = ClaimRecorder(results, ["X-1", "X-2"], test="t")
    for name, args, kwargs in calls:
        getattr(rec, name)(*args, **kwargs)
    return results


def test_one_refuting_check_outweighs_confirming_ones():
    results = record(("holds", (True, "a"), {}), ("holds", (False, "b"), dict(counterexample="x")))
    assert results["X-1"].verdict == "fails" and results["X-2"].verdict == "fails"
    assert results["X-1"].evidence.startswith("[fails] b")


@pytest.mark.parametrize("call, verdict", [
    (("holds", (True, "e"), {}), "holds"),
    (("defined", (True, "e"), {}), "defined"),
    (("defined", (False, "e"), {}), "fails"),
    (("erratum", (False, True, "e"), dict(counterexample="c")), "erratum"),
    (("erratum", (True, True, "e"), {}), "holds"),
    (("erratum", (False, False, "e"), dict(counterexample="c")), "fails"),
    (("holds_if", ("cond", True, False, "e"), dict(counterexample="c")), "holds-if"),
    (("holds_if", ("cond", True, True, "e"), {}), "holds"),
    (("holds_if", ("cond", False, False, "e"), {}), "fails"),
    (("reproduced", (False, "e"), {}), "not-reproduced"),
    (("inconclusive", ("why",), {}), "inconclusive"),
    (("untested", ("no data",), {}), "untested"),
])
def test_each_recorder_maps_its_measurement_to_one_verdict(call, verdict):
    assert record(call)["X-1"].verdict == verdict


def test_precedence_order_is_the_design_order():
    assert PRECEDENCE[0] == "fails" and PRECEDENCE[-1] == "holds"
    assert strongest(["holds", "erratum", "defined"]) == "erratum"
    assert strongest(["holds", "untested"]) == "untested"
    with pytest.raises(ValueError, match="empty"):
        strongest([])
    with pytest.raises(ValueError, match="verdict='maybe'"):
        strongest(["maybe"])


@pytest.mark.parametrize("call, message", [
    (("holds", (np.array([True, False]), "e"), {}), "ok must be a single truth value"),
    (("holds", (True, ""), {}), "evidence must be"),
    (("erratum", (False, True, "e"), {}), "counterexample is required"),
    (("holds_if", ("", True, False, "e"), dict(counterexample="c")), "condition must"),
])
def test_bad_recorder_input_is_rejected_with_the_argument_named(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        record(call)


def test_a_recorder_needs_claim_ids():
    with pytest.raises(ValueError, match="claim_ids"):
        ClaimRecorder({}, [])
