"""An empirical claim's finding as sentences a researcher reads in one go, from its record.

A measurement the lexicon decided (``source_kind == "lexicon"``, made by
:func:`verify.measurement.measure_readings`) becomes one sentence: the paper's words quoted with
their line, the measured quantity with its interval, seeds and unit, the readings' bounds from
strictest to most lenient and the outcome over them -- at every reading, or where the verdict
flips -- and the paper's own contrast beside it.  Any other decisive measurement (a paper's
direction, a stated number, an exact computation) says what was measured, its value against the
paper's criterion, the outcome and the absolute numbers behind a relative one.  The measurements
that decide are chosen as the verdict rule weighs them: failed ones first, then those that depend
on the reading.
"""
from __future__ import annotations

import re

from verify.measurement import DECISIVE_KINDS, fmt

_LEXICON = re.compile(r"^lexicon (?P<where>.*?): \"(?P<words>.*)\", read by the lexicon's "
                      r"'(?P<phrase>.*?)'")
_PAPER = re.compile(r"^paper (?P<where>.*?): \"(?P<words>.*?)\"(?: \[reading: (?P<reading>.*)\])?$")


def is_decisive(m: dict) -> bool:
    kind = m.get("source_kind") or str(m.get("source", "")).split(" ")[0].rstrip(":")
    return kind in DECISIVE_KINDS


def _quoted(m: dict, pattern) -> tuple[str, str]:
    """The paper's words a measurement's source quotes, and their line ('' '' for none)."""
    found = pattern.match(str(m.get("source", "")))
    return (f"“{found['words']}” ({found['where']})", found["where"]) if found else ("", "")


def _interval(low, high) -> str:
    return f"{fmt(low)} to {fmt(high)}"


def _measured(m: dict) -> str:
    """The quantity's value(s), each with its interval: one per alternative reading."""
    d = m.get("details") or {}
    intervals = d.get("intervals") or {}
    values = m.get("value") if isinstance(m.get("value"), dict) else {"measured": m.get("value")}
    # a reading's label inside the value's parentheses ("0.1 (at epoch 1000; interval ...)"):
    # the labels are phrases of every grammatical kind, which no fixed preposition fits
    parts = [f"{fmt(values.get(alt))} (" + ("" if alt == "measured" else f"{alt}; ")
             + f"interval {_interval(*bounds)})" for alt, bounds in intervals.items()]
    return "; ".join(parts) or fmt(m.get("value"))


def _contrast(d: dict) -> str:
    return "; ".join(
        f"the paper’s contrast, {k.partition(': ')[2] or 'measured alike'}: {fmt(v.get('value'))}"
        + (f" (interval {_interval(*v['interval'])})" if v.get("interval") else "")
        for k, v in d.items() if k.startswith("contrast") and isinstance(v, dict))


def lexicon_sentence(m: dict) -> str:
    """A measurement decided over the lexicon's readings as one sentence (module docstring)."""
    d = m.get("details") or {}
    words, _ = _quoted(m, _LEXICON)
    readings = d.get("readings") or {}
    bounds = ", ".join(f"{fmt(b)} ({name})" for name, b in readings.items())
    op = "at most" if str(m.get("criterion", "")).startswith("<=") else "at least"
    flips = d.get("flip points") or {}
    outcome = ("it holds at every reading" if m.get("passed") else
               "it depends on the reading: it " + " and ".join(
                   f"{k} {fmt(v)}" for k, v in flips.items()) if m.get("undecided") else
               "it fails at every reading")
    seeds = f", {d['seeds']} seeds" if d.get("seeds") else ""
    contrast = _contrast(d)
    return (f"{words or 'The paper’s words'}: {m['name']} is {_measured(m)}{seeds} (unit: "
            f"{d.get('unit', 'as measured')}); read as {op} {bounds}, {outcome}."
            + (f" {contrast[0].upper()}{contrast[1:]}." if contrast else ""))


