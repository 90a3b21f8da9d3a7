"""The PDFs of ``reports/``: per paper a claims table, the errata pages and the figures;
``summary.pdf`` with verdict counts per paper, and a page each for ``bench.json`` and
``full_scale.json`` when they exist.

matplotlib only.  Text is laid out by hand (wrapped by character count, paginated) so long evidence
never overlaps its neighbours.
"""
from __future__ import annotations

import collections
import json
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.mathtext import MathTextParser  # noqa: E402
import sympy as sp  # noqa: E402

from theory.registry import PAPERS, REGISTRY, TITLES  # noqa: E402
from theory.verdicts import PRECEDENCE  # noqa: E402

COLOURS = {"holds": "#4caf50", "defined": "#90a4ae", "holds-if": "#fbc02d", "erratum": "#fb8c00",
           "fails": "#e53935", "not-reproduced": "#8e24aa", "inconclusive": "#757575",
           "untested": "#d7ccc8"}
PAGE = (8.27, 11.69)  # A4 portrait, inches
FONT = 7.0
LINE = FONT * 1.32 / 72 / PAGE[1]  # one text line as a fraction of the page height
TOP, BOTTOM, LEFT = 0.95, 0.04, 0.05
CHARS_PER_INCH = 72 / (FONT * 0.52)


def _wrap(text: str, width_in: float, max_lines: int = 12) -> list[str]:
    width = max(8, int(width_in * CHARS_PER_INCH))
    lines = []
    for paragraph in str(text).split("\n"):
        lines += textwrap.wrap(paragraph, width, break_long_words=True) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [lines[max_lines - 1][: width - 2] + " …"]
    return lines


def _safe(text: str) -> str:
    return str(text).replace("$", r"\$")


class _Pages:
    """Paginates blocks of wrapped lines onto A4 pages."""

    def __init__(self, pdf: PdfPages, title: str):
        self.pdf, self.title, self.fig, self.y = pdf, title, None, TOP

    def _new_page(self):
        self.finish()
        self.fig = plt.figure(figsize=PAGE)
        self.fig.text(LEFT, 0.975, _safe(self.title), fontsize=10, weight="bold", va="top")
        self.y = TOP

    def need(self, n_lines: float):
        if self.fig is None or self.y - n_lines * LINE < BOTTOM:
            self._new_page()

    def text(self, x, lines, **kw):
        for k, line in enumerate(lines):
            self.fig.text(x, self.y - k * LINE, _safe(line), fontsize=kw.pop("fontsize", FONT),
                          va="top", **kw)

    def finish(self):
        if self.fig is not None:
            self.pdf.savefig(self.fig)
            plt.close(self.fig)
            self.fig = None


TABLE = (("ID", 1.05), ("where", 1.45), ("verdict", 0.85), ("expected", 0.85), ("evidence", 3.5))


def _table(pages: _Pages, records: list[dict]):
    xs, x = [], LEFT
    for _, width in TABLE:
        xs.append(x)
        x += width / PAGE[0]

    def header():
        pages.need(2)
        for (name, _), xi in zip(TABLE, xs):
            pages.fig.text(xi, pages.y, name, fontsize=FONT + 0.5, weight="bold", va="top")
        pages.y -= 1.4 * LINE

    header()
    for rec in records:
        verdict = rec["verdict"] + ("" if rec["verdict"] == rec["expected"] else "  (!)")
        where = rec["where"] + (" [reconstructed]" if rec.get("reconstructed") else "")
        cells = [_wrap(rec["id"], TABLE[0][1]), _wrap(where, TABLE[1][1]), [verdict],
                 [rec["expected"]], _wrap(rec["evidence"], TABLE[4][1], max_lines=8)]
        height = max(len(c) for c in cells)
        if pages.fig is None or pages.y - (height + 0.6) * LINE < BOTTOM:
            pages._new_page()
            header()
        for cell, xi, k in zip(cells, xs, range(len(cells))):
            kw = {}
            if k == 2:
                kw = dict(bbox=dict(boxstyle="square,pad=0.15", fc=COLOURS[rec["verdict"]],
                                    ec="none", alpha=0.8))
            pages.text(xi, cell, **kw)
        pages.y -= (height + 0.6) * LINE


