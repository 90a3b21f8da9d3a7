"""``python -m verify show ID``: one claim in full, from ``claims.json`` alone.

Opens with a one-line summary (the headline verdict beside its baseline, the ci verdict beside a
faithful paper-scale one, the title), then the statement with the printed and corrected forms as
recorded, the condition and counterexample, each source quoted once (the measurements point to it
by number), every measurement against its criterion with the absolute values behind it, the setup
of every run, the paper-scale record (with its commit, and a flag when it predates the code that
decides it), the figures, and which run measured it.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from verify.measurement import fmt, measurement_line
from verify.report.sentences import why
from verify.report.forms import part_text
from verify.report.paper_scale import staleness
from verify.report.record import headline, paper_title
from verify.report.text import (clean, paper_scale_line, run_line, setup_lines, source_text,
                                statement_parts)

WIDTH = 100


def _wrap(text: str, indent: str = "  ", more: str = "      ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=more) or [indent]


def _block(label: str, text: str) -> list[str]:
    return [f"{label}:"] + _wrap(str(text), "    ", "    ")


def summary(rec: dict) -> str:
    """The one-line summary that opens ``show``."""
    verdict, expected = headline(rec)
    ci = f" at paper scale (ci: {rec['verdict']})" if verdict != rec["verdict"] or (
        rec.get("paper_scale", {}).get("faithful") and rec.get("scale") != "full") else ""
    mark = "" if verdict == expected else "  (!) differs from the baseline"
    title = f" -- {clean(rec['title'])}" if rec.get("title") else ""
    return f"{rec['id']}: {verdict}{ci} (expected {expected}){mark}{title}"


def _measurements(ms: list[dict], sources: dict[str, int]) -> list[str]:
    lines = []
    for m in ms:
        ref = f" [{sources.setdefault(m['source'], len(sources) + 1)}]" if m.get("source") else ""
        mark = "ok   " if m.get("passed") else "READ " if m.get("undecided") else "FAIL "
        lines += _wrap(mark + measurement_line(m, with_source=False)
                       + ref, "  ", "       ")
        if m.get("details"):
            lines += _wrap(f"absolute values: {fmt(m['details'])}", "       ", "         ")
    return lines


def show_record(rec: dict, doc: dict, reports_dir: Path) -> str:
    lines = [summary(rec),
             f"{paper_title(doc, rec['paper'])}; {rec['where']}; {rec['kind']}"
             + (" [statement reconstructed by the catalogue]" if rec.get("reconstructed") else "")]
    for label, text, parts in statement_parts(rec):
        lines += _block(label, text) + ["    " + part_text(p, rec["paper"]) for p in parts]
    sources: dict[str, int] = {}
    body = []
    if rec.get("measurements"):
        body.append("Measurements (value against criterion, [source]):")
        body += _measurements(rec["measurements"], sources)
    if rec["verdict"] in ("inconclusive", "untested", "supported") and why(rec):
        body += _block("Why", why(rec))
    setups = rec.get("setups") or []
    for k, setup in enumerate(setups, 1):
        body.append(f"Setup {k} of {len(setups)}:" if len(setups) > 1 else "Setup:")
        body += [w for line in setup_lines(setup) for w in _wrap(line, "  ", "    ")]
    if ps := rec.get("paper_scale"):
        body.append(f"Paper scale: {paper_scale_line(ps)}, {ps['file']}")
        if stale := staleness(ps):
            body += _wrap(f"(!) {stale}", "  ", "    ")
        body += _measurements(ps.get("measurements", []), sources)
    if sources:
        lines.append("Sources:")
        lines += [w for source, n in sorted(sources.items(), key=lambda kv: kv[1])
                  for w in _wrap(f"[{n}] {source_text(source)}", "  ", "      ")]
    lines += body
    for f in [f for f in doc.get("figures", []) if rec["id"] in f.get("claims", [])]:
        lines += _block(f"Figure {reports_dir / f.get('png', '')}", f["caption"])
    lines.append(f"Run: {run_line(rec.get('run'))}; tests: {', '.join(rec.get('tests', []))}")
    return "\n".join(lines)
