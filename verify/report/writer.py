"""Writing ``reports/``: merge the run into ``claims.json``, then render every report from it.

All reports (the PDFs, ``summary.pdf``, ``html/``) are rendered from the one merged record and the
figure files it indexes, so after any run -- full, partial, serial or xdist -- they show one
consistent state with one provenance.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from verify.report import record as R


def write_run(run, *, provenance: dict, progress=print):
    """Merge ``run``'s judged claims into ``claims.json`` and re-render.

    Returns the record, the paths written, the stale claim IDs dropped and a note of a corrupt or
    foreign ``claims.json`` set aside ('' if none).
    """
    from theory.registry import REGISTRY
    reports = run.reports_dir
    previous, problem = R.load(reports / "claims.json")
    doc, dropped = R.merge(previous, R.provenance(**provenance),
                           [run.records[c] for c in sorted(run.records)], run.figures,
                           run.exploration, run.tests_ran, [c.id for c in REGISTRY],
                           figures_replaced=run.tests_ran if run.pdf else set())
    R.attach_paper_scale(doc, reports)
    written = [R.write(reports / "claims.json", doc)]
    timings = reports / "timings.json"
    timings.write_text(json.dumps({"wall_seconds": round(time.time() - run.started, 2),
                                   "tests": run.timings}, indent=1))
    written.append(timings)
    if run.pdf:
        written += render(reports, doc, progress)
    return doc, written, dropped, problem


def render(reports: Path, doc: dict, progress=print) -> list[Path]:
    """Every report from the record ``doc``: one PDF per paper, summary.pdf, html/."""
    from verify.report import html, pdf
    written = []
    start = time.perf_counter()
    for paper, path in pdf.targets(reports, doc):
        progress(f"writing {path.name} ...")
        written.append(pdf.write_paper(path, paper, doc, reports))
    progress("writing summary.pdf ...")
    written.append(pdf.write_summary(reports, doc))
    progress("writing html/ ...")
    written += html.write(reports, doc)
    progress(f"reports written in {time.perf_counter() - start:.1f} s")
    return written
