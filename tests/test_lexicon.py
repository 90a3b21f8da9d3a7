"""The lexicon (verify.lexicon): for every word, a synthetic case that passes at every reading,
one that fails at every reading and one in between, which depends on the reading and is
inconclusive with its flip points; alternatives of a window or alignment are part of the range;
an interval that straddles a bound decides nothing."""
import numpy as np
import pytest

from verify import lexicon
from verify.outcome import decide
from verify.statements import Estimate, mean_of

SPREAD = 0.004   # a synthetic seed-to-seed spread, the strict bound of identity words


def _bounds(word):
    return [SPREAD if r.bound is None else r.bound for r in word.readings]


def _tight(centre: float) -> Estimate:
    """Five seeds tightly around ``centre``: an interval far narrower than the readings' gaps."""
    return mean_of(centre + 1e-6 * np.array([-2, -1, 0, 1, 2]))


def _cases(word):
    """(passes at every reading, fails at every reading, in between) for ``word``."""
    b = _bounds(word)
    strict, lenient = b[0], b[-1]
    if word.op == "<=":
        between = (strict + b[1]) / 2
        return _tight(strict / 2) if strict > 0 else Estimate.point(0.0), _tight(2 * lenient + 0.1), \
            _tight(between)
    return _tight(1.1 * strict), _tight(lenient / 2), _tight((strict + b[1]) / 2)


def _judge(word, est, phrase=None):
    return lexicon.decide(phrase or word.phrases[0], "synthetic quantity", est, where="L1",
                          words="synthetic sentence", spread=SPREAD)


@pytest.mark.parametrize("word", lexicon.WORDS, ids=lambda w: w.phrases[0])
def test_every_word_passes_fails_and_depends_on_the_reading(word):
    good, bad, between = _cases(word)
    m = _judge(word, good)
    assert m.passed and not m.undecided and decide(m) == "holds"
    m = _judge(word, bad)
    assert m.refuted and decide(m) == "not-reproduced" and decide(m, faithful=False) == "inconclusive"
    m = _judge(word, between)
    assert not m.passed and m.undecided and decide(m) == "inconclusive"
    assert "flips" in m.undecided and "flip points" in m.details


@pytest.mark.parametrize("phrase", sorted(lexicon.LEXICON))
def test_every_phrase_is_decided_by_its_word(phrase):
    word = lexicon.word(phrase)
    good, bad, _ = _cases(word)
    assert _judge(word, good, phrase).passed and _judge(word, bad, phrase).refuted


def test_an_interval_across_a_bound_decides_nothing():
    # a seed mean 0.009 below the strict 1% bound, but seeds too noisy to place it there
    noisy = mean_of([0.002, 0.016, 0.004, 0.014])
    m = lexicon.decide("excellent agreement", "gap / L(0)", noisy, where="L1", words="x")
    assert noisy.value < 0.01 < noisy.high and m.undecided and "straddles" in m.undecided


def test_the_alternatives_of_a_sentence_are_part_of_the_range():
    shifts = {"global time shift": _tight(0.08), "mode-wise time shift": _tight(0.005)}
    m = lexicon.decide("closely tracks", "gap / L(0) after alignment", shifts, where="L1", words="x")
    assert m.undecided and "global time shift" in m.undecided
    assert m.details["flip points"]["passes for bounds from"] >= 0.08
    both = {k: _tight(0.004) for k in shifts}
    assert lexicon.decide("closely tracks", "gap", both, where="L1", words="x").passed


def test_the_paper_s_contrast_is_reported_beside_and_does_not_decide():
    m = lexicon.decide("excellent agreement", "gap", _tight(0.005), where="L1", words="x",
                       contrast=_tight(0.04), contrast_name="single-context GDLN")
    assert m.passed and m.details["contrast: single-context GDLN"]["value"] == pytest.approx(0.04)


def test_the_readings_run_from_strict_to_lenient_and_seed_bounds_are_for_identity_only():
    for word in lexicon.WORDS:
        assert lexicon.describe(word).count(";") == len(word.readings) - 1
    with pytest.raises(ValueError, match="strictest"):
        lexicon.Word("closeness", ("x",), "gap", "fraction of L(0)", "<=",
                     (lexicon.Reading("a", 0.1, "r"), lexicon.Reading("b", 0.01, "r")))
    with pytest.raises(ValueError, match="only identity"):
        lexicon.Word("closeness", ("x",), "gap", "fraction of L(0)", "<=",
                     (lexicon.Reading("a", None, "r"), lexicon.Reading("b", 0.01, "r")))


@pytest.mark.parametrize("call, message", [
    (lambda: lexicon.word("kind of close"), "not in the lexicon"),
    (lambda: lexicon.decide("exactly", "gap", _tight(0.001), where="L1", words="x"), "spread is required"),
    (lambda: lexicon.decide("small", "share", 0.1, where="L1", words="x"), "must be a verify.statements.Estimate"),
    (lambda: lexicon.decide("small", "share", {}, where="L1", words="x"), "must be a verify.statements.Estimate"),
    (lambda: lexicon.decide("small", "share", _tight(0.01), where="", words="x"), "where="),
    (lambda: lexicon.decide("small", "share", _tight(0.01), where="L1", words="x", contrast=0.3), "contrast must"),
    (lambda: lexicon.Word("closeness", ("x",), "gap", "furlongs", "<=", (lexicon.Reading("a", 0.1, "r"),)), "unit="),
    (lambda: lexicon.Word("closeness", ("x",), "gap", "ratio", "<", (lexicon.Reading("a", 0.1, "r"),)), "op="),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises((KeyError, TypeError, ValueError), match=message):
        call()
