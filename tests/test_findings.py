"""What the suite found, as a researcher reads it (issue 25): each erratum shows its wrong part,
minimal, printed against corrected in the paper's notation, never two equal sides; findings of
one misprint are one; every finding is typeset (MathML in the HTML, mathtext in the PDFs) and no
LaTeX source or Python repr reaches its text; an empirical finding is a sentence with the paper's
words, the measured interval, the reading range and the flip point, the paper's contrast and the
claim's figure beside it; ``summary.pdf`` and ``html/index.html`` open with a table per paper."""
import re
import shutil
from html.parser import HTMLParser

import matplotlib.pyplot as plt
import pytest

from theory import notation
from theory.papers import PAPERS
from theory.registry import REGISTRY
from tests.test_report import merged, pdf_pages, record
from verify.report import maths, typeset
from verify.report import record as R
from verify.report.findings import FOUND, findings
from verify.report.forms import name_pieces
from verify.report.misprint import equal, misprint
from verify.report.pdf import width
from verify.report.sentences import lexicon_sentence, measurement_sentence

#: what must never reach a finding's text (LaTeX source, Python reprs, clean()'s group marks):
#: a backslash, ``**``, sympy's ``oo``, ``None``, ``_(``
FORBIDDEN = re.compile(r"\\|\*\*|\boo\b|\bNone\b|_\(")


def forbidden(text: str) -> list[str]:
    """Each forbidden mark in ``text`` with what stands around it."""
    return [text[max(0, m.start() - 60):m.end() + 20] for m in FORBIDDEN.finditer(text)]


def failed(name: str, source: str = "reading: r") -> dict:
    return {"name": name, "value": 1.0, "criterion": "<= 0", "passed": False, "source": source,
            "source_kind": source.split(" ")[0].rstrip(":"), "role": "printed"}


def shown(claim_id: str, **extra) -> tuple:
    rec = record(claim_id, **extra).as_json()
    m = misprint(rec)
    return m, (m.printed, m.corrected) if m.prose else tuple(map(maths.unicode, (m.printed, m.corrected)))


ERRATA = [c.id for c in REGISTRY if c.expected == "erratum"]


@pytest.mark.parametrize("claim_id", ERRATA)
def test_every_erratum_shows_a_printed_and_corrected_pair_that_differ(claim_id):
    m, (printed, corrected) = shown(claim_id)
    assert printed.strip() and corrected.strip(), m
    assert printed != corrected, (claim_id, printed)
    if not m.prose:
        assert maths.mathtext(m.printed) != maths.mathtext(m.corrected)


def test_a_part_equal_to_its_correction_is_never_the_misprint():
    """GRQ-LemB.2: 'd h if c > h, else c d' is d min(c, h); the misprint is Eq. (90)'s sum."""
    m, (printed, corrected) = shown("GRQ-LemB.2")
    assert m.part == "sum of ranks (90)" and corrected == "h"
    m, (printed, corrected) = shown("BL-Eq(14)")  # the delay is the same function of g
    assert m.part == "g_meaning" and (printed, corrected) == ("dead fraction", "alive fraction")


def test_equal_compares_functions_not_texts():
    import sympy as sp
    c, d, h = sp.symbols("c d h", positive=True, integer=True)
    delta = sp.Symbol("delta", real=True)
    assert equal(sp.Piecewise((d * h, c > h), (c * d, True)), d * sp.Min(c, h))
    assert not equal(delta, sp.Abs(delta))  # equal for delta > 0 only
    assert not equal(sp.Piecewise((h, c > h), (c, True)), h)


def test_a_printed_form_that_does_not_conform_comes_before_one_the_suite_generalised():
    """BL-Eq(6): W~1 x_i does not conform; the missing c of 'W1 x + b' is the suite's c != 1."""
    m, (printed, corrected) = shown("BL-Eq(6)", measurements=(
        failed("printed with_bias vs W2 W~1 x~"), failed("printed augmented vs W2 W~1 x~")))
    assert m.part in ("augmented", "svd") and "x̃" in corrected and "x̃" not in printed


def test_the_smallest_differing_piece_is_shown_within_its_base():
    m, (printed, corrected) = shown("GRQ-Claim-DeepQ")
    assert printed.startswith("‖β₀‖^") and corrected.startswith("‖β₀‖^")  # the exponent, with its base