def _numbers(details) -> str:
    """The scalar numbers behind a relative criterion (means and spreads of a t-test)."""
    if not isinstance(details, dict):
        return ""
    shown = [f"{k} {fmt(v)}" for k, v in details.items()
             if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return ", ".join(shown[:4])


def _reading(m: dict) -> str:
    """The reading range of a sentence the lexicon does not size: the alternative it was
    measured under, and for a bare direction ("lower", "faster": :data:`verify.lexicon.ORDER`)
    its one reading, the direction statistic."""
    parts = [f"under the reading ‘{m['interpretation']}’"] if m.get("interpretation") else []
    if " t-test p " in f" {m.get('name', '')} ":
        # the level is the recorded criterion ('< 0.05'): read from the record, so the report
        # processes need not import the statistics (scipy.stats, a second each)
        level = str(m.get("criterion", "")).removeprefix("<").strip()
        parts.append(f"a direction with no size stated, read one way: the one-sided t-test at "
                     f"level {level}")
    return "; ".join(parts)


def measurement_sentence(m: dict) -> str:
    """A decisive measurement that is not the lexicon's as one sentence: the paper's words if it
    quotes them, what was measured, its value against the criterion, its reading range, the
    outcome."""
    words, _ = _quoted(m, _PAPER)
    numbers = _numbers(m.get("details"))
    reading = _reading(m)
    outcome = "holds" if m.get("passed") else "depends on the reading" if m.get("undecided") else "fails"
    return (f"{words + ': ' if words else ''}{m['name']} is {fmt(m.get('value'))} against "
            f"{m.get('criterion', '')}" + (f" ({reading})" if reading else "")
            + f", so it {outcome}" + (f" ({numbers})" if numbers else "") + ".")


def sentence(m: dict) -> str:
    return lexicon_sentence(m) if m.get("source_kind") == "lexicon" else measurement_sentence(m)


def deciding(ms: list[dict], most: int = 2) -> list[dict]:
    """The decisive measurements, failed ones first, then those that depend on the reading."""
    return sorted([m for m in ms if is_decisive(m)] or ms,
                  key=lambda m: (bool(m.get("passed")), bool(m.get("undecided"))))[:most]


def deciding_numbers(ms: list[dict], most: int = 2) -> str:
    """The deciding measurements (:func:`deciding`) as sentences."""
    return " ".join(sentence(m) for m in deciding(ms, most))


def faithful_cost(setups: list[dict]) -> str:
    costs = sorted({s["cost"] for s in setups if s.get("cost") and not s.get("faithful")})
    return "a faithful run: " + " / ".join(costs) if costs else ""


def why(rec: dict) -> str:
    """Why an empirical claim is not settled, from its record (the verdict rule's reason, without
    repeating the measurements): '' when nothing needs saying."""
    ms = rec.get("measurements") or []
    if not ms:
        return rec.get("evidence", "")
    decisive = [m for m in ms if is_decisive(m)]
    if not decisive:
        return ("no criterion from the paper, its code, an exact computation or the lexicon "
                "was measured; the suite's readings decide nothing on their own")
    undecided = [m for m in decisive if m.get("undecided")]
    if undecided and not any(not m.get("passed") and not m.get("undecided") for m in decisive):
        return "the verdict depends on the reading of the paper's words: " + "; ".join(
            f"{m['name']}: {m['undecided']}" for m in undecided)
    readings: dict[str, bool] = {}
    for m in decisive:
        if m.get("interpretation"):
            readings[m["interpretation"]] = readings.get(m["interpretation"], True) and bool(m["passed"])
    if len(set(readings.values())) > 1:
        return "the sentence is ambiguous and its readings disagree: " + "; ".join(
            f"under '{k}' it {'holds' if ok else 'fails'}" for k, ok in readings.items())
    unfaithful = [s for s in rec.get("setups") or [] if not s.get("faithful")]
    if unfaithful:
        outcome = ("every stated criterion passes" if all(m.get("passed") for m in decisive)
                   else "a stated criterion fails")
        return f"{outcome}, but the run is not faithful; {faithful_cost(unfaithful)}"
    return ""
