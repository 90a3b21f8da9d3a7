"""Hypothesis profiles (docs/DESIGN.md, "Hypothesis"): ``ci`` (the default), ``dev`` and ``explore``.

Select one with ``pytest --hypothesis-profile=NAME``; an unknown name is a usage error naming
these.  ``ci`` is deterministic and keeps no example database.  ``dev`` and ``explore`` keep
hypothesis' example database under ``<rootdir>/.hypothesis/examples``, so a counterexample found
once is replayed first in every later run of the same property.
"""
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.function_scoped_fixture])


#: the suite's profiles, cheapest first
PROFILES = ("ci", "dev", "explore")


def freeze_local_constants() -> None:
    """Make the ``ci`` profile's examples independent of what the process imported.

    Hypothesis mixes into its draws 'interesting' constants read from the source of every local
    module loaded so far, so the examples a derandomized search tries depend on which modules a
    process happened to import before it: a serial run, an xdist worker and a one-file run drew
    different examples.  The ci profile leaves that pool empty, so every process draws the same
    examples (``dev`` and ``explore`` keep it: there, more variety is the point).  The pool is a
    private part of hypothesis; if a release renames it, this does nothing and the draws are
    only reproducible within one process layout again.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - a hypothesis without the module
        return
    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty


def register_profiles(root: Path | None = None) -> None:
    """Register the profiles; ``root`` (the pytest rootdir) anchors the example database."""
    database = DirectoryBasedExampleDatabase(str((root or Path.cwd()) / ".hypothesis" / "examples"))
    settings.register_profile("ci", max_examples=60, derandomize=True, database=None,
                              print_blob=True, **_COMMON)
    settings.register_profile("dev", max_examples=200, database=database, **_COMMON)
    settings.register_profile("explore", max_examples=3000, database=database, **_COMMON)
    if settings.get_current_profile_name() in (None, "default"):
        settings.load_profile("ci")


def active() -> settings:
    """The hypothesis profile now loaded."""
    return settings.get_profile(settings.get_current_profile_name())


@contextmanager
def derived(suffix: str, **changes):
    """The block inside runs on the active profile with ``changes`` (registered as its child
    ``'<active>-<suffix>'``); the active profile is loaded again after.  The one way the suite
    narrows a search: a validity map's short searches, properties that integrate a flow per
    example."""
    previous = settings.get_current_profile_name()
    name = f"{previous}-{suffix}"
    settings.register_profile(name, parent=settings.get_profile(previous), **changes)
    settings.load_profile(name)
    try:
        yield
    finally:
        settings.load_profile(previous)
