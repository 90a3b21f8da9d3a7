"""``python -m verify``: read the run record ``claims.json``.

``python -m verify show ID [--reports-dir DIR]``: one claim in full (:mod:`verify.report.show`).
``python -m verify findings [--reports-dir DIR]``: what the suite found, as Markdown
(:mod:`verify.report.findings`), to paste into the README's first screen.

Both read ``claims.json`` alone (never the registry), with the committed paper-scale records as
every report does; a missing or damaged record, or an unknown claim ID (with a did-you-mean), is
a one-line error and exit status 2.  A catalogue ID that a partial record does not hold is said to
be "not in this record", with the run that would judge it.  Output piped into a reader that stops
early (``| head``) ends quietly.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from theory.names import did_you_mean
from theory.papers import PAPERS
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
        return _write(markdown(doc))
    rec = next((c for c in doc["claims"] if c["id"] == args.id), None)
    if rec is None:
        show.error(_missing(args.id, doc) + f" (in {args.reports_dir / 'claims.json'})")
    from verify.report.show import show_record
    return _write(show_record(rec, doc, args.reports_dir) + "\n")


def _missing(claim: str, doc: dict) -> str:
    """Why ``claim`` is not in the record: a catalogue ID a partial record lacks (and the run that
    judges it), or an unknown ID with a did-you-mean."""
    paper = next((p for p in PAPERS.values() if claim in p.ids), None)
    if paper is None:
        known = [c["id"] for c in doc["claims"]] + [i for p in PAPERS.values() for i in p.ids]
        return did_you_mean(claim, list(dict.fromkeys(known)), "claim")
    return (f"claim {claim!r} is not in this record (run pytest verify --claim '{claim}', or "
            f"--paper {paper.key})")


def _write(text: str) -> int:
    """Write ``text`` to stdout; a reader that closed the pipe early (``| head``) is no error:
    stdout is pointed at the null device so that Python's exit flush stays quiet."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
