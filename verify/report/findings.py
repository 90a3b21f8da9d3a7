"""What the suite found, first: one finding per claim that is not ``holds`` or ``defined``, per
paper by title, from the record alone.  The HTML index and paper pages, ``summary.pdf`` page 1 and
each paper's PDF (a table per paper: claim, verdict, finding, figure), the terminal's closing
lines and ``python -m verify findings`` (Markdown, for the README's first screen) all open with it.

* an erratum: its wrong part, minimal, printed against corrected (:mod:`.misprint`), with the
  counterexample; errata that are one misprint of the paper are one finding listing every ID;
* a holds-if: the condition the paper leaves out;
* ``fails``, ``not-reproduced``, ``inconclusive``, ``supported``, ``untested``: the deciding
  measurement as a sentence (:mod:`.sentences`), and what a faithful run needs and costs.

A finding is kept as pieces -- words, and formulas as LaTeX in the paper's notation
(:mod:`.maths`) -- so the HTML sets them as MathML, the PDFs with mathtext (:mod:`.typeset`), and
the terminal and Markdown as Unicode text (:attr:`Finding.text`).  A statement the catalogue
reconstructed says so.  Each claim is given its headline verdict
(:func:`verify.report.record.headline`): a faithful paper-scale run's where one is recorded, the
ci verdict beside it.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass

from theory import notation
from theory.verdicts import PRECEDENCE
from verify.report import maths
from verify.report.forms import name_pieces
from verify.report.misprint import misprint
from verify.report.paper_scale import staleness
from verify.report.record import headline, paper_title
from verify.report.sentences import deciding_numbers, faithful_cost
from verify.report.text import commit_text

#: the verdicts a findings list names (every other verdict is a confirmation)
FOUND = tuple(v for v in PRECEDENCE if v not in ("holds", "defined"))
#: a finding's text as pieces: ("text", words) or ("math", LaTeX in the paper's notation)
Piece = tuple[str, str]
RECONSTRUCTED = (" [statement reconstructed by the catalogue: the paper's own maths is masked in "
                 "the seed text]")


@dataclass(frozen=True)
class Finding:
    #: the claims of the finding: one, or several that share one misprint of the paper
    claims: tuple[str, ...]
    paper: str
    where: str
    verdict: str
    #: the ci verdict when a faithful paper-scale run gives the headline, else ''
    ci_verdict: str
    pieces: tuple[Piece, ...]
    #: why the paper-scale headline may be out of date ('' when it is current or absent)
    stale: str = ""
    #: the claim's reproduced figure (its record entry: png, caption), if it has one
    figure: dict | None = None

    @property
    def claim(self) -> str:
        return self.claims[0]

    @property
    def text(self) -> str:
        """The finding as clean Unicode text (terminal, Markdown, ``show``)."""
        return maths.plain(self.pieces)


def _erratum(rec: dict, m) -> list[Piece]:
    """The wrong part ``m`` (:mod:`.misprint`), printed against corrected, and the
    counterexample."""
    out = (name_pieces(m.part, rec["paper"]) + [("text", ": ")]) if m.part else []
    if m.prose:
        out.append(("text", f"printed “{m.printed}” → corrected “{m.corrected}”"))
    else:
        out += [("text", "printed "), ("math", m.printed), ("text", " → corrected "),
                ("math", m.corrected)]
    if m.others:
        out.append(("text", f" (and {m.others} more part{'s' * (m.others > 1)})"))
    if rec.get("counterexample"):
        out.append(("text", f"; counterexample: {maths.prose(rec['counterexample'])}"))
    return out


def _pieces(rec: dict, verdict: str, wrong) -> list[Piece]:
    ps = rec.get("paper_scale") or {}
    source = ps if verdict == ps.get("verdict") and ps.get("faithful") else rec
    if verdict == "erratum":
        out = _erratum(rec, wrong)
    elif verdict == "holds-if":
        out = [("text", f"holds if {maths.prose(rec.get('condition', ''))}")]
    else:
        text = deciding_numbers(source.get("measurements") or [], most=1) or rec.get("evidence", "")
        if verdict in ("inconclusive", "supported", "untested"):
            cost = faithful_cost(source.get("setups") or rec.get("setups") or [])
            text += f" {cost[0].upper()}{cost[1:]}." if cost else ""
        out = [("text", text)]
    return out + ([("text", RECONSTRUCTED)] if rec.get("reconstructed") else [])


def _figure(doc: dict, claim: str) -> dict | None:
    return next((f for f in doc.get("figures") or [] if claim in f.get("claims", [])), None)


def _one(doc: dict, rec: dict, verdict: str) -> tuple[tuple, Finding]:
    """A claim's finding, and the key of the misprint it shares: the paper's notation table's
    group, else the printed and corrected pair itself (errata only)."""
    ps = rec.get("paper_scale") or {}
    from_scale = verdict == ps.get("verdict") and ps.get("faithful") and rec["verdict"] != verdict
    wrong = misprint(rec) if verdict == "erratum" else None
    group = notation.shared(rec["paper"], rec["id"])
    key = (("group",) + group if len(group) > 1 else ("pair", wrong)) if wrong else ("claim", rec["id"])
    return key, Finding((rec["id"],), rec["paper"], rec["where"], verdict,
                        rec["verdict"] if from_scale else "", tuple(_pieces(rec, verdict, wrong)),
                        staleness(ps) if ps.get("faithful") else "", _figure(doc, rec["id"]))


def _merged(keyed: list[tuple[tuple, Finding]]) -> list[Finding]:
    """Findings of one misprint as one finding listing every claim (in the notation table's
    order), shown by the first."""
    groups: dict[tuple, list[Finding]] = {}
    for key, f in keyed:
        groups.setdefault(key, []).append(f)
    out = []
    for key, members in groups.items():
        members.sort(key=lambda f: key.index(f.claim) if f.claim in key else 0)
        first = members[0]
        out.append(Finding(tuple(f.claim for f in members), first.paper,
                           "; ".join(dict.fromkeys(f.where for f in members)), first.verdict,
                           first.ci_verdict, first.pieces, first.stale, first.figure))
    return out


def findings(doc: dict) -> dict[str, list[Finding]]:
    """paper key -> its findings, in verdict order (strongest first), then catalogue order;
    errata that are one misprint merged into one finding."""
    out: dict[str, list] = collections.defaultdict(list)
    for rec in doc["claims"]:
        verdict, _ = headline(rec)
        if verdict in FOUND:
            out[rec["paper"]].append(_one(doc, rec, verdict))
    return {paper: sorted(_merged(keyed), key=lambda f: PRECEDENCE.index(f.verdict))
            for paper, keyed in out.items()}


def counts(doc: dict, paper: str | None = None) -> collections.Counter:
    """Headline verdicts of the record (of one paper)."""
    return collections.Counter(headline(r)[0] for r in doc["claims"]
                               if paper is None or r["paper"] == paper)


def count_text(counter) -> str:
    return ", ".join(f"{v} {counter[v]}" for v in PRECEDENCE if counter[v])


def verdict_label(f: Finding) -> str:
    return f"{f.verdict} at paper scale (ci: {f.ci_verdict})" if f.ci_verdict else f.verdict


def markdown(doc: dict) -> str:
    """The findings as Markdown: a heading per paper (by title), one bullet per claim."""
    found = findings(doc)
    total = counts(doc)
    lines = ["## What the suite found", "",
             f"{len(doc['claims'])} claims ({count_text(total)}); record {doc.get('generated', '?')}, "
             f"commit {commit_text(doc.get('commit'), doc.get('dirty'))}. Every claim not listed "
             "holds or is a consistent definition. One claim in full: `python -m verify show ID`.", ""]
    for paper in doc.get("papers", {}) or sorted({r["paper"] for r in doc["claims"]}):
        if paper not in found:
            continue
        lines += [f"### {paper_title(doc, paper)}", ""]
        for f in found[paper]:
            stale = f" ({f.stale})" if f.stale else ""
            ids = ", ".join(f"`{c}`" for c in f.claims)
            lines.append(f"- **{verdict_label(f)}** {ids} ({f.where}): {f.text}{stale}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
