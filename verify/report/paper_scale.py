"""Paper-scale records (``--scale=full``): one JSON per full-scale test under
``reports/paper_scale/``, committed to git and shown beside the ci verdicts of every later run.

``{"experiment", "claims": {ID: {"verdict", "measurements", "setups"}}, "device", "wall_seconds",
"commit", "date"}``, named after the test; ``wall_seconds`` is the test's own call time in seconds.
"""
from __future__ import annotations

import json
from pathlib import Path

from theory.verdicts import strongest


def write_record(reports_dir: Path, item, results, ids, seconds: float) -> Path | None:
    """The record of full-scale test ``item`` from the checks it recorded (none: nothing written)."""
    from numerics.machine import device_name, git_commit
    from verify.report.record import now
    claims = {}
    for cid in ids:
        checks = [c for c in results.get(cid).checks if c.test == item.name] if cid in results else []
        if not checks:
            continue
        entry = {"verdict": strongest(c.verdict for c in checks),
                 "measurements": [dict(m.as_dict(), **({"role": r} if r else {}))
                                  for c in checks for r, m in c.measurements]}
        setups = [s for c in checks for s in c.setups]
        if setups:
            entry["setups"] = [s.as_dict() for s in setups]
        claims[cid] = entry
    if not claims:
        return None
    commit, dirty = git_commit()
    doc = {"experiment": item.nodeid.split("@")[0], "claims": claims, "device": device_name(),
           "wall_seconds": round(seconds, 1), "commit": commit + ("+changes" if dirty else ""),
           "date": now()}
    from verify.report.figures import slug
    path = reports_dir / "paper_scale" / f"{slug(item.name)}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1))
    return path