def test_a_sentence_erratum_quotes_the_paper_when_no_form_differs():
    """LR-Tab2: the table is right; 'a larger k has the opposite effect' (l.293) is not."""
    quote = 'paper l.293 (reconstructed, catalogue): "Moreover, a larger [k] has the opposite effect"'
    m, (printed, corrected) = shown("LR-Tab2", measurements=(failed("max dE/dk", quote),))
    assert m.prose and printed == "Moreover, a larger [k] has the opposite effect"
    assert "Glorot" in corrected


def test_findings_of_one_misprint_are_one_finding_listing_both_ids():
    doc = merged([record(c, counterexample="A = I_4") for c in
                  ("BL-Def-EffRank", "BL-Eq(1)", "BL-Def-G", "BL-Eq(14)", "BL-Eq(21)")])
    found = findings(doc)["bias"]
    assert sorted(f.claims for f in found) == sorted(
        [("BL-Def-EffRank", "BL-Eq(1)"), ("BL-Eq(14)", "BL-Def-G"), ("BL-Eq(21)",)])
    assert notation.shared("bias", "BL-Eq(1)") == ("BL-Def-EffRank", "BL-Eq(1)")


def test_reconstructed_statements_say_so_in_the_finding():
    doc = merged([record("LR-ThmA.3", reconstructed=REGISTRY["LR-ThmA.3"].reconstructed)])
    assert "reconstructed" in findings(doc)["lazy_rich"][0].text


def test_the_notation_tables_are_theory_of_known_papers():
    source = (notation.__file__ and open(notation.__file__).read())
    assert not re.search(r"^\s*(from|import) (verify|numerics)", source, re.M)
    assert set(notation.SYMBOLS) | set(notation.PARTS) | set(notation.SHARED) <= set(PAPERS)
    ids = {i for p in PAPERS.values() for i in p.ids}
    assert all(c in ids for groups in notation.SHARED.values() for g in groups for c in g)


#: (paper, part name) that a finding may show by the suite's own name, each with its reason: none
#: (a misprint of the whole form, part name '', is shown without a label: see the test below)
SUITE_NAMED: dict[tuple[str, str], str] = {}
FINDINGS = [c.id for c in REGISTRY if c.expected in ("erratum", "holds-if")]


@pytest.mark.parametrize("claim_id", FINDINGS)
def test_every_finding_names_its_wrong_part_as_the_paper_does(claim_id):
    """The wrong part of each erratum and holds-if claim is labelled from the paper's table
    (:data:`theory.notation.PARTS`), never by the suite's name ('step_W1', '-oo.I', 'figure'):
    "every symbol shown is the paper's"."""
    rec = record(claim_id).as_json()
    m, paper = misprint(rec), rec["paper"]
    (found,) = findings(merged([record(claim_id)]))[paper]
    if not m.part:  # the whole form (or a sentence) is the misprint: no part, so no label
        assert found.pieces[0][1].startswith(("printed", "holds if")), found.pieces[:2]
        return
    named = notation.part_name(paper, m.part)
    if (paper, m.part) in SUITE_NAMED:
        assert not named, f"{paper} {m.part!r} is in the paper's table: drop it from SUITE_NAMED"
        return
    assert named, f"{claim_id}: part {m.part!r} shows as {maths.part_label(m.part, paper)!r}; " \
                  f"add what {paper} calls it to theory.notation.PARTS"
    assert maths.part_label(m.part, paper) == f"${named}$"
    assert name_pieces(m.part, paper) == [("math", named)]
    if rec["verdict"] == "erratum":  # the finding opens with the paper's label
        assert list(found.pieces[:2]) == [("math", named), ("text", ": ")], found.pieces[:2]


def test_symbols_read_in_the_papers_notation():
    m, (printed, corrected) = shown("BL-Eq(21)")
    assert "ω_α" in printed and "d_α" in corrected  # the suite's a and d
    m, (printed, corrected) = shown("GRQ-Fn3")
    assert "‖β*‖" in printed  # the suite's b


def test_unicode_maths_has_no_source_marks():
    for tex in (r"W_{1 aug}^{T}", r"\sum_{i=1}^{\min(n, m)} \bar{s}_{i}", r"\eta_{w} x^{2}",
                r"a_{\mathrm{dead}}", r"\left( -1, \ \infty\right)"):
        text = maths.unicode(tex)
        assert not forbidden(text), (tex, text)
    assert maths.unicode(r"\sum_{i=1}^{n} x_{i}") == "Σᵢ₌₁ⁿ xᵢ"
    assert maths.part_label("-oo.I", "bias") == "−∞, I"  # a name no table has: the suite's, legible
    assert maths.prose("eta_a -> oo and lambda <= 1") == "η_a → ∞ and λ ≤ 1"


