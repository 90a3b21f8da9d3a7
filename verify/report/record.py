"""The run record ``reports/claims.json`` (docs/DESIGN.md, "The record"): its types, merge and load.

* :class:`ClaimRecord` is one judged claim, self-contained: its statement, the printed and
  corrected forms (LaTeX and ``sympy.srepr``), the condition and corrected statement, beside the
  verdict, the measurements and the setup of every run.  Every report renders from the record
  alone, so an old record shows its own forms, never today's registry.
* :class:`Provenance` says which run wrote what; :class:`FigureRecord` is one saved figure;
  :class:`RunRecord` is what a run hands the writer (:mod:`.writer`).  These types cross the
  pytest-xdist worker boundary as their JSON (``as_json`` / ``from_json``), typed at both ends.
* :func:`merge` folds a run into the existing record: a partial run replaces only the claims it
  judged, and each claim keeps the provenance of the run that measured it (its ``run`` key).
* :func:`load` reads the record; a damaged or foreign file raises :class:`RecordDamaged` and is
  never overwritten.  A record of an older format is kept beside (``claims.json.format-N``).
"""
from __future__ import annotations

import dataclasses
import datetime
import importlib
import json
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path

SUITE = "learning-dynamics-claims"
FORMAT = 3
#: The provenance keys a claim keeps from the run that measured it.
RUN_KEYS = ("generated", "commit", "dirty", "profile", "scale", "interrupted")


def now(epoch: float | None = None) -> str:
    """The UTC time of ``epoch`` (default: now), as the record writes it."""
    moment = datetime.datetime.fromtimestamp(time.time() if epoch is None else epoch,
                                             datetime.timezone.utc)
    return moment.isoformat(timespec="seconds")


def versions() -> dict[str, str]:
    return {"python": platform.python_version(), **{
        name: importlib.import_module(name).__version__
        for name in ("numpy", "scipy", "sympy", "mpmath", "torch", "matplotlib")}}


class JsonRecord:
    """JSON form of a dataclass of plain fields (tuples as lists)."""

    def as_json(self) -> dict:
        return {f.name: list(v) if isinstance(v, tuple) else v
                for f in dataclasses.fields(self) for v in [getattr(self, f.name)]}

    @classmethod
    def from_json(cls, doc: dict):
        names = {f.name: f for f in dataclasses.fields(cls)}
        if unknown := set(doc) - set(names):
            raise RecordDamaged(f"{cls.__name__} has no fields {sorted(unknown)}")
        return cls(**{k: tuple(v) if isinstance(v, list) and names[k].type.startswith("tuple")
                      else v for k, v in doc.items()})


@dataclass(frozen=True)
class Provenance(JsonRecord):
    generated: str
    commit: str
    dirty: bool
    profile: str
    scale: str
    selection: dict
    command: str
    versions: dict
    #: the run stopped early (Ctrl-C, -x, --maxfail): its record holds the claims judged so far
    interrupted: bool = False

    @classmethod
    def of_this_run(cls, *, root: Path, profile: str, scale: str, selection: dict, command: str,
                    interrupted: bool = False) -> Provenance:
        from numerics.machine import git_commit
        commit, dirty = git_commit(root)
        return cls(now(), commit, dirty, profile, scale, selection, command, versions(),
                   interrupted)


@dataclass(frozen=True)
class ClaimRecord(JsonRecord):
    id: str
    paper: str
    where: str
    kind: str
    title: str
    statement: str
    verdict: str
    expected: str
    evidence: str
    checks: int
    seconds: float
    tests: tuple[str, ...]
    measurements: tuple[dict, ...] = ()
    setups: tuple[dict, ...] = ()
    printed: tuple[dict, ...] = ()
    corrected: tuple[dict, ...] = ()
    corrected_statement: str = ""
    condition: str = ""
    counterexample: str = ""
    expected_full: str = ""
    reconstructed: bool = False
    notes: str = ""
    #: an empirical claim's clauses -> the measurement deciding each, or "not testable: why"
    clauses: dict = field(default_factory=dict)
    #: 'full' when a paper-scale run decided the verdict, else 'ci'
    scale: str = "ci"

    @classmethod
    def of(cls, claim, result, tests) -> ClaimRecord:
        """The record of ``claim`` (a registry entry) from its aggregated checks ``result``."""
        from verify.report.forms import form_parts
        read = object.__getattribute__  # the forms are copied, not read by a check
        return cls(
            id=claim.id, paper=claim.paper, where=claim.where, kind=claim.kind,
            title=claim.title, statement=claim.statement, verdict=result.verdict,
            expected=claim.baseline(result.scale), evidence=result.evidence,
            checks=len(result.checks), seconds=round(result.seconds, 3), tests=tuple(sorted(tests)),
            measurements=tuple(result.measurements),
            setups=tuple(dict(s.as_dict(), test=test) for test, s in result.setups),
            printed=tuple(form_parts(read(claim, "printed"))),
            corrected=tuple(form_parts(read(claim, "corrected"))),
            corrected_statement=claim.corrected_statement,
            condition=result.condition or claim.condition, counterexample=result.counterexample,
            expected_full=claim.expected_full, reconstructed=claim.reconstructed,
            notes=claim.notes, clauses=dict(claim.clauses), scale=result.scale)


