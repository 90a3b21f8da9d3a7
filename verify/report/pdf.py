"""The PDFs of ``reports/``, rendered from the merged record (``claims.json``) alone and its figure
files, each written atomically (:mod:`.files`).

Per paper: what the suite found in it (:mod:`.findings`: claim, verdict, the finding typeset,
the figure's thumbnail next to it), the claims table (ID, where, headline verdict with its
baseline, the ci verdict beside a faithful paper-scale one, measurements against their criteria
and every run's setup), the errata pages (statement and forms as recorded,
counterexample, condition, corrected form, the measurements of both sides), then the reproduced
figures in the paper's order, each captioned once with its claim IDs.  ``summary.pdf``: page 1
opens with what the suite found, a table per paper by title; then headline verdict counts per
paper with a legend of every verdict, the claims that differ from their baseline, the paper-scale
verdicts, and an appendix with a table per section of ``bench.json`` / ``full_scale.json``.

Pages are drawn with reportlab (:class:`.pages.Pages`); every page is A4 and carries the record's
provenance in its footer; a page that continues a
section or a claim says so in a "(continued)" header.  Text is wrapped by its measured width in
the font it is drawn in, so it never leaves its cell or the page; the findings' formulas are
typeset by mathtext in the paper's notation (:mod:`.typeset`); the errata pages' forms, and text
that quotes LaTeX (a measurement's source, a caption), are drawn as clean Unicode in the paper's
notation (typesetting all of a paper's forms would cost seconds of a render's 20 s).
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from reportlab.lib.utils import ImageReader

from theory.verdicts import PRECEDENCE
from verify.measurement import fmt
from verify.report import typeset
# pages first: it selects matplotlib's Agg backend before pyplot is imported
from verify.report.pages import (BOTTOM, FONT, MARGIN, PAGE, ROW_LINES, STEP, TEXT_W, TOP, Pages,
                                 cut, document, width, wrap)
import matplotlib.pyplot as plt  # after the backend is chosen
from verify.report.findings import count_text, counts, findings
from verify.report.forms import COLOURS, part_text
from verify.report.sentences import deciding_numbers, why
from verify.report.paper_scale import staleness
from verify.report.record import figure_order, headline, paper_title
from verify.report.text import (clean, commit_text, mark, measured, paper_scale_line, provenance_line,
                                run_line, setup_summary, source_text)

COLUMNS = (("ID", 1.2), ("where", 1.35), ("verdict", 1.05), ("measurements and setup", 3.67))


def _verdict_cell(rec: dict) -> list[str]:
    """The headline verdict (a badge), its baseline when it differs, the ci verdict beside a
    faithful paper-scale one, and any paper-scale verdict with its flag."""
    verdict, expected = headline(rec)
    lines = [verdict] + ([] if verdict == expected else [f"(!) expected {expected}"])
    if ps := rec.get("paper_scale"):
        lines.append(f"ci: {rec['verdict']}" if verdict != rec["verdict"] else
                     f"paper scale: {ps['verdict']}")
        if staleness(ps):
            lines.append("(!) paper-scale record may predate its code")
    return lines


def _cells(rec: dict) -> list[list[str]]:
    """The four cells of a claim's row.  The measurements are cut to fit :data:`ROW_LINES` (the
    rest: ``python -m verify show``), but every run's setup keeps its summary line."""
    where = rec["where"] + (" [reconstructed]" if rec.get("reconstructed") else "")
    text_w = COLUMNS[3][1] - 0.1
    body = []
    ps = rec.get("paper_scale") or {}
    if ps.get("faithful") and headline(rec)[0] != rec["verdict"]:
        body.append(f"paper scale (faithful, commit {commit_text(ps.get('commit'), ps.get('dirty'))}): "
                    f"{deciding_numbers(ps.get('measurements') or [])}; the ci run:")
    if rec["verdict"] in ("inconclusive", "untested", "supported") and why(rec):
        body.append(why(rec))
    body += [mark(m) + measured(m) for m in rec.get("measurements") or []]
    setups = rec.get("setups") or []
    runs = [line for k, setup in enumerate(setups, 1)
            for line in wrap(f"{f'setup {k}/{len(setups)}' if len(setups) > 1 else 'setup'}: "
                             f"{setup_summary(setup)}", text_w)]
    lines = [line for entry in body for line in wrap(entry, text_w)]
    return [wrap(rec["id"], COLUMNS[0][1] - 0.1), wrap(where, COLUMNS[1][1] - 0.1),
            [line for v in _verdict_cell(rec) for line in wrap(v, COLUMNS[2][1] - 0.15)],
            cut(lines, max(2, ROW_LINES - len(runs)), rec["id"]) + runs]


