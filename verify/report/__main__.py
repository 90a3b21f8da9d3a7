"""``python -m verify.report``: re-render ``summary.pdf`` from ``claims.json`` (and ``bench.json``)."""
import argparse
import json
from pathlib import Path

from theory.registry import load_all
from verify.report.pdf import write_summary_pdf


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify.report", description=__doc__)
    parser.add_argument("--reports-dir", default="reports", type=Path)
    args = parser.parse_args(argv)
    claims = args.reports_dir / "claims.json"
    records = json.loads(claims.read_text())["claims"] if claims.exists() else []
    load_all()
    print(write_summary_pdf(args.reports_dir, records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