def _errata(pages: _Pages, records: list[dict]):
    shown = [r for r in records if r["verdict"] in ("erratum", "holds-if", "fails")]
    pages.need(3)
    pages.text(LEFT, ["Errata and conditions: printed form, counterexample, corrected form"],
               fontsize=9, weight="bold")
    pages.y -= 2 * LINE
    if not shown:
        pages.text(LEFT, ["No claim in this run has an erratum, a missing condition or a failure."])
        pages.y -= 2 * LINE
        return
    width = PAGE[0] - 2 * LEFT * PAGE[0] - 1.2
    for rec in shown:
        claim = REGISTRY[rec["id"]]
        rows = [("Printed", claim.statement, claim.printed),
                ("Counterexample", rec.get("counterexample") or "(none recorded)", None)]
        if rec["verdict"] == "holds-if":
            rows.append(("Condition", rec.get("condition") or claim.condition, None))
        if claim.corrected is not None or claim.corrected_statement:
            rows.append(("Corrected", claim.corrected_statement, claim.corrected))
        blocks = [(label, _wrap(text, width, max_lines=10), _mathtext(obj))
                  for label, text, obj in rows]
        pages.need(2 + sum(len(w) + (MATH_LINES if m else 0) for _, w, m in blocks))
        pages.text(LEFT, [f"{rec['id']} ({rec['where']}): {rec['verdict']}"], weight="bold",
                   fontsize=FONT + 1)
        pages.y -= 1.4 * LINE
        for label, lines, math in blocks:
            pages.text(LEFT, [label + ":"], weight="bold")
            pages.text(LEFT + 1.2 / PAGE[0], lines)
            pages.y -= len(lines) * LINE
            if math:
                pages.fig.text(LEFT + 1.2 / PAGE[0], pages.y - 0.3 * LINE, math,
                               fontsize=FONT + 3, va="top")
                pages.y -= MATH_LINES * LINE
        pages.y -= 1.0 * LINE


MATH_LINES = 3.8


def _mathtext(obj) -> str | None:
    """The sympy object as matplotlib mathtext, or None when it has none mathtext can parse
    (the statement text above it is then the only form shown)."""
    if not isinstance(obj, sp.Basic):
        return None
    tex = f"${sp.latex(obj)}$"
    try:
        MathTextParser("path").parse(tex)
    except Exception:  # mathtext covers a subset of LaTeX; fall back to the plain statement
        return None
    return tex


def add_caption(fig, caption: str):
    """Grow ``fig`` downwards by the caption's height and write the caption there (vector)."""
    fig.canvas.draw()
    fig.set_layout_engine("none")
    w, h = fig.get_size_inches()
    lines = _wrap(caption, w - 0.4, max_lines=8)
    extra = (len(lines) + 1) * FONT * 1.35 / 72
    for ax in fig.axes:
        box = ax.get_position()
        ax.set_position([box.x0, (box.y0 * h + extra) / (h + extra), box.width,
                         box.height * h / (h + extra)])
    for text in fig.texts:
        x, y = text.get_position()
        text.set_position((x, (y * h + extra) / (h + extra)))
    fig.set_size_inches(w, h + extra)
    fig.text(0.2 / w, (extra - 0.5 * FONT / 72) / (h + extra), _safe("\n".join(lines)),
             fontsize=FONT, va="top", ha="left")
    return fig


