"""``python -m verify.report [--reports-dir DIR]``: re-render every report (the PDFs,
summary.pdf, html/) from ``claims.json`` alone, with the paper-scale records of the repository
(and of DIR) and ``bench.json`` when present.

A missing folder or record, or a damaged record, is a one-line error with exit status 2, and no
file is changed: a damaged record is never a reason to overwrite good reports.
"""
import argparse
from pathlib import Path

from verify.report import files, paper_scale
from verify.report import record as R
from verify.report.writer import render


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify.report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reports-dir", default="reports", type=Path)
    args = parser.parse_args(argv)
    path = args.reports_dir / "claims.json"
    if not args.reports_dir.is_dir():
        parser.error(f"--reports-dir {args.reports_dir} is not a folder")
    try:
        if R.load(path) is None:  # checked before the lock, whose file is the first write
            parser.error(f"no record at {path}: run pytest verify first")
        with files.lock(args.reports_dir):
            doc = paper_scale.attach(R.load(path), args.reports_dir)
            for written in render(args.reports_dir, doc):
                print(written)
    except R.RecordDamaged as exc:
        parser.error(f"RecordDamaged: {exc}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
