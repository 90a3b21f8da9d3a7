"""The ``claims`` section that ends every ``pytest verify`` run.  It opens with what the suite
found in the claims this run judged (:mod:`.findings`: per paper by title, one line per claim that
is not ``holds`` or ``defined``), then the verdict counts per paper (this run, and the whole
record), the claims whose verdict differs from the baseline, what was written where, and, with
``--hypothesis-show-statistics``, what each property search tried."""
from __future__ import annotations

from verify.measurement import fmt
from verify.report.findings import count_text, counts, findings, verdict_label
from verify.report.record import headline, paper_title


def _per_paper(doc: dict) -> list[tuple[str, dict]]:
    """One line per paper of ``doc``: its claims and their headline verdicts."""
    lines = []
    for paper in dict.fromkeys(c["paper"] for c in doc["claims"]):
        counter = counts(doc, paper)
        lines.append((f"  {paper:<14} {sum(counter.values()):>4}: {count_text(counter)}", {}))
    return lines


def summary_lines(session, show_statistics: bool = False) -> list[tuple[str, dict]]:
    """(line, markup) of the section, from the plugin's :class:`verify.session.ClaimsSession`."""
    plain, bold = {}, {"bold": True}
    lines = [(note, {"yellow": True}) for note in session.notes]
    doc = session.written.doc if session.written is not None else None
    if doc is not None and session.records:
        judged = dict(doc, claims=[c for c in doc["claims"] if c["id"] in session.records])
        found = findings(judged)
        lines.append((f"what the suite found in the {len(session.records)} claims judged "
                      f"(every claim not named holds or is a consistent definition):", bold))
        for paper, items in found.items():
            lines.append((f"  {paper_title(doc, paper)}", bold))
            lines += [(f"    {verdict_label(f)}: {', '.join(f.claims)} ({f.where}): {f.text}"
                       + (f" [{f.stale}]" if f.stale else ""), plain) for f in items]
        if not found:
            lines.append(("  every judged claim holds or is a consistent definition", plain))
    if session.records:
        lines.append((f"judged in this run: {len(session.records)} claims", bold))
        # this run's own verdicts: its records carry no paper-scale row
        lines += _per_paper({"claims": [r.as_json() for r in session.records.values()]})
        differ = [r for r in session.records.values() if r.verdict != r.expected]
        lines.append((f"differ from their baseline: {len(differ)}", {"red": bool(differ),
                                                                      "green": not differ}))
        lines += [(f"  {r.id}: {r.verdict} (expected {r.expected})", {"red": True}) for r in differ]
    if session.partial:
        lines.append((f"not judged (only some of their tests ran): "
                      f"{', '.join(sorted(session.partial))}", plain))
    if doc is not None:
        lines.append((f"record {session.reports_dir / 'claims.json'}: {len(doc['claims'])} claims "
                      "(headline verdicts: a faithful paper-scale run's where recorded)", bold))
        lines += _per_paper(doc)
        if stale := [c["id"] for c in doc["claims"] if headline(c)[0] != headline(c)[1]]:
            lines.append((f"  differing from the baseline in the record: {', '.join(stale)}", plain))
    if session.written is not None and session.written.paths:
        lines.append(("written:", bold))
        lines += [(f"  {path}", plain) for path in session.written.paths]
        lines.append(("one claim in full: python -m verify show ID; the findings as Markdown: "
                      "python -m verify findings", plain))
    if show_statistics and doc is not None:
        lines.append(("property searches (examples, worst value, criterion, counterexample):", bold))
        lines += [(f"  {e['claim']} {e['test']} {e['name']}: {e['examples']} examples, worst "
                   f"{fmt(e['worst'])} {e['criterion']}"
                   + (f"; counterexample {e['counterexample']}" if e.get("counterexample") else ""),
                   plain) for e in doc.get("exploration", []) if e["claim"] in session.records]
    return lines
