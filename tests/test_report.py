"""The run record and the reports rendered from it: merging, provenance, corrupt files,
paper-scale records, the HTML report (parsed, and in headless Chromium when installed), the PDFs'
text layout, and ``python -m theory show``."""
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

from theory.registry import REGISTRY, load_all
from verify.report import record as R
from verify.report.pdf import width, wrap
from verify.measurement import measurement_line
from verify.report.text import clean

load_all()


def claim(cid, verdict=None, **extra):
    c = REGISTRY[cid]
    return dict({"id": cid, "paper": c.paper, "where": c.where, "kind": c.kind,
                 "verdict": verdict or c.expected, "expected": c.expected, "evidence": "e",
                 "checks": 1, "seconds": 0.1, "title": c.title, "counterexample": "",
                 "condition": "", "reconstructed": False, "tests": [f"verify/t.py::test_{cid}"],
                 "measurements": [{"name": "residual", "value": 1e-13, "criterion": "<= 1e-08",
                                   "passed": True, "source": "reading: rtol"}]}, **extra)


def provenance(generated, selection=None):
    return {"generated": generated, "commit": "abc", "dirty": False, "profile": "ci",
            "scale": "ci", "selection": selection or {}, "command": "pytest verify",
            "versions": {"python": "3"}}


ORDER = [c.id for c in REGISTRY]


def test_a_partial_merge_keeps_every_other_claim_and_its_run():
    full, _ = R.merge(None, provenance("2026-01-01T00:00:00+00:00"),
                      [claim("BL-Eq(7)"), claim("BL-Eq(13)")], [], [], set(), ORDER)
    partial, dropped = R.merge(full, provenance("2026-01-02T00:00:00+00:00", {"claim": ["BL-Eq(13)"]}),
                               [claim("BL-Eq(13)", "fails")], [], [], set(), ORDER)
    by_id = {c["id"]: c for c in partial["claims"]}
    assert not dropped and set(by_id) == {"BL-Eq(7)", "BL-Eq(13)"}
    assert by_id["BL-Eq(7)"]["run"]["generated"] == "2026-01-01T00:00:00+00:00"
    assert by_id["BL-Eq(13)"]["run"]["generated"] == partial["generated"] == "2026-01-02T00:00:00+00:00"
    assert [r["generated"] for r in partial["runs"]] == ["2026-01-01T00:00:00+00:00",
                                                        "2026-01-02T00:00:00+00:00"]
    assert [c["id"] for c in partial["claims"]] == [i for i in ORDER if i in by_id]


def test_claims_no_longer_registered_are_dropped_and_named():
    old = {"claims": [dict(claim("BL-Eq(7)"), id="MHS-A-Eq(loss")]}
    _, dropped = R.merge(old, provenance("t"), [], [], [], set(), ORDER)
    assert dropped == ["MHS-A-Eq(loss"]


def test_figures_of_tests_that_ran_again_replace_their_old_versions():
    fig = {"svg": "figures/a.svg", "png": "figures/a.png", "caption": "c", "claims": ["BL-Eq(7)"],
           "test": "verify/t.py::test_a"}
    first, _ = R.merge(None, provenance("1"), [claim("BL-Eq(7)")], [fig], [], {fig["test"]}, ORDER)
    again, _ = R.merge(first, provenance("2"), [claim("BL-Eq(7)")], [fig], [], {fig["test"]}, ORDER)
    assert len(again["figures"]) == 1 and again["figures"][0]["generated"] == "2"


@pytest.mark.parametrize("text", ["{broken", "[1, 2]", '{"claims": "x"}',
                                  '{"suite": "other", "claims": []}'])
def test_corrupt_or_foreign_records_are_set_aside(tmp_path, text):
    path = tmp_path / "claims.json"
    path.write_text(text)
    doc, problem = R.load(path)
    assert doc is None and "set aside" in problem and not path.exists()
    [aside] = tmp_path.glob("claims.json.set-aside-*")
    assert aside.read_text() == text


def test_paper_scale_records_appear_beside_the_ci_verdict(tmp_path):
    folder = tmp_path / "paper_scale"
    folder.mkdir()
    (folder / "test_big.json").write_text(json.dumps({
        "experiment": "verify/x.py::test_big", "device": "cuda: H100", "wall_seconds": 10,
        "commit": "abc", "date": "2026-01-05",
        "claims": {"BL-Fig2": {"verdict": "holds", "measurements": [], "setup": {}}}}))
    doc = {"claims": [claim("BL-Fig2", "inconclusive")]}
    R.attach_paper_scale(doc, tmp_path)
    assert doc["claims"][0]["paper_scale"] == {"verdict": "holds", "device": "cuda: H100",
                                               "date": "2026-01-05",
                                               "file": "paper_scale/test_big.json"}


def test_latex_becomes_clean_text_without_dollars_or_backslashes():
    assert clean(r"$\tau = \frac{1}{N\epsilon}$") == "τ = 1/(Nε)"
    assert clean(r"\frac{\tau \log{\left(\frac{a}{b} \right)}}{2 s}") == "(τ log(a/b ))/(2 s)"
    assert clean(r"\tilde\Sigma^{yx} \hat{y}") == "\u03a3\u0303^yx y\u0302"