def _table(pages: Pages, records: list[dict]):

    def header():
        x = MARGIN
        for name, w in COLUMNS:
            pages.put(x, pages.y, name, size=FONT + 0.5, bold=True)
            x += w
        pages.y -= 1.5 * STEP

    pages.room(3 * STEP)
    header()
    pages.continued = "Claims"
    for rec in records:
        cells = _cells(rec)
        height = (max(len(c) for c in cells) + 0.6) * STEP
        if pages.y - height < BOTTOM:
            pages.new_page()
            header()
        x = MARGIN
        verdict = headline(rec)[0]
        for k, (cell, (_, w)) in enumerate(zip(cells, COLUMNS)):
            if k == 2:  # the verdict badge, then the lines under it
                pages.put(x, pages.y, cell[0], fill=COLOURS[verdict])
                cell = [""] + cell[1:]
            pages.put(x, pages.y, "\n".join(cell))
            x += w
        pages.y -= height
    pages.continued = ""


def _errata(pages: Pages, records: list[dict]):
    shown = [r for r in records if headline(r)[0] in ("erratum", "holds-if", "fails", "not-reproduced")]
    pages.new_page()
    pages.lines(MARGIN, ["Errata, conditions and failures"], size=9, bold=True)
    pages.y -= 0.1
    if not shown:
        pages.lines(MARGIN, ["No claim in the record has an erratum, a missing condition or a "
                             "failure."])
        return
    label_w, text_x = 1.15, MARGIN + 1.15
    text_w = TEXT_W - label_w
    for rec in shown:
        pages.room(1.2)
        pages.continued = ""
        pages.lines(MARGIN, wrap(f"{rec['id']} ({rec['where']}): {headline(rec)[0]}",
                                 TEXT_W, FONT + 1, True), size=FONT + 1, bold=True)
        pages.continued = f"{rec['id']} ({rec['where']})"

        def block(label, text="", parts=()):
            pages.room(STEP)
            top, page = pages.y, pages.number
            pages.put(MARGIN, pages.y, label, bold=True)
            if text:
                pages.lines(text_x, wrap(text, text_w))
            for part in parts:  # Unicode in the paper's notation: typesetting every form of a
                # paper costs seconds the 20 s budget of a render does not have (the findings are)
                pages.lines(text_x, wrap(part_text(part, rec["paper"]), text_w), colour="#1a237e")
            if pages.number == page:  # at least the label's line, on the page where it stands
                pages.y = min(pages.y, top - STEP)

        block("As printed", clean(rec.get("statement", "")), rec.get("printed", []))
        block("Counterexample", rec.get("counterexample") or "(none recorded)")
        if rec.get("condition"):
            block("Condition", clean(rec["condition"]))
        if rec.get("corrected") or rec.get("corrected_statement"):
            block("Corrected", clean(rec.get("corrected_statement", "")), rec.get("corrected", []))
        ms = [mark(m) + measured(m) for m in rec.get("measurements") or []]
        if ms:
            block("Measured", "\n".join(ms))
        pages.y -= 0.12
    pages.continued = ""


def _figures(pages: Pages, reports: Path, figures: list[dict]):
    if figures:
        pages.new_page()
        pages.lines(MARGIN, ["Reproduced figures (theory as lines, simulation as markers)"],
                    size=9, bold=True)
        pages.continued = "Reproduced figures"
    for entry in figures:
        path = reports / entry.get("png", "")
        caption = wrap(f"Claims {', '.join(entry['claims'])}. {source_text(entry['caption'])}", TEXT_W)
        cap_h = (len(caption) + 0.8) * STEP
        if not path.is_file():
            pages.lines(MARGIN, wrap(f"(figure file {entry.get('png')} missing) ", TEXT_W) + caption)
            continue
        image = ImageReader(str(path))
        w_px, h_px = image.getSize()
        w = min(TEXT_W, w_px / 150)
        h = w * h_px / w_px
        if h + cap_h > TOP - BOTTOM - 0.3:
            h = TOP - BOTTOM - 0.3 - cap_h - 0.1
            w = h * w_px / h_px
        pages.room(h + cap_h + 0.15)
        pages.image(image, MARGIN, pages.y - h, w, h)  # embedded as drawn: no resampling
        pages.y -= h + 0.08
        pages.lines(MARGIN, caption)
        pages.y -= 0.2
    pages.continued = ""