@dataclass(frozen=True)
class FigureRecord(JsonRecord):
    png: str
    caption: str
    claims: tuple[str, ...]
    test: str


@dataclass(frozen=True)
class Timing(JsonRecord):
    seconds: float
    claims: tuple[str, ...]


@dataclass
class RunRecord:
    """What one run hands the writer: its provenance, the claims it judged, the figures its tests
    saved, the tests that ran (their figures and timings replace the old ones)."""

    provenance: Provenance
    claims: list[ClaimRecord]
    figures: list[FigureRecord] = field(default_factory=list)
    tests_ran: set[str] = field(default_factory=set)
    #: tests whose old figures this run replaces (none under --no-pdf, which saves no figures)
    figures_replaced: set[str] = field(default_factory=set)
    timings: dict[str, Timing] = field(default_factory=dict)
    wall_s: float = 0.0
    #: every claim test this run collected, before any selection (an old figure of a test no
    #: longer among them is dropped, :func:`merge`)
    tests_known: set[str] = field(default_factory=set)


class RecordDamaged(ValueError):
    """``claims.json`` is damaged or not this suite's: nothing is merged into it or rendered
    from it, and it is never overwritten."""


def validate(doc) -> dict:
    """``doc`` if it is a claims record of this suite, else :class:`RecordDamaged` saying why."""
    if not isinstance(doc, dict):
        raise RecordDamaged(f"top level is a {type(doc).__name__}, not an object")
    if doc.get("suite", SUITE) != SUITE:
        raise RecordDamaged(f"written by {doc.get('suite')!r}, not {SUITE!r}")
    claims = doc.get("claims")
    if not isinstance(claims, list):
        raise RecordDamaged("no 'claims' list")
    from theory.verdicts import VERDICTS
    for k, c in enumerate(claims):
        if not (isinstance(c, dict) and isinstance(c.get("id"), str) and c.get("verdict") in VERDICTS):
            raise RecordDamaged(f"claims[{k}] is not a claim record with an id and a verdict")
    return doc