def test_measurements_read_to_three_significant_figures_with_short_arrays():
    m = {"name": "err", "value": [0.123456789] * 20, "criterion": "<= 1e-08", "passed": False,
         "source": "reading: x", "role": "printed"}
    text = measurement_line(m)
    assert text.startswith("printed: err: [0.123, 0.123,") and "(20 in all)" in text
    assert "FAILED (reading: x)" in text


def test_wrapped_text_fits_its_measured_width():
    text = "a long ID MHS-A-Eq(loss)-without-spaces-anywhere-at-all " * 5
    for line in wrap(text, 1.0):
        assert width(line) <= 1.0


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


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Reports rendered from a record with claims of two papers and one figure shared by both."""
    from verify.report.figures import save
    from verify.report.writer import render
    reports = tmp_path_factory.mktemp("reports")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="theory")
    ax.plot([0, 1], [0, 1], "o", label="theory")
    ax.imshow([[0, 1], [1, 0]], extent=(0, 1, 0, 1))
    ax.legend()
    paths = save(fig, reports / "figures", "shared")
    doc, _ = R.merge(None, provenance("2026-01-01T00:00:00+00:00"),
                     [claim("BL-Eq(7)"), claim("BA-Eq(3)"), claim("BL-Eq(14)", "erratum",
                                                                  counterexample="g -> 0")],
                     [dict(paths, caption="mode law", claims=["BL-Eq(7)", "BA-Eq(3)"],
                           test="verify/t.py::test_a")], [], set(), ORDER)
    R.write(reports / "claims.json", doc)
    render(reports, doc, progress=lambda message: None)
    return reports, doc


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


def test_the_pdfs_are_a4_with_the_provenance_on_every_page(rendered):
    reports, doc = rendered
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils not installed")
    for pdf in ("bias.pdf", "bias_workshop.pdf", "summary.pdf"):
        info = subprocess.run(["pdfinfo", "-l", "99", str(reports / pdf)], capture_output=True,
                              text=True).stdout
        sizes = {line.split("size:")[1].strip() for line in info.splitlines()
                 if line.startswith("Page") and " size:" in line}
        assert sizes == {"595.44 x 841.68 pts (A4)"}, (pdf, sizes)
        pages = subprocess.run(["pdftotext", "-layout", str(reports / pdf), "-"],
                               capture_output=True, text=True).stdout.split("\f")[:-1]
        assert pages and all(doc["generated"] in p for p in pages), pdf
        assert "$" not in "".join(pages)
    text = subprocess.run(["pdftotext", str(reports / "bias.pdf"), "-"], capture_output=True,
                          text=True).stdout
    assert text.count("Claims BL-Eq(7), BA-Eq(3). mode law") == 1


@pytest.mark.skipif(not shutil.which("chromium"), reason="Chromium is not installed")
def test_the_html_pages_render_in_headless_chromium(rendered, tmp_path):
    reports, _ = rendered
    for page in ("index.html", "bias.html"):
        shot = tmp_path / f"{page}.png"
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--window-size=1280,1600", f"--screenshot={shot}",
                        (reports / "html" / page).as_uri()], capture_output=True, timeout=120)
        assert shot.stat().st_size > 10000
        dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                              "--dump-dom", (reports / "html" / page).as_uri()],
                             capture_output=True, text=True, timeout=120).stdout
        assert re.search(r"(\d+) of \1 claims", dom)  # the filter script ran and shows all


def test_show_prints_a_claim_from_the_last_run_and_suggests_unknown_ids(rendered):
    reports, _ = rendered
    shown = subprocess.run([sys.executable, "-m", "theory", "show", "BL-Eq(14)",
                            f"--reports-dir={reports}"], capture_output=True, text=True)
    assert shown.returncode == 0
    for part in ("As printed:", "Corrected:", "Verdict: erratum (expected erratum)",
                 "Counterexample:", "residual: 1e-13", "<= 1e-08 passed (reading: rtol)", "Run:"):
        assert part in shown.stdout, part
    wrong = subprocess.run([sys.executable, "-m", "theory", "show", "BL-Eq14"],
                           capture_output=True, text=True)
    assert wrong.returncode == 2 and "did you mean 'BL-Eq(14)'" in wrong.stderr


def test_the_html_shows_the_paper_scale_verdict(tmp_path, rendered):
    reports, doc = rendered
    from verify.report import html
    doc = json.loads(json.dumps(doc))
    doc["claims"][0]["paper_scale"] = {"verdict": "holds", "device": "cuda: H100",
                                       "date": "2026-01-05", "file": "paper_scale/x.json"}
    out = tmp_path / "r"
    shutil.copytree(reports / "figures", out / "figures")
    html.write(out, doc)
    assert "cuda: H100" in (out / "html" / f"{doc['claims'][0]['paper']}.html").read_text()


def test_markdown_of_the_reports_documents_the_commands():
    text = (Path(__file__).resolve().parents[1] / "docs" / "reports.md").read_text()
    for needle in ("python -m theory show", "-n auto", "html/index.html", "provenance"):
        assert needle in text