def write_paper(path: Path, paper: str, doc: dict, reports: Path) -> Path:
    recs = [r for r in doc["claims"] if r["paper"] == paper]
    title = paper_title(doc, paper)

    def fill(pdf):
        pages = Pages(pdf, title, provenance_line(doc))
        pages.new_page()
        intro = [f"{len(recs)} claims in the record: {count_text(counts(dict(doc, claims=recs)))} "
                 "(a faithful paper-scale run's verdict where one is recorded, the ci one beside it).",
                 "(!) marks a verdict that differs from its expected baseline; ✓ / ✗ a measurement "
                 "that met / missed its criterion; [reconstructed]: statement rebuilt by the catalogue.",
                 "Each claim in full (statement, forms, every measurement, each run's setup): "
                 "python -m verify show ID."]
        runs = sorted({run_line(r.get("run")) for r in recs})
        if len(runs) > 1:
            intro.append(f"This paper's claims come from {len(runs)} runs; each claim's run is in "
                         "claims.json and in python -m verify show.")
        pages.lines(MARGIN, [line for t in intro for line in wrap(t, TEXT_W)])
        pages.y -= 0.1
        found = findings(dict(doc, claims=recs)).get(paper, [])
        if found:
            _findings(pages, doc, reports, {paper: found}, heading="What the suite found in this paper")
            pages.y -= 0.1
        _table(pages, recs)
        _errata(pages, recs)
        _figures(pages, reports, figure_order(doc, paper))
        pages.finish()
    return document(path, fill, title, provenance_line(doc))


#: the findings table: claim IDs, verdict, the finding typeset, the claim's figure (inches)
FOUND_COLUMNS = (1.15, 0.95, TEXT_W - 1.15 - 0.95 - 1.25, 1.2)
THUMB_H = 0.85  # inches: a figure thumbnail's height at most


