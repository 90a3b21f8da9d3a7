"""The papers the suite referees: one :class:`Paper` record each (DESIGN.md, "A claim").

A record holds everything the rest of the suite needs to know about a paper: its key, its claim-ID
prefix, its title, its loss normalisation and clock (:class:`theory.conventions.Convention`), its
catalogue ID list, and the theory package that registers its claims.  The registry, the
conventions, the reports and the command line read these records and nothing else, so adding a
paper is one record here (or one :func:`add_paper` call), one theory package, one numerics
package, one verify folder and one tests folder (``docs/adding-a-paper.md``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from theory.conventions import MEAN_HALF, SUM_HALF, Convention, LossNorm
from theory.names import suggest


@dataclass(frozen=True)
class Paper:
    """One refereed paper.  ``ids`` is its catalogue ID list, each ID starting with ``prefix``;
    ``package`` is the module whose import registers its claims (default ``theory.<key>``)."""

    key: str
    prefix: str
    title: str
    convention: Convention
    ids: tuple[str, ...]
    package: str = ""

    def __post_init__(self):
        if not (isinstance(self.key, str) and self.key.isidentifier()):
            raise ValueError(f"key={self.key!r} must be a Python identifier (it names packages)")
        if not (isinstance(self.prefix, str) and self.prefix.endswith("-") and len(self.prefix) > 1):
            raise ValueError(f"prefix={self.prefix!r} must be letters ending in '-', e.g. 'BL-'")
        if not isinstance(self.title, str) or not self.title.strip():
            raise ValueError("title must be the paper's title")
        if not isinstance(self.convention, Convention) or self.convention.paper != self.key:
            raise ValueError(f"convention must be a Convention for paper {self.key!r}")
        if not self.ids or len(set(self.ids)) != len(self.ids):
            raise ValueError(f"ids of paper {self.key!r} must be a non-empty list without repeats")
        stray = [i for i in self.ids if not i.startswith(self.prefix)]
        if stray:
            raise ValueError(f"ids {stray[:3]} of paper {self.key!r} lack its prefix {self.prefix!r}")
        if not self.package:
            object.__setattr__(self, "package", f"theory.{self.key}")


@cache
def _catalogue() -> dict[str, tuple[str, ...]]:
    """paper key -> catalogue IDs, from the project's copy ``theory/ids.tsv`` of the shared index.

    Read with a plain split: the csv module drops rows after an unmatched quote in a title.
    """
    rows = (line.rstrip("\n").split("\t") for line in
            Path(__file__).with_name("ids.tsv").open(encoding="utf-8"))
    out: dict[str, list[str]] = {}
    for row in rows:
        if row[0] and not row[0].startswith("#"):
            out.setdefault(row[1], []).append(row[0])
    return {k: tuple(v) for k, v in out.items()}


def catalogue(key: str) -> tuple[str, ...]:
    """The IDs that ``theory/ids.tsv`` lists for paper ``key``."""
    try:
        return _catalogue()[key]
    except KeyError:
        raise ValueError(f"paper {key!r} has no IDs in theory/ids.tsv") from None


def _paper(key, prefix, title, **convention) -> Paper:
    return Paper(key, prefix, title, Convention(key, **convention), catalogue(key))


#: Every paper, by key, in report order.
PAPERS: dict[str, Paper] = {p.key: p for p in (
    _paper("bias", "BL-", "Bias-mediated early linearization drives simplicity bias in ReLU networks",
           flow=MEAN_HALF, train=SUM_HALF,
           clock="epochs = full-batch steps; tau = 1/(P*lr) on the 1/2-sum loss (App B, L558)"),
    _paper("bias_workshop", "BA-", "Bias-driven alignment of linear and ReLU networks",
           flow=MEAN_HALF, train=SUM_HALF,
           clock="epochs = full-batch steps; tau = 1/(N*lr) on the 1/2-sum loss (App A, L133)"),
    _paper("rich_quick", "GRQ-", "Get rich quick (Kunin et al.)",
           flow=SUM_HALF, train=SUM_HALF,
           clock="gradient-flow time t = lr * steps on the 1/2-sum loss, tau = 1 (L34)",
           # App D's "mean square loss", normalisation unstated: read as the plain mean (no 1/2).
           experiments=LossNorm(mean=True, half=False)),
    _paper("haste_slowly", "MHS-", "Make haste slowly (Jarvis et al.)",
           flow=MEAN_HALF, train=SUM_HALF,
           clock="epochs = full-batch steps; tau = 1/(P*lr) on the 1/2-sum loss (App A; code)"),
    _paper("lazy_rich", "LR-", "From lazy to rich (Domine et al.)",
           flow=MEAN_HALF, train=MEAN_HALF,
           clock="t/tau = lr * steps on the 1/2-mean loss, tau = 1/lr (Sec 3)"),
)}


def add_paper(paper: Paper) -> Paper:
    """Add a paper outside the five (a draft, a follow-up): its key, prefix and IDs must be new."""
    if not isinstance(paper, Paper):
        raise TypeError(f"paper must be a Paper record, got {type(paper).__name__}")
    if paper.key in PAPERS:
        raise ValueError(f"paper key {paper.key!r} is taken")
    if any(p.prefix == paper.prefix for p in PAPERS.values()):
        raise ValueError(f"prefix {paper.prefix!r} is taken")
    PAPERS[paper.key] = paper
    return paper


def paper(key: str) -> Paper:
    """The record of paper ``key``; an unknown key names the valid ones (with a near match)."""
    try:
        return PAPERS[key]
    except KeyError:
        raise ValueError(f"paper={key!r} is not known; {suggest(key, PAPERS)}") from None
