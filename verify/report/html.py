"""The HTML report ``reports/html/``: ``index.html`` (what the suite found, headline verdict counts,
a legend of every verdict, every claim) and one page per paper, rendered from the record alone
like the PDFs and written atomically.

Each page has a claims table that sorts (click a heading) and filters (verdict, kind, text); each
claim's full evidence -- statement, printed and corrected forms as MathML (latex2mathml, so no
network is needed to view it), every measurement against its criterion with its source and
absolute values, every run's setup and its deviations, the paper-scale record -- unfolds in place.
A link to a claim (``page.html#claim-ID``) unfolds it and lands below the sticky table header.
Figures are the run's PNG files (shown at the figure's size), captioned with their claim IDs;
claims link to their figures and figures to their claims.  The record's provenance heads and ends
every page.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from theory.verdicts import PRECEDENCE
from verify.measurement import fmt
from numerics import atomic
from verify.report.figures import PNG_DPI
from verify.report.findings import count_text, counts, findings, verdict_label
from verify.report.maths import unicode
from verify.report.sentences import why
from verify.report.forms import COLOURS, part_pieces
from verify.report.paper_scale import staleness
from verify.report.record import figure_order, headline, paper_title
from verify.report.text import (clean, deviation_line, mark, paper_scale_line, provenance_line, run_line,
                                run_title, source_text, statement_parts)

E = html.escape


def anchor(claim_id: str) -> str:
    return "claim-" + re.sub(r"[^A-Za-z0-9_-]", "_", claim_id)


def fig_anchor(entry: dict) -> str:
    return "fig-" + re.sub(r"[^A-Za-z0-9_-]", "_", Path(entry.get("png", "x")).stem)


def tex_mathml(tex: str) -> str:
    """LaTeX as inline MathML (latex2mathml, no network needed), else clean Unicode text."""
    try:
        from latex2mathml.converter import convert
        return convert(tex)
    except Exception:  # noqa: BLE001 - latex2mathml covers most, not all, of sympy's LaTeX, failing in many ways: clean text then
        return f"<code>{E(unicode(tex))}</code>"


def pieces_html(pieces) -> str:
    """Pieces of a finding or a form: words escaped, formulas as MathML."""
    return "".join(tex_mathml(text) if kind == "math" else E(text) for kind, text in pieces)


def _forms_html(parts: list[dict], paper: str) -> str:
    return "".join(f'<div class="form">{pieces_html(part_pieces(p, paper))}</div>' for p in parts)


def _measurements(ms: list[dict]) -> str:
    if not ms:
        return ""
    rows = "".join(
        f'<tr class="{"ok" if m.get("passed") else "read" if m.get("undecided") else "bad"}"><td>{mark(m).strip()}</td>'
        f'<td>{E(m.get("role", ""))}</td><td>{E(m["name"])}</td><td>{E(fmt(m.get("value")))}'
        f'{E(" over " + str(m["examples"]) + " examples") if m.get("examples") is not None else ""}'
        f'{"<br><span class=small>" + E(fmt(m["details"])) + "</span>" if m.get("details") else ""}'
        f'</td><td>{E(str(m.get("criterion", "")))}</td><td>{E(source_text(m.get("source", "")))}'
        f'{"<br>counterexample: " + E(m["counterexample"]) if m.get("counterexample") else ""}</td></tr>'
        for m in ms)
    return ('<table class="ms"><tr><th></th><th>side</th><th>measured</th><th>value</th>'
            f'<th>criterion</th><th>source</th></tr>{rows}</table>')


def _setup(setup: dict, number: str = "") -> str:
    ran, paper = setup.get("ran", {}), setup.get("paper", {})
    sources = setup.get("paper_sources", {})
    rows = "".join(f'<tr class="{"bad" if k in paper and fmt(paper[k]) != fmt(ran.get(k)) else ""}">'
                   f"<td>{E(k)}</td><td>{E(fmt(ran.get(k)))}</td>"
                   f"<td>{E(fmt(paper[k])) if k in paper else ''}</td>"
                   f"<td>{E(sources.get(k, ''))}</td></tr>" for k in ran)
    devs = "".join(f"<li>{E(deviation_line(d))}</li>" for d in setup.get("deviations", [])) \
        or "<li>none</li>"
    cost = f"<p>A faithful run costs: {E(setup['cost'])}</p>" if setup.get("cost") else ""
    unknown = (f"<p>Unknown (the paper does not give them, nor the authors' code): "
               f"{E(', '.join(setup['unknown']))}</p>" if setup.get("unknown") else "")
    return (f'<h4>Setup{number}: {E(run_title(setup))}</h4>'
            f'<p class="small">runner {E(setup.get("runner", "?"))}</p>'
            f'<table class="ms"><tr><th>setting</th><th>ran</th><th>paper</th><th>from</th></tr>'
            f'{rows}</table>{unknown}'
            f"<p>Deviations:</p><ul>{devs}</ul>{_measurements(setup.get('sensitivity', []))}{cost}")


def _paper_scale(ps: dict) -> str:
    stale = staleness(ps)
    return (f"<p><b>Paper scale:</b> {E(paper_scale_line(ps))} ({E(ps['file'])})"
            + (f'<br><span class="stale">(!) {E(stale)}</span>' if stale else "") + "</p>"
            + _measurements(ps.get("measurements", []))
            + "".join(_setup(s, " (paper scale)") for s in ps.get("setups", [])))


def _details(rec: dict, figures: list[dict]) -> str:
    out = [f"<p><b>{label}:</b> {E(text)}</p>{_forms_html(parts, rec['paper'])}"
           for label, text, parts in statement_parts(rec)]
    out.append(_measurements(rec.get("measurements") or []))
    if rec["verdict"] in ("inconclusive", "untested", "supported") and why(rec):
        out.append(f"<p><b>Why:</b> {E(why(rec))}</p>")
    setups = rec.get("setups") or []
    out += [_setup(s, f" {k} of {len(setups)}" if len(setups) > 1 else "")
            for k, s in enumerate(setups, 1)]
    if rec.get("paper_scale"):
        out.append(_paper_scale(rec["paper_scale"]))
    mine = [f for f in figures if rec["id"] in f["claims"]]
    if mine:
        out.append("<p><b>Figures:</b> " + ", ".join(
            f'<a href="{E(f["page"])}#{fig_anchor(f)}">{E(source_text(f["caption"]))}</a>' for f in mine)
            + "</p>")
    out.append(f'<p class="small">{E(run_line(rec.get("run")))}; tests: '
               f'{E(", ".join(rec.get("tests", [])))}</p>')
    return "".join(out)


def _stale_mark(ps: dict) -> str:
    return f' <b title="{E(staleness(ps))}">(!)</b>' if ps and staleness(ps) else ""


def _table(records: list[dict], figures: list[dict]) -> str:
    kinds = sorted({r["kind"] for r in records})
    rows = []
    for rec in records:
        verdict, expected = headline(rec)
        differs = verdict != expected
        ps = rec.get("paper_scale", {})
        ci = rec["verdict"] if verdict != rec["verdict"] else ""
        rows.append(
            f'<tr class="claim" id="{anchor(rec["id"])}" data-verdict="{E(verdict)}" '
            f'data-kind="{E(rec["kind"])}">'
            f'<td><a href="#{anchor(rec["id"])}">{E(rec["id"])}</a></td><td>{E(rec["where"])}</td>'
            f'<td>{E(rec["kind"])}</td><td><span class="badge" style="background:'
            f'{COLOURS.get(verdict, "#ccc")}">{E(verdict)}</span>'
            f'{" <b title=differs>(!)</b>" if differs else ""}'
            f'{"<br><span class=small>ci: " + E(ci) + "</span>" if ci else ""}</td>'
            f'<td>{E(expected)}</td><td>{E(ps.get("verdict", ""))}'
            f'{_stale_mark(ps)}'
            f'</td><td><button class="toggle" aria-expanded="false">▸</button> '
            f'{E(clean(rec.get("title") or "evidence"))}</td></tr>'
            f'<tr class="detail" hidden><td colspan="7">{_details(rec, figures)}</td></tr>')
    options = lambda values: "".join(f"<option>{E(v)}</option>" for v in values)  # noqa: E731
    return (
        '<div class="filters">verdict <select id="fv"><option value="">all</option>'
        f'{options(PRECEDENCE)}</select> kind <select id="fk"><option value="">all</option>'
        f'{options(kinds)}</select> text <input id="ft" placeholder="ID, where, evidence"> '
        '<span id="shown"></span></div>'
        '<table id="claims"><thead><tr><th data-col="0">ID</th><th data-col="1">where</th>'
        '<th data-col="2">kind</th><th data-col="3">verdict</th><th data-col="4">expected</th>'
        '<th data-col="5">paper scale</th><th data-col="6">claim (▸ unfolds the evidence)</th>'
        '</tr></thead><tbody>'
        + "".join(rows) + "</tbody></table>")


def _page_of(claim_id: str, claim_pages: dict[str, str], page: str) -> str:
    """The page a link to ``claim_id`` goes to from ``page`` ('' for the same page)."""
    target = claim_pages.get(claim_id, "index.html")
    return "" if target == page else E(target)


def _figures(figures: list[dict], claim_pages: dict[str, str], page: str) -> str:
    if not figures:
        return ""
    out = ["<h2>Reproduced figures</h2><p>Theory as lines, simulation as markers.</p>"]
    for f in figures:
        links = ", ".join(f'<a href="{_page_of(c, claim_pages, page)}#{anchor(c)}">{E(c)}</a>'
                          for c in f["claims"])
        # the PNG's pixel density against CSS pixels (96 to the inch): shown at the figure's size
        src = E(f"../{f.get('png', '')}")
        out.append(f'<figure id="{fig_anchor(f)}"><img src="{src}" srcset="{src} {PNG_DPI / 96:g}x" '
                   f'alt="{E(source_text(f["caption"]))}"><figcaption>Claims {links}. '
                   f'{E(source_text(f["caption"]))}'
                   "</figcaption></figure>")
    return "".join(out)


CSS = """
body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:0 auto;max-width:1200px;padding:0 16px;
     font-size:14px;color:#222}
