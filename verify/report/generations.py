"""A run's reports appear together or not at all (docs/DESIGN.md, "Reports").

One file is renamed atomically (:mod:`.files`); a set of files is not.  So a writer builds every
report of a run -- ``claims.json``, ``timings.json``, the PDFs, ``html/``, ``figures/`` -- in a
fresh *generation* folder ``<reports>/.gen-<pid>-<ns>/`` and publishes it by renaming one link,
``<reports>/.current``, onto it.  Each report name in the reports folder is a link through that
one (``claims.json -> .current/claims.json``), so one rename switches them all: a reader, or a
run killed at any moment, sees the old set or the new set, never a mixture.

A name a new generation adds is linked before the switch (the link leads nowhere until then,
as the name was absent before); a name it drops is unlinked after.  Figures a test saves during
the run wait in a stage folder ``<reports>/.stage-<pid>/`` until the generation takes them.
Whatever a killed writer left (a generation never published, a stage whose run is gone, its
temporary files) is removed by the next writer (:func:`remove_orphans`).  A reports folder
written before generations is taken over once: its reports are linked into a first generation
unchanged, then each name becomes a link (a folder's name is missing for the moment of two
renames; a run killed there leaves it to the next writer, which completes the take-over).

Every function here runs under the reports folder's lock (:func:`verify.report.files.lock`).
"""
from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from verify.report import files

CURRENT = ".current"
GENERATION = ".gen-"
STAGE = ".stage-"
ASIDE = ".aside-"
#: files the renderers read in the reports folder but no run writes (the committed benchmarks):
#: linked into each generation for the renderers, never published as a generation's own
INPUTS = ("bench.json", "full_scale.json")
#: what a run writes, besides a PDF per paper: a plain file or folder of these names (or of
#: ``*.pdf``) in the reports folder is a report of the layout before generations
REPORTS = ("claims.json", "timings.json", "html", "figures")


def current(reports: Path) -> Path:
    """The folder the published reports are read from: the generation ``.current`` names, else
    the reports folder itself (nothing published yet)."""
    link = Path(reports) / CURRENT
    return link.resolve() if link.is_symlink() and link.resolve().is_dir() else Path(reports)


def stage(reports: Path, owner: int | None = None) -> Path:
    """Where the run of process ``owner`` (default: this one) keeps its figures until it
    publishes: one folder per run, shared by its xdist workers."""
    return Path(reports) / f"{STAGE}{os.getpid() if owner is None else owner}"


def _owner(name: str, prefix: str) -> int | None:
    head = name[len(prefix):].split("-")[0]
    return int(head) if name.startswith(prefix) and head.isdigit() else None


def remove_orphans(reports: Path) -> list[str]:
    """Remove what killed writers left: generations never published (or replaced), stages of
    runs that are gone, folders set aside by an interrupted take-over, temporary files of
    writers that are gone.  The names removed."""
    reports = Path(reports)
    if not reports.is_dir():
        return []
    published = current(reports)
    removed = []
    for path in reports.iterdir():
        name = path.name
        owner = _owner(name, STAGE)
        if (name.startswith(GENERATION) and path.resolve() != published
                or owner is not None and not files.alive(owner)
                or name.startswith(ASIDE)):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(name)
    for link in _links(reports).values():
        if not link.exists():  # linked by a writer killed before its switch
            link.unlink()
    removed += [p.name for p in files.remove_orphans(reports)]
    return removed


def _links(reports: Path) -> dict[str, Path]:
    """name -> path of each report link through ``.current``."""
    out = {}
    for path in reports.iterdir():
        if path.is_symlink() and os.readlink(path).startswith(CURRENT + os.sep):
            out[path.name] = path
    return out


def _is_report(path: Path) -> bool:
    return path.name in REPORTS or path.suffix == ".pdf"


def _take_over(reports: Path) -> None:
    """Publish the reports of the layout before generations, unchanged, in a generation of
    their own with what is published already (a take-over a kill interrupted)."""
    legacy = [p for p in reports.iterdir() if _is_report(p) and not p.is_symlink()]
    if not legacy:
        return
    first, published = _fresh(reports), current(reports)
    sources = [published / name for name in _links(reports) if (published / name).exists()]
    try:
        for path in sources + legacy:
            if path.is_dir():
                shutil.copytree(path, first / path.name, copy_function=os.link)
            else:
                os.link(path, first / path.name)
    except BaseException:
        shutil.rmtree(first, ignore_errors=True)
        raise
    _switch(reports, first)
    for path in legacy:
        aside = reports / f"{ASIDE}{os.getpid()}-{path.name}"
        if path.is_dir():  # a folder cannot be renamed over: set it aside, then link
            path.rename(aside)
        _link(reports, path.name)
        shutil.rmtree(aside, ignore_errors=True)
    if published != reports:
        shutil.rmtree(published, ignore_errors=True)


def _fresh(reports: Path) -> Path:
    folder = reports / f"{GENERATION}{os.getpid()}-{time.time_ns()}"
    folder.mkdir()
    return folder


def _link(reports: Path, name: str) -> None:
    """``<reports>/<name> -> .current/<name>``, renamed into place."""
    tmp = reports / f".{name}.{os.getpid()}.link.tmp"
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(Path(CURRENT) / name)
    os.replace(tmp, reports / name)


def _switch(reports: Path, generation: Path) -> None:
    """The one rename that publishes ``generation``."""
    tmp = reports / f".{CURRENT}.{os.getpid()}.switch.tmp"
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(generation.name)
    os.replace(tmp, reports / CURRENT)


def publish(reports: Path, build: Callable[[Path], object]) -> list[Path]:
    """Build a generation with ``build(folder)`` and publish it; the reports it published, as
    paths through their links (the figures, which the reports show, left out).  An interrupted
    build publishes nothing and removes its folder."""
    reports = Path(reports)
    reports.mkdir(parents=True, exist_ok=True)
    _take_over(reports)
    generation = _fresh(reports)
    try:
        for name in INPUTS:
            if (reports / name).is_file():
                (generation / name).symlink_to(Path("..") / name)
        build(generation)
        names = sorted(p.name for p in generation.iterdir()
                       if p.name not in INPUTS and not p.name.startswith("."))
        before = _links(reports)
        for name in names:
            if name not in before:
                _link(reports, name)  # leads nowhere until the switch: absent, as before
        old = current(reports)
    except BaseException:
        shutil.rmtree(generation, ignore_errors=True)
        raise
    _switch(reports, generation)
    for name in set(before) - set(names):
        (reports / name).unlink(missing_ok=True)
    if old != reports and old != generation:
        shutil.rmtree(old, ignore_errors=True)
    return [reports / path.relative_to(generation) for name in names if name != "figures"
            for path in sorted(_files(generation / name))]


def _files(path: Path) -> list[Path]:
    return [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]


def gather_figures(generation: Path, figures: list[dict], sources: list[Path]) -> None:
    """Put each figure file the record indexes into ``generation``, from the first of
    ``sources`` (this run's stage, then the published generation) that holds it: linked, not
    copied, where the file system allows."""
    for figure in figures:
        relative = figure.get("png")
        source = next((s / relative for s in sources if relative and (s / relative).is_file()),
                      None)
        if source is None:
            continue
        target = generation / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            try:
                os.link(source, target)
            except OSError:
                shutil.copy2(source, target)
