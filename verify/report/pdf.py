"""The PDFs of ``reports/``, rendered from the merged record (``claims.json``) and its figure files.

Per paper: the claims table (ID, where, verdict with its baseline and any paper-scale verdict,
measurements against their criteria and the setup), the errata pages (statement as printed,
printed form, counterexample, condition, corrected form, the measurements of both sides), then
the reproduced figures in the paper's order, each captioned once with its claim IDs.
``summary.pdf``: verdict counts per paper, the claims that differ from their baseline, and a page
each for ``bench.json`` / ``full_scale.json`` when present.

Every page is A4 and carries the record's provenance in its footer.  Text is wrapped by its
measured width in the font it is drawn in, so it never leaves its cell or the page; maths is
drawn as clean Unicode text (the HTML report renders it as MathML).
"""
from __future__ import annotations

import collections
import json
from functools import cache
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import sympy as sp  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.font_manager import FontProperties, findfont  # noqa: E402
from matplotlib.ft2font import FT2Font  # noqa: E402

from theory.registry import PAPERS, REGISTRY, TITLES  # noqa: E402
from theory.verdicts import PRECEDENCE  # noqa: E402
from verify.measurement import fmt  # noqa: E402
from verify.measurement import measurement_line  # noqa: E402
from verify.report.text import clean, provenance_line, run_line, setup_lines  # noqa: E402

COLOURS = {"holds": "#4caf50", "defined": "#90a4ae", "holds-if": "#fbc02d", "erratum": "#fb8c00",
           "fails": "#e53935", "not-reproduced": "#8e24aa", "inconclusive": "#9e9e9e",
           "untested": "#d7ccc8"}
PAGE = (8.27, 11.69)  # A4 portrait, inches
MARGIN = 0.5  # inches, left and right
TOP, BOTTOM = 11.69 - 0.55, 0.65  # inches from the bottom edge
FONT = 7.0
LEADING = 1.3
ROW_LINES = 10  # most lines of one table cell before it points to `python -m theory show`


@cache
def _font(bold: bool) -> FT2Font:
    return FT2Font(findfont(FontProperties(family="DejaVu Sans",
                                           weight="bold" if bold else "normal")))


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
    lines = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if width(candidate, size, bold) <= width_in:
                line = candidate
                continue
            if line:
                lines.append(line)
            while width(word, size, bold) > width_in:
                cut = max(1, max(k for k in range(1, len(word) + 1)
                                 if width(word[:k], size, bold) <= width_in))
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def cut(lines: list[str], most: int, claim_id: str) -> list[str]:
    if len(lines) <= most:
        return lines
    return lines[:most - 1] + [f"… {len(lines) - most + 1} more lines: python -m theory show "
                               f"'{claim_id}'"]


class Pages:
    """A4 pages filled top to bottom; every page gets the title and the provenance footer."""

    def __init__(self, pdf: PdfPages, title: str, footer: str):
        self.pdf, self.title, self.footer = pdf, title, footer
        self.fig, self.y, self.number = None, TOP, 0

    def new_page(self):
        self.finish()
        self.number += 1
        self.fig = plt.figure(figsize=PAGE)
        self.put(MARGIN, PAGE[1] - 0.3, self.title, size=10, bold=True)
        footer = wrap(self.footer + f" · page {self.number}", PAGE[0] - 2 * MARGIN, 6)
        for k, line in enumerate(footer[:3]):
            self.put(MARGIN, 0.45 - k * 0.11, line, size=6, colour="#555555")
        self.y = TOP

    def put(self, x_in, y_in, text, size=FONT, bold=False, colour="black", **kw):
        """Text at (x, y) inches from the bottom left; a multi-line text steps ``LEADING``."""
        self.fig.text(x_in / PAGE[0], y_in / PAGE[1], text, fontsize=size, va="top",
                      weight="bold" if bold else "normal", color=colour, parse_math=False,
                      linespacing=LEADING, **kw)

    def room(self, height_in: float):
        if self.fig is None or self.y - height_in < BOTTOM:
            self.new_page()

    def lines(self, x_in, lines, size=FONT, bold=False, **kw):
        """Lines drawn top down, as few text objects as the page breaks allow."""
        step = size * LEADING / 72
        lines = list(lines)
        while lines:
            self.room(step)
            fit = max(1, int((self.y - BOTTOM) / step + 1e-9))
            self.put(x_in, self.y, "\n".join(lines[:fit]), size=size, bold=bold, **kw)
            self.y -= step * len(lines[:fit])
            lines = lines[fit:]

    def finish(self):
        if self.fig is not None:
            self.pdf.savefig(self.fig)
            plt.close(self.fig)
            self.fig = None


