"""The verdict vocabulary of docs/DESIGN.md, shared by the registry, the plugin and the reports.

The strings are part of the ``reports/claims.json`` format; other tools read them, so they never
change spelling.
"""
from theory.validation import InvalidArgument

HOLDS = "holds"
DEFINED = "defined"
HOLDS_IF = "holds-if"
ERRATUM = "erratum"
FAILS = "fails"
NOT_REPRODUCED = "not-reproduced"
INCONCLUSIVE = "inconclusive"
#: an empirical claim whose stated criteria all pass in a run that is not faithful to the paper
#: (the mirror of ``inconclusive``): agreement, but not yet confirmation
SUPPORTED = "supported"
UNTESTED = "untested"

#: Every verdict, strongest first: when several checks of one claim disagree, the first in this
#: order wins (one refuting check outweighs any number of confirming ones, and one unfaithful
#: run keeps a claim ``supported`` however many faithful runs confirm its other parts).
PRECEDENCE = (FAILS, NOT_REPRODUCED, ERRATUM, HOLDS_IF, INCONCLUSIVE, UNTESTED, SUPPORTED, DEFINED,
              HOLDS)
VERDICTS = frozenset(PRECEDENCE)

#: The claim kinds of docs/DESIGN.md.
KINDS = frozenset(
    {"identity", "ode-solution", "conserved", "limit", "bound", "constant", "algorithm",
     "empirical", "definition"}
)


def validate_verdict(verdict: str, argument: str = "verdict") -> str:
    if verdict not in VERDICTS:
        raise InvalidArgument(f"{argument}={verdict!r} is not a verdict; use one of {sorted(VERDICTS)}")
    return verdict


def strongest(verdicts) -> str:
    """The verdict that decides a claim from the verdicts of its checks (see PRECEDENCE)."""
    verdicts = [validate_verdict(v) for v in verdicts]
    if not verdicts:
        raise InvalidArgument("verdicts is empty: a claim needs at least one check")
    return min(verdicts, key=PRECEDENCE.index)
