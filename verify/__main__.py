"""``python -m verify``: read the run record ``claims.json``.

``python -m verify show ID [--reports-dir DIR]``: one claim in full (:mod:`verify.report.show`).
``python -m verify findings [--reports-dir DIR]``: what the suite found, as Markdown
(:mod:`verify.report.findings`), to paste into the README's first screen.

Both read ``claims.json`` alone (never the registry), with the committed paper-scale records as
every report does; a missing or damaged record, or an unknown claim ID (with a did-you-mean), is
a one-line error and exit status 2.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from theory.names import did_you_mean
from verify.report import record as R


def _record(parser, reports_dir: Path) -> dict:
    path = reports_dir / "claims.json"
    try:
        doc = R.load(path)
    except R.RecordDamaged as exc:
        parser.error(f"RecordDamaged: {exc}")
    if doc is None:
        parser.error(f"no record at {path}: run pytest verify (or pass --reports-dir)")
    from verify.report.paper_scale import attach
    return attach(doc, reports_dir)  # as every report: the repository's paper-scale records


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="{show,findings}")
    show = commands.add_parser("show", help="one claim in full, from claims.json")
    show.add_argument("id", help="claim ID, e.g. 'BL-Eq(13)'")
    findings = commands.add_parser("findings", help="what the suite found, as Markdown")
    for sub in (show, findings):
        sub.add_argument("--reports-dir", default="reports", type=Path)
    args = parser.parse_args(argv)
    doc = _record(parser, args.reports_dir)
    if args.command == "findings":
        from verify.report.findings import markdown
        sys.stdout.write(markdown(doc))
        return 0
    rec = next((c for c in doc["claims"] if c["id"] == args.id), None)
    if rec is None:
        show.error(did_you_mean(args.id, [c["id"] for c in doc["claims"]], "claim")
                   + f" (in {args.reports_dir / 'claims.json'})")
    from verify.report.show import show_record
    print(show_record(rec, doc, args.reports_dir))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