COLUMNS = (("ID", 1.2), ("where", 1.35), ("verdict", 1.05), ("measurements and setup", 3.67))


def _cells(rec: dict) -> list[list[str]]:
    where = rec["where"] + (" [reconstructed]" if rec.get("reconstructed") else "")
    verdict = [rec["verdict"]] + ([] if rec["verdict"] == rec["expected"] else
                                  [f"(!) expected {rec['expected']}"])
    if rec.get("paper_scale"):
        verdict.append(f"paper scale: {rec['paper_scale']['verdict']}")
    body = []
    if rec["verdict"] in ("inconclusive", "untested") or not rec.get("measurements"):
        body.append(rec.get("evidence", ""))
    for m in rec.get("measurements") or []:
        body.append(("✓ " if m.get("passed") else "✗ ") + measurement_line(m))
    body += [f"setup: {line}" for setup in rec.get("setups") or [] for line in setup_lines(setup)]
    text_w = COLUMNS[3][1] - 0.1
    lines = [line for entry in body for line in wrap(entry, text_w)]
    return [wrap(rec["id"], COLUMNS[0][1] - 0.1), wrap(where, COLUMNS[1][1] - 0.1),
            [line for v in verdict for line in wrap(v, COLUMNS[2][1] - 0.15)],
            cut(lines, ROW_LINES, rec["id"])]


def _table(pages: Pages, records: list[dict]):
    step = FONT * LEADING / 72

    def header():
        x = MARGIN
        for name, w in COLUMNS:
            pages.put(x, pages.y, name, size=FONT + 0.5, bold=True)
            x += w
        pages.y -= 1.5 * step

    pages.room(3 * step)
    header()
    for rec in records:
        cells = _cells(rec)
        height = (max(len(c) for c in cells) + 0.6) * step
        if pages.y - height < BOTTOM:
            pages.new_page()
            header()
        x = MARGIN
        for k, (cell, (_, w)) in enumerate(zip(cells, COLUMNS)):
            if k == 2:  # the verdict badge, then the lines under it
                pages.put(x, pages.y, cell[0], bbox=dict(boxstyle="square,pad=0.2", ec="none",
                                                         fc=COLOURS[rec["verdict"]]))
                cell = [""] + cell[1:]
            pages.put(x, pages.y, "\n".join(cell))
            x += w
        pages.y -= height


def forms(obj) -> list[tuple[str, object]]:
    """The named parts of a printed or corrected form (a sympy object, Forms, dict or tuple)."""
    if hasattr(obj, "items"):
        parts = [(str(k), v) for k, v in obj.items()]
    elif isinstance(obj, (tuple, list)):
        parts = [(f"[{k}]", v) for k, v in enumerate(obj)]
    else:
        parts = [("encoded as", obj)]
    # Helper functions stored beside the formulas are code, not a form to print.
    return [(k, v) for k, v in parts
            if v is not None and (isinstance(v, sp.Basic) or not callable(v))]


def latex_of(obj) -> str:
    try:
        return sp.latex(obj)
    except Exception:  # sympy cannot print some objects (callables): their repr then
        return str(obj)


def _maths(pages: Pages, x: float, label: str, obj, max_w: float):
    """One named part of a form, as clean Unicode text (the HTML report has it as MathML)."""
    prefix = f"{label}: " if label else ""
    pages.lines(x, wrap(prefix + clean(latex_of(obj)), max_w), colour="#1a237e")


def _errata(pages: Pages, records: list[dict]):
    shown = [r for r in records if r["verdict"] in ("erratum", "holds-if", "fails", "not-reproduced")]
    pages.new_page()
    pages.lines(MARGIN, ["Errata, conditions and failures"], size=9, bold=True)
    pages.y -= 0.1
    if not shown:
        pages.lines(MARGIN, ["No claim in the record has an erratum, a missing condition or a "
                             "failure."])
        return
    label_w, text_x = 1.15, MARGIN + 1.15
    text_w = PAGE[0] - 2 * MARGIN - label_w
    for rec in shown:
        claim = REGISTRY[rec["id"]] if rec["id"] in REGISTRY else None
        pages.room(1.2)
        pages.lines(MARGIN, wrap(f"{rec['id']} ({rec['where']}): {rec['verdict']}",
                                 PAGE[0] - 2 * MARGIN, FONT + 1, True), size=FONT + 1, bold=True)

        def block(label, text=None, obj=None):
            pages.room(FONT * LEADING / 72)
            top, page = pages.y, pages.number
            pages.put(MARGIN, pages.y, label, bold=True)
            if text:
                pages.lines(text_x, wrap(text, text_w))
            for name, part in forms(obj):
                _maths(pages, text_x, name, part, text_w)
            if pages.number == page:  # at least the label's line, on the page where it stands
                pages.y = min(pages.y, top - FONT * LEADING / 72)

        if claim is not None:
            block("As printed", clean(claim.statement), claim.printed)
        block("Counterexample", rec.get("counterexample") or "(none recorded)")
        if rec.get("condition"):
            block("Condition", clean(rec["condition"]))
        if claim is not None and (claim.corrected is not None or claim.corrected_statement):
            block("Corrected", clean(claim.corrected_statement), claim.corrected)
        measured = [("✓ " if m.get("passed") else "✗ ") + measurement_line(m)
                    for m in rec.get("measurements") or []]
        if measured:
            block("Measured", "\n".join(measured))
        pages.y -= 0.12


