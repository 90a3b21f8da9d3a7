"""``python -m theory [--paper KEY] [--missing]``: list the claims and their expected verdicts
(``--missing``: the catalogue IDs not yet encoded).

``theory`` knows nothing of the run record: one claim's measured verdict and evidence is
``python -m verify show ID``.  An unknown or empty paper key is a one-line usage error with a
did-you-mean.
"""
import argparse
import collections

from theory.names import did_you_mean
from theory.registry import PAPERS, load_all


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m theory", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--paper", help="only this paper's claims")
    parser.add_argument("--missing", action="store_true",
                        help="list the catalogue IDs not yet encoded instead")
    args, extra = parser.parse_known_args(argv)
    if extra[:1] == ["show"]:
        parser.error("'show' moved: python -m verify show ID (theory knows nothing of the run record)")
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.paper is not None and args.paper not in PAPERS:
        parser.error("--paper: " + did_you_mean(args.paper, list(PAPERS), "paper"))
    registry = load_all()
    if args.missing:
        from theory.registry import catalogue_ids
        owner = catalogue_ids()
        missing = [i for i in registry.missing() if args.paper is None or owner[i] == args.paper]
        for claim_id in missing:
            print(claim_id)
        scope = f"paper {args.paper}" if args.paper else "the catalogue"
        print(f"{len(missing)} IDs of {scope} not encoded" if missing else
              f"every ID of {scope} is encoded ({len(registry)} claims registered)")
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
