"""Writing ``reports/``: merge a run into ``claims.json`` and ``timings.json``, render every
report from the merged record, and publish them together (:mod:`.generations`), all under the
reports folder's lock (:mod:`.files`).

All reports (the PDFs, ``summary.pdf``, ``html/``) are rendered from the one merged record and the
figure files it indexes, so after any run -- full, partial, serial, xdist, concurrent or
interrupted -- they show one consistent state with one provenance.  A run with ``--no-pdf``
publishes the record without PDFs or HTML: reports of an older record are not kept beside it.
"""
from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from verify.report import files, generations, paper_scale
from verify.report import record as R


@dataclass
class Written:
    doc: dict
    paths: list[Path] = field(default_factory=list)
    #: stale claim IDs dropped from the old record (no longer registered)
    dropped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def write_run(run: R.RunRecord, reports: Path, *, render_reports: bool, progress=print,
              root: Path = paper_scale.ROOT, stage: Path | None = None) -> Written:
    """Merge ``run`` into ``reports/claims.json`` and ``timings.json``, render if asked, and
    publish them with the figures (this run's from ``stage``) as one generation.

    ``root`` is the project whose paper-scale records and code the record's rows are checked
    against.  Raises :class:`verify.report.record.RecordDamaged` (writing nothing) when the
    existing record cannot be read.
    """
    from theory.registry import REGISTRY
    with files.lock(reports):
        generations.remove_orphans(reports)
        previous, note = R.load_current(reports / "claims.json")
        doc, dropped = R.merge(previous, run, [c.id for c in REGISTRY], {c.id: c for c in REGISTRY},
                               root)
        paper_scale.attach(doc, reports, root)
        timings = merged_timings(reports / "timings.json", run)
        published = generations.current(reports)

        def build(generation: Path):
            generations.gather_figures(generation, doc["figures"],
                                       [s for s in (stage, published) if s is not None])
            files.write_json(generation / "claims.json", doc)
            files.write_json(generation / "timings.json", timings)
            if render_reports and doc["claims"]:
                render(generation, doc, progress)
        out = Written(doc, generations.publish(reports, build), dropped, [note] if note else [])
    if stage is not None:
        shutil.rmtree(stage, ignore_errors=True)
    return out


def rerender(reports: Path) -> list[Path] | None:
    """Render every report again from the published ``claims.json`` (with the paper-scale records
    as they are now) and publish them; None when there is no record."""
    with files.lock(reports):
        generations.remove_orphans(reports)
        doc = R.load(reports / "claims.json")
        if doc is None:
            return None
        paper_scale.attach(doc, reports)
        published = generations.current(reports)

        def build(generation: Path):
            for name in ("claims.json", "timings.json"):
                if (published / name).is_file():
                    shutil.copy2(published / name, generation / name)
            generations.gather_figures(generation, doc["figures"], [published])
            render(generation, doc)
        return generations.publish(reports, build)


def _timing_entries(path: Path) -> dict:
    try:
        tests = json.loads(path.read_text(encoding="utf-8"))["tests"] if path.exists() else {}
        if not isinstance(tests, dict):
            raise ValueError("'tests' is not an object")
    except (OSError, ValueError, KeyError, TypeError):
        tests = {}  # derived data: a damaged file is rebuilt from the runs that follow
    return tests


def load_timings(path: Path) -> dict[str, float]:
    """Seconds per test node ID in ``timings.json`` ({} where it is missing or damaged)."""
    entries = _timing_entries(path)
    return {k: float(v["seconds"]) for k, v in entries.items()
            if isinstance(v, dict) and isinstance(v.get("seconds"), (int, float))}


