"""Typeset a finding on a PDF page: words and formulas laid out in lines of a given width.

A finding is a sequence of pieces (:data:`verify.report.findings.Piece`): words, and formulas as
LaTeX in the paper's notation.  The formulas are typeset by matplotlib's mathtext (the PDFs need
no TeX installation); words and formulas share lines, wrapped at spaces between words and around
formulas, never cut; formulas are drawn as glyph paths, each parsed once (:func:`path`).  A
formula wider than the line is set smaller until it fits, down to
:data:`SMALLEST` of the text size; past that it is set as Unicode words (wrapped like the text),
as is a formula mathtext cannot parse -- so nothing is ever cut off or printed as LaTeX source.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextPath, text_to_path

from verify.report import maths

#: the smallest a formula is set, as a share of the text size, before it falls back to words
SMALLEST = 0.6
LEADING = 1.3


@dataclass(frozen=True)
class Run:
    """One drawn string on a line: ``x`` inches from the line's left, mathtext or plain."""

    x: float
    text: str
    math: bool
    size: float


@dataclass(frozen=True)
class Line:
    runs: tuple[Run, ...]
    #: inches above and below the baseline
    ascent: float
    descent: float


@lru_cache(maxsize=4096)
def _measure_math(tex: str, size: float) -> tuple[float, float, float] | None:
    """Width, height above the baseline and depth below it (inches) of a mathtext string; None
    when mathtext cannot parse it.  Measured by the parser that :func:`path` draws with, whose
    cache then serves the drawing: each formula is parsed once."""
    try:
        width, height, depth = text_to_path.get_text_width_height_descent(
            tex, FontProperties(size=size), ismath=True)
    except ValueError:
        return None
    return width / 72, (height - depth) / 72, depth / 72


def path(tex: str, size: float) -> TextPath:
    """A formula's glyphs as a path in points, its baseline at y = 0."""
    return TextPath((0, 0), tex, size=size, prop=FontProperties(size=size))


def _tokens(pieces, size: float, width_in: float, measure):
    """(text, is maths, width, ascent, descent, size, glued) per unbreakable token: a word, or a
    whole formula; ``glued`` when no space stands before it in the finding (``x:``)."""
    out, spaced = [], True
    for kind, text in pieces:
        if kind == "math":
            tex = maths.mathtext(text)
            for scale in (1.0, 0.85, 0.7, SMALLEST):
                box = _measure_math(tex, size * scale)
                if box is None or box[0] <= width_in:
                    break
            if box is not None and box[0] <= width_in:
                out.append((tex, True, box[0], box[1], box[2], size * scale, not spaced))
                spaced = False
                continue
            text = maths.unicode(text)  # unparsable or too wide even when small: as words
        words = text.replace("\n", " ").split(" ")
        for k, word in enumerate(words):
            if word:
                glued = k == 0 and not spaced
                out.append((word, False, measure(word, size), 0.75 * size / 72, 0.25 * size / 72,
                            size, glued))
        spaced = text.endswith(" ") if text else spaced
    return out


def layout(pieces, width_in: float, size: float, measure) -> list[Line]:
    """``pieces`` in lines no wider than ``width_in`` inches; ``measure(text, size)`` is the
    width of plain text in inches.  A word longer than a line stands alone on its line."""
    space = measure(" ", size)
    base = 0.75 * size / 72, 0.25 * size / 72
    lines, runs, x, (up, down) = [], [], 0.0, base
    for text, math, w, asc, desc, at, glued in _tokens(pieces, size, width_in, measure):
        gap = 0.0 if glued or not runs else space
        if runs and x + gap + w > width_in:
            lines.append(Line(tuple(runs), up, down))
            runs, x, gap, (up, down) = [], 0.0, 0.0, base
        last = runs[-1] if runs else None
        if last is not None and not math and not last.math and last.size == at:
            # one string per run of words
            runs[-1] = Run(last.x, last.text + (" " if gap else "") + text, False, at)
        else:
            runs.append(Run(x + gap, text, math, at))
        x += gap + w
        up, down = max(up, asc), max(down, desc)
    if runs:
        lines.append(Line(tuple(runs), up, down))
    return lines


def height(lines: list[Line], size: float) -> float:
    """Inches the lines take, line gaps included."""
    gap = (LEADING - 1) * size / 72
    return sum(line.ascent + line.descent + gap for line in lines)