def test_a_python_rendering_stored_as_text_is_read_back_as_maths():
    part = {"name": "t", "text": "((-k + r)/k, (k**2 + r)/(N_i*k**2))"}
    assert "\\frac" in maths.part_latex(part, "lazy_rich")
    assert maths.part_latex({"name": "t", "text": "dead fraction"}, "bias") == ""


# -- typesetting --------------------------------------------------------------------------------

def test_typeset_lines_wrap_without_cutting_and_fit_their_width():
    pieces = [("text", "printed "), ("math", r"\frac{\tau}{2 s_{\alpha}} \log{\left(\frac{N}{D}\right)}"),
              ("text", " → corrected "), ("math", r"\bar{g}"), ("text", "; " + "word " * 40)]
    lines = typeset.layout(pieces, 2.0, 7, width)
    words = " ".join(r.text for line in lines for r in line.runs if not r.math).split()
    assert words.count("word") == 40 and len(lines) > 3
    for line in lines:
        last = line.runs[-1]
        end = last.x + (typeset._measure_math(last.text, last.size)[0] if last.math
                        else width(last.text, last.size))
        assert end <= 2.0 + 1e-6


def test_a_formula_wider_than_the_line_is_set_smaller_then_as_words():
    tex = " + ".join(f"x_{{{k}}}^{{2}}" for k in range(12))
    small = typeset.layout([("math", tex)], 2.0, 7, width)
    assert all(r.math and r.size < 7 for line in small for r in line.runs)
    words = typeset.layout([("math", tex)], 0.5, 7, width)
    assert all(not r.math for line in words for r in line.runs) and len(words) > 2


# -- empirical sentences ------------------------------------------------------------------------

def lexicon(passed=False, undecided="a straddles", contrast=True, value=0.0147) -> dict:
    details = {"unit": "fraction of L(0)", "readings": {"overlapping lines": 0.01, "visibly close": 0.05},
               "intervals": {"measured": [0.0051, 0.0399]}, "seeds": 4,
               "flip points": {"passes for bounds from": 0.0399, "fails for bounds below": 0.0051}}
    if contrast:
        details["contrast: without bias"] = {"value": 0.174, "interval": [0.129, 0.22], "seeds": 4}
    return {"name": "mean gap / L(0)", "value": value, "criterion": "<= 0.01 | 0.05 (…)",
            "passed": passed, "undecided": undecided if not passed else "",
            "source": "lexicon L164: \"We see close agreement between the networks\", read by the "
                      "lexicon's 'close agreement'", "source_kind": "lexicon", "details": details}


def test_a_lexicon_measurement_is_one_sentence_with_interval_readings_flip_and_contrast():
    text = lexicon_sentence(lexicon())
    for part in ("“We see close agreement between the networks” (L164)", "0.0147",
                 "interval 0.0051 to 0.0399", "4 seeds", "(unit: fraction of L(0))",
                 "at most 0.01 (overlapping lines), 0.05 (visibly close)",
                 "depends on the reading", "passes for bounds from 0.0399",
                 "fails for bounds below 0.0051", "contrast, without bias: 0.174 (interval 0.129 to 0.22)"):
        assert part in text, (part, text)
    assert text.count(". ") <= 1 and "holds at every reading" in lexicon_sentence(lexicon(True))
    assert "fails at every reading" in lexicon_sentence(lexicon(undecided=""))


def test_an_alternative_reading_of_the_quantity_shows_each_value_with_its_interval():
    m = lexicon()
    m["value"] = {"global time shift": 0.017, "mode-wise time shift": 0.019}
    m["details"]["intervals"] = {"global time shift": [0.007, 0.027], "mode-wise time shift": [0.009, 0.029]}
    text = lexicon_sentence(m)
    assert "0.017 (global time shift; interval 0.007 to 0.027)" in text
    assert "0.019 (mode-wise time shift; interval 0.009 to 0.029)" in text


