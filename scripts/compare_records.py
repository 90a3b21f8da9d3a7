"""Compare two claims records (reports/claims.json): verdicts and measurements, claim by claim.

    python scripts/compare_records.py OLD.json NEW.json [--paper KEY] [--rtol 1e-9]

Prints every claim whose verdict changed, and every measurement (matched by test and name)
whose value, criterion, outcome or source changed, or that appeared or disappeared.  Exits 1 when
anything differs, 0 when the two records agree, 2 on a usage error.  Used to show that a
restructuring moved no verdict and no measurement.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path


def _close(a, b, rtol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or math.isclose(a, b, rel_tol=rtol, abs_tol=1e-300)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], rtol) for k in a)
    return a == b


def _measurements(claim: dict) -> dict:
    out = {}
    for m in claim.get("measurements", []):
        key = (m.get("test", ""), m["name"])
        out.setdefault(key, []).append(m)
    return out


def compare(old: dict, new: dict, rtol: float, paper: str | None = None) -> list[str]:
    """Lines naming every difference between the two records."""
    before = {c["id"]: c for c in old.get("claims", [])}
    after = {c["id"]: c for c in new.get("claims", [])}
    lines = []
    for cid in sorted(set(before) | set(after)):
        a, b = before.get(cid), after.get(cid)
        if paper and (a or b)["paper"] != paper:
            continue
        if a is None or b is None:
            lines.append(f"{cid}: only in the {'new' if a is None else 'old'} record")
            continue
        if a["verdict"] != b["verdict"]:
            lines.append(f"{cid}: verdict {a['verdict']} -> {b['verdict']}")
        ma, mb = _measurements(a), _measurements(b)
        for key in sorted(set(ma) | set(mb)):
            test, name = key
            if key not in ma or key not in mb:
                lines.append(f"{cid}: measurement '{name}' ({test}) only in the "
                             f"{'new' if key not in ma else 'old'} record")
                continue
            for x, y in zip(ma[key], mb[key]):
                for field in ("value", "criterion", "passed", "source"):
                    if not _close(x.get(field), y.get(field), rtol):
                        lines.append(f"{cid}: '{name}' {field} {x.get(field)!r} -> {y.get(field)!r}")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--paper", default=None)
    parser.add_argument("--rtol", type=float, default=1e-9)
    args = parser.parse_args(argv)
    docs = []
    for path in (args.old, args.new):
        try:
            docs.append(json.loads(path.read_text()))
        except (OSError, ValueError) as exc:
            parser.error(f"{path}: not a readable claims record ({exc})")
    lines = compare(*docs, rtol=args.rtol, paper=args.paper)
    print("\n".join(lines) if lines else "the two records agree: same verdicts, same measurements")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