@cache
def _thumbnail(path: Path):
    """A figure's PNG as a thumbnail, read once: about 180 pixels across, RGB (a thumbnail's worth
    of image data to embed, not the figure's)."""
    from PIL import Image
    with Image.open(path) as image:
        image = image.convert("RGB")
        image.thumbnail((180, 180 * image.height // image.width))
        return ImageReader(image)


def _finding_row(pages: Pages, reports: Path, f):
    """One finding: its claims and verdict, the finding typeset beside, the figure's thumbnail
    next to it."""
    claims_w, verdict_w, text_w, thumb_w = FOUND_COLUMNS
    ids = [line for c in f.claims for line in wrap(c, claims_w - 0.1)]
    label = [f.verdict] + ([f"(paper scale; ci {f.ci_verdict})"] if f.ci_verdict else [])
    label = [line for t in label for line in wrap(t, verdict_w - 0.1, FONT - 0.5)]
    lines = typeset.layout(list(f.pieces) + ([("text", f" [(!) {f.stale}]")] if f.stale else []),
                           text_w - 0.1, FONT, width)
    thumb = reports / f.figure["png"] if f.figure and f.figure.get("png") else None
    image = _thumbnail(thumb) if thumb is not None and thumb.is_file() else None
    if image is not None:
        w_px, h_px = image.getSize()
        h = min(THUMB_H, (thumb_w - 0.1) * h_px / w_px)
        w = h * w_px / h_px
    first = lines[0].ascent + lines[0].descent if lines else STEP
    pages.room(max(first, len(ids) * STEP, h if image is not None else 0) + 0.05)
    top, page = pages.y, pages.number
    pages.put(MARGIN, top, "\n".join(ids), bold=True)
    pages.put(MARGIN + claims_w, top, label[0], size=FONT - 0.5, fill=COLOURS[f.verdict], pad=0.15)
    if label[1:]:
        pages.put(MARGIN + claims_w, top - STEP * 1.2, "\n".join(label[1:]), size=FONT - 0.5)
    if image is not None:
        pages.image(image, MARGIN + claims_w + verdict_w + text_w, top - h, w, h)
    pages.typeset(MARGIN + claims_w + verdict_w, lines)
    if pages.number == page:
        pages.y = min(pages.y, top - max(len(ids) * STEP, (len(label) + 0.2) * STEP,
                                         h if image is not None else 0))
    pages.y -= 0.06


def _findings(pages: Pages, doc: dict, reports: Path, found: dict, heading: str):
    """Per paper by title, a table of its findings: claim, verdict, the finding (typeset, in the
    paper's notation), the reproduced figure."""
    pages.lines(MARGIN, [heading], size=9, bold=True)
    pages.continued = heading
    for paper, items in found.items():
        pages.room(4 * STEP)
        pages.lines(MARGIN, wrap(paper_title(doc, paper), TEXT_W, FONT + 0.5, True),
                    size=FONT + 0.5, bold=True)
        x = MARGIN
        for name, w in zip(("claim", "verdict", "what the suite found", "figure"), FOUND_COLUMNS):
            pages.put(x, pages.y, name, size=FONT - 0.5, colour="#555555")
            x += w
        pages.y -= STEP * 1.1
        for f in items:
            _finding_row(pages, reports, f)
        pages.y -= 0.05
    pages.continued = ""


def write_summary(reports: Path, doc: dict) -> Path:
    path = reports / "summary.pdf"
    records = doc["claims"]
    papers = list(dict.fromkeys(r["paper"] for r in records))

    def fill(pdf):
        pages = Pages(pdf, "Claims suite: summary", provenance_line(doc))
        if records:
            pages.new_page()
            pages.lines(MARGIN, wrap(
                f"{len(records)} claims ({count_text(counts(doc))}). Every claim not listed below "
                "holds or is a consistent definition; verdicts are a faithful paper-scale run's "
                "where one is recorded (the ci verdict beside it). One claim in full: "
                "python -m verify show ID.", TEXT_W))
            pages.y -= 0.1
            _findings(pages, doc, reports, findings(doc), "What the suite found")
            _verdict_page(pages, papers, doc)
        for name in ("bench.json", "full_scale.json"):
            if (reports / name).exists():
                _bench_page(pages, json.loads((reports / name).read_text()), name)
        if not pages.number:
            pages.new_page()
            pages.lines(MARGIN, [f"Nothing to summarise in {reports}: no claims, no bench.json."])
        pages.finish()
    return document(path, fill, "Claims suite: summary", provenance_line(doc))


PAPER_COL = 1.0  # inches: the paper column of the summary's count table
MEANING = {
    "holds": "confirmed (an empirical claim: by a faithful run)",
    "defined": "a definition, its consistency checked",
    "holds-if": "true only under an unstated condition",
    "erratum": "printed form fails; a corrected form holds",
    "fails": "false, no correction established",
    "not-reproduced": "a faithful run does not show it",
    "inconclusive": "the evidence does not decide it",
    "untested": "cannot run here",
    "supported": "stated criteria pass on a run that is not faithful",
}


def _verdict_page(pages: Pages, papers, doc):
    table = {p: counts(doc, p) for p in papers}
    pages.new_page()
    fig = plt.figure(figsize=(PAGE[0], 0.3 * PAGE[1]))
    ax = fig.add_axes([0.2, 0.12, 0.42, 0.8])
    left = [0] * len(papers)
    for verdict in PRECEDENCE[::-1]:
        values = [table[p][verdict] for p in papers]
        ax.barh(papers, values, left=left, color=COLOURS[verdict],
                label=f"{verdict}: {MEANING[verdict]}")
        left = [a + b for a, b in zip(left, values)]
    ax.set_xlabel("number of claims")
    ax.set_title("Headline verdicts per paper (the whole record)", fontsize=9)
    ax.invert_yaxis()
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=6, frameon=False)
    pages.chart(fig, 0, 0.61 * PAGE[1], PAGE[0], 0.3 * PAGE[1])
    pages.y = 0.60 * PAGE[1]
    cols = list(PRECEDENCE)
    col_w = (TEXT_W - PAPER_COL) / (len(cols) + 1)
    pages.put(MARGIN, pages.y, "paper", bold=True)
    heads = [wrap(v.replace("-", "- "), col_w - 0.04, FONT - 1, bold=True) for v in cols + ["total"]]
    for k, head in enumerate(heads):
        pages.put(MARGIN + PAPER_COL + k * col_w, pages.y,
                  "\n".join(h.replace("- ", "-") for h in head), size=FONT - 1, bold=True)
    pages.y -= STEP * (max(len(h) for h in heads) + 0.3)
    for p in papers:
        prefix = doc.get("papers", {}).get(p, {}).get("prefix", "")
        name = wrap(f"{prefix}* {p}" if prefix else p, PAPER_COL - 0.1)  # titles: page 1
        pages.put(MARGIN, pages.y, "\n".join(name))
        for k, n in enumerate([table[p][v] for v in cols] + [sum(table[p].values())]):
            pages.put(MARGIN + PAPER_COL + k * col_w, pages.y, str(n))
        pages.y -= STEP * (len(name) + 0.3)
    pages.y -= STEP
    records = doc["claims"]
    differ = [f"{r['id']}: {headline(r)[0]} (expected {headline(r)[1]})"
              for r in records if headline(r)[0] != headline(r)[1]]
    pages.lines(MARGIN, ["Verdicts differing from the expected baseline: "
                         + (str(len(differ)) if differ else "none")], bold=True)
    pages.lines(MARGIN + 0.2, [line for d in differ for line in wrap(d, TEXT_W - 0.2)])
    scale = [f"{r['id']}: paper scale {paper_scale_line(ps, wall=False)}; "
             f"ci {r['verdict']}{' (!)' if staleness(ps) else ''}"
             for r in records if (ps := r.get("paper_scale"))]
    if scale:
        pages.y -= STEP
        pages.lines(MARGIN, ["Paper-scale verdicts (reports/paper_scale/; (!): the record predates "
                             "the code that decides it, or predates deciding-code hashes)"], bold=True)
        pages.continued = "Paper-scale verdicts"
        pages.lines(MARGIN + 0.2, [line for s in scale for line in wrap(s, TEXT_W - 0.2)])
        pages.continued = ""


def _rows(value, prefix: str = "") -> list[tuple[str, str]]:
    """A nested bench entry as (quantity, value) rows, nested keys joined by ' › '."""
    out = []
    for key, inner in value.items():
        label = f"{prefix} › {key}" if prefix else str(key)
        if isinstance(inner, dict):
            out += _rows(inner, label)
        else:
            out.append((label.replace("_", " "), fmt(inner)))
    return out


def _bench_page(pages: Pages, bench: dict, name: str):
    """One table per section of ``bench.json`` / ``full_scale.json``: quantity and value."""
    title = {"bench.json": "Appendix: benchmarks",
             "full_scale.json": "Appendix: full-scale reproductions"}[name]
    pages.new_page()
    pages.lines(MARGIN, [f"{title} (reports/{name})"], size=9, bold=True)
    pages.continued = title
    key_w, val_x = 3.4, MARGIN + 3.5
    val_w = PAGE[0] - MARGIN - val_x
    sections = bench.get("experiments", bench) if isinstance(bench, dict) else {}
    for section, inner in sections.items():
        rows = _rows(inner) if isinstance(inner, dict) else [("value", fmt(inner))]
        pages.room(3 * STEP)
        pages.y -= 0.08
        pages.lines(MARGIN, [str(section).replace("_", " ")], size=FONT + 1, bold=True)
        pages.put(MARGIN, pages.y, "quantity", bold=True)
        pages.put(val_x, pages.y, "value", bold=True)
        pages.y -= STEP * 1.2
        for k, (label, value) in enumerate(rows):
            left, right = wrap(label, key_w), wrap(value, val_w)
            height = max(len(left), len(right)) * STEP
            pages.room(height)
            if k % 2 == 0:
                pages.rect(MARGIN, pages.y - height + 0.02, TEXT_W, height + 0.01, "#f2f2f2")
            for x, cell in ((MARGIN, left), (val_x, right)):
                pages.put(x, pages.y, "\n".join(cell))
            pages.y -= height
    pages.continued = ""
