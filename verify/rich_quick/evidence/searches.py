"""The searches behind the rich_quick checks: the worst error of a formula over hypothesis-drawn
or fixed points, handed back as a measurement.  The error is a function of ``numerics.rich_quick``
(``formula_errors``, ``linear_errors``, ``piecewise_errors``) handed in with the forms under test,
so a verify test names what it measures and this module runs it."""
from __future__ import annotations

from contextlib import nullcontext


from verify.measurement import Criterion, fmt, measure
from verify.profiles import active, derived
from verify.properties import SearchResult, search


def fewer_examples(fraction: float):
    """Run hypothesis searches inside with ``fraction`` of the active profile's examples (at
    least 4): for properties that integrate a flow per example."""
    return derived(f"x{fraction:g}", max_examples=max(4, int(active().max_examples * fraction)))


def fixed_search(prop, points, criterion) -> SearchResult:
    """``prop`` over a fixed list of points, reported like a search: for forms expected to fail,
    where a hypothesis search would spend its time shrinking the counterexample."""
    crit = Criterion(*criterion)
    values = [prop(p) for p in points]
    bad = [(p, v) for p, v in zip(points, values) if not crit.test(v)]
    worst_value = max(values) if crit.op in ("<=", "<") else min(values)
    return SearchResult(not bad, len(points), worst_value, crit,
                        f"{bad[0][0]} (value {fmt(bad[0][1])})" if bad else "")


def worst(what, error, *forms, criterion, source, tail=(), examples=(), fraction=1.0, **drawn):
    """``what``: the worst ``error(*forms, point, *tail)`` over the points hypothesis draws from
    the one strategy in ``drawn`` (its keyword names the point in a counterexample; ``examples``
    pins points), against ``criterion``; ``fraction`` of the profile's examples (flows)."""
    if len(drawn) != 1:
        raise ValueError(f"drawn={sorted(drawn)} must name exactly one strategy")
    (name,) = drawn
    with fewer_examples(fraction) if fraction != 1.0 else nullcontext():
        res = search(lambda **point: error(*forms, point[name], *tail), criterion,
                     examples=examples, **drawn)
    return measure(what, res, source=source)


def worst_at(what, error, *forms, points, criterion, source, tail=()):
    """``what``: the worst ``error(*forms, point, *tail)`` over the fixed ``points``."""
    return measure(what, fixed_search(lambda p: error(*forms, p, *tail), points, criterion),
                   source=source)
