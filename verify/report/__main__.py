"""``python -m verify.report``: re-render every report (PDFs, summary.pdf, html/) from
``claims.json`` (with the committed paper-scale records and ``bench.json`` when present)."""
import argparse
from pathlib import Path

from theory.registry import load_all
from verify.report import record
from verify.report.writer import render


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify.report", description=__doc__)
    parser.add_argument("--reports-dir", default="reports", type=Path)
    args = parser.parse_args(argv)
    load_all()
    doc, problem = record.load(args.reports_dir / "claims.json")
    if problem:
        print(problem)
    doc = doc or {"claims": [], "figures": []}
    for path in render(args.reports_dir, record.attach_paper_scale(doc, args.reports_dir)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
