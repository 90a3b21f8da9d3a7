"""Suggestions for a mistyped name (a claim ID, a paper key, a profile), shared by the command
line, the pytest options and the paper records."""
from __future__ import annotations

import difflib


def suggest(value: str, choices) -> str:
    """The closest choices as 'did you mean ...?', or all of them if few."""
    choices = sorted(choices)
    value = str(value)
    close = difflib.get_close_matches(value, choices, n=3, cutoff=0.5)
    if not close:
        folded = {c.lower().replace("_", "").replace("(", "").replace(")", ""): c for c in choices}
        key = value.lower().replace("_", "").replace("(", "").replace(")", "")
        close = [folded[k] for k in difflib.get_close_matches(key, list(folded), n=3, cutoff=0.6)]
    return (f"did you mean {' or '.join(repr(c) for c in close)}?" if close else
            f"valid: {', '.join(choices)}" if len(choices) <= 12 else
            f"{len(choices)} are known; list the claims with 'python -m theory'")


def did_you_mean(value: str, choices, what: str) -> str:
    """A usage message for an unknown ``value`` of kind ``what``, with :func:`suggest`'s hint."""
    return f"{what} {value!r} is not known; {suggest(value, choices)}"
