"""``python -m verify.report [--reports-dir DIR]``: re-render every report (the PDFs,
summary.pdf, html/) from ``claims.json`` alone, with the paper-scale records of the repository
(and of DIR) and ``bench.json`` when present.

Without a record but with ``bench.json`` / ``full_scale.json`` (``python -m numerics.bench`` on a
fresh checkout), only summary.pdf is written, with the timings.  A missing folder, a folder with
neither, or a damaged record is a one-line error with exit status 2, and no file is changed: a
damaged record is never a reason to overwrite good reports.
"""
import argparse
import sys
from pathlib import Path

from verify.report import files
from verify.report import record as R
from verify.report.writer import rerender


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify.report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reports-dir", default="reports", type=Path)
    args = parser.parse_args(argv)
    path = args.reports_dir / "claims.json"
    if not args.reports_dir.is_dir():
        parser.error(f"--reports-dir {args.reports_dir} is not a folder")
    timings = [n for n in ("bench.json", "full_scale.json") if (args.reports_dir / n).exists()]
    try:
        if R.load(path) is None and not timings:  # checked before the lock, the first write
            parser.error(f"no record at {path} (nor bench.json): run pytest verify first")
        written = rerender(args.reports_dir)
        if written is None:  # timings only: summary.pdf shows them
            from verify.report.pdf import write_summary
            with files.lock(args.reports_dir):
                written = [write_summary(args.reports_dir, {"claims": [], "figures": []})]
        for path in written:
            print(path)
    except R.RecordDamaged as exc:
        parser.error(f"RecordDamaged: {exc}")
    except KeyboardInterrupt:
        print("python -m verify.report: interrupted; the reports are as they were", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