def _figure_order(paper: str, figures: list[dict]) -> list[dict]:
    """The paper's figures in the paper's order (catalogue order of their first claim)."""
    order = {c.id: k for k, c in enumerate(REGISTRY)}
    mine = [f for f in figures if any(REGISTRY[c].paper == paper for c in f["claims"]
                                      if c in REGISTRY)]
    return sorted(mine, key=lambda f: (min(order.get(c, 10 ** 6) for c in f["claims"]
                                           if c in REGISTRY and REGISTRY[c].paper == paper),
                                       f["caption"]))


def _figures(pages: Pages, reports: Path, figures: list[dict]):
    full_w = PAGE[0] - 2 * MARGIN
    if figures:
        pages.new_page()
        pages.lines(MARGIN, ["Reproduced figures (theory as lines, simulation as markers)"],
                    size=9, bold=True)
    for entry in figures:
        path = reports / entry.get("png", "")
        caption = wrap(f"Claims {', '.join(entry['claims'])}. {entry['caption']}", full_w)
        cap_h = (len(caption) + 0.8) * FONT * LEADING / 72
        if not path.is_file():
            pages.lines(MARGIN, wrap(f"(figure file {entry.get('png')} missing) ", full_w) + caption)
            continue
        image = mpimg.imread(path)
        h_px, w_px = image.shape[:2]
        w = min(full_w, w_px / 150)
        h = w * h_px / w_px
        if h + cap_h > TOP - BOTTOM:
            h = TOP - BOTTOM - cap_h - 0.1
            w = h * w_px / h_px
        pages.room(h + cap_h + 0.15)
        ax = pages.fig.add_axes([MARGIN / PAGE[0], (pages.y - h) / PAGE[1], w / PAGE[0], h / PAGE[1]])
        ax.imshow(image, interpolation="lanczos")
        ax.axis("off")
        pages.y -= h + 0.08
        pages.lines(MARGIN, caption)
        pages.y -= 0.2


def targets(reports: Path, doc: dict) -> list[tuple[str, Path]]:
    papers = {c["paper"] for c in doc["claims"]}
    return [(p, reports / f"{p}.pdf") for p in PAPERS if p in papers]


def write_paper(path: Path, paper: str, doc: dict, reports: Path) -> Path:
    recs = [r for r in doc["claims"] if r["paper"] == paper]
    counts = collections.Counter(r["verdict"] for r in recs)
    with PdfPages(path) as pdf:
        pages = Pages(pdf, f"{TITLES[paper]} ({PAPERS[paper]}*)", provenance_line(doc))
        pages.new_page()
        intro = [f"{len(recs)} claims in the record: " + ", ".join(
            f"{v} {counts[v]}" for v in PRECEDENCE if counts[v]),
            "(!) marks a verdict that differs from its expected baseline; ✓ / ✗ a measurement "
            "that met / missed its criterion; [reconstructed]: statement rebuilt by the catalogue.",
            "Each claim in full (statement, forms, every measurement, setup): "
            "python -m theory show ID."]
        runs = sorted({run_line(r.get("run")) for r in recs})
        if len(runs) > 1:
            intro.append(f"This paper's claims come from {len(runs)} runs; each claim's run is in "
                         "claims.json and in python -m theory show.")
        pages.lines(MARGIN, [line for t in intro for line in wrap(t, PAGE[0] - 2 * MARGIN)])
        pages.y -= 0.1
        _table(pages, recs)
        _errata(pages, recs)
        _figures(pages, reports, _figure_order(paper, doc.get("figures", [])))
        pages.finish()
        pdf.infodict().update(Title=TITLES[paper], Subject=provenance_line(doc))
    return path