header,footer{color:#555;font-size:12px;border-bottom:1px solid #ddd;padding:6px 0}
footer{border-top:1px solid #ddd;border-bottom:none;margin-top:24px}
nav a{margin-right:12px}
table{border-collapse:collapse;width:100%;table-layout:fixed}
#claims td,#claims th{border-bottom:1px solid #eee;padding:4px;vertical-align:top;
     overflow-wrap:anywhere;text-align:left}
#claims th{cursor:pointer;background:#f5f5f5;position:sticky;top:0;z-index:1}
#claims tr.claim{scroll-margin-top:3.2em} figure{scroll-margin-top:1em}
#claims th:nth-child(1){width:12%} #claims th:nth-child(2){width:16%}
#claims th:nth-child(3){width:9%} #claims th:nth-child(4){width:11%}
#claims th:nth-child(5){width:9%} #claims th:nth-child(6){width:8%}
tr.detail td{background:#fafafa;padding:8px 16px}
tr.target td{background:#fff8e1}
button.toggle{border:none;background:none;cursor:pointer;font-size:14px;padding:0 4px}
.badge{padding:1px 5px;border-radius:3px;white-space:nowrap}
table.ms{font-size:12px;margin:4px 0;table-layout:auto}
table.ms td:first-child,table.ms th:first-child{width:1.2em}
table.ms td,table.ms th{border:1px solid #e5e5e5;padding:2px 4px;overflow-wrap:anywhere;
     vertical-align:top}
tr.bad td{background:#fff3f3} tr.read td{background:#fffbe6} .small{font-size:11px;color:#666} .stale{color:#b71c1c}
.form{overflow-x:auto;overflow-y:hidden;margin:4px 0;padding:2px 0} math{font-size:1.15em}
figure{margin:16px 0;border-top:1px solid #eee;padding-top:8px}
figure img{max-width:100%;height:auto}
figcaption{font-size:13px;margin-top:4px}
.filters{margin:8px 0}
.counts td,.counts th{border:1px solid #ddd;padding:3px 6px;text-align:right}
.counts{width:auto;table-layout:auto} .counts tr > th:first-child{text-align:left}
table.findings{margin:6px 0 14px} table.findings td,table.findings th{border-bottom:1px solid #eee;
     padding:5px 6px;vertical-align:top;text-align:left;overflow-wrap:anywhere}
table.findings th{background:#f5f5f5;font-size:12px}
table.findings td:nth-child(1),table.findings th:nth-child(1){width:13%}
table.findings td:nth-child(2),table.findings th:nth-child(2){width:11%}
table.findings td:nth-child(4),table.findings th:nth-child(4){width:170px}
table.findings .badge{font-size:12px;white-space:normal;display:inline-block} img.thumb{width:160px;height:auto;border:1px solid #eee}
dl.legend{display:grid;grid-template-columns:max-content auto;gap:2px 10px;font-size:12px}
dl.legend dd{margin:0}
"""

JS = """
const t=document.getElementById('claims');
if(t){const body=t.tBodies[0];
const pairs=[...body.querySelectorAll('tr.claim')].map(r=>[r,r.nextElementSibling]);
const fv=document.getElementById('fv'),fk=document.getElementById('fk'),ft=document.getElementById('ft'),
shown=document.getElementById('shown');
function open(pair,on){pair[1].hidden=!on;const b=pair[0].querySelector('button.toggle');
b.textContent=on?'▾':'▸';b.setAttribute('aria-expanded',on);}
pairs.forEach(p=>p[0].querySelector('button.toggle').onclick=()=>open(p,p[1].hidden));
function apply(){let n=0;const q=ft.value.toLowerCase();for(const p of pairs){const r=p[0];const ok=
(!fv.value||r.dataset.verdict===fv.value)&&(!fk.value||r.dataset.kind===fk.value)&&
(!q||(r.textContent+p[1].textContent).toLowerCase().includes(q));r.hidden=!ok;
if(!ok)p[1].hidden=true;n+=ok;}shown.textContent=n+' of '+pairs.length+' claims';}
[fv,fk].forEach(e=>e.onchange=apply);ft.oninput=apply;apply();
t.querySelectorAll('th[data-col]').forEach(th=>th.onclick=()=>{const c=+th.dataset.col;
const dir=th.dataset.dir==='1'?-1:1;th.dataset.dir=dir===1?'1':'-1';
const key=p=>p[0].cells[c].textContent;
pairs.sort((a,b)=>dir*key(a).localeCompare(key(b),undefined,{numeric:true}));
pairs.forEach(p=>{body.appendChild(p[0]);body.appendChild(p[1]);});});
function target(){if(!location.hash)return;const r=document.getElementById(decodeURIComponent(
location.hash.slice(1)));const p=pairs.find(p=>p[0]===r);if(!p)return;
if(r.hidden){fv.value='';fk.value='';ft.value='';apply();}
pairs.forEach(q=>q[0].classList.remove('target'));r.classList.add('target');open(p,true);
r.scrollIntoView({block:'start'});}
window.addEventListener('hashchange',target);target();}
"""

#: what each verdict means, in every legend
MEANING = {
    "holds": "confirmed: a proof, or numerics within the stated tolerance; an empirical claim "
             "from a faithful run",
    "defined": "a definition or setting, its internal consistency checked",
    "holds-if": "true only under a condition the paper does not state (named)",
    "erratum": "the printed form fails (counterexample); a corrected form holds",
    "fails": "the printed claim is false, no correction established",
    "not-reproduced": "a faithful run does not show the paper's stated outcome",
    "inconclusive": "the evidence does not decide it (why, and what a faithful run costs)",
    "untested": "cannot run here (a data set or hardware is absent)",
    "supported": "every stated criterion passes, but on a run that is not faithful",
}


def legend() -> str:
    return '<dl class="legend">' + "".join(
        f'<dt><span class="badge" style="background:{COLOURS[v]}">{E(v)}</span></dt>'
        f"<dd>{E(MEANING[v])}</dd>" for v in PRECEDENCE) + "</dl>"


def _page(title: str, doc: dict, body: str, papers: list[str]) -> str:
    nav = '<a href="index.html">summary</a>' + "".join(
        f'<a href="{p}.html">{E(p)}</a>' for p in papers)
    prov = E(provenance_line(doc))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{E(title)}</title>'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<style>{CSS}</style></head><body><header><nav>{nav}</nav><div>{prov}</div></header>"
            f"<h1>{E(title)}</h1>{body}<footer>{prov} · one claim in full: "
            f"<code>python -m verify show ID</code></footer><script>{JS}</script></body></html>")


def _counts(doc: dict, papers: list[str]) -> str:
    table = {p: counts(doc, p) for p in papers}
    head = "".join(f"<th>{E(v)}</th>" for v in PRECEDENCE)
    rows = "".join(f'<tr><th><a href="{p}.html">{E(paper_title(doc, p))}</a></th>'
                   + "".join(f"<td>{table[p][v] or ''}</td>" for v in PRECEDENCE)
                   + f"<td>{sum(table[p].values())}</td></tr>" for p in papers)
    return f'<table class="counts"><tr><th>paper</th>{head}<th>total</th></tr>{rows}</table>'


def _thumbnail(f, claim_pages: dict[str, str], reports: Path) -> str:
    """The finding's reproduced figure as a thumbnail linking to it on its paper's page ('' when
    the record names no figure or its file is gone)."""
    if not f.figure or not f.figure.get("png") or not (reports / f.figure["png"]).is_file():
        return ""
    page = claim_pages.get(f.claim, "index.html")
    return (f'<a href="{E(page)}#{fig_anchor(f.figure)}"><img class="thumb" loading="lazy" '
            f'src="../{E(f.figure["png"])}" alt="{E(source_text(f.figure.get("caption", "")))}"></a>')


def findings_table(found: list, claim_pages: dict[str, str], reports: Path) -> str:
    """One paper's findings as a table: claim, verdict, the finding (MathML), the figure."""
    rows = "".join(
        '<tr><td>' + "<br>".join(f'<a href="{claim_pages[c]}#{anchor(c)}">{E(c)}</a>' for c in f.claims)
        + f'<br><span class="small">{E(f.where)}</span></td>'
        f'<td><span class="badge" style="background:{COLOURS[f.verdict]}">{E(verdict_label(f))}</span></td>'
        f'<td>{pieces_html(f.pieces)}'
        + (f' <span class="stale">(!) {E(f.stale)}</span>' if f.stale else "")
        + f'</td><td>{_thumbnail(f, claim_pages, reports)}</td></tr>'
        for f in found)
    return ('<table class="findings"><thead><tr><th>claim</th><th>verdict</th>'
            f'<th>what the suite found</th><th>figure</th></tr></thead><tbody>{rows}</tbody></table>')


def _findings(doc: dict, claim_pages: dict[str, str], found: dict, reports: Path) -> str:
    out = [f"<h2>What the suite found</h2><p>{len(doc['claims'])} claims "
           f"({E(count_text(counts(doc)))}). Every claim not listed holds or is a consistent "
           "definition; the verdicts are those of a faithful paper-scale run where one is "
           "recorded (the ci verdict beside it). Formulas are in each paper's own notation.</p>"]
    for paper in [p for p in doc.get("papers", {}) if p in found] or list(found):
        out.append(f'<h3><a href="{paper}.html">{E(paper_title(doc, paper))}</a></h3>'
                   + findings_table(found[paper], claim_pages, reports))
    return "".join(out)


def write(reports: Path, doc: dict) -> list[Path]:
    """``html/index.html`` and one page per paper; the paths written."""
    out = reports / "html"
    records = doc["claims"]
    papers = list(dict.fromkeys(r["paper"] for r in records))
    claim_pages = {r["id"]: f"{r['paper']}.html" for r in records}
    figures = {p: [dict(f, page=f"{p}.html") for f in figure_order(doc, p)] for p in papers}
    # A claim's figures are linked on the page of the claim's own paper.
    all_figures = [f for p in papers for f in figures[p]
                   if any(claim_pages.get(c) == f"{p}.html" for c in f["claims"])]
    differ = [r for r in records if headline(r)[0] != headline(r)[1]]
    found = findings(doc)  # once: each paper page shows its own
    body = (_findings(doc, claim_pages, found, reports) + "<h2>Verdicts per paper</h2>" + _counts(doc, papers)
            + f"<p>{len(differ)} claims differ from their baseline"
            + (": " + ", ".join(f'<a href="{claim_pages[r["id"]]}#{anchor(r["id"])}">{E(r["id"])}</a>'
                                for r in differ) if differ else "") + ".</p>"
            + legend() + "<h2>All claims</h2>" + _table(records, all_figures))
    written = [atomic.write_text(out / "index.html", _page("Claims suite: summary", doc, body, papers))]
    for p in papers:
        recs = [r for r in records if r["paper"] == p]
        paper_doc = dict(doc, claims=recs)
        body = (f"<p>{len(recs)} claims ({E(count_text(counts(paper_doc)))}).</p>"
                + (f"<h2>What the suite found in this paper</h2>"
                   f"{findings_table(found[p], claim_pages, reports)}"
                   if p in found else "") + legend()
                + _table(recs, figures[p]) + _figures(figures[p], claim_pages, f"{p}.html"))
        written.append(atomic.write_text(out / f"{p}.html",
                                        _page(paper_title(doc, p), doc, body, papers)))
    return written
