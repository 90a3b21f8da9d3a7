"""What a run was asked to do, at which scale, and what it actually did.

* :class:`Config` is a run configuration at one scale (``'ci'``: reduced, for every run of the
  suite; ``'full'``: the paper's settings, ``pytest verify --scale=full``).  Each paper declares
  its configurations as :class:`Scales` pairs in one module, ``numerics/<paper>/configs.py``.
* :class:`Ran` is what a runner returns beside its results: every setting as it was actually
  used (the data actually drawn, sizes, steps or epochs in the paper's clock, dtype, seeds,
  optimiser), built by the runner from what it ran.  The verify layer compares it with the
  paper's settings (``verify.setup.Setup``); nothing in numerics decides whether a run is
  faithful.
* :func:`seeds` draws the seeds of a scale: the ``full`` seeds are disjoint from the ``ci`` ones,
  so a paper-scale run is an independent draw, never a replay of the ci run.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from numerics.validation import InvalidArgument, check_fields

SCALES = ("ci", "full")
#: the first seed of each scale; a ci run draws from 0 up, a paper-scale run from here up
FULL_SEED_BASE = 10_000


def check_scale(scale, argument: str = "scale") -> str:
    if scale not in SCALES:
        raise InvalidArgument(f"{argument}={scale!r} is not one of {SCALES}")
    return scale


def seeds(scale: str, n: int, offset: int = 0) -> tuple[int, ...]:
    """``n`` seeds of ``scale``, starting ``offset`` into its block (ci: 0, 1, ...; full:
    FULL_SEED_BASE, ...).  ``offset`` separates the seed blocks of different runs of one scale."""
    check_scale(scale)
    for name, value in (("n", n), ("offset", offset)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidArgument(f"{name}={value!r} must be a non-negative integer")
    if n == 0:
        raise InvalidArgument("n=0: a run needs at least one seed")
    if scale == "ci" and offset + n > FULL_SEED_BASE:
        raise InvalidArgument(f"offset + n = {offset + n} reaches the full seeds ({FULL_SEED_BASE} up)")
    base = 0 if scale == "ci" else FULL_SEED_BASE
    return tuple(range(base + offset, base + offset + n))


@dataclass(frozen=True, kw_only=True)
class Config:
    """A run configuration at one scale.  Papers subclass it with their own fields."""

    scale: str

    def __post_init__(self):
        check_scale(self.scale, f"{type(self).__name__}.scale")
        check_fields(self)  # every annotated field, by the one vocabulary (numerics.validation)

    def replace(self, **changes) -> Config:
        return dataclasses.replace(self, **changes)


C = TypeVar("C", bound=Config)


def _seed_set(config) -> set:
    value = getattr(config, "seeds", ())
    if isinstance(value, int):
        return {value}
    return set(value) if value is not None else set()


@dataclass(frozen=True)
class Scales(Generic[C]):
    """The ``ci`` and ``full`` configurations of one experiment; ``scales[scale]`` picks one.

    The two must be of one type, carry their own scale, and (where they have ``seeds``) draw
    disjoint seeds.
    """

    ci: C
    full: C

    def __post_init__(self):
        for scale in SCALES:
            config = getattr(self, scale)
            if not isinstance(config, Config) or config.scale != scale:
                raise InvalidArgument(f"{scale} must be a Config with scale={scale!r}, got {config!r}")
        if type(self.ci) is not type(self.full):
            raise InvalidArgument(f"ci and full must be one Config type, got {type(self.ci).__name__} "
                                  f"and {type(self.full).__name__}")
        shared = _seed_set(self.ci) & _seed_set(self.full)
        if shared:
            raise InvalidArgument(f"ci and full share the seeds {sorted(shared)[:5]}: a paper-scale run "
                                  "must be an independent draw (numerics.ran.seeds)")

    def __getitem__(self, scale: str) -> C:
        return getattr(self, check_scale(scale))


@dataclass(frozen=True)
class Ran:
    """What one runner actually ran: ``settings`` maps each setting to the value used.

    Make it with :meth:`of` inside the runner, from the configuration and the data it used.
    """

    runner: str
    scale: str
    settings: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        check_scale(self.scale, "Ran.scale")
        if not isinstance(self.runner, str) or not self.runner.strip():
            raise InvalidArgument("runner must name the function that ran")
        if not isinstance(self.settings, Mapping) or not self.settings:
            raise InvalidArgument("settings must map at least one setting to the value it ran with")
        object.__setattr__(self, "settings", dict(self.settings))

    @classmethod
    def of(cls, config: Config, runner, **settings) -> Ran:
        """The record of ``runner`` (a function, or its name) run at ``config``'s scale."""
        if not isinstance(config, Config):
            raise InvalidArgument(f"config must be a numerics.ran.Config, got {type(config).__name__}")
        name = runner if isinstance(runner, str) else f"{runner.__module__}.{runner.__qualname__}"
        return cls(name, config.scale, settings)

    def __getitem__(self, setting: str):
        return self.settings[setting]
