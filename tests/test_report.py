"""The run record and the reports rendered from it: merging, provenance, damaged and old records,
paper-scale records and their deciding-code hashes, the self-contained record (forms as
recorded, not as registered), findings first, the HTML report (parsed, and in headless Chromium
when installed: deep links unfold their claim), the PDFs' text (no raw LaTeX, no Python repr,
"(continued)" pages), and ``python -m verify show`` / ``findings``."""
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import matplotlib.pyplot as plt
import pytest
import sympy as sp

from theory.registry import REGISTRY, load_all
from verify.report import paper_scale as P
from verify.report import record as R
from verify.report.findings import findings, markdown
from verify.report.forms import form_parts
from verify.report.pdf import width, wrap
from verify.report.text import clean, measured

load_all()
ORDER = [c.id for c in REGISTRY]
ROOT = Path(__file__).resolve().parents[1]


def record(cid, verdict=None, **extra) -> R.ClaimRecord:
    """A claim record as a run of today's registry would write it."""
    c = REGISTRY[cid]
    read = object.__getattribute__
    fields = dict(id=cid, paper=c.paper, where=c.where, kind=c.kind, title=c.title,
                  statement=c.statement, verdict=verdict or c.expected, expected=c.expected,
                  evidence="e", checks=1, seconds=0.1, tests=(f"verify/t.py::test_{cid}",),
                  measurements=({"name": "residual", "value": 1e-13, "criterion": "<= 1e-08",
                                 "passed": True, "source": "reading: rtol", "source_kind": "reading",
                                 "test": "test_x"},),
                  printed=tuple(form_parts(read(c, "printed"))),
                  corrected=tuple(form_parts(read(c, "corrected"))),
                  corrected_statement=c.corrected_statement, condition=c.condition)
    fields.update(extra)
    return R.ClaimRecord(**fields)


def provenance(generated, selection=None, interrupted=False):
    return R.Provenance(generated, "abc", False, "ci", "ci", selection or {}, "pytest verify",
                        {"python": "3"}, interrupted)


def merged(claims, generated="2026-01-01T00:00:00+00:00", previous=None, figures=(), **run):
    doc, _ = R.merge(previous, R.RunRecord(provenance(generated, **run), list(claims),
                                           list(figures), {f.test for f in figures},
                                           {f.test for f in figures}), ORDER, REGISTRY_BY_ID)
    return doc


REGISTRY_BY_ID = {c.id: c for c in REGISTRY}


def test_a_partial_merge_keeps_every_other_claim_and_its_run():
    full = merged([record("BL-Eq(7)"), record("BL-Eq(13)")])
    partial = merged([record("BL-Eq(13)", "fails")], "2026-01-02T00:00:00+00:00", full,
                     selection={"claim": ["BL-Eq(13)"]})
    by_id = {c["id"]: c for c in partial["claims"]}
    assert set(by_id) == {"BL-Eq(7)", "BL-Eq(13)"}
    assert by_id["BL-Eq(7)"]["run"]["generated"] == "2026-01-01T00:00:00+00:00"
    assert by_id["BL-Eq(13)"]["run"]["generated"] == partial["generated"] == "2026-01-02T00:00:00+00:00"
    assert [r["generated"] for r in partial["runs"]] == ["2026-01-01T00:00:00+00:00",
                                                        "2026-01-02T00:00:00+00:00"]
    assert [c["id"] for c in partial["claims"]] == [i for i in ORDER if i in by_id]
    assert partial["papers"]["bias"]["prefix"] == "BL-" and partial["format"] == R.FORMAT


def test_claims_no_longer_registered_are_dropped_and_named():
    old = {"claims": [dict(record("BL-Eq(7)").as_json(), id="MHS-A-Eq(loss")]}
    _, dropped = R.merge(old, R.RunRecord(provenance("t"), []), ORDER, REGISTRY_BY_ID)
    assert dropped == ["MHS-A-Eq(loss"]