def test_a_direction_says_its_one_reading_and_the_alternative_it_was_measured_under():
    m = {"name": "S at step 1000, cell below corner: one-sided paired t-test p over 16 + 16 seeds",
         "value": 0.0842, "criterion": "< 0.05", "passed": False, "undecided": "",
         "interpretation": "rapid: read at step 1000", "source_kind": "paper",
         "source": "paper L24: \"rapid rich learning\"", "details": {"cell mean": 0.176}}
    text = measurement_sentence(m)
    for part in ("“rapid rich learning” (L24)", "0.0842 against < 0.05",
                 "under the reading ‘rapid: read at step 1000’",
                 "a direction with no size stated, read one way", "so it fails", "cell mean 0.176"):
        assert part in text, (part, text)
    m.update(name="growth of the top singular value, every one of 2 seeds", interpretation=None)
    assert "read one way" not in measurement_sentence(m)


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """Reports of every erratum and holds-if claim of the registry and an inconclusive empirical
    claim decided by the lexicon, with its figure."""
    from verify.report import html, pdf
    from verify.report.figures import save
    reports = tmp_path_factory.mktemp("front")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="theory")
    paths = save(fig, reports / "figures", "mhs")
    claims = [record(c.id) for c in REGISTRY if c.expected in ("erratum", "holds-if")]
    claims.append(record("MHS-Fig6", "inconclusive", measurements=(lexicon(),)))
    doc = merged(claims, figures=[R.FigureRecord(paths["png"], "stereotypical $\\alpha$",
                                                 ("MHS-Fig6",), "verify/t.py::test_a")])
    html.write(reports, doc)
    pdf.write_summary(reports, doc)
    pdf.write_paper(reports / "haste_slowly.pdf", "haste_slowly", doc, reports)
    return reports, doc


class _Text(HTMLParser):
    """The text of the findings tables (MathML included: its characters, not its markup)."""

    def __init__(self):
        super().__init__()
        self.depth, self.text, self.thumbs = 0, [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("class") == "findings":
            self.depth = 1
        elif tag == "table" and self.depth:
            self.depth += 1
        if self.depth and tag == "img":
            self.thumbs.append(a.get("src"))

    def handle_endtag(self, tag):
        if tag == "table" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)


def test_the_html_findings_are_mathml_with_nothing_of_source_or_repr(front):
    reports, doc = front
    page = (reports / "html" / "index.html").read_text()
    body = page[page.index("<h1>"):]
    assert body.index('<table class="findings">') < body.index("Verdicts per paper")
    parser = _Text()
    parser.feed(page)
    text = "".join(parser.text)
    assert text and not forbidden(text), forbidden(text)
    findings_html = page[page.index('<table class="findings">'):page.index("Verdicts per paper")]
    formulas = sum(kind == "math" for fs in findings(doc).values() for f in fs for kind, _ in f.pieces)
    assert formulas > len(ERRATA) and findings_html.count("<math") == formulas  # all as MathML
    assert parser.thumbs == ["../figures/mhs.png"]
    assert "(interval 0.0051 to 0.0399" in text


def test_every_finding_formula_is_typeset_by_mathtext(front):
    _, doc = front
    formulas = [t for fs in findings(doc).values() for f in fs for kind, t in f.pieces if kind == "math"]
    assert formulas
    bad = [t for t in formulas if typeset._measure_math(maths.mathtext(t), 7.0) is None]
    assert not bad, bad[:3]


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils not installed")
def test_the_summary_pdf_opens_with_the_findings_table_and_no_source_or_repr(front):
    reports, doc = front
    pages = pdf_pages(reports / "summary.pdf")
    head = re.search(r"claim\s+verdict\s+what the suite found\s+figure", pages[0])
    assert head and pages[0].index("What the suite found") < head.start()  # the table, page 1
    found = [f for fs in findings(doc).values() for f in fs if f.verdict in FOUND]
    start = pages[0].index("What the suite found")
    text = "".join(pages)[start:"".join(pages).index("Headline verdicts") if "Headline verdicts"
                          in "".join(pages) else None]
    assert not forbidden(text), forbidden(text)
    assert all(c in "".join(pages) for f in found for c in f.claims)
    assert "stereotypical α" in "".join(pdf_pages(reports / "haste_slowly.pdf"))  # caption maths as text


def test_a_part_keyed_by_a_function_is_named_by_the_function():
    """LR-ThmC.4 keyed a part by sympy's ``limit``: its name is 'limit', not a function's repr."""
    import sympy as sp
    from verify.report.forms import form_parts
    assert [p["name"] for p in form_parts({sp.limit: sp.Symbol("I")})] == ["limit"]


def test_a_figure_whose_file_is_gone_gets_no_thumbnail(tmp_path):
    from verify.report import html
    doc = merged([record("MHS-Fig6", "inconclusive", measurements=(lexicon(),))],
                 figures=[R.FigureRecord("figures/gone.png", "c", ("MHS-Fig6",),
                                         "verify/t.py::test_a")])
    html.write(tmp_path, doc)
    page = (tmp_path / "html" / "index.html").read_text()
    assert "MHS-Fig6" in page and 'class="thumb"' not in page
