"""What the suite found, first: one line per claim that is not ``holds`` or ``defined``, per paper
by title, from the record alone.  The HTML index, ``summary.pdf`` page 1, the terminal's closing
lines and ``python -m verify findings`` (Markdown, for the README's first screen) all open with it.

* an erratum: the printed form against the corrected one;
* a holds-if: the condition the paper leaves out;
* ``fails``, ``not-reproduced``, ``inconclusive``, ``supported``, ``untested``: the deciding
  numbers, and what a faithful run needs and costs.

Each claim is given its headline verdict (:func:`verify.report.record.headline`): a faithful
paper-scale run's where one is recorded, the ci verdict beside it.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass

from theory.verdicts import PRECEDENCE
from verify.measurement import DECISIVE_KINDS, fmt
from verify.report.forms import part_body, part_text
from verify.report.paper_scale import staleness
from verify.report.record import headline, paper_title
from verify.report.text import clean, commit_text

#: the verdicts a findings list names (every other verdict is a confirmation)
FOUND = tuple(v for v in PRECEDENCE if v not in ("holds", "defined"))
LINE = 220  # characters a finding's text is cut to
SIDE = 90  # characters of each side of an erratum


@dataclass(frozen=True)
class Finding:
    claim: str
    paper: str
    where: str
    verdict: str
    #: the ci verdict when a faithful paper-scale run gives the headline, else ''
    ci_verdict: str
    text: str
    #: why the paper-scale headline may be out of date ('' when it is current or absent)
    stale: str = ""


def _cut(text: str, most: int = LINE) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"


def _form(parts: list[dict], statement: str) -> str:
    return "; ".join(part_text(p) for p in parts) if parts else clean(statement)


def _erratum(rec: dict) -> str:
    """Printed against corrected: the first part that differs (parts are paired by name), each
    side cut to a readable length."""
    printed, corrected = rec.get("printed", []), rec.get("corrected", [])
    by_name = {p["name"]: p for p in corrected}
    pairs = [(p, by_name[p["name"]]) for p in printed
             if p["name"] in by_name and part_body(p) != part_body(by_name[p["name"]])]
    if pairs:
        (p, c), more = pairs[0], len(pairs) - 1
        name = f"{p['name']}: " if p["name"] else ""
        return (f"printed {name}{_cut(part_body(p), SIDE)} -> corrected {_cut(part_body(c), SIDE)}"
                + (f" (and {more} more part{'s' * (more > 1)})" if more else ""))
    return (f"printed {_cut(_form(printed, rec.get('statement', '')), SIDE)} -> corrected "
            f"{_cut(_form(corrected, rec.get('corrected_statement', '')), SIDE)}")


def is_decisive(m: dict) -> bool:
    kind = m.get("source_kind") or str(m.get("source", "")).split(" ")[0].rstrip(":")
    return kind in DECISIVE_KINDS


def lexicon_sentence(m: dict) -> str:
    """A measurement decided over the lexicon's readings as one sentence: the paper's words, the
    measured quantity with its interval and unit, the readings' bounds and the outcome (with the
    flip points where it depends on the reading), and the paper's contrast beside."""
    d = m.get("details") or {}
    words = str(m.get("source", "")).partition(": ")[2].split(", read by")[0]
    intervals = "; ".join(f"{'' if k == 'measured' else k + ' '}{fmt(v[0])} to {fmt(v[1])}"
                          for k, v in (d.get("intervals") or {}).items())
    bounds = " | ".join(fmt(b) for b in (d.get("readings") or {}).values())
    outcome = ("holds at every reading" if m.get("passed") else
               "depends on the reading: " + ", ".join(f"{k} {fmt(v)}" for k, v in
                                                      (d.get("flip points") or {}).items())
               if m.get("undecided") else "fails at every reading")
    contrast = "; ".join(f"{k}: {fmt(v.get('value'))}" for k, v in d.items()
                         if k.startswith("contrast") and isinstance(v, dict))
    return (f"{words}: {m['name']} {fmt(m.get('value'))} (interval {intervals}, "
            f"{d.get('unit', '')}) against {bounds}: {outcome}"
            + (f" ({contrast})" if contrast else ""))


