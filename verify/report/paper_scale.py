"""Paper-scale records (``--scale=full``): one JSON per full-scale test, written by the plugin under
``<reports-dir>/paper_scale/`` and committed from the repository's ``reports/paper_scale/``.

A record: ``{"experiment", "claims": {ID: {"verdict", "faithful", "measurements", "setups"}},
"device", "wall_s", "started", "commit", "dirty", "code"}``.  ``wall_s`` is the test's setup and
call time in seconds (its fixtures' runs where this test was the first to use them: a run shared by
several tests is paid for, and recorded, once); ``code`` maps each file that decides the claims (the test module, the runners
named by the setups, the paper's evidence module) to a hash of its text, so a report can say when
the record predates the code that decides it.  :func:`write_data` writes the heavier experiments'
figure data and FLOP counts beside, under ``paper_scale/data/`` (same field names).

Every later run, wherever ``--reports-dir`` points, reads the repository's records (and those of
its own reports folder) and shows each claim's paper-scale verdict beside its ci verdict; a
faithful one is the claim's headline verdict (:func:`verify.report.record.headline`).
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from theory.verdicts import strongest
from verify.measurement import as_json
from verify.report.files import write_json

#: the checkout the suite runs from: its committed records are read by every run
ROOT = Path(__file__).resolve().parents[2]
FOLDER = "paper_scale"


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else "missing"


def deciding_files(test_path: Path, setups: list[dict], paper: str, root: Path = ROOT) -> list[str]:
    """The files whose code decides a claim at paper scale, relative to ``root``: the test module,
    the module of every runner its setups name, and its paper's ``verify/<paper>/evidence.py``."""
    paths = {Path(test_path).resolve()}
    for setup in setups:
        parts = str(setup.get("runner", "")).split(".")
        for k in range(len(parts), 0, -1):
            module = sys.modules.get(".".join(parts[:k]))
            if module is not None and getattr(module, "__file__", None):
                paths.add(Path(module.__file__).resolve())
                break
    paths.add((root / "verify" / paper / "evidence.py").resolve())
    return sorted(str(p.relative_to(root)) for p in paths if p.is_file() and root in p.parents)


def code_hashes(files: list[str], root: Path = ROOT) -> dict[str, str]:
    return {f: file_hash(root / f) for f in files}


def write_record(reports_dir: Path, *, experiment: str, name: str, claims: dict[str, dict],
                 wall_s: float, started: str, code: dict[str, str]) -> Path:
    """Write ``<reports_dir>/paper_scale/<name>.json`` for one full-scale test."""
    from numerics.machine import device_name, git_commit
    commit, dirty = git_commit()
    doc = {"experiment": experiment, "claims": claims, "device": device_name(),
           "wall_s": round(wall_s, 1), "started": started, "commit": commit, "dirty": dirty,
           "code": code}
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
    """(claim ID, row) of one record file; tolerant of records written before the ``code``,
    ``wall_s`` / ``started`` and ``setups`` fields."""
    code = doc.get("code")
    changed = None if code is None else sorted(f for f, h in code.items() if file_hash(root / f) != h)
    for cid, entry in doc["claims"].items():
        setups = entry.get("setups") or ([entry["setup"]] if entry.get("setup") else [])
        faithful = entry.get("faithful", bool(setups) and all(s.get("faithful") for s in setups))
        yield cid, {"verdict": entry.get("verdict"), "faithful": bool(faithful),
                    "device": doc.get("device", "?"), "started": doc.get("started", doc.get("date", "?")),
                    "wall_s": doc.get("wall_s", doc.get("wall_seconds")),
                    "commit": str(doc.get("commit", "unknown")), "dirty": bool(doc.get("dirty")),
                    "file": f"{FOLDER}/{path.name}", "code_changed": changed,
                    "measurements": entry.get("measurements", []), "setups": setups}


def read(reports_dir: Path, root: Path = ROOT) -> dict[str, dict]:
    """claim ID -> its newest paper-scale row (verdict, faithful, device, started, wall_s, commit,
    file, code_changed: the deciding files changed since, None when the record has no hashes)."""
    out: dict[str, dict] = {}
    for folder in folders(reports_dir, root):
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
                rows = list(_entries(path, doc, root))
            except (OSError, ValueError, KeyError, AttributeError, TypeError):
                continue
            for cid, row in rows:
                if cid not in out or str(row["started"]) >= str(out[cid]["started"]):
                    out[cid] = row
    return out


def attach(doc: dict, reports_dir: Path) -> dict:
    """Put each claim's paper-scale row (if one is recorded) beside its own verdict."""
    rows = read(reports_dir)
    for claim in doc["claims"]:
        if claim["id"] in rows:
            claim["paper_scale"] = rows[claim["id"]]
        else:
            claim.pop("paper_scale", None)
    return doc


def staleness(row: dict) -> str:
    """'' when the deciding code is as recorded, else what a reader must know."""
    if row.get("code_changed") is None:
        return "paper-scale record made before deciding-code hashes: may predate its code"
    if row["code_changed"]:
        return "predates the code that decides it (changed since: " + ", ".join(row["code_changed"]) + ")"
    return ""
