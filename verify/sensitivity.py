"""The one sensitivity rule (docs/DESIGN.md, "Ran and Setup"): a setting the paper leaves open is
varied over at least two values from a declared plausible range, and the run is faithful to it
when no decisive outcome moves.  There are no per-claim percentage bounds: what must not move is
the outcome of each decisive measurement (passes, fails, or depends on the reading), exactly as
the verdict rule reads it.  Where the open setting is itself the grid a sentence quantifies over
("small unless c = 0": every c of a grid the paper does not give), the runs measure different
points and what must not move is the outcome of each statement over its grid: the verdict rule's
combination of its measurements (one fails: fails; else one depends on the reading: depends).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from verify.measurement import Measurement, exact, measure

#: what a measurement's outcome is, as the verdict rule reads it
OUTCOMES = ("passes", "fails", "depends on the reading")


#: the outcomes from least to most severe: a statement takes its most severe measurement's
_SEVERITY = (OUTCOMES[0], OUTCOMES[2], OUTCOMES[1])


def outcome(m: Measurement) -> str:
    return OUTCOMES[0] if m.passed else OUTCOMES[2] if m.undecided else OUTCOMES[1]


def _over_statements(ms: Sequence[Measurement], statement: Callable[[Measurement], str]) -> dict:
    """Each statement's outcome over its measurements, combined as the verdict rule does."""
    out: dict[str, str] = {}
    for m in ms:
        key, o = statement(m), outcome(m)
        out[key] = max(out.get(key, o), o, key=_SEVERITY.index)
    return out


def unmoved(setting: str, runs: Mapping[object, Sequence[Measurement]], *,
            plausible: str, statement: Callable[[Measurement], str] | None = None) -> Measurement:
    """The sensitivity measurement of the open ``setting``: ``runs`` maps each value it was run
    at (the run's own value first, then at least one other from the ``plausible`` range, which
    says where the range comes from) to that run's measurements, in the same order.  Passes
    when every decisive measurement has the same outcome at every value.  ``statement`` (for a
    grid setting, module docstring) names the statement a measurement belongs to; the runs must
    then decide the same statements, and each statement's combined outcome must not move."""
    if not isinstance(setting, str) or not setting.strip():
        raise ValueError(f"setting={setting!r} must name the open setting")
    if not isinstance(plausible, str) or not plausible.strip():
        raise ValueError("plausible must say where the range of the setting's values comes from")
    if not isinstance(runs, Mapping) or len(runs) < 2:
        raise ValueError(f"runs must map at least two values of {setting!r} to their "
                         "measurements: one value shows nothing about the setting")
    if statement is None:
        table = {value: [outcome(m) for m in ms if m.decisive] for value, ms in runs.items()}
    else:
        decided = {value: _over_statements([m for m in ms if m.decisive], statement)
                   for value, ms in runs.items()}
        names = sorted(next(iter(decided.values())))
        if any(sorted(d) != names for d in decided.values()):
            raise ValueError(f"runs of {setting!r} must decide the same statements, got "
                             f"{[sorted(d) for d in decided.values()]}")
        table = {value: [d[k] for k in names] for value, d in decided.items()}
    lengths = {len(v) for v in table.values()}
    if len(lengths) != 1 or not lengths.pop():
        raise ValueError(f"runs of {setting!r} must give the same decisive measurements in the "
                         f"same order, got {[len(v) for v in table.values()]}")
    base = next(iter(table.values()))
    moved = sum(any(v[i] != base[i] for v in table.values()) for i in range(len(base)))
    return measure(f"{setting} over {len(runs)} values: decisive outcomes that move", moved, "==", 0,
                   source=exact("a deviation is harmless when no decisive outcome moves with it"),
                   details={"values": [str(v) for v in runs], "plausible range": plausible,
                            "outcomes": {str(k): v for k, v in table.items()}})
