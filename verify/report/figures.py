"""Figures of a run, saved as files the moment a test hands them over (``report_figure``).

Each file is written under a temporary name and renamed (:mod:`.files`).  Every report is
rendered from ``claims.json`` plus these files, so a partial run, an xdist worker
or a later re-render all see the same figures.  Each figure is saved twice under
``reports/figures/`` as one PNG at :data:`PNG_DPI`, shown by the HTML report at the size of the
figure and placed on A4 pages in the PDFs.

Before saving, :func:`tidy` fixes what a figure function may have left: images and meshes get a
colour bar, a curve labelled as simulation but drawn as a line is drawn as markers, two legend
entries with the same label are told apart by their style, and the saved
area is cropped to what was drawn, so axis labels are never cut at the edge; a figure without a
layout engine gets matplotlib's constrained layout, so neighbouring panels never collide.
"""
from __future__ import annotations

import collections
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import QuadMesh
from matplotlib.ticker import LogFormatterSciNotation
from PIL import Image

from numerics import atomic

PNG_DPI = 150
#: the margin (inches) kept around what a figure draws
MARGIN = 0.08


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:120]


def tidy(fig) -> None:
    if fig.get_layout_engine() is None:
        # Panels laid out by a grid are spaced so labels of neighbours never collide.
        fig.set_layout_engine("constrained")
    for ax in list(fig.axes):
        if ax.get_label() == "<colorbar>":
            continue
        for mappable in ax.images + [c for c in ax.collections if isinstance(c, QuadMesh)]:
            if getattr(mappable, "colorbar", None) is None:
                fig.colorbar(mappable, ax=ax, fraction=0.046, pad=0.03)
        for line in ax.get_lines():
            _simulation_as_markers(line)
        legend = ax.get_legend()
        if legend is not None:
            _distinct_labels(ax, legend)
    for ax in fig.axes:
        _plain_log_labels(ax)


class PlainLogFormatter(LogFormatterSciNotation):
    """matplotlib's log-axis labels written as plain Unicode text ('2×10⁻¹') where they would be
    mathtext: parsing the mathtext of the tick labels took about a third of the time of saving a
    figure (each label is parsed anew in every draw of every figure).  A label it cannot write
    plainly stays mathtext."""

    def __call__(self, x, pos=None):
        label = super().__call__(x, pos)
        math = _MATHDEFAULT.fullmatch(label)
        if math is None:
            return label
        plain = _EXPONENT.sub(lambda e: e.group(1).translate(_SUPERSCRIPT),
                              math.group(1).replace("\\times", "×").replace("\\minus", "-"))
        return label if re.search(r"[\\{}^$]", plain) else plain


_MATHDEFAULT = re.compile(r"\$\\mathdefault\{(.*)\}\$")
_EXPONENT = re.compile(r"\^\{([-−\d]+)\}")
_SUPERSCRIPT = str.maketrans("0123456789-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻")


def _plain_log_labels(ax) -> None:
    """Swap matplotlib's default log formatter (mathtext labels) for :class:`PlainLogFormatter`,
    on the colour bar's own record too (it sets its formatter again when it redraws)."""
    for axis in (ax.xaxis, ax.yaxis):
        for get, put in ((axis.get_major_formatter, axis.set_major_formatter),
                         (axis.get_minor_formatter, axis.set_minor_formatter)):
            old = get()
            if type(old) is not LogFormatterSciNotation:
                continue
            new = PlainLogFormatter(base=old._base, labelOnlyBase=old.labelOnlyBase,
                                    minor_thresholds=old.minor_thresholds, linthresh=old._linthresh)
            put(new)
            bar = getattr(ax, "_colorbar", None)
            if bar is not None and bar.formatter is old:
                bar.formatter = new
            if bar is not None and bar.minorformatter is old:
                bar.minorformatter = new


SIMULATED = re.compile(r"simulat|trained|measured|empirical|experiment", re.I)


