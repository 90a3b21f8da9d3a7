"""The one sensitivity rule (docs/DESIGN.md, "Ran and Setup"): a setting the paper leaves open is
varied over at least two values from a declared plausible range, and the run is faithful to it
when no decisive outcome moves.  There are no per-claim percentage bounds: what must not move is
the outcome of each decisive measurement (passes, fails, or depends on the reading), exactly as
the verdict rule reads it.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from verify.measurement import Measurement, exact, measure

#: what a measurement's outcome is, as the verdict rule reads it
OUTCOMES = ("passes", "fails", "depends on the reading")


def outcome(m: Measurement) -> str:
    return OUTCOMES[0] if m.passed else OUTCOMES[2] if m.undecided else OUTCOMES[1]


def unmoved(setting: str, runs: Mapping[object, Sequence[Measurement]], *,
            plausible: str) -> Measurement:
    """The sensitivity measurement of the open ``setting``: ``runs`` maps each value it was run
    at (the run's own value first, then at least one other from the ``plausible`` range, which
    says where the range comes from) to that run's measurements, in the same order.  Passes
    when every decisive measurement has the same outcome at every value."""
    if not isinstance(setting, str) or not setting.strip():
        raise ValueError(f"setting={setting!r} must name the open setting")
    if not isinstance(plausible, str) or not plausible.strip():
        raise ValueError("plausible must say where the range of the setting's values comes from")
    if not isinstance(runs, Mapping) or len(runs) < 2:
        raise ValueError(f"runs must map at least two values of {setting!r} to their "
                         "measurements: one value shows nothing about the setting")
    table = {value: [outcome(m) for m in ms if m.decisive] for value, ms in runs.items()}
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
