"""The ``claims`` section that ends every ``pytest verify`` run: verdict counts per paper (this
run, and the whole record), the claims whose verdict differs from the baseline, what was written
where, and, with ``--hypothesis-show-statistics``, what each property search tried."""
from __future__ import annotations

import collections

from theory.verdicts import PRECEDENCE


def _counts(claims) -> dict[str, collections.Counter]:
    out: dict[str, collections.Counter] = {}
    for c in claims:
        out.setdefault(c["paper"], collections.Counter())[c["verdict"]] += 1
    return out


def _count_line(counter) -> str:
    return ", ".join(f"{v} {counter[v]}" for v in PRECEDENCE if counter[v])


def summary_lines(run, show_statistics: bool = False) -> list[tuple[str, dict]]:
    lines: list[tuple[str, dict]] = []
    plain, bold = {}, {"bold": True}
    for note in run.notes:
        lines.append((note, {"yellow": True}))
    if run.records:
        lines.append((f"judged in this run: {len(run.records)} claims", bold))
        for paper, counter in _counts(run.records.values()).items():
            lines.append((f"  {paper:<14} {sum(counter.values()):>4}: {_count_line(counter)}", plain))
        differ = [r for r in run.records.values() if r["verdict"] != r["expected"]]
        lines.append((f"differ from their baseline: {len(differ)}", {"red": bool(differ),
                                                                      "green": not differ}))
        for r in differ:
            lines.append((f"  {r['id']}: {r['verdict']} (expected {r['expected']})", {"red": True}))
    if run.partial:
        lines.append((f"not judged (only some of their tests ran): {', '.join(sorted(run.partial))}",
                      plain))
    if run.doc is not None:
        total = _counts(run.doc["claims"])
        n = sum(sum(c.values()) for c in total.values())
        lines.append((f"record {run.reports_dir / 'claims.json'}: {n} claims", bold))
        for paper, counter in total.items():
            lines.append((f"  {paper:<14} {sum(counter.values()):>4}: {_count_line(counter)}", plain))
        stale = [c["id"] for c in run.doc["claims"] if c["verdict"] != c["expected"]]
        if stale:
            lines.append((f"  differing from the baseline in the record: {', '.join(stale)}", plain))
    if run.written:
        lines.append(("written:", bold))
        lines += [(f"  {path}", plain) for path in run.written]
        lines.append(("one claim in full: python -m theory show ID", plain))
    if show_statistics and run.exploration:
        lines.append(("property searches (examples, worst value, criterion, counterexample):", bold))
        for e in run.exploration:
            cex = f"; counterexample {e['counterexample']}" if e.get("counterexample") else ""
            lines.append((f"  {e['test']} {e['property']}: {e['examples']} examples, worst "
                          f"{e['worst']} {e['criterion']}{cex}", plain))
    return lines