def _simulation_as_markers(line) -> None:
    """A curve labelled as simulation but drawn as a plain line is redrawn as markers (about 30,
    evenly spaced), so simulation never looks like theory."""
    no_marker = line.get_marker() in (None, "", "None", " ")
    if SIMULATED.search(line.get_label() or "") and no_marker and line.get_linestyle() != "None":
        line.set_marker("o")
        line.set_markersize(3)
        line.set_linestyle("None")
        line.set_markevery(max(1, len(line.get_xdata()) // 30))


def _style(handle) -> str:
    line = getattr(handle, "get_linestyle", lambda: None)()
    return "line" if line not in (None, "None", "", " ") else "markers"


def _distinct_labels(ax, legend) -> None:
    handles, labels = ax.get_legend_handles_labels()
    seen = collections.Counter(labels)
    if all(n == 1 for n in seen.values()):
        return
    styles = collections.Counter((label, _style(h)) for h, label in zip(handles, labels))
    count: collections.Counter = collections.Counter()
    new = []
    for handle, label in zip(handles, labels):
        if seen[label] > 1:
            style = _style(handle)
            count[(label, style)] += 1
            number = f" {count[(label, style)]}" if styles[(label, style)] > 1 else ""
            label = f"{label} ({style}{number})"
        new.append(label)
    ax.legend(handles, new, fontsize=legend._fontsize, loc="best")


def save(fig, folder: Path, name: str) -> dict:
    """Save ``fig`` as ``name``.png under ``folder``; close it; return its path (``{"png": ...}``)."""
    folder.mkdir(parents=True, exist_ok=True)
    tidy(fig)
    # One Agg drawing at the PNG's resolution lays the figure out, gives the crop and is the
    # PNG's pixels.  An SVG beside it and a savefig per file drew every figure four more times
    # (a dry pass for the crop, then the drawing, per file): half of ci's time in matplotlib.
    fig.set_dpi(PNG_DPI)
    fig.canvas.draw()
    drawn = fig.get_tightbbox(fig.canvas.get_renderer())
    fig.set_layout_engine("none")
    path = folder / f"{name}.png"
    atomic.write_with(path, lambda tmp: _write_png(fig, tmp, drawn))
    plt.close(fig)
    return {"png": f"{folder.name}/{path.name}"}


def _write_png(fig, path: Path, drawn) -> None:
    """``fig`` cropped to what was ``drawn`` (a bbox in inches) with a margin."""
    pixels = _drawn_pixels(fig, drawn)
    if pixels is None:
        fig.savefig(path, format="png", bbox_inches=drawn.padded(MARGIN), dpi=PNG_DPI)
    else:
        Image.fromarray(pixels).save(path, format="png", dpi=(PNG_DPI, PNG_DPI))


def _drawn_pixels(fig, drawn):
    """The canvas's RGB pixels inside ``drawn`` (inches, from the lower left) with a ``MARGIN``
    of the figure's face colour, or None where something drawn sticks out of the figure.  RGB,
    not RGBA: the face is opaque, and an alpha channel cost the PDFs a mask per image."""
    height, width = fig.canvas.get_width_height(physical=True)[::-1]
    x0, x1 = int(np.floor(drawn.x0 * PNG_DPI)), int(np.ceil(drawn.x1 * PNG_DPI))
    top, bottom = height - int(np.ceil(drawn.y1 * PNG_DPI)), height - int(np.floor(drawn.y0 * PNG_DPI))
    if x0 < 0 or top < 0 or x1 > width or bottom > height:
        return None
    pad = round(MARGIN * PNG_DPI)
    out = np.empty((bottom - top + 2 * pad, x1 - x0 + 2 * pad, 3), dtype=np.uint8)
    out[...] = np.round(np.asarray(matplotlib.colors.to_rgb(fig.get_facecolor())) * 255)
    out[pad:pad + bottom - top, pad:pad + x1 - x0] = \
        np.asarray(fig.canvas.buffer_rgba())[top:bottom, x0:x1, :3]
    return out