def _line(m: dict) -> str:
    if m.get("source_kind") == "lexicon":
        return lexicon_sentence(m)
    return (f"{m['name']}: {fmt(m.get('value'))} {m.get('criterion', '')} "
            f"{'passed' if m.get('passed') else 'FAILED'}"
            + (f" [{fmt(m['details'])}]" if m.get("details") else ""))


def deciding_numbers(ms: list[dict], most: int = 2) -> str:
    """The decisive measurements, failed ones first, then those that depend on the reading: name,
    value, criterion (and the absolute details behind a relative one)."""
    chosen = sorted([m for m in ms if is_decisive(m)] or ms,
                    key=lambda m: (bool(m.get("passed")), bool(m.get("undecided"))))
    return "; ".join(_line(m) for m in chosen[:most])


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


def faithful_cost(setups: list[dict]) -> str:
    costs = sorted({s["cost"] for s in setups if s.get("cost") and not s.get("faithful")})
    return "a faithful run: " + " / ".join(costs) if costs else ""


def _text(rec: dict, verdict: str) -> str:
    ps = rec.get("paper_scale") or {}
    source = ps if verdict == ps.get("verdict") and ps.get("faithful") else rec
    if verdict == "erratum":
        return _erratum(rec)
    if verdict == "holds-if":
        return f"holds if {clean(rec.get('condition', ''))}"
    parts = [deciding_numbers(source.get("measurements") or []) or _cut(rec.get("evidence", ""), 120)]
    if verdict in ("inconclusive", "supported", "untested"):
        parts.append(faithful_cost(source.get("setups") or rec.get("setups") or []))
    return "; ".join(p for p in parts if p)


def findings(doc: dict) -> dict[str, list[Finding]]:
    """paper key -> its findings, in verdict order (strongest first), then catalogue order."""
    out: dict[str, list[Finding]] = collections.defaultdict(list)
    for rec in doc["claims"]:
        verdict, _ = headline(rec)
        if verdict not in FOUND:
            continue
        ps = rec.get("paper_scale") or {}
        from_scale = verdict == ps.get("verdict") and ps.get("faithful") and rec["verdict"] != verdict
        out[rec["paper"]].append(Finding(
            rec["id"], rec["paper"], rec["where"], verdict, rec["verdict"] if from_scale else "",
            _cut(_text(rec, verdict)), staleness(ps) if ps.get("faithful") else ""))
    for paper in out:
        out[paper].sort(key=lambda f: PRECEDENCE.index(f.verdict))
    return dict(out)


def counts(doc: dict, paper: str | None = None) -> collections.Counter:
    """Headline verdicts of the record (of one paper)."""
    return collections.Counter(headline(r)[0] for r in doc["claims"]
                               if paper is None or r["paper"] == paper)


def count_text(counter) -> str:
    return ", ".join(f"{v} {counter[v]}" for v in PRECEDENCE if counter[v])


def verdict_label(f: Finding) -> str:
    return f"{f.verdict} at paper scale (ci: {f.ci_verdict})" if f.ci_verdict else f.verdict


def markdown(doc: dict) -> str:
    """The findings as Markdown: a heading per paper (by title), one bullet per claim."""
    found = findings(doc)
    total = counts(doc)
    lines = ["## What the suite found", "",
             f"{len(doc['claims'])} claims ({count_text(total)}); record {doc.get('generated', '?')}, "
             f"commit {commit_text(doc.get('commit'), doc.get('dirty'))}. Every claim not listed "
             "holds or is a consistent definition. One claim in full: `python -m verify show ID`.", ""]
    for paper in doc.get("papers", {}) or sorted({r["paper"] for r in doc["claims"]}):
        if paper not in found:
            continue
        lines += [f"### {paper_title(doc, paper)}", ""]
        for f in found[paper]:
            stale = f" ({f.stale})" if f.stale else ""
            lines.append(f"- **{verdict_label(f)}** `{f.claim}` ({f.where}): {f.text}{stale}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