def write_paper_pdfs(reports_dir: Path, records: list[dict], figures) -> list[Path]:
    written = []
    for paper in PAPERS:
        recs = [r for r in records if r["paper"] == paper]
        if not recs:
            continue
        path = reports_dir / f"{paper}.pdf"
        counts = collections.Counter(r["verdict"] for r in recs)
        with PdfPages(path) as pdf:
            pages = _Pages(pdf, f"{TITLES[paper]} ({PAPERS[paper]}*)")
            pages.need(4)
            pages.text(LEFT, [f"{len(recs)} claims in this run: " + ", ".join(
                f"{v} {counts[v]}" for v in PRECEDENCE if counts[v]),
                "(!) marks a verdict that differs from its expected baseline. "
                "[reconstructed]: statement rebuilt by the catalogue."], fontsize=FONT + 1)
            pages.y -= 3 * LINE
            _table(pages, recs)
            pages.finish()
            _errata(pages, recs)
            pages.finish()
            for entry in figures:
                if any(REGISTRY[c].paper == paper for c in entry.claims):
                    fig = add_caption(entry.figure, f"Claims {', '.join(entry.claims)}. "
                                      + entry.caption)
                    pdf.savefig(fig)
            pdf.infodict()["Title"] = TITLES[paper]
        written.append(path)
    for entry in figures:
        plt.close(entry.figure)
    return written


def write_summary_pdf(reports_dir: Path, records: list[dict]) -> Path:
    path = reports_dir / "summary.pdf"
    papers = [p for p in PAPERS if any(r["paper"] == p for r in records)]
    counts = {p: collections.Counter(r["verdict"] for r in records if r["paper"] == p)
              for p in papers}
    with PdfPages(path) as pdf:
        if records:
            _verdict_page(pdf, papers, counts, records)
        measured = [f for f in (reports_dir / "bench.json", reports_dir / "full_scale.json")
                    if f.exists()]
        for path_json in measured:
            _bench_page(pdf, json.loads(path_json.read_text()), path_json.name)
        if not records and not measured:
            raise ValueError(f"nothing to summarise in {reports_dir}: no claims.json records, "
                             "no bench.json, no full_scale.json")
    return path


def _verdict_page(pdf: PdfPages, papers, counts, records):
    fig, (ax, tab) = plt.subplots(2, 1, figsize=PAGE, gridspec_kw=dict(height_ratios=[2, 1]))
    left = [0] * len(papers)
    for verdict in PRECEDENCE[::-1]:
        values = [counts[p][verdict] for p in papers]
        if any(values):
            ax.barh(papers, values, left=left, color=COLOURS[verdict], label=verdict)
            left = [a + b for a, b in zip(left, values)]
    ax.set_xlabel("number of claims")
    ax.set_title("Verdicts per paper (this run)")
    ax.invert_yaxis()
    ax.legend(loc="lower right", fontsize=8)
    tab.axis("off")
    cols = [v for v in PRECEDENCE if any(counts[p][v] for p in papers)]
    cells = [[str(counts[p][v]) for v in cols] + [str(sum(counts[p].values()))] for p in papers]
    mismatches = [r["id"] for r in records if r["verdict"] != r["expected"]]
    table = tab.table(cellText=cells, rowLabels=papers, colLabels=cols + ["total"],
                      loc="upper center")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    tab.text(0, 0.05, "Verdicts differing from the expected baseline: "
             + (", ".join(mismatches) if mismatches else "none"), fontsize=8,
             transform=tab.transAxes, wrap=True)
    fig.tight_layout()
    pdf.savefig(fig)
    plt.close(fig)


def _flatten(value, prefix=""):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
    else:
        yield prefix, f"{value:.4g}" if isinstance(value, float) else str(value)


def _bench_page(pdf: PdfPages, bench: dict, name: str):
    fig = plt.figure(figsize=PAGE)
    title = {"bench.json": "Benchmarks", "full_scale.json": "Full-scale reproductions"}[name]
    fig.text(LEFT, 0.975, f"{title} (reports/{name})", fontsize=10, weight="bold", va="top")
    for k, (key, value) in enumerate(list(_flatten(bench))[:100]):
        fig.text(LEFT, TOP - k * LINE * 1.2, _safe(key), fontsize=FONT + 0.5, va="top")
        fig.text(0.5, TOP - k * LINE * 1.2, _safe(value)[:70], fontsize=FONT + 0.5, va="top")
    pdf.savefig(fig)
    plt.close(fig)
