"""``python -m theory [--paper KEY] [--missing]``: list the claims and their expected verdicts."""
import argparse
import collections

from theory.registry import PAPERS, load_all


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m theory", description=__doc__)
    parser.add_argument("--paper", choices=sorted(PAPERS), help="only this paper's claims")
    parser.add_argument("--missing", action="store_true",
                        help="list the catalogue IDs not yet encoded instead")
    args = parser.parse_args(argv)
    registry = load_all()
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
