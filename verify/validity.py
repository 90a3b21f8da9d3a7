"""Validity maps (issue 18, item 2): where a printed formula can be trusted.

A validity map is a picture, not a measurement: over two of a claim's parameters it shows the error
of the printed form (and of the corrected form beside it, where the registry holds one) on a log
colour scale, the boundary of the claim's named condition (or, for a limit, the crossover scale of
its regime) as a red line, the region where the error meets the map's tolerance outlined, and the
counterexample a short hypothesis search on the printed error found.  The claim's verdict stays
decided by its checks; a map records no measurement.

* :class:`MapSpec` is the typed spec of one map: two :class:`Axis`, the :class:`Field` of each form,
  the :class:`Boundary`, the criterion a trustworthy value meets and what the error is measured
  against.  Each paper's specs live in ``verify/<paper>/validity.py``.
* :func:`compute` evaluates every field once on the grid (vectorised: a field gets the whole grid,
  never a point) and runs the counterexample search (:func:`verify.properties.search`,
  deterministic under the ``ci`` profile) on the printed field.
* :func:`draw` turns the result into one matplotlib figure; :func:`caption` says what it shows.
* :func:`form` lambdifies a registry encoding once and evaluates it by symbol name over the grid,
  matrix expressions as stacks of matrices (leading grid axes).
* :func:`rk4` integrates a vectorised flow on a fixed step, for the few maps without a closed form
  (coarse grids only).

Bad input to any of these is a :class:`ValidityMapError` naming the argument.
"""
from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np


from theory.registry import unlogged

#: colour floor of the log scale, as a fraction of the tolerance: errors this far below it (round-off,
#: exact zeros) are drawn in the lowest colour
FLOOR = 1e-6
#: top of the colour scale, as a multiple of the tolerance: larger errors (a diverging iteration)
#: are drawn in the top colour; a colour bar reaching float64's end cannot be labelled
CEILING = 1e30
SCALES = ("log", "linear", "symlog", "discrete")
OPS = {"<=": np.less_equal, "<": np.less, ">=": np.greater_equal, ">": np.greater}


class ValidityMapError(ValueError):
    """A map that cannot be built: a bad axis, field, boundary or criterion (named in the message)."""


