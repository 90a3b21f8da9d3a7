"""The run record ``reports/claims.json`` (DESIGN.md, "reports/claims.json"): build, merge, keep.

* :func:`claim_record` turns one claim's aggregated checks into its JSON record.
* :func:`provenance` says which run wrote what: time, commit, profile, scale, selection, command
  line and package versions.
* :func:`merge` folds a run's claims into the existing record: a partial run (``--paper``,
  ``--claim``, ``-k``, ``--lf``) replaces only the claims it judged, and each claim keeps the
  provenance of the run that measured it (its ``run`` key).  Figures and exploration entries of
  the tests that ran replace their earlier versions.
* :func:`load` reads the existing record; a corrupt or foreign file is set aside (renamed, never
  overwritten) and reported.
* :func:`paper_scale` reads the committed paper-scale records under ``reports/paper_scale/``.
"""
from __future__ import annotations

import datetime
import json
import platform
from pathlib import Path

from numerics.machine import git_commit

SUITE = "learning-dynamics-claims"
FORMAT = 2
#: The provenance keys a claim keeps from the run that measured it.
RUN_KEYS = ("generated", "commit", "dirty", "profile", "scale")


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def versions() -> dict[str, str]:
    import matplotlib
    import mpmath
    import numpy
    import scipy
    import sympy
    import torch
    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "sympy": sympy.__version__, "mpmath": mpmath.__version__,
            "torch": torch.__version__, "matplotlib": matplotlib.__version__}


def provenance(*, root: Path, profile: str, scale: str, selection: dict, command: str) -> dict:
    commit, dirty = git_commit(root)
    return {"generated": now(), "commit": commit, "dirty": dirty, "profile": profile,
            "scale": scale, "selection": selection, "command": command, "versions": versions()}


def claim_record(claim, result, tests: list[str]) -> dict:
    """The JSON record of one claim from its registry entry and its aggregated checks."""
    record = {
        "id": claim.id, "paper": claim.paper, "where": claim.where, "kind": claim.kind,
        "verdict": result.verdict, "expected": claim.baseline(result.scale), "evidence": result.evidence,
        "checks": len(result.checks), "seconds": round(result.seconds, 3),
        "title": claim.title, "counterexample": result.counterexample,
        "condition": result.condition or claim.condition,
        "reconstructed": claim.reconstructed,
        "measurements": result.measurements,
        "tests": sorted(tests),
    }
    if result.setups:
        record["setups"] = [dict(s.as_dict(), test=test) for test, s in result.setups]
    return record


class RecordProblem(ValueError):
    """The existing claims.json cannot be merged into (corrupt, or not this suite's)."""


def validate(doc) -> dict:
    """``doc`` if it is a claims record of this suite, else :class:`RecordProblem` saying why."""
    if not isinstance(doc, dict):
        raise RecordProblem(f"top level is a {type(doc).__name__}, not an object")
    if doc.get("suite", SUITE) != SUITE:
        raise RecordProblem(f"written by {doc.get('suite')!r}, not {SUITE!r}")
    claims = doc.get("claims")
    if not isinstance(claims, list):
        raise RecordProblem("no 'claims' list")
    from theory.verdicts import VERDICTS
    for k, c in enumerate(claims):
        if not (isinstance(c, dict) and isinstance(c.get("id"), str) and c.get("verdict") in VERDICTS):
            raise RecordProblem(f"claims[{k}] is not a claim record with an id and a verdict")
    return doc


def load(path: Path, set_aside: bool = True) -> tuple[dict | None, str]:
    """The existing record (None if there is none) and a note of what was set aside, if anything.

    A corrupt or foreign file is renamed to ``claims.json.set-aside-<time>`` so nothing is lost
    (with ``set_aside=False`` it is only reported: a reader that writes nothing leaves it).
    """
    if not path.exists():
        return None, ""
    try:
        return validate(json.loads(path.read_text())), ""
    except (ValueError, UnicodeDecodeError) as exc:
        if not set_aside:
            return None, f"{path} is not a claims record of this suite ({exc})"
        aside = path.with_name(f"{path.name}.set-aside-{now().replace(':', '')}")
        path.replace(aside)
        return None, f"{path} could not be merged into ({exc}); set aside as {aside.name}"


def merge(previous: dict | None, run: dict, records: list[dict], figures: list[dict],
          exploration: list[dict], tests_ran: set[str], order: list[str],
          figures_replaced: set[str] | None = None) -> tuple[dict, list[str]]:
    """The merged record and the IDs of stale claims dropped (no longer registered).

    ``run`` is this run's provenance; ``order`` the registered IDs in catalogue order; the
    figures of the tests in ``figures_replaced`` (default ``tests_ran``) are replaced by ``figures``.
    """
    replaced = tests_ran if figures_replaced is None else figures_replaced
    from theory.registry import REGISTRY
    stamp = {k: run[k] for k in RUN_KEYS}
    claims = {}
    dropped = []
    for old in (previous or {}).get("claims", []):
        if old["id"] not in REGISTRY:
            dropped.append(old["id"])
            continue
        claim = REGISTRY[old["id"]]
        # The baseline and the catalogue fields are the registry's, whenever the claim ran.
        claims[old["id"]] = dict(old, expected=claim.expected, where=claim.where, kind=claim.kind,
                                 paper=claim.paper, title=claim.title)
    for rec in records:
        claims[rec["id"]] = dict(rec, run=stamp)
    position = {cid: k for k, cid in enumerate(order)}
    old_figures = [f for f in (previous or {}).get("figures", []) if f.get("test") not in replaced
                   and all(c in REGISTRY for c in f.get("claims", []))]
    old_search = [e for e in (previous or {}).get("exploration", []) if e.get("test") not in tests_ran]
    runs = [r for r in (previous or {}).get("runs", [])] + [dict(stamp, claims=len(records),
                                                                  selection=run["selection"])]
    live = {c["run"]["generated"] for c in claims.values() if isinstance(c.get("run"), dict)}
    doc = dict(run, suite=SUITE, format=FORMAT,
               runs=[r for r in runs if r["generated"] in live],
               claims=sorted(claims.values(), key=lambda c: position.get(c["id"], len(position))),
               figures=old_figures + [dict(f, generated=run["generated"]) for f in figures],
               exploration=old_search + exploration)
    return doc, dropped


def write(path: Path, doc: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1))
    tmp.replace(path)
    return path


def paper_scale(reports_dir: Path) -> dict[str, dict]:
    """claim ID -> {verdict, device, date, file} from ``reports/paper_scale/*.json`` (newest wins)."""
    out: dict[str, dict] = {}
    folder = reports_dir / "paper_scale"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            doc = json.loads(path.read_text())
            entries = doc["claims"].items()
        except (OSError, ValueError, KeyError, AttributeError):
            continue
        for cid, entry in entries:
            row = {"verdict": entry.get("verdict"), "device": doc.get("device", "?"),
                   "date": doc.get("date", "?"), "file": f"paper_scale/{path.name}"}
            if cid not in out or str(row["date"]) > str(out[cid]["date"]):
                out[cid] = row
    return out


def attach_paper_scale(doc: dict, reports_dir: Path) -> dict:
    """Put each claim's paper-scale verdict (if one is committed) beside its ci verdict."""
    scale = paper_scale(reports_dir)
    for claim in doc["claims"]:
        if claim["id"] in scale:
            claim["paper_scale"] = scale[claim["id"]]
        else:
            claim.pop("paper_scale", None)
    return doc