def test_figures_of_tests_that_ran_again_replace_their_old_versions():
    fig = R.FigureRecord("figures/a.png", "c", ("BL-Eq(7)",), "verify/t.py::test_a")
    first = merged([record("BL-Eq(7)")], "1", figures=[fig])
    again = merged([record("BL-Eq(7)")], "2", first, figures=[fig])
    assert len(again["figures"]) == 1 and again["figures"][0]["generated"] == "2"


def test_figures_of_tests_the_suite_no_longer_has_are_dropped(tmp_path):
    """An old figure stays while its test does: a test this run collected, or one in a file this
    run did not collect that still exists; a moved file's or a renamed test's figure goes."""
    (tmp_path / "kept.py").write_text("def test_k(): pass\n")
    old = [R.FigureRecord(f"figures/{n}.png", "c", ("BL-Eq(7)",), test)
           for n, test in (("moved", "gone.py::test_m"), ("renamed", "t.py::test_old"),
                           ("other", "kept.py::test_k"), ("known", "t.py::test_b"))]
    first = merged([record("BL-Eq(7)")], "1", figures=old)
    run = R.RunRecord(provenance("2"), [record("BL-Eq(7)")],
                      tests_known={"t.py::test_a", "t.py::test_b"})
    doc, _ = R.merge(first, run, ORDER, REGISTRY_BY_ID, tmp_path)
    assert sorted(f["png"] for f in doc["figures"]) == ["figures/known.png", "figures/other.png"]
    everything, _ = R.merge(first, run, ORDER, REGISTRY_BY_ID)   # no root: files unknown, kept
    assert len(everything["figures"]) == 3


def test_records_cross_the_worker_boundary_as_json_and_come_back_typed():
    rec = record("BL-Def-EffRank", "erratum", setups=({"name": "a", "faithful": True},))
    assert R.ClaimRecord.from_json(json.loads(json.dumps(rec.as_json()))) == rec
    with pytest.raises(R.RecordDamaged, match="no fields"):
        R.ClaimRecord.from_json(dict(rec.as_json(), setup={}))


@pytest.mark.parametrize("text", ["{broken", "[1, 2]", '{"claims": "x"}',
                                  '{"suite": "other", "claims": []}'])
def test_damaged_or_foreign_records_raise_and_stay_as_they_are(tmp_path, text):
    path = tmp_path / "claims.json"
    path.write_text(text)
    with pytest.raises(R.RecordDamaged, match="not a claims record"):
        R.load(path)
    assert path.read_text() == text and len(list(tmp_path.iterdir())) == 1


def test_a_record_of_an_older_format_is_kept_beside_and_a_new_one_started(tmp_path):
    path = tmp_path / "claims.json"
    path.write_text(json.dumps({"format": 2, "claims": []}))
    doc, note = R.load_current(path)
    assert doc is None and "format 2" in note and (tmp_path / "claims.json.format-2").exists()


def test_forms_are_recorded_as_latex_and_srepr_with_nested_parts_named():
    x = sp.Symbol("x")
    parts = form_parts({"(97)": {"left": sp.sqrt(x), "left_gram": "btb"}, "0": x ** 2})
    assert parts == [{"name": "(97).left", "latex": r"\sqrt{x}", "srepr": "Pow(Symbol('x'), Rational(1, 2))"},
                     {"name": "(97).left_gram", "text": "btb"},
                     {"name": "0", "latex": "x^{2}", "srepr": "Pow(Symbol('x'), Integer(2))"}]
    assert sp.sympify(parts[0]["srepr"]) == sp.sqrt(x)


def test_every_registered_form_and_statement_reads_as_clean_text():
    """No report shows raw LaTeX or a Python repr: every statement, condition and form part of
    the registry, cleaned, has no backslash, no '$', no 'Forms(' and no LaTeX command name."""
    commands = re.compile(r"\b(mathbb|mathrm|textasciicircum|operatorname|frac)\b|Forms\(|\\|\$")
    for claim in REGISTRY:
        read = object.__getattribute__
        texts = [claim.statement, claim.corrected_statement, claim.condition]
        for side in ("printed", "corrected"):
            texts += [clean(p["latex"]) if "latex" in p else p["text"]
                      for p in form_parts(read(claim, side))]
        for text in texts:
            assert not commands.search(clean(text)), (claim.id, clean(text))


