"""Hypothesis profiles (DESIGN.md, "Hypothesis"): ``ci`` (the default), ``dev`` and ``explore``.

Select one with ``pytest --hypothesis-profile=NAME``.
"""
from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.function_scoped_fixture])


def register_profiles() -> None:
    settings.register_profile("ci", max_examples=60, derandomize=True, database=None,
                              print_blob=True, **_COMMON)
    settings.register_profile("dev", max_examples=200, **_COMMON)
    settings.register_profile("explore", max_examples=3000, **_COMMON)
    if settings._current_profile in (None, "default"):
        settings.load_profile("ci")
