"""``reports/claims.json`` in the DESIGN.md format, then the PDFs."""
from __future__ import annotations

import datetime
import json
import platform
import time
from pathlib import Path


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


def claim_records(results) -> list[dict]:
    """One record per claim that ran, in catalogue order."""
    from theory.registry import REGISTRY
    records = []
    for claim in REGISTRY:
        result = results.get(claim.id)
        if result is None or not result.checks:
            continue
        records.append({
            "id": claim.id, "paper": claim.paper, "where": claim.where, "kind": claim.kind,
            "verdict": result.verdict, "expected": claim.expected, "evidence": result.evidence,
            "checks": len(result.checks), "seconds": round(result.seconds, 3),
            "title": claim.title, "counterexample": result.counterexample,
            "condition": result.condition or claim.condition,
            "reconstructed": claim.reconstructed,
            "measurements": result.measurements,
        })
        setup = result.setup
        if setup is not None:
            records[-1]["setup"] = setup.as_dict()
    return records


def write_claims_json(path: Path, records: list[dict], profile: str) -> Path:
    doc = {"generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "profile": profile, "versions": versions(), "claims": records}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1))
    tmp.replace(path)
    return path


def write_reports(run, profile: str) -> list[Path]:
    records = claim_records(run.results)
    written = [write_claims_json(run.reports_dir / "claims.json", records, profile)]
    timings = run.reports_dir / "timings.json"
    timings.write_text(json.dumps({"wall_seconds": round(time.time() - run.started, 2),
                                   "tests": run.timings}, indent=1))
    written.append(timings)
    if run.pdf:
        from verify.report.pdf import write_paper_pdfs, write_summary_pdf
        written += write_paper_pdfs(run.reports_dir, records, run.figures)
        written.append(write_summary_pdf(run.reports_dir, records))
    return written