def test_latex_becomes_clean_text_keeping_exponent_groups():
    assert clean(r"$\tau = \frac{1}{N\epsilon}$") == "τ = 1/(Nε)"
    assert clean(r"\frac{\tau \log{\left(\frac{a}{b} \right)}}{2 s}") == "(τ log(a/b ))/(2 s)"
    assert clean(r"\tilde\Sigma^{yx} \hat{y}") == "\u03a3\u0303^yx y\u0302"
    assert clean(r"there is $\delta\in\mathbb R$") == "there is δ∈ℝ"
    assert clean(r"\sum_{q: t(q)=v} g_q") == "Σ_(q: t(q)=v) g_q"
    assert clean(r"e^{- \frac{2 t}{\tau^{2}}}") == "e^(- (2 t)/(τ^2))"
    assert clean(r"x \textasciicircum 2") == "x ^ 2"
    assert clean(r"\argmin\{t : f_{on}(t) = 1\}") == "argmin{t : f_on(t) = 1}"


def test_a_source_quoting_latex_is_shown_as_clean_text():
    m = {"name": "err", "value": [0.123456789] * 20, "criterion": "<= 1e-08", "passed": False,
         "source": r'paper L90: "$\bar W(t)$ and \sum_{q} g_q"', "role": "printed"}
    text = measured(m)
    assert text.startswith("printed: err: [0.123, 0.123,") and "(20 in all)" in text
    assert "FAILED" in text and "\\" not in text and "$" not in text


def test_wrapped_text_fits_its_measured_width():
    text = "a long ID MHS-A-Eq(loss)-without-spaces-anywhere-at-all " * 5
    for line in wrap(text, 1.0):
        assert width(line) <= 1.0


def write_paper_scale(folder: Path, code: dict | None, verdict="not-reproduced", faithful=True):
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"experiment": "verify/x.py::test_big", "device": "cpu: x86_64", "wall_s": 10.0,
           "started": "2099-01-05T00:00:00+00:00", "commit": "abcdef1234567", "dirty": True,
           "claims": {"BL-Fig2": {"verdict": verdict, "faithful": faithful, "setups": [],
                                  "measurements": [{"name": "gap", "value": -0.2, "criterion": "> 0",
                                                    "passed": False, "source": "paper L1: \"x\"",
                                                    "source_kind": "paper"}]}}}
    if code is not None:
        doc["imports"] = code
    (folder / "test_big.json").write_text(json.dumps(doc))


def test_a_faithful_paper_scale_verdict_is_the_headline_with_a_flag_when_its_code_changed(tmp_path):
    src = tmp_path / "src.py"
    src.write_text("x = 1\n")
    from verify.report.code import file_hash
    write_paper_scale(tmp_path / "paper_scale", {"src.py": file_hash(src)})
    rows = P.read(tmp_path, root=tmp_path)
    row = rows["BL-Fig2"]
    assert row["verdict"] == "not-reproduced" and row["code_changed"] == [] and not P.staleness(row)
    assert row["file"] == "paper_scale/test_big.json" and row["commit"] == "abcdef1234567"
    src.write_text("x = 2\n")
    assert P.read(tmp_path, root=tmp_path)["BL-Fig2"]["code_changed"] == ["src.py"]
    assert "changed since: src.py" in P.staleness(P.read(tmp_path, root=tmp_path)["BL-Fig2"])
    rec = dict(record("BL-Fig2", "inconclusive").as_json(), paper_scale=row)
    assert R.headline(rec)[0] == "not-reproduced"
    stale = P.read(tmp_path, root=tmp_path)["BL-Fig2"]
    assert R.headline(dict(rec, paper_scale=stale))[0] == "inconclusive"  # demoted
    assert R.headline(dict(rec, paper_scale=dict(row, faithful=False)))[0] == "inconclusive"


