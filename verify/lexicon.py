"""The lexicon of the papers' words: every word or phrase that states an empirical outcome, the
quantity it constrains, and its plausible readings from strictest to most lenient
(docs/DESIGN.md, "The lexicon").

A qualitative sentence ("excellent agreement", "small", "most", "shoots up") gives no number.
The suite does not pick one: each :class:`Word` lists the bounds a careful reader of the paper's
figure could hold the sentence to, each with its reason, and :func:`decide` decides over all of
them at once.  The measured quantity is a seed statistic with an interval
(:func:`verify.statements.estimate`, one method suite-wide); a reading passes when the interval
lies wholly on its side of the bound and fails when it lies wholly on the other.  The sentence

* passes when every reading passes,
* fails when every reading fails,
* otherwise *depends on the reading*: the measurement is undecided, and its flip points (the
  bounds at which the verdict changes) are recorded, so the empirical rule makes the claim
  ``inconclusive`` and the reports show where it would flip.

Readings of windows, times and alignments that a sentence allows ("early", "up to a time shift")
are alternatives of the *quantity*: :func:`decide` takes one estimate per alternative, and every
(alternative, bound) pair is a reading of the range.

Seed-level bounds (the same run's seed-to-seed spread) are admitted only for identity words
("exactly", "identical"), and only as the strict end of their range; a closeness word is bounded
on the scale a reader of the paper's figure would see (a fraction of the plotted range).  The
scales used:

* ``fraction of L(0)``: a loss gap over the initial loss, the range of the papers' loss plots;
* ``fraction of the plotted range``: any other curve's gap over the range its axis shows, or a
  share of a whole drawn on [0, 1] (a kernel distance, a share of input directions);
* ``fraction of units`` / ``fraction of weight mass``: a count or mass over its whole;
* ``ratio``: a rate or size over a reference rate or size of the same run;
* ``fraction of training``: a time over the horizon of the run (the paper's clock).

Order words ("faster", "lower", "earlier") state a direction and nothing more: their one reading
is the direction statistic (:func:`verify.statements.direction`); a magnitude modifier ("much
lower") is a growth word on the ratio.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping

from verify.measurement import Measurement, fmt, lexicon_source, measure_readings
from verify.statements import Estimate

#: the scales a word's quantity is measured in (module docstring)
UNITS = ("fraction of L(0)", "fraction of the plotted range", "fraction of units",
         "fraction of weight mass", "ratio", "fraction of training", "same unit as the seed spread")

#: a line on a paper's figure panel is about 1% of the axis: curves closer than that overlap
LINE_WIDTH = 0.01


@dataclass(frozen=True)
class Reading:
    """One plausible reading of a word: a bound on its quantity and why a reader could hold it."""

    name: str
    bound: float | None   # None: the same run's seed spread (identity words only)
    reason: str


@dataclass(frozen=True)
class Word:
    """A kind of empirical sentence: the phrases that state it, the quantity they constrain, in
    what unit, on which side of the bound the sentence holds (``op``), and the readings."""

    kind: str
    phrases: tuple[str, ...]
    quantity: str
    unit: str
    op: str                 # "<=": the quantity must be at most the bound; ">=": at least
    readings: tuple[Reading, ...]

    def __post_init__(self):
        if self.op not in ("<=", ">="):
            raise ValueError(f"op={self.op!r}: a word bounds its quantity with '<=' or '>='")
        if self.unit not in UNITS:
            raise ValueError(f"unit={self.unit!r} is not one of {UNITS}")
        if not self.readings:
            raise ValueError(f"{self.phrases[0]!r} has no readings")
        bounds = [r.bound for r in self.readings if r.bound is not None]
        # strictest first: '<=' words loosen upwards, '>=' words downwards
        if bounds != sorted(bounds, reverse=self.op == ">="):
            raise ValueError(f"{self.phrases[0]!r}: readings must run from strictest to most "
                             f"lenient, got bounds {bounds}")
        if any(r.bound is None for r in self.readings) and self.kind != "identity":
            raise ValueError(f"{self.phrases[0]!r}: only identity words take the seed spread "
                             "as a bound")


_FIGURE = "on the paper's figure"

WORDS: tuple[Word, ...] = (
    Word("identity", ("exactly", "exact agreement", "identical", "near exact", "perfectly",
                      "almost perfect match", "perfect agreement", "exact correspondence"),
         "largest gap between the two curves or outputs", "same unit as the seed spread", "<=", (
             Reading("within seed noise", None,
                     "'exact' cannot be told from the seed-to-seed spread of one network: the "
                     "strictest reader asks for no more difference than two seeds show"),
             Reading("overlapping lines", LINE_WIDTH,
                     f"a line is about 1% of the axis {_FIGURE}: the most lenient reader calls "
                     "curves that overlap at line width exact"))),
    Word("closeness", ("excellent agreement", "closely tracks", "closely aligned",
                       "closely matches", "matched", "closely follows",
                       "closely resemble", "equivalent", "close agreement"),
         "gap between the two curves", "fraction of L(0)", "<=", (
             Reading("overlapping lines", LINE_WIDTH,
                     f"the curves overlap at line width {_FIGURE} (about 1% of the axis)"),
             Reading("within a marker", 0.025,
                     "apart by less than a plotted marker or shaded band (about 2.5% of the axis)"),
             Reading("visibly close", 0.05,
                     "apart by less than a twentieth of the axis: a reader still calls the "
                     "curves close where the paper's own contrast is several times larger"))),
    Word("loose closeness", ("matches", "agrees", "tracks", "aligned", "follows", "similar",
                             "preserve", "evolve like", "transiently linear", "agree", "similarly",
                             "uniformly", "recovers", "consistent", "same variance profiles"),
         "gap between the two curves", "fraction of L(0)", "<=", (
             Reading("within a marker", 0.025,
                     "apart by less than a plotted marker or shaded band (about 2.5% of the axis)"),
             Reading("visibly close", 0.05, "apart by less than a twentieth of the axis"),
             Reading("same shape", 0.10,
                     "apart by less than a tenth of the axis: the same stages at the same times, "
                     "as the paper's words compare shapes rather than values"))),
    Word("smallness", ("small", "few", "little", "slightly", "small shift", "initially only"),
         "the quantity over its whole", "fraction of the plotted range", "<=", (
             Reading("a twentieth", 0.05, "at most a twentieth of the whole"),
             Reading("a tenth", 0.10, "at most a tenth of the whole"),
             Reading("a fifth", 0.20, "at most a fifth: 'small' beside the rest of the figure"))),
    Word("negligibility", ("negligible", "inactive", "vanishes", "zero loss", "near zero",
                           "lazy regime", "remains static", "exclusively", "begin at 0",
                           "was not the case", "increase to their final values", "fixed",
                           "doesn’t change"),
         "the quantity over its whole", "fraction of the plotted range", "<=", (
             Reading("overlapping lines", LINE_WIDTH, f"invisible at line width {_FIGURE}"),
             Reading("a fiftieth", 0.02, "at most a fiftieth of the whole"),
             Reading("a twentieth", 0.05, "at most a twentieth: still 'negligible' beside the rest"))),
    Word("absence", ("no neurons", "none", "no units", "all neurons are active"),
         "share of the units that show the property", "fraction of units", "<=", (
             Reading("none at all", 0.0, "not one unit: the words as written"),
             Reading("threshold artefacts", 0.01,
                     "at most 1% of the units, which a reader of the paper's pathway figure "
                     "would not see and a mass threshold can miscount"))),
    Word("share", ("most", "mostly", "majority", "predominantly", "generally", "vast majority"),
         "share of the whole that shows the property", "fraction of units", ">=", (
             Reading("nearly all", 0.9, "'predominantly' read as nearly all"),
             Reading("two thirds", 2 / 3, "a clear majority"),
             Reading("more than half", 0.5, "the words' minimum: more than half"))),
    Word("growth", ("shoots up", "rapid", "sharp", "sudden", "much"),
         "the change over the named window over a reference change of the same run", "ratio", ">=", (
             Reading("an order of magnitude", 10.0, "ten times the reference: 'shoots up'"),
             Reading("five times", 5.0, "five times the reference"),
             Reading("twice", 2.0, "the least a reader would call 'rapid': twice the reference"))),
    Word("distinctness", ("unable to imitate", "does not imitate", "diverges"),
         "gap between the two curves", "fraction of L(0)", ">=", (
             Reading("clearly apart", 0.05,
                     "apart by more than a twentieth of the axis: no reader calls such curves an "
                     "imitation"),
             Reading("beyond a marker", 0.025,
                     "apart by more than a plotted marker or shaded band (about 2.5% of the axis)"),
             Reading("beyond line width", LINE_WIDTH,
                     f"separate lines {_FIGURE} (more than about 1% of the axis): the most lenient "
                     "reader calls any visible gap a failure to imitate"))),
    Word("difference", ("drastically different", "dramatic"),
         "gap between the two curves", "fraction of L(0)", ">=", (
             Reading("half the axis", 0.5, "the curves part by half the axis: 'drastic' at its "
                     "strictest"),
             Reading("a quarter of the axis", 0.25, "the curves part by a quarter of the axis"),
             Reading("a tenth of the axis", 0.10,
                     "the least a reader of the figure would call 'drastically' different: a "
                     "tenth of the axis, several line widths and markers apart"))),
    Word("earliness", ("early", "initially", "at the start", "in early training"),
         "time of the event over the training horizon", "fraction of training", "<=", (
             Reading("first twentieth", 0.05, "within the first twentieth of training"),
             Reading("first tenth", 0.10, "within the first tenth of training"),
             Reading("first quarter", 0.25, "within the first quarter: still 'early'"))),
)

#: phrase -> the word that covers it
LEXICON: dict[str, Word] = {p: w for w in WORDS for p in w.phrases}

#: the phrases that state a direction only, decided by the direction statistic
ORDER = ("faster", "slower", "lower", "higher", "earlier", "later", "before", "larger",
         "smaller", "more", "less", "increases", "decreases", "delays")

#: the alternatives a timing or alignment phrase allows: the quantity is measured under each
#: (module docstring); the names are what :func:`decide` takes as keys
ALTERNATIVES = {
    "up to a time shift": ("global time shift", "global time rescale", "mode-wise time shift"),
    "during": ("over the whole phase", "at each panel time"),
    "at the end": ("last recorded time", "last tenth of training"),
    "on the plateau": ("whole plateau", "plateau midpoint"),
}


def word(phrase: str) -> Word:
    """The lexicon entry of ``phrase`` (the paper's words as printed, lower case)."""
    if not isinstance(phrase, str) or phrase.strip().lower() not in LEXICON:
        raise KeyError(f"phrase={phrase!r} is not in the lexicon (verify.lexicon.WORDS); add it "
                       "with its quantity, unit and readings before deciding a sentence by it")
    return LEXICON[phrase.strip().lower()]


def _bound(reading: Reading, spread: float | None, phrase: str) -> float:
    if reading.bound is not None:
        return reading.bound
    if spread is None:
        raise ValueError(f"spread is required for {phrase!r}: its strict reading is the same "
                         "run's seed-to-seed spread")
    return float(spread)


def decide(phrase: str, what: str, estimate: Estimate | Mapping[str, Estimate], *, where: str,
           words: str, spread: float | None = None, contrast: Estimate | None = None,
           contrast_name: str = "", details: Mapping | None = None) -> Measurement:
    """Decide the paper's ``words`` (at ``where``) that use ``phrase`` over every reading.

    ``estimate`` is the measured quantity (in the word's unit) with its interval, or one estimate
    per alternative reading of a window, time or alignment (keys: :data:`ALTERNATIVES`' names or
    the caller's panel names).  ``spread`` is the same run's seed spread, the strict bound of an
    identity word.  ``contrast`` is the same quantity for the paper's own contrast ("without
    bias it diverges"), reported beside; it never decides.
    """
    entry = word(phrase)
    alternatives = dict(estimate) if isinstance(estimate, Mapping) else {"": estimate}
    if not alternatives or not all(isinstance(e, Estimate) for e in alternatives.values()):
        raise TypeError("estimate must be a verify.statements.Estimate (or a mapping of "
                        "alternative readings to Estimates)")
    bounds = {r.name: _bound(r, spread, phrase) for r in entry.readings}
    extra = dict(details or {})
    if contrast is not None:
        if not isinstance(contrast, Estimate):
            raise TypeError("contrast must be a verify.statements.Estimate of the same quantity")
        extra[f"contrast: {contrast_name or 'the paper’s contrast'}"] = contrast.as_dict()
    return measure_readings(what, alternatives, entry.op, bounds,
                            source=lexicon_source(where, words, phrase),
                            unit=entry.unit, details=extra)


def describe(entry: Word) -> str:
    """One line per reading of ``entry``: its bound and reason (the docs' table and the reports)."""
    return "; ".join(f"{r.name}: {entry.op} "
                     f"{'the seed spread' if r.bound is None else fmt(r.bound)} ({r.reason})"
                     for r in entry.readings)