def load(path: Path) -> dict | None:
    """The record at ``path`` (None if there is none); :class:`RecordDamaged` if it cannot be
    read as one."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        return validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordDamaged(f"{path} is not a claims record of this suite ({exc}); nothing was "
                            f"written. Restore it (git, a backup) or move it aside "
                            f"(mv {path} {path}.damaged) and rerun") from None


def load_current(path: Path) -> tuple[dict | None, str]:
    """The record to merge into: an older format is renamed to ``claims.json.format-N`` (kept,
    not merged: its claims lack the self-contained fields) with a note saying so."""
    doc = load(path)
    if doc is None or doc.get("format") == FORMAT:
        return doc, ""
    aside = path.with_name(f"{path.name}.format-{doc.get('format', 1)}")
    from numerics import atomic
    atomic.write_text(aside, path.read_text(encoding="utf-8"))  # a copy: the record is a published link
    return None, (f"{path} was written in record format {doc.get('format', 1)} (this suite writes "
                  f"{FORMAT}); kept as {aside.name}, and a new record started")


def merge(previous: dict | None, run: RunRecord, order: list[str],
          registered=None, root: Path | None = None) -> tuple[dict, list[str]]:
    """The merged record and the IDs of stale claims dropped (no longer registered).

    ``order`` is the registered IDs in catalogue order; ``registered`` maps an ID to its registry
    entry (the baseline ``expected`` of a claim not rerun follows the registry; everything the
    claim's measurements rest on -- statement, forms -- stays as recorded).  An old figure stays
    while its test does (:func:`_still_a_test`, test files under ``root``).
    """
    registered = registered or {}
    prov = run.provenance.as_json()
    stamp = {k: prov[k] for k in RUN_KEYS}
    claims, dropped = {}, []
    for old in (previous or {}).get("claims", []):
        if old["id"] not in order:
            dropped.append(old["id"])
            continue
        claim = registered.get(old["id"])
        claims[old["id"]] = old if claim is None else dict(
            old, expected=claim.baseline(old.get("scale", "ci")), expected_full=claim.expected_full)
    for rec in run.claims:
        claims[rec.id] = dict(rec.as_json(), run=stamp)
    position = {cid: k for k, cid in enumerate(order)}
    collected_files = {t.split("::")[0] for t in run.tests_known}
    old_figures = [f for f in (previous or {}).get("figures", [])
                   if f.get("test") not in run.figures_replaced
                   and all(c in claims for c in f.get("claims", []))
                   and _still_a_test(str(f.get("test")), run.tests_known, collected_files, root)]
    runs = list((previous or {}).get("runs", [])) + [dict(stamp, claims=len(run.claims),
                                                          selection=prov["selection"])]
    live = {c["run"]["generated"] for c in claims.values() if isinstance(c.get("run"), dict)}
    ordered = sorted(claims.values(), key=lambda c: position.get(c["id"], len(position)))
    doc = dict(prov, suite=SUITE, format=FORMAT, papers=_papers(previous, ordered),
               runs=[r for r in runs if r["generated"] in live], claims=ordered,
               figures=old_figures + [dict(f.as_json(), generated=prov["generated"])
                                      for f in run.figures],
               exploration=searches(ordered))
    return doc, dropped


def _still_a_test(test: str, known: set, collected_files: set, root: Path | None) -> bool:
    """Whether an old figure's test is still in the suite: collected by this run, or in a file
    this run did not collect that still exists under ``root`` (a run of part of the suite can
    tell no more).  A test renamed, moved or deleted would otherwise keep its figure forever."""
    file = test.split("::")[0]
    if file in collected_files:
        return test in known
    return root is None or (Path(root) / file).is_file()


def _papers(previous: dict | None, claims: list[dict]) -> dict:
    """paper key -> {title, prefix}: the record names its papers itself."""
    from theory.registry import PAPERS, TITLES
    known = dict((previous or {}).get("papers", {}))
    for key in dict.fromkeys(c["paper"] for c in claims):
        if key in PAPERS:
            known[key] = {"title": TITLES[key], "prefix": PAPERS[key]}
    return {k: known[k] for k in [*PAPERS, *known] if k in known and
            any(c["paper"] == k for c in claims)}


def searches(claims: list[dict]) -> list[dict]:
    """Every hypothesis search behind the record: the measurements that carry an example count."""
    return [{"claim": c["id"], "test": m.get("test", ""), "name": m["name"],
             "examples": m["examples"], "worst": m.get("value"), "criterion": m.get("criterion", ""),
             "passed": m.get("passed"), "counterexample": m.get("counterexample", "")}
            for c in claims for m in c.get("measurements", []) if m.get("examples") is not None]


def paper_title(doc: dict, paper: str) -> str:
    entry = doc.get("papers", {}).get(paper, {})
    return f"{entry['title']} ({entry['prefix']}*)" if entry else paper


def headline(rec: dict) -> tuple[str, str]:
    """The verdict a report leads with and its baseline: a faithful paper-scale run's where one
    is recorded and the code it imported is known to be unchanged since, else the run's own (a
    record made before records hashed their imports may have been decided by a rule the suite
    no longer has: it is shown, flagged, but does not lead)."""
    ps = rec.get("paper_scale") or {}
    if ps.get("faithful") and ps.get("code_changed") == [] and rec.get("scale") != "full":
        return ps["verdict"], rec.get("expected_full") or rec["expected"]
    return rec["verdict"], rec["expected"]


def figure_order(doc: dict, paper: str) -> list[dict]:
    """The paper's figures in the paper's order (record order of their first claim)."""
    order = {c["id"]: k for k, c in enumerate(doc["claims"])}
    owner = {c["id"]: c["paper"] for c in doc["claims"]}
    mine = [f for f in doc.get("figures", []) if any(owner.get(c) == paper for c in f["claims"])]
    return sorted(mine, key=lambda f: (min(order[c] for c in f["claims"] if owner.get(c) == paper),
                                       f["caption"]))
