"""``python -m theory [--paper KEY] [--missing]``: list the claims and their expected verdicts.

``python -m theory show ID [--reports-dir DIR]``: one claim in full -- statement, printed and
corrected forms, and from the last run's ``claims.json`` its verdict, measurements against their
criteria, setup and deviations, counterexample, condition and figures.  An unknown ID or paper
gets a did-you-mean.
"""
import argparse
import collections
import sys
from pathlib import Path

from theory.registry import PAPERS, load_all


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m theory", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--paper", help="only this paper's claims")
    parser.add_argument("--missing", action="store_true",
                        help="list the catalogue IDs not yet encoded instead")
    commands = parser.add_subparsers(dest="command")
    show = commands.add_parser("show", help="one claim in full, from the last run")
    show.add_argument("id", help="claim ID, e.g. 'BL-Eq(13)'")
    show.add_argument("--reports-dir", default="reports", type=Path)
    args = parser.parse_args(argv)
    registry = load_all()
    from theory.names import did_you_mean
    if args.command == "show":
        if args.id not in registry:
            print(did_you_mean(args.id, [c.id for c in registry], "claim"), file=sys.stderr)
            return 2
        from verify.report.show import show as render  # the run record's reader
        print(render(registry[args.id], args.reports_dir))
        return 0
    if args.paper and args.paper not in PAPERS:
        print(did_you_mean(args.paper, list(PAPERS), "paper"), file=sys.stderr)
        return 2
    if args.missing:
        for claim_id in registry.missing():
            print(claim_id)
        return 0
    counts = collections.Counter()
    for claim in registry:
        if args.paper and claim.paper != args.paper:
            continue
        counts[claim.expected] += 1
        print(f"{claim.id:<24} {claim.expected:<15} {claim.kind:<13} {claim.where}")
    print("expected verdicts: " + ", ".join(f"{v} {n}" for v, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
