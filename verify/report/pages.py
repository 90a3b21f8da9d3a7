"""A4 pages drawn straight into a PDF with reportlab, for the reports' PDFs (:mod:`.pdf`): the
page geometry, text measured and wrapped in the font it is drawn in (DejaVu Sans, which matplotlib
ships), :class:`Pages` filled top to bottom, and :func:`document`, which writes one PDF
atomically.  Positions and sizes are inches from a page's bottom left."""
from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.colors import to_rgb
from matplotlib.font_manager import FontProperties, findfont
from matplotlib.ft2font import FT2Font
from matplotlib.path import Path as MPath
from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas

from numerics import atomic
from verify.report import typeset

PAGE = (8.27, 11.69)  # A4 portrait, inches
MARGIN = 0.5  # inches, left and right
TOP, BOTTOM = 11.69 - 0.55, 0.65  # inches from the bottom edge
FONT = 7.0
LEADING = 1.3
ROW_LINES = 10  # most lines of one table cell before it points to `python -m verify show`
TEXT_W = PAGE[0] - 2 * MARGIN  # inches of text across the page
STEP = FONT * LEADING / 72  # inches from one line of text to the next


def _font_file(bold: bool) -> str:
    """The DejaVu Sans file matplotlib ships: the one font both measured and drawn."""
    return findfont(FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal"))


@cache
def _font(bold: bool) -> FT2Font:
    return FT2Font(_font_file(bold))


@cache
def _char_width(ch: str, bold: bool) -> float:
    """Width of ``ch`` in points at size 1."""
    font = _font(bold)
    font.set_size(100, 72)
    font.set_text(ch)
    return font.get_width_height()[0] / 64 / 100


def width(text: str, size: float = FONT, bold: bool = False) -> float:
    """The width of ``text`` in inches, drawn at ``size`` points."""
    return sum(_char_width(ch, bold) for ch in text) * size / 72


def wrap(text: str, width_in: float, size: float = FONT, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width_in`` inches (long words are split)."""
    lines, space = [], width(" ", size, bold)
    for paragraph in str(text).split("\n"):
        line, line_w = "", 0.0
        for word in paragraph.split(" "):
            # widths add up character by character, so a line's width is its words' plus spaces
            word_w = width(word, size, bold)
            if line and line_w + space + word_w <= width_in:
                line, line_w = f"{line} {word}", line_w + space + word_w
                continue
            if not line and word_w <= width_in:
                line, line_w = word, word_w
                continue
            if line:
                lines.append(line)
            while width(word, size, bold) > width_in:
                cut = max(1, max(k for k in range(1, len(word) + 1)
                                 if width(word[:k], size, bold) <= width_in))
                lines.append(word[:cut])
                word = word[cut:]
            line, line_w = word, width(word, size, bold)
        lines.append(line)
    return lines


def cut(lines: list[str], most: int, claim_id: str) -> list[str]:
    if len(lines) <= most:
        return lines
    return lines[:most - 1] + [f"… {len(lines) - most + 1} more lines: python -m verify show "
                               f"'{claim_id}'"]


#: the text font: the DejaVu Sans that matplotlib ships (every glyph the records use)
FONTS = {False: "DejaVuSans", True: "DejaVuSans-Bold"}


@cache
def _registered() -> None:
    """DejaVu Sans, regular and bold, registered with reportlab from matplotlib's font files: the
    font :func:`width` measures is the font the page draws."""
    for bold, name in FONTS.items():
        pdfmetrics.registerFont(TTFont(name, _font_file(bold)))


class Pages:
    """A4 pages filled top to bottom; every page gets the title and the provenance footer.

    Drawn with reportlab straight into the PDF (text in DejaVu Sans, formulas as mathtext glyph
    paths, figures as embedded PNGs): drawing each page as a matplotlib figure spent most of a
    render laying out text (a paper's PDF took 12 s; issue 25's 20 s budget is for all of them).
    Positions and sizes are inches from the page's bottom left, as the layout computes them."""

    def __init__(self, pdf: Canvas, title: str, footer: str):
        _registered()
        self.pdf, self.title, self.footer = pdf, title, footer
        self.y, self.number, self.open = TOP, 0, False
        #: what a page continues from the last one ('' for none): headed '<this> (continued)'
        self.continued = ""

    def new_page(self):
        self.finish()
        self.number += 1
        self.open = True
        self.put(MARGIN, PAGE[1] - 0.3, self.title, size=10, bold=True)
        footer = wrap(self.footer + f" · page {self.number}", TEXT_W, 6)
        for k, line in enumerate(footer[:3]):
            self.put(MARGIN, 0.45 - k * 0.11, line, size=6, colour="#555555")
        self.y = TOP
        if self.continued:
            self.put(MARGIN, self.y, f"{self.continued} (continued)", size=FONT + 1, bold=True,
                     colour="#555555")
            self.y -= (FONT + 1) * LEADING / 72 * 1.4

    def put(self, x_in, y_in, text, size=FONT, bold=False, colour="black", va="top", fill=None,
            pad=0.2):
        """Text at (x, y) inches: ``va`` 'top' puts the first line's ascent at y, 'baseline' its
        baseline; the lines of a multi-line text step ``LEADING``.  ``fill``: a badge of that
        colour behind the text, ``pad`` times the size around it."""
        font = FONTS[bool(bold)]
        lines = str(text).split("\n")
        ascent = pdfmetrics.getAscent(font, size) / 72
        first = y_in - (ascent if va == "top" else 0)
        step = size * LEADING / 72
        if fill is not None:
            margin = pad * size / 72
            wide = max(width(line, size, bold) for line in lines)
            low = first - (len(lines) - 1) * step + pdfmetrics.getDescent(font, size) / 72
            self.rect(x_in - margin, low - margin, wide + 2 * margin, first + ascent - low
                      + 2 * margin, fill)
        self.pdf.setFillColorRGB(*to_rgb(colour))
        self.pdf.setFont(font, size)
        for k, line in enumerate(lines):
            if line:
                self.pdf.drawString(x_in * 72, (first - k * step) * 72, line)

    def rect(self, x_in, y_in, w_in, h_in, colour: str):
        self.pdf.setFillColorRGB(*to_rgb(colour))
        self.pdf.rect(x_in * 72, y_in * 72, w_in * 72, h_in * 72, stroke=0, fill=1)

    def image(self, image: ImageReader, x_in, y_in, w_in, h_in):
        """An image (read once by the caller, who sized the box from it) with its bottom left at
        (x, y), w x h inches."""
        self.pdf.drawImage(image, x_in * 72, y_in * 72, w_in * 72, h_in * 72)

    def chart(self, fig, x_in, y_in, w_in, h_in, dpi: int = 200):
        """A matplotlib figure drawn at ``dpi`` into the w x h inch box at (x, y), then closed."""
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi)
        plt.close(fig)
        buffer.seek(0)
        self.image(ImageReader(buffer), x_in, y_in, w_in, h_in)

    def formula(self, tex: str, size: float, x_in: float, baseline_in: float):
        """A formula's mathtext glyph paths (:func:`.typeset.path`), filled black, its baseline at
        ``baseline_in``; quadratic glyph curves drawn as the cubic curves PDF paths take."""
        outline = self.pdf.beginPath()
        x0, y0 = x_in * 72, baseline_in * 72
        here = (0.0, 0.0)
        for points, code in typeset.path(tex, size).iter_segments(simplify=False):
            pts = [(x0 + a, y0 + b) for a, b in np.asarray(points).reshape(-1, 2)]
            if code == MPath.MOVETO:
                outline.moveTo(*pts[0])
            elif code == MPath.LINETO:
                outline.lineTo(*pts[0])
            elif code == MPath.CURVE3:
                (qx, qy), (ex, ey) = pts
                px, py = here
                outline.curveTo(px + 2 / 3 * (qx - px), py + 2 / 3 * (qy - py),
                                ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey)
            elif code == MPath.CURVE4:
                outline.curveTo(*pts[0], *pts[1], *pts[2])
            elif code == MPath.CLOSEPOLY:
                outline.close()
                continue
            here = pts[-1]
        self.pdf.setFillColorRGB(0, 0, 0)
        self.pdf.drawPath(outline, stroke=0, fill=1, fillMode=FILL_NON_ZERO)

    def typeset(self, x_in: float, lines: list[typeset.Line], size: float = FONT):
        """Typeset lines (:mod:`.typeset`) from the current height down, a page break between
        lines where they do not fit."""
        gap = (typeset.LEADING - 1) * size / 72
        for line in lines:
            self.room(line.ascent + line.descent + gap)
            baseline = self.y - line.ascent
            for run in line.runs:
                if run.math:
                    self.formula(run.text, run.size, x_in + run.x, baseline)
                else:
                    self.put(x_in + run.x, baseline, run.text, size=run.size, va="baseline")
            self.y = baseline - line.descent - gap

    def room(self, height_in: float):
        if not self.open or self.y - height_in < BOTTOM:
            self.new_page()

    def lines(self, x_in, lines, size=FONT, bold=False, **kw):
        """Lines drawn top down, a page break where the next line does not fit."""
        step = size * LEADING / 72
        lines = list(lines)
        while lines:
            self.room(step)
            fit = max(1, int((self.y - BOTTOM) / step + 1e-9))
            self.put(x_in, self.y, "\n".join(lines[:fit]), size=size, bold=bold, **kw)
            self.y -= step * len(lines[:fit])
            lines = lines[fit:]

    def finish(self):
        if self.open:
            self.pdf.showPage()
            self.open = False


def document(path: Path, fill, title: str, subject: str) -> Path:
    """Write the PDF that ``fill(pdf)`` draws to ``path`` (atomically, see :mod:`.files`)."""
    def write(tmp):
        pdf = Canvas(str(tmp), pagesize=(PAGE[0] * 72, PAGE[1] * 72), pageCompression=1,
                     invariant=1)
        pdf.setTitle(title)
        pdf.setSubject(subject)
        fill(pdf)
        pdf.save()
    # binary (Flate only) streams: reportlab's ASCII85 text encoding of images and pages runs in
    # pure Python here and took a third of a PDF's time, for a file a quarter larger
    before, rl_config.useA85 = rl_config.useA85, 0
    try:
        return atomic.write_with(path, write)
    finally:
        rl_config.useA85 = before
