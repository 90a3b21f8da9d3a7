"""Sources checked against the text (issue: a calibrated referee, acceptance 1): in every record
that can lead (the last run's ``reports/claims.json`` where there is one, and every committed
paper-scale record made since records hash their imports), an empirical claim is decided only by the paper's numbers, the authors' code, an exact
computation, a lexicon reading or a direction statistic, and every quoted ``paper`` or
``lexicon`` source's words stand at the line it names in the paper's text
(``../shared/papers``)."""
import json
import re
from pathlib import Path

import pytest

from theory import papers
from verify.measurement import DECISIVE_KINDS, SOURCE_KINDS

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT.parent / "shared" / "papers"
QUOTED = re.compile(r'^(paper|lexicon) (.+?): "(.*)"(?:, read by .*| \[reading: .*\])?$', re.S)
#: a line reference: "L120", "L120-L125", "L616-644", "l.105-106", optionally after a paper's
#: index ("001 L55")
LINES = re.compile(r"(?:\b(\d{3}) )?[Ll]\.?\s?(\d+)(?:\s?[-–]\s?[Ll]?\.?(\d+))?")
WINDOW = 2


def _norm(text: str) -> str:
    for a, b in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("–", "-"), ("—", "-"),
                 ("*", ""), ("\\", "")):
        text = text.replace(a, b)
    return re.sub(r"\s+", " ", text).strip().lower()


def _paper_lines() -> dict[int, list[str]]:
    out = {}
    for path in sorted(TEXTS.glob("[0-9][0-9][0-9]_*.txt")):
        out[int(path.name[:3])] = path.read_text(encoding="utf-8").splitlines()
    return out


def _position(paper_key: str) -> int:
    return papers.PAPERS[paper_key].position


def found(words: str, where: str, paper_key: str, texts: dict[int, list[str]]) -> bool:
    """Whether ``words`` (fragments split at an ellipsis) stand within the lines ``where`` names."""
    spans = [(int(i) if i else _position(paper_key), int(a), int(b or a))
             for i, a, b in LINES.findall(where)]
    if not spans:
        return False
    fragments = [f for f in re.split(r"\.\.\.|…", _norm(words)) if f.strip()]
    for index, first, last in spans:
        lines = texts.get(index, [])
        window = _norm(" ".join(lines[max(first - 1 - WINDOW, 0):last + WINDOW]))
        if fragments and all(f.strip() in window for f in fragments):
            return True
    return False


def _records():
    """(file, claim, measurements) of every record that can lead: the last run's and each
    committed paper-scale record that hashes its imports (an older one predates the lexicon rule
    and never leads: verify.report.record.headline)."""
    out = []
    for path in sorted((ROOT / "reports" / "paper_scale").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if "imports" not in doc:
            continue
        out += [(path.name, cid, entry.get("measurements", []))
                for cid, entry in doc.get("claims", {}).items()]
    last = ROOT / "reports" / "claims.json"
    if last.is_file():
        try:
            doc = json.loads(last.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            doc = {}
        out += [("claims.json", c["id"], c.get("measurements", [])) for c in doc.get("claims", [])
                if c.get("kind") == "empirical"]
    return out


def _paper_of(claim_id: str) -> str:
    return next(k for k, p in papers.PAPERS.items() if claim_id.startswith(p.prefix))


def test_empirical_claims_are_decided_by_the_allowed_kinds_only():
    bad = [(f, cid, m["name"], m.get("source_kind")) for f, cid, ms in _records() for m in ms
           if m.get("source_kind") not in SOURCE_KINDS]
    assert not bad, f"sources of a kind that no longer decides (a same-run baseline?): {bad[:5]}"
    assert set(DECISIVE_KINDS) == {"paper", "code", "exact", "lexicon"}


def _exact_criterion(criterion: str) -> bool:
    """An exact computation's criterion: equality, a sign, or a bound at round-off (<= 1e-6)."""
    op, _, bound = criterion.partition(" ")
    if op == "==":
        return True
    try:
        value = float(bound)
    except ValueError:
        return False
    return value == 0 or (op in ("<", "<=") and 0 < value <= 1e-6)


def test_an_exact_source_in_an_empirical_claim_is_equality_at_round_off():
    loose = [(f, cid, m["name"], m["criterion"]) for f, cid, ms in _records() for m in ms
             if m.get("source_kind") == "exact" and not _exact_criterion(m.get("criterion", ""))]
    assert not loose, f"an 'exact' source with a threshold the suite chose: {loose[:5]}"
    assert _exact_criterion("== 0") and _exact_criterion("< 1e-10")
    assert _exact_criterion("> 0") and not _exact_criterion("<= 0.1")
    assert not _exact_criterion("> 0.5")


@pytest.mark.skipif(not TEXTS.is_dir(), reason="the papers' text (../shared/papers) is absent")
def test_quoted_words_stand_at_the_line_they_name():
    texts = _paper_lines()
    missing = []
    for f, cid, ms in _records():
        for m in ms:
            match = QUOTED.match(m.get("source", ""))
            if match and m.get("source_kind") in ("paper", "lexicon"):
                _, where, words = match.groups()
                if not found(words, where, _paper_of(cid), texts):
                    missing.append(f"{f} {cid}: {where}: {words[:80]!r}")
    assert not missing, (f"{len(missing)} quoted sources are not at the line they name:\n"
                         + "\n".join(sorted(set(missing))[:40]))


@pytest.mark.skipif(not TEXTS.is_dir(), reason="the papers' text (../shared/papers) is absent")
def test_the_quote_check_rejects_words_at_another_line():
    texts = _paper_lines()
    line = next(i for i, text in enumerate(texts[3], 1) if "no neurons" in text)
    assert found("there are no neurons", f"L{line}", "haste_slowly", texts)
    assert found("there are no neurons", f"Sec 4, L{line - 1}-L{line + 1}", "haste_slowly", texts)
    assert not found("there are no neurons", f"L{line + 40}", "haste_slowly", texts)
    assert not found("there are many neurons", f"L{line}", "haste_slowly", texts)
    assert not found("there are no neurons", "Fig 4a", "haste_slowly", texts)
