"""``python -m theory show ID``: one claim in full, from the registry and the last run's record.

Prints the statement, the printed and corrected forms, the verdict beside its baseline (and a
paper-scale verdict when one is committed), every measurement against its criterion with its
source, the setup and its deviations, the counterexample, the condition, the figures, and which
run measured it.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from verify.report import record as R
from verify.measurement import measurement_line
from verify.report.text import clean, run_line, setup_lines

WIDTH = 100


def _block(label: str, text: str) -> list[str]:
    body = textwrap.wrap(str(text), WIDTH - 4) or [""]
    return [f"{label}:"] + ["    " + line for line in body]


def _forms(obj) -> list[str]:
    from verify.report.pdf import forms, latex_of
    return [f"    {name + ': ' if name else ''}{clean(latex_of(part))}" for name, part in forms(obj)]


def show(claim, reports_dir: Path) -> str:
    doc, problem = R.load(reports_dir / "claims.json", set_aside=False)
    rec = next((c for c in (doc or {}).get("claims", []) if c["id"] == claim.id), None)
    lines = [f"{claim.id}  ({claim.paper}, {claim.where}; {claim.kind})"]
    if claim.title:
        lines.append(claim.title)
    lines += _block("As printed", clean(claim.statement))
    lines += _forms(claim.printed)
    if claim.corrected is not None or claim.corrected_statement:
        lines += _block("Corrected", clean(claim.corrected_statement))
        lines += _forms(claim.corrected)
    if problem:
        lines.append(problem)
    if rec is None:
        lines.append(f"Expected verdict: {claim.expected}. Not in the record "
                     f"{reports_dir / 'claims.json'}: run pytest verify --claim '{claim.id}'.")
        return "\n".join(lines)
    mark = "" if rec["verdict"] == claim.expected else "   (!) differs from the baseline"
    lines.append(f"Verdict: {rec['verdict']} (expected {claim.expected}){mark}")
    if rec.get("paper_scale"):
        ps = rec["paper_scale"]
        lines.append(f"Paper scale: {ps['verdict']} on {ps['device']} ({ps['date']}, {ps['file']})")
    if rec.get("condition"):
        lines += _block("Condition", clean(rec["condition"]))
    if rec.get("counterexample"):
        lines += _block("Counterexample", rec["counterexample"])
    if rec.get("measurements"):
        lines.append("Measurements (value against criterion, source):")
        for m in rec["measurements"]:
            text = ("ok   " if m.get("passed") else "FAIL ") + measurement_line(m)
            lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="       ")
    if rec["verdict"] in ("inconclusive", "untested") or not rec.get("measurements"):
        lines += _block("Evidence", rec.get("evidence", ""))
    for setup in rec.get("setups") or []:
        lines.append("Setup:")
        for line in setup_lines(setup):
            lines += textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ")
    figures = [f for f in (doc or {}).get("figures", []) if claim.id in f.get("claims", [])]
    for f in figures:
        lines += _block(f"Figure {reports_dir / f.get('svg', '')}", f["caption"])
    lines.append(f"Run: {run_line(rec.get('run'))}; tests: {', '.join(rec.get('tests', []))}")
    return "\n".join(lines)