def test_a_claim_with_several_records_is_led_by_its_strongest_verdict_whatever_ran_last(tmp_path):
    """One record per test: a claim decided by two tests is led as its checks in one run are
    (the strongest verdict, the newest among equals), never by the order the tests ran in."""
    folder = tmp_path / "paper_scale"
    folder.mkdir()
    for name, verdict, started in (("a", "inconclusive", "2026-01-01T00:00:00"),
                                   ("b", "holds", "2026-01-02T00:00:00"),
                                   ("c", "inconclusive", "2026-01-03T00:00:00")):
        (folder / f"test_{name}_full.json").write_text(json.dumps(
            {"experiment": f"t::test_{name}[full]", "started": started,
             "claims": {"BL-Fig2": {"verdict": verdict, "faithful": True}}}))
    row = P.read(tmp_path, root=tmp_path)["BL-Fig2"]
    assert (row["verdict"], row["file"]) == ("inconclusive", "paper_scale/test_c_full.json")
    (folder / "test_c_full.json").unlink()
    assert P.read(tmp_path, root=tmp_path)["BL-Fig2"]["file"] == "paper_scale/test_a_full.json"


def test_the_repositorys_paper_scale_records_are_read_wherever_the_reports_go(tmp_path):
    committed = P.read(tmp_path / "elsewhere")
    assert committed, "the repository's reports/paper_scale/ records"
    assert all(row["file"].startswith("paper_scale/") for row in committed.values())


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Reports rendered from a record with claims of two papers, an erratum, a two-run claim with
    a faithful paper-scale verdict, and one figure shared by both papers."""
    from verify.report.figures import save
    from verify.report.writer import render
    reports = tmp_path_factory.mktemp("reports")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="theory")
    ax.plot([0, 1], [0, 1], "o", label="theory")
    ax.imshow([[0, 1], [1, 0]], extent=(0, 1, 0, 1))
    ax.legend()
    paths = save(fig, reports / "figures", "shared")
    setups = tuple({"name": f"panel ({p})", "scale": "ci", "faithful": False, "runner": f"numerics.x.{p}",
                    "ran": {"steps": 10}, "paper": {"steps": 1000}, "unknown": [],
                    "paper_sources": {"steps": "paper L3"}, "cost": f"panel {p}: 3 min",
                    "deviations": [{"setting": "steps", "ran": 10, "paper": 1000}]} for p in "ab")
    quote = 'paper L5: "a long quotation of the paper that must appear once in show"'
    fig2_ms = tuple({"name": f"gap {k}", "value": 0.1, "criterion": "> 0", "passed": True,
                     "source": quote, "source_kind": "paper", "details": {"mean a": 1.0, "mean b": 0.9}}
                    for k in range(3))
    doc = merged([record("BL-Eq(7)"), record("BA-Eq(3)"),
                  record("BL-Def-EffRank", "erratum", counterexample="A = I_4 gives -4"),
                  record("BL-Fig2", "supported", setups=setups, measurements=fig2_ms)],
                 figures=[R.FigureRecord(paths["png"], "mode law",
                                         ("BL-Eq(7)", "BA-Eq(3)"), "verify/t.py::test_a")])
    write_paper_scale(reports / "paper_scale", {})
    P.attach(doc, reports)
    from verify.report.files import write_json
    write_json(reports / "claims.json", doc)
    render(reports, doc, progress=lambda message: None, workers=1)
    return reports, doc


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.images = set(), [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        if tag == "img":
            self.images.append(a["src"])


def test_the_html_report_names_every_claim_and_every_link_and_figure_resolves(rendered):
    reports, doc = rendered
    pages = {}
    for page in (reports / "html").glob("*.html"):
        parser = _Links()
        parser.feed(page.read_text())
        pages[page.name] = parser
    index = pages["index.html"]
    from verify.report.html import anchor
    assert {anchor(c["id"]) for c in doc["claims"]} <= index.ids
    for name, parser in pages.items():
        for href in parser.hrefs:
            target = urlsplit(href)
            page = target.path or name
            assert page in pages, (name, href)
            assert not target.fragment or target.fragment in pages[page].ids, (name, href)
        for src in parser.images:
            assert (reports / "html" / src).resolve().is_file(), src
    assert pages["bias.html"].images and pages["bias_workshop.html"].images
    assert "<math" in (reports / "html" / "bias.html").read_text()  # the forms as MathML
    assert doc["generated"] in (reports / "html" / "bias.html").read_text()


def test_the_html_index_opens_with_the_findings_and_names_every_verdict(rendered):
    reports, _ = rendered
    text = (reports / "html" / "index.html").read_text()
    body = text[text.index("<h1>"):]
    assert body.index("What the suite found") < body.index("Verdicts per paper") < body.index("All claims")
    assert "Bias-mediated early linearization" in body  # papers by title
    for verdict in ("supported", "not-reproduced", "erratum", "untested"):
        assert f"<option>{verdict}</option>" in body  # every verdict in the filter
        assert f">{verdict}</span></dt>" in body  # and in the legend
    assert "not-reproduced at paper scale (ci: supported)" in body
    assert "panel (a)" in body and "panel (b)" in body  # every run's setup


def test_findings_name_each_claim_once_with_its_numbers_and_cost(rendered):
    _, doc = rendered
    found = {f.claim: f for fs in findings(doc).values() for f in fs}
    assert set(found) == {"BL-Def-EffRank", "BA-Eq(3)", "BL-Fig2"}  # BL-Eq(7) holds
    assert found["BL-Def-EffRank"].text.startswith("printed ") and " → corrected " in found["BL-Def-EffRank"].text
    assert found["BA-Eq(3)"].text.startswith("holds if ")
    assert found["BL-Fig2"].verdict == "not-reproduced" and found["BL-Fig2"].ci_verdict == "supported"
    assert "“x” (L1): gap is -0.2 against > 0, so it fails." in found["BL-Fig2"].text
    text = markdown(doc)
    assert text.startswith("## What the suite found") and "### Bias-mediated" in text
    assert "- **not-reproduced at paper scale (ci: supported)** `BL-Fig2`" in text


def pdf_pages(path: Path) -> list[str]:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True).stdout.split("\f")[:-1]


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils not installed")
def test_the_pdfs_are_a4_with_the_provenance_and_no_raw_latex_or_repr(rendered):
    reports, doc = rendered
    for pdf in ("bias.pdf", "bias_workshop.pdf", "summary.pdf"):
        info = subprocess.run(["pdfinfo", "-l", "99", str(reports / pdf)], capture_output=True,
                              text=True).stdout
        sizes = {line.split("size:")[1].strip() for line in info.splitlines()
                 if line.startswith("Page") and " size:" in line}
        assert sizes == {"595.44 x 841.68 pts (A4)"}, (pdf, sizes)
        pages = pdf_pages(reports / pdf)
        assert pages and all(doc["generated"] in p for p in pages), pdf
        text = "".join(pages)
        assert not re.search(r"\$|\\[A-Za-z]|Forms\(|mathbb|textasciicircum", text), pdf
    summary = pdf_pages(reports / "summary.pdf")
    assert "What the suite found" in summary[0].split("BL-")[0]
    assert "BL-Fig2" in summary[0] and "(paper scale; ci" in summary[0] and "supported)" in summary[0]
    assert "".join(pdf_pages(reports / "bias.pdf")).count("Claims BL-Eq(7), BA-Eq(3). mode law") == 1


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils not installed")
def test_pages_that_continue_a_section_say_so(tmp_path):
    from verify.report.writer import render
    claims = [record(c.id) for c in REGISTRY if c.paper == "lazy_rich"]
    doc = merged(claims)
    render(tmp_path, doc, progress=lambda m: None, workers=1)
    pages = pdf_pages(tmp_path / "lazy_rich.pdf")
    assert len(pages) > 3 and any("Claims (continued)" in p for p in pages)


def chromium(*args, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update",
                           "--disable-sync", *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.skipif(not shutil.which("chromium"), reason="Chromium is not installed")
def test_the_html_pages_render_and_a_deep_link_unfolds_its_claim(rendered, tmp_path):
    reports, _ = rendered
    profile = f"--user-data-dir={tmp_path / 'profile'}"
    for page in ("index.html", "bias.html"):
        shot = tmp_path / f"{page}.png"
        chromium(profile, "--window-size=1280,1600", f"--screenshot={shot}",
                 (reports / "html" / page).as_uri())
        assert shot.stat().st_size > 10000
    from verify.report.html import anchor
    url = (reports / "html" / "bias.html").as_uri() + "#" + anchor("BL-Fig2")
    dom = chromium(profile, "--dump-dom", url).stdout
    assert re.search(r"(\d+) of \1 claims", dom)  # the filter script ran and shows all
    row = dom[dom.index(f'id="{anchor("BL-Fig2")}"'):]
    detail = row[row.index('<tr class="detail"'):][:60]
    assert "hidden" not in detail and 'class="claim target"' in dom


def run_module(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=cwd)


def test_show_opens_with_a_summary_and_quotes_each_source_once(rendered):
    reports, _ = rendered
    shown = run_module("verify", "show", "BL-Fig2", f"--reports-dir={reports}")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("BL-Fig2: not-reproduced at paper scale (ci: supported) "
                               f"(expected {REGISTRY['BL-Fig2'].expected})")
    assert shown.stdout.count("a long quotation of the paper") == 1
    assert "absolute values: {mean a: 1, mean b: 0.9}" in shown.stdout
    assert "Setup 1 of 2:" in shown.stdout and "panel (b)" in shown.stdout
    assert "commit abcdef1234+changes" in shown.stdout
    erratum = run_module("verify", "show", "BL-Def-EffRank", f"--reports-dir={reports}").stdout
    for part in ("As printed:", "Corrected:", "Counterexample:", "residual: 1e-13", "Run:"):
        assert part in erratum, part


def test_the_record_alone_renders_its_own_forms_after_the_registry_changed(rendered, tmp_path,
                                                                           monkeypatch):
    """Acceptance (issue 17): re-rendering an old record shows that record's forms."""
    reports, doc = rendered
    claim = REGISTRY["BL-Def-EffRank"]
    changed = type(claim)(**{f: object.__getattribute__(claim, f) for f in
                             ("id", "paper", "where", "statement", "kind", "expected", "title",
                              "corrected_statement", "condition")},
                          printed=sp.Symbol("zzz_today"), corrected=sp.Symbol("zzz_today2"))
    monkeypatch.setitem(REGISTRY._claims, "BL-Def-EffRank", changed)
    from verify.report.writer import render
    out = tmp_path / "r"
    shutil.copytree(reports / "figures", out / "figures")
    render(out, json.loads(json.dumps(doc)), progress=lambda m: None, workers=1)
    html = (out / "html" / "bias.html").read_text()
    recorded = doc["claims"][[c["id"] for c in doc["claims"]].index("BL-Def-EffRank")]["printed"]
    assert "zzz_today" not in html and recorded
    if shutil.which("pdftotext"):
        assert "zzz_today" not in "".join(pdf_pages(out / "bias.pdf"))
    from verify.report.show import show_record
    assert "zzz_today" not in show_record(doc["claims"][2], doc, out)


def test_findings_print_as_markdown(rendered):
    reports, _ = rendered
    out = run_module("verify", "findings", f"--reports-dir={reports}")
    assert out.returncode == 0 and out.stdout.startswith("## What the suite found")


def test_markdown_of_the_reports_documents_the_commands():
    text = (ROOT / "docs" / "reports.md").read_text()
    for needle in ("python -m verify show", "python -m verify findings", "-n auto",
                   "html/index.html", "provenance", "supported", "filelock"):
        assert needle in text, needle
