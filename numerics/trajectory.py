"""The one result type of a training run or a sampled flow: :class:`Trajectory`.

A trajectory is what was recorded along a run: the optimiser ``steps`` at which records were
taken, the same instants as ``time`` in the paper's own clock (``clock`` says which, in the
paper's words: ``t/tau``, ``epochs``), the ``loss`` of every ensemble member, and named
``records`` (gates, weights, alignments), each indexed by record time first.  Time is converted
from steps only through ``theory.conventions.flow_time``.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numerics.validation import InvalidArgument

STEPS = "steps"


@dataclass(frozen=True)
class Trajectory:
    steps: np.ndarray                 # (T,) optimiser steps at which records were taken
    time: np.ndarray                  # (T,) or (T, K): the same instants in the paper's clock
    clock: str                        # the paper's words for ``time`` ("t/tau", "epochs", "steps")
    loss: np.ndarray                  # (T, K) losses of the K members
    records: Mapping[str, np.ndarray] = field(default_factory=dict)  # name -> (T, K, ...)

    def __post_init__(self):
        steps = np.asarray(self.steps)
        if steps.ndim != 1 or steps.size == 0:
            raise InvalidArgument(f"steps must be a non-empty 1-d array, got shape {steps.shape}")
        if np.asarray(self.time).shape[:1] != steps.shape:
            raise InvalidArgument(f"time has {np.shape(self.time)[:1]} instants, steps {steps.shape}")
        if np.asarray(self.loss).shape[:1] != steps.shape:
            raise InvalidArgument(f"loss has {np.shape(self.loss)[:1]} instants, steps {steps.shape}")
        if not isinstance(self.clock, str) or not self.clock.strip():
            raise InvalidArgument("clock must name the time axis in the paper's words")

    @property
    def members(self) -> int:
        return int(np.shape(self.loss)[1]) if np.ndim(self.loss) > 1 else 1

    def upto(self, time) -> Trajectory:
        """The records taken at or before ``time`` (in ``clock``); the per-instant records only."""
        if isinstance(time, bool) or not isinstance(time, (int, float, np.number)) or np.isnan(time):
            raise InvalidArgument(f"time={time!r} must be a number (a time in {self.clock})")
        t = np.asarray(self.time)
        keep = (t if t.ndim == 1 else t[:, 0]) <= time
        if not keep.any():
            raise InvalidArgument(f"time={time!r} is before the first record ({self.clock})")
        n = len(self.steps)
        return Trajectory(np.asarray(self.steps)[keep], t[keep], self.clock,
                          np.asarray(self.loss)[keep],
                          {k: np.asarray(v)[keep] for k, v in self.records.items()
                           if np.shape(v)[:1] == (n,)})

    def final(self, name: str):
        """The last record of ``name`` (``'loss'`` for the losses); an unknown name raises
        ``KeyError`` listing the records."""
        if name != "loss" and name not in self.records:
            raise KeyError(f"name={name!r} is not a record of this trajectory: 'loss' or one of "
                           f"{sorted(self.records)}")
        return np.asarray(self.loss if name == "loss" else self.records[name])[-1]