def _finite(value, argument: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValidityMapError(f"{argument}={value!r} is not a number") from None
    if not math.isfinite(number):
        raise ValidityMapError(f"{argument}={value!r} is not finite")
    return number


def _text(value, argument: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidityMapError(f"{argument}={value!r} must be a non-empty string")
    return value


def _count(value, argument: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValidityMapError(f"{argument}={value!r} must be an integer >= {least}")
    return value


@dataclass(frozen=True)
class Axis:
    """One parameter of the map.  ``name`` is the keyword under which the fields receive the grid;
    ``scale`` is ``log``, ``linear``, ``symlog`` (signed, log-like away from ``linthresh``) or
    ``discrete`` (the given ``values``, e.g. a dimension)."""

    name: str
    label: str
    lo: float = 0.0
    hi: float = 1.0
    n: int = 41
    scale: str = "log"
    values: tuple = ()
    linthresh: float = 1.0
    #: points added to a continuous grid, e.g. a condition that holds on a line only
    include: tuple = ()

    def __post_init__(self):
        if not (isinstance(self.name, str) and self.name.isidentifier()):
            raise ValidityMapError(f"name={self.name!r} must be a Python identifier (the fields' keyword)")
        _text(self.label, "label")
        if self.scale not in SCALES:
            raise ValidityMapError(f"scale={self.scale!r} is not one of {SCALES}")
        if self.scale == "discrete":
            if not self.values:
                raise ValidityMapError(f"values={self.values!r}: a discrete axis needs its values")
            for v in self.values:
                _finite(v, "values")
            return
        lo, hi = _finite(self.lo, "lo"), _finite(self.hi, "hi")
        if not lo < hi:
            raise ValidityMapError(f"lo={self.lo!r} must be below hi={self.hi!r}")
        if self.scale == "log" and lo <= 0:
            raise ValidityMapError(f"lo={self.lo!r}: a log axis needs lo > 0")
        _count(self.n, "n", 2)
        if self.scale == "symlog" and _finite(self.linthresh, "linthresh") <= 0:
            raise ValidityMapError(f"linthresh={self.linthresh!r} must be > 0")
        for v in self.include:
            if not lo <= _finite(v, "include") <= hi:
                raise ValidityMapError(f"include={self.include!r}: {v!r} lies outside [lo, hi]")

    def grid(self) -> np.ndarray:
        if self.scale == "discrete":
            return np.asarray(self.values, dtype=float)
        if self.scale == "log":
            g = np.geomspace(self.lo, self.hi, self.n)
        elif self.scale == "linear":
            g = np.linspace(self.lo, self.hi, self.n)
        else:
            # symlog: evenly spaced in asinh(v / linthresh), both signs on the grid
            u = np.linspace(np.arcsinh(self.lo / self.linthresh), np.arcsinh(self.hi / self.linthresh),
                            self.n)
            g = self.linthresh * np.sinh(u)
        return np.union1d(g, np.asarray(self.include, dtype=float))

    def strategy(self):
        """A hypothesis strategy over the axis (log axes drawn evenly in the exponent)."""
        from hypothesis import strategies as st
        if self.scale == "discrete":
            return st.sampled_from(tuple(float(v) for v in self.values))
        if self.scale == "log":
            return st.floats(math.log10(self.lo), math.log10(self.hi)).map(lambda e: 10.0 ** e)
        return st.floats(self.lo, self.hi)

    @property
    def window(self) -> tuple[float, float]:
        g = self.grid()
        return float(g.min()), float(g.max())


@dataclass(frozen=True)
class Field:
    """The error of one form on the grid: ``error(**{x.name: X, y.name: Y})`` returns an array of
    the grid's shape (NaN where the form is undefined, inf where its reference is)."""

    label: str
    error: Callable[..., np.ndarray]

    def __post_init__(self):
        _text(self.label, "label")
        if not callable(self.error):
            raise ValidityMapError(f"error={self.error!r} for {self.label!r} is not callable")


@dataclass(frozen=True)
class Boundary:
    """The boundary of the claim's condition, drawn in red: the zero level of ``level(**grid)``
    (positive where the condition holds), and/or an explicit ``curve`` ``(xs, ys)``, and/or special
    ``points`` ``((x, y, label), ...)``.  At least one of them must fall inside the map."""

    label: str
    level: Callable[..., np.ndarray] | None = None
    curve: tuple = ()
    points: tuple = ()

    def __post_init__(self):
        _text(self.label, "label")
        if self.level is None and not self.curve and not self.points:
            raise ValidityMapError(f"boundary {self.label!r} has no level, curve or points")
        if self.level is not None and not callable(self.level):
            raise ValidityMapError(f"level={self.level!r} is not callable")
        if self.curve:
            if len(self.curve) != 2 or len(self.curve[0]) != len(self.curve[1]) or len(self.curve[0]) < 2:
                raise ValidityMapError(f"curve must be (xs, ys) of equal length >= 2, got {self.curve!r}")
        for p in self.points:
            if len(p) != 3:
                raise ValidityMapError(f"points entry {p!r} must be (x, y, label)")


@dataclass(frozen=True)
class Mark:
    """A point marked on the map: a counterexample the claim's check pins, or a notable setting."""

    x: float
    y: float
    label: str

    def __post_init__(self):
        _finite(self.x, "x")
        _finite(self.y, "y")
        _text(self.label, "label")


@dataclass(frozen=True)
class MapSpec:
    """One validity map of one claim.  ``fields[0]`` is the printed form; the others (the corrected
    form, another reading) are drawn beside it on the same colour scale.  ``criterion`` is
    ``(op, threshold)`` that a trustworthy value meets (usually ``("<=", tolerance)``); ``reference``
    says what the error is measured against; ``fixed`` the other parameters' values."""

    claim: str
    x: Axis
    y: Axis
    fields: tuple
    quantity: str
    boundary: Boundary
    criterion: tuple
    reference: str
    fixed: str = ""
    marks: tuple = ()
    search: bool = True

    def __post_init__(self):
        _text(self.claim, "claim")
        _text(self.quantity, "quantity")
        _text(self.reference, "reference")
        for name in ("x", "y"):
            if not isinstance(getattr(self, name), Axis):
                raise ValidityMapError(f"{name}={getattr(self, name)!r} is not an Axis")
        if self.x.name == self.y.name:
            raise ValidityMapError(f"x and y share the name {self.x.name!r}")
        if not self.fields or not all(isinstance(f, Field) for f in self.fields):
            raise ValidityMapError(f"fields={self.fields!r} must be a non-empty tuple of Field")
        if not isinstance(self.boundary, Boundary):
            raise ValidityMapError(f"boundary={self.boundary!r} is not a Boundary")
        if not (isinstance(self.criterion, tuple) and len(self.criterion) == 2
                and self.criterion[0] in OPS):
            raise ValidityMapError(f"criterion={self.criterion!r} must be (op, threshold), op in {sorted(OPS)}")
        if _finite(self.criterion[1], "criterion threshold") <= 0:
            raise ValidityMapError(f"criterion={self.criterion!r}: the threshold must be > 0 (log scale)")
        if not all(isinstance(m, Mark) for m in self.marks):
            raise ValidityMapError(f"marks={self.marks!r} must be Mark objects")

    def evaluate(self, field_: Field, X, Y) -> np.ndarray:
        out = field_.error(**{self.x.name: X, self.y.name: Y})
        try:
            out = np.broadcast_to(np.asarray(out, dtype=float), np.shape(X))
        except ValueError:
            raise ValidityMapError(f"{self.claim}: field {field_.label!r} returned shape "
                                   f"{np.shape(out)}, not the grid's {np.shape(X)}") from None
        return np.abs(out)

    def holds(self, values: np.ndarray) -> np.ndarray:
        op, threshold = self.criterion
        with np.errstate(invalid="ignore"):
            return OPS[op](values, threshold) & np.isfinite(values)


@dataclass
class ValidityMap:
    """A computed map: the grid, each field's values, where the criterion holds, the boundary's
    level on the grid, the counterexample found and the time it took."""

    spec: MapSpec
    X: np.ndarray
    Y: np.ndarray
    values: list
    holds: list
    level: np.ndarray | None
    counterexample: Mark | None
    examples: int
    seconds: float
    marks: tuple = field(default_factory=tuple)


def _boundary_visible(spec: MapSpec, level) -> bool:
    b = spec.boundary
    if level is not None and np.nanmin(level) < 0 < np.nanmax(level):
        return True
    if b.curve:
        # sample every segment (NaN separates pieces), so a line across the window counts
        xs, ys = (np.asarray(c, float) for c in b.curve)
        u = np.linspace(0.0, 1.0, 101)[:, None]
        px, py = xs[:-1] + u * np.diff(xs), ys[:-1] + u * np.diff(ys)
        (x0, x1), (y0, y1) = spec.x.window, spec.y.window
        with np.errstate(invalid="ignore"):
            if np.any((px >= x0) & (px <= x1) & (py >= y0) & (py <= y1)):
                return True
    (x0, x1), (y0, y1) = spec.x.window, spec.y.window
    return any(x0 <= x <= x1 and y0 <= y <= y1 for x, y, _ in b.points)


#: examples of a map's counterexample search; the map shows hypothesis' first counterexample
#: unshrunk (shrinking a point of a smooth field costs hundreds of evaluations and adds nothing
#: to the picture)
SEARCH_EXAMPLES = 20


def _short_search():
    """The active hypothesis profile (``ci``: derandomised), with SEARCH_EXAMPLES examples and no
    shrinking, for the searches inside."""
    from hypothesis import Phase
    from verify.profiles import derived
    return derived("validity-map", max_examples=SEARCH_EXAMPLES,
                   phases=(Phase.explicit, Phase.generate))


def _search(spec: MapSpec) -> tuple[Mark | None, int]:
    """Short hypothesis search for a point where the printed field misses the criterion."""
    from verify.properties import search
    failing = []
    printed = spec.fields[0]

    def printed_error(**point):
        grid = {k: np.array([[v]], dtype=float) for k, v in point.items()}
        value = float(np.abs(np.asarray(printed.error(**grid), dtype=float)).ravel()[0])
        if not spec.holds(value):
            failing.append(point)
        # an undefined printed form (NaN) is a counterexample like an infinite error
        return math.inf if math.isnan(value) else value

    printed_error.__qualname__ = f"validity map {spec.claim}: {printed.label}"
    with _short_search():
        result = search(printed_error, spec.criterion,
                        **{spec.x.name: spec.x.strategy(), spec.y.name: spec.y.strategy()})
    if result.ok or not failing:
        return None, result.examples
    # hypothesis replays its counterexample last
    p = failing[-1]
    return Mark(p[spec.x.name], p[spec.y.name], "counterexample (hypothesis)"), result.examples


def compute(spec: MapSpec) -> ValidityMap:
    """Evaluate every field of ``spec`` on its grid and search the printed field for a counterexample."""
    if not isinstance(spec, MapSpec):
        raise ValidityMapError(f"spec={spec!r} is not a MapSpec")
    start = time.perf_counter()
    X, Y = np.meshgrid(spec.x.grid(), spec.y.grid())
    values = []
    with np.errstate(all="ignore"):
        for f in spec.fields:
            v = spec.evaluate(f, X, Y)
            if not np.any(np.isfinite(v)):
                raise ValidityMapError(f"{spec.claim}: field {f.label!r} is not finite anywhere on the grid")
            values.append(v)
        level = None
        if spec.boundary.level is not None:
            level = np.broadcast_to(np.asarray(spec.boundary.level(**{spec.x.name: X, spec.y.name: Y}),
                                               dtype=float), X.shape)
    if not _boundary_visible(spec, level):
        raise ValidityMapError(f"{spec.claim}: the boundary {spec.boundary.label!r} does not cross "
                               f"the map's window {spec.x.window} x {spec.y.window}")
    with np.errstate(all="ignore"):
        counterexample, examples = _search(spec) if spec.search else (None, 0)
    return ValidityMap(spec, X, Y, values, [spec.holds(v) for v in values], level, counterexample,
                       examples, time.perf_counter() - start, spec.marks)


# --- drawing -------------------------------------------------------------------------------------

def _scale_axis(ax, axis: Axis, which: str):
    from matplotlib.ticker import LogLocator, NullLocator
    ticks = getattr(ax, f"{which}axis")
    if axis.scale == "log":
        getattr(ax, f"set_{which}scale")("log")
        # a few labelled decades and no minor ticks: ticks dominate the cost of saving a figure
        ticks.set_major_locator(LogLocator(numticks=8))
        ticks.set_minor_locator(NullLocator())
    elif axis.scale == "symlog":
        getattr(ax, f"set_{which}scale")("symlog", linthresh=axis.linthresh)
        ticks.set_minor_locator(NullLocator())
        # every other decade, so the signed labels never overlap
        top = math.floor(math.log10(max(abs(axis.lo), abs(axis.hi))))
        decades = [10.0 ** k for k in range(top, math.floor(math.log10(axis.linthresh)), -2)]
        getattr(ax, f"set_{which}ticks")(sorted([-d for d in decades if -d >= axis.lo] + [0.0]
                                                + [d for d in decades if d <= axis.hi]))
    elif axis.scale == "discrete":
        getattr(ax, f"set_{which}ticks")(list(axis.values))
    getattr(ax, f"set_{which}label")(axis.label)


def _norm(vmap: ValidityMap):
    from matplotlib.colors import LogNorm
    threshold = float(vmap.spec.criterion[1])
    finite = np.concatenate([v[np.isfinite(v)] for v in vmap.values])
    top = min(max(float(finite.max()) if finite.size else threshold, threshold * 10), threshold * CEILING)
    floor = max(threshold * FLOOR, min(float(finite[finite > 0].min()) if np.any(finite > 0) else top,
                                       threshold / 10))
    return LogNorm(vmin=floor, vmax=top)


#: how a map draws its marked points and the counterexample, on the panels and in the legend
MARK_STYLE = dict(marker="D", mfc="none", mec="magenta", mew=2, ls="none")
CROSS_STYLE = dict(marker="X", mfc="white", mec="black", ls="none")


def draw(vmap: ValidityMap):
    """The figure of a computed map: one panel per field, a shared log colour scale."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if not isinstance(vmap, ValidityMap):
        raise ValidityMapError(f"vmap={vmap!r} is not a ValidityMap (make one with compute)")
    spec = vmap.spec
    norm = _norm(vmap)
    viridis = matplotlib.colormaps["viridis"]
    cmap = viridis.with_extremes(bad="0.8", over=viridis(1.0))
    n = len(spec.fields)
    fig, axes = plt.subplots(1, n, figsize=(max(4.6 * n + 1.2, 8.0), 4.6), squeeze=False,
                             sharey=True, layout="constrained")
    axes = axes[0]
    meshes = []
    for ax, f, values, ok in zip(axes, spec.fields, vmap.values, vmap.holds):
        shown = np.where(np.isposinf(values), norm.vmax, np.clip(values, norm.vmin, None))
        meshes.append(ax.pcolormesh(vmap.X, vmap.Y, shown, norm=norm, cmap=cmap, shading="nearest",
                                    rasterized=True))
        if ok.any() and not ok.all():
            ax.contour(vmap.X, vmap.Y, ok.astype(float), levels=[0.5], colors="white",
                       linewidths=1.6, linestyles="--")
        _draw_boundary(ax, vmap)
        for m in vmap.marks:
            ax.plot(m.x, m.y, ms=8, clip_on=False, zorder=5, **MARK_STYLE)
        if vmap.counterexample is not None and f is spec.fields[0]:
            ax.plot(vmap.counterexample.x, vmap.counterexample.y, ms=12, clip_on=False, zorder=5,
                    **dict(CROSS_STYLE, mew=1.2))
        _scale_axis(ax, spec.x, "x")
        ax.set_title(f.label, fontsize=10)
    _scale_axis(axes[0], spec.y, "y")
    bar = fig.colorbar(meshes[0], ax=list(axes), fraction=0.046, pad=0.02, extend="both")
    bar.set_label(_wrap(spec.quantity, 48))
    from matplotlib.ticker import LogLocator, NullLocator
    bar.ax.yaxis.set_major_locator(LogLocator(numticks=7))
    bar.ax.yaxis.set_minor_locator(NullLocator())
    for m in meshes[1:]:
        m.colorbar = bar   # one shared scale; the reports add no second bar
    handles = [Line2D([], [], color="red", lw=2, label=spec.boundary.label),
               Line2D([], [], color="white", lw=1.6, ls="--",
                      label=f"outline: where {spec.criterion[0]} {spec.criterion[1]:g}")]
    if any(np.isnan(v).any() for v in vmap.values):
        handles.append(Patch(facecolor="0.8", label="form undefined (NaN)"))
    if vmap.counterexample is not None:
        handles.append(Line2D([], [], ms=10, label=f"hypothesis counterexample "
                              f"({vmap.counterexample.x:.3g}, {vmap.counterexample.y:.3g})",
                              **CROSS_STYLE))
    handles += [Line2D([], [], ms=7, label=label, **MARK_STYLE)
                for label in dict.fromkeys(m.label for m in vmap.marks)]
    ncol = min(n + 1, len(handles))
    width = int(15 * fig.get_figwidth() / ncol)
    for h in handles:
        h.set_label(_wrap(h.get_label(), width))
    legend = fig.legend(handles=handles, loc="outside lower center", ncol=ncol, fontsize=8,
                        facecolor="0.35", labelcolor="white", framealpha=1)
    legend.get_frame().set_edgecolor("0.35")
    title = f"{spec.claim}: {spec.quantity}" + (f"  ({spec.fixed})" if spec.fixed else "")
    fig.suptitle(_wrap(title, int(12.5 * fig.get_figwidth())), fontsize=10)
    return fig


def _wrap(text: str, width: int) -> str:
    """``textwrap.fill`` that never breaks inside $...$ (mathtext split over lines renders raw)."""
    parts = text.split("$")
    kept = "$".join(p.replace(" ", "\0") if i % 2 else p for i, p in enumerate(parts))
    return textwrap.fill(kept, width).replace("\0", " ")


def _draw_boundary(ax, vmap: ValidityMap):
    b = vmap.spec.boundary
    if vmap.level is not None and np.nanmin(vmap.level) < 0 < np.nanmax(vmap.level):
        ax.contour(vmap.X, vmap.Y, vmap.level, levels=[0.0], colors="red", linewidths=2)
    if b.curve:
        ax.plot(*b.curve, color="red", lw=2)
    for x, y, label in b.points:
        ax.plot(x, y, marker="*", ms=15, color="red", mec="white", ls="none")
        ax.annotate(label, (x, y), textcoords="offset points", xytext=(7, 7), color="red",
                    fontsize=8, fontweight="bold")


def caption(spec: MapSpec) -> str:
    """What the figure shows, for ``report_figure``."""
    forms = " and ".join(f.label for f in spec.fields)
    return (f"Validity map of {spec.claim}: {spec.quantity} ({forms}) over {spec.x.label} and "
            f"{spec.y.label}, against {spec.reference}"
            + (f"; {spec.fixed}" if spec.fixed else "")
            + f". Red: {spec.boundary.label}. White dashed: where {spec.criterion[0]} "
              f"{spec.criterion[1]:g}. Cross: the printed form's counterexample that a hypothesis "
              "search found. A picture of where the formula can be trusted; the verdict is decided "
              "by the claim's checks.")


def map_of(specs: dict, claim_id: str):
    """(figure, caption) of ``claim_id``'s map.  Its encodings are read unlogged: a map pictures
    a formula, it is not the check that evaluates the claim (``theory.registry.unlogged``)."""
    with unlogged():
        spec = specs[claim_id]()
        return draw(compute(spec)), caption(spec)


# --- evaluating registry encodings over a grid ---------------------------------------------------

class _Stack(np.ndarray):
    """A stack of matrices (leading grid axes) that lambdified matrix expressions can use:
    ``.dot`` multiplies matrices (or scales by a grid of scalars), ``.T`` transposes each matrix."""

    def dot(self, other):
        if isinstance(other, _Stack):
            return np.matmul(self, other).view(_Stack)
        return np.multiply(self, np.asarray(other)[..., None, None]).view(_Stack)

    @property
    def T(self):
        return np.swapaxes(self, -1, -2)


@lru_cache(maxsize=None)
def _lambdified(expr):
    import sympy as sp
    symbols = tuple(sorted(expr.free_symbols, key=lambda s: s.name))
    return sp.lambdify(symbols, expr, modules="numpy"), tuple(s.name for s in symbols), tuple(
        isinstance(s, sp.MatrixSymbol) for s in symbols)


def form(expr) -> Callable[..., np.ndarray]:
    """A registry encoding ``expr`` (sympy, or a plain number), lambdified once, evaluated by symbol name:
    ``form(expr)(s=array, lam=array, ...)``.  Matrix symbols take stacks of shape
    ``grid + (rows, cols)``; names the expression does not use are ignored, a missing one is a
    :class:`ValidityMapError`."""
    import sympy as sp
    if isinstance(expr, (int, float)) and not isinstance(expr, bool):
        expr = sp.sympify(expr)   # the registry's tables hold plain numbers beside expressions
    if not isinstance(expr, (sp.Basic, sp.MatrixBase)):
        raise ValidityMapError(f"expr={expr!r} is not a sympy expression")
    f, names, matrix = _lambdified(expr)

    def evaluate(**values):
        if missing := [n for n in names if n not in values]:
            raise ValidityMapError(f"form {expr} needs values for {missing}")
        args = [np.asarray(values[n], dtype=float).view(_Stack) if m else np.asarray(values[n], dtype=float)
                for n, m in zip(names, matrix)]
        with np.errstate(all="ignore"):
            return np.asarray(f(*args))
    evaluate.names = names
    return evaluate


def bisect(f: Callable[[np.ndarray], np.ndarray], lo, hi, iterations: int = 100) -> np.ndarray:
    """The root of ``f`` (increasing from < 0 at ``lo`` to > 0 at ``hi``) on every grid point at
    once, by bisection."""
    lo, hi = np.broadcast_arrays(np.asarray(lo, dtype=float), np.asarray(hi, dtype=float))
    lo, hi = lo.copy(), hi.copy()
    for _ in range(iterations):
        mid = (lo + hi) / 2
        below = f(mid) < 0
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return (lo + hi) / 2


# --- an exact reference shared by the bias_workshop and lazy_rich maps ---------------------------

def _balanced_primitive(x, target, half_gap):
    """F(x) with dF/dx = 1/((target - x) sqrt(x^2 + half_gap^2)); the sum p x + R is formed
    without cancellation for x < 0."""
    p, q2 = target, half_gap ** 2
    R = np.sqrt(p ** 2 + q2) * np.sqrt(x ** 2 + q2)
    with np.errstate(all="ignore"):
        inner = np.where(x >= 0, p * x + R, q2 * (p ** 2 + q2 + x ** 2) / (R - p * x))
        return np.log(np.abs((q2 + inner) / (p - x))) / np.sqrt(p ** 2 + q2)


def balanced_mode_time(x0, x, target, half_gap, rate: float = 1.0):
    """Time for ``x' = 2 rate sqrt(x^2 + half_gap^2) (target - x)`` to go from ``x0`` to ``x``
    (between ``x0`` and ``target``), in closed form.  With half_gap = lambda/2 this is the
    lambda-balanced mode of lazy_rich Thm 5.1 (tau s' = sqrt(lambda^2 + 4 s^2)(s~ - s), rate = 1/tau);
    with half_gap = Delta/2 and rate d/tau, a two-layer mode of unbalanced layers
    (w1^2 - w2^2 = Delta, tau a' = sqrt(4 a^2 + Delta^2)(s - d a), target s/d).  Time in the
    flow's own units; inf where x is never reached (x beyond target, or a sign change at
    half_gap = 0)."""
    with np.errstate(all="ignore"):
        t = (_balanced_primitive(x, target, half_gap) - _balanced_primitive(x0, target, half_gap)) / (2 * rate)
        # half_gap = 0 and x0 < 0: x' = 2 rate |x| (target - x) keeps x < 0, F = -ln(|x|/(p - x))/p
        g = lambda v: -np.log(np.abs(v) / np.abs(target - v)) / target   # noqa: E731
        below = (np.asarray(half_gap) == 0) & (np.asarray(x0) < 0)
        t = np.where(below, np.where(np.asarray(x) < 0, (g(x) - g(x0)) / (2 * rate), np.inf), t)
    return np.where(np.isnan(t), np.inf, t)


def all_specs() -> dict:
    """Every discovered paper's maps, claim ID -> spec function: ``SPECS`` of each
    ``verify/<paper>/validity.py`` (a paper without holds-if claims or limits may have none)."""
    import importlib
    import importlib.util

    from theory.papers import PAPERS
    specs = {}
    for paper in PAPERS:
        if importlib.util.find_spec(f"verify.{paper}.validity") is not None:
            specs.update(importlib.import_module(f"verify.{paper}.validity").SPECS)
    return specs


def claim_params(specs: dict) -> list:
    """``pytest.param`` per claim of ``specs`` (claim ID -> spec function), each marked with its
    claim, for the one parametrised map test (``verify/test_validity_maps.py``)."""
    import pytest
    if not specs:
        raise ValidityMapError("specs is empty: a paper's validity module lists its maps in SPECS")
    return [pytest.param(claim_id, marks=pytest.mark.claim(claim_id), id=claim_id) for claim_id in specs]
