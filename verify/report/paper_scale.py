"""Paper-scale records (``--scale=full``): one JSON per full-scale test, written by the plugin under
``<reports-dir>/paper_scale/`` and committed from the repository's ``reports/paper_scale/``.

A record: ``{"experiment", "claims": {ID: {"verdict", "faithful", "measurements", "setups"}},
"device", "wall_s", "started", "commit", "dirty", "imports"}``.  ``wall_s`` is the test's setup and
call time in seconds (its fixtures' runs where this test was the first to use them: a run shared by
several tests is paid for, and recorded, once); ``imports`` maps each project file the test runs
(its module, its conftests, the runners its setups name, and everything they import:
:mod:`verify.report.code`; the configurations and faithfulness settings are among them) to a hash
of its text, so a later run knows when the record predates the code that decided it.  Records
written before ``imports`` (their ``code`` hashed only the test, runner and evidence modules)
cannot say: they are flagged as such.  :func:`write_data` writes the heavier experiments' figure
data and FLOP counts beside, under ``paper_scale/data/`` (same field names).

Every later run, wherever ``--reports-dir`` points, reads the repository's records (and those of
its own reports folder) and shows each claim's paper-scale verdict beside its ci verdict; a
faithful one whose code is unchanged is the claim's headline verdict
(:func:`verify.report.record.headline`); ``pytest verify --stale`` decides again the claims of
the records that may predate their code (:func:`stale_claims`).
"""
from __future__ import annotations

import json
from pathlib import Path

from theory.verdicts import PRECEDENCE, strongest
from verify.measurement import as_json
from verify.report import code
from verify.report.files import write_json

#: the checkout the suite runs from: its committed records are read by every run
ROOT = Path(__file__).resolve().parents[2]
FOLDER = "paper_scale"


def write_record(reports_dir: Path, *, experiment: str, name: str, claims: dict[str, dict],
                 wall_s: float, started: str, imports: dict[str, str]) -> Path:
    """Write ``<reports_dir>/paper_scale/<name>.json`` for one full-scale test."""
    from numerics.machine import device_name, git_commit
    commit, dirty = git_commit()
    doc = {"experiment": experiment, "claims": claims, "device": device_name(),
           "wall_s": round(wall_s, 1), "started": started, "commit": commit, "dirty": dirty,
           "imports": imports}
    return write_json(Path(reports_dir) / FOLDER / f"{name}.json", doc)


def claim_entry(checks) -> dict:
    """The paper-scale entry of one claim from the checks one full-scale test recorded."""
    setups = [s.as_dict() for c in checks for s in c.setups]
    return {"verdict": strongest(c.verdict for c in checks),
            "faithful": bool(setups) and all(s["faithful"] for s in setups),
            "measurements": [dict(m.as_dict(), **({"role": r} if r else {}))
                             for c in checks for r, m in c.measurements],
            "setups": setups}


def write_data(name: str, *, claim: str, verdict: str, measurements, flop: float, wall_s: float,
               started: str, figure: dict, out_dir: Path, **extra) -> Path:
    """Write ``<out_dir>/data/<name>.json``: the figure data and FLOP count of a heavy paper-scale
    experiment, with ``flop / wall_s`` as its achieved FLOP/s (the verdict record itself is the
    plugin's, beside it)."""
    from numerics.machine import device_name, git_commit
    commit, dirty = git_commit()
    doc = {"experiment": name, "claim": claim, "verdict": verdict, "scale": "full",
           "measurements": [m.as_dict() for m in measurements], "flop": flop, "wall_s": wall_s,
           "flop_per_s": flop / wall_s, "started": started, "device": device_name(),
           "commit": commit, "dirty": dirty, "figure": as_json(figure, limit=10 ** 9),
           **as_json(extra)}
    return write_json(Path(out_dir) / "data" / f"{name}.json", doc)


def folders(reports_dir: Path, root: Path = ROOT) -> list[Path]:
    """Where paper-scale records are read: the repository's, then the reports folder's own."""
    out = [root / "reports" / FOLDER]
    mine = Path(reports_dir).resolve() / FOLDER
    return out + ([mine] if mine != out[0].resolve() else [])


def _entries(path: Path, doc: dict, root: Path):
    """(claim ID, row) of one record file; tolerant of records written before the ``imports``,
    ``wall_s`` / ``started`` and ``setups`` fields."""
    imports = doc.get("imports")
    changed = None if imports is None else code.changed(imports, root)
    for cid, entry in doc["claims"].items():
        setups = entry.get("setups") or ([entry["setup"]] if entry.get("setup") else [])
        faithful = entry.get("faithful", bool(setups) and all(s.get("faithful") for s in setups))
        yield cid, {"verdict": entry.get("verdict"), "faithful": bool(faithful),
                    "device": doc.get("device", "?"), "started": doc.get("started", doc.get("date", "?")),
                    "wall_s": doc.get("wall_s", doc.get("wall_seconds")),
                    "commit": str(doc.get("commit", "unknown")), "dirty": bool(doc.get("dirty")),
                    "file": f"{FOLDER}/{path.name}", "experiment": doc.get("experiment", ""),
                    "code_changed": changed,
                    "measurements": entry.get("measurements", []), "setups": setups}


def read(reports_dir: Path, root: Path = ROOT) -> dict[str, dict]:
    """claim ID -> the paper-scale row that decides it (verdict, faithful, device, started,
    wall_s, commit, file, experiment, code_changed: the project files changed since, None when the
    record has no hashes of what it imported).  A claim decided by several tests has one record
    per test; as its checks in one run, the strongest verdict leads (``theory.verdicts.PRECEDENCE``),
    the newest among equals -- not the record written last, which made the headline depend on
    the order the tests ran in."""
    out: dict[str, dict] = {}
    for folder in folders(reports_dir, root):
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
                rows = list(_entries(path, doc, root))
            except (OSError, ValueError, KeyError, AttributeError, TypeError):
                continue
            for cid, row in rows:
                if cid not in out or _leads(row, out[cid]):
                    out[cid] = row
    return out


def _leads(row: dict, other: dict) -> bool:
    """``row`` decides its claim over ``other``: a stronger verdict, or the same and newer."""
    def rank(r):
        v = r.get("verdict")
        return PRECEDENCE.index(v) if v in PRECEDENCE else len(PRECEDENCE)
    if rank(row) != rank(other):
        return rank(row) < rank(other)
    return str(row["started"]) >= str(other["started"])


def attach(doc: dict, reports_dir: Path, root: Path = ROOT) -> dict:
    """Put each claim's paper-scale row (if one is recorded) beside its own verdict."""
    rows = read(reports_dir, root)
    for claim in doc["claims"]:
        if claim["id"] in rows:
            claim["paper_scale"] = rows[claim["id"]]
        else:
            claim.pop("paper_scale", None)
    return doc


def stale(row: dict) -> bool:
    """The record may predate the code that decides it: changed since, or not known."""
    return row.get("code_changed") is None or bool(row["code_changed"])


def stale_claims(reports_dir: Path, root: Path = ROOT) -> set[str]:
    """The claims whose newest paper-scale record may predate the code that decides it."""
    return {cid for cid, row in read(reports_dir, root).items() if stale(row)}


def staleness(row: dict) -> str:
    """'' when the deciding code is as recorded, else what a reader must know."""
    if row.get("code_changed") is None:
        return ("paper-scale record made before it hashed the code it imports: may predate its "
                "code and the rule that decides it, so it does not lead (pytest verify --stale "
                "decides it again)")
    if row["code_changed"]:
        return "predates the code that decides it (changed since: " + ", ".join(row["code_changed"]) + ")"
    return ""