def merged_timings(path: Path, run: R.RunRecord) -> dict:
    """``timings.json``: seconds per test, the tests of this run replacing their old entries (the
    bench reads it, a partial run keeps the others'; xdist orders the claim blocks by it)."""
    tests = {k: v for k, v in _timing_entries(path).items() if k not in run.timings}
    tests.update({k: dict(t.as_json(), generated=run.provenance.generated)
                  for k, t in run.timings.items()})
    return {"generated": run.provenance.generated, "wall_s": round(run.wall_s, 2), "tests": tests}


#: processes that render reports side by side (the PDFs are independent of each other)
RENDER_WORKERS = 2
#: records with fewer claims render in this process
SMALL = 60
#: the render jobs of the whole record, after the one PDF per paper
WHOLE_RECORD = (("summary", ""), ("html", ""))


def _render_one(kind: str, reports: Path, doc: dict, paper: str = "") -> list[Path]:
    from verify.report import html, pdf
    if kind == "paper":
        return [pdf.write_paper(reports / f"{paper}.pdf", paper, doc, reports)]
    if kind == "summary":
        return [pdf.write_summary(reports, doc)]
    return html.write(reports, doc)


def _ignore_interrupts() -> None:
    """A render worker leaves Ctrl-C to the writer, which publishes nothing and says so once
    (a terminal's Ctrl-C reaches the whole process group)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def render(reports: Path, doc: dict, progress=print, workers: int | None = None) -> list[Path]:
    """Every report from the record ``doc``: one PDF per paper, summary.pdf, html/; rendered by
    ``workers`` processes (default: up to :data:`RENDER_WORKERS`, one per core)."""
    import concurrent.futures as cf
    import multiprocessing
    import os
    papers = list(dict.fromkeys(c["paper"] for c in doc["claims"]))
    # a paper's cost: its text and figures
    owner = {c["id"]: c["paper"] for c in doc["claims"]}
    weight = {p: 0 for p in papers}
    for c in doc["claims"]:
        weight[c["paper"]] += len(c.get("measurements", [])) + 3
    for f in doc.get("figures", []):
        for p in {owner[c] for c in f["claims"] if c in owner}:
            weight[p] += 40
    # summary.pdf and html/ each took about a sixth of the five paper PDFs together (2.7 s against
    # 13 s, measured); longest first, two processes take the jobs in turn and end together
    cost = {("paper", p): w for p, w in weight.items()}
    cost.update(dict.fromkeys(WHOLE_RECORD, sum(weight.values()) / 6))
    jobs = sorted(cost, key=cost.get, reverse=True)
    names = {"summary": "summary.pdf", "html": "html/"}
    # a small record renders faster in this process than a second one starts
    workers = workers or (min(RENDER_WORKERS, os.cpu_count() or 1) if len(doc["claims"]) >= SMALL
                          else 1)
    start = time.perf_counter()
    out: dict[tuple, list[Path]] = {}
    if workers == 1:
        for job in jobs:
            progress(f"writing {names.get(job[0]) or job[1] + '.pdf'} ...")
            out[job] = _render_one(job[0], reports, doc, job[1])
    else:
        progress(f"writing {len(jobs) - 2} paper PDFs, summary.pdf and html/ in {workers} processes ...")
        # spawn: a fork of a process holding torch's thread pools can hang
        pool = cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                      initializer=_ignore_interrupts)
        try:
            futures = {pool.submit(_render_one, kind, reports, doc, paper): (kind, paper)
                       for kind, paper in jobs}
            for future in cf.as_completed(futures):
                kind, paper = futures[future]
                out[(kind, paper)] = future.result()
                progress(f"wrote {names.get(kind) or paper + '.pdf'}")
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)  # Ctrl-C: stop now, publish nothing
            raise
        # waited for (0.7 s, the workers' exit): a pool left to exit by itself is joined at
        # interpreter exit, where a Ctrl-C prints a traceback instead of the writer's one line
        pool.shutdown()
    progress(f"reports written in {time.perf_counter() - start:.1f} s")
    order = [("paper", p) for p in papers] + list(WHOLE_RECORD)
    return [path for job in order for path in out[job]]