def write_summary(reports: Path, doc: dict) -> Path:
    path = reports / "summary.pdf"
    records = doc["claims"]
    papers = [p for p in PAPERS if any(r["paper"] == p for r in records)]
    with PdfPages(path) as pdf:
        pages = Pages(pdf, "Claims suite: summary", provenance_line(doc))
        if records:
            _verdict_page(pages, papers, records)
        for name in ("bench.json", "full_scale.json"):
            if (reports / name).exists():
                _bench_page(pages, json.loads((reports / name).read_text()), name)
        if pages.fig is None:
            pages.new_page()
            pages.lines(MARGIN, [f"Nothing to summarise in {reports}: no claims, no bench.json."])
        pages.finish()
    return path


PAPER_COL = 0.95  # inches: the paper column of the summary's count table


def _verdict_page(pages: Pages, papers, records):
    counts = {p: collections.Counter(r["verdict"] for r in records if r["paper"] == p)
              for p in papers}
    pages.new_page()
    ax = pages.fig.add_axes([0.2, 0.62, 0.55, 0.28])
    left = [0] * len(papers)
    for verdict in PRECEDENCE[::-1]:
        values = [counts[p][verdict] for p in papers]
        if any(values):
            ax.barh(papers, values, left=left, color=COLOURS[verdict], label=verdict)
            left = [a + b for a, b in zip(left, values)]
    ax.set_xlabel("number of claims")
    ax.set_title("Verdicts per paper (the whole record)")
    ax.invert_yaxis()
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7, frameon=False)
    pages.y = 0.58 * PAGE[1]
    cols = [v for v in PRECEDENCE if any(counts[p][v] for p in papers)]
    col_w = (PAGE[0] - 2 * MARGIN - PAPER_COL) / (len(cols) + 1)
    step = FONT * LEADING / 72
    pages.put(MARGIN, pages.y, "paper", bold=True)
    heads = [wrap(v.replace("-", "- "), col_w - 0.08, bold=True) for v in cols + ["total"]]
    for k, head in enumerate(heads):
        pages.put(MARGIN + PAPER_COL + k * col_w, pages.y,
                  "\n".join(h.replace("- ", "-") for h in head), bold=True)
    pages.y -= step * (max(len(h) for h in heads) + 0.3)
    for p in papers:
        pages.put(MARGIN, pages.y, p)
        for k, v in enumerate(cols):
            pages.put(MARGIN + PAPER_COL + k * col_w, pages.y, str(counts[p][v]))
        pages.put(MARGIN + PAPER_COL + len(cols) * col_w, pages.y, str(sum(counts[p].values())))
        pages.y -= step
    pages.y -= step
    differ = [f"{r['id']}: {r['verdict']} (expected {r['expected']})"
              for r in records if r["verdict"] != r["expected"]]
    pages.lines(MARGIN, ["Verdicts differing from the expected baseline: "
                         + (str(len(differ)) if differ else "none")], bold=True)
    pages.lines(MARGIN + 0.2, [line for d in differ for line in wrap(d, PAGE[0] - 2 * MARGIN - 0.2)])
    scale = [f"{r['id']}: paper scale {r['paper_scale']['verdict']} on {r['paper_scale']['device']}"
             f" ({r['paper_scale']['date']}), ci {r['verdict']}"
             for r in records if r.get("paper_scale")]
    if scale:
        pages.lines(MARGIN, ["Paper-scale verdicts (reports/paper_scale/)"], bold=True)
        pages.lines(MARGIN + 0.2, [line for s in scale for line in wrap(s, PAGE[0] - 2 * MARGIN - 0.2)])


def _bench_page(pages: Pages, bench: dict, name: str):
    title = {"bench.json": "Benchmarks", "full_scale.json": "Full-scale reproductions"}[name]
    pages.new_page()
    pages.lines(MARGIN, [f"{title} (reports/{name})"], size=9, bold=True)
    pages.y -= 0.05
    _nested(pages, bench, 0)


def _nested(pages: Pages, value: dict, depth: int):
    x = MARGIN + 0.25 * depth
    for key, inner in value.items():
        label = str(key).replace("_", " ")
        if isinstance(inner, dict) and any(isinstance(v, dict) for v in inner.values()):
            pages.lines(x, [label], bold=True)
            _nested(pages, inner, depth + 1)
        elif isinstance(inner, dict):
            pages.lines(x, [label], bold=True)
            text = "; ".join(f"{str(k).replace('_', ' ')} {fmt(v)}" for k, v in inner.items())
            pages.lines(x + 0.25, wrap(text, PAGE[0] - MARGIN - x - 0.25))
        else:
            pages.lines(x, wrap(f"{label}: {fmt(inner)}", PAGE[0] - MARGIN - x))
